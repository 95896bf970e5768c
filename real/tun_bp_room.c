// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - tun variant "backpressure-room" compiled from the kernel tree
 * for the real-code harness: lib/bqlm/gen/tun-backpressure-room.c is the
 * tree's drivers/net/tun.c with real/patches/tun/backpressure.patch, then
 * backpressure-room.patch (scripts/kunit.sh; see docs/real-code.md).
 */
#define BQLM_RTUN_PFX		bqlm_rtun_bp_room_
#define BQLM_RTUN_OPS		bqlm_rtun_bp_room_ops
#define BQLM_RTUN_VARIANT	BQLM_TUN_BACKPRESSURE_ROOM

#include "tun_glue.h"
#include <tun-backpressure-room.c>
#include "tun_post.h"
