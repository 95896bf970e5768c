/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one virtio_net variant's object of the real-code harness: the
 * tree's drivers/net/virtio_net.c with the variant's patches, and its
 * struct bqlm_rvirtio_net_ops (see docs/real-virtio_net.md).
 *
 * Included by the file scripts/kunit.sh generates for each line of
 * real/patches/virtio_net/series (lib/bqlm/gen/virtio_net_ID.c), which
 * defines:
 *   BQLM_VARIANT_ID	the variant's name as a C identifier
 *   BQLM_VARIANT_NAME	its name
 *   BQLM_VARIANT_C	its copy of drivers/net/virtio_net.c
 */
#ifndef _BQLM_REAL_VIRTIO_NET_VARIANT_H
#define _BQLM_REAL_VIRTIO_NET_VARIANT_H

#include <linux/args.h>

/* the variant's struct bqlm_rvirtio_net_ops */
#define BQLM_RVNET_OPS	CONCATENATE(bqlm_rvirtio_net_, CONCATENATE(BQLM_VARIANT_ID, _ops))

#include "glue.h"
#include BQLM_VARIANT_C
#include "post.h"

#endif /* _BQLM_REAL_VIRTIO_NET_VARIANT_H */
