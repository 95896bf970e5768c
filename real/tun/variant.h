/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one tun variant's object of the real-code harness: the tree's
 * drivers/net/tun.c with the variant's patches, and its struct
 * bqlm_rtun_ops (see docs/real-tun.md).
 *
 * Included by the file scripts/kunit.sh generates for each line of
 * real/patches/tun/series (lib/bqlm/gen/tun_ID.c), which defines:
 *   BQLM_VARIANT_ID	the variant's name as a C identifier
 *   BQLM_VARIANT_NAME	its name, as the model names it
 *   BQLM_VARIANT_C	its copy of drivers/net/tun.c
 */
#ifndef _BQLM_REAL_TUN_VARIANT_H
#define _BQLM_REAL_TUN_VARIANT_H

#include <linux/args.h>

/* the prefix of the variant's copies of the exported functions */
#define BQLM_RTUN_PFX		CONCATENATE(bqlm_rtun_, CONCATENATE(BQLM_VARIANT_ID, _))
/* the variant's struct bqlm_rtun_ops */
#define BQLM_RTUN_OPS		CONCATENATE(BQLM_RTUN_PFX, ops)

#include "glue.h"
#include BQLM_VARIANT_C
#include "post.h"

#endif /* _BQLM_REAL_TUN_VARIANT_H */
