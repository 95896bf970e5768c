// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - the ring-consumer (tun, veth) and bql-xoff systems of the
 * command line front end, each read through its option table.
 *
 *   bqlm explore tun --variant NAME [tun options]
 *   bqlm explore bql-xoff [bql-xoff options]
 *
 * The variant (a profile of the model) sets every option; any option
 * given as well is applied on top of it, whatever the order on the
 * command line. Exit status as tools/bqlm.c: 0 no violation, 1 violation,
 * 2 bad usage, 3 the exploration did not finish, 4 internal error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/memory_model.h>
#include <bqlm/tun.h>
#include <bqlm/bql_xoff.h>

#include "cli.h"
#include "bqlm_tun.h"

/**
 * bqlm_cli_tun_models() - the tun and bql-xoff lines of "bqlm list"
 */
void bqlm_cli_tun_models(void)
{
	printf("  tun      ring consumers: drivers/net/tun.c's transmit side and its flow-control designs, veth's peer NAPI; weak memory\n");
	printf("  bql-xoff the netdev_tx_sent_queue / netdev_tx_completed_queue XOFF protocol, weak memory\n");
}

/**
 * bqlm_cli_tun_list() - the tun variants and memory models of "bqlm list"
 */
void bqlm_cli_tun_list(void)
{
	bqlm_cli_model_list(bqlm_tun_options(),
			    "tun variants (--variant; driver, upstream commit: X^ is the bug X fixes):");
	printf("memory models (--memory-model):\n");
	printf("  sc    sequential consistency\n");
	printf("  tso   FIFO store buffers, LKMM atomics (set_bit unordered, test_and_clear_bit a full barrier)\n");
	printf("  pso   as tso, stores to different variables may reach memory out of order\n");
	printf("  x86   x86-TSO: every locked instruction (all atomic bitops, spin_lock) drains the buffer\n");
}

/**
 * bqlm_cli_tun_usage() - the tun part of "bqlm help"
 * @f: where to print
 */
void bqlm_cli_tun_usage(FILE *f)
{
	bqlm_cli_model_help(f, bqlm_tun_options(),
			    "\nusage: bqlm explore tun --variant NAME [tun options]\n"
			    "  a variant is a design (bqlm list); each option below changes one of its\n"
			    "  properties, and one that would have no effect is refused");
}

/**
 * bqlm_cli_xoff_usage() - the bql-xoff part of "bqlm help"
 * @f: where to print
 */
void bqlm_cli_xoff_usage(FILE *f)
{
	bqlm_cli_model_help(f, bqlm_xoff_options(),
			    "\nusage: bqlm explore bql-xoff [bql-xoff options]");
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

/* Run @sys with the report's text form @opts; return the exit status. */
static int tun_run(const struct bqlm_xsys *sys,
		   const struct bqlm_cli_common *c, const char *opts,
		   void (*figures)(const void *arg), const void *arg)
{
	struct bqlm_cli_explore e = {
		.sys = sys, .bounds = &c->bounds, .no_trace = c->no_trace,
		.all_traces = c->all_traces, .figures = figures, .arg = arg,
		.options = opts,
	};

	return bqlm_cli_run_explore(&e);
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
	const struct bqlm_opts *t = bqlm_tun_options();
	struct bqlm_tun_stats stats;
	struct bqlm_cli_common c;
	struct bqlm_tun_cfg cfg;
	struct bqlm_xsys sys;
	const char *variant;
	char err[256], *opts;
	int r;

	memset(&stats, 0, sizeof(stats));
	r = bqlm_cli_model_parse("bqlm", t, &cfg, argc, argv, &c, NULL, NULL,
				 &variant);
	if (r)
		return r;
	if (c.sweep)
		return bqlm_cli_sweep(t, &cfg, &c, variant);
	if (bqlm_tun_cfg_why(&cfg, true, err, sizeof(err)))
		return bqlm_cli_usage("bqlm", "%s", err);
	cfg.stats = &stats;
	if (bqlm_tun_system(&cfg, &sys)) {
		fprintf(stderr, "bqlm: internal error: a checked tun configuration refused\n");
		return EXIT_INTERNAL;
	}
	opts = bqlm_cli_model_options(t, &cfg, 0);
	printf("model tun, variant %s: %s\n", variant,
	       bqlm_tun_variant_desc(cfg.variant));
	printf("bound: %u packets, %u producer cpu%s, %u queue%s, ring %u, reader %s, %s, IFF_BACKPRESSURE %s, detach %u, set_iff %u, resize %u (to %u), memory model %s",
	       cfg.packets, cfg.cpus, cfg.cpus > 1 ? "s" : "", cfg.queues,
	       cfg.queues > 1 ? "s" : "", cfg.ring,
	       bqlm_tun_reader_name(cfg.reader),
	       cfg.qdisc ? "qdisc" : "noqueue",
	       cfg.backpressure ? "on" : "off", cfg.detaches, cfg.set_iffs,
	       cfg.resizes, cfg.resize_to, bqlm_mm_name(cfg.mm));
	if (cfg.reader == BQLM_TUN_NAPI)
		printf(", budget %u", cfg.budget);
	if (c.bounds.max_depth)
		printf(", depth %u", c.bounds.max_depth);
	printf("\noptions: %s\n", opts ? opts : "?");
	r = tun_run(&sys, &c, opts, tun_figures, &stats);
	free(opts);
	return r;
}

/* Which of the protocol's two smp_mb() the run keeps, in words. */
static const char *xoff_barriers(const struct bqlm_xoff_cfg *cfg)
{
	if (cfg->sent_mb && cfg->completed_mb)
		return "with both smp_mb()";
	if (cfg->sent_mb)
		return "WITHOUT the smp_mb() of netdev_tx_completed_queue()";
	if (cfg->completed_mb)
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
	const struct bqlm_opts *t = bqlm_xoff_options();
	struct bqlm_cli_common c;
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xsys sys;
	const char *none;
	char *opts;
	int r;

	r = bqlm_cli_model_parse("bqlm", t, &cfg, argc, argv, &c, NULL, NULL,
				 &none);
	if (r)
		return r;
	if (bqlm_xoff_system(&cfg, &sys)) {
		fprintf(stderr, "bqlm: internal error: a checked bql-xoff configuration refused\n");
		return EXIT_INTERNAL;
	}
	opts = bqlm_cli_model_options(t, &cfg, 0);
	printf("model bql-xoff: netdev_tx_sent_queue / netdev_tx_completed_queue, %s\n",
	       xoff_barriers(&cfg));
	printf("bound: %u packets of %u B, limit %u B, memory model %s",
	       cfg.packets, cfg.len, cfg.limit, bqlm_mm_name(cfg.mm));
	if (c.bounds.max_depth)
		printf(", depth %u", c.bounds.max_depth);
	printf("\noptions: %s\n", opts ? opts : "?");
	r = tun_run(&sys, &c, opts, NULL, NULL);
	free(opts);
	return r;
}
