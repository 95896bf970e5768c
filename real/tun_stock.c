// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - tun variant "stock" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/tun-stock.c is the tree's
 * drivers/net/tun.c as it is (scripts/kunit.sh; see docs/real-code.md).
 */
#define BQLM_RTUN_PFX		bqlm_rtun_stock_
#define BQLM_RTUN_OPS		bqlm_rtun_stock_ops
#define BQLM_RTUN_VARIANT	BQLM_TUN_STOCK

#include "tun_glue.h"
#include <tun-stock.c>
#include "tun_post.h"
