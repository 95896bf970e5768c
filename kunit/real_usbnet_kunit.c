// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own drivers/net/usb/usbnet.c under the model's schedules
 * (real/, docs/real-code.md).
 *
 * bqlm_real_usbnet_replay: the explorer runs on the model, in the kernel,
 * and for every check it finds violated, its shortest witness is replayed
 * on the real code of the same variant, the model in lockstep: the real
 * state must equal the model's after every step, and the model's
 * invariants, checked on the real state, must be violated at exactly the
 * step the model is. The over-completion is reported at the real
 * netdev_completed_queue(), never made: the kernel goes on.
 *
 * bqlm_real_usbnet_equivalence: seeded random paths of the model, each
 * replayed on a fresh real device of the same variant, compared after
 * every step (the 22 fields of struct dql, both XOFF bits, dev->txq and
 * dev->done lengths, the event flags, the pending bottom halves and which
 * actors are in the middle of their work).
 *
 * In userspace there is no usbnet.c to run: every case skips.
 */
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/usbnet.h>

/* Whose driver_info usbnet runs with (enum bqlm_rcu_driver) */
#define REAL_HARNESS	0	/* FLAG_ETHER and the flags below */
#define REAL_CDC_ETHER	1	/* cdc_ether.c's cdc_info */
#define REAL_AQC111	2	/* aqc111.c's aqc111_info */
#define REAL_CDC_NCM	3	/* cdc_ncm.c's cdc_ncm_info */

struct real_usbnet_param {
	enum bqlm_usbnet_variant variant;
	unsigned int packets;
	unsigned int stops;
	unsigned int suspends;
	unsigned int flags;
	bool strict;
	const char *desc;
	unsigned int driver;
	unsigned int expect;	/* replays: the checks the model violates */
	unsigned int key;	/* replays: the verdict's check ... */
	unsigned int depth;	/* ... and its witness's length */
};

#define OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define RS	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)
#define SC	BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION)
#define SA	BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)

/*
 * The explorations of docs/usbnet.md whose witnesses are replayed: the
 * default bound (3 packets), the race alone, the two findings on the fixed
 * code (cdc_ncm's at the 2 packets it needs) and the minidrivers.
 */
static const struct real_usbnet_param real_usbnet_replays[] = {
	{ BQLM_USBNET_MERGED, 3, 1, 1, 0, false, "merged-syzbot", REAL_HARNESS,
	  OC | BB | RS | SA, BQLM_CHECK_DQL_OVER_COMPLETION, 11 },
	{ BQLM_USBNET_FIX_RESET, 3, 1, 1, 0, false, "fix-reset-resume",
	  REAL_HARNESS, OC | BB | SA, BQLM_CHECK_BYTE_BALANCE, 6 },
	{ BQLM_USBNET_V1, 3, 1, 1, 0, false, "v1", REAL_HARNESS,
	  OC | BB | RS | SC | SA, BQLM_CHECK_DQL_OVER_COMPLETION, 12 },
	{ BQLM_USBNET_V1, 3, 0, 0, 0, false, "v1-race-only", REAL_HARNESS,
	  SC, BQLM_CHECK_SERIAL_COMPLETION, 27 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	  false, "fixed-avoid-unlink", REAL_HARNESS, OC | BB | RS,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 16 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, 0, false, "fixed", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_NO_BQL, 3, 1, 1, 0, false, "no-bql", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_MERGED, 2, 1, 1, 0, false, "merged-cdc_ether",
	  REAL_CDC_ETHER, OC | BB | RS | SA, BQLM_CHECK_DQL_OVER_COMPLETION,
	  11 },
	{ BQLM_USBNET_FIXED, 2, 1, 1, BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	  false, "fixed-aqc111", REAL_AQC111, OC | BB | RS,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 16 },
	{ BQLM_USBNET_FIXED, 2, 1, 1, 0, false, "fixed-cdc_ncm-flush",
	  REAL_CDC_NCM, OC | RS, BQLM_CHECK_DQL_OVER_COMPLETION, 29 },
};

KUNIT_ARRAY_PARAM_DESC(real_usbnet_replays, real_usbnet_replays, desc);

static const struct real_usbnet_param real_usbnet_variants[] = {
	{ BQLM_USBNET_NO_BQL, 3, 1, 1, 0, false, "no-bql", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_V1, 3, 1, 1, 0, false, "v1", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_MERGED, 3, 1, 1, 0, false, "merged", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_FIX_RESET, 3, 1, 1, 0, false, "fix-reset", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, 0, false, "fixed", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	  false, "fixed-avoid-unlink", REAL_HARNESS, 0, 0, 0 },
	{ BQLM_USBNET_MERGED, 3, 1, 1, 0, false, "merged-cdc_ether",
	  REAL_CDC_ETHER, 0, 0, 0 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, 0, false, "fixed-cdc_ether",
	  REAL_CDC_ETHER, 0, 0, 0 },
	{ BQLM_USBNET_MERGED, 3, 1, 1, BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	  false, "merged-aqc111", REAL_AQC111, 0, 0, 0 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	  false, "fixed-aqc111", REAL_AQC111, 0, 0, 0 },
	{ BQLM_USBNET_MERGED, 3, 1, 1, 0, false, "merged-cdc_ncm",
	  REAL_CDC_NCM, 0, 0, 0 },
	{ BQLM_USBNET_FIXED, 3, 1, 1, 0, false, "fixed-cdc_ncm", REAL_CDC_NCM, 0, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(real_usbnet_variants, real_usbnet_variants, desc);

#ifdef __KERNEL__

#include "../real/usbnet_real.h"
#include "schedule_text.h"

static_assert(REAL_CDC_ETHER == BQLM_RCU_DRV_CDC_ETHER);
static_assert(REAL_AQC111 == BQLM_RCU_DRV_AQC111);
static_assert(REAL_CDC_NCM == BQLM_RCU_DRV_CDC_NCM);

#define REAL_PATHS	2000
#define REAL_MAX_STEPS	80
#define REAL_MAX_PATH	64

static void real_usbnet_end(void *r)
{
	bqlm_rcu_session_destroy(r);
}

/* A session that ends with the case, however the case ends. */
static struct bqlm_rcu_session *real_usbnet_session(struct kunit *test,
						    const struct bqlm_usbnet_cfg *cfg,
						    unsigned int driver)
{
	struct bqlm_rcu_session *r = bqlm_rcu_session_create(cfg, driver);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(r), "session: %ld", PTR_ERR(r));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, real_usbnet_end,
							r), 0);
	return r;
}
#define REAL_MAX_STATES	20000
#define REAL_MAX_SCHEDULE	512

static void real_usbnet_cfg(const struct real_usbnet_param *p,
			    struct bqlm_usbnet_cfg *cfg)
{
	bqlm_usbnet_cfg_default(cfg, p->variant);
	cfg->packets = p->packets;
	cfg->stops = p->stops;
	cfg->suspends = p->suspends;
	cfg->flags = p->flags;
	if (p->driver == REAL_AQC111) {
		/*
		 * aqc111_tx_fixup(): an 8-byte descriptor, padded to 8 bytes
		 * (1514 + 8 + 6), and 8 more only where usbnet would add one
		 * (not at these lengths): the model's pad fixup.
		 */
		cfg->fixup = BQLM_USBNET_FIXUP_PAD;
		cfg->pad_header = 14;
	}
	if (p->driver == REAL_CDC_NCM)
		cfg->fixup = BQLM_USBNET_FIXUP_MULTI;
	/* without CONFIG_PM usbnet has no EVENT_DEV_ASLEEP deferral */
	if (!IS_ENABLED(CONFIG_PM))
		cfg->suspends = 0;
}

static void real_usbnet_report(struct kunit *test,
			       const struct bqlm_rc_result *res,
			       const char *what)
{
	if (res->err_step)
		KUNIT_FAIL(test, "%s: step %u (%s): %s", what, res->err_step,
			   res->desc, res->err);
	if (res->diff)
		KUNIT_FAIL(test, "%s: after step %u (%s): %s real %s model %s",
			   what, res->diff_step, res->desc, res->diff_what,
			   res->diff_real, res->diff_model);
}

struct real_usbnet_lines {
	struct kunit *test;
	unsigned int n;
};

static void real_usbnet_line(void *arg, const char *line)
{
	struct real_usbnet_lines *l = arg;

	l->n++;
	kunit_info(l->test, "%s", line);
}

/*
 * Write a witness as a schedule and read it back: the replay then runs
 * what "make kunit-replay" would, and the round trip is checked.
 */
static int real_usbnet_roundtrip(struct kunit *test,
				 const struct bqlm_usbnet_cfg *cfg,
				 enum bqlm_check c, unsigned int *path, int n)
{
	struct schedule_text *t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);
	unsigned int *back = kunit_kcalloc(test, REAL_MAX_PATH, sizeof(*back),
					   GFP_KERNEL);
	struct bqlm_usbnet_cfg *got = kunit_kzalloc(test, sizeof(*got),
						    GFP_KERNEL);
	enum bqlm_check check;
	char err[96];
	int m;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, back);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_schedule_write(cfg, c, path, n,
			schedule_text_line, t), 0);
	KUNIT_ASSERT_FALSE(test, t->overflow);
	m = bqlm_usbnet_schedule_parse(t->buf, got, &check, back,
				       REAL_MAX_PATH, err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, m, n, "%s", err);
	KUNIT_EXPECT_EQ(test, check, c);
	KUNIT_EXPECT_EQ(test, memcmp(back, path, n * sizeof(*path)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, cfg, sizeof(*cfg)), 0);
	memcpy(path, back, n * sizeof(*path));
	return m;
}

static void real_usbnet_replay(struct kunit *test)
{
	const struct real_usbnet_param *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						    GFP_KERNEL);
	struct bqlm_xresult *xres = kunit_kzalloc(test, sizeof(*xres),
						  GFP_KERNEL);
	struct bqlm_rc_result *res = kunit_kzalloc(test, sizeof(*res),
						    GFP_KERNEL);
	unsigned int *path = kunit_kzalloc(test, REAL_MAX_PATH *
					   sizeof(*path), GFP_KERNEL);
	struct real_usbnet_lines lines = { .test = test };
	struct bqlm_xbounds bounds = { .strict = p->strict };
	struct bqlm_rcu_session *r;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int c, replayed = 0;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, xres);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, path);
	real_usbnet_cfg(p, cfg);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, &bounds);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_EQ(test, bqlm_explore(x, xres), 0);
	KUNIT_EXPECT_TRUE(test, xres->complete);
	kunit_info(test, "model: %llu states, violated %#x",
		   xres->states, xres->violated);
	r = real_usbnet_session(test, cfg, p->driver);
	for (c = 1; c < BQLM_CHECK_NR; c++) {
		if (!(xres->violated & BQLM_CHECK_BIT(c)))
			continue;
		n = bqlm_explorer_path(x, c, path, REAL_MAX_PATH);
		if (n <= 0) {
			KUNIT_FAIL(test, "no witness path for %s (%d)",
				   bqlm_check_name(c), n);
			continue;
		}
		kunit_info(test, "witness of %s, %d steps, on the real code:",
			   bqlm_check_name(c), n);
		/* through a schedule file's text and back, as make kunit-replay */
		n = real_usbnet_roundtrip(test, cfg, c, path, n);
		lines.n = 0;
		KUNIT_ASSERT_EQ(test, bqlm_rcu_lockstep(r, path, n, 0, 0,
							 real_usbnet_line,
							 &lines, res), 0);
		real_usbnet_report(test, res, bqlm_check_name(c));
		KUNIT_EXPECT_EQ(test, res->steps, (unsigned int)n);
		KUNIT_EXPECT_EQ_MSG(test, res->model_first[c], (unsigned int)n,
				    "%s", bqlm_check_name(c));
		KUNIT_EXPECT_EQ_MSG(test, res->real_first[c],
				    res->model_first[c],
				    "%s: the real code violates it at another step",
				    bqlm_check_name(c));
		KUNIT_EXPECT_EQ(test, res->real_violated, res->model_violated);
		replayed++;
	}
	bqlm_explorer_destroy(x);
	if (IS_ENABLED(CONFIG_PM)) {
		/* the verdicts of docs/usbnet.md, replayed to the step */
		KUNIT_EXPECT_EQ(test, xres->violated, p->expect);
		if (p->expect)
			KUNIT_EXPECT_EQ(test, xres->w[p->key].depth, p->depth);
	}
	KUNIT_EXPECT_EQ(test, replayed, (unsigned int)hweight32(xres->violated));
	kunit_info(test, "%u witnesses replayed on the real code", replayed);
}

static void real_usbnet_equivalence(struct kunit *test)
{
	const struct real_usbnet_param *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						    GFP_KERNEL);
	struct bqlm_rc_result *res = kunit_kzalloc(test, sizeof(*res),
						    GFP_KERNEL);
	unsigned long long steps = 0;
	unsigned int i, retries = 0, violating = 0;
	u64 seed = 20261130ULL * 16 + p->variant;
	struct bqlm_rcu_session *r;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, res);
	real_usbnet_cfg(p, cfg);
	r = real_usbnet_session(test, cfg, p->driver);
	for (i = 0; i < REAL_PATHS; i++) {
		if (bqlm_rcu_lockstep(r, NULL, 0, seed + i, REAL_MAX_STEPS,
				      NULL, NULL, res) ||
		    res->err_step || res->diff) {
			struct real_usbnet_lines lines = { .test = test };

			kunit_info(test, "path %u (seed %llu) differs:", i,
				   seed + i);
			real_usbnet_report(test, res, "random path");
			bqlm_rcu_lockstep(r, NULL, 0, seed + i,
					  REAL_MAX_STEPS, real_usbnet_line,
					  &lines, res);
			break;
		}
		KUNIT_EXPECT_EQ(test, res->real_violated, res->model_violated);
		steps += res->steps;
		retries += res->retries;
		violating += !!res->model_violated;
	}
	kunit_info(test, "%u random paths, %llu steps, %u violating, %u restarted (jiffies ticked)",
		   i, steps, violating, retries);
	KUNIT_EXPECT_EQ(test, i, REAL_PATHS);
}

/*
 * A search of the real code alone, at one packet: the verdicts must be
 * the model's, each check first violated at the model's depth.
 */
static void real_usbnet_explore(struct kunit *test)
{
	const struct real_usbnet_param *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						    GFP_KERNEL);
	struct bqlm_xresult *mres = kunit_kzalloc(test, sizeof(*mres),
						  GFP_KERNEL);
	struct bqlm_rc_xresult *xr = kunit_kzalloc(test, sizeof(*xr),
						    GFP_KERNEL);
	struct bqlm_rcu_session *r;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int c;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, mres);
	KUNIT_ASSERT_NOT_NULL(test, xr);
	real_usbnet_cfg(p, cfg);
	cfg->packets = 1;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, NULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_EQ(test, bqlm_explore(x, mres), 0);
	bqlm_explorer_destroy(x);

	r = real_usbnet_session(test, cfg, p->driver);
	KUNIT_EXPECT_EQ(test, bqlm_rcu_explore(r, REAL_MAX_STATES, xr), 0);
	kunit_info(test, "real code: %u states, %u transitions, depth %u, %llu steps on %u fresh devices; model: %llu states",
		   xr->states, xr->transitions, xr->max_depth, xr->steps,
		   xr->devices, mres->states);
	KUNIT_EXPECT_TRUE(test, xr->complete);
	KUNIT_EXPECT_EQ(test, xr->violated, mres->violated);
	for (c = 1; c < BQLM_CHECK_NR; c++)
		if (mres->violated & BQLM_CHECK_BIT(c)) {
			kunit_info(test, "%s: real code depth %u, model %u",
				   bqlm_check_name(c), xr->depth[c],
				   mres->w[c].depth);
			KUNIT_EXPECT_EQ(test, xr->depth[c], mres->w[c].depth);
		}
	if (p->variant == BQLM_USBNET_NO_BQL ||
	    (p->variant == BQLM_USBNET_FIXED && !p->flags))
		/* cdc_ncm's flush finding needs two packets */
		KUNIT_EXPECT_EQ(test, xr->violated, 0U);
	else if (IS_ENABLED(CONFIG_PM))
		/* fix-reset's only bug at one packet is in the resume path */
		KUNIT_EXPECT_NE(test, xr->violated, 0U);
}

/*
 * make kunit-replay SCHEDULE=FILE: the schedule on the kernel command
 * line, replayed on the real code with the model beside it; each step is
 * printed as "model step | real: where the real actor stopped".
 */
static void real_usbnet_schedule(struct kunit *test)
{
	const char *text = bqlm_rcu_schedule_param();
	struct bqlm_usbnet_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						    GFP_KERNEL);
	struct bqlm_rc_result *res = kunit_kzalloc(test, sizeof(*res),
						    GFP_KERNEL);
	unsigned int *path = kunit_kzalloc(test, REAL_MAX_SCHEDULE *
					   sizeof(*path), GFP_KERNEL);
	struct real_usbnet_lines lines = { .test = test };
	struct bqlm_rcu_session *r;
	enum bqlm_check check;
	unsigned int c, driver;
	char err[128];
	int n;

	if (!text)
		kunit_skip(test, "no schedule given (make kunit-replay SCHEDULE=FILE)");
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, path);
	n = bqlm_usbnet_schedule_parse(text, cfg, &check, path,
				       REAL_MAX_SCHEDULE, err, sizeof(err));
	KUNIT_ASSERT_GE_MSG(test, n, 0, "bad schedule: %s", err);
	kunit_info(test, "schedule: %s, %d steps, expects %s", bqlm_usbnet_variant_name(cfg->variant),
		   n, check ? bqlm_check_name(check) : "no violation");
	/* whose driver_info: the harness's, or the minidriver it describes */
	if (cfg->fixup == BQLM_USBNET_FIXUP_PAD)
		driver = REAL_AQC111;
	else if (cfg->fixup == BQLM_USBNET_FIXUP_MULTI)
		driver = REAL_CDC_NCM;
	else
		driver = REAL_HARNESS;
	r = bqlm_rcu_session_create(cfg, driver);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(r),
			       "no driver_info of the harness runs fixup %u with flags %#x (%ld)",
			       cfg->fixup, cfg->flags, PTR_ERR(r));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, real_usbnet_end,
							r), 0);
	KUNIT_ASSERT_EQ(test, bqlm_rcu_lockstep(r, path, n, 0, 0,
						 real_usbnet_line, &lines,
						 res), 0);
	real_usbnet_report(test, res, "schedule");
	for (c = 1; c < BQLM_CHECK_NR; c++)
		if ((res->model_violated | res->real_violated) &
		    BQLM_CHECK_BIT(c))
			kunit_info(test, "%s: model at step %u, real code at step %u",
				   bqlm_check_name(c), res->model_first[c],
				   res->real_first[c]);
	KUNIT_EXPECT_EQ(test, res->steps, (unsigned int)n);
	KUNIT_EXPECT_EQ(test, res->real_violated, res->model_violated);
	if (check)
		KUNIT_EXPECT_EQ_MSG(test, res->real_first[check], (unsigned int)n,
				    "the schedule expects %s at its last step",
				    bqlm_check_name(check));
}

#else /* userspace */

static void real_usbnet_replay(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/usb/usbnet.c");
}

static void real_usbnet_equivalence(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/usb/usbnet.c");
}

static void real_usbnet_explore(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/usb/usbnet.c");
}

static void real_usbnet_schedule(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/usb/usbnet.c");
}

#endif /* __KERNEL__ */

static struct kunit_case real_usbnet_replay_cases[] = {
	KUNIT_CASE_PARAM(real_usbnet_replay, real_usbnet_replays_gen_params),
	{}
};

static struct kunit_suite real_usbnet_replay_suite = {
	.name = "bqlm_real_usbnet_replay",
	.test_cases = real_usbnet_replay_cases,
};

static struct kunit_case real_usbnet_equivalence_cases[] = {
	KUNIT_CASE_PARAM(real_usbnet_equivalence,
			 real_usbnet_variants_gen_params),
	{}
};

static struct kunit_suite real_usbnet_equivalence_suite = {
	.name = "bqlm_real_usbnet_equivalence",
	.test_cases = real_usbnet_equivalence_cases,
};

static struct kunit_case real_usbnet_explore_cases[] = {
	KUNIT_CASE_PARAM(real_usbnet_explore, real_usbnet_variants_gen_params),
	{}
};

static struct kunit_suite real_usbnet_explore_suite = {
	.name = "bqlm_real_usbnet_explore",
	.test_cases = real_usbnet_explore_cases,
};

static struct kunit_case real_usbnet_schedule_cases[] = {
	KUNIT_CASE(real_usbnet_schedule),
	{}
};

static struct kunit_suite real_usbnet_schedule_suite = {
	.name = "bqlm_real_usbnet_schedule",
	.test_cases = real_usbnet_schedule_cases,
};

kunit_test_suites(&real_usbnet_replay_suite, &real_usbnet_equivalence_suite,
		  &real_usbnet_explore_suite, &real_usbnet_schedule_suite);
