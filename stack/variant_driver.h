/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - after variant_usbnet.h, in a variant's cdc_ether or cdc_ncm
 * object, which defines BQLM_STACK_DRIVER: the driver registers nothing at
 * boot; BQLM_STACK_DRIVER points at its struct usb_driver, which the
 * suite registers (under a name of its own) while a run needs it.
 */
#ifndef _BQLM_STACK_VARIANT_DRIVER_H
#define _BQLM_STACK_VARIANT_DRIVER_H

#undef module_usb_driver
#define module_usb_driver(drv)	struct usb_driver *BQLM_STACK_DRIVER = &(drv)

#endif /* _BQLM_STACK_VARIANT_DRIVER_H */
