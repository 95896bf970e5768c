/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one usbnet variant's object of the real-code harness: the
 * tree's usbnet.c with the variant's patches and the variant's struct
 * bqlm_rusbnet_ops (see docs/real-usbnet.md). Its minidrivers are objects
 * of their own (real/usbnet/minidriver.h).
 *
 * Included by the file scripts/kunit.sh generates for each line of
 * real/patches/usbnet/series (lib/bqlm/gen/usbnet_ID.c), which defines:
 *   BQLM_VARIANT_ID		the variant's name as a C identifier
 *   BQLM_VARIANT_NAME		its name, as the model names it
 *   BQLM_VARIANT_C		its copy of drivers/net/usb/usbnet.c
 *   BQLM_VARIANT_H		its copy of include/linux/usb/usbnet.h
 *   BQLM_VARIANT_BH_WORK	(property bh_work) the bottom half is
 *				dev->bh_work, a BH work item (bh-work.patch),
 *				not the dev->bh tasklet
 *   BQLM_VARIANT_BQL_SPINLOCK	(property bql_spinlock) struct usbnet has
 *				dev->bql_spinlock
 *   BQLM_VARIANT_MINIDRIVERS	(property minidrivers) every minidriver of
 *				real/usbnet/minidrivers.h is compiled with
 *				it, not only the harness's own
 */
#ifndef _BQLM_REAL_USBNET_VARIANT_H
#define _BQLM_REAL_USBNET_VARIANT_H

/* the variant's struct bqlm_rusbnet_ops */
#define BQLM_RUSBNET_OPS	CONCATENATE(BQLM_RUSBNET_PFX, ops)

#include "minidriver.h"
#include BQLM_VARIANT_C
#include "post.h"

#endif /* _BQLM_REAL_USBNET_VARIANT_H */
