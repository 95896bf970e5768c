// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - command line front end of the bqlmodel explorer.
 *
 *   bqlm list
 *   bqlm explore usbnet --variant NAME [options]
 *   bqlm explore nic [--profile NAME] [options]
 *   bqlm replay FILE
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
#include "bqlm_replay.h"

static const char *prog = "bqlm";

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: %s list                     the models, their variants and profiles\n"
		"       %s help [MODEL]             this, or one model's options\n"
		"       %s explore MODEL [options]  every interleaving within a bound\n"
		"       %s sim usbnet|tun [options] the timing simulation\n"
		"       %s replay FILE              a usbnet schedule stepped on the model\n"
		"       %s bench [--packets N] [--reps N]\n"
		"                     packets 1..%d (default 3), reps 1..1000000000\n"
		"models: usbnet, tun, bql-xoff, nic ('%s help MODEL' for the options)\n"
		"\n"
		"exit status: 0 no violation, 1 violation, 2 bad usage,\n"
		"             3 exploration incomplete (state or memory bound),\n"
		"             4 internal error, or an output file not written,\n"
		"             5 no violation, but a stated path never taken (nic)\n",
		prog, prog, prog, prog, prog, prog, BQLM_USBNET_MAX_PACKETS, prog);
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

static int cmd_list(void)
{
	printf("models:\n  usbnet   drivers/net/usb/usbnet.c transmit side (Linux 6.12 + BQL)\n");
	bqlm_cli_tun_models();
	bqlm_cli_nic_models();
	bqlm_cli_model_list(bqlm_usbnet_options(),
			    "usbnet variants (--variant; driver, upstream commit):");
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
	struct bqlm_cli_common c;
	const char *variant;
};

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

/* --schedule FILE and --schedule-check C: the usbnet command's own */
static int usbnet_extra(void *arg, const char *opt, const char *val)
{
	struct explore_opts *o = arg;

	if (!strcmp(opt, "--schedule")) {
		if (!val)
			return bad_usage("option '%s' needs an argument", opt);
		if (o->schedule)
			return bad_usage("%s given twice", opt);
		if (bqlm_cli_out_check(prog, opt, val))
			return EXIT_USAGE;
		o->schedule = val;
		return 0;
	}
	if (!strcmp(opt, "--schedule-check")) {
		if (o->schedule_check)
			return bad_usage("%s given twice", opt);
		return parse_check(val, &o->schedule_check);
	}
	return 1;
}

static int parse_explore(int argc, char **argv, struct explore_opts *o)
{
	struct bqlm_cli_common c;
	const char *variant;
	int r;

	memset(o, 0, sizeof(*o));
	r = bqlm_cli_model_parse(prog, bqlm_usbnet_options(), &o->cfg, argc,
				 argv, &c, usbnet_extra, o, &variant);
	if (r)
		return r;
	if (!o->cfg.packets)
		return bad_usage("%s", "--packets 0 has no bound: the explorer needs 1..6");
	if (o->schedule_check && !o->schedule)
		return bad_usage("%s", "--schedule-check means nothing without --schedule FILE");
	o->bounds = c.bounds;
	o->all_traces = c.all_traces;
	o->no_trace = c.no_trace;
	o->c = c;
	o->variant = variant;
	return 0;
}

static void print_header(const struct explore_opts *o)
{
	const struct bqlm_opt *fixup = bqlm_opt_find(bqlm_usbnet_options(),
						     "fixup");
	char name[16] = "?";
	unsigned int c;

	printf("model usbnet, variant %s: %s\n",
	       bqlm_usbnet_variant_name(o->cfg.variant),
	       bqlm_usbnet_variant_desc(o->cfg.variant));
	printf("bound: %u packets of", o->cfg.packets);
	for (c = 0; c < o->cfg.nr_lens; c++)
		printf("%s%u", c ? "/" : " ", o->cfg.lens[c]);
	/* the option table's name of the choice, as --fixup takes it */
	if (fixup)
		bqlm_opt_format(fixup, &o->cfg, name, sizeof(name));
	printf(" B, tx_fixup %s", name);
	if (o->cfg.fixup == BQLM_USBNET_FIXUP_PAD) {
		for (c = 0; c < o->cfg.nr_pad_headers; c++)
			printf("%s%u", c ? "/" : " (", o->cfg.pad_header[c]);
		printf("-byte header)");
	}
	printf("%s%s%s, TX_QLEN %u, ifdown %u, suspend %u, watchdog %u",
	       o->cfg.flags & BQLM_USBNET_FLAG_MULTI_PACKET ?
	       ", FLAG_MULTI_PACKET" : "",
	       o->cfg.flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS ?
	       ", FLAG_AVOID_UNLINK_URBS" : "",
	       o->cfg.flags & BQLM_USBNET_FLAG_SEND_ZLP ?
	       ", FLAG_SEND_ZLP" : "",
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

/* --schedule FILE: the trace as a schedule (model/usbnet/usbnet_schedule.c) */
static int save_schedule(const void *arg, enum bqlm_check c,
			 const unsigned int *path, unsigned int n)
{
	const struct explore_opts *o = arg;
	bool out = !strcmp(o->schedule, "-");
	FILE *f = out ? stdout : bqlm_cli_out_open(prog, o->schedule);
	int err;

	if (!f)
		return -EIO;
	err = bqlm_usbnet_schedule_write(&o->cfg, c, path, n, schedule_line,
					 f);
	if (err)
		fprintf(stderr, "bqlm: the trace does not replay on the model: no schedule\n");
	if (!out && bqlm_cli_out_close(prog, o->schedule, f, !err))
		err = -EIO;
	if (err)
		return -EIO;
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
	bqlm_cli_model_help(f, bqlm_usbnet_options(),
			    "\nusage: bqlm explore usbnet --variant NAME [usbnet options]\n"
			    "  --schedule FILE        write the verdict's trace as a schedule (- for standard\n"
			    "                         output), to replay on the real usbnet.c: make kunit-replay\n"
			    "  --schedule-check C     the trace to check C instead (e.g. serial-completion)");
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
	if (o.c.sweep && o.schedule)
		return bad_usage("%s", "--schedule does not go with --sweep (run the configuration it reports with --schedule)");
	if (o.c.sweep)
		return bqlm_cli_sweep(bqlm_usbnet_options(), &o.cfg, &o.c,
				      o.variant);
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
	for (v = 0; v < bqlm_usbnet_nr_variants(); v++) {
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
	if (!strcmp(argv[1], "replay"))
		return bqlm_cli_replay(argc - 2, argv + 2);
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
