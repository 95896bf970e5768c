/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - included first by each generated usbnet, cdc_ether and
 * cdc_ncm object of one variant (gen/NAME_V.c, see scripts/kunit-stack.sh),
 * which defines BQLM_STACK_PFX, the prefix of the variant's copies of the
 * files' exported functions (and BQLM_STACK_NCM_PFX, for the patched
 * cdc_ncm.c's). Then come the variant's usbnet.h (its include
 * guard makes the tree's a no-op) and the driver file itself.
 */
#ifndef _BQLM_STACK_VARIANT_USBNET_H
#define _BQLM_STACK_VARIANT_USBNET_H

#define BQLM_STACK_SYM3(p, n)	p##n
#define BQLM_STACK_SYM2(p, n)	BQLM_STACK_SYM3(p, n)
#define BQLM_STACK_SYM(n)	BQLM_STACK_SYM2(BQLM_STACK_PFX, n)
/* cdc_ncm.c's exports: the patched copy has a prefix of its own */
#ifndef BQLM_STACK_NCM_PFX
#define BQLM_STACK_NCM_PFX	BQLM_STACK_PFX
#endif
#define BQLM_STACK_NCM_SYM(n)	BQLM_STACK_SYM2(BQLM_STACK_NCM_PFX, n)

/* every EXPORT_SYMBOL of usbnet.c, cdc_ether.c and cdc_ncm.c, renamed */
#include <usbnet-exports.h>

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/usb.h>

#include "stack.h"

/*
 * Built-in parameters are named after the object the variants share: one
 * copy of each is enough, and the suites set none.
 */
#undef module_param
#define module_param(name, type, perm)					\
	static_assert(sizeof(name) > 0 && (perm) >= 0)
#undef MODULE_PARM_DESC
#define MODULE_PARM_DESC(name, desc)					\
	static_assert(sizeof(name) > 0 && sizeof(desc) > 0)

#endif /* _BQLM_STACK_VARIANT_USBNET_H */
