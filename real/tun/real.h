/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real tun.c beside the model: what the KUnit suites
 * bqlm_real_tun_* call (real/tun/session.c; kernel only).
 */
#ifndef _BQLM_REAL_TUN_REAL_H
#define _BQLM_REAL_TUN_REAL_H

#include <bqlm/tun.h>

#include "../core/rc.h"

int bqlm_rtun_supported(const struct bqlm_tun_cfg *cfg, const char **why);
struct bqlm_rc_target *bqlm_rtun_create(const struct bqlm_tun_cfg *cfg);

#endif /* _BQLM_REAL_TUN_REAL_H */
