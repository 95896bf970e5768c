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

#define BQLM_RTUN_DESC	160

/**
 * struct bqlm_rtun_result - what a lockstep run found
 * @steps: steps taken on both sides
 * @model_violated: checks the model violated
 * @real_violated: checks the real state violated
 * @model_first: for each check, the step the model first violated it at
 * @real_first: the same on the real state
 * @diff: the states or the enabled actions differed
 * @diff_step: the step after which they did (0: the initial state)
 * @diff_offset: the first differing byte of the states
 * @diff_real: the real state, or its enabled actions, described
 * @diff_model: the model's
 * @err_step: the step at which the harness or the model failed, 0 if none
 * @err: why
 * @desc: the last model step
 */
struct bqlm_rtun_result {
	unsigned int steps;
	unsigned int model_violated;
	unsigned int real_violated;
	unsigned int model_first[BQLM_CHECK_NR];
	unsigned int real_first[BQLM_CHECK_NR];
	bool diff;
	unsigned int diff_step;
	size_t diff_offset;
	char diff_real[BQLM_RTUN_DESC];
	char diff_model[BQLM_RTUN_DESC];
	unsigned int err_step;
	char err[BQLM_RTUN_DESC];
	char desc[BQLM_RTUN_DESC];
};

typedef void (*bqlm_rtun_emit_t)(void *arg, const char *line);

struct bqlm_rtun_session;

int bqlm_rtun_supported(const struct bqlm_tun_cfg *cfg, const char **why);
struct bqlm_rtun_session *bqlm_rtun_session_create(const struct bqlm_tun_cfg *cfg);
void bqlm_rtun_session_destroy(struct bqlm_rtun_session *r);
int bqlm_rtun_lockstep(struct bqlm_rtun_session *r,
		       const unsigned int *actions, unsigned int n, u64 seed,
		       unsigned int max_steps, bqlm_rtun_emit_t emit,
		       void *arg, struct bqlm_rtun_result *res);
int bqlm_rtun_explore(struct bqlm_rtun_session *r, unsigned int max_states,
		      struct bqlm_rc_xresult *xr);

#endif /* _BQLM_REAL_TUN_REAL_H */
