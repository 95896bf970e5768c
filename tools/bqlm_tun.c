// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - the tun and bql-xoff systems of the command line front end.
 *
 *   bqlm explore tun --variant NAME [--memory-model M] [--queues Q] ...
 *   bqlm explore bql-xoff [--no-barrier] [--memory-model M] ...
 *
 * Exit status as tools/bqlm.c: 0 no violation, 1 violation, 2 bad usage,
 * 3 the exploration did not finish, 4 internal error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/memory_model.h>
#include <bqlm/tun.h>
#include <bqlm/bql_xoff.h>

#include "cli.h"
#include "bqlm_tun.h"


static int tun_usage(const char *fmt, const char *arg)
{
	return bqlm_cli_usage("bqlm", fmt, arg);
}

/**
 * bqlm_cli_tun_models() - the tun and bql-xoff lines of "bqlm list"
 */
void bqlm_cli_tun_models(void)
{
	printf("  tun      drivers/net/tun.c transmit side and its flow-control designs, weak memory\n");
	printf("  bql-xoff the netdev_tx_sent_queue / netdev_tx_completed_queue XOFF protocol, weak memory\n");
}

/**
 * bqlm_cli_tun_list() - the tun variants and memory models of "bqlm list"
 */
void bqlm_cli_tun_list(void)
{
	unsigned int v;

	printf("tun variants:\n");
	for (v = 0; v < BQLM_TUN_NR_VARIANTS; v++)
		printf("  %-28s %s\n", bqlm_tun_variant_name(v),
		       bqlm_tun_variant_desc(v));
	printf("memory models (--memory-model):\n");
	printf("  sc    sequential consistency\n");
	printf("  tso   FIFO store buffers, LKMM atomics (set_bit unordered, test_and_clear_bit a full barrier)\n");
	printf("  pso   as tso, stores to different variables may reach memory out of order\n");
	printf("  x86   x86-TSO: every locked instruction (all atomic bitops, spin_lock) drains the buffer\n");
}

/**
 * bqlm_cli_tun_usage() - the tun and bql-xoff part of "bqlm help"
 * @f: where to print
 */
void bqlm_cli_tun_usage(FILE *f)
{
	fprintf(f,
		"\n"
		"usage: bqlm explore tun --variant NAME [tun options]\n"
		"       bqlm explore bql-xoff [bql-xoff options]\n"
		"\n"
		"tun options:\n"
		"  --variant NAME       stock, stop-2019, backpressure, backpressure-nobarrier,\n"
		"                       backpressure-no-producer-mb, backpressure-no-consumer-mb,\n"
		"                       backpressure-room, backpressure-1d6e569b7d0c,\n"
		"                       bql, bql-late-sent, bql-reset-resize (required)\n"
		"  --memory-model M     sc, tso, pso, x86 (default sc)\n"
		"  --queues Q           queue files, 1..%d (default 1)\n"
		"  --cpus N             producer CPUs, 1..%d (default 2)\n"
		"  --packets N          packets the stack sends, 1..%d (default 5; bql: 4)\n"
		"  --ring N             tx_queue_len (ring slots), 1..%d (default 4)\n"
		"  --batch N            ptr_ring consumer batch before capping, 0..64 (default 16)\n"
		"  --reader KIND        read, nonblock, vhost (default read)\n"
		"  --noqueue            no qdisc (noqueue)\n"
		"  --backpressure on|off  IFF_BACKPRESSURE at the start (default on)\n"
		"  --detaches N         detach/attach cycles, 0..1 (default 1)\n"
		"  --set-iffs N         TUNSETIFF calls flipping IFF_BACKPRESSURE, 0..2 (default 0)\n"
		"  --resizes N          tx_queue_len changes, 0..1 (default 0; bql: 1)\n"
		"  --resize-to N        the new tx_queue_len, 1..%d (default 2)\n"
		"  --len N              bytes per packet (BQL study), 1..%d (default 100)\n"
		"bql-xoff options:\n"
		"  --no-barrier         remove the two smp_mb()\n"
		"  --no-mb sent|completed  remove the smp_mb() of netdev_tx_sent_queue()\n"
		"                       or of netdev_tx_completed_queue() only\n"
		"  --memory-model M     sc, tso, pso, x86 (default tso)\n"
		"  --packets N          1..%d (default 3)\n"
		"  --len N              bytes per packet, 1..1000 (default 100; packets\n"
		"                       times --len fit the 16-bit shared words)\n"
		"  --limit N            the pinned DQL limit, 0..2000 (default 100)\n"
		"common: --depth N (1..65534), --max-states N (1..16777216),\n"
		"        --all-traces, --no-trace, --json FILE, --no-reduction,\n"
		"        --compare-full, --max-memory N\n",
		BQLM_TUN_MAX_QUEUES, BQLM_TUN_MAX_CPUS, BQLM_TUN_MAX_PACKETS,
		BQLM_PTR_RING_MAX, BQLM_PTR_RING_MAX, BQLM_TUN_MAX_LEN,
		BQLM_XOFF_MAX_PACKETS);
}

struct tun_common {
	struct bqlm_xbounds bounds;
	bool all_traces;
	bool no_trace;
};

/* 1 when a value was parsed, else -EINVAL (reported, with the range). */
static int tun_uint_opt(const char *opt, const char *arg, unsigned long lo,
			unsigned long hi, unsigned int *out)
{
	return bqlm_cli_opt_uint("bqlm", opt, arg, lo, hi, out) ? -EINVAL : 1;
}

/* One of @names into *@out: 1, or -EINVAL (reported, with the choices). */
static int tun_choice_opt(const char *opt, const char *arg,
			  const char *const *names, unsigned int *out)
{
	return bqlm_cli_opt_choice("bqlm", opt, arg, names, out) ? -EINVAL : 1;
}

/*
 * The options every system takes; 1 if @opt was one, <0 on a bad value
 * (reported).
 */
static int tun_common_opt(const char *opt, const char *arg,
			  struct tun_common *o, int *takes)
{
	*takes = 1;
	if (!strcmp(opt, "--depth"))
		return tun_uint_opt(opt, arg, 1, 65534, &o->bounds.max_depth);
	if (!strcmp(opt, "--max-states"))
		return tun_uint_opt(opt, arg, 1, 1U << 24,
				    &o->bounds.max_states);
	*takes = 0;
	if (!strcmp(opt, "--all-traces")) {
		o->all_traces = true;
		return 1;
	}
	if (!strcmp(opt, "--no-trace")) {
		o->no_trace = true;
		return 1;
	}
	return 0;
}

/* Run @sys, print the figures, verdict and traces; return the exit code. */
static int tun_run(const struct bqlm_xsys *sys, const struct tun_common *o,
		   void (*figures)(const void *arg), const void *arg)
{
	struct bqlm_cli_explore e = {
		.sys = sys, .bounds = &o->bounds, .no_trace = o->no_trace,
		.all_traces = o->all_traces, .figures = figures, .arg = arg,
	};

	return bqlm_cli_run_explore(&e);
}

static void tun_figures(const void *arg)
{
	const struct bqlm_tun_stats *st = arg;
	unsigned int i;

	printf("drops (most in one execution):");
	for (i = 0; i < BQLM_TUN_NR_DROPS; i++)
		printf("%s %s %u", i ? "," : "", bqlm_tun_drop_name(i),
		       st->max_drops[i]);
	printf("\ndelivered to the reader: up to %u; states after a drop (purge/resize aside): %llu of %llu\n",
	       st->max_delivered, st->states_with_drops, st->states);
}

/* "--memory-model NAME" into @mm: 1, or -EINVAL (reported). */
static int tun_mm_opt(const char *arg, enum bqlm_mm_kind *mm)
{
	const char *names[BQLM_MM_NR + 1];
	unsigned int i, v;
	int r;

	for (i = 0; i < BQLM_MM_NR; i++)
		names[i] = bqlm_mm_name(i);
	names[i] = NULL;
	r = tun_choice_opt("--memory-model", arg, names, &v);
	if (r > 0)
		*mm = v;
	return r;
}

/*
 * A system's own options: 1 if @opt is one and its value was parsed into
 * @cfg, 0 if @opt is not one of them, a negative errno for a bad value
 * (after the error, naming the range or the choices, was printed).
 */
typedef int (*tun_opt_fn)(const char *opt, const char *arg, void *cfg);

/*
 * Parse @argv: the common options into @o, the system's through @fn into
 * @cfg. @flag is the system's one option that takes no value.
 */
static int tun_parse(int argc, char **argv, struct tun_common *o,
		     const char *flag, tun_opt_fn fn, void *cfg)
{
	int i, r, takes;

	for (i = 0; i < argc; i++) {
		const char *opt = argv[i];
		const char *arg = i + 1 < argc ? argv[i + 1] : NULL;

		r = tun_common_opt(opt, arg, o, &takes);
		if (!r) {
			takes = strcmp(opt, flag) != 0;
			r = fn(opt, arg, cfg);
		}
		if (!r)
			return tun_usage("unknown option '%s'", opt);
		if (r < 0)
			return EXIT_USAGE;	/* reported */
		if (takes && !arg)
			return tun_usage("option '%s' needs an argument", opt);
		if (takes)
			i++;
	}
	return 0;
}

static int tun_opt(const char *opt, const char *arg, void *p)
{
	struct bqlm_tun_cfg *cfg = p;
	unsigned int v;
	int r;

	if (!strcmp(opt, "--variant"))
		return 1;	/* parsed first, see below */
	if (!strcmp(opt, "--memory-model"))
		return tun_mm_opt(arg, &cfg->mm);
	if (!strcmp(opt, "--queues"))
		return tun_uint_opt(opt, arg, 1, BQLM_TUN_MAX_QUEUES, &cfg->queues);
	if (!strcmp(opt, "--cpus"))
		return tun_uint_opt(opt, arg, 1, BQLM_TUN_MAX_CPUS, &cfg->cpus);
	if (!strcmp(opt, "--packets"))
		return tun_uint_opt(opt, arg, 1, BQLM_TUN_MAX_PACKETS,
				    &cfg->packets);
	if (!strcmp(opt, "--ring"))
		return tun_uint_opt(opt, arg, 1, BQLM_PTR_RING_MAX, &cfg->ring);
	if (!strcmp(opt, "--batch"))
		return tun_uint_opt(opt, arg, 0, 64, &cfg->batch);
	if (!strcmp(opt, "--reader")) {
		const char *names[BQLM_TUN_NR_READERS + 1];

		for (v = 0; v < BQLM_TUN_NR_READERS; v++)
			names[v] = bqlm_tun_reader_name(v);
		names[v] = NULL;
		r = tun_choice_opt(opt, arg, names, &v);
		if (r > 0)
			cfg->reader = v;
		return r;
	}
	if (!strcmp(opt, "--backpressure")) {
		static const char *const onoff[] = { "off", "on", NULL };

		r = tun_choice_opt(opt, arg, onoff, &v);
		if (r > 0)
			cfg->backpressure = v;
		return r;
	}
	if (!strcmp(opt, "--detaches"))
		return tun_uint_opt(opt, arg, 0, 1, &cfg->detaches);
	if (!strcmp(opt, "--set-iffs"))
		return tun_uint_opt(opt, arg, 0, 2, &cfg->set_iffs);
	if (!strcmp(opt, "--resizes"))
		return tun_uint_opt(opt, arg, 0, 1, &cfg->resizes);
	if (!strcmp(opt, "--resize-to"))
		return tun_uint_opt(opt, arg, 1, BQLM_PTR_RING_MAX, &cfg->resize_to);
	if (!strcmp(opt, "--len"))
		return tun_uint_opt(opt, arg, 1, BQLM_TUN_MAX_LEN, &cfg->len);
	if (!strcmp(opt, "--noqueue")) {
		cfg->qdisc = false;
		return 1;
	}
	return 0;
}

/**
 * bqlm_cli_explore_tun() - "bqlm explore tun ..."
 * @argc: arguments after "tun"
 * @argv: them
 *
 * Return: the exit status.
 */
int bqlm_cli_explore_tun(int argc, char **argv)
{
	struct bqlm_tun_stats stats;
	struct bqlm_tun_cfg cfg;
	struct tun_common o;
	struct bqlm_xsys sys;
	const char *variant = NULL;
	int i, id, r;

	memset(&o, 0, sizeof(o));
	memset(&stats, 0, sizeof(stats));
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--variant") && i + 1 < argc)
			variant = argv[i + 1];
	if (!variant)
		return tun_usage("explore tun: --variant NAME is required (see '%s list')",
				 "bqlm");
	id = bqlm_tun_variant_by_name(variant);
	if (id < 0)
		return tun_usage("unknown tun variant '%s' (see 'bqlm list')",
				 variant);
	bqlm_tun_cfg_default(&cfg, id);
	r = tun_parse(argc, argv, &o, "--noqueue", tun_opt, &cfg);
	if (r)
		return r;
	cfg.stats = &stats;
	if (cfg.variant >= BQLM_TUN_BQL &&
	    (cfg.mm != BQLM_MM_SC || cfg.queues != 1))
		return tun_usage("the BQL study (%s) runs with one queue under sc only",
				 bqlm_tun_variant_name(cfg.variant));
	if (bqlm_tun_system(&cfg, &sys))
		return tun_usage("%s", "invalid tun configuration");

	printf("model tun, variant %s: %s\n", bqlm_tun_variant_name(cfg.variant),
	       bqlm_tun_variant_desc(cfg.variant));
	printf("bound: %u packets, %u producer cpu%s, %u queue%s, ring %u, reader %s, %s, IFF_BACKPRESSURE %s, detach %u, set_iff %u, resize %u (to %u), memory model %s",
	       cfg.packets, cfg.cpus, cfg.cpus > 1 ? "s" : "", cfg.queues,
	       cfg.queues > 1 ? "s" : "", cfg.ring,
	       bqlm_tun_reader_name(cfg.reader),
	       cfg.qdisc ? "qdisc" : "noqueue",
	       cfg.backpressure ? "on" : "off", cfg.detaches, cfg.set_iffs,
	       cfg.resizes, cfg.resize_to, bqlm_mm_name(cfg.mm));
	if (o.bounds.max_depth)
		printf(", depth %u", o.bounds.max_depth);
	printf("\n");
	return tun_run(&sys, &o, tun_figures, &stats);
}

static int xoff_opt(const char *opt, const char *arg, void *p)
{
	struct bqlm_xoff_cfg *cfg = p;

	if (!strcmp(opt, "--no-barrier")) {
		cfg->barriers = false;
		return 1;
	}
	if (!strcmp(opt, "--no-mb")) {
		static const char *const mbs[] = { "sent", "completed", NULL };
		unsigned int v;
		int r = tun_choice_opt(opt, arg, mbs, &v);

		if (r > 0 && v)
			cfg->no_completed_mb = true;
		else if (r > 0)
			cfg->no_sent_mb = true;
		return r;
	}
	if (!strcmp(opt, "--memory-model"))
		return tun_mm_opt(arg, &cfg->mm);
	if (!strcmp(opt, "--packets"))
		return tun_uint_opt(opt, arg, 1, BQLM_XOFF_MAX_PACKETS,
				    &cfg->packets);
	if (!strcmp(opt, "--len"))
		return tun_uint_opt(opt, arg, 1, 1000, &cfg->len);
	if (!strcmp(opt, "--limit"))
		return tun_uint_opt(opt, arg, 0, 2000, &cfg->limit);
	return 0;
}

/* Which of the protocol's two smp_mb() the run keeps, in words. */
static const char *xoff_barriers(const struct bqlm_xoff_cfg *cfg)
{
	bool sent = cfg->barriers && !cfg->no_sent_mb;
	bool completed = cfg->barriers && !cfg->no_completed_mb;

	if (sent && completed)
		return "with both smp_mb()";
	if (sent)
		return "WITHOUT the smp_mb() of netdev_tx_completed_queue()";
	if (completed)
		return "WITHOUT the smp_mb() of netdev_tx_sent_queue()";
	return "WITHOUT the two smp_mb()";
}

/**
 * bqlm_cli_explore_xoff() - "bqlm explore bql-xoff ..."
 * @argc: arguments after "bql-xoff"
 * @argv: them
 *
 * Return: the exit status.
 */
int bqlm_cli_explore_xoff(int argc, char **argv)
{
	struct bqlm_xoff_cfg cfg;
	struct tun_common o;
	struct bqlm_xsys sys;
	int r;

	memset(&o, 0, sizeof(o));
	bqlm_xoff_cfg_default(&cfg);
	r = tun_parse(argc, argv, &o, "--no-barrier", xoff_opt, &cfg);
	if (r)
		return r;
	if (bqlm_xoff_system(&cfg, &sys))
		return tun_usage("%s", "invalid bql-xoff configuration");
	printf("model bql-xoff: netdev_tx_sent_queue / netdev_tx_completed_queue, %s\n",
	       xoff_barriers(&cfg));
	printf("bound: %u packets of %u B, limit %u B, memory model %s",
	       cfg.packets, cfg.len, cfg.limit, bqlm_mm_name(cfg.mm));
	if (o.bounds.max_depth)
		printf(", depth %u", o.bounds.max_depth);
	printf("\n");
	return tun_run(&sys, &o, NULL, NULL);
}
