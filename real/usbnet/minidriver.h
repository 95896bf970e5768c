/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the first lines of an object of the real-code harness that
 * compiles the tree's usbnet code for one variant: a variant's usbnet.c
 * (real/usbnet/variant.h) or one of its minidrivers (the files
 * scripts/kunit.sh generates from real/usbnet/minidrivers.h, which then
 * include the minidriver's files and real/usbnet/minidriver_entry.h).
 *
 * The including file defines the variant's BQLM_VARIANT_* (see
 * real/usbnet/variant.h). After these lines: the renames of the exports
 * of drivers/net/usb/ for this variant, its usbnet.h, and the glue.
 */
#ifndef _BQLM_REAL_USBNET_MINIDRIVER_H
#define _BQLM_REAL_USBNET_MINIDRIVER_H

#include <linux/args.h>

/* the prefix of the variant's copies of the exported functions */
#define BQLM_RUSBNET_PFX	CONCATENATE(bqlm_rusbnet_, CONCATENATE(BQLM_VARIANT_ID, _))

#include "pre.h"
#include BQLM_VARIANT_H
#include "glue.h"

/*
 * A minidriver's object (not the variant's, which defines its ops' name):
 * what the table says its files need defined before them
 */
#ifndef BQLM_RUSBNET_OPS
#include <linux/kconfig.h>
#define BQLM_RUSBNET_MINIDRIVER(id, files)
#define BQLM_RUSBNET_THIS(id)		IS_ENABLED(BQLM_RUSBNET_THIS_##id)
#define BQLM_RUSBNET_BEFORE(id)		BQLM_RUSBNET_THIS(id)
#define BQLM_RUSBNET_AFTER(id)		(0 && BQLM_RUSBNET_THIS(id))
#include "minidrivers.h"
#undef BQLM_RUSBNET_BEFORE
#undef BQLM_RUSBNET_AFTER
/*
 * The minidriver's own info and warning lines: a search runs its
 * suspend() and resume() on tens of thousands of fresh devices, and
 * their lines (smsc95xx's: three a device, four when its device refuses
 * a transfer) crowded the UML console until it lost lines of the
 * suites' own output. Format-checked, not printed.
 */
#define netdev_info(dev, fmt, ...) \
	({ (void)(dev); no_printk(fmt, ##__VA_ARGS__); })
#define netdev_warn(dev, fmt, ...) \
	({ (void)(dev); no_printk(fmt, ##__VA_ARGS__); })
#endif

#endif /* _BQLM_REAL_USBNET_MINIDRIVER_H */
