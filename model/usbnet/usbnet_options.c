// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the usbnet model's options and variants (<bqlm/usbnet.h>):
 * each field of struct bqlm_usbnet_cfg described once (<bqlm/options.h>),
 * each variant a row of named properties (BQL or not, the completion's
 * lock, where usbnet_stop() resets the queue, usbnet_resume()'s
 * accounting) as the options it sets. The command line, bqlm help usbnet,
 * the configuration check and schedule files read the table; a new
 * variant is one row of bqlm_usbnet_profiles[] (and its real-code patch,
 * if it has one, and its docs).
 */
#include "bqlm_internal.h"
#include <bqlm/usbnet.h>
#include <bqlm/options.h>
#include "usbnet_internal.h"

#define USB_FIELD(f)	BQLM_OPT_FIELD(struct bqlm_usbnet_cfg, f)

static const char *const bqlm_usbnet_fixup_names[] = {
	[BQLM_USBNET_FIXUP_NONE] = "none",
	[BQLM_USBNET_FIXUP_PAD] = "pad",
	[BQLM_USBNET_FIXUP_MULTI] = "multi",
	NULL
};

/* bit i of struct bqlm_usbnet_cfg.flags is names[i] */
static const char *const bqlm_usbnet_flag_names[] = {
	"avoid-unlink", "multi-packet", "send-zlp", NULL };

/* bit i of struct bqlm_usbnet_cfg.statuses is enum bqlm_usbnet_status i */
static const char *const bqlm_usbnet_status_names[] = {
	[BQLM_USBNET_ST_OK] = "ok",
	[BQLM_USBNET_ST_EPROTO] = "eproto",
	[BQLM_USBNET_ST_EPIPE] = "epipe",
	NULL
};

/* bit i of struct bqlm_usbnet_cfg.pm is names[i] */
static const char *const bqlm_usbnet_pm_names[] = {
	"resume-link", "resume-carrier", "stop-carrier", "suspend-ignores-busy",
	"own-suspend-fails", "link-reset", "link-reset-blind", "status-reset",
	"status-carrier", "manage-power", NULL };

static const char *const bqlm_usbnet_drain_names[] = {
	[BQLM_USBNET_DRAIN_OFF] = "off",
	[BQLM_USBNET_DRAIN_WAIT] = "wait",
	[BQLM_USBNET_DRAIN_UNLINK] = "unlink",
	NULL
};

static const char *const bqlm_usbnet_reset_names[] = {
	[BQLM_USBNET_RESET_NONE] = "none",
	[BQLM_USBNET_RESET_EARLY] = "early",
	[BQLM_USBNET_RESET_LATE] = "late",
	NULL
};

/*
 * --header N[,M]: a tx_fixup() that adds N bytes to every packet, or N to
 * a packet of the first length and M to one of the second; 0: no
 * tx_fixup()
 */
static int bqlm_usbnet_opt_header(const struct bqlm_opt *o, void *cfg,
				  const char *arg, char *err, size_t len)
{
	struct bqlm_usbnet_cfg *c = cfg;
	struct bqlm_usbnet_cfg try = *c;

	if (bqlm_opt_set(bqlm_usbnet_options(), &try, "pad-header", arg, err,
			 len)) {
		snprintf(err, len,
			 "--%s: '%.32s' is not a list of 1..%d numbers in 0..64",
			 o->name, arg ? arg : "", BQLM_USBNET_MAX_LENS);
		return -EINVAL;
	}
	c->nr_pad_headers = try.nr_pad_headers;
	memcpy(c->pad_header, try.pad_header, sizeof(c->pad_header));
	c->fixup = try.nr_pad_headers > 1 || try.pad_header[0] ?
		   BQLM_USBNET_FIXUP_PAD : BQLM_USBNET_FIXUP_NONE;
	return 0;
}

/* --aggregate ncm: cdc_ncm's aggregation, the multi fixup */
static int bqlm_usbnet_opt_aggregate(const struct bqlm_opt *o, void *cfg,
				     const char *arg, char *err, size_t len)
{
	if (!arg || strcmp(arg, "ncm")) {
		snprintf(err, len, "--%s: '%.32s' is not one of ncm", o->name,
			 arg ? arg : "");
		return -EINVAL;
	}
	((struct bqlm_usbnet_cfg *)cfg)->fixup = BQLM_USBNET_FIXUP_MULTI;
	return 0;
}

/* --avoid-unlink: FLAG_AVOID_UNLINK_URBS */
static int bqlm_usbnet_opt_avoid(const struct bqlm_opt *o, void *cfg,
				 const char *arg, char *err, size_t len)
{
	if (arg && strcmp(arg, "on")) {
		snprintf(err, len, "--%s takes no value", o->name);
		return -EINVAL;
	}
	((struct bqlm_usbnet_cfg *)cfg)->flags |=
		BQLM_USBNET_FLAG_AVOID_UNLINK_URBS;
	return 0;
}

static const struct bqlm_opt bqlm_usbnet_opt[] = {
	{ .name = "packets", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(packets), .min = 0, .max = BQLM_USBNET_MAX_PACKETS,
	  .help = "packets the stack sends (0: no bound, the simulator only)" },
	{ .name = "skbs", .type = BQLM_OPT_UINT, USB_FIELD(skbs),
	  .min = 0, .max = BQLM_USBNET_MAX_SKBS,
	  .help = "skb slots in the state (0: --packets)" },
	{ .name = "lens", .type = BQLM_OPT_UINTS, USB_FIELD(lens),
	  .count_off = offsetof(struct bqlm_usbnet_cfg, nr_lens),
	  .max_count = BQLM_USBNET_MAX_LENS, .min = 1,
	  .max = BQLM_USBNET_MAX_LEN, .metavar = "A[,B]",
	  .help = "packet lengths in bytes the stack chooses from (less what the tx_fixup() adds)" },
	{ .name = "fixup", .type = BQLM_OPT_CHOICE, USB_FIELD(fixup),
	  .names = bqlm_usbnet_fixup_names,
	  .help = "the minidriver's tx_fixup(): none, a header of --pad-header bytes, or cdc_ncm's aggregation" },
	{ .name = "pad-header", .type = BQLM_OPT_UINTS, USB_FIELD(pad_header),
	  .count_off = offsetof(struct bqlm_usbnet_cfg, nr_pad_headers),
	  .max_count = BQLM_USBNET_MAX_LENS, .min = 0, .max = 64,
	  .requires = "fixup=pad", .metavar = "N[,M]",
	  .help = "bytes the pad tx_fixup() adds: to every packet, or to a packet of each of --lens (smsc95xx: 8,12 for a plain one and one with checksum offload)" },
	{ .name = "strip", .type = BQLM_OPT_UINT, USB_FIELD(strip),
	  .min = 0, .max = 64, .requires = "fixup=multi",
	  .help = "bytes the multi tx_fixup() takes off each packet before it frames it (cdc_mbim: the Ethernet header, 14)" },
	{ .name = "header", .type = BQLM_OPT_CUSTOM, .flags = BQLM_OPT_ALIAS,
	  .also = "fixup pad-header", .parse = bqlm_usbnet_opt_header,
	  .metavar = "N[,M]",
	  .help = "shorthand: --fixup pad --pad-header N[,M] (0: --fixup none); cx82310_eth 2, asix 4, ax88179 8" },
	{ .name = "aggregate", .type = BQLM_OPT_CUSTOM, .flags = BQLM_OPT_ALIAS,
	  .also = "fixup", .parse = bqlm_usbnet_opt_aggregate,
	  .metavar = "ncm",
	  .help = "shorthand: --fixup multi (cdc_ncm: two datagrams in an NTB16, a flush timer)" },
	{ .name = "flags", .type = BQLM_OPT_SET, USB_FIELD(flags),
	  .names = bqlm_usbnet_flag_names,
	  .help = "driver_info flags: FLAG_AVOID_UNLINK_URBS (aqc111), FLAG_MULTI_PACKET without aggregation (asix), FLAG_SEND_ZLP (sierra_net): no pad byte, the host controller sends a zero-length packet" },
	{ .name = "avoid-unlink", .type = BQLM_OPT_CUSTOM,
	  .flags = BQLM_OPT_ALIAS | BQLM_OPT_NOARG, .also = "flags",
	  .parse = bqlm_usbnet_opt_avoid,
	  .help = "shorthand: --flags avoid-unlink" },
	{ .name = "pm", .type = BQLM_OPT_SET, USB_FIELD(pm),
	  .names = bqlm_usbnet_pm_names,
	  .help = "what the minidriver's own callbacks add: resume-link, its resume() reports the link down and queues the kevent (ax88179_178a); resume-carrier, stop-carrier, its resume() or stop() turn the carrier off (aqc111); suspend-ignores-busy, its suspend() returns 0 when usbnet_suspend() refused an autosuspend with -EBUSY, so the USB core resumes it later (ax88179_178a); own-suspend-fails, its own suspend work fails after usbnet_suspend(): for an autosuspend it calls usbnet_resume(), for a system suspend it returns the error and nothing resumes usbnet (smsc95xx, with a device that refuses a control transfer); link-reset, its status() reports the link up with usbnet_link_change(dev, 1, 1) (EVENT_LINK_RESET) and the kevent runs its link_reset(), which turns the carrier on while the device answers (ax88179_178a); link-reset-blind, with one of link-reset, status-reset, status-carrier: its link_reset() sets the carrier also once the device is unplugged, its PHY read's -ENODEV taken for a BMSR with the link bit (asix, sr9700, ch9200), or reading nothing (aqc111); status-reset, its status() queues EVENT_LINK_RESET for the link up and down and changes no carrier, its link_reset() sets the carrier to the link (smsc75xx, aqc111); status-carrier, its status() turns the carrier on and queues EVENT_LINK_RESET for the link up, turns it off for the link down (ch9200); manage-power, its manage_power() leaves the open interface idle: usbnet_open() drops its PM usage count, so an autosuspend may come while the device is open (cdc_ncm, cdc_mbim, qmi_wwan, cdc_ether, r8153_ecm, smsc75xx); without it the count usbnet_open() took holds the device awake until usbnet_stop() ends" },
	{ .name = "links", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(links), .min = 0, .max = 3,
	  .help = "link-up reports of the minidriver's status() (usbnet_link_change(dev, 1, 0); with --pm link-reset usbnet_link_change(dev, 1, 1)), while its carrier is off and no report is pending" },
	{ .name = "link-downs", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(link_downs), .min = 0, .max = 3,
	  .help = "link-down reports of the minidriver's status() while its carrier is on and no report is pending: usbnet_link_change(dev, 0, x), the carrier off at once, EVENT_LINK_CHANGE (with --pm status-reset: EVENT_LINK_RESET only; status-carrier: the carrier off, nothing queued)" },
	{ .name = "tx-qlen", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(tx_qlen), .min = 1, .max = 1000,
	  .help = "TX_QLEN(dev): usbnet stops the queue at this many URBs" },
	{ .name = "mtu-qlen", .type = BQLM_OPT_UINT, USB_FIELD(mtu_qlen),
	  .min = 0, .max = 1000,
	  .help = "0, or the TX_QLEN(dev) a run-time MTU change gives (usbnet_change_mtu(), usbnet_update_max_qlen()): one change, at any step" },
	{ .name = "maxpacket", .type = BQLM_OPT_UINT, USB_FIELD(maxpacket),
	  .min = 1, .max = 1024,
	  .help = "the bulk-out endpoint's wMaxPacketSize (ZLP padding)" },
	{ .name = "statuses", .type = BQLM_OPT_SET, USB_FIELD(statuses),
	  .names = bqlm_usbnet_status_names,
	  .help = "what a submitted URB may complete with (ok always)" },
	{ .name = "stops", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(stops), .min = 0, .max = 3,
	  .help = "usbnet_stop() calls (ifdown)" },
	{ .name = "suspends", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(suspends), .min = 0, .max = 3,
	  .help = "usbnet_suspend() calls" },
	{ .name = "timeouts", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  USB_FIELD(timeouts), .min = 0, .max = 3,
	  .help = "usbnet_tx_timeout() calls (watchdog)" },
	{ .name = "bql", .type = BQLM_OPT_BOOL, USB_FIELD(bql),
	  .help = "usbnet calls netdev_sent_queue(), netdev_completed_queue() and netdev_reset_queue()" },
	{ .name = "bql-lock", .type = BQLM_OPT_BOOL, USB_FIELD(bql_lock),
	  .help = "usbnet_bh() holds dev->bql_spinlock around netdev_completed_queue()" },
	{ .name = "stop-reset", .type = BQLM_OPT_CHOICE, USB_FIELD(stop_reset),
	  .names = bqlm_usbnet_reset_names,
	  .help = "where usbnet_stop() resets the queue: right after netif_stop_queue(), or after timer_delete_sync() and cancel_work_sync()" },
	{ .name = "resume-sent", .type = BQLM_OPT_BOOL, USB_FIELD(resume_sent),
	  .help = "usbnet_resume() calls netdev_sent_queue() for each deferred skb it queues" },
	{ .name = "stop-drain", .type = BQLM_OPT_CHOICE, USB_FIELD(stop_drain),
	  .names = bqlm_usbnet_drain_names,
	  .help = "under FLAG_AVOID_UNLINK_URBS usbnet_stop(): off skips usbnet_terminate_urbs(); wait waits for dev->txq and dev->done, unlinking nothing; unlink unlinks the TX URBs and waits, as without the flag" },
	{ .name = "tx-stall", .type = BQLM_OPT_BOOL, USB_FIELD(tx_stall),
	  .help = "the device stops draining bulk-out: a TX URB completes only once unlinked" },
	{ .name = "disconnect-kill", .type = BQLM_OPT_BOOL,
	  USB_FIELD(disconnect_kill),
	  .help = "usbnet_disconnect() kills the URBs, stops the bh and dev->delay and frees dev->done once unregister_netdev() returned" },
	{ .name = "disconnect", .type = BQLM_OPT_BOOL, USB_FIELD(disconnect),
	  .help = "the device may be unplugged once, at any step: usb_disconnect() flushes the URBs (-ESHUTDOWN), usbnet_disconnect() unregisters (usbnet_stop() if open) and frees the device; after it nothing may act on it" },
	{ .name = "autosuspend", .type = BQLM_OPT_BOOL, USB_FIELD(autosuspend),
	  .help = "the suspends are runtime autosuspends (PMSG_AUTO_SUSPEND), which the USB core takes only at an interface PM usage count of 0 (no transmit in flight, no usbnet_stop() running, the device down unless pm manage-power): usbnet_suspend() returns -EBUSY while dev->txq holds an URB and the device stays awake; a system suspend looks at no usage count" },
	{ .name = "xmit-open", .type = BQLM_OPT_BOOL, USB_FIELD(xmit_open),
	  .help = "usbnet_start_xmit() drops the skb under dev->txq.lock unless EVENT_DEV_OPEN is set" },
};

static int bqlm_usbnet_opt_check(const void *cfg, char *err, size_t len)
{
	const struct bqlm_usbnet_cfg *c = cfg;
	unsigned int i, max;

	if (c->skbs && c->skbs < c->packets) {
		snprintf(err, len, "--skbs %u is fewer than --packets %u",
			 c->skbs, c->packets);
		return -EINVAL;
	}
	if (!bqlm_usbnet_slots(c)) {
		snprintf(err, len, "--skbs 0 needs a packet bound (--packets)");
		return -EINVAL;
	}
	/* one way for a status() to report the link; blind: of a link_reset() */
	if (hweight_long(c->pm & BQLM_USBNET_PM_LINK_REPORT) > 1) {
		snprintf(err, len,
			 "--pm: link-reset, status-reset and status-carrier are three ways a status() reports the link: one at most");
		return -EINVAL;
	}
	if ((c->pm & BQLM_USBNET_PM_LINK_RESET_BLIND) &&
	    !(c->pm & BQLM_USBNET_PM_LINK_REPORT)) {
		snprintf(err, len,
			 "--pm link-reset-blind is a property of a link_reset(): it needs link-reset, status-reset or status-carrier");
		return -EINVAL;
	}
	if (!(c->statuses & (1U << BQLM_USBNET_ST_OK))) {
		snprintf(err, len,
			 "--statuses must include ok (a URB can always complete; e.g. ok,eproto)");
		return -EINVAL;
	}
	if (c->fixup == BQLM_USBNET_FIXUP_PAD && c->nr_pad_headers > 1 &&
	    c->nr_pad_headers != c->nr_lens) {
		snprintf(err, len,
			 "--pad-header gives %u counts for %u packet lengths (one for all, or one per length of --lens)",
			 c->nr_pad_headers, c->nr_lens);
		return -EINVAL;
	}
	for (i = 0; i < c->nr_lens && i < BQLM_USBNET_MAX_LENS; i++) {
		if (c->fixup == BQLM_USBNET_FIXUP_MULTI && c->lens[i] <= c->strip) {
			snprintf(err, len,
				 "--lens: %u is not longer than --strip %u",
				 c->lens[i], c->strip);
			return -EINVAL;
		}
		max = bqlm_usbnet_max_len(c, i);
		if (c->lens[i] > max) {
			snprintf(err, len,
				 "--lens: %u is too long for this minidriver: 1..%u (the URB must fit the model's 16-bit skb->len)",
				 c->lens[i], max);
			return -EINVAL;
		}
	}
	if (!c->bql && (c->bql_lock || c->stop_reset != BQLM_USBNET_RESET_NONE ||
			c->resume_sent)) {
		snprintf(err, len,
			 "--bql-lock, --stop-reset and --resume-sent are properties of a usbnet with BQL (--bql on)");
		return -EINVAL;
	}
	if (c->bql && c->stop_reset == BQLM_USBNET_RESET_NONE) {
		snprintf(err, len,
			 "--bql on needs --stop-reset early or late (usbnet_stop() resets the queue)");
		return -EINVAL;
	}
	return 0;
}

/* The BQL variants' common properties: the v1 patch. */
#define USB_BQL		"--bql on --stop-reset early "
/* All four upstream changes */
#define USB_FIXED	"--bql on --bql-lock on --stop-reset late --resume-sent on"

static const struct bqlm_profile bqlm_usbnet_profiles[] = {
	[BQLM_USBNET_NO_BQL] = {
		.name = "no-bql", .driver = "usbnet", .commit = "v6.12",
		.desc = "Linux 6.12 usbnet, no BQL",
		.opts = "" },
	[BQLM_USBNET_V1] = {
		.name = "v1", .driver = "usbnet",
		.commit = "20251104161327.41004-2",
		.desc = "BQL v1: reset after netif_stop_queue in stop and open, unlocked completion",
		.opts = USB_BQL },
	[BQLM_USBNET_MERGED] = {
		.name = "merged", .driver = "usbnet", .commit = "7ff14c52049e",
		.desc = "v2: v1 + bql_spinlock around netdev_completed_queue",
		.opts = USB_BQL "--bql-lock on" },
	[BQLM_USBNET_FIX_RESET] = {
		.name = "fix-reset", .driver = "usbnet", .commit = "e34f0df3d81a",
		.desc = "merged + stop resets after timer_delete_sync/cancel_work_sync",
		.opts = "--bql on --bql-lock on --stop-reset late" },
	[BQLM_USBNET_FIXED] = {
		.name = "fixed", .driver = "usbnet", .commit = "c4efd7a770c5",
		.desc = "fix-reset + usbnet_resume accounts deferred skbs",
		.opts = USB_FIXED },
	[BQLM_USBNET_FIXED_AVOID_UNLINK] = {
		.name = "fixed-avoid-unlink", .driver = "usbnet",
		.commit = NULL,
		.desc = "fixed + usbnet_stop unlinks TX URBs under FLAG_AVOID_UNLINK_URBS, usbnet_disconnect stops the bh",
		.opts = USB_FIXED " --stop-drain unlink --disconnect-kill on" },
	[BQLM_USBNET_FIXED_NCM_STOP] = {
		.name = "fixed-ncm-stop", .driver = "usbnet",
		.commit = NULL,
		.desc = "fixed-avoid-unlink + usbnet_start_xmit drops unless EVENT_DEV_OPEN",
		.opts = USB_FIXED " --stop-drain unlink --disconnect-kill on --xmit-open on" },
};

/*
 * The defaults under every variant: three packets of 1514 bytes, no
 * tx_fixup(), TX_QLEN 2, a full-speed endpoint (maxpacket 64), every
 * completion status, one ifdown, one suspend and one watchdog timeout;
 * no BQL. Three packets is the least that shows two usbnet_bh() runs
 * completing bytes at once: BQL starts with a limit of 0, so the second
 * packet waits for the first one's completion.
 */
static void bqlm_usbnet_opt_defaults(void *p)
{
	struct bqlm_usbnet_cfg *cfg = p;

	memset(cfg, 0, sizeof(*cfg));
	cfg->fixup = BQLM_USBNET_FIXUP_NONE;
	cfg->packets = 3;
	cfg->tx_qlen = 2;
	cfg->lens[0] = 1514;
	cfg->nr_lens = 1;
	cfg->maxpacket = 64;
	cfg->pad_header[0] = 4;
	cfg->nr_pad_headers = 1;
	cfg->statuses = (1U << BQLM_USBNET_ST_OK) |
			(1U << BQLM_USBNET_ST_EPROTO) |
			(1U << BQLM_USBNET_ST_EPIPE);
	cfg->stops = 1;
	cfg->suspends = 1;
	cfg->timeouts = 1;
	cfg->stop_reset = BQLM_USBNET_RESET_NONE;
	cfg->hold_time = 1000;
	cfg->now = 1000;
}

/* What --sweep explores: the explorer needs a packet bound. */
static int bqlm_usbnet_opt_system(const void *cfg, struct bqlm_xsys *sys)
{
	if (!((const struct bqlm_usbnet_cfg *)cfg)->packets)
		return -EINVAL;
	return bqlm_usbnet_system(cfg, sys);
}

static void bqlm_usbnet_opt_profile_set(void *cfg, unsigned int id)
{
	((struct bqlm_usbnet_cfg *)cfg)->variant = id;
}

static const struct bqlm_opts bqlm_usbnet_opts = {
	.model = "usbnet",
	.opt = bqlm_usbnet_opt,
	.n = ARRAY_SIZE(bqlm_usbnet_opt),
	.cfg_size = sizeof(struct bqlm_usbnet_cfg),
	.check = bqlm_usbnet_opt_check,
	.defaults = bqlm_usbnet_opt_defaults,
	.profiles = bqlm_usbnet_profiles,
	.nr_profiles = ARRAY_SIZE(bqlm_usbnet_profiles),
	.profile_opt = "variant",
	.default_profile = NULL,
	.profile_set = bqlm_usbnet_opt_profile_set,
	.system = bqlm_usbnet_opt_system,
};

/**
 * bqlm_usbnet_options() - the usbnet model's options and variants
 *
 * Return: the table (<bqlm/options.h>); its profiles are the variants, in
 * the order of enum bqlm_usbnet_variant.
 */
const struct bqlm_opts *bqlm_usbnet_options(void)
{
	return &bqlm_usbnet_opts;
}

/**
 * bqlm_usbnet_nr_variants() - how many variants the table has
 *
 * Return: the number; variants are 0 to it minus one, the first ones
 * named by enum bqlm_usbnet_variant.
 */
unsigned int bqlm_usbnet_nr_variants(void)
{
	return ARRAY_SIZE(bqlm_usbnet_profiles);
}

/**
 * bqlm_usbnet_variant_name() - the short name of a variant
 * @variant: the variant
 *
 * Return: "no-bql", "v1", "merged", "fix-reset", "fixed", ..., or
 * "unknown".
 */
const char *bqlm_usbnet_variant_name(enum bqlm_usbnet_variant variant)
{
	return (unsigned int)variant < ARRAY_SIZE(bqlm_usbnet_profiles) ?
	       bqlm_usbnet_profiles[variant].name : "unknown";
}

/**
 * bqlm_usbnet_variant_desc() - one line on what a variant is
 * @variant: the variant
 *
 * Return: the description, or "unknown".
 */
const char *bqlm_usbnet_variant_desc(enum bqlm_usbnet_variant variant)
{
	return (unsigned int)variant < ARRAY_SIZE(bqlm_usbnet_profiles) ?
	       bqlm_usbnet_profiles[variant].desc : "unknown";
}

/**
 * bqlm_usbnet_variant_by_name() - look a variant up by its short name
 * @name: the name
 *
 * Return: the enum bqlm_usbnet_variant, or -EINVAL.
 */
int bqlm_usbnet_variant_by_name(const char *name)
{
	int id = bqlm_opt_profile_by_name(&bqlm_usbnet_opts, name);

	return id < 0 ? -EINVAL : id;
}

/**
 * bqlm_usbnet_cfg_default() - the default configuration of a variant
 * @cfg: receives the configuration
 * @variant: the variant
 *
 * The model's defaults (three packets of 1514 bytes, no tx_fixup(),
 * TX_QLEN 2, maxpacket 64, every completion status, one ifdown, suspend
 * and watchdog timeout), then the variant's properties. An unknown
 * variant gives the defaults alone, which bqlm_usbnet_cfg_check() refuses.
 */
void bqlm_usbnet_cfg_default(struct bqlm_usbnet_cfg *cfg,
			     enum bqlm_usbnet_variant variant)
{
	char err[8];

	if (bqlm_opt_profile(&bqlm_usbnet_opts, cfg, variant, err,
			     sizeof(err))) {
		bqlm_usbnet_opt_defaults(cfg);
		cfg->variant = variant;
	}
}

/**
 * bqlm_usbnet_cfg_check() - validate a configuration
 * @cfg: the configuration
 *
 * Every option within its range (bqlm_usbnet_options()), and what ranges
 * cannot say: skbs enough for the packets, ok among the statuses, each
 * length within what the tx_fixup() leaves (bqlm_usbnet_max_len()), the
 * BQL properties only with BQL, and a variant the table knows.
 *
 * Return: 0, or -EINVAL.
 */
int bqlm_usbnet_cfg_check(const struct bqlm_usbnet_cfg *cfg)
{
	if (!cfg || (unsigned int)cfg->variant >= ARRAY_SIZE(bqlm_usbnet_profiles))
		return -EINVAL;
	return bqlm_opt_check(&bqlm_usbnet_opts, cfg, NULL, 0);
}
