/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the USB core of a driver compiled from the tree for the
 * real-code harness: the fake host controller of real/fake/usb_hcd.c.
 *
 * Included after every header of the driver, so that only the driver's own
 * text calls the fake (the kernel's inline functions are not affected).
 */
#ifndef _BQLM_REAL_USB_GLUE_H
#define _BQLM_REAL_USB_GLUE_H

#include "usb_hcd.h"

#define usb_alloc_urb			bqlm_hcd_usb_alloc_urb
#define usb_free_urb			bqlm_hcd_usb_free_urb
#define usb_get_urb			bqlm_hcd_usb_get_urb
#define usb_submit_urb			bqlm_hcd_usb_submit_urb
#define usb_unlink_urb			bqlm_hcd_usb_unlink_urb
#define usb_kill_urb			bqlm_hcd_usb_kill_urb
#define usb_anchor_urb			bqlm_hcd_usb_anchor_urb
#define usb_get_from_anchor		bqlm_hcd_usb_get_from_anchor
#define usb_scuttle_anchored_urbs	bqlm_hcd_usb_scuttle_anchored_urbs
#define usb_autopm_get_interface	bqlm_hcd_usb_autopm_get_interface
#define usb_autopm_put_interface	bqlm_hcd_usb_autopm_put_interface
#define usb_autopm_get_interface_async	bqlm_hcd_usb_autopm_get_interface_async
#define usb_autopm_put_interface_async	bqlm_hcd_usb_autopm_put_interface_async
#define usb_autopm_get_interface_no_resume \
	bqlm_hcd_usb_autopm_get_interface_no_resume
#define usb_clear_halt			bqlm_hcd_usb_clear_halt
#define usb_control_msg			bqlm_hcd_usb_control_msg
#define usb_set_interface		bqlm_hcd_usb_set_interface
#define usb_string			bqlm_hcd_usb_string
#define usb_check_bulk_endpoints	bqlm_hcd_usb_check_bulk_endpoints
#define usb_get_dev			bqlm_hcd_usb_get_dev
#define usb_put_dev			bqlm_hcd_usb_put_dev
#define usb_driver_set_configuration	bqlm_hcd_usb_driver_set_configuration
/* bind-time only: the harness never binds */
#define usb_driver_claim_interface	bqlm_hcd_usb_driver_claim_interface
#define usb_driver_release_interface	bqlm_hcd_usb_driver_release_interface
#define usb_ifnum_to_if			bqlm_hcd_usb_ifnum_to_if
#define usb_reset_configuration		bqlm_hcd_usb_reset_configuration
#define cdc_parse_cdc_header		bqlm_hcd_cdc_parse_cdc_header
#define usb_bulk_msg			bqlm_hcd_usb_bulk_msg
#define usb_interrupt_msg		bqlm_hcd_usb_interrupt_msg
#define usb_reset_device		bqlm_hcd_usb_reset_device
#define usb_lock_device_for_reset	bqlm_hcd_usb_lock_device_for_reset
#define usb_match_id			bqlm_hcd_usb_match_id
#define usb_altnum_to_altsetting	bqlm_hcd_usb_altnum_to_altsetting
#define usb_cdc_wdm_register		bqlm_hcd_usb_cdc_wdm_register
/* the fake device needs no time: its driver's waits take none */
#undef msleep
#define msleep				bqlm_hcd_msleep
#undef usleep_range
#define usleep_range			bqlm_hcd_usleep_range

#endif /* _BQLM_REAL_USB_GLUE_H */
