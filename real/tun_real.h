/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real tun.c under the model's schedules: what the KUnit
 * suites bqlm_real_tun_* call (real/tun_rc.c; see docs/real-code.md).
 */
#ifndef _BQLM_REAL_TUN_REAL_H
#define _BQLM_REAL_TUN_REAL_H

#include <bqlm/tun.h>
#include <bqlm/violation.h>

#include "rc.h"

struct bqlm_rtun_session;

int bqlm_rtun_supported(const struct bqlm_tun_cfg *cfg, const char **why);
struct bqlm_rtun_session *bqlm_rtun_session_create(const struct bqlm_tun_cfg *cfg);
void bqlm_rtun_session_destroy(struct bqlm_rtun_session *r);
int bqlm_rtun_lockstep(struct bqlm_rtun_session *r,
		       const unsigned int *actions, unsigned int n, u64 seed,
		       unsigned int max_steps, bqlm_rc_emit_t emit,
		       void *arg, struct bqlm_rc_result *res);
int bqlm_rtun_explore(struct bqlm_rtun_session *r, unsigned int max_states,
		      struct bqlm_rc_xresult *xr);

#endif /* _BQLM_REAL_TUN_REAL_H */
