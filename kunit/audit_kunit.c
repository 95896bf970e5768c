// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the model mapping of "make audit", suite bqlm_audit.
 *
 * audit/audit.py maps each finding of its rules to "bqlm explore nic"
 * options (its table MODEL_MAP) and prints the explorer's verdict and
 * depth next to the finding. The re-created upstream bugs of audit/tests/
 * are found by "make audit-selftest"; this suite pins, for each of them,
 * the options the audit derived (the same string, character for
 * character: audit/selftest.py compares them with its findings) and the
 * verdict, the depth of its shortest witness and the number of states the
 * explorer gives. A model change that loses one of these counterexamples,
 * or moves it, fails here in both harnesses (make check, make kunit).
 */
#include "bqlm_kunit.h"
#include <bqlm/nic.h>
#include <bqlm/options.h>

/**
 * struct audit_case - a re-created upstream bug and what the model says
 * @name: the test of audit/tests/ (NAME.patch)
 * @options: the "bqlm explore nic" options the audit derived, on top of
 *	the generic profile
 * @verdict: the explorer's verdict
 * @depth: the depth of the verdict's shortest witness
 * @states: the states of the full search
 */
struct audit_case {
	const char *name;
	const char *options;
	enum bqlm_check verdict;
	unsigned int depth;
	unsigned long long states;
};

/* One line per case: audit/selftest.py reads this table. */
#define AUDIT_CASE(n, o, v, d, s)					\
	{ .name = (n), .options = (o), .verdict = (v), .depth = (d),	\
	  .states = (s) }

static const struct audit_case audit_cases[] = {
	AUDIT_CASE("c1-bcmgenet-3f3168300efb",
		   "--queues 2 --stops 0 --timeouts 1 --timeout stop,napi-off,dma-off,drain,dma-on,napi-on,wake",
		   BQLM_CHECK_STALL, 13, 417),
	AUDIT_CASE("c1-stmmac-c511819d138d",
		   "--queues 2 --stops 0 --reconfigs 1 --reconfig stop,napi-off,dma-off,drain,dma-on,napi-on,wake",
		   BQLM_CHECK_STALL, 13, 500),
	AUDIT_CASE("c1-virtio_net-1480f0f61b67",
		   "--queues 2 --stops 0 --reconfigs 1 --reconfig stop,napi-off,dma-off,drain,dma-on,napi-on,wake",
		   BQLM_CHECK_STALL, 13, 500),
	AUDIT_CASE("c1-virtio_net-76a771ec4c9a",
		   "--queues 2 --stops 0 --reconfigs 1 --reconfig stop,napi-off,dma-off,drain,dma-on,napi-on,wake",
		   BQLM_CHECK_STALL, 13, 500),
	AUDIT_CASE("c2-bcm63xx_enet-9bc1ef64aeb6",
		   "--queues 1 --close stop,reset,napi-off,dma-off,drain",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 9, 256),
	AUDIT_CASE("c2-virtio_net-3ddccbefebdb",
		   "--queues 2 --close napi-off --open reset,napi-on,wake",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 11, 980),
	AUDIT_CASE("c2-virtio_net-b96ed2c97c79",
		   "--queues 2 --close napi-off --open reset,napi-on,wake",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 11, 980),
	AUDIT_CASE("c3-mtk_eth_soc-4db6c75124d8",
		   "--queues 2 --close stop,napi-off,dma-off,drain,reset0",
		   BQLM_CHECK_STALL, 18, 637),
	AUDIT_CASE("c4-bgmac-1b7680c6c1f6",
		   "--queues 1 --sent after-doorbell --batch 1",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 4, 657),
	AUDIT_CASE("c4-hip04_eth-90b3b339364c",
		   "--queues 1 --sent after-doorbell --batch 1",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 4, 657),
	AUDIT_CASE("c4-xilinx_axienet-5ccdcdf186ae",
		   "--queues 1 --sent after-doorbell --batch 1",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 4, 657),
	AUDIT_CASE("c5-xilinx_axienet-d1978d03e867",
		   "--queues 1 --descs 2 --ring 4 --budget 1 --completed-bytes bd-sum --batch 1",
		   BQLM_CHECK_STALL, 10, 991),
	AUDIT_CASE("c5-airoha-2d9f5a118205",
		   "--queues 2 --complete-queue other",
		   BQLM_CHECK_DQL_OVER_COMPLETION, 6, 662),
	AUDIT_CASE("c6-bnxt-e8d8c5d80f5e",
		   "--queues 2 --map q0 --drops 1 --error-kick skip",
		   BQLM_CHECK_STALL, 9, 545),
	AUDIT_CASE("c6-igb-6f19e12f6230",
		   "--queues 2 --doorbell xmit-more --batch 3",
		   BQLM_CHECK_STALL, 3, 44),
	AUDIT_CASE("c6-mlx5e-5b759bf2f9d7",
		   "--queues 2 --map q0 --drops 1 --error-kick skip",
		   BQLM_CHECK_STALL, 9, 545),
	AUDIT_CASE("c7-bnxt-3c603136c9f8",
		   "--queues 2 --map q0 --drv-stop no-recheck --ring-stop after-doorbell --batch 1",
		   BQLM_CHECK_STALL, 20, 780),
	AUDIT_CASE("c7-tg3-1b2a720506cc",
		   "--queues 2 --map q0 --drv-stop no-recheck --ring-stop after-doorbell --batch 1",
		   BQLM_CHECK_STALL, 20, 780),
	AUDIT_CASE("c7-xilinx_axienet-7de44285c1f6",
		   "--queues 1 --drv-stop no-recheck --ring-stop after-doorbell --batch 1",
		   BQLM_CHECK_STALL, 20, 539),
	AUDIT_CASE("c8-virtio_net-4c7d22c55bdd",
		   "--completers napi+xmit --budget 1 --packets 5 --ring 3",
		   BQLM_CHECK_SERIAL_COMPLETION, 24, 1012),
};

KUNIT_ARRAY_PARAM_DESC(audit, audit_cases, name);

/*
 * The generic profile with @options applied through the NIC model's
 * option table, and checked: 0, or -EINVAL/-ENOENT for an unknown option,
 * a missing or bad value, or a configuration the table's check refuses.
 */
static int audit_cfg(const char *options, struct bqlm_nic_cfg *cfg,
		     char *err, size_t len)
{
	const struct bqlm_opts *t = bqlm_nic_options();
	int r;

	r = bqlm_opt_profile(t, cfg, bqlm_nic_profile_by_name("generic"), err,
			     len);
	if (!r)
		r = bqlm_opt_apply(t, cfg, options, err, len);
	if (!r)
		r = bqlm_opt_check(t, cfg, err, len);
	return r;
}

/* The explorer's figures for a re-created bug: exactly those pinned. */
static void audit_mapping(struct kunit *test)
{
	const struct audit_case *p = test->param_value;
	const struct bqlm_xbounds full = { .no_reduction = true };
	struct bqlm_nic_cfg *cfg;
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	char err[160];

	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	res = bqlm_kunit_zalloc(test, sizeof(*res));
	KUNIT_ASSERT_EQ_MSG(test, audit_cfg(p->options, cfg, err, sizeof(err)),
			    0, "%s: options refused: %s: %s", p->name, p->options,
			    err);
	KUNIT_ASSERT_EQ(test, bqlm_nic_system(cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, &full);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	bqlm_explorer_destroy(x);
	kunit_info(test, "%s: %llu states, %s at depth %u", p->name,
		   res->states, bqlm_check_name(bqlm_xresult_verdict(res)),
		   bqlm_xresult_verdict(res) == BQLM_CHECK_NONE ? 0 :
		   res->w[bqlm_xresult_verdict(res)].depth);
	KUNIT_EXPECT_TRUE(test, res->complete);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_xresult_verdict(res), p->verdict,
			    "%s: verdict", p->name);
	if (p->verdict != BQLM_CHECK_NONE)
		KUNIT_EXPECT_EQ_MSG(test, res->w[p->verdict].depth, p->depth,
				    "%s: depth", p->name);
	KUNIT_EXPECT_EQ_MSG(test, res->states, p->states, "%s: states",
			    p->name);
}

/* The option reader refuses what it does not know: it can fail. */
static void audit_options_refused(struct kunit *test)
{
	static const char *const bad[] = {
		"--queues",			/* no value */
		"--queues two",			/* not a number */
		"--queues 3",			/* out of range: cfg_check */
		"--close stop,jump",		/* not a kernel call */
		"--sent sideways",		/* not in the list */
		"--no-such-option 1",		/* unknown */
		"--ring 1 --descs 2",		/* ring below descs */
	};
	struct bqlm_nic_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	unsigned int i;
	char err[160];

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_LT_MSG(test, audit_cfg(bad[i], cfg, err, sizeof(err)),
				    0, "accepted: %s", bad[i]);
	KUNIT_EXPECT_EQ(test, audit_cfg("", cfg, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, audit_cfg("--queues 2 --close stop,reset0", cfg,
					err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, cfg->queues, 2U);
	KUNIT_EXPECT_EQ(test, cfg->nr_ops[BQLM_NIC_PATH_CLOSE], 2U);
}

static struct kunit_case bqlm_audit_cases[] = {
	KUNIT_CASE_PARAM(audit_mapping, audit_gen_params),
	KUNIT_CASE(audit_options_refused),
	{}
};

BQLM_KUNIT_SUITE(bqlm_audit, bqlm_audit_cases);
