// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - tun variant "backpressure-no-producer-mb" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/tun-backpressure-no-producer-mb.c is the tree's
 * drivers/net/tun.c with real/patches/tun/backpressure.patch,
 * then backpressure-no-producer-mb.patch (scripts/kunit.sh; see docs/real-code.md).
 */
#define BQLM_RTUN_PFX		bqlm_rtun_bp_no_producer_mb_
#define BQLM_RTUN_OPS		bqlm_rtun_bp_no_producer_mb_ops
#define BQLM_RTUN_VARIANT	BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB

#include "tun_glue.h"
#include <tun-backpressure-no-producer-mb.c>
#include "tun_post.h"
