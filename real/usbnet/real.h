/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real usbnet.c beside the model: what the KUnit suites
 * bqlm_real_usbnet_* call (real/usbnet/session.c; kernel only).
 */
#ifndef _BQLM_REAL_USBNET_REAL_H
#define _BQLM_REAL_USBNET_REAL_H

#include <bqlm/usbnet.h>

#include "../core/rc.h"

const char *bqlm_rusbnet_schedule_param(void);
const char *bqlm_rusbnet_driver_param(void);
int bqlm_rusbnet_driver_cfg(const char *name, struct bqlm_usbnet_cfg *cfg);
const char *bqlm_rusbnet_driver_name(unsigned int i);
int bqlm_rusbnet_driver_describe(const char *name, char *buf, size_t len);
const char *bqlm_rusbnet_driver_for(const struct bqlm_usbnet_cfg *cfg);
int bqlm_rusbnet_check(const struct bqlm_usbnet_cfg *cfg, const char *driver,
		       char *why, size_t len);
struct bqlm_rc_target *bqlm_rusbnet_create(const struct bqlm_usbnet_cfg *cfg,
					   const char *driver);
void bqlm_rusbnet_reset_resume(struct bqlm_rc_target *t, bool on);

#endif /* _BQLM_REAL_USBNET_REAL_H */
