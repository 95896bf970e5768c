// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm bench: the larger explorations, reduced (symmetry)
 * and, where affordable, with --no-reduction, with states, time, bytes a
 * state and the factor.
 */
#include <stdio.h>
#include <string.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/tun.h>
#include <bqlm/usbnet.h>

#include "cli.h"
#include "bqlm_reduce.h"

/* One row: the search of @sys, reduced or full; 0 or EXIT_INTERNAL. */
static int bqlm_reduce_row(const char *name, const struct bqlm_xsys *sys,
			   bool full, struct bqlm_xresult *res, double *secs)
{
	struct bqlm_xbounds bounds = { .no_reduction = full };
	struct bqlm_cli_explore e = {
		.sys = sys, .bounds = &bounds, .quiet = true,
		.res = res, .secs = secs,
	};
	int ret = bqlm_cli_run_explore(&e);

	if (ret == EXIT_INTERNAL)
		return ret;
	printf("  %-44s %-8s %9llu %10llu %8.3f %7.0f  %s%s\n", name,
	       full ? "full" : "reduced", res->states, res->transitions,
	       *secs, res->states ? (double)res->memory / res->states : 0.0,
	       bqlm_check_name(bqlm_xresult_verdict(res)),
	       res->complete ? "" : " (INCOMPLETE)");
	return 0;
}

/* The reduced search, then the full one when @full_too; the factor. */
static void bqlm_reduce_pair(const char *name, const struct bqlm_xsys *sys,
			     bool full_too, const char *why_not)
{
	struct bqlm_xresult r, f;
	double rs = 0, fs = 0;

	if (bqlm_reduce_row(name, sys, false, &r, &rs))
		return;
	if (!full_too) {
		printf("  %-44s %-8s %s\n", "", "full", why_not);
		return;
	}
	if (bqlm_reduce_row(name, sys, true, &f, &fs))
		return;
	printf("  %-44s %-8s %9.2f %10.2f %8.2f %7s  %s\n", "", "factor",
	       r.states ? (double)f.states / r.states : 0.0,
	       r.transitions ? (double)f.transitions / r.transitions : 0.0,
	       rs > 0 ? fs / rs : 0.0, "",
	       r.violated == f.violated ? "same checks violated" :
	       "DIFFERENT CHECKS VIOLATED");
}

/**
 * bqlm_cli_reduction_bench() - print what the reduction saves on the
 *	explorations with speed targets
 */
void bqlm_cli_reduction_bench(void)
{
	struct bqlm_usbnet_cfg ucfg;
	struct bqlm_tun_cfg tcfg;
	struct bqlm_xsys sys;
	char name[64];
	unsigned int p, v;
	static const enum bqlm_tun_variant tv[] = {
		BQLM_TUN_BACKPRESSURE, BQLM_TUN_BACKPRESSURE_NOBARRIER,
	};

	printf("explorer reduction (targets: usbnet fixed 5 packets < 2 s, 6 packets < 10 s;\n"
	       "  tun backpressure tso 2 queues < 2 s, backpressure-nobarrier's stall < 3 s):\n");
	printf("  %-44s %-8s %9s %10s %8s %7s  %s\n", "exploration", "search",
	       "states", "transitns", "time s", "B/state", "verdict");
	for (p = 5; p <= 6; p++) {
		bqlm_usbnet_cfg_default(&ucfg, BQLM_USBNET_FIXED);
		ucfg.packets = p;
		if (bqlm_usbnet_system(&ucfg, &sys))
			continue;
		snprintf(name, sizeof(name), "usbnet --variant fixed --packets %u",
			 p);
		bqlm_reduce_pair(name, &sys, p == 5,
				 "not run: over 16.7 M states (the default state bound) and 4.4 GB");
	}
	for (v = 0; v < ARRAY_SIZE(tv); v++) {
		bqlm_tun_cfg_default(&tcfg, tv[v]);
		tcfg.mm = BQLM_MM_TSO;
		tcfg.queues = 2;
		if (bqlm_tun_system(&tcfg, &sys))
			continue;
		snprintf(name, sizeof(name), "tun %s tso 2 queues",
			 bqlm_tun_variant_name(tv[v]));
		bqlm_reduce_pair(name, &sys, true, NULL);
	}
}
