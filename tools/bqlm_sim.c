// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm - the sim command: the timing simulation of model/sim.c.
 *
 *   bqlm sim usbnet [--link RATE] [--usb 2|3] [--variant no-bql|fixed]
 *                   [--duration T] [--seed N] [--csv FILE] [--svg FILE]
 *                   [--sweep link|bh|fifo] [more options, see usage]
 *   bqlm sim tun [--variant stock|stop-2019|backpressure] [--ring N]
 *                [--reader RATE] [--sweep ring] [common options]
 */
#include <errno.h>
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
		"  --usb-rate RATE    bus data rate, 1mbit..20gbit (default 425.984mbit / 4gbit)\n"
		"  --irq T            interrupt moderation, 1ns..100ms (default 125us / 40us)\n"
		"  --bh-delay T       irq to usbnet_bh(), 0..100ms (default 10us)\n"
		"  --bh-jitter T      plus uniform jitter below T, 0..100ms (default 10us)\n"
		"  --hz N             HZ, 100..1000 (default 250)\n"
		"  --qdisc prio|fifo  ping in pfifo_fast band 0, or with the bulk (default prio)\n"
		"  --traffic udp|tcp  bulk sender (default udp)\n"
		"  --udp-rate RATE    UDP offered rate, 1kbit..1000gbit (default 110%% of the link)\n"
		"  --window N         TCP-like window, packets, 1..4096 (default 256)\n"
		"  --ping-interval T  at least 100us (default 10ms)\n"
		"  --sample T         time-series interval, at least 10us (default 1ms)\n"
		"  --csv FILE         write the time series (t_ns,series,value)\n"
		"  --svg FILE         draw the ping latency CDF and the BQL limit\n"
		"  --sweep KIND       link, bh or fifo: both variants over a range\n"
		"       bqlm sim tun [options]      tun TX ring and its reader\n"
		"tun options (and --duration, --seed, --qdisc, --traffic, --udp-rate,\n"
		"             --window, --ping-interval, --csv, --svg from above):\n"
		"  --variant NAME     stock, stop-2019, backpressure (default backpressure)\n"
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
	{ "--usb-rate", "a rate, 1mbit..20gbit" },
	{ "--irq", "a time, 1ns..100ms" },
	{ "--bh-delay", "a time, 0..100ms" },
	{ "--bh-jitter", "a time, 0..100ms" },
	{ "--hz", "a number, 100..1000" },
	{ "--qdisc", "prio or fifo" },
	{ "--traffic", "udp or tcp" },
	{ "--udp-rate", "a rate, 1kbit..1000gbit" },
	{ "--window", "a number, 1..4096" },
	{ "--ping-interval", "a time, at least 100us" },
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

static int parse_sim(int argc, char **argv, struct sim_opts *o)
{
	struct bqlm_sim_cfg *c = &o->cfg;
	unsigned long long v;
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
			    var != BQLM_TUN_BACKPRESSURE)
				return sim_bad("--variant: 'stock', 'stop-2019' or 'backpressure', not '%s'",
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
		} else if (!strcmp(opt, "--usb-rate")) {
			bad = parse_rate(arg, &c->usb_bps);
		} else if (!strcmp(opt, "--irq")) {
			bad = parse_time(arg, &v) || !v || v > 100000000;
			c->irq_ns = v;
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
			if (!strcmp(arg, "prio"))
				c->prio_ping = true;
			else if (!strcmp(arg, "fifo"))
				c->prio_ping = false;
			else
				bad = 1;
		} else if (!strcmp(opt, "--traffic")) {
			if (!strcmp(arg, "udp"))
				c->traffic = BQLM_SIM_UDP;
			else if (!strcmp(arg, "tcp"))
				c->traffic = BQLM_SIM_TCP;
			else
				bad = 1;
		} else if (!strcmp(opt, "--udp-rate")) {
			bad = parse_rate(arg, &c->udp_bps) || !c->udp_bps;
		} else if (!strcmp(opt, "--window")) {
			bad = parse_num(arg, BQLM_SIM_MAX_WINDOW, &v) || !v;
			c->window = v;
		} else if (!strcmp(opt, "--ping-interval")) {
			bad = parse_time(arg, &c->ping_ns);
		} else if (!strcmp(opt, "--sample")) {
			bad = parse_time(arg, &c->sample_ns);
		} else if (!strcmp(opt, "--csv")) {
			o->csv = arg;
		} else if (!strcmp(opt, "--svg")) {
			o->svg = arg;
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
		return sim_bad("%s", "parameters out of range (see docs/sim.md: link 1 Mbit/s..10 Gbit/s, duration up to 600 s, FIFO at least one frame, ping interval >= 100us, sample >= 10us, HZ 100..1000)");
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
	if (c->variant == BQLM_USBNET_NO_BQL)
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
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "bqlm sim: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
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
	if (fclose(f)) {
		fprintf(stderr, "bqlm sim: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* the value the second SVG panel draws: the BQL limit, or the tun ring */
static unsigned int sample_val(const struct bqlm_sim_cfg *c,
			       const struct bqlm_sim_sample *s)
{
	return c->dev == BQLM_SIM_TUN ? s->fifo : s->limit;
}

/* Two panels: the ping latency CDF and the BQL limit over time. */
static int write_svg(const char *path, struct bqlm_sim *sim,
		     const struct bqlm_sim_cfg *c)
{
	const double W = 420, H = 300, L = 60, T = 30, PW = 340, PH = 220;
	const struct bqlm_sim_sample *s;
	const struct bqlm_sim_ping *p;
	unsigned long long *lat;
	unsigned int n, i, lmax = 1;
	double xmax;
	FILE *f;

	p = bqlm_sim_pings(sim, &n);
	lat = malloc(sizeof(*lat) * (n ? n : 1));
	if (!lat)
		return -1;
	for (i = 0; i < n; i++)
		lat[i] = p[i].lat;
	qsort(lat, n, sizeof(*lat), cmp_u64);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "bqlm sim: cannot write %s: %s\n", path,
			strerror(errno));
		free(lat);
		return -1;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" font-family=\"sans-serif\" font-size=\"11\">\n",
		2 * W, H);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	/* panel 1: CDF */
	xmax = n ? lat[n - 1] / 1e6 : 1;
	if (xmax <= 0)
		xmax = 1;
	fprintf(f, "<text x=\"%g\" y=\"18\">ping latency CDF (%s %s)</text>\n",
		L, c->dev == BQLM_SIM_TUN ? "tun" : "usbnet", variant_name(c));
	fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n",
		L, T, PW, PH);
	fprintf(f, "<polyline fill=\"none\" stroke=\"#c00\" points=\"");
	for (i = 0; i < n; i++)
		fprintf(f, "%.1f,%.1f ", L + PW * (lat[i] / 1e6) / xmax,
			T + PH - PH * (i + 1.0) / n);
	fprintf(f, "\"/>\n");
	fprintf(f, "<text x=\"%g\" y=\"%g\">0</text><text x=\"%g\" y=\"%g\" text-anchor=\"end\">%.3f ms</text>\n",
		L, T + PH + 14, L + PW, T + PH + 14, xmax);
	fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">1</text><text x=\"%g\" y=\"%g\" text-anchor=\"end\">0</text>\n",
		L - 4, T + 8, L - 4, T + PH);
	/* panel 2: limit over time */
	s = bqlm_sim_samples(sim, &n);
	for (i = 0; i < n; i++)
		if (sample_val(c, &s[i]) > lmax)
			lmax = sample_val(c, &s[i]);
	fprintf(f, "<text x=\"%g\" y=\"18\">%s over time</text>\n",
		W + L, c->dev == BQLM_SIM_TUN ? "ring entries" :
		"BQL limit (bytes)");
	fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" stroke=\"black\"/>\n",
		W + L, T, PW, PH);
	fprintf(f, "<polyline fill=\"none\" stroke=\"#00c\" points=\"");
	for (i = 0; i < n; i++)
		fprintf(f, "%.1f,%.1f ",
			W + L + PW * (double)s[i].t / c->duration_ns,
			T + PH - PH * (double)sample_val(c, &s[i]) / lmax);
	fprintf(f, "\"/>\n");
	fprintf(f, "<text x=\"%g\" y=\"%g\">0 s</text><text x=\"%g\" y=\"%g\" text-anchor=\"end\">%.3g s</text>\n",
		W + L, T + PH + 14, W + L + PW, T + PH + 14,
		c->duration_ns / 1e9);
	fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%u</text><text x=\"%g\" y=\"%g\" text-anchor=\"end\">0</text>\n",
		W + L - 4, T + 8, lmax, W + L - 4, T + PH);
	fprintf(f, "</svg>\n");
	free(lat);
	if (fclose(f)) {
		fprintf(stderr, "bqlm sim: cannot write %s\n", path);
		return -1;
	}
	return 0;
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
		       "  model/tun.c: model errors %llu, accounting violations %llu (checks violated: %s), packet ids exhausted %llu\n",
		       r.offered, r.urbs, r.stops, r.dql_errors, r.violations,
		       checks, r.skb_exhausted);
	else if (bqlm_sim_usbnet(sim, &ucfg))
		printf("  URBs %llu, interrupts %llu, usbnet_bh runs %llu, TX_QLEN stops %llu, BQL stops %llu\n"
		       "  model/usbnet.c: %u skb slots, DQL errors %llu, invariant violations %llu (checks violated: %s), skb slots exhausted %llu\n",
		       r.urbs, r.irqs, r.bh_runs, r.stops, r.bql_stops,
		       ucfg->skbs, r.dql_errors, r.violations, checks,
		       r.skb_exhausted);
	printf("  digest %016llx; wall %.3f s, %.3g events/s\n", r.digest, wall,
	       wall > 0 ? r.events / wall : 0.0);
	ret = r.dql_errors || r.violations || r.skb_exhausted ? 1 : 0;
	if (o.csv && write_csv(o.csv, sim))
		ret = 4;
	if (o.svg && write_svg(o.svg, sim, bqlm_sim_get_cfg(sim)))
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
