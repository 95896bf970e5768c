/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one usbnet variant's object of the real-code harness: the
 * tree's usbnet.c with the variant's patches, the minidrivers, and the
 * variant's struct bqlm_rusbnet_ops (see docs/real-code.md).
 *
 * Included by the file scripts/kunit.sh generates for each line of
 * real/patches/usbnet/series (lib/bqlm/gen/usbnet_ID.c), which defines:
 *   BQLM_VARIANT_ID		the variant's name as a C identifier
 *   BQLM_VARIANT_NAME		its name, as the model names it
 *   BQLM_VARIANT_C		its copy of drivers/net/usb/usbnet.c
 *   BQLM_VARIANT_H		its copy of include/linux/usb/usbnet.h
 *   BQLM_VARIANT_BQL_SPINLOCK	(property bql_spinlock) struct usbnet has
 *				dev->bql_spinlock
 */
#ifndef _BQLM_REAL_USBNET_VARIANT_H
#define _BQLM_REAL_USBNET_VARIANT_H

#define BQLM_RUSBNET_CAT3(a, b, c)	a##b##c
#define BQLM_RUSBNET_CAT(a, b, c)	BQLM_RUSBNET_CAT3(a, b, c)
/* the prefix of the variant's copies of the exported functions */
#define BQLM_RUSBNET_PFX	BQLM_RUSBNET_CAT(bqlm_rusbnet_, BQLM_VARIANT_ID, _)
/* the variant's struct bqlm_rusbnet_ops */
#define BQLM_RUSBNET_OPS	BQLM_RUSBNET_CAT(bqlm_rusbnet_, BQLM_VARIANT_ID, _ops)

#include "usbnet_pre.h"
#include BQLM_VARIANT_H
#include "usbnet_glue.h"
#include BQLM_VARIANT_C
#include "usbnet_minidrivers.h"
#include "usbnet_post.h"

#endif /* _BQLM_REAL_USBNET_VARIANT_H */
