/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real veth.c beside the ring-consumer model: what the
 * KUnit suites bqlm_real_veth_* call (real/veth/session.c; kernel only).
 */
#ifndef _BQLM_REAL_VETH_REAL_H
#define _BQLM_REAL_VETH_REAL_H

#include <bqlm/tun.h>

#include "../core/rc.h"

int bqlm_rveth_supported(const struct bqlm_tun_cfg *cfg, const char **why);
struct bqlm_rc_target *bqlm_rveth_create(const struct bqlm_tun_cfg *cfg);

#endif /* _BQLM_REAL_VETH_REAL_H */
