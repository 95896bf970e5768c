// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - command line front end of the bqlmodel explorer.
 *
 *   bqlm list
 *   bqlm explore usbnet --variant NAME [options]
 *   bqlm bench [--packets N] [--reps N]
 *
 * Exit status: 0 no violation, 1 violation, 2 bad usage, 3 the exploration
 * did not finish (state bound or memory), 4 internal error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bqlm/dql.h>
#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/usbnet.h>

#include "bqlm_tun.h"
#include "bqlm_sim.h"

#define EXIT_VIOLATION	1
#define EXIT_USAGE	2
#define EXIT_INCOMPLETE	3
#define EXIT_INTERNAL	4

#define MAX_PATH_LEN	4096

static const char *prog = "bqlm";

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: %s list\n"
		"       %s explore usbnet --variant NAME [options]\n"
		"       %s bench [--packets N] [--reps N]\n"
		"\n"
		"explore options:\n"
		"  --variant NAME     no-bql, v1, merged, fix-reset, fixed (required)\n"
		"  --packets N        packets the stack sends, 1..%d (default 3)\n"
		"  --lens A[,B]       packet lengths in bytes (default 1514)\n"
		"  --fixup KIND       tx_fixup: none, pad, multi (default none)\n"
		"  --avoid-unlink     FLAG_AVOID_UNLINK_URBS (as aqc111)\n"
		"  --tx-qlen N        TX_QLEN (default 2)\n"
		"  --stops N          ifdown/ifup cycles, 0..3 (default 1)\n"
		"  --suspends N       suspend/resume cycles, 0..3 (default 1)\n"
		"  --timeouts N       watchdog timeouts, 0..3 (default 1)\n"
		"  --statuses LIST    completion statuses: ok,eproto,epipe (default all)\n"
		"  --depth N          do not expand states at depth N (default none)\n"
		"  --max-states N     state bound (default 16777216)\n"
		"  --strict           stop at every violation, not only fatal ones\n"
		"  --all-traces       a trace for every violated check (default: the\n"
		"                     verdict and every other fatal one)\n"
		"  --no-trace         print no trace\n"
		"\n"
		"exit status: 0 no violation, 1 violation, 2 bad usage,\n"
		"             3 exploration incomplete (bound), 4 internal error\n",
		prog, prog, prog, BQLM_USBNET_MAX_PACKETS);
	bqlm_cli_tun_usage(f);
	bqlm_cli_sim_usage(f);
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s help'.\n", prog);
	return EXIT_USAGE;
}

/* A decimal number in [lo, hi], the whole string. */
static int parse_uint(const char *s, unsigned long lo, unsigned long hi,
		      unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_list(void)
{
	unsigned int v;

	printf("models:\n  usbnet   drivers/net/usb/usbnet.c transmit side (Linux 6.12 + BQL)\n");
	bqlm_cli_tun_models();
	printf("usbnet variants:\n");
	for (v = 0; v < BQLM_USBNET_NR_VARIANTS; v++)
		printf("  %-10s %s\n", bqlm_usbnet_variant_name(v),
		       bqlm_usbnet_variant_desc(v));
	bqlm_cli_tun_list();
	return 0;
}

struct explore_opts {
	struct bqlm_usbnet_cfg cfg;
	struct bqlm_xbounds bounds;
	bool all_traces;
	bool no_trace;
};

static int parse_lens(const char *s, struct bqlm_usbnet_cfg *cfg)
{
	char buf[64], *tok, *save = NULL;
	unsigned int n = 0, v;

	if (!s || snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == BQLM_USBNET_MAX_LENS || parse_uint(tok, 1, 4000, &v))
			return -EINVAL;
		cfg->lens[n++] = v;
	}
	if (!n)
		return -EINVAL;
	cfg->nr_lens = n;
	return 0;
}

static int parse_statuses(const char *s, struct bqlm_usbnet_cfg *cfg)
{
	char buf[64], *tok, *save = NULL;
	unsigned int mask = 1U << BQLM_USBNET_ST_OK;

	if (!s || snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "ok"))
			mask |= 1U << BQLM_USBNET_ST_OK;
		else if (!strcmp(tok, "eproto"))
			mask |= 1U << BQLM_USBNET_ST_EPROTO;
		else if (!strcmp(tok, "epipe"))
			mask |= 1U << BQLM_USBNET_ST_EPIPE;
		else
			return -EINVAL;
	}
	cfg->statuses = mask;
	return 0;
}

static int parse_explore(int argc, char **argv, struct explore_opts *o)
{
	const char *variant = NULL;
	int i, id;

	memset(o, 0, sizeof(*o));
	bqlm_usbnet_cfg_default(&o->cfg, BQLM_USBNET_NO_BQL);
	/* first pass: the variant, which sets the defaults */
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--variant") && i + 1 < argc)
			variant = argv[i + 1];
	if (!variant)
		return bad_usage("explore usbnet: --variant NAME is required (see '%s list')",
				 prog);
	id = bqlm_usbnet_variant_by_name(variant);
	if (id < 0)
		return bad_usage("unknown variant '%s' (see 'bqlm list')",
				 variant);
	bqlm_usbnet_cfg_default(&o->cfg, id);

	for (i = 0; i < argc; i++) {
		const char *opt = argv[i];
		const char *arg = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;
		int err = 0;

		if (!strcmp(opt, "--variant")) {
			/* done above */
		} else if (!strcmp(opt, "--packets")) {
			err = parse_uint(arg, 1, BQLM_USBNET_MAX_PACKETS,
					 &o->cfg.packets);
		} else if (!strcmp(opt, "--lens")) {
			err = parse_lens(arg, &o->cfg);
		} else if (!strcmp(opt, "--fixup")) {
			if (arg && !strcmp(arg, "none"))
				o->cfg.fixup = BQLM_USBNET_FIXUP_NONE;
			else if (arg && !strcmp(arg, "pad"))
				o->cfg.fixup = BQLM_USBNET_FIXUP_PAD;
			else if (arg && !strcmp(arg, "multi"))
				o->cfg.fixup = BQLM_USBNET_FIXUP_MULTI;
			else
				err = -EINVAL;
		} else if (!strcmp(opt, "--tx-qlen")) {
			err = parse_uint(arg, 1, 64, &o->cfg.tx_qlen);
		} else if (!strcmp(opt, "--stops")) {
			err = parse_uint(arg, 0, 3, &o->cfg.stops);
		} else if (!strcmp(opt, "--suspends")) {
			err = parse_uint(arg, 0, 3, &o->cfg.suspends);
		} else if (!strcmp(opt, "--timeouts")) {
			err = parse_uint(arg, 0, 3, &o->cfg.timeouts);
		} else if (!strcmp(opt, "--statuses")) {
			err = parse_statuses(arg, &o->cfg);
		} else if (!strcmp(opt, "--depth")) {
			err = parse_uint(arg, 1, 65534, &o->bounds.max_depth);
		} else if (!strcmp(opt, "--max-states")) {
			err = parse_uint(arg, 1, 1U << 24,
					 &o->bounds.max_states);
		} else {
			takes = false;
			if (!strcmp(opt, "--avoid-unlink"))
				o->cfg.flags |= BQLM_USBNET_FLAG_AVOID_UNLINK_URBS;
			else if (!strcmp(opt, "--all-traces"))
				o->all_traces = true;
			else if (!strcmp(opt, "--no-trace"))
				o->no_trace = true;
			else if (!strcmp(opt, "--strict"))
				o->bounds.strict = true;
			else
				return bad_usage("unknown option '%s'", opt);
		}
		if (takes && !arg)
			return bad_usage("option '%s' needs an argument", opt);
		if (err)
			return bad_usage("bad value for %s", opt);
		if (takes)
			i++;
	}
	if (bqlm_usbnet_cfg_check(&o->cfg))
		return bad_usage("%s", "invalid configuration");
	return 0;
}

static void emit_line(void *arg, const char *line)
{
	(void)arg;
	printf("    %s\n", line);
}

static const char *fixup_name(enum bqlm_usbnet_fixup f)
{
	static const char *const names[] = { "none", "pad", "multi" };

	return (unsigned int)f < BQLM_USBNET_NR_FIXUPS ? names[f] : "?";
}

static int print_trace(const struct bqlm_xsys *sys,
		       const struct bqlm_explorer *x,
		       const struct bqlm_xresult *res, enum bqlm_check c,
		       unsigned int *path)
{
	int n = bqlm_explorer_path(x, c, path, MAX_PATH_LEN);
	unsigned int d;

	if (n < 0)
		return n;
	printf("\ntrace to %s (%d steps, shortest):\n", bqlm_check_name(c), n);
	n = bqlm_xtrace(sys, path, n, emit_line, NULL);
	if (n < 0)
		return n;
	printf("    => %s: %s\n", bqlm_check_name(c),
	       bqlm_check_kernel_effect(c));
	/* other checks first violated by the same step */
	for (d = 0; d < BQLM_CHECK_NR; d++)
		if (d != c && (res->violated & BQLM_CHECK_BIT(d)) &&
		    res->w[d].depth == res->w[c].depth &&
		    res->w[d].state == res->w[c].state &&
		    res->w[d].action == res->w[c].action)
			printf("    => also %s: %s\n", bqlm_check_name(d),
			       bqlm_check_kernel_effect(d));
	return 0;
}

/* Did a trace already show @c (same witness as an earlier check)? */
static bool same_witness_shown(const struct bqlm_xresult *res,
			       enum bqlm_check c, unsigned int shown)
{
	unsigned int d;

	for (d = 0; d < BQLM_CHECK_NR; d++)
		if ((shown & BQLM_CHECK_BIT(d)) &&
		    res->w[d].depth == res->w[c].depth &&
		    res->w[d].state == res->w[c].state &&
		    res->w[d].action == res->w[c].action)
			return true;
	return false;
}

static int run_explore(const struct explore_opts *o, bool quiet,
		       struct bqlm_xresult *out, double *secs)
{
	struct bqlm_xresult res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	enum bqlm_check verdict;
	unsigned int *path = NULL;
	unsigned int c, shown = 0;
	double t0, t1;
	int err, ret;

	if (bqlm_usbnet_system(&o->cfg, &sys))
		return EXIT_USAGE;
	x = bqlm_explorer_create(&sys, &o->bounds);
	if (!x) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_INTERNAL;
	}
	t0 = now_s();
	err = bqlm_explore(x, &res);
	t1 = now_s();
	if (out)
		*out = res;
	if (secs)
		*secs = t1 - t0;
	if (err == -E2BIG || err == -EINVAL) {
		fprintf(stderr, "%s: the model broke the explorer's contract (%d)\n",
			prog, err);
		bqlm_explorer_destroy(x);
		return EXIT_INTERNAL;
	}
	verdict = bqlm_xresult_verdict(&res);
	ret = verdict != BQLM_CHECK_NONE ? EXIT_VIOLATION :
	      err ? EXIT_INCOMPLETE : 0;
	if (quiet)
		goto out;

	printf("model usbnet, variant %s: %s\n",
	       bqlm_usbnet_variant_name(o->cfg.variant),
	       bqlm_usbnet_variant_desc(o->cfg.variant));
	printf("bound: %u packets of", o->cfg.packets);
	for (c = 0; c < o->cfg.nr_lens; c++)
		printf("%s%u", c ? "/" : " ", o->cfg.lens[c]);
	printf(" B, tx_fixup %s%s, TX_QLEN %u, ifdown %u, suspend %u, watchdog %u",
	       fixup_name(o->cfg.fixup),
	       o->cfg.flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS ?
	       ", FLAG_AVOID_UNLINK_URBS" : "",
	       o->cfg.tx_qlen, o->cfg.stops, o->cfg.suspends,
	       o->cfg.timeouts);
	if (o->bounds.max_depth)
		printf(", depth %u", o->bounds.max_depth);
	if (o->bounds.strict)
		printf(", strict");
	printf("\n");
	printf("states %llu, transitions %llu, max depth %u, time %.3f s (%.0f states/s)%s\n",
	       res.states, res.transitions, res.max_depth, t1 - t0,
	       (t1 - t0) > 0 ? res.states / (t1 - t0) : 0.0,
	       res.depth_bounded ? ", depth bound reached" : "");
	if (err == -ENOSPC)
		printf("INCOMPLETE: state bound reached, not every state was explored\n");
	else if (err == -ENOMEM)
		printf("INCOMPLETE: out of memory\n");

	if (verdict == BQLM_CHECK_NONE) {
		printf("%s: no invariant violated in %llu states%s\n",
		       err ? "NO VIOLATION FOUND" : "OK", res.states,
		       res.depth_bounded ? " (within the depth bound only)" :
		       "");
		goto out;
	}
	printf("VIOLATION: %s (depth %u): %s\n", bqlm_check_name(verdict),
	       res.w[verdict].depth, bqlm_check_kernel_effect(verdict));
	for (c = 0; c < BQLM_CHECK_NR; c++) {
		char line[256];

		if (!(res.violated & BQLM_CHECK_BIT(c)))
			continue;
		bqlm_violation_format(line, sizeof(line), &res.w[c].v);
		printf("  violated %-20s first at depth %3u: %s\n",
		       bqlm_check_name(c), res.w[c].depth, line);
	}
	if (o->no_trace)
		goto out;
	path = calloc(MAX_PATH_LEN, sizeof(*path));
	if (!path) {
		ret = EXIT_INTERNAL;
		goto out;
	}
	if (print_trace(&sys, x, &res, verdict, path)) {
		ret = EXIT_INTERNAL;
		goto out;
	}
	shown |= BQLM_CHECK_BIT(verdict);
	/* the other crashes always, the other violations on request */
	for (c = 0; c < BQLM_CHECK_NR; c++) {
		if (!(res.violated & BQLM_CHECK_BIT(c)) ||
		    (!o->all_traces && !bqlm_inv_fatal(c)) ||
		    same_witness_shown(&res, c, shown))
			continue;
		if (print_trace(&sys, x, &res, c, path)) {
			ret = EXIT_INTERNAL;
			goto out;
		}
		shown |= BQLM_CHECK_BIT(c);
	}
out:
	free(path);
	bqlm_explorer_destroy(x);
	return ret;
}

static int cmd_explore(int argc, char **argv)
{
	struct explore_opts o;
	int ret;

	if (argc < 1)
		return bad_usage("explore: which model? (%s list)", prog);
	if (!strcmp(argv[0], "tun"))
		return bqlm_cli_explore_tun(argc - 1, argv + 1);
	if (!strcmp(argv[0], "bql-xoff"))
		return bqlm_cli_explore_xoff(argc - 1, argv + 1);
	if (strcmp(argv[0], "usbnet"))
		return bad_usage("unknown model '%s' (see 'bqlm list')",
				 argv[0]);
	ret = parse_explore(argc - 1, argv + 1, &o);
	if (ret)
		return ret;
	return run_explore(&o, false, NULL, NULL);
}

/*
 * ns per dql_queued() + dql_completed() pair, over @reps pairs; the final
 * limit in *@limit, so that the work cannot be optimised away.
 */
static double bench_dql(unsigned int reps, unsigned int *limit)
{
	struct bqlm_dql dql;
	unsigned long now = 1000;
	unsigned int i;
	double t0, t1;

	memset(&dql, 0, sizeof(dql));
	bqlm_dql_init(&dql, 1000, now);
	t0 = now_s();
	for (i = 0; i < reps; i++) {
		bqlm_dql_queued(&dql, 1514, now);
		bqlm_dql_completed(&dql, 1514, now);
		if (!(i & 1023))
			now++;
	}
	t1 = now_s();
	*limit = dql.limit;
	return (t1 - t0) * 1e9 / reps;
}

static int cmd_bench(int argc, char **argv)
{
	unsigned int packets = 3, reps = 10000000;
	unsigned int v, limit;
	double ns;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--packets") && i + 1 < argc) {
			if (parse_uint(argv[++i], 1, BQLM_USBNET_MAX_PACKETS,
				       &packets))
				return bad_usage("bad value for %s",
						 "--packets");
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			if (parse_uint(argv[++i], 1, 1000000000, &reps))
				return bad_usage("bad value for %s", "--reps");
		} else {
			return bad_usage("bench: unknown option '%s'",
					 argv[i]);
		}
	}
	printf("explorer throughput, usbnet, %u packets:\n", packets);
	printf("  %-10s %10s %12s %9s %12s  %s\n", "variant", "states",
	       "transitions", "time s", "states/s", "verdict");
	for (v = 0; v < BQLM_USBNET_NR_VARIANTS; v++) {
		struct explore_opts o;
		struct bqlm_xresult res;
		double secs = 0;
		int ret;

		memset(&o, 0, sizeof(o));
		bqlm_usbnet_cfg_default(&o.cfg, v);
		o.cfg.packets = packets;
		ret = run_explore(&o, true, &res, &secs);
		if (ret == EXIT_INTERNAL || ret == EXIT_USAGE)
			return ret;
		printf("  %-10s %10llu %12llu %9.3f %12.0f  %s\n",
		       bqlm_usbnet_variant_name(v), res.states,
		       res.transitions, secs,
		       secs > 0 ? res.states / secs : 0.0,
		       bqlm_check_name(bqlm_xresult_verdict(&res)));
	}
	ns = bench_dql(reps, &limit);
	printf("DQL op cost: %.1f ns per dql_queued + dql_completed pair (%u pairs, final limit %u)\n",
	       ns, reps, limit);
	bqlm_cli_sim_bench();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "list")) {
		if (argc > 2)
			return bad_usage("list takes no arguments, not '%s'",
					 argv[2]);
		return cmd_list();
	}
	if (!strcmp(argv[1], "explore"))
		return cmd_explore(argc - 2, argv + 2);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 2, argv + 2);
	if (!strcmp(argv[1], "sim"))
		return bqlm_cli_sim(argc - 2, argv + 2);
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		print_help(stdout);
		return 0;
	}
	return bad_usage("unknown command '%s'", argv[1]);
}
