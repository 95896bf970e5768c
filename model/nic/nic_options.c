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
	"before-sent", "after-sent", "after-doorbell", "none", NULL };
static const char *const bqlm_nic_completer_names[] = {
	"napi", "napi+xmit", NULL };
static const char *const bqlm_nic_bytes_names[] = {
	"skb-len", "bd-sum", "zero-some", NULL };
static const char *const bqlm_nic_gso_names[] = {
	"same", "completed-wire", "sent-wire", NULL };
static const char *const bqlm_nic_xdp_names[] = {
	"uncounted", "counted", "completed-only", NULL };
static const char *const bqlm_nic_dstop_names[] = {
	"helper", "no-mb", "no-recheck", "ignore-restart", NULL };
static const char *const bqlm_nic_dwake_names[] = { "helper", "no-mb", NULL };
static const char *const bqlm_nic_down_names[] = {
	"path", "none", "inverted", NULL };
static const char *const bqlm_nic_waker_names[] = {
	"napi", "rx-cleanup", NULL };
static const char *const bqlm_nic_dqueue_names[] = {
	"own", "q0", "stop-q0", NULL };
static const char *const bqlm_nic_steps_names[] = { "auto", "split", NULL };
static const char *const bqlm_nic_busy_names[] = {
	"none", "stop", "try-stop", NULL };
static const char *const bqlm_nic_ekick_names[] = { "ring", "skip", NULL };
static const char *const bqlm_nic_skick_names[] = { "none", "ring", NULL };
static const char *const bqlm_nic_drop_names[] = {
	"before-sent", "after-sent", "after-sent-complete", NULL };
static const char *const bqlm_nic_completion_names[] = { "napi", "irq", NULL };
static const char *const bqlm_nic_notify_names[] = { "irq", "vq-cb", NULL };
static const char *const bqlm_nic_cqueue_names[] = { "own", "other", NULL };
static const char *const bqlm_nic_index_names[] = {
	"descs", "after-doorbell", NULL };
static const char *const bqlm_nic_ttest_names[] = {
	"xmit-stopped", "queue-stopped", NULL };

/* What each word stands for in the model's header (bqlm explore nic). */
static const char *const bqlm_nic_sent_says[] = { "before", "after", NULL };
static const char *const bqlm_nic_call_says[] = {
	"netdev_tx_sent_queue", "__netdev_tx_sent_queue(xmit_more)", NULL };
static const char *const bqlm_nic_kick_says[] = {
	"__netdev_tx_sent_queue()", "!xmit_more || netif_xmit_stopped()",
	"!xmit_more", "every packet", NULL };
static const char *const bqlm_nic_stop_says[] = {
	"before netdev_tx_sent_queue", "after netdev_tx_sent_queue",
	"after the doorbell", "none (NETDEV_TX_BUSY only)", NULL };
static const char *const bqlm_nic_xdp_says[] = {
	"uncounted", "counted", "completed only", NULL };
static const char *const bqlm_nic_bytes_says[] = {
	"skb->len", "descriptor sum if a packet ended",
	"a stored length, 0 for some", NULL };
static const char *const bqlm_nic_dstop_says[] = {
	"netif_txq_maybe_stop()", "stop, no barrier, re-check",
	"stop, no re-check", "netif_txq_maybe_stop(), -1 taken for stopped", NULL };
static const char *const bqlm_nic_dwake_says[] = {
	"netif_txq_completed_wake()", "index after the BQL call, no barrier", NULL };
static const char *const bqlm_nic_busy_says[] = {
	"the stack waits for room", "stop, NETDEV_TX_BUSY",
	"netif_txq_try_stop(), NETDEV_TX_BUSY", NULL };

/* A reset path's calls: o->off is its ops[] row, o->count_off its count. */
static int bqlm_nic_opt_parse_ops(const struct bqlm_opt *o, void *cfg,
				  const char *arg, char *err, size_t len)
{
	unsigned char *ops = (unsigned char *)cfg + o->off;
	unsigned char tmp[BQLM_NIC_MAX_OPS] = { 0 };
	unsigned int n;

	/* the whole row, so that equal lists are equal configurations */
	if (bqlm_nic_parse_ops(arg, tmp, &n)) {
		size_t w = snprintf(err, len,
				    "--%s: '%.48s' is not a comma-separated list of",
				    o->name, arg ? arg : "");
		unsigned int op;

		for (op = 0; op < BQLM_NIC_NR_OPS; op++)
			w += snprintf(err + min(w, len), len - min(w, len),
				      "%s %s", op ? "," : "",
				      bqlm_nic_op_name(op));
		snprintf(err + min(w, len), len - min(w, len),
			 " (at most %u), or none", BQLM_NIC_MAX_OPS);
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
	{ .name = "descs", .type = BQLM_OPT_UINT,
	  .flags = BQLM_OPT_SWEPT, NIC_FIELD(descs),
	  .min = 1, .max = BQLM_NIC_MAX_DESCS,
	  .help = "descriptors per packet" },
	{ .name = "ring", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(ring), .min = 1, .max = BQLM_NIC_MAX_RING,
	  .help = "descriptors per tx ring (at least --descs)" },
	{ .name = "batch", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(batch), .min = 1, .max = BQLM_NIC_MAX_RING,
	  .help = "packets per xmit_more batch" },
	{ .name = "budget", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(budget), .min = 1, .max = BQLM_NIC_MAX_RING,
	  .help = "packets per NAPI poll" },
	{ .name = "sent", .type = BQLM_OPT_CHOICE, NIC_FIELD(sent),
	  .names = bqlm_nic_sent_names, .says = bqlm_nic_sent_says,
	  .help = "where netdev_tx_sent_queue() sits" },
	{ .name = "sent-call", .type = BQLM_OPT_CHOICE, NIC_FIELD(sent_call),
	  .names = bqlm_nic_call_names, .says = bqlm_nic_call_says,
	  .help = "netdev_tx_sent_queue() (STACK_XOFF whatever xmit_more) or __netdev_tx_sent_queue(.., xmit_more)" },
	{ .name = "doorbell", .type = BQLM_OPT_CHOICE, NIC_FIELD(doorbell),
	  .names = bqlm_nic_kick_names, .says = bqlm_nic_kick_says,
	  .help = "what rings it (sent-queue needs --sent-call xmit-more)" },
	{ .name = "ring-stop", .type = BQLM_OPT_CHOICE, NIC_FIELD(stopcheck),
	  .names = bqlm_nic_stop_names, .says = bqlm_nic_stop_says,
	  .help = "where the ring-full stop sits" },
	{ .name = "completers", .type = BQLM_OPT_CHOICE, NIC_FIELD(completers),
	  .names = bqlm_nic_completer_names, .help = "who completes" },
	{ .name = "napi-txlock", .type = BQLM_OPT_BOOL, NIC_FIELD(napi_txlock),
	  .help = "the NAPI poll holds the tx lock" },
	{ .name = "rx-cleanup", .type = BQLM_OPT_BOOL, NIC_FIELD(rx_cleanup),
	  .help = "the RX poll cleans the tx ring under a trylock" },
	{ .name = "completed-bytes", .type = BQLM_OPT_CHOICE, NIC_FIELD(bytes),
	  .names = bqlm_nic_bytes_names, .says = bqlm_nic_bytes_says, .help = "what the poll reports" },
	{ .name = "gso-bytes", .type = BQLM_OPT_CHOICE, NIC_FIELD(gso),
	  .names = bqlm_nic_gso_names,
	  .help = "a GSO packet's bytes on each side: the same, sent skb->len and completed the wire bytes (skb->len plus a second segment's headers), or the reverse" },
	{ .name = "xdp-frames", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(xdp_frames), .min = 0, .max = 2,
	  .help = "XDP_TX frames on the last queue" },
	{ .name = "xdp-bql", .type = BQLM_OPT_CHOICE, NIC_FIELD(xdp),
	  .names = bqlm_nic_xdp_names, .says = bqlm_nic_xdp_says, .implies = "xdp-frames=1",
	  .help = "XDP frames and BQL" },
	{ .name = "xdp-cleans", .type = BQLM_OPT_BOOL, NIC_FIELD(xdp_cleans),
	  .implies = "xdp-frames=1",
	  .help = "the XDP transmit cleans and completes the ring first, under the tx lock" },
	{ .name = "memory-model", .type = BQLM_OPT_CHOICE, NIC_FIELD(mm),
	  .names = bqlm_mm_names,
	  .help = "the driver's stop and wake, the indices and the state word" },
	{ .name = "drv-stop", .type = BQLM_OPT_CHOICE, NIC_FIELD(drv_stop),
	  .names = bqlm_nic_dstop_names, .says = bqlm_nic_dstop_says,
	  .help = "ring-full stop: netif_txq_maybe_stop(), or a hand-rolled form" },
	{ .name = "drv-wake", .type = BQLM_OPT_CHOICE, NIC_FIELD(drv_wake),
	  .names = bqlm_nic_dwake_names, .says = bqlm_nic_dwake_says,
	  .help = "completion's wake: netif_txq_completed_wake(), or no barrier" },
	{ .name = "stop-thresh", .type = BQLM_OPT_UINT,
	  .flags = BQLM_OPT_SWEPT, NIC_FIELD(stop_thresh),
	  .min = 0, .max = BQLM_NIC_MAX_THRESH,
	  .help = "stop below this many free descriptors (0: --descs)" },
	{ .name = "restart-thresh", .type = BQLM_OPT_UINT,
	  .flags = BQLM_OPT_SWEPT,
	  NIC_FIELD(restart_thresh), .min = 0, .max = BQLM_NIC_MAX_THRESH,
	  .help = "the stop's re-check restarts at this many (0: --wake-thresh)" },
	{ .name = "wake-thresh", .type = BQLM_OPT_UINT,
	  .flags = BQLM_OPT_SWEPT, NIC_FIELD(wake_thresh),
	  .min = 0, .max = BQLM_NIC_MAX_THRESH,
	  .help = "the completion wakes at this many (0: --descs)" },
	{ .name = "down-cond", .type = BQLM_OPT_CHOICE, NIC_FIELD(down),
	  .names = bqlm_nic_down_names,
	  .help = "the completion's wake tests a down flag: path (the default: the driver has one, no wake while a reset path runs), none (no such flag), inverted" },
	{ .name = "wakers", .type = BQLM_OPT_SET, NIC_FIELD(wakers),
	  .names = bqlm_nic_waker_names,
	  .help = "the completers that wake a stopped queue" },
	{ .name = "drv-queue", .type = BQLM_OPT_CHOICE, NIC_FIELD(drv_queue),
	  .names = bqlm_nic_dqueue_names,
	  .help = "the driver's stop and wake act on the ring's queue, on queue 0, or the stop on queue 0" },
	{ .name = "drv-steps", .type = BQLM_OPT_CHOICE, NIC_FIELD(steps),
	  .names = bqlm_nic_steps_names,
	  .help = "stop and wake cut at their barriers when they can go wrong, or always" },
	{ .name = "tx-busy", .type = BQLM_OPT_CHOICE, NIC_FIELD(busy),
	  .names = bqlm_nic_busy_names, .says = bqlm_nic_busy_says,
	  .help = "no room at ndo_start_xmit(): the stack waits, or NETDEV_TX_BUSY" },
	{ .name = "error-kick", .type = BQLM_OPT_CHOICE, NIC_FIELD(err_kick),
	  .names = bqlm_nic_ekick_names,
	  .help = "a doorbell xmit_more deferred, on a drop or NETDEV_TX_BUSY" },
	{ .name = "stop-kick", .type = BQLM_OPT_CHOICE, NIC_FIELD(stop_kick),
	  .names = bqlm_nic_skick_names,
	  .help = "a doorbell xmit_more deferred, at the ring-full stop: none (the doorbell decision alone rings), ring" },
	{ .name = "drops", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(drops), .min = 0, .max = 2,
	  .help = "packets ndo_start_xmit() may drop (a DMA mapping error)" },
	{ .name = "drop", .type = BQLM_OPT_CHOICE, NIC_FIELD(drop),
	  .names = bqlm_nic_drop_names, .implies = "drops=1",
	  .help = "where a packet is dropped, and its unwind" },
	{ .name = "completion", .type = BQLM_OPT_CHOICE, NIC_FIELD(completion),
	  .names = bqlm_nic_completion_names,
	  .help = "the tx completion in a NAPI poll or in the hard IRQ handler" },
	{ .name = "notify", .type = BQLM_OPT_CHOICE, NIC_FIELD(notify),
	  .names = bqlm_nic_notify_names,
	  .help = "what a completion's notification does: schedule the NAPI, or virtio's callbacks (disabled while polled, NAPIF_STATE_MISSED)" },
	{ .name = "complete-queue", .type = BQLM_OPT_CHOICE,
	  NIC_FIELD(complete_queue), .names = bqlm_nic_cqueue_names,
	  .help = "the queue a completion reports to: its own, or the next" },
	{ .name = "index", .type = BQLM_OPT_CHOICE, NIC_FIELD(index),
	  .names = bqlm_nic_index_names,
	  .help = "the producer index the completion reads: with the descriptors, or after the doorbell" },
	{ .name = "hangs", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  NIC_FIELD(hangs), .min = 0, .max = 1,
	  .help = "the device may hang until its DMA is reset (the watchdog recovers)" },
	{ .name = "timeout-test", .type = BQLM_OPT_CHOICE,
	  NIC_FIELD(timeout_test), .names = bqlm_nic_ttest_names,
	  .implies = "timeouts=1",
	  .help = "how ndo_tx_timeout() finds the hung queue" },
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

/* Does a reset path call @op? */
static bool bqlm_nic_calls(const struct bqlm_nic_cfg *c, enum bqlm_nic_op op)
{
	unsigned int p, i;

	for (p = 0; p < BQLM_NIC_NR_PATHS; p++)
		for (i = 0; i < c->nr_ops[p] && i < BQLM_NIC_MAX_OPS; i++)
			if (c->ops[p][i] == op)
				return true;
	return false;
}

/* The options that exclude each other, or that nothing would act on. */
static int bqlm_nic_opt_check_more(const struct bqlm_nic_cfg *c, char *err,
				   size_t len)
{
	const char *why = NULL;

	if (c->completion == BQLM_NIC_COMPLETION_IRQ && c->napi_txlock)
		why = "--completion irq excludes --napi-txlock on (a hard IRQ handler cannot take the tx lock)";
	else if (c->completion == BQLM_NIC_COMPLETION_NAPI &&
		 (bqlm_nic_calls(c, BQLM_NIC_OP_IRQ_OFF) ||
		  bqlm_nic_calls(c, BQLM_NIC_OP_IRQ_ON)))
		why = "the path calls irq-off and irq-on need --completion irq (with NAPI, use napi-off and napi-on)";
	else if (c->queues < 2 && c->complete_queue == BQLM_NIC_CQUEUE_OTHER)
		why = "--complete-queue other needs --queues 2";
	else if (c->queues < 2 && c->drv_queue != BQLM_NIC_DQUEUE_OWN)
		why = "--drv-queue q0 and stop-q0 need --queues 2 (with one queue it is its own)";
	else if (c->sent == BQLM_NIC_SENT_AFTER_DOORBELL &&
		 c->drop != BQLM_NIC_DROP_BEFORE_SENT)
		why = "--drop after-sent needs --sent before-doorbell (a drop after the doorbell is not modelled)";
	else if (c->xdp_cleans && !c->xdp_frames)
		why = "--xdp-cleans needs --xdp-frames 1 or more";
	else if (c->drv_stop != BQLM_NIC_DSTOP_HELPER &&
		 c->stopcheck == BQLM_NIC_STOP_NONE &&
		 c->busy == BQLM_NIC_BUSY_NONE)
		why = "--drv-stop acts on no stop: --ring-stop none and --tx-busy none";
	else if (c->wakers > BQLM_NIC_WAKERS_ALL)
		why = "--wakers has an unknown completer";
	else if (c->queues < 2 && c->map == BQLM_NIC_MAP_Q0)
		why = "--map q0 needs --queues 2 (with one queue every packet is on queue 0)";
	else if (!c->xdp_frames && c->xdp != BQLM_NIC_XDP_UNCOUNTED)
		why = "--xdp-bql acts on no frame: --xdp-frames 0";
	else if (c->gso != BQLM_NIC_GSO_SAME &&
		 (c->bytes != BQLM_NIC_BYTES_SKB_LEN || c->xdp_frames))
		why = "--gso-bytes needs --completed-bytes skb-len and --xdp-frames 0 (a packet's two counts, not a descriptor sum or an XDP frame)";
	else if (!c->drops && c->drop != BQLM_NIC_DROP_BEFORE_SENT)
		why = "--drop acts on no packet: --drops 0";
	else if (!c->timeouts && c->timeout_test != BQLM_NIC_TTEST_XMIT_STOPPED)
		why = "--timeout-test acts on no timeout: --timeouts 0";
	else if (c->err_kick != BQLM_NIC_EKICK_RING && !c->drops &&
		 c->busy == BQLM_NIC_BUSY_NONE)
		why = "--error-kick skip acts on no error exit: --drops 0 and --tx-busy none";
	if (!why)
		return 0;
	snprintf(err, len, "%s", why);
	return -EINVAL;
}

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
	return bqlm_nic_opt_check_more(c, err, len);
}

/*
 * virtio_net (6.12): free_old_xmit() in start_xmit, in the tx NAPI poll,
 * both under the tx lock, and in the RX poll under a trylock
 * (virtnet_poll_cleantx()); the ring-full stop before
 * __netdev_tx_sent_queue(), whose return value rings the doorbell;
 * ndo_stop disables NAPI but frees nothing (the vq keeps its buffers);
 * ndo_open enables NAPI and wakes nothing; the reconfiguration is
 * virtnet_tx_pause / virtqueue_resize / virtnet_tx_resume. The tx poll
 * cleans every used buffer (no budget: 4, more than the ring holds) and
 * wakes on room alone (virtnet_poll_tx() has no down flag); completions
 * notify through virtio's callbacks. Run on the real virtio_net.c
 * (docs/real-code.md), which showed each of these.
 */
#define NIC_VIRTIO							\
	"--sent-call xmit-more --doorbell sent-queue --ring-stop before-sent " \
	"--completers napi+xmit --napi-txlock on --rx-cleanup on "	\
	"--budget 4 --notify vq-cb --down-cond none "			\
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
/*
 * tg3 in 2006 (1b2a720506cc): no xmit_more, the mailbox write before the
 * ring-full stop and its re-check; x86
 */
#define NIC_TG3	"--batch 1 --ring-stop after-doorbell --memory-model x86 "
/* a stop only at the start of ndo_start_xmit(), NETDEV_TX_BUSY there */
#define NIC_BUSY_ONLY	"--ring-stop none --packets 4 "
/*
 * ibmvnic: the tx completion in the hard IRQ handler; a reset on a running
 * device, its interrupts disabled (release_sub_crqs())
 */
#define NIC_IBMVNIC	"--completion irq --stops 0 --reconfigs 1 "
#define NIC_IBMVNIC_RESET						\
	"--reconfig stop,irq-off,dma-off,drain,reset,dma-on,irq-on,wake "
/* airoha: two QDMA queues, plain netdev_tx_sent_queue(), xmit_more */
#define NIC_AIROHA	"--queues 2 --packets 5 --batch 3 "
/* mlx5e: stop before __netdev_tx_sent_queue(), its return rings */
#define NIC_MLX5E							\
	"--sent-call xmit-more --doorbell sent-queue --ring-stop before-sent " \
	"--batch 3 --drops 1 --drop before-sent "
/* hns3: __netdev_tx_sent_queue()'s return rings, stop before it */
#define NIC_HNS3							\
	"--sent-call xmit-more --doorbell sent-queue --ring-stop before-sent "
/* xilinx_axienet's dmaengine path: the completion in a dmaengine callback */
#define NIC_AXIENET_DMA	"--batch 1 --completion irq --stops 0 "
/*
 * ll_temac: packets of a head and a fragment (two descriptors), no
 * xmit_more, the completion in the tx IRQ handler; the NETDEV_TX_BUSY
 * path at the start of temac_start_xmit() stops, smp_mb()s and re-checks.
 * The model reaches that path with a ring-full stop one descriptor short
 * (ll_temac's own stop leaves MAX_SKB_FRAGS + 1 free; its path is reached
 * through the completion's unconditional wake after a descriptor is
 * freed, the model frees whole packets)
 */
#define NIC_TEMAC							\
	"--descs 2 --ring 3 --batch 1 --tx-busy try-stop --stop-thresh 1 " \
	"--completion irq --stops 0 "
/*
 * tsnep: two tx queues, no xmit_more, the ring-full stop after the
 * doorbell, the poll under __netif_tx_lock()
 */
#define NIC_TSNEP							\
	"--queues 2 --batch 1 --ring-stop after-doorbell --napi-txlock on "
/* igc: the tx timeout's reset (igc_reinit_locked(): igc_down/igc_up) */
#define NIC_IGC		"--stops 0 --timeouts 1 "

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
	{ .name = "tg3-tx-race", .driver = "tg3", .commit = "1b2a720506cc^",
	  .desc = "ring-full stop and completion wake without barriers: a lost wake-up",
	  .opts = NIC_TG3 "--drv-stop no-mb --drv-wake no-mb" },
	{ .name = "tg3-1b2a720506cc", .driver = "tg3", .commit = "1b2a720506cc",
	  .desc = "smp_mb() after the stop and before the completion's test",
	  .opts = NIC_TG3 },
	{ .name = "bnxt-busy-stop", .driver = "bnxt_en",
	  .commit = "3c603136c9f8^",
	  .desc = "NETDEV_TX_BUSY path stops the queue with no re-check",
	  .opts = NIC_BUSY_ONLY "--tx-busy stop" },
	{ .name = "bnxt-3c603136c9f8", .driver = "bnxt_en",
	  .commit = "3c603136c9f8",
	  .desc = "the BUSY path stops, smp_mb(), re-checks (netif_txq_try_stop())",
	  .opts = NIC_BUSY_ONLY "--tx-busy try-stop" },
	{ .name = "idpf-restart-ignored", .driver = "idpf",
	  .commit = "e4b398dd82f5^",
	  .desc = "netif_txq_maybe_stop()'s -1 read as stopped: stopped again",
	  .opts = NIC_BUSY_ONLY "--tx-busy try-stop --drv-stop ignore-restart" },
	{ .name = "idpf-e4b398dd82f5", .driver = "idpf",
	  .commit = "e4b398dd82f5",
	  .desc = "a restarted queue sends the packet",
	  .opts = NIC_BUSY_ONLY "--tx-busy try-stop" },
	{ .name = "ibmvnic-wake-in-reset", .driver = "ibmvnic",
	  .commit = "4219196d1f66^",
	  .desc = "the IRQ completion wakes a queue the reset stopped",
	  .opts = NIC_IBMVNIC NIC_IBMVNIC_RESET "--down-cond none" },
	{ .name = "ibmvnic-4219196d1f66", .driver = "ibmvnic",
	  .commit = "4219196d1f66",
	  .desc = "the completion wakes only while tx_queues_active",
	  .opts = NIC_IBMVNIC NIC_IBMVNIC_RESET },
	{ .name = "ibmvnic-non-fatal-reset", .driver = "ibmvnic",
	  .commit = "48538ccb825b^",
	  .desc = "a reset that keeps the tx buffers resets BQL",
	  .opts = NIC_IBMVNIC "--sent-call xmit-more --reconfig stop,reset,wake" },
	{ .name = "ibmvnic-48538ccb825b", .driver = "ibmvnic",
	  .commit = "48538ccb825b",
	  .desc = "no BQL reset on a NON_FATAL reset",
	  .opts = NIC_IBMVNIC "--sent-call xmit-more --reconfig stop,wake" },
	{ .name = "airoha-stop-after-doorbell", .driver = "airoha",
	  .commit = "3854de7b38be^",
	  .desc = "doorbell skipped for xmit_more, then the ring-full stop",
	  .opts = NIC_AIROHA "--ring-stop after-doorbell" },
	{ .name = "airoha-3854de7b38be", .driver = "airoha",
	  .commit = "3854de7b38be",
	  .desc = "the ring-full stop before the doorbell decision",
	  .opts = NIC_AIROHA "--ring-stop after-sent" },
	{ .name = "mlx5e-drop-no-doorbell", .driver = "mlx5e",
	  .commit = "5b759bf2f9d7^",
	  .desc = "a DMA error drops the batch's last packet, no doorbell",
	  .opts = NIC_MLX5E "--error-kick skip" },
	{ .name = "mlx5e-5b759bf2f9d7", .driver = "mlx5e",
	  .commit = "5b759bf2f9d7",
	  .desc = "mlx5e_tx_flush() rings the doorbell on every drop",
	  .opts = NIC_MLX5E "--error-kick ring" },
	{ .name = "bnxt-drop-no-doorbell", .driver = "bnxt_en",
	  .commit = "e8d8c5d80f5e^",
	  .desc = "an error exit after an xmit_more-deferred doorbell never rings it",
	  .opts = "--drops 1 --drop before-sent --error-kick skip" },
	{ .name = "bnxt-e8d8c5d80f5e", .driver = "bnxt_en",
	  .commit = "e8d8c5d80f5e",
	  .desc = "kick_pending: every error exit rings the deferred doorbell",
	  .opts = "--drops 1 --drop before-sent --error-kick ring" },
	{ .name = "hns3-index-after-doorbell", .driver = "hns3",
	  .commit = "61a1deacc3d4^",
	  .desc = "last_to_use stored after the doorbell: a poll cleans nothing",
	  .opts = NIC_HNS3 "--index after-doorbell" },
	{ .name = "hns3-61a1deacc3d4", .driver = "hns3",
	  .commit = "61a1deacc3d4",
	  .desc = "last_to_use published (smp_store_release) before the doorbell",
	  .opts = NIC_HNS3 },
	{ .name = "axienet-dmaengine-sent-late", .driver = "xilinx_axienet",
	  .commit = "5ccdcdf186ae^",
	  .desc = "dmaengine started before netdev_tx_sent_queue()",
	  .opts = NIC_AXIENET_DMA "--sent after-doorbell" },
	{ .name = "axienet-5ccdcdf186ae", .driver = "xilinx_axienet",
	  .commit = "5ccdcdf186ae",
	  .desc = "netdev_tx_sent_queue() before dmaengine_submit()",
	  .opts = NIC_AXIENET_DMA },
	{ .name = "airoha-txq-mismatch", .driver = "airoha",
	  .commit = "2d9f5a118205^",
	  .desc = "sent on one netdev queue, completed on another",
	  .opts = "--queues 2 --complete-queue other" },
	{ .name = "airoha-2d9f5a118205", .driver = "airoha",
	  .commit = "2d9f5a118205",
	  .desc = "skb_get_tx_queue() on both sides",
	  .opts = "--queues 2" },
	{ .name = "igc-timeout-ring-running", .driver = "igc",
	  .commit = "d4a7ce642100^",
	  .desc = "the tx timeout cleans and resets while the hardware rings run",
	  .opts = NIC_IGC
		  "--timeout stop,napi-off,drain,reset,dma-on,napi-on,wake" },
	{ .name = "igc-d4a7ce642100", .driver = "igc",
	  .commit = "d4a7ce642100",
	  .desc = "igc_disable_all_tx_rings_hw() before the clean",
	  .opts = NIC_IGC },
	{ .name = "bcm63xx-reset-before-reclaim", .driver = "bcm63xx_enet",
	  .commit = "9bc1ef64aeb6^",
	  .desc = "ndo_stop resets BQL, then the forced reclaim completes",
	  .opts = "--close stop,reset,napi-off,dma-off,complete" },
	{ .name = "bcm63xx-9bc1ef64aeb6", .driver = "bcm63xx_enet",
	  .commit = "9bc1ef64aeb6",
	  .desc = "the reset after the forced reclaim",
	  .opts = "--close stop,napi-off,dma-off,complete,reset" },
	{ .name = "ll-temac-recheck-short", .driver = "ll_temac",
	  .commit = "c364df2489b8^",
	  .desc = "the BUSY path's re-check asks for one descriptor less than the packet: it writes over descriptors in use",
	  .opts = NIC_TEMAC "--restart-thresh 1" },
	{ .name = "ll-temac-c364df2489b8", .driver = "ll_temac",
	  .commit = "c364df2489b8",
	  .desc = "the re-check asks for num_frag + 1, as the first check",
	  .opts = NIC_TEMAC },
	{ .name = "tsnep-stop-queue0", .driver = "tsnep",
	  .commit = "3d53aaef4332^",
	  .desc = "netif_stop_queue(dev) / netif_wake_queue(dev): queue 0 for every ring",
	  .opts = NIC_TSNEP "--drv-queue q0" },
	{ .name = "tsnep-3d53aaef4332", .driver = "tsnep",
	  .commit = "3d53aaef4332",
	  .desc = "netif_stop_subqueue() / netif_tx_wake_queue() on the ring's own queue",
	  .opts = NIC_TSNEP },
	{ .name = "mvpp2-txq-done-unlocked", .driver = "mvpp2",
	  .commit = "edc660fa09e2",
	  .desc = "txq_done() from the xmit path and the poll, unserialised (as introduced; its fix's id not found)",
	  .opts = "--completers napi+xmit --packets 4 --batch 1" },
};

static void bqlm_nic_opt_defaults(void *cfg)
{
	bqlm_nic_cfg_default(cfg);
}

static int bqlm_nic_opt_system(const void *cfg, struct bqlm_xsys *sys)
{
	return bqlm_nic_system(cfg, sys);
}

/*
 * Bounds whose search is that of smaller ones: batches beyond the packets
 * (xmit_more is clear on the last packet whatever the batch), a budget
 * beyond the ring (a poll finds at most the ring's packets; a budget of
 * the ring's size still differs, by napi_complete_done()), a ring with
 * room for more than every packet and frame plus one, which never fills
 * while every threshold is the packet's descriptors; a threshold (swept
 * too: BQLM_OPT_SWEPT) beyond the ring, or equal to the value its 0
 * stands for.
 */
static bool bqlm_nic_opt_redundant(const void *cfg)
{
	const struct bqlm_nic_cfg *c = cfg;

	if (c->batch > c->packets || c->budget > c->ring + 1)
		return true;
	/*
	 * a threshold beyond the ring, or equal to the value 0 stands for
	 * (the packet's descriptors; the re-check's: the wake's)
	 */
	if (c->stop_thresh > c->ring || c->wake_thresh > c->ring ||
	    c->restart_thresh > c->ring || c->stop_thresh == c->descs ||
	    c->wake_thresh == c->descs ||
	    (c->restart_thresh && c->restart_thresh ==
	     (c->wake_thresh ? c->wake_thresh : c->descs)))
		return true;
	return !c->stop_thresh && !c->restart_thresh && !c->wake_thresh &&
	       c->ring > (c->packets + c->xdp_frames + 1) * c->descs;
}

/**
 * bqlm_nic_fill_packets() - the packets at which every ring fills
 * @cfg: the configuration (checked)
 *
 * The fewest packets the stack must send, in batches of cfg->batch spread
 * over the queues as cfg->map says, for each queue to get one packet more
 * than its ring holds: the ring fills (the driver's stop, or its
 * NETDEV_TX_BUSY path), a completion makes room and, the queue having
 * been over its limit, grows its DQL limit, and one more packet follows.
 * The stack's default of three packets over two queues fills no ring of
 * two; "bqlm explore nic" raises --packets to this when the command line
 * does not give it.
 *
 * Return: the number, at most BQLM_NIC_MAX_PACKETS.
 */
unsigned int bqlm_nic_fill_packets(const struct bqlm_nic_cfg *cfg)
{
	unsigned int got[BQLM_NIC_MAX_QUEUES] = { 0 };
	unsigned int need, nq, p, q;

	if (!cfg || !cfg->descs || !cfg->batch || !cfg->queues ||
	    cfg->queues > BQLM_NIC_MAX_QUEUES)
		return 0;
	need = cfg->ring / cfg->descs + 1;
	nq = cfg->map == BQLM_NIC_MAP_Q0 ? 1 : cfg->queues;
	for (p = 0; p < BQLM_NIC_MAX_PACKETS; p++) {
		for (q = 0; q < nq && got[q] >= need; q++)
			;
		if (q == nq)
			return p;
		got[nq == 1 ? 0 : (p / cfg->batch) % nq]++;
	}
	return BQLM_NIC_MAX_PACKETS;
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
	.system = bqlm_nic_opt_system,
	.sweep_redundant = bqlm_nic_opt_redundant,
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
