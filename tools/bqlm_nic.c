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
	unsigned int i;

	printf("nic profiles (--profile; driver, upstream commit: X^ is the bug X fixes):\n");
	for (i = 0; i < bqlm_nic_nr_profiles(); i++) {
		const struct bqlm_nic_profile *p = bqlm_nic_profile(i);

		printf("  %-24s %-16s %-14s %s\n", p->name, p->driver,
		       p->commit, p->desc);
	}
}

/**
 * bqlm_cli_nic_usage() - the nic part of "bqlm help"
 * @f: where to print
 */
void bqlm_cli_nic_usage(FILE *f)
{
	fprintf(f,
		"\n"
		"usage: bqlm explore nic [--profile NAME] [nic options]\n"
		"\n"
		"nic options (each applied on top of the profile; default profile generic):\n"
		"  --profile NAME       see 'bqlm list'\n"
		"  --queues N           tx queues, 1..%d\n"
		"  --map rr|q0          batches spread over the queues, or all on queue 0\n"
		"  --packets N          packets the stack sends, 1..%d\n"
		"  --len N              skb->len, 1..%d\n"
		"  --descs N            descriptors per packet, 1..%d\n"
		"  --ring N             descriptors per tx ring, descs..%d\n"
		"  --batch N            packets per xmit_more batch, 1..3\n"
		"  --budget N           packets per NAPI poll, 1..%d\n"
		"  --sent before-doorbell|after-doorbell   where netdev_tx_sent_queue sits\n"
		"  --sent-call plain|xmit-more   netdev_tx_sent_queue() (STACK_XOFF whatever\n"
		"                       xmit_more) or __netdev_tx_sent_queue(.., xmit_more)\n"
		"  --doorbell sent-queue|xmit-stopped|xmit-more|always   what rings it\n"
		"                       (sent-queue needs --sent-call xmit-more)\n"
		"  --ring-stop before-sent|after-sent|after-doorbell   where the ring-full stop sits\n"
		"  --completers napi|napi+xmit             who completes\n"
		"  --napi-txlock on|off  the NAPI poll holds the tx lock\n"
		"  --rx-cleanup on|off  the RX poll cleans the tx ring under a trylock\n"
		"  --completed-bytes skb-len|bd-sum        what the poll reports\n"
		"  --xdp-frames N       XDP_TX frames on the last queue, 0..2\n"
		"  --xdp-bql uncounted|counted|completed-only   XDP frames and BQL\n"
		"  --close OPS, --open OPS, --reconfig OPS, --timeout OPS,\n"
		"  --suspend OPS, --resume OPS\n"
		"                       each path's calls in order, comma-separated:\n"
		"                       stop napi-off dma-off drain reset reset0\n"
		"                       dma-on napi-on wake, or none\n"
		"  --stops N, --reconfigs N, --timeouts N, --suspends N   cycles, 0..2\n"
		"common: --depth N (1..65534), --max-states N (1..16777216), --strict,\n"
		"        --all-traces, --no-trace, --json FILE, --no-reduction,\n"
		"        --compare-full, --max-memory N\n",
		BQLM_NIC_MAX_QUEUES, BQLM_NIC_MAX_PACKETS, BQLM_NIC_MAX_LEN,
		BQLM_NIC_MAX_DESCS, BQLM_NIC_MAX_RING, BQLM_NIC_MAX_RING);
}

struct nic_opts {
	struct bqlm_nic_cfg cfg;
	struct bqlm_xbounds bounds;
	bool all_traces;
	bool no_trace;
};

static int nic_usage(const char *fmt, const char *arg)
{
	return bqlm_cli_usage("bqlm", fmt, arg);
}

/* A number in [lo, hi], or a usage error that says the range. */
static int nic_uint(const char *opt, const char *arg, unsigned long lo,
		    unsigned long hi, unsigned int *out)
{
	return bqlm_cli_opt_uint("bqlm", opt, arg, lo, hi, out);
}

/* One of @names (NULL-terminated), its index in *@out. */
static int nic_choice(const char *opt, const char *arg,
		      const char *const *names, unsigned int *out)
{
	return bqlm_cli_opt_choice("bqlm", opt, arg, names, out);
}

static int nic_bool(const char *opt, const char *arg, bool *out)
{
	static const char *const names[] = { "off", "on", NULL };
	unsigned int v;
	int r = nic_choice(opt, arg, names, &v);

	if (!r)
		*out = v;
	return r;
}

static const char *const nic_path_opts[BQLM_NIC_NR_PATHS] = {
	"--close", "--open", "--reconfig", "--timeout", "--suspend",
	"--resume",
};

/* The options that take a value; 1 if @opt is not one of them. */
static int nic_opt(const char *opt, const char *arg, struct nic_opts *o)
{
	static const char *const map[] = { "rr", "q0", NULL };
	static const char *const sent[] = {
		"before-doorbell", "after-doorbell", NULL };
	static const char *const call[] = { "plain", "xmit-more", NULL };
	static const char *const kick[] = {
		"sent-queue", "xmit-stopped", "xmit-more", "always", NULL };
	static const char *const stop[] = {
		"before-sent", "after-sent", "after-doorbell", NULL };
	static const char *const xdp[] = {
		"uncounted", "counted", "completed-only", NULL };
	static const char *const compl[] = { "napi", "napi+xmit", NULL };
	static const char *const bytes[] = { "skb-len", "bd-sum", NULL };
	struct bqlm_nic_cfg *c = &o->cfg;
	unsigned int v = 0, p;
	int r;

	if (!strcmp(opt, "--queues"))
		return nic_uint(opt, arg, 1, BQLM_NIC_MAX_QUEUES, &c->queues);
	if (!strcmp(opt, "--packets"))
		return nic_uint(opt, arg, 1, BQLM_NIC_MAX_PACKETS, &c->packets);
	if (!strcmp(opt, "--len"))
		return nic_uint(opt, arg, 1, BQLM_NIC_MAX_LEN, &c->len);
	if (!strcmp(opt, "--descs"))
		return nic_uint(opt, arg, 1, BQLM_NIC_MAX_DESCS, &c->descs);
	if (!strcmp(opt, "--ring"))
		return nic_uint(opt, arg, 1, BQLM_NIC_MAX_RING, &c->ring);
	if (!strcmp(opt, "--batch"))
		return nic_uint(opt, arg, 1, 3, &c->batch);
	if (!strcmp(opt, "--budget"))
		return nic_uint(opt, arg, 1, BQLM_NIC_MAX_RING, &c->budget);
	if (!strcmp(opt, "--xdp-frames"))
		return nic_uint(opt, arg, 0, 2, &c->xdp_frames);
	if (!strcmp(opt, "--stops"))
		return nic_uint(opt, arg, 0, 2, &c->stops);
	if (!strcmp(opt, "--reconfigs"))
		return nic_uint(opt, arg, 0, 2, &c->reconfigs);
	if (!strcmp(opt, "--timeouts"))
		return nic_uint(opt, arg, 0, 2, &c->timeouts);
	if (!strcmp(opt, "--suspends"))
		return nic_uint(opt, arg, 0, 2, &c->suspends);
	if (!strcmp(opt, "--depth"))
		return nic_uint(opt, arg, 1, 65534, &o->bounds.max_depth);
	if (!strcmp(opt, "--max-states"))
		return nic_uint(opt, arg, 1, 1U << 24, &o->bounds.max_states);
	if (!strcmp(opt, "--napi-txlock"))
		return nic_bool(opt, arg, &c->napi_txlock);
	if (!strcmp(opt, "--rx-cleanup"))
		return nic_bool(opt, arg, &c->rx_cleanup);
	r = 1;
	if (!strcmp(opt, "--map")) {
		r = nic_choice(opt, arg, map, &v);
		c->map = r ? c->map : v;
	} else if (!strcmp(opt, "--sent")) {
		r = nic_choice(opt, arg, sent, &v);
		c->sent = r ? c->sent : v;
	} else if (!strcmp(opt, "--sent-call")) {
		r = nic_choice(opt, arg, call, &v);
		c->sent_call = r ? c->sent_call : v;
	} else if (!strcmp(opt, "--doorbell")) {
		r = nic_choice(opt, arg, kick, &v);
		c->doorbell = r ? c->doorbell : v;
	} else if (!strcmp(opt, "--ring-stop")) {
		r = nic_choice(opt, arg, stop, &v);
		c->stopcheck = r ? c->stopcheck : v;
	} else if (!strcmp(opt, "--completers")) {
		r = nic_choice(opt, arg, compl, &v);
		c->completers = r ? c->completers : v;
	} else if (!strcmp(opt, "--completed-bytes")) {
		r = nic_choice(opt, arg, bytes, &v);
		c->bytes = r ? c->bytes : v;
	} else if (!strcmp(opt, "--xdp-bql")) {
		r = nic_choice(opt, arg, xdp, &v);
		c->xdp = r ? c->xdp : v;
	}
	if (r != 1)
		return r;
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++) {
		if (strcmp(opt, nic_path_opts[p]))
			continue;
		if (bqlm_nic_parse_ops(arg, c->ops[p], &c->nr_ops[p]))
			return nic_usage("bad call list for %s (see 'bqlm help')",
					 opt);
		return 0;
	}
	return 1;
}

static int nic_parse(int argc, char **argv, struct nic_opts *o)
{
	const char *profile = "generic";
	int i, id, r;

	memset(o, 0, sizeof(*o));
	for (i = 0; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--profile"))
			profile = argv[i + 1];
	id = bqlm_nic_profile_by_name(profile);
	if (id < 0)
		return nic_usage("unknown nic profile '%s' (see 'bqlm list')",
				 profile);
	bqlm_nic_cfg_profile(&o->cfg, id);
	for (i = 0; i < argc; i++) {
		const char *opt = argv[i];
		const char *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--all-traces")) {
			o->all_traces = true;
			continue;
		}
		if (!strcmp(opt, "--no-trace")) {
			o->no_trace = true;
			continue;
		}
		if (!strcmp(opt, "--strict")) {
			o->bounds.strict = true;
			continue;
		}
		if (!arg && !strncmp(opt, "--", 2))
			return nic_usage("option '%s' needs an argument", opt);
		if (!strcmp(opt, "--profile")) {
			i++;
			continue;
		}
		r = arg ? nic_opt(opt, arg, o) : 1;
		if (r == 1)
			return nic_usage("unknown option '%s'", opt);
		if (r)
			return r;
		i++;
	}
	if (o->cfg.ring < o->cfg.descs)
		return nic_usage("%s", "--ring must be at least --descs");
	if (o->cfg.doorbell == BQLM_NIC_KICK_SENT_QUEUE &&
	    o->cfg.sent_call != BQLM_NIC_CALL_XMIT_MORE)
		return nic_usage("%s",
				 "--doorbell sent-queue needs --sent-call xmit-more (the plain call returns nothing)");
	if (bqlm_nic_cfg_check(&o->cfg))
		return nic_usage("%s", "invalid nic configuration");
	return 0;
}

static void nic_header(const char *profile, const struct nic_opts *o)
{
	static const char *const sent[] = { "before", "after" };
	static const char *const call[] = {
		"netdev_tx_sent_queue", "__netdev_tx_sent_queue(xmit_more)" };
	static const char *const kick[] = {
		"__netdev_tx_sent_queue()", "!xmit_more || netif_xmit_stopped()",
		"!xmit_more", "every packet" };
	static const char *const stop[] = {
		"before netdev_tx_sent_queue", "after netdev_tx_sent_queue",
		"after the doorbell" };
	static const char *const xdp[] = {
		"uncounted", "counted", "completed only" };
	const struct bqlm_nic_cfg *c = &o->cfg;
	char ops[96];
	unsigned int p;

	printf("model nic, profile %s\n", profile);
	printf("bound: %u packets of %u B (%u desc), %u queue%s (%s), ring %u, xmit_more batch %u, budget %u\n",
	       c->packets, c->len, c->descs, c->queues,
	       c->queues > 1 ? "s" : "", c->map == BQLM_NIC_MAP_RR ? "rr" : "q0",
	       c->ring, c->batch, c->budget);
	printf("xmit: %s %s the doorbell, ring-full stop %s, doorbell on %s\n",
	       call[c->sent_call], sent[c->sent], stop[c->stopcheck],
	       kick[c->doorbell]);
	printf("completion: %s%s%s, %s; XDP_TX frames %u (%s)\n",
	       c->completers == BQLM_NIC_COMPLETE_NAPI ? "NAPI" :
	       "NAPI and ndo_start_xmit", c->napi_txlock ?
	       " (poll under the tx lock)" : "",
	       c->rx_cleanup ? ", RX poll under a trylock" : "",
	       c->bytes == BQLM_NIC_BYTES_SKB_LEN ? "skb->len" :
	       "descriptor sum if a packet ended", c->xdp_frames,
	       xdp[c->xdp]);
	printf("paths (cycles: close %u, reconfig %u, timeout %u, suspend %u):",
	       c->stops, c->reconfigs, c->timeouts, c->suspends);
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++) {
		bqlm_nic_format_ops(c->ops[p], c->nr_ops[p], ops, sizeof(ops));
		printf("%s %s=%s", p ? "," : "", bqlm_nic_path_name(p), ops);
	}
	if (o->bounds.max_depth)
		printf("; depth %u", o->bounds.max_depth);
	printf("\n");
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
	struct bqlm_xsys sys;
	struct nic_opts o;
	const char *profile = "generic";
	int i, r;

	r = nic_parse(argc, argv, &o);
	if (r)
		return r;
	for (i = 0; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--profile"))
			profile = argv[i + 1];
	if (bqlm_nic_system(&o.cfg, &sys))
		return nic_usage("%s", "invalid nic configuration");
	nic_header(profile, &o);
	{
		struct bqlm_cli_explore e = {
			.sys = &sys, .bounds = &o.bounds,
			.no_trace = o.no_trace, .all_traces = o.all_traces,
		};

		return bqlm_cli_run_explore(&e);
	}
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
