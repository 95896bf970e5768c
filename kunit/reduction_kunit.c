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
 * explore_expect(); the four larger explorations the bench targets are in
 * make bench, whose table says whether the checks violated are the same.
 */
#include "bqlm_kunit.h"
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
	cfg->pad_header[0] = p->pad_header;
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

	ucfg = bqlm_kunit_zalloc(test, sizeof(*ucfg));
	tcfg = bqlm_kunit_zalloc(test, sizeof(*tcfg));
	full = bqlm_kunit_zalloc(test, sizeof(*full));
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

static struct kunit_case bqlm_reduction_cases[] = {
	KUNIT_CASE_PARAM(reduction_docs, reduction_gen_params),
	{}
};

/* the full and the reduced search of each: 7 s in UML, 14 s with ASan */
BQLM_KUNIT_SUITE(bqlm_reduction, bqlm_reduction_cases,
		 .attr = { .speed = KUNIT_SPEED_SLOW });
