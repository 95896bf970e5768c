// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - command line front end of the bqlmodel explorer.
 *
 *   bqlm list
 *   bqlm explore usbnet --variant NAME [options]
 *   bqlm explore nic [--profile NAME] [options]
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

#include "cli.h"
#include "bqlm_tun.h"
#include "bqlm_sim.h"
#include "bqlm_nic.h"
#include "bqlm_reduce.h"

static const char *prog = "bqlm";

static void print_help(FILE *f)
{
	struct bqlm_usbnet_cfg multi;

	bqlm_usbnet_cfg_default(&multi, BQLM_USBNET_FIXED);
	multi.fixup = BQLM_USBNET_FIXUP_MULTI;
	fprintf(f,
		"usage: %s list\n"
		"       %s explore usbnet --variant NAME [options]\n"
		"       %s bench [--packets N] [--reps N]\n"
		"                     packets 1..%d (default 3), reps 1..1000000000\n"
		"\n"
		"explore options:\n"
		"  --variant NAME     no-bql, v1, merged, fix-reset, fixed (required)\n"
		"  --packets N        packets the stack sends, 1..%d (default 3)\n"
		"  --lens A[,B]       one or two packet lengths in bytes, 1..%d\n"
		"                     (default 1514); less the --header (and 3\n"
		"                     with multi-packet); with --aggregate at\n"
		"                     most %u\n"
		"  the minidriver, three separate things (docs/usbnet.md):\n"
		"  --header N         its tx_fixup() prepends N bytes, 0..64 (default\n"
		"                     0: no tx_fixup(), as cdc_ether; sr9700 and\n"
		"                     cx82310_eth: 2, asix: 4)\n"
		"  --flags LIST       driver_info flags, comma-separated:\n"
		"                     multi-packet (FLAG_MULTI_PACKET: usbnet adds\n"
		"                     no ZLP byte, the tx_fixup() pads by 4 as\n"
		"                     asix's), avoid-unlink (FLAG_AVOID_UNLINK_URBS,\n"
		"                     as aqc111); --avoid-unlink is the latter\n"
		"  --aggregate ncm    cdc_ncm's aggregation: two datagrams in an\n"
		"                     NTB16, a flush timer (implies multi-packet;\n"
		"                     excludes --header)\n"
		"  --fixup KIND       shorthand: none (--header 0), pad (--header 4),\n"
		"                     multi (--aggregate ncm)\n"
		"  --avoid-unlink     FLAG_AVOID_UNLINK_URBS (as aqc111)\n"
		"  --tx-qlen N        TX_QLEN, 1..64 (default 2)\n"
		"  --stops N          ifdown/ifup cycles, 0..3 (default 1)\n"
		"  --suspends N       suspend/resume cycles, 0..3 (default 1)\n"
		"  --timeouts N       watchdog timeouts, 0..3 (default 1)\n"
		"  --statuses LIST    completion statuses: ok,eproto,epipe (default all)\n"
		"  --depth N          do not expand states at depth N, 1..65534\n"
		"                     (default none)\n"
		"  --max-states N     state bound, 1..16777216 (default 16777216)\n"
		"  --strict           stop at every violation, not only fatal ones\n"
		"  --all-traces       a trace for every violated check (default: the\n"
		"                     verdict and every other fatal one)\n"
		"  --no-trace         print no trace\n"
		"  --schedule FILE    write the verdict's trace as a schedule to FILE\n"
		"                     (- for standard output), to replay it on the\n"
		"                     real usbnet.c: make kunit-replay SCHEDULE=FILE\n"
		"  --schedule-check C the trace to check C instead (e.g.\n"
		"                     serial-completion)\n"
		"  --json FILE        also write the verdict, figures and trace\n"
		"                     as JSON (docs/json.md) to FILE; with -, the\n"
		"                     JSON to standard output, the report to\n"
		"                     standard error (every model)\n"
		"  --no-reduction     the full search: every interleaving, shortest\n"
		"                     traces (default: the symmetry reduction of\n"
		"                     docs/explore.md; usbnet and tun)\n"
		"  --compare-full     also run the full search and report both: states,\n"
		"                     time, checks violated, witness depths\n"
		"  --max-memory N     the explorer's memory bound in bytes, suffix K, M\n"
		"                     or G, at least 1M (default: half the physical\n"
		"                     memory); reaching it stops the search (exit 3)\n"
		"\n"
		"exit status: 0 no violation, 1 violation, 2 bad usage,\n"
		"             3 exploration incomplete (state or memory bound),\n"
		"             4 internal error\n",
		prog, prog, prog, BQLM_USBNET_MAX_PACKETS,
		BQLM_USBNET_MAX_PACKETS, BQLM_USBNET_MAX_LEN,
		bqlm_usbnet_max_len(&multi));
	bqlm_cli_tun_usage(f);
	bqlm_cli_xoff_usage(f);
	bqlm_cli_nic_usage(f);
	bqlm_cli_sim_usage(f);
}

static int bad_usage(const char *fmt, const char *arg)
{
	return bqlm_cli_usage(prog, fmt, arg);
}

/* An option's number in [lo, hi], or EXIT_USAGE after an error naming it. */
static int opt_uint(const char *opt, const char *arg, unsigned long lo,
		    unsigned long hi, unsigned int *out)
{
	return bqlm_cli_opt_uint(prog, opt, arg, lo, hi, out);
}

/* --fixup, in the order of enum bqlm_usbnet_fixup */
static const char *const fixup_names[] = { "none", "pad", "multi", NULL };

static int cmd_list(void)
{
	unsigned int v;

	printf("models:\n  usbnet   drivers/net/usb/usbnet.c transmit side (Linux 6.12 + BQL)\n");
	bqlm_cli_tun_models();
	bqlm_cli_nic_models();
	printf("usbnet variants:\n");
	for (v = 0; v < BQLM_USBNET_NR_VARIANTS; v++)
		printf("  %-10s %s\n", bqlm_usbnet_variant_name(v),
		       bqlm_usbnet_variant_desc(v));
	bqlm_cli_tun_list();
	bqlm_cli_nic_list();
	return 0;
}

struct explore_opts {
	struct bqlm_usbnet_cfg cfg;
	struct bqlm_xbounds bounds;
	bool all_traces;
	bool no_trace;
	const char *schedule;
	enum bqlm_check schedule_check;
};

/* --lens A[,B]: 0, or EXIT_USAGE after an error that names the range */
static int parse_lens(const char *s, struct bqlm_usbnet_cfg *cfg)
{
	char buf[64], *tok, *save = NULL;
	unsigned int n = 0, v;
	int err;

	if (!s || snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return bad_usage("--lens needs one or two lengths, e.g. 1514 or 60,1514%s",
				 "");
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == BQLM_USBNET_MAX_LENS)
			return bad_usage("--lens: '%s': at most 2 lengths", s);
		err = opt_uint("--lens", tok, 1, BQLM_USBNET_MAX_LEN, &v);
		if (err)
			return err;
		cfg->lens[n++] = v;
	}
	if (!n)
		return bad_usage("--lens: '%s' holds no length", s);
	cfg->nr_lens = n;
	return 0;
}

/* --statuses: 0, or EXIT_USAGE after an error that lists the choices */
static int parse_statuses(const char *s, struct bqlm_usbnet_cfg *cfg)
{
	static const char *const names[] = { "ok", "eproto", "epipe", NULL };
	static const enum bqlm_usbnet_status st[] = {
		BQLM_USBNET_ST_OK, BQLM_USBNET_ST_EPROTO, BQLM_USBNET_ST_EPIPE,
	};
	char buf[64], *tok, *save = NULL;
	unsigned int mask = 1U << BQLM_USBNET_ST_OK, v;
	int err;

	if (!s || snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return bqlm_cli_opt_choice(prog, "--statuses", NULL, names, &v);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		err = bqlm_cli_opt_choice(prog, "--statuses", tok, names, &v);
		if (err)
			return err;
		mask |= 1U << st[v];
	}
	cfg->statuses = mask;
	return 0;
}

/* --flags: 0, or EXIT_USAGE after an error that lists the flags */
static int parse_flags(const char *s, struct bqlm_usbnet_cfg *cfg)
{
	static const char *const names[] = {
		"avoid-unlink", "multi-packet", NULL };
	static const unsigned int bits[] = {
		BQLM_USBNET_FLAG_AVOID_UNLINK_URBS,
		BQLM_USBNET_FLAG_MULTI_PACKET,
	};
	char buf[64], *tok, *save = NULL;
	unsigned int flags = 0, v;
	int err;

	if (!s || snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return bqlm_cli_opt_choice(prog, "--flags", NULL, names, &v);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		err = bqlm_cli_opt_choice(prog, "--flags", tok, names, &v);
		if (err)
			return err;
		flags |= bits[v];
	}
	cfg->flags = flags;
	return 0;
}

/*
 * --header and --aggregate (or --fixup, their shorthand) into the fixup:
 * 0, or EXIT_USAGE when both a header and aggregation were asked for.
 */
static int resolve_fixup(struct bqlm_usbnet_cfg *cfg, int header,
			 bool aggregate)
{
	if (aggregate && header >= 0)
		return bad_usage("%s", "--header: cdc_ncm's aggregation (--aggregate, --fixup multi) frames its own NTB16 headers");
	if (aggregate)
		cfg->fixup = BQLM_USBNET_FIXUP_MULTI;
	if (header < 0)
		return 0;
	cfg->pad_header = header;
	cfg->fixup = header ? BQLM_USBNET_FIXUP_PAD : BQLM_USBNET_FIXUP_NONE;
	return 0;
}

/* --schedule-check: 0, or EXIT_USAGE after an error that lists the checks */
static int parse_check(const char *s, enum bqlm_check *c)
{
	const char *names[BQLM_CHECK_NR];
	unsigned int i, v;
	int err;

	for (i = 1; i < BQLM_CHECK_NR; i++)
		names[i - 1] = bqlm_check_name(i);
	names[i - 1] = NULL;
	err = bqlm_cli_opt_choice(prog, "--schedule-check", s, names, &v);
	if (!err)
		*c = v + 1;
	return err;
}

static int parse_explore(int argc, char **argv, struct explore_opts *o)
{
	static const char *const aggregates[] = { "ncm", NULL };
	const char *variant = NULL;
	bool aggregate = false;
	int i, id, header = -1;
	unsigned int v;

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
			err = opt_uint(opt, arg, 1, BQLM_USBNET_MAX_PACKETS,
				       &o->cfg.packets);
		} else if (!strcmp(opt, "--lens")) {
			err = parse_lens(arg, &o->cfg);
		} else if (!strcmp(opt, "--fixup")) {
			err = bqlm_cli_opt_choice(prog, opt, arg, fixup_names,
						  &v);
			aggregate = !err && v == BQLM_USBNET_FIXUP_MULTI;
			header = err || aggregate ? header :
				 v == BQLM_USBNET_FIXUP_PAD ? 4 : 0;
		} else if (!strcmp(opt, "--header")) {
			err = opt_uint(opt, arg, 0, 64, &v);
			header = err ? header : (int)v;
		} else if (!strcmp(opt, "--aggregate")) {
			err = bqlm_cli_opt_choice(prog, opt, arg, aggregates,
						  &v);
			aggregate = !err;
		} else if (!strcmp(opt, "--flags")) {
			err = parse_flags(arg, &o->cfg);
		} else if (!strcmp(opt, "--tx-qlen")) {
			err = opt_uint(opt, arg, 1, 64, &o->cfg.tx_qlen);
		} else if (!strcmp(opt, "--stops")) {
			err = opt_uint(opt, arg, 0, 3, &o->cfg.stops);
		} else if (!strcmp(opt, "--suspends")) {
			err = opt_uint(opt, arg, 0, 3, &o->cfg.suspends);
		} else if (!strcmp(opt, "--timeouts")) {
			err = opt_uint(opt, arg, 0, 3, &o->cfg.timeouts);
		} else if (!strcmp(opt, "--statuses")) {
			err = parse_statuses(arg, &o->cfg);
		} else if (!strcmp(opt, "--schedule")) {
			o->schedule = arg;
		} else if (!strcmp(opt, "--schedule-check")) {
			err = parse_check(arg, &o->schedule_check);
		} else if (!strcmp(opt, "--depth")) {
			err = opt_uint(opt, arg, 1, 65534, &o->bounds.max_depth);
		} else if (!strcmp(opt, "--max-states")) {
			err = opt_uint(opt, arg, 1, 1U << 24,
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
		if (err > 0)
			return err;	/* reported, with the range */
		if (takes && !arg)
			return bad_usage("option '%s' needs an argument", opt);
		if (err)
			return bad_usage("bad value for %s", opt);
		if (takes)
			i++;
	}
	if (resolve_fixup(&o->cfg, header, aggregate))
		return EXIT_USAGE;
	for (i = 0; i < (int)o->cfg.nr_lens; i++) {
		char msg[160];

		if (o->cfg.lens[i] <= bqlm_usbnet_max_len(&o->cfg))
			continue;
		snprintf(msg, sizeof(msg),
			 "--lens: %u is too long for this minidriver: 1..%u (the URB must fit the model's 16-bit skb->len)",
			 o->cfg.lens[i], bqlm_usbnet_max_len(&o->cfg));
		return bad_usage("%s", msg);
	}
	if (bqlm_usbnet_cfg_check(&o->cfg))
		return bad_usage("%s", "invalid configuration");
	return 0;
}

static const char *fixup_name(enum bqlm_usbnet_fixup f)
{
	return (unsigned int)f < BQLM_USBNET_NR_FIXUPS ? fixup_names[f] : "?";
}

static void print_header(const struct explore_opts *o)
{
	unsigned int c;

	printf("model usbnet, variant %s: %s\n",
	       bqlm_usbnet_variant_name(o->cfg.variant),
	       bqlm_usbnet_variant_desc(o->cfg.variant));
	printf("bound: %u packets of", o->cfg.packets);
	for (c = 0; c < o->cfg.nr_lens; c++)
		printf("%s%u", c ? "/" : " ", o->cfg.lens[c]);
	printf(" B, tx_fixup %s", fixup_name(o->cfg.fixup));
	if (o->cfg.fixup == BQLM_USBNET_FIXUP_PAD)
		printf(" (%u-byte header)", o->cfg.pad_header);
	printf("%s%s, TX_QLEN %u, ifdown %u, suspend %u, watchdog %u",
	       o->cfg.flags & BQLM_USBNET_FLAG_MULTI_PACKET ?
	       ", FLAG_MULTI_PACKET" : "",
	       o->cfg.flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS ?
	       ", FLAG_AVOID_UNLINK_URBS" : "",
	       o->cfg.tx_qlen, o->cfg.stops, o->cfg.suspends,
	       o->cfg.timeouts);
	if (o->bounds.max_depth)
		printf(", depth %u", o->bounds.max_depth);
	if (o->bounds.strict)
		printf(", strict");
	printf("\n");
}

static void schedule_line(void *arg, const char *line)
{
	fprintf(arg, "%s\n", line);
}

/* --schedule FILE: the trace as a schedule (model/usbnet_schedule.c) */
static int save_schedule(const void *arg, enum bqlm_check c,
			 const unsigned int *path, unsigned int n)
{
	const struct explore_opts *o = arg;
	bool out = !strcmp(o->schedule, "-");
	FILE *f = out ? stdout : fopen(o->schedule, "w");
	int err;

	if (!f) {
		fprintf(stderr, "bqlm: cannot write %s: %s\n", o->schedule,
			strerror(errno));
		return -errno;
	}
	err = bqlm_usbnet_schedule_write(&o->cfg, c, path, n, schedule_line,
					 f);
	if ((!out && fclose(f)) || err) {
		fprintf(stderr, "bqlm: writing %s failed\n", o->schedule);
		return -EIO;
	}
	if (!out)
		fprintf(stderr, "bqlm: schedule of the trace to %s (%u steps) written to %s\n",
			bqlm_check_name(c), n, o->schedule);
	return 0;
}

static int run_explore(const struct explore_opts *o, bool quiet,
		       struct bqlm_xresult *out, double *secs)
{
	struct bqlm_xsys sys;
	struct bqlm_cli_explore e = {
		.sys = &sys, .bounds = &o->bounds, .quiet = quiet,
		.no_trace = o->no_trace, .all_traces = o->all_traces,
		.res = out, .secs = secs,
		.save = o->schedule ? save_schedule : NULL, .save_arg = o,
		.save_check = o->schedule_check,
	};

	if (bqlm_usbnet_system(&o->cfg, &sys))
		return EXIT_USAGE;
	if (!quiet)
		print_header(o);
	return bqlm_cli_run_explore(&e);
}

static int explore_usbnet(int argc, char **argv);

static void usbnet_usage(FILE *f)
{
	print_help(f);
}

/* The models "bqlm explore" runs, and the help of each. */
static const struct {
	const char *name;
	int (*explore)(int argc, char **argv);
	void (*usage)(FILE *f);
} models[] = {
	{ "usbnet", explore_usbnet, usbnet_usage },
	{ "tun", bqlm_cli_explore_tun, bqlm_cli_tun_usage },
	{ "bql-xoff", bqlm_cli_explore_xoff, bqlm_cli_xoff_usage },
	{ "nic", bqlm_cli_explore_nic, bqlm_cli_nic_usage },
};

static int model_index(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < ARRAY_SIZE(models); i++)
		if (!strcmp(models[i].name, name))
			return i;
	return -1;
}

static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int cmd_explore(int argc, char **argv)
{
	int ret, m;

	if (argc < 1)
		return bad_usage("explore: which model? (%s list)", prog);
	m = model_index(argv[0]);
	if (m < 0)
		return bad_usage("unknown model '%s' (see 'bqlm list')",
				 argv[0]);
	if (wants_help(argc - 1, argv + 1)) {
		models[m].usage(stdout);
		return 0;
	}
	/* first: the JSON report's argv is what is left */
	ret = bqlm_cli_reduce_setup(&argc, argv);
	if (!ret)
		ret = bqlm_cli_json_setup(&argc, argv);
	if (ret)
		return ret;
	return models[m].explore(argc - 1, argv + 1);
}

static int explore_usbnet(int argc, char **argv)
{
	struct explore_opts o;
	int ret;

	ret = parse_explore(argc, argv, &o);
	if (ret)
		return ret;
	if (o.schedule && !strcmp(o.schedule, "-") && bqlm_cli_json_stdout())
		return bad_usage("%s", "--schedule - and --json - both want standard output");
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
	t0 = bqlm_cli_now();
	for (i = 0; i < reps; i++) {
		bqlm_dql_queued(&dql, 1514, now);
		bqlm_dql_completed(&dql, 1514, now);
		if (!(i & 1023))
			now++;
	}
	t1 = bqlm_cli_now();
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
			if (opt_uint(argv[i], argv[i + 1], 1,
				     BQLM_USBNET_MAX_PACKETS, &packets))
				return EXIT_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			if (opt_uint(argv[i], argv[i + 1], 1, 1000000000, &reps))
				return EXIT_USAGE;
			i++;
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
	bqlm_cli_nic_bench();
	bqlm_cli_sim_bench();
	bqlm_cli_reduction_bench();
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
		int m = argc > 2 ? model_index(argv[2]) : -1;

		if (argc > 3 || (argc == 3 && m < 0 && strcmp(argv[2], "sim")))
			return bad_usage("help takes a model's name (see 'bqlm list'), not '%s'",
					 argv[argc - 1]);
		if (m >= 0)
			models[m].usage(stdout);
		else if (argc == 3)
			bqlm_cli_sim_usage(stdout);
		else
			print_help(stdout);
		return 0;
	}
	return bad_usage("unknown command '%s'", argv[1]);
}
