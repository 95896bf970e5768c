// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - usbnet variant "no-bql" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/usbnet-no-bql.c is the tree's
 * drivers/net/usb/usbnet.c with real/patches/usbnet/ applied up to this
 * variant by scripts/kunit.sh (see docs/real-code.md).
 */
#define BQLM_RCU_PFX		bqlm_rcu_no_bql_
#define BQLM_RCU_OPS		bqlm_rcu_no_bql_ops
#define BQLM_RCU_VARIANT	BQLM_USBNET_NO_BQL

#include "usbnet_pre.h"
#include <usbnet-no-bql.h>
#include "usbnet_glue.h"
#include <usbnet-no-bql.c>
#include "usbnet_post.h"
