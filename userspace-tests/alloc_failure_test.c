// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures in the explorer, userspace only: the test binaries
 * are linked with -Wl,--wrap=calloc (the Makefile), so that a case can
 * make the n-th calloc() from now fail, as kvzalloc() may in the kernel.
 * The explorer must then give up cleanly: no explorer from
 * bqlm_explorer_create() (nothing leaked: ASan's leak check runs at exit),
 * -ENOMEM from bqlm_explore() when a block of states cannot be had.
 * (make mutate: the checks of these allocations could go unnoticed.)
 */
#include <stdlib.h>
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/usbnet.h>

#include "bqlm_kunit.h"

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

/* 0: no failure armed; else the calloc() that fails, counting down */
static unsigned int alloc_fail_in;

void *__wrap_calloc(size_t n, size_t size)
{
	if (alloc_fail_in && !--alloc_fail_in)
		return NULL;
	return __real_calloc(n, size);
}

/* The usbnet model at one packet: a few thousand states. */
static void alloc_sys(struct kunit *test, struct bqlm_usbnet_cfg *cfg,
		      struct bqlm_xsys *sys)
{
	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_FIXED);
	cfg->packets = 1;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, sys), 0);
}

/* Each allocation of bqlm_explorer_create() failing in turn. */
static void alloc_explorer_create(struct kunit *test)
{
	struct bqlm_usbnet_cfg cfg;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int k, failed = 0;

	alloc_sys(test, &cfg, &sys);
	for (k = 1; k <= 32; k++) {
		alloc_fail_in = k;
		x = bqlm_explorer_create(&sys, NULL);
		if (alloc_fail_in) {
			/* fewer than k allocations: it worked */
			alloc_fail_in = 0;
			KUNIT_EXPECT_NOT_NULL(test, x);
			bqlm_explorer_destroy(x);
			break;
		}
		KUNIT_EXPECT_NULL_MSG(test, x, "allocation %u failed", k);
		bqlm_explorer_destroy(x);
		failed++;
	}
	alloc_fail_in = 0;
	KUNIT_EXPECT_GE(test, failed, 5U);
}

/* A block of states that cannot be had: -ENOMEM, the search stops. */
static void alloc_state_block(struct kunit *test)
{
	struct bqlm_xresult *res = kunit_kzalloc(test, sizeof(*res),
						 GFP_KERNEL);
	struct bqlm_usbnet_cfg cfg;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int k;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, res);
	alloc_sys(test, &cfg, &sys);
	for (k = 1; k <= 4; k++) {
		x = bqlm_explorer_create(&sys, NULL);
		KUNIT_ASSERT_NOT_NULL(test, x);
		/* the explore's first allocations: a state block's two */
		alloc_fail_in = k;
		ret = bqlm_explore(x, res);
		if (alloc_fail_in) {
			alloc_fail_in = 0;
			bqlm_explorer_destroy(x);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u failed", k);
		KUNIT_EXPECT_FALSE(test, res->complete);
		bqlm_explorer_destroy(x);
	}
	alloc_fail_in = 0;
}

static struct kunit_case bqlm_alloc_failure_cases[] = {
	KUNIT_CASE(alloc_explorer_create),
	KUNIT_CASE(alloc_state_block),
	{}
};

BQLM_KUNIT_SUITE(bqlm_alloc_failure, bqlm_alloc_failure_cases);
