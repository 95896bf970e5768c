// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests: the explorer's reduction (symmetry) finds what the full
 * search finds on the explorations the docs run.
 *
 * Each case is one command of README.md and docs/ (usbnet.md, tun.md,
 * porting.md), at the bound the command has there: the full search
 * (--no-reduction) and the reduced one (the default) must violate the
 * same checks, the reduced one must store fewer states, and its path to
 * each violation must replay, through the model's own steps, from the
 * initial state to that violation (explore_compare_reduced()). The
 * suites' own explorations are compared in the same way by
 * explore_expect(); the four larger explorations issue 12 names are in
 * make bench, whose table says whether the checks violated are the same.
 */
#include <kunit/test.h>
#include <bqlm/prng.h>
#include <bqlm/usbnet.h>
#include <bqlm/tun.h>
#include "explore_expect.h"

/**
 * struct reduction_case - one documented exploration
 * @desc: the command's options, for the log
 * @tun: a tun exploration (else usbnet)
 * @variant: enum bqlm_usbnet_variant or enum bqlm_tun_variant
 * @mm: tun: the memory model
 * @packets: usbnet: packets (0: the default)
 * @fixup: usbnet: the tx_fixup()
 * @pad_header: usbnet: with BQLM_USBNET_FIXUP_PAD
 * @flags: usbnet: BQLM_USBNET_FLAG_*
 * @statuses: usbnet: the completion statuses (0: the default)
 * @len: usbnet: the packet length (0: the default)
 * @no_cycles: usbnet: --stops 0 --suspends 0
 * @strict: --strict
 */
struct reduction_case {
	const char *desc;
	bool tun;
	unsigned int variant;
	enum bqlm_mm_kind mm;
	unsigned int packets;
	enum bqlm_usbnet_fixup fixup;
	unsigned int pad_header;
	unsigned int flags;
	unsigned int statuses;
	unsigned int len;
	bool no_cycles;
	bool strict;
};

#define U(d, v)	{ .desc = "usbnet " d, .variant = BQLM_USBNET_##v
#define T(d, v, m) { .desc = "tun " d, .tun = true, \
		     .variant = BQLM_TUN_##v, .mm = BQLM_MM_##m }

static const struct reduction_case reduction_cases[] = {
	U("no-bql", NO_BQL) },
	U("v1", V1) },
	U("merged", MERGED) },
	U("fix-reset", FIX_RESET) },
	U("fixed", FIXED) },
	U("fixed --avoid-unlink", FIXED),
	  .flags = BQLM_USBNET_FLAG_AVOID_UNLINK_URBS },
	U("fixed --fixup pad", FIXED), .fixup = BQLM_USBNET_FIXUP_PAD,
	  .pad_header = 4 },
	U("fixed --fixup multi --packets 2", FIXED),
	  .fixup = BQLM_USBNET_FIXUP_MULTI, .packets = 2 },
	U("fixed --fixup multi --statuses ok,epipe", FIXED),
	  .fixup = BQLM_USBNET_FIXUP_MULTI,
	  .statuses = (1U << BQLM_USBNET_ST_OK) | (1U << BQLM_USBNET_ST_EPIPE) },
	U("fixed --lens 65534", FIXED), .len = 65534 },
	U("v1 --stops 0 --suspends 0", V1), .no_cycles = true },
	U("v1 --strict", V1), .strict = true },
	T("stock", STOCK, SC),
	T("stop-2019", STOP_2019, SC),
	T("backpressure", BACKPRESSURE, SC),
	T("backpressure --memory-model tso", BACKPRESSURE, TSO),
	T("backpressure-nobarrier --memory-model tso", BACKPRESSURE_NOBARRIER,
	  TSO),
};

KUNIT_ARRAY_PARAM_DESC(reduction, reduction_cases, desc);

static void reduction_usbnet_cfg(const struct reduction_case *p,
				 struct bqlm_usbnet_cfg *cfg)
{
	bqlm_usbnet_cfg_default(cfg, p->variant);
	if (p->packets)
		cfg->packets = p->packets;
	cfg->fixup = p->fixup;
	cfg->pad_header = p->pad_header;
	cfg->flags = p->flags;
	if (p->statuses)
		cfg->statuses = p->statuses;
	if (p->len)
		cfg->lens[0] = p->len;
	if (p->no_cycles) {
		cfg->stops = 0;
		cfg->suspends = 0;
	}
}

static void reduction_docs(struct kunit *test)
{
	const struct reduction_case *p = test->param_value;
	struct bqlm_xbounds bounds = { .strict = p->strict,
				       .no_reduction = true };
	struct bqlm_usbnet_cfg *ucfg;
	struct bqlm_tun_cfg *tcfg;
	struct bqlm_xresult *full;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned long long reduced;

	ucfg = kunit_kzalloc(test, sizeof(*ucfg), GFP_KERNEL);
	tcfg = kunit_kzalloc(test, sizeof(*tcfg), GFP_KERNEL);
	full = kunit_kzalloc(test, sizeof(*full), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ucfg);
	KUNIT_ASSERT_NOT_NULL(test, tcfg);
	KUNIT_ASSERT_NOT_NULL(test, full);
	if (p->tun) {
		bqlm_tun_cfg_default(tcfg, p->variant);
		tcfg->mm = p->mm;
		KUNIT_ASSERT_EQ(test, bqlm_tun_system(tcfg, &sys), 0);
	} else {
		reduction_usbnet_cfg(p, ucfg);
		KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(ucfg, &sys), 0);
	}
	/* the model has a reduction: otherwise there is nothing to compare */
	KUNIT_ASSERT_TRUE(test, sys.ops->canon);
	x = bqlm_explorer_create(&sys, &bounds);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, full), 0);
	bqlm_explorer_destroy(x);
	KUNIT_EXPECT_TRUE(test, full->complete);
	KUNIT_EXPECT_FALSE(test, full->reduced);

	bounds.no_reduction = false;
	reduced = explore_compare_reduced(test, &sys, &bounds, full, p->desc);
	/* every documented exploration is one where the reduction pays */
	KUNIT_EXPECT_LT(test, reduced, full->states);
}

/*
 * The premise of the symmetry reduction, checked directly: on states
 * reached by seeded random walks of the unreduced model, canon() is
 * idempotent, a state and its representative have the same successors up
 * to canon() (each with the same violated checks, in both directions),
 * and the same state checks. The comparison of searches above only sees
 * the checks a broken canon() hides; this sees the broken canon().
 */
#define BISIM_WALKS	60
#define BISIM_STEPS	60

struct bisim {
	const struct bqlm_xsys *sys;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned char *rep;
	unsigned char *again;
	unsigned char *succ[2];
	int mask[2][BQLM_X_MAX_ACTIONS];
	unsigned int act[2][BQLM_X_MAX_ACTIONS];
	unsigned int n[2];
	unsigned int states;
	unsigned int renamed;
};

/* The canonical successors of @s into side @k; their number. */
static void bisim_succ(struct bisim *b, const unsigned char *s, int k)
{
	const struct bqlm_xsys *sys = b->sys;
	size_t z = sys->state_size;
	unsigned int i;

	b->n[k] = bqlm_xenabled(sys, s, b->act[k]);
	for (i = 0; i < b->n[k]; i++) {
		unsigned char *t = b->succ[k] + i * z;

		memcpy(t, s, z);
		b->mask[k][i] = bqlm_xstep(sys, s, b->act[k][i], t,
					   b->each);
		bqlm_xcanon(sys, t);
	}
}

/* Does every successor of side @k have its match on the other side? */
static bool bisim_matched(const struct bisim *b, int k, unsigned int *bad)
{
	size_t z = b->sys->state_size;
	unsigned int i, j;

	for (i = 0; i < b->n[k]; i++) {
		for (j = 0; j < b->n[!k]; j++)
			if (b->mask[k][i] == b->mask[!k][j] &&
			    !memcmp(b->succ[k] + i * z, b->succ[!k] + j * z, z))
				break;
		if (j == b->n[!k]) {
			*bad = b->act[k][i];
			return false;
		}
	}
	return true;
}

static void bisim_state(struct kunit *test, struct bisim *b,
			const unsigned char *s, unsigned int depth)
{
	const struct bqlm_xsys *sys = b->sys;
	size_t z = sys->state_size;
	unsigned int bad = 0;

	memcpy(b->rep, s, z);
	bqlm_xcanon(sys, b->rep);
	memcpy(b->again, b->rep, z);
	bqlm_xcanon(sys, b->again);
	b->states++;
	b->renamed += !!memcmp(b->rep, s, z);
	KUNIT_ASSERT_EQ_MSG(test, memcmp(b->again, b->rep, z), 0,
			    "canon() not idempotent at depth %u", depth);
	bisim_succ(b, s, 0);
	bisim_succ(b, b->rep, 1);
	KUNIT_ASSERT_EQ_MSG(test, b->n[0], b->n[1],
			    "depth %u: %u actions enabled, %u in the representative",
			    depth, b->n[0], b->n[1]);
	KUNIT_ASSERT_TRUE_MSG(test, bisim_matched(b, 0, &bad),
			      "depth %u: action %#x of the state has no match in its representative",
			      depth, bad);
	KUNIT_ASSERT_TRUE_MSG(test, bisim_matched(b, 1, &bad),
			      "depth %u: action %#x of the representative has no match in the state",
			      depth, bad);
	KUNIT_ASSERT_EQ_MSG(test,
			    bqlm_xcheck_state(sys, s, b->act[0], b->n[0],
					      b->each),
			    bqlm_xcheck_state(sys, b->rep, b->act[1], b->n[1],
					      b->each),
			    "depth %u: the state checks differ", depth);
}

static void bisim_walks(struct kunit *test, const struct bqlm_xsys *sys,
			u64 seed)
{
	struct bisim *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t z = sys->state_size;
	unsigned char *s = kunit_kzalloc(test, z, GFP_KERNEL);
	unsigned char *t = kunit_kzalloc(test, z, GFP_KERNEL);
	unsigned int w, d, n, act[BQLM_X_MAX_ACTIONS];
	struct bqlm_prng rng;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, sys->ops->canon);
	b->sys = sys;
	b->rep = kunit_kzalloc(test, z, GFP_KERNEL);
	b->again = kunit_kzalloc(test, z, GFP_KERNEL);
	b->succ[0] = kunit_kcalloc(test, BQLM_X_MAX_ACTIONS, z, GFP_KERNEL);
	b->succ[1] = kunit_kcalloc(test, BQLM_X_MAX_ACTIONS, z, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, b->rep && b->again && b->succ[0] &&
			  b->succ[1]);
	bqlm_prng_seed(&rng, seed);
	for (w = 0; w < BISIM_WALKS; w++) {
		memset(s, 0, z);
		bqlm_xinit(sys, s);
		for (d = 0; d < BISIM_STEPS; d++) {
			bisim_state(test, b, s, d);
			n = bqlm_xenabled(sys, s, act);
			if (!n)
				break;
			memcpy(t, s, z);
			KUNIT_ASSERT_GE(test, bqlm_xstep(sys, s,
							 act[bqlm_prng_below(&rng, n)],
							 t, b->each), 0);
			memcpy(s, t, z);
		}
	}
	/* the walks met states that canon() does rename */
	KUNIT_EXPECT_GT(test, b->renamed, 0U);
	kunit_info(test, "%u states, %u renamed by canon()", b->states,
		   b->renamed);
}

static void reduction_symmetry_bisim(struct kunit *test)
{
	struct bqlm_usbnet_cfg *ucfg = kunit_kzalloc(test, sizeof(*ucfg),
						     GFP_KERNEL);
	struct bqlm_tun_cfg *tcfg = kunit_kzalloc(test, sizeof(*tcfg),
						  GFP_KERNEL);
	struct bqlm_xsys sys;
	unsigned int v;

	KUNIT_ASSERT_NOT_NULL(test, ucfg);
	KUNIT_ASSERT_NOT_NULL(test, tcfg);
	for (v = 0; v < BQLM_USBNET_NR_VARIANTS; v++) {
		bqlm_usbnet_cfg_default(ucfg, v);
		ucfg->packets = 4;
		ucfg->nr_lens = 2;
		ucfg->lens[0] = 60;
		ucfg->lens[1] = 1514;
		KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(ucfg, &sys), 0);
		bisim_walks(test, &sys, 20261130ULL + v);
	}
	for (v = 0; v < BQLM_TUN_NR_VARIANTS; v++) {
		bqlm_tun_cfg_default(tcfg, v);
		tcfg->ring = 2;
		if (v < BQLM_TUN_BQL) {
			tcfg->mm = BQLM_MM_PSO;
			tcfg->resizes = 1;
			tcfg->resize_to = 1;
		}
		KUNIT_ASSERT_EQ(test, bqlm_tun_system(tcfg, &sys), 0);
		bisim_walks(test, &sys, 20261130ULL * 3 + v);
	}
}

static struct kunit_case bqlm_reduction_cases[] = {
	KUNIT_CASE_PARAM(reduction_docs, reduction_gen_params),
	KUNIT_CASE(reduction_symmetry_bisim),
	{}
};

static struct kunit_suite bqlm_reduction_suite = {
	.name = "bqlm_reduction",
	.test_cases = bqlm_reduction_cases,
};

kunit_test_suite(bqlm_reduction_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the bqlmodel explorer's reduction");
