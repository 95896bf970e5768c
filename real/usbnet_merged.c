// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - usbnet variant "merged" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/usbnet-merged.c is the tree's
 * drivers/net/usb/usbnet.c with real/patches/usbnet/ applied up to this
 * variant by scripts/kunit.sh (see docs/real-code.md).
 */
#define BQLM_RCU_PFX		bqlm_rcu_merged_
#define BQLM_RCU_OPS		bqlm_rcu_merged_ops
#define BQLM_RCU_VARIANT	BQLM_USBNET_MERGED
#define BQLM_RCU_BQL_SPINLOCK	1
#include "usbnet_pre.h"
#include <usbnet-merged.h>
#include "usbnet_glue.h"
#include <usbnet-merged.c>
#include "usbnet_post.h"
