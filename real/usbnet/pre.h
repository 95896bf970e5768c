/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the first lines of a usbnet variant's object: the renames of
 * the functions drivers/net/usb/ exports (generated from the tree by
 * scripts/kunit.sh into lib/bqlm/gen/usbnet-exports.h), so that the copies
 * of usbnet.c and of the minidrivers, one per variant, do not clash in the
 * test kernel. The including file defines BQLM_RUSBNET_PFX.
 */
#ifndef _BQLM_REAL_USBNET_PRE_H
#define _BQLM_REAL_USBNET_PRE_H

#include <linux/args.h>

#define BQLM_RUSBNET_SYM(n)	CONCATENATE(BQLM_RUSBNET_PFX, n)

#include <usbnet-exports.h>

#endif /* _BQLM_REAL_USBNET_PRE_H */
