// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the option tables (model/core/options.c): one toy table with
 * an option of every type, parsed, checked, described and applied back.
 * Each model's own table is tested with the model (round trip of every
 * profile) in its suite.
 */
#include "bqlm_kunit.h"
#include <bqlm/options.h>
#include <bqlm/nic.h>
#include <bqlm/usbnet.h>
#include <bqlm/tun.h>
#include <bqlm/bql_xoff.h>
#include <bqlm/explore.h>

struct toy_cfg {
	unsigned int queues;
	bool lock;
	int mode;
	unsigned int flags;
	unsigned int lens[2];
	unsigned int nr_lens;
	unsigned char small;
};

static const char *const toy_modes[] = { "rr", "q0", "all", NULL };
static const char *const toy_flags[] = { "zlp", "avoid-unlink", NULL };

static int toy_header(const struct bqlm_opt *o, void *cfg, const char *arg,
		      char *err, size_t len)
{
	struct toy_cfg *c = cfg;
	unsigned int v;

	(void)o;
	if (!bqlm_opt_uint(arg, 0, 64, &v)) {
		snprintf(err, len, "--header: '%s' is not 0..64", arg ? arg : "");
		return -EINVAL;
	}
	c->small = v;
	c->mode = v ? 2 : 0;
	return 0;
}

static int toy_locked(const struct bqlm_opt *o, void *cfg, const char *arg,
		      char *err, size_t len)
{
	(void)o;
	(void)arg;
	(void)err;
	(void)len;
	((struct toy_cfg *)cfg)->lock = true;
	return 0;
}

static int toy_check(const void *cfg, char *err, size_t len)
{
	const struct toy_cfg *c = cfg;

	if (c->mode == 1 && c->queues > 1) {
		snprintf(err, len, "--mode q0 needs --queues 1");
		return -EINVAL;
	}
	return 0;
}

static const struct bqlm_opt toy_opt[] = {
	{ .name = "queues", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  BQLM_OPT_FIELD(struct toy_cfg, queues), .min = 1, .max = 4,
	  .help = "tx queues" },
	{ .name = "lock", .type = BQLM_OPT_BOOL,
	  BQLM_OPT_FIELD(struct toy_cfg, lock), .help = "take the lock" },
	{ .name = "mode", .type = BQLM_OPT_CHOICE,
	  BQLM_OPT_FIELD(struct toy_cfg, mode), .names = toy_modes,
	  .help = "how packets map" },
	{ .name = "flags", .type = BQLM_OPT_SET,
	  BQLM_OPT_FIELD(struct toy_cfg, flags), .names = toy_flags,
	  .help = "driver_info flags" },
	{ .name = "lens", .type = BQLM_OPT_UINTS,
	  BQLM_OPT_FIELD(struct toy_cfg, lens),
	  .count_off = offsetof(struct toy_cfg, nr_lens), .max_count = 2,
	  .min = 1, .max = 1514, .help = "packet lengths" },
	{ .name = "small", .type = BQLM_OPT_UINT, .flags = BQLM_OPT_BOUND,
	  BQLM_OPT_FIELD(struct toy_cfg, small), .min = 0, .max = 200,
	  .help = "a byte" },
	{ .name = "header", .type = BQLM_OPT_CUSTOM, .flags = BQLM_OPT_ALIAS,
	  .also = "small mode", .parse = toy_header,
	  .help = "shorthand for --small N --mode all" },
	{ .name = "locked", .type = BQLM_OPT_CUSTOM,
	  .flags = BQLM_OPT_ALIAS | BQLM_OPT_NOARG, .also = "lock",
	  .parse = toy_locked, .help = "shorthand for --lock on" },
};

static const struct bqlm_opts toy = {
	.model = "toy", .opt = toy_opt, .n = ARRAY_SIZE(toy_opt),
	.cfg_size = sizeof(struct toy_cfg), .check = toy_check,
};

static void toy_default(struct toy_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->queues = 1;
	c->lens[0] = 1514;
	c->nr_lens = 1;
}

static void options_parse_each_type(struct kunit *test)
{
	struct toy_cfg c;
	char err[160];

	toy_default(&c);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "queues", "3", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.queues, 3U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "queues", "0x2", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.queues, 2U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "lock", "on", err, sizeof(err)), 0);
	KUNIT_EXPECT_TRUE(test, c.lock);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "mode", "all", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.mode, 2);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "flags", "avoid-unlink,zlp", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.flags, 3U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "flags", "none", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.flags, 0U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "flags", "2", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.flags, 2U);
	/* a mask that starts with 0 is a number too (make mutate) */
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "flags", "0", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.flags, 0U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "flags", "0x3", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.flags, 3U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "lens", "60,1514", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.nr_lens, 2U);
	KUNIT_EXPECT_EQ(test, c.lens[0], 60U);
	KUNIT_EXPECT_EQ(test, c.lens[1], 1514U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "small", "200", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.small, 200);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "header", "8", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.small, 8);
	KUNIT_EXPECT_EQ(test, c.mode, 2);
	c.lock = false;
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "locked", NULL, err, sizeof(err)), 0);
	KUNIT_EXPECT_TRUE(test, c.lock);
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), 0);
}

/* Each bad value is refused with its range or words, the field kept. */
static const struct {
	const char *name, *arg, *msg;
} options_bad[] = {
	{ "queues", "5", "--queues: '5' is not a number in 1..4" },
	{ "queues", "0", "--queues: '0' is not a number in 1..4" },
	{ "queues", "-1", "is not a number in 1..4" },
	{ "queues", "", "is not a number" },
	{ "queues", "2x", "is not a number" },
	{ "queues", "99999999999", "is not a number" },
	{ "queues", NULL, "--queues needs a number in 1..4" },
	{ "lock", "yes", "is not on or off" },
	{ "mode", "q1", "--mode: 'q1' is not one of rr, q0, all" },
	{ "mode", NULL, "--mode needs one of rr, q0, all" },
	{ "flags", "zlp,", "comma-separated list of zlp, avoid-unlink" },
	{ "flags", ",zlp", "comma-separated list" },
	{ "flags", "zlp,,avoid-unlink", "comma-separated list" },
	{ "flags", "zlp,zlp", "'zlp' given twice" },
	{ "flags", "4", "comma-separated list" },
	{ "flags", "bogus", "comma-separated list" },
	{ "lens", "1,2,3", "not a list of 1..2 numbers in 1..1514" },
	{ "lens", "0", "not a list" },
	{ "lens", "60,", "not a list" },
	{ "lens", "", "not a list" },
	{ "small", "201", "is not a number in 0..200" },
	{ "header", "65", "is not 0..64" },
};

static void options_refuse_bad(struct kunit *test)
{
	struct toy_cfg c, before;
	unsigned int i;
	char err[160];

	for (i = 0; i < ARRAY_SIZE(options_bad); i++) {
		toy_default(&c);
		before = c;
		err[0] = '\0';
		KUNIT_EXPECT_EQ_MSG(test, bqlm_opt_set(&toy, &c, options_bad[i].name,
						       options_bad[i].arg, err, sizeof(err)),
				    -EINVAL, "--%s %s", options_bad[i].name,
				    options_bad[i].arg ? options_bad[i].arg : "(none)");
		KUNIT_EXPECT_TRUE_MSG(test, strstr(err, options_bad[i].msg) != NULL,
					  "--%s: got '%s'", options_bad[i].name, err);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&c, &before, sizeof(c)), 0,
				    "--%s changed the configuration", options_bad[i].name);
	}
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy, &c, "nosuch", "1", err, sizeof(err)),
			-ENOENT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err, "toy has no option --nosuch"));
}

/* A set of 32 names: every bit of its word is one (make mutate) */
static const char *const set32_names[] = {
	"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10",
	"n11", "n12", "n13", "n14", "n15", "n16", "n17", "n18", "n19", "n20",
	"n21", "n22", "n23", "n24", "n25", "n26", "n27", "n28", "n29", "n30",
	"n31", NULL
};

struct set32_cfg {
	unsigned int set;
};

static const struct bqlm_opt set32_opt[] = {
	{ .name = "set32", .type = BQLM_OPT_SET,
	  BQLM_OPT_FIELD(struct set32_cfg, set), .names = set32_names,
	  .help = "32 names" },
};

static const struct bqlm_opts set32 = {
	.model = "set32", .opt = set32_opt, .n = ARRAY_SIZE(set32_opt),
	.cfg_size = sizeof(struct set32_cfg),
};

static void options_check_ranges(struct kunit *test)
{
	struct set32_cfg s = { .set = ~0U };
	struct toy_cfg c;
	char err[160];

	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&set32, &s, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&set32, &s, "set32", "n31", err,
					   sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, s.set, 1U << 31);

	toy_default(&c);
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), 0);
	c.queues = 5;
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "--queues 5 is not in 1..4");
	toy_default(&c);
	c.mode = 3;
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "--mode has the invalid value 3");
	toy_default(&c);
	c.flags = 4;
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), -EINVAL);
	toy_default(&c);
	c.nr_lens = 0;
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "--lens has 0 values, not 1..2");
	toy_default(&c);
	c.lens[0] = 0;
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), -EINVAL);
	/* the model's own check: a cross-field rule */
	toy_default(&c);
	c.mode = 1;
	c.queues = 2;
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "--mode q0 needs --queues 1");
	/* no buffer for the reason: still the verdict */
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy, &c, NULL, 0), -EINVAL);
}

static void options_describe_round_trip(struct kunit *test)
{
	/* off the stack: a 32-bit kernel warns above 1024 bytes a frame */
	char *text = bqlm_kunit_zalloc(test, BQLM_OPT_TEXT_MAX);
	struct toy_cfg c, back;
	char err[160];

	toy_default(&c);
	KUNIT_ASSERT_EQ(test, bqlm_opt_apply(&toy, &c,
					     "--queues 3 lock=on --mode=all --flags zlp --lens 60,1514 small=7",
					     err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.queues, 3U);
	KUNIT_EXPECT_TRUE(test, c.lock);
	KUNIT_EXPECT_EQ(test, c.mode, 2);
	KUNIT_EXPECT_EQ(test, c.flags, 1U);
	KUNIT_EXPECT_EQ(test, c.nr_lens, 2U);
	KUNIT_EXPECT_EQ(test, c.small, 7);
	bqlm_opt_describe(&toy, &c, 0, text, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_STREQ(test, text,
			   "--queues 3 --lock on --mode all --flags zlp --lens 60,1514 --small 7");
	/* applied on a different configuration, the text gives the same one */
	toy_default(&back);
	back.flags = 2;
	KUNIT_ASSERT_EQ(test, bqlm_opt_apply(&toy, &back, text, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&c, &back, sizeof(c)), 0);
	/* only the bound */
	bqlm_opt_describe(&toy, &c, BQLM_OPT_BOUND, text, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_STREQ(test, text, "--queues 3 --small 7");
	/* a short buffer: truncated, length as snprintf */
	KUNIT_EXPECT_EQ(test, bqlm_opt_describe(&toy, &c, BQLM_OPT_BOUND, err, 5),
			(int)strlen("--queues 3 --small 7"));
	KUNIT_EXPECT_STREQ(test, err, "--qu");
}

static void options_apply_errors(struct kunit *test)
{
	struct toy_cfg c;
	char err[160];

	toy_default(&c);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(&toy, &c, "--queues", err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "--queues needs a value");
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(&toy, &c, "queues 2", err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "'queues' needs a value (name=value)");
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(&toy, &c, "--nope 1", err, sizeof(err)), -ENOENT);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(&toy, &c, "--queues 9", err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_EQ(test, c.queues, 1U);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(&toy, &c, "   ", err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(&toy, &c, "--locked --queues 2", err, sizeof(err)), 0);
	KUNIT_EXPECT_TRUE(test, c.lock);
	KUNIT_EXPECT_EQ(test, c.queues, 2U);
}

#define LONG_OPT_NAME	"an-option-name-of-forty-five-characters-or-so"

static const struct bqlm_opt long_opt = {
	.name = LONG_OPT_NAME, .type = BQLM_OPT_UINT, .metavar = "COUNT",
	.min = 0, .max = 9, .help = "a long name",
};

static void options_help_and_covers(struct kunit *test)
{
	char *line = bqlm_kunit_zalloc(test, BQLM_OPT_TEXT_MAX);


	bqlm_opt_help(&toy.opt[0], line, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "--queues N"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "tx queues, 1..4"));
	bqlm_opt_help(&toy.opt[2], line, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "how packets map: rr|q0|all"));
	bqlm_opt_help(&toy.opt[3], line, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "any of zlp,avoid-unlink, or none"));
	bqlm_opt_help(&toy.opt[4], line, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "up to 2 of 1..1514"));
	/* a name near the longest one an option may have, whole (make mutate) */
	bqlm_opt_help(&long_opt, line, BQLM_OPT_TEXT_MAX);
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "--" LONG_OPT_NAME " COUNT a long name"));
	/* an option covers itself; an alias also what it sets */
	KUNIT_EXPECT_EQ(test, bqlm_opt_covers(&toy, &toy.opt[0]), 1ULL);
	KUNIT_EXPECT_EQ(test, bqlm_opt_covers(&toy, &toy.opt[6]),
			(1ULL << 6) | (1ULL << 5) | (1ULL << 2));
	KUNIT_EXPECT_EQ(test, bqlm_opt_covers(&toy, &toy.opt[7]),
			(1ULL << 7) | (1ULL << 1));
	KUNIT_EXPECT_PTR_EQ(test, bqlm_opt_find(&toy, "lens"), &toy.opt[4]);
	KUNIT_EXPECT_NULL(test, bqlm_opt_find(&toy, "len"));
	KUNIT_EXPECT_EQ(test, bqlm_opt_name_index(toy_modes, "q0"), 1);
	KUNIT_EXPECT_EQ(test, bqlm_opt_name_index(toy_modes, "q2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_opt_name_index(toy_modes, NULL), -EINVAL);
}

static void options_uint(struct kunit *test)
{
	unsigned int v = 7;

	KUNIT_EXPECT_TRUE(test, bqlm_opt_uint("4294967295", 0, UINT_MAX, &v));
	KUNIT_EXPECT_EQ(test, v, UINT_MAX);
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint("4294967296", 0, UINT_MAX, &v));
	KUNIT_EXPECT_TRUE(test, bqlm_opt_uint("0xffffffff", 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint("0x100000000", 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint("0x", 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint("", 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint("+1", 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint(" 1", 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint(NULL, 0, UINT_MAX, &v));
	KUNIT_EXPECT_FALSE(test, bqlm_opt_uint("3", 4, 9, &v));
	KUNIT_EXPECT_EQ(test, v, UINT_MAX);
}

/* The longest value bqlm_opt_format() can write for @o. */
static size_t options_value_worst(const struct bqlm_opt *o)
{
	size_t k = 0, w;
	unsigned int i;

	switch (o->type) {
	case BQLM_OPT_BOOL:
		return 3;
	case BQLM_OPT_CHOICE:
		/* a number past the names: up to 10 digits */
		for (w = 10, i = 0; o->names[i]; i++)
			if (strlen(o->names[i]) > w)
				w = strlen(o->names[i]);
		return w;
	case BQLM_OPT_SET:
		/* or a mask past the names: "0x" and 8 digits */
		for (i = 0; o->names[i]; i++)
			k += strlen(o->names[i]) + 1;
		return k > 10 ? k : 10;
	case BQLM_OPT_UINTS:
		return o->max_count * 11;
	case BQLM_OPT_UINT:
		return 10;
	default:
		/* a custom format writes into the caller's value buffer */
		return BQLM_OPT_VALUE_MAX - 1;
	}
}

/*
 * Found by make fuzz: a description of the nic model longer than
 * BQLM_OPT_TEXT_MAX. Whatever the values, every model's description fits
 * in BQLM_OPT_TEXT_MAX, and each value in BQLM_OPT_VALUE_MAX.
 */
static void options_describe_fits(struct kunit *test)
{
	const struct bqlm_opts *const models[] = {
		bqlm_nic_options(), bqlm_usbnet_options(), bqlm_tun_options(),
		bqlm_xoff_options(),
	};
	unsigned int m, i;
	size_t k, v;

	for (m = 0; m < ARRAY_SIZE(models); m++) {
		const struct bqlm_opts *t = models[m];

		for (i = 0, k = 0; i < t->n; i++) {
			const struct bqlm_opt *o = &t->opt[i];

			if (o->flags & BQLM_OPT_ALIAS)
				continue;
			v = options_value_worst(o);
			KUNIT_EXPECT_LT_MSG(test, v, (size_t)BQLM_OPT_VALUE_MAX,
					    "%s --%s", t->model, o->name);
			/* " --name value" */
			k += 4 + strlen(o->name) + v;
		}
		KUNIT_EXPECT_LT_MSG(test, k, (size_t)BQLM_OPT_TEXT_MAX,
				    "%s: %u options", t->model, t->n);
	}
}

/*
 * Every profile of every model: valid, and its text form applied to the
 * model's defaults gives it back byte for byte (so a profile printed by
 * "bqlm explore" re-runs as the same configuration). A model without
 * profiles: its defaults, the same way.
 */
static void options_model_profiles_round_trip(struct kunit *test)
{
	const struct bqlm_opts *const models[] = {
		bqlm_nic_options(), bqlm_usbnet_options(), bqlm_tun_options(),
		bqlm_xoff_options(),
	};
	struct {
		char text[BQLM_OPT_TEXT_MAX];
		char err[160];
		unsigned char a[512];
		unsigned char b[512];
	} *buf = bqlm_kunit_zalloc(test, sizeof(*buf));
	char *text, *err;
	unsigned char *a, *b;
	unsigned int m, i, nr;

	text = buf->text;
	err = buf->err;
	a = buf->a;
	b = buf->b;
	for (m = 0; m < ARRAY_SIZE(models); m++) {
		const struct bqlm_opts *t = models[m];

		KUNIT_ASSERT_LE(test, t->cfg_size, sizeof(buf->a));
		KUNIT_ASSERT_LE(test, t->n, 64U);
		/* at least the defaults; then every profile */
		nr = t->nr_profiles ? t->nr_profiles : 1;
		for (i = 0; i < nr; i++) {
			const char *name = t->nr_profiles ?
					   t->profiles[i].name : "(defaults)";

			memset(a, 0, sizeof(buf->a));
			if (t->nr_profiles)
				KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_profile(t, a, i, err, sizeof(buf->err)),
						    0, "%s %s: %s", t->model, name, err);
			else
				t->defaults(a);
			KUNIT_EXPECT_EQ_MSG(test, bqlm_opt_check(t, a, err, sizeof(buf->err)), 0,
					    "%s %s: %s", t->model, name, err);
			KUNIT_EXPECT_LT_MSG(test,
					    bqlm_opt_describe(t, a, 0, text, sizeof(buf->text)),
					    (int)sizeof(buf->text), "%s", name);
			memset(b, 0, sizeof(buf->b));
			t->defaults(b);
			if (t->profile_set)
				t->profile_set(b, i);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_apply(t, b, text, err, sizeof(buf->err)),
					    0, "%s %s: %s", t->model, name, err);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(a, b, t->cfg_size), 0,
					    "%s %s: '%s' does not give the profile back",
					    t->model, name, text);
			if (t->nr_profiles)
				KUNIT_EXPECT_EQ(test, bqlm_opt_profile_by_name(t, name),
						(int)i);
		}
		KUNIT_EXPECT_EQ(test, bqlm_opt_profile_by_name(t, "no-such-profile"), -ENOENT);
		KUNIT_EXPECT_EQ(test, bqlm_opt_profile(t, a, t->nr_profiles, err, sizeof(buf->err)),
				-EINVAL);
	}
}

/*
 * bqlm_opt_describe() measures with a NULL buffer of 0 bytes (the CLI's
 * report sizes its text so) and truncates into a short one, giving the
 * same length each time. make fuzz (clang's UBSan) found the NULL buffer
 * offset by 0 in the measuring call, undefined behaviour that gcc's
 * sanitizer does not report: fuzz/regress/cli/describe-null-measure.
 */
static void options_describe_measures(struct kunit *test)
{
	const struct bqlm_opts *models[] = {
		bqlm_nic_options(), bqlm_usbnet_options(),
	};
	char *text = kunit_kzalloc(test, BQLM_OPT_TEXT_MAX, GFP_KERNEL);
	unsigned char *cfg = kunit_kzalloc(test, 512, GFP_KERNEL);
	unsigned int m, i;
	char err[160], shortbuf[6];
	int n;

	KUNIT_ASSERT_TRUE(test, text && cfg);
	for (m = 0; m < ARRAY_SIZE(models); m++) {
		const struct bqlm_opts *t = models[m];

		for (i = 0; i < t->nr_profiles; i++) {
			memset(cfg, 0, 512);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_profile(t, cfg, i, err, sizeof(err)),
					    0, "%s %s: %s", t->model, t->profiles[i].name, err);
			n = bqlm_opt_describe(t, cfg, 0, text, BQLM_OPT_TEXT_MAX);
			KUNIT_EXPECT_EQ_MSG(test, bqlm_opt_describe(t, cfg, 0, NULL, 0), n,
					    "%s %s", t->model, t->profiles[i].name);
			KUNIT_EXPECT_EQ_MSG(test, bqlm_opt_describe(t, cfg, 0, shortbuf,
								    sizeof(shortbuf)), n,
					    "%s %s", t->model, t->profiles[i].name);
			KUNIT_EXPECT_EQ(test, strlen(shortbuf), sizeof(shortbuf) - 1);
			KUNIT_EXPECT_EQ(test, strncmp(shortbuf, text, sizeof(shortbuf) - 1), 0);
		}
	}
}


/*
 * A field of 2 bytes is stored in its 2 bytes, not in the 4 after it; a
 * list formats at most its max_count values whatever its count says
 * (make mutate: no table had a 2-byte field, no test an overfull list).
 */
struct toy16_cfg {
	unsigned short port;
	unsigned short canary;
	unsigned int vals[2];
	unsigned int nr_vals;
	unsigned int after;
};

static const struct bqlm_opt toy16_opt[] = {
	{ .name = "port", .type = BQLM_OPT_UINT,
	  BQLM_OPT_FIELD(struct toy16_cfg, port), .min = 0, .max = 65535,
	  .help = "a 2-byte field" },
	{ .name = "vals", .type = BQLM_OPT_UINTS,
	  BQLM_OPT_FIELD(struct toy16_cfg, vals),
	  .count_off = offsetof(struct toy16_cfg, nr_vals), .max_count = 2,
	  .min = 0, .max = 9, .help = "two values" },
};

static const struct bqlm_opts toy16 = {
	.model = "toy16", .opt = toy16_opt, .n = ARRAY_SIZE(toy16_opt),
	.cfg_size = sizeof(struct toy16_cfg),
};

static void options_field_sizes(struct kunit *test)
{
	struct toy16_cfg c = { .canary = 0x5a5a, .after = 7 };
	char err[160], buf[64];

	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy16, &c, "port", "65535", err,
					   sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.port, 65535);
	KUNIT_EXPECT_EQ(test, c.canary, 0x5a5a);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy16, &c, "port", "0x1234", err,
					   sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, c.port, 0x1234);
	KUNIT_EXPECT_EQ(test, c.canary, 0x5a5a);
	KUNIT_EXPECT_EQ(test, bqlm_opt_set(&toy16, &c, "vals", "1,2", err,
					   sizeof(err)), 0);
	/* a count beyond max_count (a corrupt configuration) */
	c.nr_vals = 3;
	KUNIT_EXPECT_EQ(test, bqlm_opt_format(&toy16_opt[1], &c, buf,
					      sizeof(buf)), 3);
	KUNIT_EXPECT_STREQ(test, buf, "1,2");
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(&toy16, &c, err, sizeof(err)),
			-EINVAL);
}

/*
 * Each type formats into a buffer of one byte: the length it needs, an
 * empty string, nothing written past it (make mutate: a list of words
 * cleared the byte after the first).
 */
static void options_format_one_byte(struct kunit *test)
{
	struct toy_cfg c;
	unsigned int i;
	char *one;

	toy_default(&c);
	c.flags = 3;
	for (i = 0; i < ARRAY_SIZE(toy_opt); i++) {
		if (toy_opt[i].flags & BQLM_OPT_ALIAS)
			continue;
		/* its own allocation of one byte: ASan sees past it */
		one = bqlm_kunit_zalloc(test, 1);
		one[0] = 'x';
		KUNIT_EXPECT_GT_MSG(test, bqlm_opt_format(&toy_opt[i], &c, one, 1),
				    0, "--%s", toy_opt[i].name);
		KUNIT_EXPECT_EQ_MSG(test, one[0], '\0', "--%s", toy_opt[i].name);
	}
}

/*
 * The shorthands each model's table has (options with BQLM_OPT_ALIAS and
 * their own parser): each gives exactly the configuration of the options
 * it stands for, and refuses a value it does not take, leaving the
 * configuration as it was.
 */
static const struct {
	const struct bqlm_opts *(*opts)(void);
	const char *alias;
	const char *canonical;	/* NULL: refused */
} bqlm_options_aliases[] = {
	{ bqlm_usbnet_options, "--header 8", "--fixup pad --pad-header 8" },
	{ bqlm_usbnet_options, "--header 0", "--fixup none --pad-header 0" },
	{ bqlm_usbnet_options, "--header 65", NULL },
	{ bqlm_usbnet_options, "--header x", NULL },
	{ bqlm_usbnet_options, "--aggregate ncm", "--fixup multi" },
	{ bqlm_usbnet_options, "--aggregate asix", NULL },
	{ bqlm_usbnet_options, "--avoid-unlink", "--flags avoid-unlink" },
	{ bqlm_usbnet_options, "--avoid-unlink=off", NULL },
	{ bqlm_xoff_options, "--no-barrier", "--sent-mb off --completed-mb off" },
	{ bqlm_xoff_options, "--no-barrier=1", NULL },
	{ bqlm_xoff_options, "--no-mb sent", "--sent-mb off" },
	{ bqlm_xoff_options, "--no-mb completed", "--completed-mb off" },
	{ bqlm_xoff_options, "--no-mb both", NULL },
};

static void options_model_aliases(struct kunit *test)
{
	struct {
		char err[160];
		unsigned char a[512];
		unsigned char b[512];
	} *buf = bqlm_kunit_zalloc(test, sizeof(*buf));
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bqlm_options_aliases); i++) {
		const struct bqlm_opts *t = bqlm_options_aliases[i].opts();
		const char *alias = bqlm_options_aliases[i].alias;
		const char *canonical = bqlm_options_aliases[i].canonical;

		KUNIT_ASSERT_LE(test, t->cfg_size, sizeof(buf->a));
		memset(buf->a, 0, sizeof(buf->a));
		memset(buf->b, 0, sizeof(buf->b));
		t->defaults(buf->a);
		t->defaults(buf->b);
		buf->err[0] = '\0';
		if (!canonical) {
			KUNIT_EXPECT_EQ_MSG(test, bqlm_opt_apply(t, buf->a, alias, buf->err,
								 sizeof(buf->err)),
					    -EINVAL, "%s '%s' taken", t->model, alias);
			KUNIT_EXPECT_NE_MSG(test, buf->err[0], '\0',
					    "%s '%s': no reason given", t->model, alias);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, bqlm_opt_apply(t, buf->a, alias, buf->err,
								 sizeof(buf->err)),
					    0, "%s '%s': %s", t->model, alias, buf->err);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_apply(t, buf->b, canonical, buf->err,
								 sizeof(buf->err)),
					    0, "%s '%s': %s", t->model, canonical, buf->err);
		}
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf->a, buf->b, t->cfg_size), 0,
				    "%s: '%s' is not '%s'", t->model, alias,
				    canonical ? canonical : "(the defaults)");
	}
}

/*
 * A choice option's says[] has one entry per word of its names[] (the
 * header of bqlm explore prints it for the value: one too few would read
 * past the array), and bqlm_opt_says() gives the entry of the value, the
 * word where there is no says[], "?" past the last word.
 */
static void options_says_per_word(struct kunit *test)
{
	const struct bqlm_opts *const models[] = {
		bqlm_nic_options(), bqlm_usbnet_options(), bqlm_tun_options(),
		bqlm_xoff_options(),
	};
	unsigned char *cfg = bqlm_kunit_zalloc(test, 512);
	unsigned int m, i, n, k, said = 0;
	char err[160];

	for (m = 0; m < ARRAY_SIZE(models); m++) {
		const struct bqlm_opts *t = models[m];

		KUNIT_ASSERT_LE(test, t->cfg_size, 512U);
		for (i = 0; i < t->n; i++) {
			const struct bqlm_opt *o = &t->opt[i];

			if (!o->says)
				continue;
			said++;
			KUNIT_EXPECT_EQ_MSG(test, o->type, BQLM_OPT_CHOICE,
					    "%s --%s", t->model, o->name);
			for (n = 0; o->names[n]; n++)
				;
			for (k = 0; o->says[k]; k++)
				;
			KUNIT_EXPECT_EQ_MSG(test, k, n, "%s --%s: %u words, %u says",
					    t->model, o->name, n, k);
			for (k = 0; k < n && o->says[k]; k++) {
				memset(cfg, 0, 512);
				KUNIT_ASSERT_EQ(test, bqlm_opt_set(t, cfg, o->name,
								   o->names[k], err,
								   sizeof(err)), 0);
				KUNIT_EXPECT_STREQ(test, bqlm_opt_says(o, cfg),
						   o->says[k]);
			}
			/* one past the last word, stored in the field's width */
			memset(cfg, 0, 512);
			if (o->size == 1)
				*(unsigned char *)(cfg + o->off) = n;
			else if (o->size == 2)
				*(unsigned short *)(cfg + o->off) = n;
			else
				*(unsigned int *)(cfg + o->off) = n;
			KUNIT_EXPECT_STREQ(test, bqlm_opt_says(o, cfg), "?");
		}
	}
	/* the NIC model's header reads nine of them */
	KUNIT_EXPECT_GE(test, said, 9U);
	/* an option without says[]: its word */
	memset(cfg, 0, 512);
	KUNIT_EXPECT_STREQ(test,
			   bqlm_opt_says(bqlm_opt_find(bqlm_nic_options(), "map"),
					 cfg), "rr");
}

/*
 * What usbnet's table checks beyond single ranges, its variants past the
 * last, and its --sweep system without a packet bound.
 */
static void options_usbnet_check(struct kunit *test)
{
	const struct bqlm_opts *t = bqlm_usbnet_options();
	struct bqlm_usbnet_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xsys sys;
	char err[160];

	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_NO_BQL);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_cfg_check(cfg), 0);
	KUNIT_ASSERT_EQ(test, t->system(cfg, &sys), 0);
	cfg->packets = 0;
	KUNIT_EXPECT_EQ_MSG(test, t->system(cfg, &sys), -EINVAL,
			    "a search without a packet bound");

	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_NO_BQL);
	KUNIT_ASSERT_EQ(test, bqlm_opt_apply(t, cfg, "--bql on --stop-reset none",
					     err, sizeof(err)), 0);
	err[0] = '\0';
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(t, cfg, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, "--stop-reset"), "%s", err);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(cfg), -EINVAL);

	/* the cycle bounds at their largest, and one more (make mutate) */
	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_NO_BQL);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(t, cfg, "--stops 3 --suspends 3 --timeouts 3",
					     err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(t, cfg, "--stops 4", err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(t, cfg, "--suspends 4", err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_opt_apply(t, cfg, "--timeouts 4", err, sizeof(err)),
			-EINVAL);
	/* every length is checked, not only the first (make mutate) */
	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_NO_BQL);
	KUNIT_ASSERT_EQ(test, bqlm_opt_apply(t, cfg,
					     "--fixup pad --pad-header 8 --lens 60,65534",
					     err, sizeof(err)), 0);
	err[0] = '\0';
	KUNIT_EXPECT_EQ(test, bqlm_opt_check(t, cfg, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, "65534 is too long"), "%s", err);

	bqlm_usbnet_cfg_default(cfg, bqlm_usbnet_nr_variants());
	KUNIT_EXPECT_EQ(test, (unsigned int)cfg->variant, bqlm_usbnet_nr_variants());
	KUNIT_EXPECT_EQ(test, cfg->packets, 3U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(cfg), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(NULL), -EINVAL);
}

static struct kunit_case bqlm_options_cases[] = {
	KUNIT_CASE(options_parse_each_type),
	KUNIT_CASE(options_refuse_bad),
	KUNIT_CASE(options_check_ranges),
	KUNIT_CASE(options_describe_round_trip),
	KUNIT_CASE(options_apply_errors),
	KUNIT_CASE(options_help_and_covers),
	KUNIT_CASE(options_uint),
	KUNIT_CASE(options_model_profiles_round_trip),
	KUNIT_CASE(options_describe_measures),
	KUNIT_CASE(options_describe_fits),
	KUNIT_CASE(options_field_sizes),
	KUNIT_CASE(options_format_one_byte),
	KUNIT_CASE(options_model_aliases),
	KUNIT_CASE(options_says_per_word),
	KUNIT_CASE(options_usbnet_check),
	{}
};

BQLM_KUNIT_SUITE(bqlm_options, bqlm_options_cases);
