/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the usbnet minidrivers the real-code harness runs: one entry
 * each (see docs/real-usbnet.md, "Adding a usbnet minidriver", and
 * docs/usbnet-drivers.md for what each runs).
 *
 * An entry is:
 *
 *	BQLM_RUSBNET_MINIDRIVER(id, "file.c ...")
 *	#if BQLM_RUSBNET_BEFORE(id)
 *	(what its files need defined before them; rarely anything)
 *	#endif
 *	#if BQLM_RUSBNET_AFTER(id)
 *	(its faked bind and other helpers)
 *	BQLM_RUSBNET_ENTRY(id) = { (a struct bqlm_rusbnet_driver) };
 *	#endif
 *
 * The first line, alone on its line, is read by scripts/kunit.sh: the
 * minidriver's name (the module's, '_' for '-') and the files of
 * drivers/net/usb/ it is made of ("" for the harness's own driver_info;
 * "@other" for a second entry of other's module, whose blocks are then
 * other's: BQLM_RUSBNET_AFTER(other)).
 * For every usbnet variant with the series property "minidrivers", the
 * script generates an object that compiles these files with the variant's
 * usbnet.h and the glue (real/usbnet/minidriver.h), then this table, of
 * which only the minidriver's own block is compiled there
 * (real/usbnet/minidriver_entry.h). The KUnit suites read the first lines
 * too (the case names, in userspace as well), and make kunit-driver takes
 * the name.
 *
 * The entry names the minidriver's driver_info (one per module: the one
 * the table says), its usb_driver (its suspend(), resume() and
 * reset_resume() run), its net_device_ops, the model's description of its
 * transmit path (the packet lengths its cases send: the first a full
 * frame, the second, if any, the one that makes its transfer fill its
 * last packet, where the minidrivers differ), and its bind, faked: what
 * its own bind leaves that its tx_fixup() and callbacks read, without
 * talking to the device. The device answers its control transfers with
 * zeros unless the entry answers (@control). The callbacks it cannot run
 * are cleared with the reason (@clear, @why).
 */

/* The harness's own driver_info: FLAG_ETHER, no tx_fixup() */
BQLM_RUSBNET_MINIDRIVER(harness, "")
#if BQLM_RUSBNET_AFTER(harness)
static const struct driver_info bqlm_rusbnet_info_plain = {
	.description	= "bqlmodel real-code harness",
	.flags		= FLAG_ETHER,
};

BQLM_RUSBNET_ENTRY(harness) = {
	.name		= "harness",
	.info		= &bqlm_rusbnet_info_plain,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE },
};
#endif

/* The same with FLAG_AVOID_UNLINK_URBS */
BQLM_RUSBNET_MINIDRIVER(harness_avoid_unlink, "")
#if BQLM_RUSBNET_AFTER(harness_avoid_unlink)
static const struct driver_info bqlm_rusbnet_info_avoid_unlink = {
	.description	= "bqlmodel real-code harness, FLAG_AVOID_UNLINK_URBS",
	.flags		= FLAG_ETHER | FLAG_AVOID_UNLINK_URBS,
};

BQLM_RUSBNET_ENTRY(harness_avoid_unlink) = {
	.name		= "harness_avoid_unlink",
	.info		= &bqlm_rusbnet_info_avoid_unlink,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .flags = BQLM_USBNET_FLAG_AVOID_UNLINK_URBS },
};
#endif

/*
 * The harness's own driver_info with a manage_power() as cdc_ncm's
 * (usbnet_manage_power(): remote wakeup asked for, the count usbnet_open()
 * took dropped): the USB core may autosuspend the open device once it is
 * idle (the model's pm manage-power); usbnet's own suspend() and resume()
 */
BQLM_RUSBNET_MINIDRIVER(harness_manage_power, "")
#if BQLM_RUSBNET_AFTER(harness_manage_power)
static int bqlm_rusbnet_harness_manage_power(struct usbnet *dev, int on)
{
	dev->intf->needs_remote_wakeup = on;
	return 0;
}

static const struct driver_info bqlm_rusbnet_info_manage_power = {
	.description	= "bqlmodel real-code harness, manage_power",
	.flags		= FLAG_ETHER,
	.manage_power	= bqlm_rusbnet_harness_manage_power,
};

BQLM_RUSBNET_ENTRY(harness_manage_power) = {
	.name		= "harness_manage_power",
	.info		= &bqlm_rusbnet_info_manage_power,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },
};
#endif

/*
 * aqc111_tx_fixup(): an 8-byte descriptor, padded to 8 bytes (1514 + 8 +
 * 6); where that fills the last packet, 8 more (1528 + 8 + 8). No
 * usbnet pad (FLAG_MULTI_PACKET). usbnet_stop() leaves its URBs in
 * flight (FLAG_AVOID_UNLINK_URBS). Its stop() and resume() turn the
 * carrier off (the model's pm stop-carrier, resume-carrier); the link-up
 * report brings it back through its own status(), which stores the link
 * and queues EVENT_LINK_RESET, and its link_reset(), which turns the
 * carrier on from what status() stored, whatever the device answers
 * (status-reset, link-reset-blind); on its link-down report, its
 * link_reset() turns the carrier off. make kunit's rows of aqc111 leave
 * out the link-down report (with it, 3.3 times the states).
 */
BQLM_RUSBNET_MINIDRIVER(aqc111, "aqc111.c")
#if BQLM_RUSBNET_AFTER(aqc111)
static int bqlm_rusbnet_aqc111_bind(struct usbnet *dev)
{
	return bqlm_rusbnet_priv(dev, sizeof(struct aqc111_data));
}

BQLM_RUSBNET_ENTRY(aqc111) = {
	.name		= "aqc111",
	.info		= &aqc111_info,
	.usb		= &aq_driver,
	.netdev_ops	= &aqc111_netdev_ops,
	.mtu_why	= "aqc111_change_mtu() sets hard_mtu and no TX_QLEN: TX_QLEN follows at the next usbnet_open() or link change",
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 14, 16 }, .nr_headers = 2,
			    .lens = { 1514, 1528 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_AVOID_UNLINK_URBS |
				     BQLM_USBNET_FLAG_MULTI_PACKET,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_STOP_CARRIER |
				  BQLM_USBNET_PM_RESUME_CARRIER |
				  BQLM_USBNET_PM_STATUS_RESET |
				  BQLM_USBNET_PM_LINK_RESET_BLIND },
	.bind		= bqlm_rusbnet_aqc111_bind,
	/* its status(): a little-endian u64 with AQ_LS_MASK, at 1 Gb/s (low word) */
	.link_up	= BQLM_RUSBNET_LE32(AQ_LS_MASK |
					    (AQ_INT_SPEED_1G << AQ_SPEED_SHIFT)),
	.link_up_len	= sizeof(u64),
	.link_down_len	= sizeof(u64),
};
#endif

/*
 * asix: the AX88178's driver_info (ax88178_info). asix_tx_fixup(): a
 * 4-byte length word, and 4 bytes of fill where that fills the last
 * packet (FLAG_MULTI_PACKET: the model's fill). The AX88772's callbacks
 * need the phylink instance its bind creates; the AX88178's do not. Its
 * status(): usbnet_link_change(dev, link, 1); its link_reset() reads the
 * PHY with mii_check_media(), and once the device is unplugged takes the
 * read's -ENODEV for the link bit (the model's pm link-reset,
 * link-reset-blind).
 */
BQLM_RUSBNET_MINIDRIVER(asix, "asix_common.c asix_devices.c ax88172a.c")
#if BQLM_RUSBNET_BEFORE(asix)
/* the module's own globals: one copy per variant */
#define ax88172a_info			BQLM_RUSBNET_SYM(ax88172a_info)
#define asix_get_drvinfo		BQLM_RUSBNET_SYM(asix_get_drvinfo)
#define asix_get_eeprom			BQLM_RUSBNET_SYM(asix_get_eeprom)
#define asix_get_eeprom_len		BQLM_RUSBNET_SYM(asix_get_eeprom_len)
#define asix_get_wol			BQLM_RUSBNET_SYM(asix_get_wol)
#define asix_mdio_bus_read		BQLM_RUSBNET_SYM(asix_mdio_bus_read)
#define asix_mdio_bus_write		BQLM_RUSBNET_SYM(asix_mdio_bus_write)
#define asix_mdio_read			BQLM_RUSBNET_SYM(asix_mdio_read)
#define asix_mdio_read_nopm		BQLM_RUSBNET_SYM(asix_mdio_read_nopm)
#define asix_mdio_write			BQLM_RUSBNET_SYM(asix_mdio_write)
#define asix_mdio_write_nopm		BQLM_RUSBNET_SYM(asix_mdio_write_nopm)
#define asix_read_cmd			BQLM_RUSBNET_SYM(asix_read_cmd)
#define asix_read_medium_status		BQLM_RUSBNET_SYM(asix_read_medium_status)
#define asix_read_phy_addr		BQLM_RUSBNET_SYM(asix_read_phy_addr)
#define asix_read_rx_ctl		BQLM_RUSBNET_SYM(asix_read_rx_ctl)
#define asix_rx_fixup_common		BQLM_RUSBNET_SYM(asix_rx_fixup_common)
#define asix_rx_fixup_common_free	BQLM_RUSBNET_SYM(asix_rx_fixup_common_free)
#define asix_rx_fixup_internal		BQLM_RUSBNET_SYM(asix_rx_fixup_internal)
#define asix_set_eeprom			BQLM_RUSBNET_SYM(asix_set_eeprom)
#define asix_set_mac_address		BQLM_RUSBNET_SYM(asix_set_mac_address)
#define asix_set_multicast		BQLM_RUSBNET_SYM(asix_set_multicast)
#define asix_set_wol			BQLM_RUSBNET_SYM(asix_set_wol)
#define asix_sw_reset			BQLM_RUSBNET_SYM(asix_sw_reset)
#define asix_tx_fixup			BQLM_RUSBNET_SYM(asix_tx_fixup)
#define asix_write_cmd			BQLM_RUSBNET_SYM(asix_write_cmd)
#define asix_write_cmd_async		BQLM_RUSBNET_SYM(asix_write_cmd_async)
#define asix_write_gpio			BQLM_RUSBNET_SYM(asix_write_gpio)
#define asix_write_medium_mode		BQLM_RUSBNET_SYM(asix_write_medium_mode)
#define asix_write_rx_ctl		BQLM_RUSBNET_SYM(asix_write_rx_ctl)
#endif
#if BQLM_RUSBNET_AFTER(asix)
static int bqlm_rusbnet_asix_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, asix_mdio_read, asix_mdio_write, 0x1f, 0xff,
			 0x10, true);
	return bqlm_rusbnet_priv(dev, sizeof(struct asix_common_private));
}

/*
 * The device for ax88178_link_reset(): the MII interface is the host's at
 * once (AX_HOST_EN), and every PHY register reads with the link bit
 */
static int bqlm_rusbnet_asix_control(struct usbnet *dev, u8 request,
				     u8 requesttype, u16 value, u16 index,
				     void *data, u16 size)
{
	if (!(requesttype & USB_DIR_IN))
		return size;
	if (request == AX_CMD_STATMNGSTS_REG && size == 1)
		*(u8 *)data = AX_HOST_EN;
	else if (request == AX_CMD_READ_MII_REG && size == sizeof(u16))
		put_unaligned_le16(BMSR_LSTATUS, data);
	return size;
}

BQLM_RUSBNET_ENTRY(asix) = {
	.name		= "asix",
	.info		= &ax88178_info,
	.usb		= &asix_driver,
	.netdev_ops	= &ax88178_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 4 }, .nr_headers = 1,
			    .lens = { 1514, 1532 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_MULTI_PACKET,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_LINK_RESET |
				  BQLM_USBNET_PM_LINK_RESET_BLIND },
	.bind		= bqlm_rusbnet_asix_bind,
	.control	= bqlm_rusbnet_asix_control,
	/* struct ax88172_int_data: bit 0 of its link byte */
	.link_up	= { [offsetof(struct ax88172_int_data, link)] = 0x01 },
	.link_up_len	= sizeof(struct ax88172_int_data),
	.link_down_len	= sizeof(struct ax88172_int_data),
};
#endif

/*
 * ax88172a (in the asix module): asix_tx_fixup() as asix. Its stop()
 * disconnects the PHY its reset() connects (not run: none); its unbind()
 * unregisters the MDIO bus its bind registers on the USB device, which
 * the fake device is not.
 */
BQLM_RUSBNET_MINIDRIVER(ax88172a, "@asix")
#if BQLM_RUSBNET_AFTER(asix)
static int bqlm_rusbnet_ax88172a_bind(struct usbnet *dev)
{
	return bqlm_rusbnet_priv(dev, sizeof(struct ax88172a_private));
}

static void bqlm_rusbnet_ax88172a_unbind(struct usbnet *dev)
{
	kfree(dev->driver_priv);
}

BQLM_RUSBNET_ENTRY(ax88172a) = {
	.name		= "ax88172a",
	.info		= &ax88172a_info,
	.usb		= &asix_driver,
	.netdev_ops	= &ax88172a_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 4 }, .nr_headers = 1,
			    .lens = { 1514, 1532 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_MULTI_PACKET,
			    .maxpacket = 512 },
	.clear		= BQLM_RUSBNET_NO_UNBIND,
	.why		= "unbind() unregisters the MDIO bus its bind registers on the USB device",
	.bind		= bqlm_rusbnet_ax88172a_bind,
	.unbind		= bqlm_rusbnet_ax88172a_unbind,
};
#endif

/*
 * ax88179_tx_fixup() prepends two 32-bit words; where that fills the last
 * packet (1528 + 8), usbnet adds its byte. Its resume() reports the link
 * down (usbnet_link_change()): the kevent is queued (the model's pm
 * resume-link); its reset there reads the PHY through dev->mii. Its
 * suspend() returns 0 whatever usbnet_suspend() returned (the model's pm
 * suspend-ignores-busy), which never matters: it has no manage_power, so
 * the PM usage count usbnet_open() takes holds the open device awake (no
 * pm manage-power), and usbnet_suspend() answers -EBUSY only to an
 * autosuspend, which the USB core takes only at a count of 0, when the
 * device is down and dev->txq empty. Its
 * status() sees the link up in the first word's AX_INT_PPLS_LINK and asks
 * usbnet for a reset (usbnet_link_change(dev, 1, 1)); its link_reset(), in
 * the kevent, reads the PHY's status register, turns the carrier on when
 * it has the link bit and sizes RX (the model's pm link-reset). The device
 * answers as a gigabit full-duplex link; the other reads of link_reset()
 * get zeros (the TX FIFO is empty at once, a USB 1.1 bulk-in size).
 */
BQLM_RUSBNET_MINIDRIVER(ax88179_178a, "ax88179_178a.c")
#if BQLM_RUSBNET_AFTER(ax88179_178a)
static int bqlm_rusbnet_ax88179_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, ax88179_mdio_read, ax88179_mdio_write, 0xff,
			 0xff, 0x03, true);
	return bqlm_rusbnet_priv(dev, sizeof(struct ax88179_data));
}

/* The PHY's status register: a gigabit full-duplex link */
static int bqlm_rusbnet_ax88179_control(struct usbnet *dev, u8 request,
					u8 requesttype, u16 value, u16 index,
					void *data, u16 size)
{
	if ((requesttype & USB_DIR_IN) && request == AX_ACCESS_PHY &&
	    value == AX88179_PHY_ID && index == GMII_PHY_PHYSR &&
	    size == sizeof(u16))
		put_unaligned_le16(GMII_PHY_PHYSR_LINK | GMII_PHY_PHYSR_GIGA |
				   GMII_PHY_PHYSR_FULL, data);
	return size;
}

BQLM_RUSBNET_ENTRY(ax88179_178a) = {
	.name		= "ax88179_178a",
	.info		= &ax88179_info,
	.usb		= &ax88179_178a_driver,
	.netdev_ops	= &ax88179_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 8 }, .nr_headers = 1,
			    .lens = { 1514, 1528 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_RESUME_LINK |
				  BQLM_USBNET_PM_SUSPEND_IGNORES_BUSY |
				  BQLM_USBNET_PM_LINK_RESET },
	.bind		= bqlm_rusbnet_ax88179_bind,
	.control	= bqlm_rusbnet_ax88179_control,
	/* struct ax88179_int_data: intdata1 with the link bit, intdata2 0 */
	.link_up	= BQLM_RUSBNET_LE32(AX_INT_PPLS_LINK),
	.link_up_len	= sizeof(struct ax88179_int_data),
};
#endif

/*
 * eem_tx_fixup(): a 2-byte header and the 4-byte CRC; where that fills
 * the last packet (1530 + 6), a 2-byte zero-length EEM packet instead of
 * usbnet's byte.
 */
BQLM_RUSBNET_MINIDRIVER(cdc_eem, "cdc_eem.c")
#if BQLM_RUSBNET_AFTER(cdc_eem)
BQLM_RUSBNET_ENTRY(cdc_eem) = {
	.name		= "cdc_eem",
	.info		= &eem_info,
	.usb		= &eem_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 6, 8 }, .nr_headers = 2,
			    .lens = { 1514, 1530 }, .nr_lens = 2,
			    .maxpacket = 512 },
};
#endif

/*
 * cdc_ether: no tx_fixup(); usbnet's byte on a transfer of 3 packets.
 * Its state (struct cdc_state in dev->data) names no interface of its
 * own: usbnet_cdc_unbind() releases nothing. Its status() on the CDC
 * NETWORK_CONNECTION notifications: usbnet_link_change(dev, link, 0), a
 * link flap (as cdc_ether_wwan's, lg_vl600's, r8153_ecm's, cdc_ncm's).
 */
BQLM_RUSBNET_MINIDRIVER(cdc_ether, "cdc_ether.c")
#if BQLM_RUSBNET_AFTER(cdc_ether)
BQLM_RUSBNET_ENTRY(cdc_ether) = {
	.name		= "cdc_ether",
	.info		= &cdc_info,
	.usb		= &cdc_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },	BQLM_RUSBNET_CDC_LINKS,
};
#endif

/*
 * cdc_ether's wwan_info, the mobile broadband devices that speak CDC
 * Ethernet: FLAG_WWAN where cdc_info has FLAG_ETHER | FLAG_POINTTOPOINT,
 * the same callbacks. Added by the recipe of docs/real-usbnet.md: this
 * entry and nothing else.
 */
BQLM_RUSBNET_MINIDRIVER(cdc_ether_wwan, "@cdc_ether")
#if BQLM_RUSBNET_AFTER(cdc_ether)
BQLM_RUSBNET_ENTRY(cdc_ether_wwan) = {
	.name		= "cdc_ether_wwan",
	.info		= &wwan_info,
	.usb		= &cdc_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },	BQLM_RUSBNET_CDC_LINKS,
};
#endif

/*
 * cdc_mbim: cdc_mbim_tx_fixup() takes the Ethernet header off an IP
 * packet and hands the datagram to cdc_ncm's NTB (the model's multi
 * fixup, 14 bytes stripped); cdc_ncm's timer flushes. No subdriver
 * (cdc-wdm): its suspend() and resume() are usbnet's with its checks.
 */
BQLM_RUSBNET_MINIDRIVER(cdc_mbim, "cdc_mbim.c")
#if BQLM_RUSBNET_AFTER(cdc_mbim)
static int bqlm_rusbnet_mbim_bind(struct usbnet *dev)
{
	return bqlm_rusbnet_ncm_ctx(dev, NULL, NULL);
}

static void bqlm_rusbnet_mbim_frame(struct sk_buff *skb, unsigned int i)
{
	bqlm_rusbnet_ipv4(skb);
}

BQLM_RUSBNET_ENTRY(cdc_mbim) = {
	.name		= "cdc_mbim",
	.info		= &cdc_mbim_info,
	.usb		= &cdc_mbim_driver,
	.netdev_ops	= &cdc_mbim_netdev_ops,
	.mtu_why	= "cdc_ncm_change_mtu() sets the datagram size: TX_QLEN follows the NTB's size (tx_max), not the MTU",
	.model		= { .fixup = BQLM_USBNET_FIXUP_MULTI, .strip = ETH_HLEN,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },
	.bind		= bqlm_rusbnet_mbim_bind,
	.frame		= bqlm_rusbnet_mbim_frame,
	.flush		= bqlm_rusbnet_ncm_txpath,
	.pending	= bqlm_rusbnet_ncm_pending,
};
#endif

/* cdc_ncm: NTB16 aggregation of two datagrams, flushed by its timer */
BQLM_RUSBNET_MINIDRIVER(cdc_ncm, "cdc_ncm.c")
#if BQLM_RUSBNET_AFTER(cdc_ncm)
static int bqlm_rusbnet_ncm_bind(struct usbnet *dev)
{
	return bqlm_rusbnet_ncm_ctx(dev, cdc_ncm_txpath_bh,
				    cdc_ncm_tx_timer_cb);
}

/* The timer has fired often enough: cdc_ncm_txpath_bh() flushes. */
static void bqlm_rusbnet_ncm_flush(struct usbnet *dev)
{
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];

	ctx->tx_timer_pending = 0;
	cdc_ncm_txpath_bh(&ctx->bh);
}

BQLM_RUSBNET_ENTRY(cdc_ncm) = {
	.name		= "cdc_ncm",
	.info		= &cdc_ncm_info,
	.usb		= &cdc_ncm_driver,
	.netdev_ops	= &cdc_ncm_netdev_ops,
	.mtu_why	= "cdc_ncm_change_mtu() sets the datagram size: TX_QLEN follows the NTB's size (tx_max), not the MTU",
	.model		= { .fixup = BQLM_USBNET_FIXUP_MULTI, .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },
	.bind		= bqlm_rusbnet_ncm_bind,
	.flush		= bqlm_rusbnet_ncm_flush,
	.pending	= bqlm_rusbnet_ncm_pending,	BQLM_RUSBNET_CDC_LINKS,
};
#endif

/* cdc_subset: the KC2190's entry (kc2190_info); no tx_fixup() */
BQLM_RUSBNET_MINIDRIVER(cdc_subset, "cdc_subset.c")
#if BQLM_RUSBNET_BEFORE(cdc_subset)
/* one of its hardware entries, which its Kconfig would enable */
#define CONFIG_USB_KC2190	1
#endif
#if BQLM_RUSBNET_AFTER(cdc_subset)
BQLM_RUSBNET_ENTRY(cdc_subset) = {
	.name		= "cdc_subset",
	.info		= &kc2190_info,
	.usb		= &cdc_subset_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .maxpacket = 64 },
};
#endif

/*
 * ch9200_tx_fixup(): a 64-byte header (its length field says where
 * usbnet adds its byte: 1472 + 64). Its status() turns the carrier on
 * and queues EVENT_LINK_RESET, or turns it off (the model's pm
 * status-carrier); its link_reset() reads MII_BMSR, which after an
 * unplug is -ENODEV, taken for the link bit (link-reset-blind).
 */
BQLM_RUSBNET_MINIDRIVER(ch9200, "ch9200.c")
#if BQLM_RUSBNET_AFTER(ch9200)
static int bqlm_rusbnet_ch9200_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, ch9200_mdio_read, ch9200_mdio_write, 0x1f, 0x1f,
			 0, false);
	return 0;
}

/* The device for ch9200_link_reset(): MII_BMSR has the PHY's link */
static int bqlm_rusbnet_ch9200_control(struct usbnet *dev, u8 request,
				       u8 requesttype, u16 value, u16 index,
				       void *data, u16 size)
{
	if ((requesttype & USB_DIR_IN) && request == REQUEST_READ &&
	    index == MII_BMSR * 2 && size == sizeof(u16))
		put_unaligned_le16(bqlm_rusbnet_phy_link() ? BMSR_LSTATUS : 0,
				   data);
	return size;
}

BQLM_RUSBNET_ENTRY(ch9200) = {
	.name		= "ch9200",
	.info		= &ch9200_info,
	.usb		= &ch9200_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 64 }, .nr_headers = 1,
			    .lens = { 1514, 1472 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_STATUS_CARRIER |
				  BQLM_USBNET_PM_LINK_RESET_BLIND },
	.bind		= bqlm_rusbnet_ch9200_bind,
	.control	= bqlm_rusbnet_ch9200_control,
	/* its status(): the link in bit 0 of the first byte */
	.link_up	= { 0x01 },
	.link_up_len	= 16,
	.link_down_len	= 16,
};
#endif

/* cx82310_tx_fixup(): a 2-byte length */
BQLM_RUSBNET_MINIDRIVER(cx82310_eth, "cx82310_eth.c")
#if BQLM_RUSBNET_AFTER(cx82310_eth)
static int bqlm_rusbnet_cx82310_bind(struct usbnet *dev)
{
	struct cx82310_priv *priv;

	dev->partial_data = (unsigned long)kmalloc(CX82310_MTU + 2,
						   GFP_KERNEL);
	if (!dev->partial_data || bqlm_rusbnet_priv(dev, sizeof(*priv))) {
		kfree((void *)dev->partial_data);
		return -ENOMEM;
	}
	priv = dev->driver_priv;
	INIT_WORK(&priv->reenable_work, cx82310_reenable_work);
	priv->dev = dev;
	return 0;
}

BQLM_RUSBNET_ENTRY(cx82310_eth) = {
	.name		= "cx82310_eth",
	.info		= &cx82310_info,
	.usb		= &cx82310_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 2 }, .nr_headers = 1,
			    .lens = { 1514, 1534 }, .nr_lens = 2,
			    .maxpacket = 512 },
	.bind		= bqlm_rusbnet_cx82310_bind,
};
#endif

/*
 * dm9601_tx_fixup(): a 2-byte length, then padded to an even length that
 * does not fill the last packet (1534 + 2 + 2). Its status():
 * usbnet_link_change(dev, link, 1); its link_reset(): mii_check_media()
 * (the model's pm link-reset).
 */
BQLM_RUSBNET_MINIDRIVER(dm9601, "dm9601.c")
#if BQLM_RUSBNET_AFTER(dm9601)
static int bqlm_rusbnet_dm9601_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, dm9601_mdio_read, dm9601_mdio_write, 0x1f, 0x1f,
			 0, false);
	return 0;
}

/*
 * The device for dm9601_link_reset(): the shared PHY/EEPROM access is
 * ready at once (DM_SHARED_CTRL reads 0), and every word it reads has
 * the PHY's link bit
 */
static int bqlm_rusbnet_dm9601_control(struct usbnet *dev, u8 request,
				       u8 requesttype, u16 value, u16 index,
				       void *data, u16 size)
{
	if ((requesttype & USB_DIR_IN) && request == DM_READ_REGS &&
	    index == DM_SHARED_DATA && size == sizeof(u16))
		put_unaligned_le16(BMSR_LSTATUS, data);
	return size;
}

BQLM_RUSBNET_ENTRY(dm9601) = {
	.name		= "dm9601",
	.info		= &dm9601_info,
	.usb		= &dm9601_driver,
	.netdev_ops	= &dm9601_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 2, 4 }, .nr_headers = 2,
			    .lens = { 1514, 1534 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_LINK_RESET },
	.bind		= bqlm_rusbnet_dm9601_bind,
	.control	= bqlm_rusbnet_dm9601_control,
	/* its status(): the link in bit 6 of the network status byte */
	.link_up	= { 0x40 },
	.link_up_len	= 8,
	.link_down_len	= 8,
};
#endif

/*
 * genelink_tx_fixup(): an 8-byte header; its own byte where that fills
 * the last packet (1528 + 8 + 1). A full-speed device.
 */
BQLM_RUSBNET_MINIDRIVER(gl620a, "gl620a.c")
#if BQLM_RUSBNET_AFTER(gl620a)
BQLM_RUSBNET_ENTRY(gl620a) = {
	.name		= "gl620a",
	.info		= &genelink_info,
	.usb		= &gl620a_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 8, 9 }, .nr_headers = 2,
			    .lens = { 1514, 1528 }, .nr_lens = 2,
			    .maxpacket = 64 },
};
#endif

/*
 * huawei_cdc_ncm: cdc_ncm's tx_fixup() and NTB; no subdriver (cdc-wdm):
 * its suspend() and resume() are usbnet's with its checks.
 */
BQLM_RUSBNET_MINIDRIVER(huawei_cdc_ncm, "huawei_cdc_ncm.c")
#if BQLM_RUSBNET_AFTER(huawei_cdc_ncm)
static int bqlm_rusbnet_huawei_bind(struct usbnet *dev)
{
	return bqlm_rusbnet_ncm_ctx(dev, NULL, NULL);
}

BQLM_RUSBNET_ENTRY(huawei_cdc_ncm) = {
	.name		= "huawei_cdc_ncm",
	.info		= &huawei_cdc_ncm_info,
	.usb		= &huawei_cdc_ncm_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_MULTI, .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },
	.bind		= bqlm_rusbnet_huawei_bind,
	.flush		= bqlm_rusbnet_ncm_txpath,
	.pending	= bqlm_rusbnet_ncm_pending,
};
#endif

/*
 * int51x1_tx_fixup(): a 2-byte length; its own byte where that fills the
 * last packet (1534 + 2 + 1). A full-speed device.
 */
BQLM_RUSBNET_MINIDRIVER(int51x1, "int51x1.c")
#if BQLM_RUSBNET_AFTER(int51x1)
BQLM_RUSBNET_ENTRY(int51x1) = {
	.name		= "int51x1",
	.info		= &int51x1_info,
	.usb		= &int51x1_driver,
	.netdev_ops	= &int51x1_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 2, 3 }, .nr_headers = 2,
			    .lens = { 1514, 1534 }, .nr_lens = 2,
			    .maxpacket = 64 },
};
#endif

/* kalmia_tx_fixup(): a 6-byte header, padded to 4 bytes */
BQLM_RUSBNET_MINIDRIVER(kalmia, "kalmia.c")
#if BQLM_RUSBNET_AFTER(kalmia)
BQLM_RUSBNET_ENTRY(kalmia) = {
	.name		= "kalmia",
	.info		= &kalmia_info,
	.usb		= &kalmia_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 6 }, .nr_headers = 1,
			    .lens = { 1514, 1530 }, .nr_lens = 2,
			    .maxpacket = 512 },
};
#endif

/*
 * vl600_tx_fixup(): a 24-byte frame header, the packet header in place
 * of the Ethernet header, the whole padded to 4 bytes (1514 + 26,
 * 1512 + 24, where usbnet adds its byte)
 */
BQLM_RUSBNET_MINIDRIVER(lg_vl600, "lg-vl600.c")
#if BQLM_RUSBNET_AFTER(lg_vl600)
static int bqlm_rusbnet_vl600_bind(struct usbnet *dev)
{
	return bqlm_rusbnet_priv(dev, sizeof(struct vl600_state));
}

BQLM_RUSBNET_ENTRY(lg_vl600) = {
	.name		= "lg_vl600",
	.info		= &vl600_info,
	.usb		= &lg_vl600_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 26, 24 }, .nr_headers = 2,
			    .lens = { 1514, 1512 }, .nr_lens = 2,
			    .maxpacket = 512 },
	.bind		= bqlm_rusbnet_vl600_bind,	BQLM_RUSBNET_CDC_LINKS,
};
#endif

/*
 * mcs7830: no tx_fixup(); its reset_resume() reconfigures, then usbnet's.
 * Its status(): usbnet_link_change(dev, link, 0), a link flap.
 */
BQLM_RUSBNET_MINIDRIVER(mcs7830, "mcs7830.c")
#if BQLM_RUSBNET_AFTER(mcs7830)
static int bqlm_rusbnet_mcs7830_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, mcs7830_mdio_read, mcs7830_mdio_write, 0x3f,
			 0x1f, 0, false);
	return 0;
}

BQLM_RUSBNET_ENTRY(mcs7830) = {
	.name		= "mcs7830",
	.info		= &moschip_info,
	.usb		= &mcs7830_driver,
	.netdev_ops	= &mcs7830_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .maxpacket = 512 },
	.bind		= bqlm_rusbnet_mcs7830_bind,	/* its status(): the link is down when the second byte is 0x20 */
	.link_up_len	= 16,
	.link_down	= { 0, 0x20 },
	.link_down_len	= 16,
};
#endif

/*
 * net1080_tx_fixup(): a 6-byte header, a 2-byte trailer and a pad byte
 * that makes the transfer odd (it never fills its last packet). A
 * full-speed device.
 */
BQLM_RUSBNET_MINIDRIVER(net1080, "net1080.c")
#if BQLM_RUSBNET_AFTER(net1080)
BQLM_RUSBNET_ENTRY(net1080) = {
	.name		= "net1080",
	.info		= &net1080_info,
	.usb		= &net1080_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 9 }, .nr_headers = 1,
			    .maxpacket = 64 },
};
#endif

/* plusb: no tx_fixup(); a full-speed host-to-host cable */
BQLM_RUSBNET_MINIDRIVER(plusb, "plusb.c")
#if BQLM_RUSBNET_AFTER(plusb)
BQLM_RUSBNET_ENTRY(plusb) = {
	.name		= "plusb",
	.info		= &prolific_info,
	.usb		= &plusb_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .maxpacket = 64 },
};
#endif

/*
 * qmi_wwan: no tx_fixup(); FLAG_SEND_ZLP: no usbnet byte on a transfer
 * of 3 packets. No subdriver (cdc-wdm): its suspend() and resume() are
 * usbnet's with its checks.
 */
BQLM_RUSBNET_MINIDRIVER(qmi_wwan, "qmi_wwan.c")
#if BQLM_RUSBNET_AFTER(qmi_wwan)
BQLM_RUSBNET_ENTRY(qmi_wwan) = {
	.name		= "qmi_wwan",
	.info		= &qmi_wwan_info,
	.usb		= &qmi_wwan_driver,
	.netdev_ops	= &qmi_wwan_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_SEND_ZLP,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },
};
#endif

/* r8153_ecm: cdc_ether's code for the RTL8153 in ECM mode */
BQLM_RUSBNET_MINIDRIVER(r8153_ecm, "r8153_ecm.c")
#if BQLM_RUSBNET_AFTER(r8153_ecm)
static int bqlm_rusbnet_r8153_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, r8153_ecm_mdio_read, r8153_ecm_mdio_write, 0,
			 0x1f, 0, true);
	return 0;
}

BQLM_RUSBNET_ENTRY(r8153_ecm) = {
	.name		= "r8153_ecm",
	.info		= &r8153_info,
	.usb		= &r8153_ecm_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_NONE,
			    .lens = { 1514, 1536 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_MANAGE_POWER },
	.bind		= bqlm_rusbnet_r8153_bind,	BQLM_RUSBNET_CDC_LINKS,
};
#endif

/*
 * rndis_tx_fixup(): a 44-byte RNDIS data header. Its unbind() sends the
 * device a halt (a control transfer the fake HCD answers) on the control
 * interface of its cdc_state, which the faked bind makes the harness's
 * interface, data and control in one.
 */
BQLM_RUSBNET_MINIDRIVER(rndis_host, "rndis_host.c")
#if BQLM_RUSBNET_AFTER(rndis_host)
/* generic_rndis_bind()'s cdc_state: the union descriptor, interface 0 */
static struct usb_cdc_union_desc bqlm_rusbnet_rndis_union = {
	.bLength		= sizeof(struct usb_cdc_union_desc),
	.bDescriptorType	= USB_DT_CS_INTERFACE,
	.bDescriptorSubType	= USB_CDC_UNION_TYPE,
};

static int bqlm_rusbnet_rndis_bind(struct usbnet *dev)
{
	struct cdc_state *info = (void *)&dev->data;

	info->u = &bqlm_rusbnet_rndis_union;
	/* one interface for both: usbnet_cdc_unbind() releases nothing */
	info->control = dev->intf;
	info->data = dev->intf;
	return 0;
}

BQLM_RUSBNET_ENTRY(rndis_host) = {
	.name		= "rndis_host",
	.info		= &rndis_info,
	.usb		= &rndis_driver,
	.netdev_ops	= &rndis_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 44 }, .nr_headers = 1,
			    .lens = { 1514, 1492 }, .nr_lens = 2,
			    .maxpacket = 512 },
	.bind		= bqlm_rusbnet_rndis_bind,
};
#endif

/*
 * sierra_net_tx_fixup(): an IP packet (its link up) gets a 6-byte HIP
 * header and its own byte where that fills the last packet
 * (FLAG_SEND_ZLP: usbnet adds none). Its status(), on a
 * RESPONSE_AVAILABLE notification, queues its own work, which reads the
 * link state indication (LSI) with GET_ENCAPSULATED_RESPONSE and calls
 * usbnet_link_change(dev, link, 0) (a link flap, as cdc_ether's); the
 * link step runs that work at once, after status(). With the link down
 * its tx_fixup() drops every packet; the carrier is off then too.
 */
BQLM_RUSBNET_MINIDRIVER(sierra_net, "sierra_net.c")
#if BQLM_RUSBNET_AFTER(sierra_net)
static int bqlm_rusbnet_sierra_bind(struct usbnet *dev)
{
	struct sierra_net_data *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (!priv)
		return -ENOMEM;
	priv->usbnet = dev;
	priv->link_up = 1;
	sierra_net_set_ctx_index(priv, 0);
	INIT_WORK(&priv->sierra_net_kevent, sierra_net_kevent);
	timer_setup(&priv->sync_timer, sierra_sync_timer, 0);
	sierra_net_set_private(dev, priv);
	return 0;
}

static void bqlm_rusbnet_sierra_frame(struct sk_buff *skb, unsigned int i)
{
	bqlm_rusbnet_ipv4(skb);
}

/*
 * The device's LSI: a HIP header (payload length, LSI message, context
 * 0), then a UMTS single-stack LSI with coverage, its session up when the
 * PHY has the link, idle when not
 */
static int bqlm_rusbnet_sierra_control(struct usbnet *dev, u8 request,
				       u8 requesttype, u16 value, u16 index,
				       void *data, u16 size)
{
	u8 *b = data, *lsi = b + SIERRA_NET_HIP_HDR_LEN;

	if (!(requesttype & USB_DIR_IN) ||
	    request != USB_CDC_GET_ENCAPSULATED_RESPONSE ||
	    size < SIERRA_NET_HIP_HDR_LEN + SIERRA_NET_LSI_UMTS_LEN)
		return size;
	put_unaligned_be16(SIERRA_NET_LSI_UMTS_LEN, b);
	b[2] = SIERRA_NET_HIP_LSI_UMTSID;
	lsi[offsetof(struct lsi_umts, protocol)] = SIERRA_NET_PROTOCOL_UMTS;
	put_unaligned_be16(SIERRA_NET_LSI_UMTS_STATUS_LEN,
			   lsi + offsetof(struct lsi_umts, length));
	lsi[offsetof(struct lsi_umts, coverage)] = SIERRA_NET_COVERAGE_NOPACKET + 1;
	lsi[offsetof(struct lsi_umts, session_state)] =
		bqlm_rusbnet_phy_link() ? SIERRA_NET_SESSION_IDLE + 1 :
					  SIERRA_NET_SESSION_IDLE;
	lsi[offsetof(struct lsi_umts_single, link_type)] =
		SIERRA_NET_AS_LINK_TYPE_IPV4;
	return SIERRA_NET_HIP_HDR_LEN + SIERRA_NET_LSI_UMTS_LEN;
}

/* Its own work, which its status() queued, at once */
static void bqlm_rusbnet_sierra_status_work(struct usbnet *dev)
{
	struct sierra_net_data *priv = sierra_net_get_private(dev);

	sierra_net_kevent(&priv->sierra_net_kevent);
}

/* A CDC RESPONSE_AVAILABLE notification: the link up and down alike */
#define BQLM_RUSBNET_SIERRA_RESP					\
	{ USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE,		\
	  USB_CDC_NOTIFY_RESPONSE_AVAILABLE }

BQLM_RUSBNET_ENTRY(sierra_net) = {
	.name		= "sierra_net",
	.info		= &sierra_net_info_direct_ip,
	.usb		= &sierra_net_driver,
	.netdev_ops	= &sierra_net_device_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 6, 7 }, .nr_headers = 2,
			    .lens = { 1514, 1530 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_SEND_ZLP,
			    .maxpacket = 512 },
	.bind		= bqlm_rusbnet_sierra_bind,
	.frame		= bqlm_rusbnet_sierra_frame,
	.control	= bqlm_rusbnet_sierra_control,
	.link_up	= BQLM_RUSBNET_SIERRA_RESP,
	.link_up_len	= sizeof(struct usb_cdc_notification),
	.link_down	= BQLM_RUSBNET_SIERRA_RESP,
	.link_down_len	= sizeof(struct usb_cdc_notification),
	.status_work	= bqlm_rusbnet_sierra_status_work,
};
#endif

/*
 * smsc75xx_tx_fixup(): two 32-bit command words (FLAG_SEND_ZLP: no byte
 * where that fills the last packet). Its resume() waits for the device
 * to be ready (PMT_CTL's DEV_RDY: the fake device is). Its status()
 * queues EVENT_LINK_RESET on the PHY interrupt, and its link_reset() sets
 * the carrier to the PHY's link (the model's pm status-reset).
 */
BQLM_RUSBNET_MINIDRIVER(smsc75xx, "smsc75xx.c")
#if BQLM_RUSBNET_AFTER(smsc75xx)
static int bqlm_rusbnet_smsc75xx_bind(struct usbnet *dev)
{
	struct smsc75xx_priv *pdata = kzalloc(sizeof(*pdata), GFP_KERNEL);

	if (!pdata)
		return -ENOMEM;
	pdata->dev = dev;
	bqlm_rusbnet_mii(dev, smsc75xx_mdio_read, smsc75xx_mdio_write, 0x1f,
			 0x1f, SMSC75XX_INTERNAL_PHY_ID, true);
	spin_lock_init(&pdata->rfe_ctl_lock);
	mutex_init(&pdata->dataport_mutex);
	INIT_WORK(&pdata->set_multicast, smsc75xx_deferred_multicast_write);
	dev->data[0] = (unsigned long)pdata;
	return 0;
}

static int bqlm_rusbnet_smsc75xx_control(struct usbnet *dev, u8 request,
					 u8 requesttype, u16 value, u16 index,
					 void *data, u16 size)
{
	if (request != USB_VENDOR_REQUEST_READ_REGISTER || size != sizeof(u32))
		return size;
	if (index == PMT_CTL)
		put_unaligned_le32(PMT_CTL_DEV_RDY, data);
	/* every PHY register: its link_reset()'s MII_BMSR has the link */
	else if (index == MII_DATA && bqlm_rusbnet_phy_link())
		put_unaligned_le32(BMSR_LSTATUS, data);
	return size;
}

BQLM_RUSBNET_ENTRY(smsc75xx) = {
	.name		= "smsc75xx",
	.info		= &smsc75xx_info,
	.usb		= &smsc75xx_driver,
	.netdev_ops	= &smsc75xx_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 8 }, .nr_headers = 1,
			    .lens = { 1514, 1528 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_SEND_ZLP,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_STATUS_RESET |
				  BQLM_USBNET_PM_MANAGE_POWER },
	.bind		= bqlm_rusbnet_smsc75xx_bind,
	.control	= bqlm_rusbnet_smsc75xx_control,
	/*
	 * its status(): the PHY interrupt, the same for the link up and
	 * down (its link_reset() reads the PHY)
	 */
	.link_up	= BQLM_RUSBNET_LE32(INT_ENP_PHY_INT),
	.link_up_len	= sizeof(u32),
	.link_down	= BQLM_RUSBNET_LE32(INT_ENP_PHY_INT),
	.link_down_len	= sizeof(u32),
};
#endif

/*
 * smsc95xx_tx_fixup(): two 32-bit command words, and a checksum preamble
 * more for a packet whose checksum it offloads (8, 12: the model's
 * count per packet; FLAG_SEND_ZLP). Its suspend() and resume() read the
 * PHY at the address of the PHY device its bind finds through phylib
 * (here one at the internal PHY's address, with no driver); its stop()
 * and unbind() stop and disconnect that device through phylib, which
 * the fake's has no state for. Its suspend()'s own work after
 * usbnet_suspend() begins with a read of WUCSR (the fake's features and
 * WoL options are 0: SUSPEND2, for an autosuspend too): the device
 * refuses it under the model's pm own-suspend-fails. Its manage_power()
 * keeps a PM usage count on a chip without FEATURE_REMOTE_WAKEUP (the
 * fake's features are 0: usb_autopm_get_interface_no_resume()), so the
 * open device is held awake as without manage_power (no pm manage-power).
 */
BQLM_RUSBNET_MINIDRIVER(smsc95xx, "smsc95xx.c")
#if BQLM_RUSBNET_AFTER(smsc95xx)
static int bqlm_rusbnet_smsc95xx_bind(struct usbnet *dev)
{
	struct smsc95xx_priv *pdata;
	int ret = bqlm_rusbnet_priv(dev, sizeof(*pdata));

	if (ret)
		return ret;
	pdata = dev->driver_priv;
	pdata->phydev = kzalloc(sizeof(*pdata->phydev), GFP_KERNEL);
	if (!pdata->phydev) {
		kfree(pdata);
		return -ENOMEM;
	}
	pdata->phydev->mdio.addr = SMSC95XX_INTERNAL_PHY_ID;
	spin_lock_init(&pdata->mac_cr_lock);
	return 0;
}

static void bqlm_rusbnet_smsc95xx_unbind(struct usbnet *dev)
{
	struct smsc95xx_priv *pdata = dev->driver_priv;

	kfree(pdata->phydev);
	kfree(pdata);
}

/* a checksum to offload, for the second of the model's lengths */
static void bqlm_rusbnet_smsc95xx_frame(struct sk_buff *skb, unsigned int i)
{
	bqlm_rusbnet_ipv4(skb);
	if (!i)
		return;
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_headroom(skb) + ETH_HLEN + sizeof(struct iphdr);
	skb->csum_offset = offsetof(struct udphdr, check);
}

BQLM_RUSBNET_ENTRY(smsc95xx) = {
	.name		= "smsc95xx",
	.info		= &smsc95xx_info,
	.usb		= &smsc95xx_driver,
	.netdev_ops	= &smsc95xx_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 8, 12 }, .nr_headers = 2,
			    .lens = { 1514, 1514 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_SEND_ZLP,
			    .maxpacket = 512 },
	.clear		= BQLM_RUSBNET_NO_STOP | BQLM_RUSBNET_NO_UNBIND,
	.why		= "stop() and unbind() stop and disconnect the PHY device through phylib, with an MDIO bus and an IRQ domain its bind registers on the USB device",
	.bind		= bqlm_rusbnet_smsc95xx_bind,
	.unbind		= bqlm_rusbnet_smsc95xx_unbind,
	.frame		= bqlm_rusbnet_smsc95xx_frame,
	.fail_request	= USB_VENDOR_REQUEST_READ_REGISTER,
	.fail_index	= WUCSR,
};
#endif

/*
 * sr9700_tx_fixup(): a 2-byte length (that says where usbnet adds its
 * byte: 1534 + 2). Its status() and link_reset() as asix's, also blind
 * once the device is unplugged.
 */
BQLM_RUSBNET_MINIDRIVER(sr9700, "sr9700.c")
#if BQLM_RUSBNET_AFTER(sr9700)
static int bqlm_rusbnet_sr9700_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, sr_mdio_read, sr_mdio_write, 0x1f, 0x1f, 0,
			 false);
	return 0;
}

/*
 * The device for sr9700_link_reset(): its sr_mdio_read() takes the link
 * of MII_BMSR from the network status register (NSR_LINKST); the shared
 * PHY access is ready at once (SR_EPCR reads 0)
 */
static int bqlm_rusbnet_sr9700_control(struct usbnet *dev, u8 request,
				       u8 requesttype, u16 value, u16 index,
				       void *data, u16 size)
{
	if ((requesttype & USB_DIR_IN) && request == SR_RD_REGS &&
	    index == SR_NSR && size == 1)
		*(u8 *)data = NSR_LINKST;
	return size;
}

BQLM_RUSBNET_ENTRY(sr9700) = {
	.name		= "sr9700",
	.info		= &sr9700_driver_info,
	.usb		= &sr9700_usb_driver,
	.netdev_ops	= &sr9700_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 2 }, .nr_headers = 1,
			    .lens = { 1514, 1534 }, .nr_lens = 2,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_LINK_RESET |
				  BQLM_USBNET_PM_LINK_RESET_BLIND },
	.bind		= bqlm_rusbnet_sr9700_bind,
	.control	= bqlm_rusbnet_sr9700_control,
	/* its status(): NSR_LINKST in the network status byte */
	.link_up	= { NSR_LINKST },
	.link_up_len	= 8,
	.link_down_len	= 8,
};
#endif

/*
 * sr_tx_fixup(): a 4-byte length word, and 4 bytes of fill where the
 * length is a multiple of maxpacket - 1 (1529 + 4 + 4); FLAG_MULTI_PACKET.
 * Its status() and link_reset() as dm9601's.
 */
BQLM_RUSBNET_MINIDRIVER(sr9800, "sr9800.c")
#if BQLM_RUSBNET_AFTER(sr9800)
static int bqlm_rusbnet_sr9800_bind(struct usbnet *dev)
{
	bqlm_rusbnet_mii(dev, sr_mdio_read, sr_mdio_write, 0x1f, 0x1f, 0x10,
			 false);
	return 0;
}

/* The device for sr9800_link_reset(): every PHY register has the link bit */
static int bqlm_rusbnet_sr9800_control(struct usbnet *dev, u8 request,
				       u8 requesttype, u16 value, u16 index,
				       void *data, u16 size)
{
	if ((requesttype & USB_DIR_IN) && request == SR_CMD_READ_MII_REG &&
	    size == sizeof(u16))
		put_unaligned_le16(BMSR_LSTATUS, data);
	return size;
}

BQLM_RUSBNET_ENTRY(sr9800) = {
	.name		= "sr9800",
	.info		= &sr9800_driver_info,
	.usb		= &sr_driver,
	.netdev_ops	= &sr9800_netdev_ops,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 4, 8 }, .nr_headers = 2,
			    .lens = { 1514, 1529 }, .nr_lens = 2,
			    .flags = BQLM_USBNET_FLAG_MULTI_PACKET,
			    .maxpacket = 512,
			    .pm = BQLM_USBNET_PM_LINK_RESET },
	.bind		= bqlm_rusbnet_sr9800_bind,
	.control	= bqlm_rusbnet_sr9800_control,
	/* struct sr9800_int_data: bit 0 of its link byte */
	.link_up	= { [offsetof(struct sr9800_int_data, link)] = 0x01 },
	.link_up_len	= sizeof(struct sr9800_int_data),
	.link_down_len	= sizeof(struct sr9800_int_data),
};
#endif

/* zaurus_tx_fixup(): the 4-byte CRC. A full-speed device. */
BQLM_RUSBNET_MINIDRIVER(zaurus, "zaurus.c")
#if BQLM_RUSBNET_AFTER(zaurus)
BQLM_RUSBNET_ENTRY(zaurus) = {
	.name		= "zaurus",
	.info		= &zaurus_pxa_info,
	.usb		= &zaurus_driver,
	.model		= { .fixup = BQLM_USBNET_FIXUP_PAD,
			    .header = { 4 }, .nr_headers = 1,
			    .lens = { 1514, 1532 }, .nr_lens = 2,
			    .maxpacket = 64 },
};
#endif
