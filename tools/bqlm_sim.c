// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - the sim command: the timing simulation of model/sim/sim.c.
 *
 *   bqlm sim usbnet [--link RATE] [--usb 2|3] [--variant no-bql|fixed]
 *                   [--duration T] [--seed N] [--csv FILE] [--svg FILE]
 *                   [--sweep link|bh|fifo] [more options, see usage]
 *   bqlm sim tun [--variant stock|stop-2019|backpressure] [--ring N]
 *                [--reader RATE] [--sweep ring] [common options]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bqlm/sim.h>

#include "cli.h"
#include "bqlm_sim.h"


struct sim_opts {
	struct bqlm_sim_cfg cfg;
	const char *csv;
	const char *svg;
	const char *sweep;
};

/**
 * bqlm_cli_sim_usage() - print the sim command's usage
 * @f: where
 */
void bqlm_cli_sim_usage(FILE *f)
{
	fprintf(f,
		"\n"
		"       bqlm sim usbnet [options]   timing simulation (docs/sim.md)\n"
		"sim options:\n"
		"  --link RATE        Ethernet link, 1mbit..10gbit: 100mbit, 2.5gbit, ... (default 100mbit)\n"
		"  --usb 2|3          USB speed: 480 Mbit/s or 5 Gbit/s (default 3)\n"
		"  --variant NAME     no-bql or fixed (default fixed)\n"
		"  --duration T       simulated time, up to 600s: 10s, 500ms, ... (default 10s)\n"
		"  --warmup T         statistics ignore the start (default 1s, max half)\n"
		"  --seed N           seed of the bh jitter and ping phase, 0..2^52-1 (default 1)\n"
		"  --tx-qlen N        TX_QLEN, 1..4096 (default: usbnet_update_max_qlen())\n"
		"  --mtu N            MTU, 68..9000 (default 1500)\n"
		"  --fifo BYTES       adapter TX FIFO, one frame..1048576 (default 24576)\n"
		"  --tx-header N      bytes tx_fixup() prepends, 0..64 (default 8: ax88179;\n"
		"                     0: cdc_ether)\n"
		"  --usb-rate RATE    bus data rate, 1mbit..20gbit (default 425.984mbit / 4gbit)\n"
		"  --irq T            interrupt moderation, 1ns..100ms (default 125us / 40us)\n"
		"  --bus-tick T       frame-scheduled bus: data reaches the device at\n"
		"                     multiples of T, 0..100ms (default 0: as transferred)\n"
		"  --bh-delay T       irq to usbnet_bh(), 0..100ms (default 10us)\n"
		"  --bh-jitter T      plus uniform jitter below T, 0..100ms (default 10us)\n"
		"  --hz N             HZ, 100..1000 (default 250)\n"
		"  --qdisc prio|fifo  ping in pfifo_fast band 0, or with the bulk (default prio)\n"
		"  --traffic udp|tcp  bulk sender (default udp)\n"
		"  --udp-rate RATE    UDP offered rate, 1kbit..1000gbit (default 110%% of the link)\n"
		"  --window N         TCP-like window, packets, 1..4096 (default 256)\n"
		"  --ping-interval T  at least 100us (default 10ms)\n"
		"  --ping-jitter T    plus a random delay below T before each ping, up to\n"
		"                     the interval (default 0: strictly periodic)\n"
		"  --sample T         time-series interval, at least 10us (default 1ms)\n"
		"  --csv FILE         write the time series (t_ns,series,value)\n"
		"  --svg FILE         also run the other variants (usbnet: no-bql and\n"
		"                     fixed; tun: all three) and draw them on the same\n"
		"                     axes: ping latency CDF (log), BQL limit and bytes\n"
		"                     in flight (tun: ring entries) over time\n"
		"  --sweep KIND       link, bh or fifo: both variants over a range\n"
		"       bqlm sim tun [options]      tun TX ring and its reader\n"
		"tun options (and --duration, --seed, --qdisc, --traffic, --udp-rate,\n"
		"             --window, --ping-interval, --csv, --svg from above):\n"
		"  --variant NAME     stock, stop-2019, backpressure, backpressure-room\n"
		"                     (default backpressure)\n"
		"  --ring N           tx ring = tx_queue_len = qdisc band limit, 2..4096 (default 25)\n"
		"  --txqueuelen N     qdisc band limit if not the ring size, 1..4096\n"
		"  --reader RATE      the reader's rate, 1mbit..10gbit (default 1gbit)\n"
		"  --sweep ring       the three variants over ring sizes\n");
}

static int sim_bad(const char *fmt, const char *arg)
{
	return bqlm_cli_usage("bqlm sim", fmt, arg);
}

/* What each option takes, for its error (the usage above says the same). */
static const char *const sim_ranges[][2] = {
	{ "--link", "a rate, 1mbit..10gbit" },
	{ "--usb", "2 or 3" },
	{ "--duration", "a time, up to 600s" },
	{ "--warmup", "a time, at most half of --duration" },
	{ "--seed", "a number, 0..4503599627370495" },
	{ "--tx-qlen", "a number, 1..4096" },
	{ "--mtu", "a number, 68..9000" },
	{ "--fifo", "bytes, one frame..1048576" },
	{ "--tx-header", "a number, 0..64" },
	{ "--usb-rate", "a rate, 1mbit..20gbit" },
	{ "--irq", "a time, 1ns..100ms" },
	{ "--bus-tick", "a time, 0..100ms" },
	{ "--bh-delay", "a time, 0..100ms" },
	{ "--bh-jitter", "a time, 0..100ms" },
	{ "--hz", "a number, 100..1000" },
	{ "--qdisc", "prio or fifo" },
	{ "--traffic", "udp or tcp" },
	{ "--udp-rate", "a rate, 1kbit..1000gbit" },
	{ "--window", "a number, 1..4096" },
	{ "--ping-interval", "a time, at least 100us" },
	{ "--ping-jitter", "a time, at most the ping interval" },
	{ "--sample", "a time, at least 10us" },
	{ "--sweep", "link, bh or fifo (usbnet), ring (tun)" },
	{ "--ring", "a number, 2..4096" },
	{ "--txqueuelen", "a number, 1..4096" },
	{ "--reader", "a rate, 1mbit..10gbit" },
};

/* A bad value for @opt: the error says what the option takes. */
static int sim_bad_value(const char *opt, const char *arg)
{
	char msg[160];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_ranges); i++)
		if (!strcmp(opt, sim_ranges[i][0]))
			break;
	snprintf(msg, sizeof(msg), "%s: '%.32s': expected %s", opt, arg,
		 i < ARRAY_SIZE(sim_ranges) ? sim_ranges[i][1] : "valid");
	return sim_bad("%s", msg);
}

/* A number with an optional unit from @units; scaled to the base unit. */
static int parse_scaled(const char *s, const char *const *units,
			const double *scale, double max, unsigned long long *out)
{
	char *end;
	double v;
	int i;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -EINVAL;
	for (i = 0; units[i]; i++)
		if (!strcmp(end, units[i]))
			break;
	if (!units[i])
		return -EINVAL;
	v *= scale[i];
	if (v < 0 || v > max)
		return -EINVAL;
	*out = (unsigned long long)(v + 0.5);
	return 0;
}

static int parse_rate(const char *s, unsigned long long *bps)
{
	static const char *const u[] = { "", "kbit", "mbit", "gbit", NULL };
	static const double k[] = { 1, 1e3, 1e6, 1e9 };

	return parse_scaled(s, u, k, 1e12, bps);
}

static int parse_time(const char *s, unsigned long long *ns)
{
	static const char *const u[] = { "ns", "us", "ms", "s", NULL };
	static const double k[] = { 1, 1e3, 1e6, 1e9 };

	return parse_scaled(s, u, k, 1e13, ns);
}

static int parse_num(const char *s, unsigned long long max,
		     unsigned long long *v)
{
	static const char *const u[] = { "", NULL };
	static const double k[] = { 1 };

	return parse_scaled(s, u, k, (double)max, v);
}


/* The tun variants the simulation takes, in the order a sweep runs them. */
static const enum bqlm_tun_variant tun_variants[] = {
	BQLM_TUN_STOCK, BQLM_TUN_STOP_2019, BQLM_TUN_BACKPRESSURE,
};

static const char *variant_name(const struct bqlm_sim_cfg *c)
{
	if (c->dev == BQLM_SIM_TUN)
		return bqlm_tun_variant_name(c->tun_variant);
	return bqlm_usbnet_variant_name(c->variant);
}

/*
 * Whether the usbnet variant @c simulates counts its bytes with BQL, and so
 * has a DQL limit to show: its design's --bql (model/usbnet/usbnet_options.c).
 */
static bool usbnet_has_bql(const struct bqlm_sim_cfg *c)
{
	struct bqlm_usbnet_cfg u;

	bqlm_usbnet_cfg_default(&u, c->variant);
	return u.bql;
}

/* --qdisc: the ping in band 0 or with the bulk; --traffic: the sender */
static const char *const sim_qdiscs[] = { "fifo", "prio", NULL };
static const char *const sim_traffics[] = {
	[BQLM_SIM_UDP] = "udp", [BQLM_SIM_TCP] = "tcp", NULL
};

/* @s as one of @words (NULL-terminated): its index in *@out, or -1. */
static int parse_word(const char *s, const char *const *words,
		      unsigned int *out)
{
	unsigned int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(s, words[i])) {
			*out = i;
			return 0;
		}
	return -1;
}

static int parse_sim(int argc, char **argv, struct sim_opts *o)
{
	struct bqlm_sim_cfg *c = &o->cfg;
	unsigned long long v;
	unsigned int w;
	bool warmup = false;
	int i;

	memset(o, 0, sizeof(*o));
	bqlm_sim_cfg_default(c);
	if (argc >= 1 && !strcmp(argv[0], "tun")) {
		c->dev = BQLM_SIM_TUN;
		c->tun_variant = BQLM_TUN_BACKPRESSURE;
	} else if (argc < 1 || strcmp(argv[0], "usbnet")) {
		return sim_bad("model must be 'usbnet' or 'tun', not '%s'",
			       argc < 1 ? "" : argv[0]);
	}
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;

		if (!arg)
			return sim_bad("option '%s' needs a value (or is unknown)",
				       opt);
		i++;
		if (!strcmp(opt, "--link")) {
			bad = parse_rate(arg, &c->link_bps);
		} else if (!strcmp(opt, "--usb")) {
			if (!strcmp(arg, "2"))
				c->usb = BQLM_SIM_USB2;
			else if (!strcmp(arg, "3"))
				c->usb = BQLM_SIM_USB3;
			else
				bad = 1;
		} else if (!strcmp(opt, "--variant") && c->dev == BQLM_SIM_TUN) {
			int var = bqlm_tun_variant_by_name(arg);

			if (var != BQLM_TUN_STOCK && var != BQLM_TUN_STOP_2019 &&
			    var != BQLM_TUN_BACKPRESSURE &&
			    var != BQLM_TUN_BACKPRESSURE_ROOM)
				return sim_bad("--variant: 'stock', 'stop-2019', 'backpressure' or 'backpressure-room', not '%s'",
					       arg);
			c->tun_variant = var;
		} else if (!strcmp(opt, "--ring")) {
			bad = parse_num(arg, BQLM_SIM_MAX_QLEN, &v) || v < 2;
			c->ring = v;
		} else if (!strcmp(opt, "--txqueuelen")) {
			bad = parse_num(arg, BQLM_SIM_MAX_QLEN, &v) || !v;
			c->txqueuelen = v;
		} else if (!strcmp(opt, "--reader")) {
			bad = parse_rate(arg, &c->reader_bps);
		} else if (!strcmp(opt, "--variant")) {
			int var = bqlm_usbnet_variant_by_name(arg);

			if (var != BQLM_USBNET_NO_BQL &&
			    var != BQLM_USBNET_FIXED)
				return sim_bad("--variant: 'no-bql' or 'fixed', not '%s' (the other BQL variants differ only in stop/suspend paths, not simulated)",
					       arg);
			c->variant = var;
		} else if (!strcmp(opt, "--duration")) {
			bad = parse_time(arg, &c->duration_ns);
		} else if (!strcmp(opt, "--warmup")) {
			bad = parse_time(arg, &c->warmup_ns);
			warmup = true;
		} else if (!strcmp(opt, "--seed")) {
			bad = parse_num(arg, ~0ULL >> 12, &c->seed);
		} else if (!strcmp(opt, "--tx-qlen")) {
			bad = parse_num(arg, BQLM_SIM_MAX_QLEN, &v);
			c->tx_qlen = v;
			bad |= !v;
		} else if (!strcmp(opt, "--mtu")) {
			bad = parse_num(arg, 9000, &v);
			c->mtu = v;
		} else if (!strcmp(opt, "--fifo")) {
			bad = parse_num(arg, BQLM_SIM_MAX_FIFO, &v);
			c->fifo_bytes = v;
		} else if (!strcmp(opt, "--tx-header")) {
			bad = parse_num(arg, 64, &v);
			c->fixup_hdr = v;
		} else if (!strcmp(opt, "--usb-rate")) {
			bad = parse_rate(arg, &c->usb_bps);
		} else if (!strcmp(opt, "--irq")) {
			bad = parse_time(arg, &v) || !v || v > 100000000;
			c->irq_ns = v;
		} else if (!strcmp(opt, "--bus-tick")) {
			bad = parse_time(arg, &c->bus_tick_ns) ||
			      c->bus_tick_ns > 100000000;
		} else if (!strcmp(opt, "--bh-delay")) {
			bad = parse_time(arg, &v) || v > 100000000;
			c->bh_ns = v;
		} else if (!strcmp(opt, "--bh-jitter")) {
			bad = parse_time(arg, &v) || v > 100000000;
			c->bh_jitter_ns = v;
		} else if (!strcmp(opt, "--hz")) {
			bad = parse_num(arg, 1000, &v);
			c->hz = v;
		} else if (!strcmp(opt, "--qdisc")) {
			bad = parse_word(arg, sim_qdiscs, &w);
			if (!bad)
				c->prio_ping = w;
		} else if (!strcmp(opt, "--traffic")) {
			bad = parse_word(arg, sim_traffics, &w);
			if (!bad)
				c->traffic = w;
		} else if (!strcmp(opt, "--udp-rate")) {
			bad = parse_rate(arg, &c->udp_bps) || !c->udp_bps;
		} else if (!strcmp(opt, "--window")) {
			bad = parse_num(arg, BQLM_SIM_MAX_WINDOW, &v) || !v;
			c->window = v;
		} else if (!strcmp(opt, "--ping-interval")) {
			bad = parse_time(arg, &c->ping_ns);
		} else if (!strcmp(opt, "--ping-jitter")) {
			bad = parse_time(arg, &c->ping_jitter_ns);
		} else if (!strcmp(opt, "--sample")) {
			bad = parse_time(arg, &c->sample_ns);
		} else if (!strcmp(opt, "--csv") || !strcmp(opt, "--svg")) {
			/* before the run: a file it cannot write is a usage error */
			if (bqlm_cli_out_check("bqlm sim", opt, arg))
				return EXIT_USAGE;
			*(opt[2] == 'c' ? &o->csv : &o->svg) = arg;
		} else if (!strcmp(opt, "--sweep")) {
			if (c->dev == BQLM_SIM_TUN)
				bad = strcmp(arg, "ring") != 0;
			else if (strcmp(arg, "link") && strcmp(arg, "bh") &&
				 strcmp(arg, "fifo"))
				bad = 1;
			o->sweep = arg;
		} else {
			return sim_bad("unknown option '%s'", opt);
		}
		if (bad)
			return sim_bad_value(opt, arg);
	}
	if (!warmup)
		c->warmup_ns = c->duration_ns / 10;
	if (c->warmup_ns > c->duration_ns / 2)
		return sim_bad("%s: the warm-up is at most half the duration",
			       "--warmup");
	if (bqlm_sim_cfg_resolve(c))
		return sim_bad("%s", "parameters out of range (see docs/sim.md: link 1 Mbit/s..10 Gbit/s, duration up to 600 s, FIFO at least one frame, ping interval >= 100us, ping jitter <= interval, sample >= 10us, HZ 100..1000)");
	return 0;
}

/* Run one simulation; progress on a terminal. */
static struct bqlm_sim *run_one(const struct bqlm_sim_cfg *cfg,
				struct bqlm_sim_result *res, double *wall,
				bool progress)
{
	struct bqlm_sim *sim = bqlm_sim_create(cfg);
	u64 step = 100 * BQLM_NSEC_PER_MSEC, t;
	double t0;

	if (!sim)
		return NULL;
	progress = progress && isatty(2);
	t0 = bqlm_cli_now();
	for (t = step; ; t += step) {
		bqlm_sim_run_until(sim, t);
		if (progress)
			fprintf(stderr, "\rsim: %.1f / %.1f s simulated",
				bqlm_sim_now(sim) / 1e9, cfg->duration_ns / 1e9);
		if (t >= cfg->duration_ns)
			break;
	}
	*wall = bqlm_cli_now() - t0;
	if (progress)
		fprintf(stderr, "\r%50s\r", "");
	if (bqlm_sim_result(sim, res)) {
		bqlm_sim_destroy(sim);
		return NULL;
	}
	return sim;
}

static void print_header(const struct bqlm_sim_cfg *c)
{
	if (c->dev == BQLM_SIM_TUN) {
		printf("tun TX simulation: ring %u, qdisc band limit %u, reader %.4g Mbit/s of %u-byte packets, qdisc %s\n",
		       c->ring, c->txqueuelen, c->reader_bps / 1e6, c->len,
		       c->prio_ping ? "pfifo_fast (ping in band 0)" :
		       "fifo (ping with the bulk)");
		if (c->traffic == BQLM_SIM_UDP)
			printf("  UDP offered %.4g Mbit/s", c->udp_bps / 1e6);
		else
			printf("  TCP-like window %u packets, ack %u us after the read",
			       c->window, c->ack_ns / 1000);
		printf(", ping every %.4g ms, %.4g s simulated (%.4g s warm-up), seed %llu\n",
		       c->ping_ns / 1e6, c->duration_ns / 1e9,
		       c->warmup_ns / 1e9, c->seed);
		if (c->ping_jitter_ns)
			printf("  ping jitter U[0,%.4g) us\n",
			       c->ping_jitter_ns / 1e3);
		return;
	}
	printf("usbnet TX simulation: link %.4g Mbit/s, USB%d (bus %.6g Mbit/s, maxpacket %u), tx_qlen %u, MTU %u, adapter FIFO %u B\n",
	       c->link_bps / 1e6, (int)c->usb, c->usb_bps / 1e6, c->maxpacket,
	       c->tx_qlen, c->mtu, c->fifo_bytes);
	printf("  irq interval %u us, bh delay %u+U[0,%u) us, HZ %u, qdisc %s, ping %u B every %.4g ms\n",
	       c->irq_ns / 1000, c->bh_ns / 1000, c->bh_jitter_ns / 1000,
	       c->hz, c->prio_ping ? "pfifo_fast (ping in band 0)" :
	       "fifo (ping with the bulk)", c->ping_len, c->ping_ns / 1e6);
	if (c->traffic == BQLM_SIM_UDP)
		printf("  UDP offered %.4g Mbit/s of %u-byte frames", c->udp_bps / 1e6,
		       c->len);
	else
		printf("  TCP-like window %u packets, ack %u us after the wire",
		       c->window, c->ack_ns / 1000);
	printf(", %.4g s simulated (%.4g s warm-up), seed %llu\n",
	       c->duration_ns / 1e9, c->warmup_ns / 1e9, c->seed);
	/* only what differs from the defaults, which the lines above omit */
	if (c->fixup_hdr != 8 || c->bus_tick_ns || c->ping_jitter_ns)
		printf("  tx_fixup() header %u B, bus %s%.4g us, ping jitter U[0,%.4g) us\n",
		       c->fixup_hdr,
		       c->bus_tick_ns ? "frame-scheduled, tick " :
					"continuous",
		       c->bus_tick_ns ? c->bus_tick_ns / 1e3 : 0.0,
		       c->ping_jitter_ns / 1e3);
}

static void print_table_head(const struct bqlm_sim_cfg *c)
{
	if (c->dev == BQLM_SIM_TUN) {
		printf("  %-12s %10s %10s %10s %12s %9s %9s %9s %10s\n",
		       "variant", "ping p50", "ping p99", "ping max",
		       "read rate", "qdisc drop", "ring drop", "ping drop",
		       "events");
		return;
	}
	printf("  %-7s %10s %10s %10s %12s %8s %16s %10s\n", "variant",
	       "ping p50", "ping p99", "ping max", "throughput", "drops",
	       "BQL limit p50/max", "events");
}

static void print_row(const struct bqlm_sim_cfg *c,
		      const struct bqlm_sim_result *r)
{
	char lim[32];

	if (c->dev == BQLM_SIM_TUN) {
		printf("  %-12s %7.3f ms %7.3f ms %7.3f ms %7.2f Mb/s %9llu %9llu %9llu %10llu\n",
		       variant_name(c), r->ping_p50 / 1e6, r->ping_p99 / 1e6,
		       r->ping_max / 1e6, r->goodput_bps / 1e6, r->drops,
		       r->ring_drops, r->ping_drops, r->events);
		return;
	}
	if (!usbnet_has_bql(c))
		snprintf(lim, sizeof(lim), "-");
	else
		snprintf(lim, sizeof(lim), "%u/%u", r->limit_p50,
			 r->limit_max);
	printf("  %-7s %7.3f ms %7.3f ms %7.3f ms %7.2f Mb/s %8llu %16s %10llu\n",
	       variant_name(c), r->ping_p50 / 1e6,
	       r->ping_p99 / 1e6, r->ping_max / 1e6, r->goodput_bps / 1e6,
	       r->drops, lim, r->events);
}

static int write_csv(const char *path, struct bqlm_sim *sim)
{
	const struct bqlm_sim_sample *s;
	const struct bqlm_sim_ping *p;
	unsigned int n, i;
	FILE *f = bqlm_cli_out_open("bqlm sim", path);

	if (!f)
		return -1;
	fprintf(f, "t_ns,series,value\n");
	s = bqlm_sim_samples(sim, &n);
	for (i = 0; i < n; i++) {
		fprintf(f, "%llu,bql_limit,%u\n", s[i].t, s[i].limit);
		fprintf(f, "%llu,bql_inflight,%u\n", s[i].t, s[i].inflight);
		fprintf(f, "%llu,txq_urbs,%u\n", s[i].t, s[i].txq);
		fprintf(f, "%llu,qdisc_pkts,%u\n", s[i].t, s[i].qdisc);
		fprintf(f, "%llu,fifo_bytes,%u\n", s[i].t, s[i].fifo);
	}
	p = bqlm_sim_pings(sim, &n);
	for (i = 0; i < n; i++)
		fprintf(f, "%llu,ping_latency_ns,%llu\n", p[i].sent, p[i].lat);
	return bqlm_cli_out_close("bqlm sim", path, f, true);
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* the value the second SVG panel draws: the BQL limit, or the tun ring */
/* One simulation drawn by write_svg(). */
struct svg_run {
	const struct bqlm_sim_cfg *c;
	struct bqlm_sim *sim;
};

static const char *const svg_colors[] = { "#c00", "#06c", "#090" };

/* A log10 axis position of @v in [@lo, @hi] (decades) over @len. */
static double svg_log(double v, double lo, double hi, double len)
{
	if (v < lo)
		v = lo;
	return len * (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
}

/* "0.01 ms", "1 ms", "100 ms": a decade tick's label. */
static void svg_ms(char *buf, size_t len, double ms)
{
	int digits = ms < 1 ? (int)(-floor(log10(ms)) + 0.5) : 0;

	snprintf(buf, len, "%.*f ms", digits, ms);
}

/*
 * Panel 1: the ping latency CDF of every run on one log axis with a tick
 * per decade; panel 2: over time, the BQL limit (solid) and the bytes in
 * flight by the DQL (dashed) of every usbnet run with BQL, or the ring
 * entries of every tun run. One colour per variant, with a legend.
 */
static int write_svg(const char *path, const struct svg_run *runs,
		     unsigned int nr)
{
	const double W = 470, H = 320, L = 70, T = 30, PW = 370, PH = 220;
	const struct bqlm_sim_cfg *c0 = runs[0].c;
	bool tun = c0->dev == BQLM_SIM_TUN;
	double lo = 1e9, hi = 0, x, ymax = 1, ms;
	unsigned long long **lat;
	unsigned int n, i, r;
	char label[32];
	int ret = -1;
	FILE *f;

	lat = calloc(nr, sizeof(*lat));
	if (!lat)
		return -1;
	for (r = 0; r < nr; r++) {
		const struct bqlm_sim_ping *p = bqlm_sim_pings(runs[r].sim, &n);
		const struct bqlm_sim_sample *s = bqlm_sim_samples(runs[r].sim,
								   &i);

		while (i--)
			ymax = fmax(ymax, tun ? s[i].fifo :
				    fmax(s[i].limit, s[i].inflight));
		lat[r] = malloc(sizeof(**lat) * (n ? n : 1));
		if (!lat[r])
			goto out;
		for (i = 0; i < n; i++) {
			lat[r][i] = p[i].lat;
			lo = fmin(lo, p[i].lat / 1e6);
			hi = fmax(hi, p[i].lat / 1e6);
		}
		qsort(lat[r], n, sizeof(**lat), cmp_u64);
	}
	if (hi <= 0)
		lo = hi = 1;
	lo = pow(10, floor(log10(lo > 0 ? lo : 1e-3)));
	hi = pow(10, ceil(log10(hi)));
	if (hi <= lo)
		hi = lo * 10;
	f = bqlm_cli_out_open("bqlm sim", path);
	if (!f)
		goto out;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" font-family=\"sans-serif\" font-size=\"11\">\n",
		2 * W, H);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%g\" y=\"18\">ping latency CDF, %s (log scale)</text>\n",
		L, tun ? "tun" : "usbnet");
	fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n",
		L, T, PW, PH);
	for (ms = lo; ms <= hi * 1.001; ms *= 10) {
		x = L + svg_log(ms, lo, hi, PW);
		svg_ms(label, sizeof(label), ms);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n",
			x, T, x, T + PH, x, T + PH + 14, label);
	}
	for (i = 0; i <= 4; i++)
		fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n",
			L, T + PH - PH * i / 4.0, L + PW, T + PH - PH * i / 4.0,
			L - 4, T + PH - PH * i / 4.0 + 4, i / 4.0);
	for (r = 0; r < nr; r++) {
		bqlm_sim_pings(runs[r].sim, &n);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			svg_colors[r % ARRAY_SIZE(svg_colors)]);
		for (i = 0; i < n; i++)
			fprintf(f, "%.1f,%.1f ",
				L + svg_log(lat[r][i] / 1e6, lo, hi, PW),
				T + PH - PH * (i + 1.0) / n);
		fprintf(f, "\"/>\n<text x=\"%g\" y=\"%g\" fill=\"%s\">%s</text>\n",
			L + 8, T + 16 + 14 * r,
			svg_colors[r % ARRAY_SIZE(svg_colors)],
			variant_name(runs[r].c));
	}
	fprintf(f, "<text x=\"%g\" y=\"18\">%s over time</text>\n", W + L,
		tun ? "ring entries" :
		"BQL limit (solid) and bytes in flight (dashed)");
	fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n",
		W + L, T, PW, PH);
	for (r = 0; r < nr; r++) {
		const struct bqlm_sim_sample *s = bqlm_sim_samples(runs[r].sim,
								   &n);
		const char *col = svg_colors[r % ARRAY_SIZE(svg_colors)];
		unsigned int k;

		for (k = 0; k < 2; k++) {
			/* no DQL without BQL; one series for tun */
			if (!tun && !usbnet_has_bql(runs[r].c))
				continue;
			if (k == 1 && tun)
				continue;
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\"%s points=\"",
				col, k ? " stroke-dasharray=\"4,3\"" : "");
			for (i = 0; i < n; i++)
				fprintf(f, "%.1f,%.1f ",
					W + L + PW * (double)s[i].t /
					runs[r].c->duration_ns,
					T + PH - PH * (tun ? s[i].fifo : k ?
						       s[i].inflight :
						       s[i].limit) / ymax);
			fprintf(f, "\"/>\n");
		}
		fprintf(f, "<text x=\"%g\" y=\"%g\" fill=\"%s\">%s%s</text>\n",
			W + L + 8, T + 16 + 14 * r, col,
			variant_name(runs[r].c),
			!tun && !usbnet_has_bql(runs[r].c) ?
			" (no DQL)" : "");
	}
	for (i = 0; i <= 4; i++)
		fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%.3g s</text><text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
			W + L + PW * i / 4.0, T + PH + 14,
			c0->duration_ns / 1e9 * i / 4.0, W + L - 4,
			T + PH - PH * i / 4.0 + 4, ymax * i / 4.0);
	fprintf(f, "</svg>\n");
	ret = bqlm_cli_out_close("bqlm sim", path, f, true);
out:
	for (r = 0; r < nr; r++)
		free(lat[r]);
	free(lat);
	return ret;
}

static int run_pair(struct bqlm_sim_cfg *c, const char *label)
{
	static const enum bqlm_usbnet_variant vars[] = {
		BQLM_USBNET_NO_BQL, BQLM_USBNET_FIXED,
	};
	struct bqlm_sim_result r;
	struct bqlm_sim *sim;
	unsigned int v, n = c->dev == BQLM_SIM_TUN ? ARRAY_SIZE(tun_variants) : 2;
	double wall;

	for (v = 0; v < n; v++) {
		if (c->dev == BQLM_SIM_TUN)
			c->tun_variant = tun_variants[v];
		else
			c->variant = vars[v];
		sim = run_one(c, &r, &wall, true);
		if (!sim) {
			fprintf(stderr, "bqlm sim: out of memory\n");
			return 4;
		}
		printf("  %-18s", label);
		print_row(c, &r);
		bqlm_sim_destroy(sim);
	}
	return 0;
}

static int run_sweep(struct sim_opts *o)
{
	static const unsigned long long links[] = {
		100000000ULL, 1000000000ULL, 2500000000ULL,
	};
	static const unsigned int bhs[] = {
		0, 50000, 200000, 1000000, 4000000,
	};
	static const unsigned int fifos[] = {
		2048, 8192, 24576, 65536, 262144,
	};
	static const unsigned int rings[] = {
		25, 50, 100, 250, 500,
	};
	struct bqlm_sim_cfg c = o->cfg;
	char label[64];
	unsigned int i;
	int ret;

	print_header(&c);
	printf("  sweep of %s:\n  %-18s", o->sweep, "");
	print_table_head(&c);
	for (i = 0; i < 5; i++) {
		c = o->cfg;
		if (!strcmp(o->sweep, "ring")) {
			c.ring = rings[i];
			c.txqueuelen = rings[i];
			snprintf(label, sizeof(label), "ring %u", rings[i]);
		} else if (!strcmp(o->sweep, "link")) {
			if (i >= 3)
				break;
			c.link_bps = links[i];
			c.udp_bps = c.link_bps + c.link_bps / 10;
			snprintf(label, sizeof(label), "link %.4g Mb/s",
				 c.link_bps / 1e6);
		} else if (!strcmp(o->sweep, "bh")) {
			c.bh_ns = bhs[i];
			snprintf(label, sizeof(label), "bh %u us",
				 bhs[i] / 1000);
		} else {
			c.fifo_bytes = fifos[i];
			snprintf(label, sizeof(label), "fifo %u B", fifos[i]);
		}
		if (bqlm_sim_cfg_resolve(&c))
			return sim_bad("%s", "sweep parameters out of range");
		ret = run_pair(&c, label);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * --svg: the other variants of the comparison (usbnet: no-bql and fixed;
 * tun: stock, stop-2019, backpressure) run with the same parameters, their
 * rows printed, and all drawn on the same axes with @sim's run.
 */
static int svg_compare(const struct sim_opts *o, struct bqlm_sim *sim)
{
	static const enum bqlm_usbnet_variant usb[] = {
		BQLM_USBNET_NO_BQL, BQLM_USBNET_FIXED,
	};
	struct bqlm_sim_cfg cfg[ARRAY_SIZE(tun_variants)];
	struct svg_run runs[ARRAY_SIZE(tun_variants)];
	bool tun = o->cfg.dev == BQLM_SIM_TUN;
	unsigned int nr = tun ? ARRAY_SIZE(tun_variants) : ARRAY_SIZE(usb);
	struct bqlm_sim_result r;
	unsigned int v;
	double wall;
	int ret;

	printf("  --svg: the same parameters with the other variants:\n");
	for (v = 0; v < nr; v++) {
		cfg[v] = *bqlm_sim_get_cfg(sim);
		if (tun)
			cfg[v].tun_variant = tun_variants[v];
		else
			cfg[v].variant = usb[v];
		runs[v].c = &cfg[v];
		runs[v].sim = NULL;
		if (tun ? cfg[v].tun_variant == o->cfg.tun_variant :
			  cfg[v].variant == o->cfg.variant) {
			runs[v].sim = sim;
			continue;
		}
		runs[v].sim = run_one(&cfg[v], &r, &wall, true);
		if (!runs[v].sim)
			break;
		print_row(&cfg[v], &r);
	}
	ret = v < nr ? -1 : write_svg(o->svg, runs, nr);
	while (v--)
		if (runs[v].sim != sim)
			bqlm_sim_destroy(runs[v].sim);
	return ret;
}

/**
 * bqlm_cli_sim() - the sim command
 * @argc: arguments after "sim"
 * @argv: them
 *
 * Return: the exit status: 0, 1 when the usbnet or tun model reported an
 * error or an invariant violation (or ran out of skb slots or packet
 * ids), 2 for bad
 * usage, 4 for no memory or a file that cannot be written.
 */
int bqlm_cli_sim(int argc, char **argv)
{
	const struct bqlm_usbnet_cfg *ucfg;
	struct bqlm_sim_result r;
	struct bqlm_sim *sim;
	struct sim_opts o;
	char checks[256];
	double wall;
	int ret;

	ret = parse_sim(argc, argv, &o);
	if (ret)
		return ret;
	if (o.sweep)
		return run_sweep(&o);
	sim = run_one(&o.cfg, &r, &wall, true);
	if (!sim) {
		fprintf(stderr, "bqlm sim: out of memory\n");
		return 4;
	}
	print_header(bqlm_sim_get_cfg(sim));
	print_table_head(&o.cfg);
	print_row(&o.cfg, &r);
	bqlm_cli_check_names(checks, sizeof(checks), r.violated);
	if (o.cfg.dev == BQLM_SIM_TUN)
		printf("  offered %llu, produced %llu, queue stops %llu\n"
		       "  model/tun/tun.c: model errors %llu, accounting violations %llu (checks violated: %s), packet ids exhausted %llu\n",
		       r.offered, r.urbs, r.stops, r.dql_errors, r.violations,
		       checks, r.skb_exhausted);
	else if (bqlm_sim_usbnet(sim, &ucfg))
		printf("  URBs %llu, interrupts %llu, usbnet_bh runs %llu, TX_QLEN stops %llu, BQL stops %llu\n"
		       "  model/usbnet/usbnet.c: %u skb slots, DQL errors %llu, invariant violations %llu (checks violated: %s), skb slots exhausted %llu\n",
		       r.urbs, r.irqs, r.bh_runs, r.stops, r.bql_stops,
		       ucfg->skbs, r.dql_errors, r.violations, checks,
		       r.skb_exhausted);
	printf("  simulator: packet pool %u, most alive at once %u, no room %llu\n",
	       r.pkts, r.pkts_max, r.overflows);
	printf("  digest %016llx; wall %.3f s, %.3g events/s\n", r.digest, wall,
	       wall > 0 ? r.events / wall : 0.0);
	ret = r.dql_errors || r.violations || r.skb_exhausted ||
	      r.overflows ? 1 : 0;
	if (o.csv && write_csv(o.csv, sim))
		ret = 4;
	if (o.svg && svg_compare(&o, sim))
		ret = 4;
	bqlm_sim_destroy(sim);
	return ret;
}

/**
 * bqlm_cli_sim_bench() - simulated events per second, for make bench
 *
 * Runs 10 s simulated at 2.5 Gbit/s over USB3 with the fixed variant.
 */
void bqlm_cli_sim_bench(void)
{
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg c;
	struct bqlm_sim *sim;
	double wall;

	bqlm_sim_cfg_default(&c);
	c.link_bps = 2500000000ULL;
	sim = run_one(&c, &r, &wall, false);
	if (!sim)
		return;
	printf("simulator: 10 s simulated at 2.5 Gbit/s (USB3, fixed): %llu events in %.3f s wall, %.3g events/s\n",
	       r.events, wall, wall > 0 ? r.events / wall : 0.0);
	bqlm_sim_destroy(sim);
}
