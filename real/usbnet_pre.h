/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the first lines of a usbnet variant's object: the renames of
 * usbnet.c's exported functions (generated from the tree by scripts/
 * kunit.sh into lib/bqlm/gen/usbnet-exports.h), so that the five copies of
 * usbnet.c in the test kernel do not clash. The including file defines
 * BQLM_RCU_PFX.
 */
#ifndef _BQLM_REAL_USBNET_PRE_H
#define _BQLM_REAL_USBNET_PRE_H

#define BQLM_RCU_SYM3(p, n)	p##n
#define BQLM_RCU_SYM2(p, n)	BQLM_RCU_SYM3(p, n)
#define BQLM_RCU_SYM(n)		BQLM_RCU_SYM2(BQLM_RCU_PFX, n)

#include <usbnet-exports.h>

#endif /* _BQLM_REAL_USBNET_PRE_H */
