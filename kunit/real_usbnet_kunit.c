// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own drivers/net/usb/usbnet.c under the model's schedules
 * (real/, docs/real-usbnet.md).
 *
 * bqlm_real_usbnet_replay: the explorer runs on the model, in the kernel,
 * and for every check it finds violated, its shortest witness is replayed
 * on the real code of the same variant, the model in lockstep: the real
 * state must equal the model's after every step, and the model's
 * invariants, checked on the real state, must be violated at exactly the
 * step the model is. The over-completion is reported at the real
 * netdev_completed_queue(), never made: the kernel goes on.
 *
 * bqlm_real_usbnet_equivalence: seeded random paths of the model, each
 * replayed on a fresh real device of the same variant, compared after
 * every step (the 22 fields of struct dql, both XOFF bits, dev->txq and
 * dev->done lengths, the event flags, the pending bottom halves and which
 * actors are in the middle of their work).
 *
 * bqlm_real_usbnet_explore: a search of the real code alone, at one packet;
 * its first case runs a search that diverges from the model inside ifdown
 * (injected): it stops and says where, tears its device down, and the next
 * harness works.
 *
 * bqlm_real_usbnet_schedule: "make kunit-replay SCHEDULE=FILE".
 *
 * Each case names the usbnet minidriver whose driver_info usbnet runs with
 * (real/usbnet/minidrivers.h: "harness" is the harness's own, FLAG_ETHER
 * and no tx_fixup()); the harness puts the model's description of it in
 * the configuration. Without the harness (userspace) every case skips.
 */
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/prng.h>
#include <bqlm/usbnet.h>

#include "real_kunit.h"
#include "usbnet_ifdown.h"

/**
 * struct real_usbnet_param - a configuration of the real usbnet.c
 * @desc: its name in the results
 * @suites: REAL_REPLAY, REAL_EQUIVALENCE | REAL_SEARCH: which run it
 * @variant: the usbnet variant
 * @driver: the minidriver (an entry of real/usbnet/minidrivers.h)
 * @packets: packets the stack sends
 * @stops: ifdowns
 * @suspends: suspends
 * @expect: replays: the checks the model's search finds violated
 * @key: replays: the verdict's check ...
 * @depth: ... and the length of its witness
 * @search: what the search at one packet finds: REAL_ANY (the model's
 *	verdicts, whatever they are), REAL_CLEAN or REAL_VIOLATED
 * @witness_of: replays: the witnesses are the model's on this variant
 *	(unfixed), replayed on @variant (a fix): both sides must refuse the
 *	same step of each, with nothing violated before it; 0: @variant's
 * @taken: with @witness_of: the fix takes every step of each witness
 *	instead (it changes a step's outcome, not whether it can happen),
 *	both sides equal after each and nothing violated
 * @reset_resume: the resume is the minidriver's reset_resume()
 * @mtu_qlen: 0, or the TX_QLEN a run-time MTU change gives (the model's
 *	mtu-qlen: usbnet_change_mtu() at any step)
 * @autosuspend: the suspend is a runtime autosuspend (PMSG_AUTO_SUSPEND:
 *	-EBUSY while dev->txq holds an URB)
 * @disconnect: the device may be unplugged at any step, once
 *	(usbnet_disconnect(), the model's --disconnect on)
 * @suspend_fails: the minidriver's own suspend work fails after
 *	usbnet_suspend() (the model's pm own-suspend-fails: its device
 *	refuses the entry's control transfer); a minidriver row skips when
 *	the entry names none (and an @autosuspend one when its usb_driver
 *	has no supports_autosuspend)
 * @clean: replays: the model's search must find nothing (a fixed
 *	variant, whatever the minidriver)
 * @every: a row of every variant: it skips for a variant the harness does
 *	not have
 * @no_flap: without its minidriver's link flap (no link-down report), as
 *	the docs' figures of the row were measured
 */
struct real_usbnet_param {
	const char *desc;
	unsigned int suites;
	enum bqlm_usbnet_variant variant;
	const char *driver;
	unsigned int packets;
	unsigned int stops;
	unsigned int suspends;
	unsigned int expect;
	enum bqlm_check key;
	unsigned int depth;
	unsigned int search;
	enum bqlm_usbnet_variant witness_of;
	bool taken;
	bool reset_resume;
	unsigned int mtu_qlen;
	bool autosuspend;
	bool suspend_fails;
	bool disconnect;
	bool clean;
	bool every;
	bool no_flap;
};

#define OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define RS	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)
#define SC	BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION)
#define SA	BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)
#define FB	BQLM_CHECK_BIT(BQLM_CHECK_FREED_BUSY)
#define SN	BQLM_CHECK_BIT(BQLM_CHECK_SUSPEND_COUNT)

/* Replayed; compared on random paths and searched */
#define REPLAY	REAL_REPLAY
#define EACH	(REAL_EQUIVALENCE | REAL_SEARCH)

/* What the search at one packet finds besides the model's verdicts */
#define REAL_ANY	0
#define REAL_CLEAN	1
#define REAL_VIOLATED	2

/* The model's default bound, and the smaller one some minidrivers need */
#define DEFAULT_PACKETS	3
#define SMALL_PACKETS	2

/* The variant with the fixes of docs/findings.md: usbnet's two */
#define FIXES		BQLM_USBNET_FIXED_NCM_STOP

/*
 * The explorations of docs/usbnet.md whose witnesses are replayed: the
 * default bound (3 packets), the race alone, the two findings on the fixed
 * code (cdc_ncm's at the 2 packets it needs), their fixes, and a few
 * minidrivers; every variant and these minidrivers are compared on random
 * paths and searched at one packet. Every other minidriver of
 * real/usbnet/minidrivers.h runs in "make kunit-drivers" (and one in
 * "make kunit-driver DRIVER=NAME"): real_usbnet_driver_rows().
 */
static const struct real_usbnet_param real_usbnet_params[] = {
	{ .desc = "merged-syzbot", .suites = REPLAY,
	  .variant = BQLM_USBNET_MERGED, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | RS | SA,
	  .key = BQLM_CHECK_DQL_OVER_COMPLETION, .depth = 11 },
	{ .desc = "fix-reset-resume", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIX_RESET, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | SA, .key = BQLM_CHECK_BYTE_BALANCE, .depth = 6 },
	{ .desc = "v1", .suites = REPLAY, .variant = BQLM_USBNET_V1,
	  .driver = "harness", .packets = DEFAULT_PACKETS, .stops = 1,
	  .suspends = 1, .expect = OC | BB | RS | SC | SA,
	  .key = BQLM_CHECK_DQL_OVER_COMPLETION, .depth = 12 },
	{ .desc = "v1-race-only", .suites = REPLAY, .variant = BQLM_USBNET_V1,
	  .driver = "harness", .packets = DEFAULT_PACKETS, .expect = SC,
	  .key = BQLM_CHECK_SERIAL_COMPLETION, .depth = 27 },
	{ .desc = "fixed-avoid-unlink", .suites = REPLAY | EACH,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness_avoid_unlink",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | RS, .key = BQLM_CHECK_DQL_OVER_COMPLETION,
	  .depth = 16,
	  .search = REAL_VIOLATED },
	{ .desc = "fixed", .suites = REPLAY, .variant = BQLM_USBNET_FIXED,
	  .driver = "harness", .packets = DEFAULT_PACKETS, .stops = 1,
	  .suspends = 1 },
	{ .desc = "no-bql", .suites = REPLAY, .variant = BQLM_USBNET_NO_BQL,
	  .driver = "harness", .packets = DEFAULT_PACKETS, .stops = 1,
	  .suspends = 1 },
	{ .desc = "merged-cdc_ether", .suites = REPLAY,
	  .variant = BQLM_USBNET_MERGED, .driver = "cdc_ether",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | RS | SA,
	  .key = BQLM_CHECK_DQL_OVER_COMPLETION, .depth = 11 },
	{ .desc = "fixed-aqc111", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED, .driver = "aqc111",
	  .no_flap = true, .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | RS, .key = BQLM_CHECK_DQL_OVER_COMPLETION,
	  .depth = 16 },
	{ .desc = "fixed-cdc_ncm-flush", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED, .driver = "cdc_ncm",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | RS, .key = BQLM_CHECK_DQL_OVER_COMPLETION,
	  .depth = 29 },
	/* the fixes: each finding's witnesses refused on the real code */
	{ .desc = "fixed-avoid-unlink-fix", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED_AVOID_UNLINK,
	  .witness_of = BQLM_USBNET_FIXED, .driver = "aqc111",
	  .no_flap = true,
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | RS },
	{ .desc = "fixed-ncm-stop-fix", .suites = REPLAY,
	  .variant = FIXES, .witness_of = BQLM_USBNET_FIXED,
	  .driver = "cdc_ncm", .packets = SMALL_PACKETS, .stops = 1,
	  .suspends = 1, .expect = OC | RS },
	{ .desc = "fixes-aqc111", .suites = REPLAY, .variant = FIXES,
	  .driver = "aqc111", .no_flap = true, .packets = SMALL_PACKETS,
	  .stops = 1, .suspends = 1, .clean = true },
	{ .desc = "fixes-cdc_ncm", .suites = REPLAY, .variant = FIXES,
	  .driver = "cdc_ncm", .packets = SMALL_PACKETS, .stops = 1,
	  .suspends = 1, .clean = true },
	/*
	 * A minidriver's random paths and search are its own rows
	 * (real_usbnet_driver_row(): make kunit-driver(s)), not static ones
	 */
	{ .desc = "merged-ax88179_178a", .suites = REPLAY,
	  .variant = BQLM_USBNET_MERGED, .driver = "ax88179_178a",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .expect = OC | BB | RS | SA,
	  .key = BQLM_CHECK_DQL_OVER_COMPLETION, .depth = 11 },
	/* a run-time MTU change: TX_QLEN 2 -> 1 and 2 -> 3 at any step */
	{ .desc = "fixed-mtu-qlen-1", .suites = EACH,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .mtu_qlen = 1, .search = REAL_CLEAN },
	{ .desc = "fixed-mtu-qlen-3", .suites = EACH,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .mtu_qlen = 3, .search = REAL_CLEAN },
	/*
	 * runtime autosuspend: usbnet_suspend()'s -EBUSY while transmitting,
	 * of a driver_info whose manage_power() lets the open device
	 * autosuspend (the harness's: once ifdown ended)
	 */
	{ .desc = "fixed-autosuspend", .suites = EACH,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness_manage_power",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .autosuspend = true, .search = REAL_CLEAN },
	{ .desc = "merged-autosuspend", .suites = EACH,
	  .variant = BQLM_USBNET_MERGED, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .autosuspend = true, .search = REAL_VIOLATED },
	/*
	 * The device unplugged at any step, with URBs in flight:
	 * usbnet_disconnect() on the real code. Clean on fixed; merged's
	 * findings as without; under FLAG_AVOID_UNLINK_URBS free_netdev()
	 * finds the bh queued and the skb on dev->done (freed-busy: the
	 * stop's cancel_work_sync(&dev->bh_work) dropped it); the
	 * disconnect's kill of fixed-avoid-unlink closes it
	 */
	{ .desc = "fixed-disconnect", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .clean = true },
	{ .desc = "merged-disconnect", .suites = REPLAY,
	  .variant = BQLM_USBNET_MERGED, .driver = "harness",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .expect = OC | BB | RS | SA,
	  .key = BQLM_CHECK_DQL_OVER_COMPLETION, .depth = 11 },
	{ .desc = "fixed-avoid-unlink-disconnect", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness_avoid_unlink",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .expect = OC | BB | RS | FB,
	  .key = BQLM_CHECK_FREED_BUSY, .depth = 15 },
	/* aqc111's own code in the disconnect: its unbind() frees its data */
	{ .desc = "fixed-aqc111-disconnect", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED, .driver = "aqc111",
	  .no_flap = true, .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .expect = OC | BB | RS | FB,
	  .key = BQLM_CHECK_FREED_BUSY, .depth = 15 },
	{ .desc = "fixed-avoid-unlink-fix-disconnect", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED_AVOID_UNLINK,
	  .witness_of = BQLM_USBNET_FIXED, .driver = "harness_avoid_unlink",
	  .packets = SMALL_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .expect = OC | BB | RS | FB },
	{ .desc = "fixed-avoid-unlink-drained-disconnect", .suites = REPLAY,
	  .variant = BQLM_USBNET_FIXED_AVOID_UNLINK,
	  .driver = "harness_avoid_unlink", .packets = SMALL_PACKETS,
	  .stops = 1, .suspends = 1, .disconnect = true, .clean = true },
	{ .desc = "fixed-disconnect", .suites = EACH,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .search = REAL_CLEAN },
	{ .desc = "merged-disconnect", .suites = EACH,
	  .variant = BQLM_USBNET_MERGED, .driver = "harness",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .search = REAL_VIOLATED },
	{ .desc = "fixed-avoid-unlink-disconnect", .suites = EACH,
	  .variant = BQLM_USBNET_FIXED, .driver = "harness_avoid_unlink",
	  .packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
	  .disconnect = true, .search = REAL_VIOLATED },
	{ .desc = "fixed-avoid-unlink-drained-disconnect", .suites = EACH,
	  .variant = BQLM_USBNET_FIXED_AVOID_UNLINK,
	  .driver = "harness_avoid_unlink", .packets = DEFAULT_PACKETS,
	  .stops = 1, .suspends = 1, .disconnect = true,
	  .search = REAL_CLEAN },
};

/*
 * The minidrivers of real/usbnet/minidrivers.h, by name (its first lines,
 * read in userspace too, so that both harnesses list the same cases)
 */
#define BQLM_RUSBNET_MINIDRIVER(id, srcs)	{ .name = #id, .files = srcs },
/* no entry's blocks: 0, and the name is never evaluated */
#define BQLM_RUSBNET_BEFORE(id)			(0 && REAL_USBNET_NO_##id)
#define BQLM_RUSBNET_AFTER(id)			(0 && REAL_USBNET_NO_##id)
static const struct {
	const char *name;
	const char *files;
} real_usbnet_drivers[] = {
#include "../real/usbnet/minidrivers.h"
};

#undef BQLM_RUSBNET_MINIDRIVER
#undef BQLM_RUSBNET_BEFORE
#undef BQLM_RUSBNET_AFTER

/*
 * A minidriver's own rows (make kunit-driver, make kunit-drivers): the
 * witnesses of the model's search on merged (the BUG of 7ff14c52049e on
 * its code) and on fixed (the findings, if its code has one), replayed;
 * nothing found on the fixes; random paths and the search on merged, on
 * fixed and on the fixes; its reset_resume() on fixed; a run-time MTU
 * change through its own ndo_change_mtu (TX_QLEN 2 -> 1) on fixed; the
 * device unplugged at any step, through its own disconnect() and unbind(),
 * on fixed and on the fixes; its suspend() under runtime autosuspend on
 * fixed and on the fixes (replayed and compared; nothing found on the
 * fixes); its suspend() whose own work fails after
 * usbnet_suspend(), system suspend and autosuspend, where its entry makes
 * the device refuse a control transfer. 2000 paths and a search of a
 * minidriver take seconds to minutes in UML: they are these rows only,
 * never static ones, which make kunit runs.
 */
#define REAL_DRIVER_ROWS	18

static void real_usbnet_driver_row(struct real_usbnet_param *p,
				   const char *driver, unsigned int k,
				   char *name, size_t len)
{
	static const struct {
		const char *what;
		unsigned int suites;
		enum bqlm_usbnet_variant variant;
		unsigned int packets;
		bool clean;
		bool reset_resume;
		unsigned int mtu_qlen;
		bool disconnect;
		bool autosuspend;
		bool fails;
	} rows[REAL_DRIVER_ROWS] = {
		{ .what = "merged", .suites = REPLAY,
		  .variant = BQLM_USBNET_MERGED, .packets = SMALL_PACKETS },
		{ .what = "fixed", .suites = REPLAY,
		  .variant = BQLM_USBNET_FIXED, .packets = SMALL_PACKETS },
		{ .what = "fixes", .suites = REPLAY, .variant = FIXES,
		  .packets = SMALL_PACKETS, .clean = true },
		{ .what = "merged", .suites = EACH,
		  .variant = BQLM_USBNET_MERGED, .packets = DEFAULT_PACKETS },
		{ .what = "fixed", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS },
		{ .what = "fixes", .suites = EACH, .variant = FIXES,
		  .packets = DEFAULT_PACKETS },
		{ .what = "fixed-reset-resume", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS,
		  .reset_resume = true },
		{ .what = "fixed-mtu-qlen-1", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS,
		  .mtu_qlen = 1 },
		{ .what = "fixed-disconnect", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS,
		  .disconnect = true },
		{ .what = "fixes-disconnect", .suites = EACH, .variant = FIXES,
		  .packets = DEFAULT_PACKETS, .disconnect = true },
		{ .what = "fixed-autosuspend", .suites = REPLAY,
		  .variant = BQLM_USBNET_FIXED, .packets = SMALL_PACKETS,
		  .autosuspend = true },
		{ .what = "fixed-autosuspend", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS,
		  .autosuspend = true },
		{ .what = "fixes-autosuspend", .suites = REPLAY,
		  .variant = FIXES, .packets = SMALL_PACKETS, .clean = true,
		  .autosuspend = true },
		{ .what = "fixes-autosuspend", .suites = EACH,
		  .variant = FIXES, .packets = DEFAULT_PACKETS,
		  .autosuspend = true },
		{ .what = "fixed-suspend-fails", .suites = REPLAY,
		  .variant = BQLM_USBNET_FIXED, .packets = SMALL_PACKETS,
		  .fails = true },
		{ .what = "fixed-suspend-fails", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS,
		  .fails = true },
		{ .what = "fixed-autosuspend-fails", .suites = REPLAY,
		  .variant = BQLM_USBNET_FIXED, .packets = SMALL_PACKETS,
		  .autosuspend = true, .fails = true },
		{ .what = "fixed-autosuspend-fails", .suites = EACH,
		  .variant = BQLM_USBNET_FIXED, .packets = DEFAULT_PACKETS,
		  .autosuspend = true, .fails = true },
	};

	snprintf(name, len, "%s-%s", rows[k].what, driver);
	*p = (struct real_usbnet_param) {
		.desc = name, .suites = rows[k].suites,
		.variant = rows[k].variant, .driver = driver,
		.packets = rows[k].packets, .stops = 1, .suspends = 1,
		.clean = rows[k].clean, .reset_resume = rows[k].reset_resume,
		.mtu_qlen = rows[k].mtu_qlen, .disconnect = rows[k].disconnect,
		.autosuspend = rows[k].autosuspend,
		.suspend_fails = rows[k].fails, .every = true,
	};
}

static const char *real_usbnet_driver_param(void);

/*
 * Is minidriver @i's row in this run? Only with bqlm_kunit.driver=NAME
 * (its rows) or =all (every minidriver's but the harness's own).
 */
static bool real_usbnet_driver_on(unsigned int i)
{
	const char *want = real_usbnet_driver_param();

	if (!want)
		return false;
	if (!strcmp(want, "all"))
		return strncmp(real_usbnet_drivers[i].name, "harness", 7);
	return !strcmp(want, real_usbnet_drivers[i].name);
}

static struct real_usbnet_param
real_usbnet_dparams[ARRAY_SIZE(real_usbnet_drivers) * REAL_DRIVER_ROWS];
static char real_usbnet_dnames[ARRAY_SIZE(real_usbnet_dparams)]
			      [KUNIT_PARAM_DESC_SIZE];

/*
 * The parameters of a suite: the static rows of @mask (none when a
 * minidriver was given: its rows only), then the minidrivers' rows
 */
static const void *real_usbnet_rows(const void *prev, char *desc,
				    unsigned int mask)
{
	const struct real_usbnet_param *s = real_usbnet_params;
	struct real_usbnet_param *d = real_usbnet_dparams;
	size_t i = 0;

	if (prev && (const char *)prev >= (const char *)s &&
	    (const char *)prev < (const char *)(s + ARRAY_SIZE(real_usbnet_params)))
		i = (const struct real_usbnet_param *)prev - s + 1;
	else if (prev)
		i = ARRAY_SIZE(real_usbnet_params) +
		    ((const struct real_usbnet_param *)prev - d) + 1;
	for (; !real_usbnet_driver_param() &&
	       i < ARRAY_SIZE(real_usbnet_params); i++)
		if (s[i].suites & mask)
			return real_param_desc(&s[i], s[i].desc, desc);
	if (i < ARRAY_SIZE(real_usbnet_params))
		i = ARRAY_SIZE(real_usbnet_params);
	for (i -= ARRAY_SIZE(real_usbnet_params);
	     i < ARRAY_SIZE(real_usbnet_dparams); i++) {
		if (!real_usbnet_driver_on(i / REAL_DRIVER_ROWS))
			continue;
		real_usbnet_driver_row(&d[i],
				       real_usbnet_drivers[i / REAL_DRIVER_ROWS].name,
				       i % REAL_DRIVER_ROWS,
				       real_usbnet_dnames[i],
				       sizeof(real_usbnet_dnames[i]));
		if (d[i].suites & mask)
			return real_param_desc(&d[i], d[i].desc, desc);
	}
	return NULL;
}

static const void *real_usbnet_replays_gen_params(const void *prev,
						  char *desc)
{
	return real_usbnet_rows(prev, desc, REAL_REPLAY);
}

static const void *real_usbnet_minidrivers_gen_params(const void *prev,
						      char *desc)
{
	return real_usbnet_rows(prev, desc, REAL_EQUIVALENCE);
}

/*
 * Random paths and the search: every variant the model has, with the
 * harness's own driver_info, at the default bound, then the minidrivers.
 */
static struct real_usbnet_param real_usbnet_every[BQLM_USBNET_MAX_VARIANTS];

static const char *real_usbnet_every_fill(void *row, unsigned int v)
{
	struct real_usbnet_param *p = row;

	*p = (struct real_usbnet_param) {
		.desc = bqlm_usbnet_variant_name(v), .suites = EACH,
		.variant = v, .driver = "harness",
		.packets = DEFAULT_PACKETS, .stops = 1, .suspends = 1,
		.every = true,
	};
	return p->desc;
}

static const void *real_usbnet_variants_gen_params(const void *prev,
						   char *desc)
{
	if (real_usbnet_driver_param())
		return real_usbnet_minidrivers_gen_params(prev, desc);
	return real_every_params(prev, desc, real_usbnet_every,
				 bqlm_usbnet_nr_variants(),
				 sizeof(real_usbnet_every[0]),
				 real_usbnet_every_fill,
				 real_usbnet_minidrivers_gen_params);
}

#ifdef CONFIG_BQLM_REAL_HARNESS

#include "../real/usbnet/real.h"
#include "schedule_text.h"

/* bqlm_kunit.driver=NAME|all (make kunit-driver, make kunit-drivers) */
static const char *real_usbnet_driver_param(void)
{
	return bqlm_rusbnet_driver_param();
}

/* Random paths per configuration */
#define REAL_PATHS		2000
/* Their seeds: this base, plus the variant's number */
#define REAL_SEED		(20261130ULL * 16)
/*
 * States the search stores at most: ax88179's rows that unplug the device
 * (its link report through its own status() and link_reset(), which
 * turns the carrier on also during ifdown) have 44067 in the model at one
 * packet
 */
#define REAL_MAX_STATES		60000
/* A schedule's steps at most (make kunit-replay) */
#define REAL_MAX_SCHEDULE	512
/* The search runs at one packet */
#define REAL_SEARCH_PACKETS	1

/*
 * Its minidriver's link flap (a link-down report, then a link-up one) out
 * of a configuration: what a link-up report its callbacks need is left
 */
static void real_usbnet_no_flap(struct bqlm_usbnet_cfg *cfg)
{
	cfg->link_downs = 0;
	cfg->links = !!(cfg->pm & BQLM_USBNET_PM_CARRIER_OFF);
}

/* The model's configuration of a case, its minidriver described. */
static void real_usbnet_cfg(struct kunit *test,
			    const struct real_usbnet_param *p,
			    struct bqlm_usbnet_cfg *cfg)
{
	char why[160];

	bqlm_usbnet_cfg_default(cfg, p->variant);
	cfg->packets = p->packets;
	cfg->stops = p->stops;
	cfg->suspends = p->suspends;
	KUNIT_ASSERT_EQ_MSG(test, bqlm_rusbnet_driver_cfg(p->driver, cfg), 0,
			    "no minidriver '%s' in real/usbnet/minidrivers.h",
			    p->driver);
	/*
	 * aqc111's rows of make kunit: with its flap, the model of the
	 * unplug row has 1682148 states at two packets (its own rows of
	 * make kunit-driver(s) have the flap)
	 */
	if (p->no_flap)
		real_usbnet_no_flap(cfg);
	cfg->mtu_qlen = p->mtu_qlen;
	cfg->autosuspend = p->autosuspend;
	cfg->disconnect = p->disconnect;
	/* without CONFIG_PM usbnet has no EVENT_DEV_ASLEEP deferral */
	if (!IS_ENABLED(CONFIG_PM))
		cfg->suspends = 0;
	if (p->suspend_fails)
		cfg->pm |= BQLM_USBNET_PM_OWN_SUSPEND_FAILS;
	/*
	 * a minidriver whose entry makes no control transfer fail, or whose
	 * usb_driver the USB core never autosuspends: skip
	 */
	if (p->every && (p->suspend_fails || p->autosuspend) &&
	    bqlm_rusbnet_check(cfg, p->driver, why, sizeof(why)) == -EOPNOTSUPP)
		kunit_skip(test, "%s: %s", p->desc, why);
}

/*
 * The harness of a case; a row of every variant or minidriver skips when
 * the variant has no patch or is not compiled with the minidriver.
 */
static struct bqlm_rc_target *real_usbnet_harness(struct kunit *test,
						  const struct real_usbnet_param *p,
						  const struct bqlm_usbnet_cfg *cfg)
{
	struct bqlm_rc_target *t;
	char why[160];

	if (p->every && bqlm_rusbnet_check(cfg, p->driver, why,
					   sizeof(why)) == -ENOENT)
		kunit_skip(test, "%s: %s", p->desc, why);
	t = real_keep(test, bqlm_rusbnet_create(cfg, p->driver));
	bqlm_rusbnet_reset_resume(t, p->reset_resume);
	return t;
}

/*
 * Write a witness as a schedule and read it back: the replay then runs
 * what "make kunit-replay" would, and the round trip is checked.
 */
static int real_usbnet_roundtrip(struct kunit *test, const void *arg,
				 enum bqlm_check c, unsigned int *path, int n)
{
	const struct bqlm_usbnet_cfg *cfg = arg;
	struct schedule_text *t = bqlm_kunit_zalloc(test, sizeof(*t));
	unsigned int *back = bqlm_kunit_zalloc(test, REAL_MAX_PATH * sizeof(*back));
	struct bqlm_usbnet_cfg *got = bqlm_kunit_zalloc(test, sizeof(*got));
	const char *name = bqlm_check_name(c);
	enum bqlm_check check;
	char err[96];
	int m;

	KUNIT_ASSERT_EQ_MSG(test, bqlm_usbnet_schedule_write(cfg, c, path, n,
			    schedule_text_line, t), 0, "%s: write", name);
	KUNIT_ASSERT_FALSE_MSG(test, t->overflow, "%s: schedule too long", name);
	m = bqlm_usbnet_schedule_parse(t->buf, got, &check, back,
				       REAL_MAX_PATH, err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, m, n, "%s: %s", name, err);
	KUNIT_EXPECT_EQ_MSG(test, check, c, "%s: the check read back", name);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(back, path, n * sizeof(*path)), 0,
			    "%s: the steps read back", name);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(got, cfg, sizeof(*cfg)), 0,
			    "%s: the configuration read back", name);
	memcpy(path, back, n * sizeof(*path));
	return m;
}

/*
 * The witnesses of the model's search on the unfixed variant
 * (p->witness_of), replayed on a fix (p->variant), the model of the fix in
 * lockstep: the fix refuses a step of each (the model cannot take it, and
 * the real code, whose enabled actions were the model's up to there, does
 * not either), with nothing violated before it; or, with p->taken, takes
 * every step (a step's outcome is what the fix changes), the real code's
 * state equal to the model's after each, and nothing violated.
 */
static void real_usbnet_refused(struct kunit *test,
				const struct real_usbnet_param *p,
				const struct bqlm_usbnet_cfg *cfg)
{
	struct bqlm_usbnet_cfg *was = bqlm_kunit_zalloc(test, sizeof(*was));
	struct bqlm_xresult *xres = bqlm_kunit_zalloc(test, sizeof(*xres));
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	struct bqlm_xsys *sys = bqlm_kunit_zalloc(test, sizeof(*sys));
	unsigned int *path = bqlm_kunit_zalloc(test, REAL_MAX_PATH * sizeof(*path));
	struct bqlm_rc_target *t = real_usbnet_harness(test, p, cfg);
	struct bqlm_explorer *x;
	unsigned int c, refused = 0;
	int n;

	*was = *cfg;
	bqlm_usbnet_cfg_default(was, p->witness_of);
	KUNIT_ASSERT_EQ(test, bqlm_rusbnet_driver_cfg(p->driver, was), 0);
	was->packets = cfg->packets;
	was->stops = cfg->stops;
	was->suspends = cfg->suspends;
	was->disconnect = cfg->disconnect;
	was->autosuspend = cfg->autosuspend;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(was, sys), 0);
	x = real_model(test, sys, NULL, xres);
	KUNIT_EXPECT_EQ_MSG(test, xres->violated, p->expect,
			    "the finding on %s",
			    bqlm_usbnet_variant_name(p->witness_of));
	for (c = 1; c < BQLM_CHECK_NR; c++) {
		if (!(xres->violated & BQLM_CHECK_BIT(c)))
			continue;
		n = bqlm_explorer_path(x, c, path, REAL_MAX_PATH);
		KUNIT_ASSERT_GT(test, n, 0);
		KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, n, 0, 0,
						       real_line, test, res), 0);
		if (res->err_step)
			kunit_info(test, "%s (%d steps on %s): %s refuses step %u: %s",
				   bqlm_check_name(c), n,
				   bqlm_usbnet_variant_name(p->witness_of),
				   bqlm_usbnet_variant_name(p->variant),
				   res->err_step, res->err);
		else
			kunit_info(test, "%s (%d steps on %s): %s takes every step, violated: model %#x, real code %#x",
				   bqlm_check_name(c), n,
				   bqlm_usbnet_variant_name(p->witness_of),
				   bqlm_usbnet_variant_name(p->variant),
				   res->model_violated, res->real_violated);
		KUNIT_EXPECT_FALSE_MSG(test, res->diff, "%s: the real code differs",
				       bqlm_check_name(c));
		if (p->taken) {
			KUNIT_EXPECT_EQ_MSG(test, res->err_step, 0U,
					    "%s: the fix refuses a step: %s",
					    bqlm_check_name(c), res->err);
		} else {
			KUNIT_EXPECT_GT_MSG(test, res->err_step, 0U,
					    "%s: the fix takes every step",
					    bqlm_check_name(c));
			KUNIT_EXPECT_TRUE_MSG(test,
					      strstr(res->err, "the model cannot take"),
					      "%s: %s", bqlm_check_name(c),
					      res->err);
		}
		KUNIT_EXPECT_EQ_MSG(test, res->real_violated | res->model_violated,
				    0U, "%s: violated on the fix",
				    bqlm_check_name(c));
		refused++;
	}
	KUNIT_EXPECT_EQ(test, refused, (unsigned int)hweight32(xres->violated));
}

/* Room for a minidriver's description */
#define REAL_DESCRIBE	640

/*
 * What the harness runs of a minidriver, in the log once per minidriver
 * (make kunit-driver's table reads it)
 */
static void real_usbnet_describe(struct kunit *test, const char *driver)
{
	char *buf = bqlm_kunit_zalloc(test, REAL_DESCRIBE);

	KUNIT_ASSERT_EQ(test, bqlm_rusbnet_driver_describe(driver, buf,
							   REAL_DESCRIBE), 0);
	kunit_info(test, "minidriver %s: %s", driver, buf);
}

/* Every witness, through a schedule file's text, on the real code */
static void real_usbnet_replay(struct kunit *test)
{
	const struct real_usbnet_param *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xresult *xres = bqlm_kunit_zalloc(test, sizeof(*xres));
	struct bqlm_xsys *sys = bqlm_kunit_zalloc(test, sizeof(*sys));
	const struct bqlm_xbounds bounds = { .strict = false };
	struct bqlm_explorer *x;
	unsigned int replayed;

	real_usbnet_cfg(test, p, cfg);
	if (p->every && p->variant == BQLM_USBNET_MERGED)
		real_usbnet_describe(test, p->driver);
	if (p->witness_of) {
		real_usbnet_refused(test, p, cfg);
		return;
	}
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, sys), 0);
	x = real_model(test, sys, &bounds, xres);
	replayed = real_replay(test, real_usbnet_harness(test, p, cfg),
			       x, xres->violated, real_usbnet_roundtrip, cfg,
			       false);
	if (IS_ENABLED(CONFIG_PM) && !p->every) {
		/* the verdicts of docs/usbnet.md, replayed to the step */
		KUNIT_EXPECT_EQ(test, xres->violated, p->expect);
		if (p->expect)
			KUNIT_EXPECT_EQ(test, xres->w[p->key].depth, p->depth);
	}
	if (p->clean)
		KUNIT_EXPECT_EQ_MSG(test, xres->violated, 0U,
				    "%s: the fixes leave a violation", p->driver);
	KUNIT_EXPECT_EQ(test, replayed, (unsigned int)hweight32(xres->violated));
}

static void real_usbnet_equivalence(struct kunit *test)
{
	const struct real_usbnet_param *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct real_paths paths;

	real_usbnet_cfg(test, p, cfg);
	real_equivalence(test, real_usbnet_harness(test, p, cfg),
			 REAL_PATHS, REAL_SEED + p->variant, &paths);
}

/*
 * The configuration a row of the search runs (@cfg), and the model's
 * search of it (@mres)
 */
static void real_usbnet_search_model(struct kunit *test,
				     const struct real_usbnet_param *p,
				     struct bqlm_usbnet_cfg *cfg,
				     struct bqlm_xresult *mres)
{
	struct bqlm_xsys *sys = bqlm_kunit_zalloc(test, sizeof(*sys));

	real_usbnet_cfg(test, p, cfg);
	cfg->packets = REAL_SEARCH_PACKETS;
	/*
	 * A row that unplugs the device or changes the MTU searches without
	 * its minidriver's link flap: with it, the models of the minidrivers
	 * of the flap have 68666 to 91427 states at one packet, over the
	 * bound; the other rows search the flap, and the equivalence suite's
	 * paths take it with the unplug and the MTU change.
	 */
	if (cfg->disconnect || cfg->mtu_qlen)
		real_usbnet_no_flap(cfg);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, sys), 0);
	real_model(test, sys, NULL, mres);
}

/*
 * A search of the real code alone, at one packet: the verdicts must be
 * the model's, each check first violated at the model's depth.
 */
static void real_usbnet_explore(struct kunit *test)
{
	const struct real_usbnet_param *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xresult *mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	struct bqlm_rc_xresult *xr = bqlm_kunit_zalloc(test, sizeof(*xr));

	real_usbnet_search_model(test, p, cfg, mres);
	real_search(test, real_usbnet_harness(test, p, cfg),
		    REAL_MAX_STATES, mres, xr);
	if (p->search == REAL_CLEAN)
		KUNIT_EXPECT_EQ(test, xr->violated, 0U);
	else if (p->search == REAL_VIOLATED && IS_ENABLED(CONFIG_PM))
		/* at one packet some bugs are in the resume path only */
		KUNIT_EXPECT_NE(test, xr->violated, 0U);
}

/*
 * A search that diverges from the model in the middle of ifdown (an
 * injected divergence, as a patch broken so that the real code departs
 * from the model makes one), its actor parked in usbnet_stop()'s
 * usbnet_terminate_urbs() under the RTNL, waiting for the URBs: the
 * search stops and says where, its device is torn down, and the driver
 * unloads with the harness; a new harness then searches as the suite's
 * row of the merged variant does (to its end, the model's verdicts at the
 * model's depths).
 */
static void real_usbnet_diverge(struct kunit *test)
{
	struct real_usbnet_param *p = bqlm_kunit_zalloc(test, sizeof(*p));
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xresult *mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	struct bqlm_rc_xresult *xr = bqlm_kunit_zalloc(test, sizeof(*xr));
	unsigned int states;

	real_usbnet_every_fill(p, BQLM_USBNET_MERGED);
	real_usbnet_search_model(test, p, cfg, mres);
	states = real_diverge_search(test, real_usbnet_harness(test, p, cfg),
				     BQLM_USBNET_A_STOP, "usbnet_terminate_urbs",
				     REAL_MAX_STATES);
	KUNIT_EXPECT_LT(test, (u64)states, mres->states);
	real_search(test, real_usbnet_harness(test, p, cfg), REAL_MAX_STATES,
		    mres, xr);
}

/*
 * make kunit-replay SCHEDULE=FILE [DRIVER=NAME]: the schedule on the
 * kernel command line, replayed on the real code with the model beside
 * it; each step is printed as "model step | real: where the real actor
 * stopped". The minidriver is NAME, whose description the schedule's
 * configuration must be (refused with the reason otherwise), or the
 * first of real/usbnet/minidrivers.h the configuration describes.
 */
static void real_usbnet_schedule(struct kunit *test)
{
	const char *text = bqlm_rusbnet_schedule_param();
	struct bqlm_usbnet_cfg *cfg;
	struct bqlm_rc_result *res;
	unsigned int *path;
	struct bqlm_rc_target *t;
	const char *driver;
	enum bqlm_check check;
	unsigned int c;
	char err[128];
	int n;

	if (!text)
		kunit_skip(test, "no schedule given (make kunit-replay SCHEDULE=FILE)");
	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	res = bqlm_kunit_zalloc(test, sizeof(*res));
	path = bqlm_kunit_zalloc(test, REAL_MAX_SCHEDULE * sizeof(*path));
	n = bqlm_usbnet_schedule_parse(text, cfg, &check, path,
				       REAL_MAX_SCHEDULE, err, sizeof(err));
	KUNIT_ASSERT_GE_MSG(test, n, 0, "bad schedule: %s", err);
	kunit_info(test, "schedule: %s, %d steps, expects %s",
		   bqlm_usbnet_variant_name(cfg->variant), n,
		   check ? bqlm_check_name(check) : "no violation");
	KUNIT_ASSERT_GT_MSG(test, n, 0, "the schedule has no steps");
	driver = real_usbnet_driver_param() ?: bqlm_rusbnet_driver_for(cfg);
	KUNIT_ASSERT_TRUE_MSG(test, driver,
			      "no minidriver of real/usbnet/minidrivers.h is described by the schedule's tx_fixup, headers, flags and maxpacket (give one: DRIVER=NAME)");
	KUNIT_ASSERT_EQ_MSG(test, bqlm_rusbnet_check(cfg, driver, err,
						     sizeof(err)), 0,
			    "refused: the schedule is not for %s: %s", driver,
			    err);
	kunit_info(test, "minidriver: %s", driver);
	t = real_keep(test, bqlm_rusbnet_create(cfg, driver));
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, n, 0, 0, real_line,
					       test, res), 0);
	real_report(test, res, "schedule");
	for (c = 1; c < BQLM_CHECK_NR; c++)
		if ((res->model_violated | res->real_violated) &
		    BQLM_CHECK_BIT(c))
			kunit_info(test, "%s: model at step %u, real code at step %u",
				   bqlm_check_name(c), res->model_first[c],
				   res->real_first[c]);
	KUNIT_EXPECT_EQ(test, res->steps, (unsigned int)n);
	KUNIT_EXPECT_EQ(test, res->real_violated, res->model_violated);
	if (check)
		KUNIT_EXPECT_EQ_MSG(test, res->real_first[check], (unsigned int)n,
				    "the schedule expects %s at its last step",
				    bqlm_check_name(check));
}

/* Paths of the stalled-device ifdown, and the steps before the ifdown */
#define REAL_STALL_PATHS	200
#define REAL_STALL_PREFIX	12

/*
 * aqc111 on fixed-avoid-unlink, its device stopped draining bulk-out (the
 * model's tx-stall, the fake host controller's out_stalled: a TX URB is
 * given back only once unlinked). Each path: up to REAL_STALL_PREFIX
 * random steps of the model (no unplug), then the ifdown driven to its
 * end (usbnet_ifdown_drive()), which must end within USBNET_IFDOWN_MAX
 * steps; then the path on the real code, the model in lockstep: every
 * step taken, the states equal, nothing violated, the real usbnet_stop()
 * returned with its device down.
 */
static void real_usbnet_stalled(struct kunit *test)
{
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int *path = bqlm_kunit_zalloc(test, REAL_MAX_SCHEDULE *
					       sizeof(*path));
	unsigned int a[BQLM_X_MAX_ACTIONS];
	struct bqlm_usbnet *dev, *next;
	unsigned int i, k, m, longest = 0, unlinked = 0;
	struct bqlm_rc_target *t;
	struct bqlm_prng rng;
	struct bqlm_xsys sys;
	size_t size;
	int n;

	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_FIXED_AVOID_UNLINK);
	cfg->packets = SMALL_PACKETS;
	cfg->stops = 1;
	cfg->suspends = 1;
	KUNIT_ASSERT_EQ(test, bqlm_rusbnet_driver_cfg("aqc111", cfg), 0);
	real_usbnet_no_flap(cfg);
	if (!IS_ENABLED(CONFIG_PM))
		cfg->suspends = 0;
	cfg->tx_stall = true;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, &sys), 0);
	size = bqlm_usbnet_size(cfg);
	dev = bqlm_kunit_zalloc(test, size);
	next = bqlm_kunit_zalloc(test, size);
	t = real_keep(test, bqlm_rusbnet_create(cfg, "aqc111"));
	bqlm_prng_seed(&rng, real_seed(REAL_SEED, "stalled"));
	for (i = 0; i < REAL_STALL_PATHS; i++) {
		bqlm_xinit(&sys, dev);
		m = bqlm_prng_below(&rng, REAL_STALL_PREFIX + 1);
		for (n = 0; n < m; n++) {
			k = bqlm_xenabled(&sys, dev, a);
			if (!k || !usbnet_ifdown_wanted(dev))
				break;
			path[n] = a[bqlm_prng_below(&rng, k)];
			if (BQLM_X_KIND(path[n]) == BQLM_USBNET_A_DISCONNECT)
				break;
			memcpy(next, dev, size);
			KUNIT_ASSERT_GE(test, bqlm_xstep(&sys, dev, path[n],
							 next, NULL), 0);
			memcpy(dev, next, size);
		}
		if (!usbnet_ifdown_wanted(dev))
			continue;
		k = n;
		n = usbnet_ifdown_drive(&sys, dev, next, size, path, n,
					REAL_MAX_SCHEDULE);
		KUNIT_ASSERT_GT_MSG(test, n, 0,
				    "path %u: the model's ifdown does not end", i);
		longest = max(longest, n - k);
		for (m = k; m < n; m++)
			unlinked += BQLM_X_KIND(path[m]) ==
				    BQLM_USBNET_A_COMPLETE &&
				    BQLM_X_ARG(path[m]) % BQLM_USBNET_NR_STATUS ==
				    BQLM_USBNET_ST_UNLINKED;
		KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, n, 0, 0, NULL,
						       NULL, res), 0);
		real_report(test, res, "stalled ifdown");
		KUNIT_EXPECT_EQ_MSG(test, res->steps, (unsigned int)n,
				    "path %u", i);
		KUNIT_EXPECT_EQ_MSG(test, res->real_violated, 0U, "path %u", i);
	}
	kunit_info(test, "%u paths, ifdown at most %u steps, %u givebacks of unlinked URBs in them",
		   REAL_STALL_PATHS, longest, unlinked);
	KUNIT_EXPECT_GT(test, unlinked, 0U);
}

/* Does the real code enable @action now? */
static bool real_usbnet_enables(struct bqlm_rc_target *t, unsigned int action)
{
	unsigned int a[BQLM_X_MAX_ACTIONS], n, i;

	n = t->ops->enabled(t, a);
	for (i = 0; i < n; i++)
		if (a[i] == action)
			return true;
	return false;
}

/*
 * The USB core's runtime-PM rules in the fake USB core: an autosuspend
 * begins only at an interface PM usage count of 0. ax88179_178a has no
 * manage_power: the count usbnet_open() took holds the open device awake,
 * so the harness neither enables nor takes the autosuspend (the step is
 * refused, with the reason, the device as it was) until usbnet_stop() has
 * dropped it. A driver_info with a manage_power() as cdc_ncm's
 * (harness_manage_power): usbnet_open() drops the count, and the idle open
 * device autosuspends.
 */
static void real_usbnet_autosuspend_usage(struct kunit *test)
{
	const unsigned int suspend = BQLM_X_ACTION(BQLM_USBNET_A_SUSPEND, 0);
	const unsigned int stop = BQLM_X_ACTION(BQLM_USBNET_A_STOP, 0);
	struct real_usbnet_param p = {
		.desc = "autosuspend-usage", .variant = BQLM_USBNET_FIXED,
		.driver = "ax88179_178a", .packets = 1, .stops = 1,
		.suspends = 1, .autosuspend = true,
	};
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_rc_target *t;
	const char *why;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_PM))
		kunit_skip(test, "without CONFIG_PM usbnet has no suspend");
	real_usbnet_cfg(test, &p, cfg);
	t = real_usbnet_harness(test, &p, cfg);
	KUNIT_ASSERT_EQ(test, t->ops->start(t), 0);
	KUNIT_EXPECT_FALSE(test, real_usbnet_enables(t, suspend));
	KUNIT_EXPECT_EQ(test, t->ops->step(t, suspend), -EBUSY);
	why = t->ops->error(t);
	KUNIT_ASSERT_NOT_NULL(test, why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "PM usage count"), "%s",
				  why);
	/* the harness goes on: ifdown, whose end drops the count */
	for (i = 0; i < 16 && real_usbnet_enables(t, stop); i++) {
		KUNIT_EXPECT_FALSE_MSG(test, real_usbnet_enables(t, suspend),
				       "ifdown step %u", i);
		KUNIT_ASSERT_EQ(test, t->ops->step(t, stop), 0);
	}
	KUNIT_EXPECT_TRUE(test, real_usbnet_enables(t, suspend));
	KUNIT_EXPECT_EQ(test, t->ops->step(t, suspend), 0);
	KUNIT_EXPECT_NULL(test, t->ops->error(t));
	KUNIT_EXPECT_EQ(test, t->ops->down(t), 0);
	/* one harness at a time */
	kunit_release_action(test, real_end, t);

	p.driver = "harness_manage_power";
	real_usbnet_cfg(test, &p, cfg);
	t = real_usbnet_harness(test, &p, cfg);
	KUNIT_ASSERT_EQ(test, t->ops->start(t), 0);
	KUNIT_EXPECT_TRUE(test, real_usbnet_enables(t, suspend));
	KUNIT_EXPECT_EQ(test, t->ops->step(t, suspend), 0);
	KUNIT_EXPECT_NULL(test, t->ops->error(t));
	KUNIT_EXPECT_EQ(test, t->ops->down(t), 0);
}

#else /* no real-code harness */

static const char *real_usbnet_driver_param(void)
{
	return NULL;
}

REAL_SKIP_CASE(real_usbnet_autosuspend_usage, "drivers/net/usb/usbnet.c")

REAL_SKIP_CASE(real_usbnet_replay, "drivers/net/usb/usbnet.c")
REAL_SKIP_CASE(real_usbnet_equivalence, "drivers/net/usb/usbnet.c")
REAL_SKIP_CASE(real_usbnet_explore, "drivers/net/usb/usbnet.c")
REAL_SKIP_CASE(real_usbnet_diverge, "drivers/net/usb/usbnet.c")
REAL_SKIP_CASE(real_usbnet_schedule, "drivers/net/usb/usbnet.c")
REAL_SKIP_CASE(real_usbnet_stalled, "drivers/net/usb/usbnet.c")

#endif /* CONFIG_BQLM_REAL_HARNESS */

REAL_SUITE(real_usbnet_replay_suite, "bqlm_real_usbnet_replay",
	   real_usbnet_replay, real_usbnet_replays_gen_params);
REAL_SUITE(real_usbnet_equivalence_suite, "bqlm_real_usbnet_equivalence",
	   real_usbnet_equivalence, real_usbnet_variants_gen_params);
REAL_SUITE_CASES(real_usbnet_explore_suite, "bqlm_real_usbnet_explore",
		 KUNIT_CASE(real_usbnet_diverge),
		 REAL_CASE_SLOW(real_usbnet_explore,
				real_usbnet_variants_gen_params));

static struct kunit_case real_usbnet_schedule_cases[] = {
	KUNIT_CASE(real_usbnet_schedule),
	{}
};

static struct kunit_case real_usbnet_stalled_cases[] = {
	KUNIT_CASE(real_usbnet_stalled),
	{}
};

static struct kunit_suite real_usbnet_stalled_suite = {
	.name = "bqlm_real_usbnet_stalled",
	.test_cases = real_usbnet_stalled_cases,
};
REAL_SUITE_CASES(real_usbnet_pm_suite, "bqlm_real_usbnet_pm",
		 KUNIT_CASE(real_usbnet_autosuspend_usage));

static struct kunit_suite real_usbnet_schedule_suite = {
	.name = "bqlm_real_usbnet_schedule",
	.test_cases = real_usbnet_schedule_cases,
};

kunit_test_suites(&real_usbnet_replay_suite, &real_usbnet_equivalence_suite,
		  &real_usbnet_explore_suite, &real_usbnet_schedule_suite,
		  &real_usbnet_stalled_suite,
		  &real_usbnet_pm_suite);
