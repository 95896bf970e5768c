/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the usbnet minidrivers the real-code harness runs: one entry
 * each in bqlm_rusbnet_minidrivers[] below (see docs/real-code.md, "Adding
 * a usbnet minidriver").
 *
 * Compiled into every usbnet variant's object after the variant's
 * usbnet.c, so each minidriver's own driver_info (its flags, its
 * tx_fixup()) runs against that variant. The glue neutralises
 * module_usb_driver() and MODULE_DEVICE_TABLE(); statics that two
 * minidrivers both define are renamed around the #include.
 *
 * An entry names the minidriver, its driver_info, the model's description
 * of its transmit path (which configuration of the model describes it),
 * and how its bind is faked: the device is made as usbnet_probe() makes
 * it, on the fake host controller's interface and bulk-out endpoint (the
 * configuration's maxpacket), and @bind leaves what tx_fixup() reads.
 */
#ifndef _BQLM_REAL_USBNET_MINIDRIVERS_H
#define _BQLM_REAL_USBNET_MINIDRIVERS_H

#define products	bqlm_rusbnet_cdc_ether_products
#include <cdc_ether.c>
#undef products

#define products	bqlm_rusbnet_aqc111_products
#include <aqc111.c>
#undef products

#define wwan_info	bqlm_rusbnet_ncm_wwan_info
#include <cdc_ncm.c>
#undef wwan_info

#define products	bqlm_rusbnet_ax88179_products
#include <ax88179_178a.c>
#undef products

/* The harness's own driver_info: no tx_fixup() */
static const struct driver_info bqlm_rusbnet_info_plain = {
	.description	= "bqlmodel real-code harness",
	.flags		= FLAG_ETHER,
};

static const struct driver_info bqlm_rusbnet_info_avoid_unlink = {
	.description	= "bqlmodel real-code harness, FLAG_AVOID_UNLINK_URBS",
	.flags		= FLAG_ETHER | FLAG_AVOID_UNLINK_URBS,
};

/*
 * cdc_ncm_bind_common() minus the descriptors: the NTB parameters the model
 * frames with (NTB16, two datagrams, 4-byte alignment), and a tx_max above
 * what two datagrams take with min_tx_pkt at tx_max, so that an NTB goes
 * out at its length (with cdc_ncm's short-packet byte), not filled up.
 */
#define BQLM_RUSBNET_NCM_TX_MAX		4096
#define BQLM_RUSBNET_NCM_DATAGRAMS	2
#define BQLM_RUSBNET_NCM_ALIGN		4

static int bqlm_rusbnet_ncm_bind(struct usbnet *dev)
{
	struct cdc_ncm_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->dev = dev;
	hrtimer_init(&ctx->tx_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	ctx->tx_timer.function = &cdc_ncm_tx_timer_cb;
	tasklet_setup(&ctx->bh, cdc_ncm_txpath_bh);
	atomic_set(&ctx->stop, 0);
	spin_lock_init(&ctx->mtx);
	ctx->is_ndp16 = 1;
	ctx->tx_max = BQLM_RUSBNET_NCM_TX_MAX;
	ctx->tx_max_datagrams = BQLM_RUSBNET_NCM_DATAGRAMS;
	ctx->tx_modulus = BQLM_RUSBNET_NCM_ALIGN;
	ctx->tx_remainder = 0;
	ctx->tx_ndp_modulus = BQLM_RUSBNET_NCM_ALIGN;
	ctx->max_ndp_size = sizeof(struct usb_cdc_ncm_ndp16) +
			    (ctx->tx_max_datagrams + 1) *
			    sizeof(struct usb_cdc_ncm_dpe16);
	ctx->timer_interval = CDC_NCM_TIMER_INTERVAL_USEC * NSEC_PER_USEC;
	ctx->min_tx_pkt = ctx->tx_max;
	dev->data[0] = (unsigned long)ctx;
	return 0;
}

static void bqlm_rusbnet_ncm_unbind(struct usbnet *dev)
{
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];

	if (!ctx)
		return;
	dev_kfree_skb_any(ctx->tx_curr_skb);
	dev_kfree_skb_any(ctx->tx_rem_skb);
	kfree(ctx);
	dev->data[0] = 0;
}

/* The timer has fired often enough: cdc_ncm_txpath_bh() flushes. */
static void bqlm_rusbnet_ncm_flush(struct usbnet *dev)
{
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];

	ctx->tx_timer_pending = 0;
	cdc_ncm_txpath_bh(&ctx->bh);
}

/* The NTB being filled: its datagrams, their bytes from the first on */
static unsigned int bqlm_rusbnet_ncm_pending(struct usbnet *dev,
					     unsigned int *len)
{
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];
	unsigned int head = sizeof(struct usb_cdc_ncm_nth16);

	*len = 0;
	if (!ctx || !ctx->tx_curr_skb || !ctx->tx_curr_frame_num)
		return 0;
	head = ALIGN(head, ctx->tx_ndp_modulus) + ctx->max_ndp_size;
	*len = ctx->tx_curr_skb->len - ALIGN(head, ctx->tx_modulus);
	return ctx->tx_curr_frame_num;
}

/*
 * aqc111_tx_fixup(): an 8-byte descriptor, padded to 8 bytes (1514 + 8 +
 * 6), and 8 more only where usbnet would add one (not at the model's
 * lengths): the model's pad fixup with a 14-byte header.
 */
#define BQLM_RUSBNET_AQC111_HEADER	14

/* ax88179_tx_fixup() prepends two 32-bit words */
#define BQLM_RUSBNET_AX88179_HEADER	8

static const struct bqlm_rusbnet_driver bqlm_rusbnet_minidrivers[] = {
	{
		.name		= "harness",
		.info		= &bqlm_rusbnet_info_plain,
		.fixup		= BQLM_USBNET_FIXUP_NONE,
	},
	{
		.name		= "harness-avoid-unlink",
		.info		= &bqlm_rusbnet_info_avoid_unlink,
		.fixup		= BQLM_USBNET_FIXUP_NONE,
		.flags		= BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	},
	{
		.name		= "cdc_ether",
		.info		= &cdc_info,
		.fixup		= BQLM_USBNET_FIXUP_NONE,
	},
	{
		.name		= "aqc111",
		.info		= &aqc111_info,
		.fixup		= BQLM_USBNET_FIXUP_PAD,
		.pad_header	= BQLM_RUSBNET_AQC111_HEADER,
		.flags		= BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
	},
	{
		/* NTB16 aggregation of two datagrams, flushed by a timer */
		.name		= "cdc_ncm",
		.info		= &cdc_ncm_info,
		.fixup		= BQLM_USBNET_FIXUP_MULTI,
		.bind		= bqlm_rusbnet_ncm_bind,
		.unbind		= bqlm_rusbnet_ncm_unbind,
		.flush		= bqlm_rusbnet_ncm_flush,
		.pending	= bqlm_rusbnet_ncm_pending,
	},
	{
		/* ax88179_tx_fixup(): an 8-byte header, usbnet's ZLP byte */
		.name		= "ax88179",
		.info		= &ax88179_info,
		.fixup		= BQLM_USBNET_FIXUP_PAD,
		.pad_header	= BQLM_RUSBNET_AX88179_HEADER,
	},
};

#endif /* _BQLM_REAL_USBNET_MINIDRIVERS_H */
