/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real usbnet.c and the model in lockstep: the interface
 * the KUnit suites bqlm_real_usbnet* use (kernel only).
 */
#ifndef _BQLM_REAL_USBNET_REAL_H
#define _BQLM_REAL_USBNET_REAL_H

#include <bqlm/prng.h>
#include <bqlm/usbnet.h>
#include <bqlm/violation.h>

#include "rc.h"

struct bqlm_rcu_session;

/**
 * enum bqlm_rcu_driver - whose driver_info the real usbnet.c runs with
 * @BQLM_RCU_DRV_HARNESS: the harness's own: FLAG_ETHER and the flags of
 *	the configuration, no tx_fixup
 * @BQLM_RCU_DRV_CDC_ETHER: drivers/net/usb/cdc_ether.c's cdc_info
 * @BQLM_RCU_DRV_AQC111: drivers/net/usb/aqc111.c's aqc111_info
 *	(FLAG_AVOID_UNLINK_URBS | FLAG_MULTI_PACKET, aqc111_tx_fixup())
 * @BQLM_RCU_DRV_CDC_NCM: drivers/net/usb/cdc_ncm.c's cdc_ncm_info, its
 *	aggregating cdc_ncm_tx_fixup() and its flush (cdc_ncm_txpath_bh()),
 *	with the NTB parameters of the model's "multi" fixup
 */
enum bqlm_rcu_driver {
	BQLM_RCU_DRV_HARNESS,
	BQLM_RCU_DRV_CDC_ETHER,
	BQLM_RCU_DRV_AQC111,
	BQLM_RCU_DRV_CDC_NCM,
};

const char *bqlm_rcu_schedule_param(void);
struct bqlm_rcu_session *bqlm_rcu_session_create(const struct bqlm_usbnet_cfg *cfg,
						 enum bqlm_rcu_driver drv);
void bqlm_rcu_session_destroy(struct bqlm_rcu_session *r);
int bqlm_rcu_lockstep(struct bqlm_rcu_session *r, const unsigned int *actions,
		      unsigned int n, u64 seed, unsigned int max_steps,
		      bqlm_rc_emit_t emit, void *arg,
		      struct bqlm_rc_result *res);
int bqlm_rcu_explore(struct bqlm_rcu_session *r, unsigned int max_states,
		     struct bqlm_rc_xresult *xr);

#endif /* _BQLM_REAL_USBNET_REAL_H */
