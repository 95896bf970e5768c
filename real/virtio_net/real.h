/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real virtio_net.c beside the NIC model: what the KUnit
 * suites bqlm_real_virtio_net_* call (real/virtio_net/session.c; kernel
 * only).
 */
#ifndef _BQLM_REAL_VIRTIO_NET_REAL_H
#define _BQLM_REAL_VIRTIO_NET_REAL_H

#include <bqlm/nic.h>

#include "../core/rc.h"

const char *bqlm_rvnet_variant_of(const char *profile);
int bqlm_rvnet_supported(const struct bqlm_nic_cfg *cfg, const char *variant,
			 const char **why);
struct bqlm_rc_target *bqlm_rvnet_create(const struct bqlm_nic_cfg *cfg,
					 const char *variant, bool xsk);

#endif /* _BQLM_REAL_VIRTIO_NET_REAL_H */
