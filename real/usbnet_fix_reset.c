// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - usbnet variant "fix-reset" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/usbnet-fix-reset.c is the tree's
 * drivers/net/usb/usbnet.c with real/patches/usbnet/ applied up to this
 * variant by scripts/kunit.sh (see docs/real-code.md).
 */
#define BQLM_RCU_PFX		bqlm_rcu_fix_reset_
#define BQLM_RCU_OPS		bqlm_rcu_fix_reset_ops
#define BQLM_RCU_VARIANT	BQLM_USBNET_FIX_RESET
#define BQLM_RCU_BQL_SPINLOCK	1
#include "usbnet_pre.h"
#include <usbnet-fix-reset.h>
#include "usbnet_glue.h"
#include <usbnet-fix-reset.c>
#include "usbnet_post.h"
