// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - tun variant "stop-2019" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/tun-stop-2019.c is the tree's
 * drivers/net/tun.c with real/patches/tun/stop-2019.patch (scripts/kunit.sh; see docs/real-code.md).
 */
#define BQLM_RTUN_PFX		bqlm_rtun_stop_2019_
#define BQLM_RTUN_OPS		bqlm_rtun_stop_2019_ops
#define BQLM_RTUN_VARIANT	BQLM_TUN_STOP_2019

#include "tun_glue.h"
#include <tun-stop-2019.c>
#include "tun_post.h"
