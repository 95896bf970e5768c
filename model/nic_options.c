// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the NIC model's options and profiles (<bqlm/nic.h>): each
 * field of struct bqlm_nic_cfg described once (<bqlm/options.h>), and each
 * profile, one side of an upstream fix, as the options it sets. A new
 * profile is one row of bqlm_nic_profiles[] (and its docs).
 */
#include "bqlm_internal.h"
#include <bqlm/nic.h>
#include <bqlm/options.h>

#define NIC_FIELD(f)	BQLM_OPT_FIELD(struct bqlm_nic_cfg, f)

static const char *const bqlm_nic_map_names[] = { "rr", "q0", NULL };
static const char *const bqlm_nic_sent_names[] = {
	"before-doorbell", "after-doorbell", NULL };
static const char *const bqlm_nic_call_names[] = { "plain", "xmit-more", NULL };
static const char *const bqlm_nic_kick_names[] = {
	"sent-queue", "xmit-stopped", "xmit-more", "always", NULL };
static const char *const bqlm_nic_stop_names[] = {
	"before-sent", "after-sent", "after-doorbell", NULL };
static const char *const bqlm_nic_completer_names[] = {
	"napi", "napi+xmit", NULL };
static const char *const bqlm_nic_bytes_names[] = { "skb-len", "bd-sum", NULL };
static const char *const bqlm_nic_irq_names[] = { "napi", "vq-cb", NULL };
static const char *const bqlm_nic_wake_names[] = { "gated", "room", NULL };
static const char *const bqlm_nic_xdp_names[] = {
	"uncounted", "counted", "completed-only", NULL };

/* A reset path's calls: o->off is its ops[] row, o->count_off its count. */
static int bqlm_nic_opt_parse_ops(const struct bqlm_opt *o, void *cfg,
				  const char *arg, char *err, size_t len)
{
	unsigned char *ops = (unsigned char *)cfg + o->off;
	unsigned char tmp[BQLM_NIC_MAX_OPS] = { 0 };
	unsigned int n;

	/* the whole row, so that equal lists are equal configurations */
	if (bqlm_nic_parse_ops(arg, tmp, &n)) {
		snprintf(err, len,
			 "--%s: '%.48s' is not a comma-separated list of stop, napi-off, dma-off, drain, reset, reset0, dma-on, napi-on, wake (at most %u), or none",
			 o->name, arg ? arg : "", BQLM_NIC_MAX_OPS);
		return -EINVAL;
	}
	memcpy(ops, tmp, sizeof(tmp));
	memcpy((unsigned char *)cfg + o->count_off, &n, sizeof(n));
	return 0;
}

static int bqlm_nic_opt_format_ops(const struct bqlm_opt *o, const void *cfg,
				   char *buf, size_t len)
{
	unsigned int n;

	memcpy(&n, (const unsigned char *)cfg + o->count_off, sizeof(n));
	if (n > BQLM_NIC_MAX_OPS)
		n = BQLM_NIC_MAX_OPS;
	return bqlm_nic_format_ops((const unsigned char *)cfg + o->off, n, buf,
				   len);
}

static int bqlm_nic_opt_check_ops(const struct bqlm_opt *o, const void *cfg,
				  char *err, size_t len)
{
	const unsigned char *ops = (const unsigned char *)cfg + o->off;
	unsigned int n, i;

	memcpy(&n, (const unsigned char *)cfg + o->count_off, sizeof(n));
	for (i = 0; i < n && n <= BQLM_NIC_MAX_OPS; i++)
		if (ops[i] >= BQLM_NIC_NR_OPS)
			break;
	if (n <= BQLM_NIC_MAX_OPS && i == n)
		return 0;
	snprintf(err, len, "--%s has an invalid call list", o->name);
	return -EINVAL;
}

#define NIC_PATH(nm, p, imp, h)						\
	{ .name = nm, .type = BQLM_OPT_CUSTOM, .metavar = "OPS",	\
	  .implies = imp,						\
	  .off = offsetof(struct bqlm_nic_cfg, ops[p]),			\
	  .count_off = offsetof(struct bqlm_nic_cfg, nr_ops[p]),		\
	  .parse = bqlm_nic_opt_parse_ops,				\
	  .format = bqlm_nic_opt_format_ops,				\
	  .check = bqlm_nic_opt_check_ops, .help = h }

#define NIC_CYCLES(nm, f, h)						\
	{ .name = nm, .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,	\
	  NIC_FIELD(f), .min = 0, .max = 2, .help = h }

static const struct bqlm_opt bqlm_nic_opt[] = {
	{ .name = "queues", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(queues), .min = 1, .max = BQLM_NIC_MAX_QUEUES,
	  .help = "tx queues" },
	{ .name = "map", .type = BQLM_OPT_CHOICE, NIC_FIELD(map),
	  .names = bqlm_nic_map_names,
	  .help = "batches spread over the queues, or all on queue 0" },
	{ .name = "packets", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(packets), .min = 1, .max = BQLM_NIC_MAX_PACKETS,
	  .help = "packets the stack sends" },
	{ .name = "len", .type = BQLM_OPT_UINT, NIC_FIELD(len),
	  .min = 1, .max = BQLM_NIC_MAX_LEN, .help = "skb->len" },
	{ .name = "descs", .type = BQLM_OPT_UINT, NIC_FIELD(descs),
	  .min = 1, .max = BQLM_NIC_MAX_DESCS,
	  .help = "descriptors per packet" },
	{ .name = "ring", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(ring), .min = 1, .max = BQLM_NIC_MAX_RING,
	  .help = "descriptors per tx ring (at least --descs)" },
	{ .name = "batch", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(batch), .min = 1, .max = 3,
	  .help = "packets per xmit_more batch" },
	{ .name = "budget", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(budget), .min = 1, .max = BQLM_NIC_MAX_RING,
	  .help = "packets per NAPI poll" },
	{ .name = "sent", .type = BQLM_OPT_CHOICE, NIC_FIELD(sent),
	  .names = bqlm_nic_sent_names,
	  .help = "where netdev_tx_sent_queue() sits" },
	{ .name = "sent-call", .type = BQLM_OPT_CHOICE, NIC_FIELD(sent_call),
	  .names = bqlm_nic_call_names,
	  .help = "netdev_tx_sent_queue() (STACK_XOFF whatever xmit_more) or __netdev_tx_sent_queue(.., xmit_more)" },
	{ .name = "doorbell", .type = BQLM_OPT_CHOICE, NIC_FIELD(doorbell),
	  .names = bqlm_nic_kick_names,
	  .help = "what rings it (sent-queue needs --sent-call xmit-more)" },
	{ .name = "ring-stop", .type = BQLM_OPT_CHOICE, NIC_FIELD(stopcheck),
	  .names = bqlm_nic_stop_names,
	  .help = "where the ring-full stop sits" },
	{ .name = "completers", .type = BQLM_OPT_CHOICE, NIC_FIELD(completers),
	  .names = bqlm_nic_completer_names, .help = "who completes" },
	{ .name = "napi-txlock", .type = BQLM_OPT_BOOL, NIC_FIELD(napi_txlock),
	  .help = "the NAPI poll holds the tx lock" },
	{ .name = "rx-cleanup", .type = BQLM_OPT_BOOL, NIC_FIELD(rx_cleanup),
	  .help = "the RX poll cleans the tx ring under a trylock" },
	{ .name = "completed-bytes", .type = BQLM_OPT_CHOICE, NIC_FIELD(bytes),
	  .names = bqlm_nic_bytes_names, .help = "what the poll reports" },
	{ .name = "irq", .type = BQLM_OPT_CHOICE, NIC_FIELD(irq),
	  .names = bqlm_nic_irq_names,
	  .help = "what a completion's interrupt does (vq-cb: virtio's callbacks, NAPIF_STATE_MISSED)" },
	{ .name = "poll-wake", .type = BQLM_OPT_CHOICE, NIC_FIELD(poll_wake),
	  .names = bqlm_nic_wake_names,
	  .help = "the poll wakes on room, not while down or in a path (gated), or on room alone" },
	{ .name = "xdp-frames", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(xdp_frames), .min = 0, .max = 2,
	  .help = "XDP_TX frames on the last queue" },
	{ .name = "xdp-bql", .type = BQLM_OPT_CHOICE, NIC_FIELD(xdp),
	  .names = bqlm_nic_xdp_names, .help = "XDP frames and BQL" },
	NIC_PATH("close", BQLM_NIC_PATH_CLOSE, "stops=1",
		 "ndo_stop's calls in order (runs --stops times)"),
	NIC_PATH("open", BQLM_NIC_PATH_OPEN, "stops=1",
		 "ndo_open's calls in order (after each close)"),
	NIC_PATH("reconfig", BQLM_NIC_PATH_RECONFIG, "reconfigs=1",
		 "ring resize / XDP / XSK attach calls in order (--reconfigs times)"),
	NIC_PATH("timeout", BQLM_NIC_PATH_TIMEOUT, "timeouts=1",
		 "ndo_tx_timeout recovery's calls in order (--timeouts times)"),
	NIC_PATH("suspend", BQLM_NIC_PATH_SUSPEND, "suspends=1",
		 "suspend's calls in order (--suspends times)"),
	NIC_PATH("resume", BQLM_NIC_PATH_RESUME, "suspends=1",
		 "resume's calls in order (after each suspend)"),
	NIC_CYCLES("stops", stops, "close/open cycles"),
	NIC_CYCLES("reconfigs", reconfigs, "ring reconfigurations"),
	NIC_CYCLES("timeouts", timeouts, "tx timeout recoveries"),
	NIC_CYCLES("suspends", suspends, "suspend/resume cycles"),
};

static int bqlm_nic_opt_check(const void *cfg, char *err, size_t len)
{
	const struct bqlm_nic_cfg *c = cfg;

	if (c->ring < c->descs) {
		snprintf(err, len, "--ring must be at least --descs");
		return -EINVAL;
	}
	if (c->doorbell == BQLM_NIC_KICK_SENT_QUEUE &&
	    c->sent_call != BQLM_NIC_CALL_XMIT_MORE) {
		snprintf(err, len,
			 "--doorbell sent-queue needs --sent-call xmit-more (the plain call returns nothing)");
		return -EINVAL;
	}
	return 0;
}

/*
 * virtio_net (6.12): free_old_xmit() in start_xmit, in the tx NAPI poll,
 * both under the tx lock, and in the RX poll under a trylock
 * (virtnet_poll_cleantx()); the ring-full stop before
 * __netdev_tx_sent_queue(), whose return value rings the doorbell;
 * ndo_stop disables NAPI but frees nothing (the vq keeps its buffers);
 * ndo_open enables NAPI and wakes nothing; the reconfiguration is
 * virtnet_tx_pause / virtqueue_resize / virtnet_tx_resume. The tx poll
 * cleans every used buffer (no budget: 4, the most the model has) and
 * wakes on room alone; used-buffer notifications are virtio's callbacks.
 * (Run on the real virtio_net.c: docs/real-code.md.)
 */
#define NIC_VIRTIO							\
	"--sent-call xmit-more --doorbell sent-queue --ring-stop before-sent " \
	"--completers napi+xmit --napi-txlock on --rx-cleanup on "	\
	"--budget 4 --irq vq-cb --poll-wake room "			\
	"--close napi-off --open napi-on "				\
	"--reconfig napi-off,stop,dma-off,drain,reset,dma-on,wake,napi-on " \
	"--stops 0 "
#define NIC_VIRTIO_RESIZE_BUG						\
	"--reconfig napi-off,stop,dma-off,drain,dma-on,wake,napi-on"
/*
 * mtk_eth_soc QDMA: several tx queues, the plain netdev_tx_sent_queue()
 * and the doorbell on !xmit_more || netif_xmit_stopped() in mtk_tx_map(),
 * the ring-full stop after it
 */
#define NIC_MTK	"--queues 2 --batch 1 --packets 2 --ring-stop after-doorbell "
/*
 * xilinx_axienet scatter-gather: a packet spans descriptors; no xmit_more,
 * so the sent call's kind makes no difference
 */
#define NIC_AXIENET	"--descs 2 --ring 4 --batch 1 --stops 0 "

static const struct bqlm_profile bqlm_nic_profiles[] = {
	{ .name = "generic", .driver = "e1000e-like NAPI Ethernet",
	  .commit = "-",
	  .desc = "every path stops, drains and resets before it restarts",
	  .opts = "" },
	{ .name = "virtio-net-open-reset", .driver = "virtio_net",
	  .commit = "3ddccbefebdb^",
	  .desc = "ndo_open resets BQL while completions of the closed epoch are still on the vq",
	  /* virtnet_enable_queue_pair() before 3ddccbefebdb */
	  .opts = NIC_VIRTIO "--stops 1 --open reset,napi-on" },
	{ .name = "virtio-net-3ddccbefebdb", .driver = "virtio_net",
	  .commit = "3ddccbefebdb",
	  .desc = "no reset on open: the first poll completes the old epoch",
	  .opts = NIC_VIRTIO "--stops 1" },
	{ .name = "virtio-net-resize", .driver = "virtio_net",
	  .commit = "1480f0f61b67^",
	  .desc = "virtnet_tx_resize() frees the unsent buffers without a reset",
	  .opts = NIC_VIRTIO "--reconfigs 1 " NIC_VIRTIO_RESIZE_BUG },
	{ .name = "virtio-net-1480f0f61b67", .driver = "virtio_net",
	  .commit = "1480f0f61b67",
	  .desc = "virtqueue_resize()'s recycle_done resets the queue",
	  .opts = NIC_VIRTIO "--reconfigs 1" },
	{ .name = "virtio-net-xsk-bind", .driver = "virtio_net",
	  .commit = "76a771ec4c9a^",
	  .desc = "virtnet_sq_bind_xsk_pool() frees tx buffers without a reset",
	  .opts = NIC_VIRTIO "--reconfigs 1 " NIC_VIRTIO_RESIZE_BUG },
	{ .name = "virtio-net-76a771ec4c9a", .driver = "virtio_net",
	  .commit = "76a771ec4c9a",
	  .desc = "virtqueue_reset()'s recycle_done resets the queue",
	  .opts = NIC_VIRTIO "--reconfigs 1" },
	{ .name = "mtk-eth-reset0", .driver = "mtk_eth_soc",
	  .commit = "4db6c75124d8^",
	  .desc = "mtk_dma_free() resets queue 0 only (netdev_reset_queue)",
	  .opts = NIC_MTK "--close stop,napi-off,dma-off,drain,reset0" },
	{ .name = "mtk-eth-4db6c75124d8", .driver = "mtk_eth_soc",
	  .commit = "4db6c75124d8",
	  .desc = "netdev_tx_reset_subqueue() on every tx queue",
	  .opts = NIC_MTK },
	{ .name = "axienet-bd-sum", .driver = "xilinx_axienet",
	  .commit = "d1978d03e867^",
	  .desc = "completed bytes summed per descriptor, dropped when no packet ended in the poll",
	  .opts = NIC_AXIENET "--completed-bytes bd-sum" },
	{ .name = "axienet-d1978d03e867", .driver = "xilinx_axienet",
	  .commit = "d1978d03e867",
	  .desc = "skb->len of each packet whose last descriptor completed",
	  .opts = NIC_AXIENET },
};

static void bqlm_nic_opt_defaults(void *cfg)
{
	bqlm_nic_cfg_default(cfg);
}

static const struct bqlm_opts bqlm_nic_opts = {
	.model = "nic",
	.opt = bqlm_nic_opt,
	.n = ARRAY_SIZE(bqlm_nic_opt),
	.cfg_size = sizeof(struct bqlm_nic_cfg),
	.check = bqlm_nic_opt_check,
	.defaults = bqlm_nic_opt_defaults,
	.profiles = bqlm_nic_profiles,
	.nr_profiles = ARRAY_SIZE(bqlm_nic_profiles),
	.profile_opt = "profile",
	.default_profile = "generic",
};

/**
 * bqlm_nic_options() - the NIC model's options and profiles
 *
 * Return: the table (<bqlm/options.h>).
 */
const struct bqlm_opts *bqlm_nic_options(void)
{
	return &bqlm_nic_opts;
}

/**
 * bqlm_nic_nr_profiles() - how many profiles there are
 *
 * Return: the number; ids are 0 to it minus one.
 */
unsigned int bqlm_nic_nr_profiles(void)
{
	return ARRAY_SIZE(bqlm_nic_profiles);
}

/**
 * bqlm_nic_profile() - a profile
 * @id: its id
 *
 * Return: the profile, or NULL for an id out of range.
 */
const struct bqlm_profile *bqlm_nic_profile(unsigned int id)
{
	return id < ARRAY_SIZE(bqlm_nic_profiles) ? &bqlm_nic_profiles[id] :
						     NULL;
}

/**
 * bqlm_nic_profile_by_name() - a profile's id
 * @name: its name
 *
 * Return: the id, or -ENOENT.
 */
int bqlm_nic_profile_by_name(const char *name)
{
	return bqlm_opt_profile_by_name(&bqlm_nic_opts, name);
}

/**
 * bqlm_nic_cfg_profile() - the configuration of a profile
 * @cfg: receives it (the default bound, then the profile's options)
 * @id: the profile
 *
 * Return: 0, or -EINVAL for an unknown id.
 */
int bqlm_nic_cfg_profile(struct bqlm_nic_cfg *cfg, unsigned int id)
{
	char err[8];

	return bqlm_opt_profile(&bqlm_nic_opts, cfg, id, err, sizeof(err));
}

/**
 * bqlm_nic_cfg_check() - is a configuration within the model's bounds?
 * @cfg: the configuration, or NULL
 *
 * Every option within its range (bqlm_nic_options()), and what ranges
 * cannot say: a ring of at least one packet's descriptors, the doorbell
 * on the return of __netdev_tx_sent_queue() only with that call (the
 * plain netdev_tx_sent_queue() returns nothing).
 *
 * Return: 0, or -EINVAL.
 */
int bqlm_nic_cfg_check(const struct bqlm_nic_cfg *cfg)
{
	return cfg ? bqlm_opt_check(&bqlm_nic_opts, cfg, NULL, 0) : -EINVAL;
}
