// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the ring-consumer model's options and profiles (<bqlm/tun.h>):
 * each field of struct bqlm_tun_cfg described once (<bqlm/options.h>),
 * what the combinations mean (a property that would have no effect is
 * refused, not ignored), and each profile, a design of tun, veth or the
 * BQL study, as the options it sets on top of the defaults. A new design
 * is one row of bqlm_tun_profiles[] (with its id in enum
 * bqlm_tun_variant) and its docs; the model reads only the properties.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/tun.h>
#include <bqlm/options.h>
#include "tun_internal.h"

#define TUN_FIELD(f)	BQLM_OPT_FIELD(struct bqlm_tun_cfg, f)

static const char *const bqlm_tun_stop_names[] = { "full", "fail", NULL };
static const char *const bqlm_tun_check_names[] = {
	[BQLM_TUN_CHECK_PRODUCE] = "check-produce",
	[BQLM_TUN_CHECK_FULL] = "ptr-ring-full",
	NULL };
static const char *const bqlm_tun_on_full_names[] = {
	[BQLM_TUN_FULL_DROP] = "drop",
	[BQLM_TUN_FULL_REQUEUE] = "requeue",
	NULL };
static const char *const bqlm_tun_recheck_names[] = {
	[BQLM_TUN_RECHECK_NONE] = "none",
	[BQLM_TUN_RECHECK_PRODUCE] = "check-produce",
	[BQLM_TUN_RECHECK_EMPTY] = "empty",
	[BQLM_TUN_RECHECK_KICK] = "kick",
	NULL };
static const char *const bqlm_tun_wake_names[] = {
	[BQLM_TUN_WAKE_NONE] = "none",
	[BQLM_TUN_WAKE_ALWAYS] = "always",
	[BQLM_TUN_WAKE_IF_STOPPED] = "if-stopped",
	[BQLM_TUN_WAKE_HALF] = "half",
	[BQLM_TUN_WAKE_ROOM] = "room",
	NULL };
static const char *const bqlm_tun_wake_at_names[] = {
	[BQLM_TUN_WAKE_AT_CONSUME] = "consume",
	[BQLM_TUN_WAKE_AT_READ_END] = "read-end",
	[BQLM_TUN_WAKE_AT_RCV_END] = "rcv-end",
	[BQLM_TUN_WAKE_AT_POLL_END] = "poll-end",
	NULL };
static const char *const bqlm_tun_force_names[] = {
	"attach", "set-iff", "resize", NULL };
static const char *const bqlm_tun_sent_names[] = {
	[BQLM_TUN_SENT_BEFORE] = "before-produce",
	[BQLM_TUN_SENT_AFTER] = "after-produce",
	NULL };
static const char *const bqlm_tun_resize_names[] = {
	[BQLM_TUN_RESIZE_COMPLETE] = "complete",
	[BQLM_TUN_RESIZE_RESET] = "reset",
	[BQLM_TUN_RESIZE_NONE] = "none",
	NULL };

/* --noqueue: the qdisc option off */
static int bqlm_tun_opt_noqueue(const struct bqlm_opt *o, void *cfg,
				const char *arg, char *err, size_t len)
{
	if (arg && strcmp(arg, "on")) {
		snprintf(err, len, "--%s takes no value", o->name);
		return -EINVAL;
	}
	((struct bqlm_tun_cfg *)cfg)->qdisc = false;
	return 0;
}

#define TUN_BOUND(nm, f, lo, hi, h)					\
	{ .name = nm, .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,	\
	  TUN_FIELD(f), .min = lo, .max = hi, .help = h }

static const struct bqlm_opt bqlm_tun_opt[] = {
	/* the bound and the environment */
	{ .name = "memory-model", .type = BQLM_OPT_CHOICE,
	  .flags = BQLM_OPT_BOUND, TUN_FIELD(mm), .names = bqlm_mm_names,
	  .metavar = "M", .help = "the memory model" },
	TUN_BOUND("queues", queues, 1, BQLM_TUN_MAX_QUEUES, "queue files"),
	TUN_BOUND("cpus", cpus, 1, BQLM_TUN_MAX_CPUS, "producer CPUs"),
	TUN_BOUND("packets", packets, 0, BQLM_TUN_MAX_ID,
		  "packets the stack sends (0: unbounded, not for the explorer, which takes 1..8)"),
	TUN_BOUND("ring", ring, 1, BQLM_TUN_MAX_RING,
		  "tx_queue_len, the ring's slots (the explorer takes 1..4)"),
	{ .name = "batch", .type = BQLM_OPT_UINT, TUN_FIELD(batch),
	  .min = 0, .max = 64,
	  .help = "ptr_ring consumer batch before __ptr_ring_set_size() caps it" },
	{ .name = "reader", .type = BQLM_OPT_CHOICE, TUN_FIELD(reader),
	  .names = bqlm_tun_reader_names, .metavar = "KIND",
	  .help = "the consumer: read(), O_NONBLOCK read(), vhost-net, a NAPI poll (veth)" },
	{ .name = "budget", .type = BQLM_OPT_UINT, TUN_FIELD(budget),
	  .min = 1, .max = BQLM_TUN_NAPI_BUDGET,
	  .help = "the NAPI poll's budget (--reader napi)" },
	{ .name = "qdisc", .type = BQLM_OPT_BOOL, TUN_FIELD(qdisc),
	  .help = "a qdisc in front of the device (off: noqueue)" },
	{ .name = "noqueue", .type = BQLM_OPT_BOOL,
	  .flags = BQLM_OPT_NOARG | BQLM_OPT_ALIAS, .also = "qdisc",
	  .parse = bqlm_tun_opt_noqueue, .help = "no qdisc: --qdisc off" },
	{ .name = "backpressure", .type = BQLM_OPT_BOOL, TUN_FIELD(backpressure),
	  .help = "IFF_BACKPRESSURE set at the start (--opt-in on)" },
	TUN_BOUND("detaches", detaches, 0, 1,
		  "TUNSETQUEUE detach/attach cycles of the last queue file"),
	TUN_BOUND("set-iffs", set_iffs, 0, 2,
		  "TUNSETIFF calls on the running device"),
	TUN_BOUND("resizes", resizes, 0, 1, "tx_queue_len changes"),
	{ .name = "resize-to", .type = BQLM_OPT_UINT, TUN_FIELD(resize_to),
	  .min = 1, .max = BQLM_TUN_MAX_RING, .implies = "resizes=1",
	  .help = "the new tx_queue_len (the explorer takes 1..4)" },
	{ .name = "len", .type = BQLM_OPT_UINT, TUN_FIELD(len),
	  .min = 1, .max = BQLM_TUN_MAX_LEN,
	  .help = "bytes per packet (--bql on)" },
	/* the producer */
	{ .name = "stop", .type = BQLM_OPT_SET, TUN_FIELD(stop),
	  .names = bqlm_tun_stop_names,
	  .help = "the producer stops its queue after the produce that fills the ring, when a produce fails" },
	{ .name = "full-check", .type = BQLM_OPT_CHOICE, TUN_FIELD(full_check),
	  .names = bqlm_tun_check_names,
	  .help = "--stop full: __ptr_ring_check_produce() under the produce's lock, or ptr_ring_full() in a lock section of its own" },
	{ .name = "qdisc-only", .type = BQLM_OPT_BOOL, TUN_FIELD(qdisc_only),
	  .help = "stop only when a qdisc is attached" },
	{ .name = "opt-in", .type = BQLM_OPT_BOOL, TUN_FIELD(opt_in),
	  .help = "the stop and the consumer's wake need IFF_BACKPRESSURE; TUNSETIFF flips it" },
	{ .name = "on-full", .type = BQLM_OPT_CHOICE, TUN_FIELD(on_full),
	  .names = bqlm_tun_on_full_names,
	  .help = "the packet that finds the ring full: dropped, or NETDEV_TX_BUSY (the qdisc requeues it; noqueue drops)" },
	{ .name = "recheck", .type = BQLM_OPT_CHOICE, TUN_FIELD(recheck),
	  .names = bqlm_tun_recheck_names,
	  .help = "after the stop: wake if the producer's slot is free, if the consumer's head is free, or kick the NAPI consumer" },
	{ .name = "producer-mb", .type = BQLM_OPT_BOOL, TUN_FIELD(producer_mb),
	  .help = "a full barrier between the stop and the re-check or kick" },
	/* the consumer */
	{ .name = "wake", .type = BQLM_OPT_CHOICE, TUN_FIELD(wake),
	  .names = bqlm_tun_wake_names,
	  .help = "the consumer wakes the queue: never, blindly, if stopped, at half the ring since the stop, at half and into room" },
	{ .name = "wake-at", .type = BQLM_OPT_CHOICE, TUN_FIELD(wake_at),
	  .names = bqlm_tun_wake_at_names,
	  .help = "where: under the consumer lock after the consume, at the end of tun_do_read(), a NAPI poll's end of the loop or end of the poll" },
	{ .name = "consumer-mb", .type = BQLM_OPT_BOOL, TUN_FIELD(consumer_mb),
	  .help = "smp_mb() between the consume and the wake rule" },
	/* the administrator */
	{ .name = "force-wake", .type = BQLM_OPT_SET, TUN_FIELD(force_wake),
	  .names = bqlm_tun_force_names,
	  .help = "tun_force_wake_queue() (wake, cons_cnt = 0, both ring locks) after" },
	/* the BQL design study */
	{ .name = "bql", .type = BQLM_OPT_BOOL, TUN_FIELD(bql),
	  .help = "the BQL design study (one queue, sc)" },
	{ .name = "bql-sent", .type = BQLM_OPT_CHOICE, TUN_FIELD(bql_sent),
	  .names = bqlm_tun_sent_names,
	  .help = "netdev_tx_sent_queue() under the lock before or after the produce" },
	{ .name = "bql-resize", .type = BQLM_OPT_CHOICE, TUN_FIELD(bql_resize),
	  .names = bqlm_tun_resize_names,
	  .help = "after a resize: complete what it freed, reset the queue, nothing" },
};

/* The properties a design without a stop or a wake cannot have. */
static int bqlm_tun_opt_check_design(const struct bqlm_tun_cfg *c, char *err,
				     size_t len)
{
	bool napi = c->reader == BQLM_TUN_NAPI;
	bool napi_at = c->wake_at == BQLM_TUN_WAKE_AT_RCV_END ||
		       c->wake_at == BQLM_TUN_WAKE_AT_POLL_END;

	if (!(c->stop & BQLM_TUN_STOP_FULL) &&
	    c->full_check != BQLM_TUN_CHECK_PRODUCE) {
		snprintf(err, len, "--full-check %s needs --stop full",
			 bqlm_tun_check_names[c->full_check]);
		return -EINVAL;
	}
	if (c->on_full == BQLM_TUN_FULL_REQUEUE &&
	    !(c->stop & BQLM_TUN_STOP_FAIL) && !bqlm_tun_locked_stop(c)) {
		snprintf(err, len,
			 "--on-full requeue needs a stop when the produce fails (--stop fail): NETDEV_TX_BUSY on a running queue is sent again at once");
		return -EINVAL;
	}
	if (!c->stop) {
		if (c->recheck != BQLM_TUN_RECHECK_NONE ||
		    c->qdisc_only || c->opt_in || c->force_wake) {
			snprintf(err, len,
				 "--%s needs a stop (--stop full or fail)",
				 c->recheck != BQLM_TUN_RECHECK_NONE ? "recheck" :
				 c->qdisc_only ? "qdisc-only on" :
				 c->opt_in ? "opt-in on" : "force-wake");
			return -EINVAL;
		}
	}
	if (c->recheck == BQLM_TUN_RECHECK_KICK && !napi) {
		snprintf(err, len,
			 "--recheck kick schedules a NAPI consumer: needs --reader napi");
		return -EINVAL;
	}
	if (c->producer_mb && c->recheck == BQLM_TUN_RECHECK_NONE) {
		snprintf(err, len,
			 "--producer-mb on orders the stop before a re-check: needs --recheck");
		return -EINVAL;
	}
	if (!c->backpressure && !c->opt_in) {
		snprintf(err, len,
			 "--backpressure off: IFF_BACKPRESSURE means nothing without --opt-in on");
		return -EINVAL;
	}
	if (c->wake == BQLM_TUN_WAKE_NONE) {
		if (c->consumer_mb || c->wake_at != BQLM_TUN_WAKE_AT_CONSUME) {
			snprintf(err, len, "--%s needs a wake (--wake)",
				 c->consumer_mb ? "consumer-mb on" : "wake-at");
			return -EINVAL;
		}
	} else if (napi != napi_at) {
		snprintf(err, len, napi ?
			 "--reader napi wakes in its poll: --wake-at rcv-end or poll-end" :
			 "--wake-at %s is a NAPI poll's: needs --reader napi",
			 bqlm_tun_wake_at_names[c->wake_at]);
		return -EINVAL;
	}
	if (bqlm_tun_counts(c) && c->wake_at == BQLM_TUN_WAKE_AT_READ_END) {
		snprintf(err, len,
			 "--wake %s counts under the consumer lock: --wake-at consume",
			 bqlm_tun_wake_names[c->wake]);
		return -EINVAL;
	}
	return 0;
}

/* What the reader kind, the study and the bound leave to each other. */
static int bqlm_tun_opt_check(const void *cfg, char *err, size_t len)
{
	const struct bqlm_tun_cfg *c = cfg;
	bool napi = c->reader == BQLM_TUN_NAPI;
	int ret;

	if ((unsigned int)c->variant >= bqlm_tun_nr_variants()) {
		snprintf(err, len, "profile %u is not one of tun's",
			 c->variant);
		return -EINVAL;
	}
	ret = bqlm_tun_opt_check_design(c, err, len);
	if (ret)
		return ret;
	if (c->budget != BQLM_TUN_NAPI_BUDGET && !napi) {
		snprintf(err, len, "--budget is a NAPI poll's: needs --reader napi");
		return -EINVAL;
	}
	if (napi && (c->detaches || c->set_iffs || c->resizes || c->bql)) {
		snprintf(err, len,
			 "--reader napi: %s not modelled for a NAPI consumer (tun's only)",
			 c->bql ? "the BQL study is" :
			 "the administrator's detach, TUNSETIFF and resize are");
		return -EINVAL;
	}
	if (!c->bql && (c->bql_sent != BQLM_TUN_SENT_BEFORE ||
			c->bql_resize != BQLM_TUN_RESIZE_COMPLETE ||
			c->len != 100)) {
		snprintf(err, len, "--%s is the BQL study's: needs --bql on",
			 c->bql_sent != BQLM_TUN_SENT_BEFORE ? "bql-sent" :
			 c->bql_resize != BQLM_TUN_RESIZE_COMPLETE ?
			 "bql-resize" : "len");
		return -EINVAL;
	}
	if (c->bql && bqlm_tun_bql_cfg_check(c)) {
		snprintf(err, len,
			 "the BQL study runs with one queue under sc, a bounded number of packets");
		return -EINVAL;
	}
	/* bqlm_ptr_ring_resize() keeps what survives on the stack */
	if (c->resizes && (c->ring > BQLM_PTR_RING_MAX ||
			   c->resize_to > BQLM_PTR_RING_MAX)) {
		snprintf(err, len, "a resize takes rings of at most %u slots",
			 BQLM_PTR_RING_MAX);
		return -EINVAL;
	}
	/* store buffer entries name variables in a byte */
	if (c->mm != BQLM_MM_SC && bqlm_tun_nr_vars(c) > BQLM_SB_MAX_VARS) {
		snprintf(err, len,
			 "--memory-model %s names at most %u shared variables: a smaller ring",
			 bqlm_mm_name(c->mm), BQLM_SB_MAX_VARS);
		return -EINVAL;
	}
	return 0;
}

/*
 * The designs. TUN_BP is what the merged backpressure and its variations
 * share: stop after the produce that fills the ring, in its lock
 * section, only with a qdisc and IFF_BACKPRESSURE; re-check the
 * producer's slot after the stop; wake at half the ring under the
 * consumer lock; tun_force_wake_queue() on attach, TUNSETIFF and resize.
 * The barriers are each row's.
 */
#define TUN_BP								\
	"--stop full --qdisc-only on --opt-in on --recheck check-produce " \
	"--wake half --force-wake attach,set-iff,resize "
#define TUN_MB	"--producer-mb on --consumer-mb on "
/*
 * 2019: stop when a produce fails and when ptr_ring_full() after one
 * (its own lock section), wake at the end of every tun_do_read(); the
 * 2019 race alone (--detaches 1 adds the re-attach stall)
 */
#define TUN_2019							\
	"--detaches 0 --stop full,fail --full-check ptr-ring-full "	\
	"--wake always --wake-at read-end"
/* 1d6e569b7d0c: no flag; attach resets the count only; a resize wakes */
#define TUN_V12								\
	"--stop full --qdisc-only on --recheck check-produce --wake half " \
	"--force-wake resize "
/* the study: four packets and one resize by default, the resize is the point */
#define TUN_BQL	"--packets 4 --resizes 1 --bql on "
/*
 * veth (linux-source-6.12's): the peer's NAPI consumes; a full ring is
 * NETDEV_TX_BUSY (a stop, the packet requeued; noqueue drops it); the
 * wake at every poll. No administrator's call; a ring of 2: a fully
 * drained ring of 4 would need four buffered stores, one more than the
 * store buffers hold.
 */
#define TUN_VETH							\
	"--reader napi --detaches 0 --ring 2 --stop fail --qdisc-only on " \
	"--on-full requeue --producer-mb on --wake if-stopped "

static const struct bqlm_profile bqlm_tun_profiles[] = {
	[BQLM_TUN_STOCK] = {
		.name = "stock", .driver = "tun", .commit = "6.12",
		.desc = "Linux 6.12 tun: tail drop on a full ring, the queue is never stopped",
		.opts = "" },
	[BQLM_TUN_STOP_2019] = {
		.name = "stop-2019", .driver = "tun", .commit = "2019 RFC",
		.desc = "April 2019 experiment: stop when produce fails or the ring is full, wake after every tun_do_read",
		.opts = TUN_2019 },
	[BQLM_TUN_BACKPRESSURE] = {
		.name = "backpressure", .driver = "tun",
		.commit = "485e38995cc3",
		.desc = "1d6e569b7d0c + IFF_BACKPRESSURE opt-in (485e38995cc3, d00c7369ef24): stop when full, barrier, re-check; wake at half",
		.opts = TUN_BP TUN_MB },
	[BQLM_TUN_BACKPRESSURE_NOBARRIER] = {
		.name = "backpressure-nobarrier", .driver = "tun",
		.desc = "backpressure without smp_mb__after_atomic() (producer) and smp_mb() (consumer)",
		.opts = TUN_BP },
	[BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB] = {
		.name = "backpressure-no-producer-mb", .driver = "tun",
		.desc = "backpressure without the producer's smp_mb__after_atomic() only",
		.opts = TUN_BP "--consumer-mb on" },
	[BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB] = {
		.name = "backpressure-no-consumer-mb", .driver = "tun",
		.desc = "backpressure without the consumer's smp_mb() only",
		.opts = TUN_BP "--producer-mb on" },
	[BQLM_TUN_BACKPRESSURE_ROOM] = {
		.name = "backpressure-room", .driver = "tun",
		.desc = "backpressure whose consumer wakes only when the producer's slot is free, and restarts its count when it finds the queue running (candidate fix)",
		.opts = TUN_BP TUN_MB "--wake room" },
	[BQLM_TUN_BACKPRESSURE_V12] = {
		.name = "backpressure-1d6e569b7d0c", .driver = "tun",
		.commit = "1d6e569b7d0c",
		.desc = "as merged before the opt-in: no flag, attach only resets cons_cnt, TUNSETIFF wakes without the ring locks",
		.opts = TUN_V12 TUN_MB },
	[BQLM_TUN_BQL] = {
		.name = "bql", .driver = "tun (study)",
		.desc = "design study: BQL in tun: sent under producer_lock, completed per consume, reset after purge, resize completes what it frees",
		.opts = TUN_BQL },
	[BQLM_TUN_BQL_LATE_SENT] = {
		.name = "bql-late-sent", .driver = "tun (study)",
		.desc = "design study with netdev_tx_sent_queue() after __ptr_ring_produce(): the reader may complete first",
		.opts = TUN_BQL "--bql-sent after-produce --bql-resize none" },
	[BQLM_TUN_BQL_RESET_RESIZE] = {
		.name = "bql-reset-resize", .driver = "tun (study)",
		.desc = "design study with the shortcut: netdev_tx_reset_queue() on resize",
		.opts = TUN_BQL "--bql-resize reset" },
	[BQLM_TUN_VETH] = {
		.name = "veth", .driver = "veth", .commit = "5442a9da6978",
		.desc = "6.12 veth: NETDEV_TX_BUSY on a full peer ring, stop, kick the NAPI consumer; the poll wakes after napi_complete_done()",
		.opts = TUN_VETH "--recheck kick --wake-at poll-end" },
	[BQLM_TUN_VETH_DC82A33297FC] = {
		.name = "veth-dc82a33297fc", .driver = "veth",
		.commit = "5442a9da6978^",
		.desc = "veth as dc82a33297fc made it: stop, smp_mb__after_atomic(), wake if __ptr_ring_empty(); the wake in veth_xdp_rcv()",
		.opts = TUN_VETH "--recheck empty --wake-at rcv-end" },
	[BQLM_TUN_VETH_KICK_RCV_END] = {
		.name = "veth-kick-rcv-end", .driver = "veth",
		.desc = "half of 5442a9da6978 (not upstream): the kick, the wake still in veth_xdp_rcv(); stalls even under sc",
		.opts = TUN_VETH "--recheck kick --wake-at rcv-end" },
};

/* The configuration before any option or variant; what is not named is 0. */
static const struct bqlm_tun_cfg bqlm_tun_defaults = {
	.mm = BQLM_MM_SC,
	.reader = BQLM_TUN_READ,
	.queues = 1,
	.cpus = 2,
	.packets = 5,
	.ring = 4,
	.batch = BQLM_PTR_RING_BATCH,
	.qdisc = true,
	.backpressure = true,
	.detaches = 1,
	.resize_to = 2,
	.len = 100,
	.budget = BQLM_TUN_NAPI_BUDGET,
};

static void bqlm_tun_opt_defaults(void *cfg)
{
	memcpy(cfg, &bqlm_tun_defaults, sizeof(bqlm_tun_defaults));
}

static void bqlm_tun_opt_profile_set(void *p, unsigned int id)
{
	((struct bqlm_tun_cfg *)p)->variant = id;
}

/* What --sweep explores: the explorer's own bounds first. */
static int bqlm_tun_opt_system(const void *cfg, struct bqlm_xsys *sys)
{
	char err[8];

	if (bqlm_tun_cfg_why(cfg, true, err, sizeof(err)))
		return -EINVAL;
	return bqlm_tun_system(cfg, sys);
}

static const struct bqlm_opts bqlm_tun_opts = {
	.model = "tun",
	.opt = bqlm_tun_opt,
	.n = ARRAY_SIZE(bqlm_tun_opt),
	.cfg_size = sizeof(struct bqlm_tun_cfg),
	.check = bqlm_tun_opt_check,
	.defaults = bqlm_tun_opt_defaults,
	.profiles = bqlm_tun_profiles,
	.nr_profiles = ARRAY_SIZE(bqlm_tun_profiles),
	.profile_opt = "variant",
	.default_profile = NULL,
	.profile_set = bqlm_tun_opt_profile_set,
	.system = bqlm_tun_opt_system,
};

/**
 * bqlm_tun_options() - the ring-consumer model's options and profiles
 *
 * Return: the table (<bqlm/options.h>): every field of struct
 * bqlm_tun_cfg but the figures pointer, the profiles by enum
 * bqlm_tun_variant.
 */
const struct bqlm_opts *bqlm_tun_options(void)
{
	return &bqlm_tun_opts;
}

/**
 * bqlm_tun_variant_name() - the name of a profile, as the CLI takes it
 * @variant: the profile
 *
 * Return: the name, or "unknown".
 */
const char *bqlm_tun_variant_name(enum bqlm_tun_variant variant)
{
	return bqlm_name(BQLM_NAMES_OF(bqlm_tun_profiles, name), variant,
			 "unknown");
}

/**
 * bqlm_tun_nr_variants() - how many variants (profiles) the table has
 *
 * Return: the number; ids are 0 to it minus one, the first ones named by
 * enum bqlm_tun_variant.
 */
unsigned int bqlm_tun_nr_variants(void)
{
	return ARRAY_SIZE(bqlm_tun_profiles);
}

/**
 * bqlm_tun_variant_desc() - one line on what a profile is
 * @variant: the profile
 *
 * Return: the description, or "unknown".
 */
const char *bqlm_tun_variant_desc(enum bqlm_tun_variant variant)
{
	return bqlm_name(BQLM_NAMES_OF(bqlm_tun_profiles, desc), variant,
			 "unknown");
}

/**
 * bqlm_tun_variant_by_name() - look a profile up by name
 * @name: the name
 *
 * Return: the enum bqlm_tun_variant, or -EINVAL.
 */
int bqlm_tun_variant_by_name(const char *name)
{
	int id = bqlm_opt_profile_by_name(&bqlm_tun_opts, name);

	return id < 0 ? -EINVAL : id;
}

/**
 * bqlm_tun_cfg_default() - the configuration of a profile
 * @cfg: receives it: the model's defaults (one queue file, two producer
 *	CPUs, a ring of four, five packets, a blocking reader, a qdisc,
 *	IFF_BACKPRESSURE set, one detach/attach cycle, no TUNSETIFF, no
 *	resize, sc; 6.12's tun), then the profile's options
 * @variant: the profile
 *
 * An unknown @variant leaves the defaults with @cfg->variant set to it
 * (which bqlm_tun_cfg_check() refuses).
 */
void bqlm_tun_cfg_default(struct bqlm_tun_cfg *cfg,
			  enum bqlm_tun_variant variant)
{
	char err[8];

	if (bqlm_opt_profile(&bqlm_tun_opts, cfg, variant, err, sizeof(err))) {
		bqlm_tun_opt_defaults(cfg);
		cfg->variant = variant;
	}
}

/**
 * bqlm_tun_cfg_why() - is a configuration within the model's bounds, and
 *	if not, why
 * @cfg: the configuration
 * @explore: also within the explorer's bounds (bqlm_tun_system())
 * @err: receives the reason (may be NULL with @len 0)
 * @len: its size
 *
 * Every option within its range (bqlm_tun_options()) and the
 * combinations that mean something (a property that would have no effect
 * is refused); with @explore, a ring and a resize of at most
 * BQLM_PTR_RING_MAX slots and 1..BQLM_TUN_MAX_PACKETS packets.
 *
 * Return: 0, or -EINVAL with the reason in @err.
 */
int bqlm_tun_cfg_why(const struct bqlm_tun_cfg *cfg, bool explore, char *err,
		     size_t len)
{
	char dummy[8];
	int ret;

	if (!err || !len) {
		err = dummy;
		len = sizeof(dummy);
	}
	if (!cfg) {
		snprintf(err, len, "no configuration");
		return -EINVAL;
	}
	ret = bqlm_opt_check(&bqlm_tun_opts, cfg, err, len);
	if (ret || !explore)
		return ret;
	if (cfg->packets < 1 || cfg->packets > BQLM_TUN_MAX_PACKETS) {
		snprintf(err, len, "the explorer takes --packets 1..%u",
			 BQLM_TUN_MAX_PACKETS);
		return -EINVAL;
	}
	if (cfg->ring > BQLM_PTR_RING_MAX || cfg->resize_to > BQLM_PTR_RING_MAX) {
		snprintf(err, len,
			 "the explorer takes --ring and --resize-to 1..%u (the simulator up to %u)",
			 BQLM_PTR_RING_MAX, BQLM_TUN_MAX_RING);
		return -EINVAL;
	}
	return 0;
}

/**
 * bqlm_tun_cfg_same_design() - do two configurations describe the same
 *	design?
 * @a: one configuration
 * @b: the other
 *
 * The same properties of the producer (stop, full check, qdisc and flag,
 * full ring, re-check, barrier), of the consumer's wake (rule, place,
 * barrier), of the administrator's forced wakes and of the BQL study;
 * the bound, the environment (qdisc, flag's start, reader, memory model)
 * and the profile's id are not compared. A harness that runs a design's
 * compiled code beside the model asks this of the configuration and the
 * profile the code was made from.
 *
 * Return: true if they do.
 */
bool bqlm_tun_cfg_same_design(const struct bqlm_tun_cfg *a,
			      const struct bqlm_tun_cfg *b)
{
	return a->stop == b->stop && a->full_check == b->full_check &&
	       a->qdisc_only == b->qdisc_only && a->opt_in == b->opt_in &&
	       a->on_full == b->on_full && a->recheck == b->recheck &&
	       a->producer_mb == b->producer_mb && a->wake == b->wake &&
	       a->wake_at == b->wake_at && a->consumer_mb == b->consumer_mb &&
	       a->force_wake == b->force_wake && a->bql == b->bql &&
	       a->bql_sent == b->bql_sent && a->bql_resize == b->bql_resize;
}

/**
 * bqlm_tun_cfg_check() - is a configuration within the model's bounds?
 * @cfg: the configuration
 *
 * The bounds of struct bqlm_tun_cfg: a ring of up to BQLM_TUN_MAX_RING
 * slots, an unbounded stream of packets (@cfg->packets 0) outside the BQL
 * study, and the combinations of properties that mean something
 * (bqlm_tun_cfg_why()). bqlm_tun_system() takes the explorer's smaller
 * bounds only.
 *
 * Return: 0, or -EINVAL.
 */
int bqlm_tun_cfg_check(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_cfg_why(cfg, false, NULL, 0);
}
