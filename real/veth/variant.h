/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one veth variant's object of the real-code harness: the
 * tree's drivers/net/veth.c with the variant's patches, and its struct
 * bqlm_rveth_ops (see docs/real-veth.md).
 *
 * Included by the file scripts/kunit.sh generates for each line of
 * real/patches/veth/series (lib/bqlm/gen/veth_ID.c), which defines:
 *   BQLM_VARIANT_ID	the variant's name as a C identifier
 *   BQLM_VARIANT_NAME	its name, as the model names it
 *   BQLM_VARIANT_C	its copy of drivers/net/veth.c
 */
#ifndef _BQLM_REAL_VETH_VARIANT_H
#define _BQLM_REAL_VETH_VARIANT_H

#include <linux/args.h>

/* the variant's struct bqlm_rveth_ops */
#define BQLM_RVETH_OPS	CONCATENATE(bqlm_rveth_, CONCATENATE(BQLM_VARIANT_ID, _ops))

#include "glue.h"
#include BQLM_VARIANT_C
#include "post.h"

#endif /* _BQLM_REAL_VETH_VARIANT_H */
