// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the bql-xoff system's options (<bqlm/bql_xoff.h>): each field
 * of struct bqlm_xoff_cfg described once (<bqlm/options.h>), and the two
 * shorthands of the command line for taking the protocol's barriers away.
 * The system has no profiles: a run starts from the defaults.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/bql_xoff.h>
#include <bqlm/options.h>

#define XOFF_FIELD(f)	BQLM_OPT_FIELD(struct bqlm_xoff_cfg, f)

static const char *const bqlm_xoff_mb_names[] = { "sent", "completed", NULL };

/* --no-barrier: both smp_mb() away */
static int bqlm_xoff_opt_no_barrier(const struct bqlm_opt *o, void *cfg,
				    const char *arg, char *err, size_t len)
{
	struct bqlm_xoff_cfg *c = cfg;

	if (arg && strcmp(arg, "on")) {
		snprintf(err, len, "--%s takes no value", o->name);
		return -EINVAL;
	}
	c->sent_mb = false;
	c->completed_mb = false;
	return 0;
}

/* --no-mb sent|completed: one smp_mb() away */
static int bqlm_xoff_opt_no_mb(const struct bqlm_opt *o, void *cfg,
			       const char *arg, char *err, size_t len)
{
	struct bqlm_xoff_cfg *c = cfg;

	switch (bqlm_opt_name_index(bqlm_xoff_mb_names, arg)) {
	case 0:
		c->sent_mb = false;
		return 0;
	case 1:
		c->completed_mb = false;
		return 0;
	default:
		snprintf(err, len, "--%s: '%.32s' is not one of sent, completed",
			 o->name, arg ? arg : "");
		return -EINVAL;
	}
}

static const struct bqlm_opt bqlm_xoff_opt[] = {
	{ .name = "memory-model", .type = BQLM_OPT_CHOICE,
	  .flags = BQLM_OPT_BOUND, XOFF_FIELD(mm), .names = bqlm_mm_names,
	  .metavar = "M", .help = "the memory model" },
	{ .name = "packets", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  XOFF_FIELD(packets), .min = 1, .max = BQLM_XOFF_MAX_PACKETS,
	  .help = "packets the producer sends" },
	{ .name = "len", .type = BQLM_OPT_UINT, XOFF_FIELD(len),
	  .min = 1, .max = 1000,
	  .help = "bytes per packet (packets times len fit the 16-bit shared words)" },
	{ .name = "limit", .type = BQLM_OPT_UINT, XOFF_FIELD(limit),
	  .min = 0, .max = 2000, .help = "the pinned DQL limit in bytes" },
	{ .name = "sent-mb", .type = BQLM_OPT_BOOL, XOFF_FIELD(sent_mb),
	  .help = "netdev_tx_sent_queue()'s smp_mb() after the set_bit()" },
	{ .name = "completed-mb", .type = BQLM_OPT_BOOL, XOFF_FIELD(completed_mb),
	  .help = "netdev_tx_completed_queue()'s smp_mb() after dql_completed()" },
	{ .name = "no-barrier", .type = BQLM_OPT_BOOL,
	  .flags = BQLM_OPT_NOARG | BQLM_OPT_ALIAS,
	  .also = "sent-mb completed-mb", .parse = bqlm_xoff_opt_no_barrier,
	  .help = "both smp_mb() away: --sent-mb off --completed-mb off" },
	{ .name = "no-mb", .type = BQLM_OPT_CHOICE, .flags = BQLM_OPT_ALIAS,
	  .also = "sent-mb completed-mb", .names = bqlm_xoff_mb_names,
	  .parse = bqlm_xoff_opt_no_mb,
	  .help = "one smp_mb() away: --sent-mb off or --completed-mb off" },
};

/* The configuration before any option; what is not named is 0. */
static const struct bqlm_xoff_cfg bqlm_xoff_defaults = {
	.mm = BQLM_MM_TSO,
	.sent_mb = true,
	.completed_mb = true,
	.packets = 3,
	.len = 100,
	.limit = 100,
};

static void bqlm_xoff_opt_defaults(void *cfg)
{
	memcpy(cfg, &bqlm_xoff_defaults, sizeof(bqlm_xoff_defaults));
}

static const struct bqlm_opts bqlm_xoff_opts = {
	.model = "bql-xoff",
	.opt = bqlm_xoff_opt,
	.n = ARRAY_SIZE(bqlm_xoff_opt),
	.cfg_size = sizeof(struct bqlm_xoff_cfg),
	.defaults = bqlm_xoff_opt_defaults,
};

/**
 * bqlm_xoff_options() - the bql-xoff system's options
 *
 * Return: the table (<bqlm/options.h>); no profiles.
 */
const struct bqlm_opts *bqlm_xoff_options(void)
{
	return &bqlm_xoff_opts;
}

/**
 * bqlm_xoff_cfg_default() - the default bound
 * @cfg: receives it
 *
 * Three packets of 100 bytes against a limit of 100 bytes, under tso,
 * with the barriers.
 */
void bqlm_xoff_cfg_default(struct bqlm_xoff_cfg *cfg)
{
	bqlm_xoff_opt_defaults(cfg);
}

/**
 * bqlm_xoff_cfg_check() - is a configuration within the bounds?
 * @cfg: the configuration
 *
 * Every option within its range (bqlm_xoff_options()).
 *
 * Return: 0, or -EINVAL.
 */
int bqlm_xoff_cfg_check(const struct bqlm_xoff_cfg *cfg)
{
	return cfg ? bqlm_opt_check(&bqlm_xoff_opts, cfg, NULL, 0) : -EINVAL;
}
