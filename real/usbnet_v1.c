// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - usbnet variant "v1" compiled from the kernel tree for the
 * real-code harness: lib/bqlm/gen/usbnet-v1.c is the tree's
 * drivers/net/usb/usbnet.c with real/patches/usbnet/ applied up to this
 * variant by scripts/kunit.sh (see docs/real-code.md).
 */
#define BQLM_RCU_PFX		bqlm_rcu_v1_
#define BQLM_RCU_OPS		bqlm_rcu_v1_ops
#define BQLM_RCU_VARIANT	BQLM_USBNET_V1

#include "usbnet_pre.h"
#include <usbnet-v1.h>
#include "usbnet_glue.h"
#include <usbnet-v1.c>
#include "usbnet_post.h"
