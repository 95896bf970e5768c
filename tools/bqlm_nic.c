// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - the NIC model of the command line front end.
 *
 *   bqlm explore nic [--profile NAME] [options]
 *
 * The profile sets every option; any option given as well is applied on
 * top of it, whatever the order on the command line. Exit status as
 * tools/bqlm.c: 0 no violation, 1 violation, 2 bad usage, 3 the
 * exploration did not finish, 4 internal error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/nic.h>

#include "cli.h"
#include "bqlm_nic.h"

/**
 * bqlm_cli_nic_models() - the nic line of "bqlm list"
 */
void bqlm_cli_nic_models(void)
{
	printf("  nic      a NAPI Ethernet / virtual NIC transmit path: xmit_more, multiqueue, reset paths\n");
}

/**
 * bqlm_cli_nic_list() - the nic profiles of "bqlm list"
 */
void bqlm_cli_nic_list(void)
{
	bqlm_cli_model_list(bqlm_nic_options(),
			    "nic profiles (--profile; driver, upstream commit: X^ is the bug X fixes):");
}

/**
 * bqlm_cli_nic_usage() - the nic part of "bqlm help"
 * @f: where to print
 */
void bqlm_cli_nic_usage(FILE *f)
{
	char usage[1024];
	size_t n, w = 66;
	unsigned int op;

	/* every call of bqlm_nic_ops[], from the table itself */
	n = snprintf(usage, sizeof(usage),
		     "\nusage: bqlm explore nic [--profile NAME] [nic options]\n"
		     "  reset-path OPS, comma-separated, or none:");
	for (op = 0; op < BQLM_NIC_NR_OPS && n < sizeof(usage); op++) {
		const char *name = bqlm_nic_op_name(op);

		if (w + strlen(name) > 66) {
			n += snprintf(usage + n, sizeof(usage) - n, "\n   ");
			w = 0;
		}
		w += strlen(name) + 1;
		n += snprintf(usage + n, sizeof(usage) - n, " %s", name);
	}
	bqlm_cli_model_help(f, bqlm_nic_options(), usage);
}

struct nic_opts {
	struct bqlm_nic_cfg cfg;
	struct bqlm_cli_common c;
	const char *profile;
};

static int nic_usage(const char *fmt, const char *arg)
{
	return bqlm_cli_usage("bqlm", fmt, arg);
}

static int nic_parse(int argc, char **argv, struct nic_opts *o)
{
	memset(o, 0, sizeof(*o));
	return bqlm_cli_model_parse("bqlm", bqlm_nic_options(), &o->cfg, argc,
				    argv, &o->c, NULL, NULL, &o->profile);
}

/* What the value of option @name in @c stands for (its option's says[]). */
static const char *nic_says(const char *name, const struct bqlm_nic_cfg *c)
{
	const struct bqlm_opt *o = bqlm_opt_find(bqlm_nic_options(), name);

	return o ? bqlm_opt_says(o, c) : "?";
}

static void nic_header(const char *profile, const struct nic_opts *o)
{
	const struct bqlm_nic_cfg *c = &o->cfg;
	char buf[BQLM_OPT_TEXT_MAX];
	unsigned int p;

	printf("model nic, profile %s\n", profile);
	bqlm_cli_model_bound(bqlm_nic_options(), c, buf, sizeof(buf));
	printf("bound: %s", buf);
	if (o->c.bounds.max_depth)
		printf("; depth %u", o->c.bounds.max_depth);
	printf("\n");
	printf("packets: %u B, %u desc, %s", c->len, c->descs,
	       c->map == BQLM_NIC_MAP_RR ? "batches spread over the queues" :
	       "all on queue 0");
	if (c->gso != BQLM_NIC_GSO_SAME)
		printf("; GSO: sent %u B, completed %u B",
		       c->len + (c->gso == BQLM_NIC_GSO_SENT_WIRE ?
				 BQLM_NIC_GSO_HDRS : 0),
		       c->len + (c->gso == BQLM_NIC_GSO_COMPLETED_WIRE ?
				 BQLM_NIC_GSO_HDRS : 0));
	printf("\n");
	printf("xmit: %s %s the doorbell, ring-full stop %s, doorbell on %s; no room: %s\n",
	       nic_says("sent-call", c), nic_says("sent", c),
	       nic_says("ring-stop", c), nic_says("doorbell", c),
	       nic_says("tx-busy", c));
	printf("stop/wake: %s, %s (thresholds stop %u, restart %u, wake %u free descriptors); %s\n",
	       nic_says("drv-stop", c), nic_says("drv-wake", c),
	       c->stop_thresh ? c->stop_thresh : c->descs,
	       c->restart_thresh ? c->restart_thresh :
	       c->wake_thresh ? c->wake_thresh : c->descs,
	       c->wake_thresh ? c->wake_thresh : c->descs,
	       bqlm_nic_split(c) ? "each cut at its barriers" :
	       "each one step (the helpers under sc)");
	printf("completion: %s%s%s, %s; XDP_TX frames %u (%s)\n",
	       c->completion == BQLM_NIC_COMPLETION_IRQ ? "hard IRQ handler" :
	       c->completers == BQLM_NIC_COMPLETE_NAPI ? "NAPI" :
	       "NAPI and ndo_start_xmit", c->napi_txlock ?
	       " (poll under the tx lock)" : "",
	       c->rx_cleanup ? ", RX poll under a trylock" : "",
	       nic_says("completed-bytes", c), c->xdp_frames,
	       nic_says("xdp-bql", c));
	printf("paths:");
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++) {
		bqlm_nic_format_ops(c->ops[p], c->nr_ops[p], buf, sizeof(buf));
		printf("%s %s=%s", p ? "," : "", bqlm_nic_path_name(p), buf);
	}
	printf("\n");
}

/*
 * Without --packets on the command line, the bound is raised to the
 * packets at which every queue's ring fills (bqlm_nic_fill_packets()).
 */
static void nic_fill(struct nic_opts *o)
{
	const struct bqlm_opts *t = bqlm_nic_options();
	const struct bqlm_opt *p = bqlm_opt_find(t, "packets");
	unsigned int fill = bqlm_nic_fill_packets(&o->cfg);

	if (!p || (o->c.given & bqlm_opt_covers(t, p)) ||
	    fill <= o->cfg.packets)
		return;
	fprintf(stderr,
		"bqlm: note: --packets %u (not %u): the fewest with which every queue's ring fills and its DQL limit grows; --packets N explores another bound\n",
		fill, o->cfg.packets);
	o->cfg.packets = fill;
}

/*
 * After an OK: the stated paths the search took, and those it never did
 * (exit EXIT_UNREACHED: the OK does not cover them).
 */
static int nic_reached(const struct bqlm_nic_cfg *cfg,
		       const struct bqlm_nic_reach *reach)
{
	char buf[1024];

	bqlm_nic_reach_describe(reach, cfg, false, buf, sizeof(buf));
	printf("reached: %s\n", buf);
	if (bqlm_nic_reach_all(reach))
		return 0;
	bqlm_nic_reach_describe(reach, cfg, true, buf, sizeof(buf));
	printf("UNREACHED: stated but never taken at this bound: %s; the OK does not cover them (exit %d)\n",
	       buf, EXIT_UNREACHED);
	return EXIT_UNREACHED;
}

/* A configuration and its reach, as the sweep records them. */
struct nic_sweep_ctx {
	struct bqlm_nic_xctx x;
	struct bqlm_nic_reach reach;
};

static int nic_sweep_system(const void *cfg, void *ctx, struct bqlm_xsys *sys)
{
	struct nic_sweep_ctx *s = ctx;

	memcpy(&s->x.cfg, cfg, sizeof(s->x.cfg));
	s->x.reach = &s->reach;
	bqlm_nic_reach_stated(&s->x.cfg, &s->reach);
	return bqlm_nic_system_reach(&s->x, sys);
}

static void nic_sweep_merge(void *acc, const void *ctx)
{
	struct nic_sweep_ctx *a = acc;
	const struct nic_sweep_ctx *s = ctx;
	unsigned int p;

	a->reach.reached |= s->reach.reached;
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++)
		a->reach.ops_reached[p] |= s->reach.ops_reached[p];
}

/* After an OK sweep: the paths the command line states that none took. */
static int nic_sweep_report(const void *acc)
{
	const struct nic_sweep_ctx *a = acc;
	char buf[1024];

	if (bqlm_nic_reach_all(&a->reach))
		return 0;
	bqlm_nic_reach_describe(&a->reach, &a->x.cfg, true, buf, sizeof(buf));
	printf("UNREACHED over the sweep: stated but never taken at any bound it explored: %s; the OK does not cover them (exit %d)\n",
	       buf, EXIT_UNREACHED);
	return EXIT_UNREACHED;
}

static const struct bqlm_cli_reach nic_sweep_reach = {
	.size = sizeof(struct nic_sweep_ctx),
	.system = nic_sweep_system,
	.merge = nic_sweep_merge,
	.report = nic_sweep_report,
};

/* The exit status of an OK: EXIT_UNREACHED when a stated path was not. */
static int nic_ok_status(const void *arg)
{
	return bqlm_nic_reach_all(arg) ? 0 : EXIT_UNREACHED;
}

/**
 * bqlm_cli_explore_nic() - "bqlm explore nic ..."
 * @argc: arguments after "nic"
 * @argv: them
 *
 * Return: the exit status.
 */
int bqlm_cli_explore_nic(int argc, char **argv)
{
	struct bqlm_nic_reach reach;
	struct bqlm_nic_xctx x;
	struct bqlm_xsys sys;
	struct nic_opts o;
	char *opts;
	int r;

	r = nic_parse(argc, argv, &o);
	if (r)
		return r;
	if (o.c.sweep)
		return bqlm_cli_sweep_reach(bqlm_nic_options(), &o.cfg, &o.c,
					    o.profile, &nic_sweep_reach);
	nic_fill(&o);
	x.cfg = o.cfg;
	x.reach = &reach;
	bqlm_nic_reach_stated(&o.cfg, &reach);
	if (bqlm_nic_system_reach(&x, &sys))
		return nic_usage("%s", "invalid nic configuration");
	opts = bqlm_cli_model_options(bqlm_nic_options(), &o.cfg, 0);
	nic_header(o.profile, &o);
	printf("options: %s\n", opts ? opts : "?");
	{
		struct bqlm_cli_explore e = {
			.sys = &sys, .bounds = &o.c.bounds,
			.no_trace = o.c.no_trace, .all_traces = o.c.all_traces,
			.options = opts, .opts = bqlm_nic_options(),
			.cfg = &o.cfg, .ok_status = nic_ok_status,
			.ok_arg = &reach,
		};

		r = bqlm_cli_run_explore(&e);
	}
	free(opts);
	if ((!r || r == EXIT_UNREACHED) && !o.c.bounds.max_depth)
		r = nic_reached(&o.cfg, &reach);
	return r;
}

/* A larger bound than the profiles', for throughput figures. */
static const struct {
	const char *name;
	const char *profile;
	unsigned int queues, packets, reconfigs, timeouts, suspends, xdp;
} nic_bench_runs[] = {
	{ "generic, 4 pkts, every path, XDP", "generic", 1, 4, 1, 1, 1, 1 },
	{ "generic, 2 queues, 4 pkts, reconfig", "generic", 2, 4, 1, 0, 0, 0 },
	{ "virtio_net fixed, 5 pkts, reconfig", "virtio-net-3ddccbefebdb",
	  1, 5, 1, 0, 0, 0 },
};

/**
 * bqlm_cli_nic_bench() - the nic part of "bqlm bench": explorer throughput
 *
 * Prints, for a few bounds larger than the profiles', the states and
 * transitions, the wall time, states per second, the state size and the
 * bytes the explorer stores states in (states times state size).
 */
void bqlm_cli_nic_bench(void)
{
	unsigned int i;

	printf("explorer throughput, nic:\n");
	printf("  %-38s %9s %11s %8s %11s %7s %9s  %s\n", "bound", "states",
	       "transitions", "time s", "states/s", "state B", "store KiB",
	       "verdict");
	for (i = 0; i < ARRAY_SIZE(nic_bench_runs); i++) {
		struct bqlm_xbounds bounds = { 0 };
		struct bqlm_nic_cfg cfg;
		struct bqlm_xresult res;
		struct bqlm_xsys sys;
		double secs = 0;
		struct bqlm_cli_explore e = {
			.sys = &sys, .bounds = &bounds, .quiet = true,
			.res = &res, .secs = &secs,
		};

		bqlm_nic_cfg_profile(&cfg, bqlm_nic_profile_by_name(
					     nic_bench_runs[i].profile));
		cfg.queues = nic_bench_runs[i].queues;
		cfg.packets = nic_bench_runs[i].packets;
		cfg.reconfigs = nic_bench_runs[i].reconfigs;
		cfg.timeouts = nic_bench_runs[i].timeouts;
		cfg.suspends = nic_bench_runs[i].suspends;
		cfg.xdp_frames = nic_bench_runs[i].xdp;
		if (bqlm_nic_system(&cfg, &sys) ||
		    bqlm_cli_run_explore(&e) == EXIT_INTERNAL)
			continue;
		printf("  %-38s %9llu %11llu %8.3f %11.0f %7zu %9.0f  %s\n",
		       nic_bench_runs[i].name, res.states, res.transitions,
		       secs, secs > 0 ? res.states / secs : 0.0,
		       sys.state_size,
		       res.states * (double)sys.state_size / 1024,
		       bqlm_check_name(bqlm_xresult_verdict(&res)));
	}
}
