// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the schedule files of usbnet explorations
 * (model/usbnet/usbnet_schedule.c), suite bqlm_usbnet_schedule: what
 * bqlm_usbnet_schedule_write() writes, bqlm_usbnet_schedule_parse() reads
 * back exactly; what it refuses, it says why.
 */
#include <linux/if_ether.h>
#include "bqlm_kunit.h"
#include <bqlm/usbnet.h>
#include "schedule_text.h"

/* A schedule file: what write() writes, parse() reads back exactly. */
static void usbnet_schedule_roundtrip(struct kunit *test)
{
	static const unsigned int path[] = {
		BQLM_X_ACTION(BQLM_USBNET_A_XMIT, 1),
		BQLM_X_ACTION(BQLM_USBNET_A_XMIT, 0),
		BQLM_X_ACTION(BQLM_USBNET_A_XMIT, 0),
		BQLM_X_ACTION(BQLM_USBNET_A_COMPLETE, 0 * 4 + 2),
	};
	struct schedule_text *t = bqlm_kunit_zalloc(test, sizeof(*t));
	struct bqlm_usbnet_cfg cfg, back;
	unsigned int got[8];
	enum bqlm_check check;
	char err[96];
	int n;

	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIX_RESET);
	cfg.nr_lens = 2;
	cfg.lens[1] = ETH_ZLEN;
	cfg.flags = BQLM_USBNET_FLAG_AVOID_UNLINK_URBS;
	cfg.timeouts = 0;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_schedule_write(&cfg,
			BQLM_CHECK_STALL, path, ARRAY_SIZE(path),
			schedule_text_line, t), 0);
	KUNIT_ASSERT_FALSE(test, t->overflow);
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf, "variant fix-reset\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf, "lens 1514 60\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf, "step 0x101\t# stack: qdisc -> usbnet_start_xmit(60 bytes)"));
	n = bqlm_usbnet_schedule_parse(t->buf, &back, &check, got,
				       ARRAY_SIZE(got), err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, n, (int)ARRAY_SIZE(path), "%s", err);
	KUNIT_EXPECT_EQ(test, memcmp(got, path, sizeof(path)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&back, &cfg, sizeof(cfg)), 0);
	KUNIT_EXPECT_EQ(test, check, BQLM_CHECK_STALL);

	/* found by make fuzz: a list as long as its set, one word each */
	cfg.pm = BQLM_USBNET_PM_RESUME_LINK | BQLM_USBNET_PM_RESUME_CARRIER |
		 BQLM_USBNET_PM_STOP_CARRIER |
		 BQLM_USBNET_PM_SUSPEND_IGNORES_BUSY |
		 BQLM_USBNET_PM_OWN_SUSPEND_FAILS | BQLM_USBNET_PM_LINK_RESET;
	t->len = 0;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_schedule_write(&cfg,
			BQLM_CHECK_STALL, path, ARRAY_SIZE(path),
			schedule_text_line, t), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf,
		"pm resume-link resume-carrier stop-carrier suspend-ignores-busy own-suspend-fails link-reset\n"));
	n = bqlm_usbnet_schedule_parse(t->buf, &back, &check, got,
				       ARRAY_SIZE(got), err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, n, (int)ARRAY_SIZE(path), "%s", err);
	KUNIT_EXPECT_EQ(test, memcmp(&back, &cfg, sizeof(cfg)), 0);
	cfg.pm = 0;

	/* a ';' inside a comment does not end the line */
	n = bqlm_usbnet_schedule_parse("variant v1 # a; b\nstep 0x100 # c; TX_QLEN",
				       &back, &check, got, ARRAY_SIZE(got),
				       err, sizeof(err));
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s", err);

	/* as the command line has it: ';' ends a line, ',' splits words */
	n = bqlm_usbnet_schedule_parse("variant,merged;packets,1;step,0x100;steps,1",
				       &back, &check, got, ARRAY_SIZE(got),
				       err, sizeof(err));
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s", err);
	KUNIT_EXPECT_EQ(test, back.variant, BQLM_USBNET_MERGED);
	KUNIT_EXPECT_EQ(test, back.packets, 1U);
	KUNIT_EXPECT_EQ(test, check, BQLM_CHECK_NONE);

	/* a step the model cannot take where the trace takes it */
	t->len = 0;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_schedule_write(&cfg,
			BQLM_CHECK_NONE, &path[3], 1, schedule_text_line, t),
			-EINVAL);
}

#define SCHED_BAD(t, e)	{ .text = (t), .err = (e) }

static const struct {
	const char *text;
	const char *err;
} usbnet_sched_bad[] = {
	SCHED_BAD("variant v9", "line 1: unknown variant 'v9'"),
	SCHED_BAD("# c\npackets 9", "line 2: --packets: '9' is not a number in 0..6"),
	SCHED_BAD("packets 3 4", "line 1: --packets: '3,4' is not a number"),
	SCHED_BAD("packetz 3", "line 1: unknown key 'packetz'"),
	SCHED_BAD("step 0x1g0", "line 1: not a number in range: '0x1g0'"),
	SCHED_BAD("step 0x10000", "line 1: not a number in range: '0x10000'"),
	SCHED_BAD("lens 1514 60 40",
		  "line 1: --lens: '1514,60,40' is not a list of 1..2 numbers"),
	SCHED_BAD("lens 0", "line 1: --lens: '0' is not a list"),
	SCHED_BAD("check stal", "line 1: unknown check 'stal'"),
	SCHED_BAD("fixup zero", "line 1: --fixup: 'zero' is not one of none, pad, multi"),
	SCHED_BAD("variant v1\nsteps 2\nstep 0x100",
		  "declares 2 steps and has 1"),
	SCHED_BAD("steps 1\nstep 0x100", "no 'variant' line"),
	SCHED_BAD("step 0x100;step 0x100;step 0x100;step 0x100;step 0x100",
		  "line 5: too many steps"),
	/* an action number is refused, not reinterpreted */
	SCHED_BAD("step 0x999",
		  "line 1: not an action of this configuration (kind, or its argument, out of range): '0x999'"),
	SCHED_BAD("step 1", "line 1: not an action of this configuration"),
	SCHED_BAD("variant v1\nstep 0x101", "line 2: not an action"),
	SCHED_BAD("variant v1\npackets 2\nstep 0x308",
		  "line 3: not an action of this configuration"),
	SCHED_BAD("step 0x502", "line 1: not an action"),
	SCHED_BAD("step 0xf00", "line 1: not an action"),
	SCHED_BAD("variant v1\nstep 0x100\npackets 2",
		  "line 3: the options must come before the steps they configure: 'packets'"),
	SCHED_BAD("step 0x100\nvariant v1",
		  "line 2: the variant must come before the options and steps: 'v1'"),
	SCHED_BAD("a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8",
		  "line 1: too many words"),
	SCHED_BAD("tx-qlen 0", "line 1: --tx-qlen: '0' is not a number in 1..1000"),
	SCHED_BAD("packets 2\nvariant v1",
		  "line 2: the variant must come before the options and steps: 'v1'"),
	SCHED_BAD("variant v1\nbql off", "the configuration is out of range"),
	SCHED_BAD("header 8", "line 1: unknown key 'header'"),
	SCHED_BAD("statuses eproto", "the configuration is out of range"),
	SCHED_BAD("packets 99999999999", "line 1: --packets: '99999999999' is not a number"),
	/* found by make fuzz: the simulator's unbounded stream, which no
	 * schedule can replay
	 */
	SCHED_BAD("variant merged\npackets 0\nskbs 1",
		  "the configuration is outside the explorer's bounds"),
};

static void usbnet_schedule_errors(struct kunit *test)
{
	struct bqlm_usbnet_cfg cfg;
	enum bqlm_check check;
	unsigned int got[4];
	char err[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(usbnet_sched_bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, bqlm_usbnet_schedule_parse(
				    usbnet_sched_bad[i].text, &cfg, &check,
				    got, ARRAY_SIZE(got), err, sizeof(err)),
				    -EINVAL, "%s", usbnet_sched_bad[i].text);
		KUNIT_EXPECT_TRUE_MSG(test, strstr(err, usbnet_sched_bad[i].err),
				      "%s: got '%s'", usbnet_sched_bad[i].text,
				      err);
	}
	/* empty and comment-only text is a valid, empty schedule */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_schedule_parse("# nothing\n\n",
			&cfg, &check, got, ARRAY_SIZE(got), err, sizeof(err)),
			0);
}


/*
 * A key without its value, and a value longer than any option's: refused
 * with what is missing (make mutate: the check could go, other errors
 * came instead).
 */
static void usbnet_schedule_no_value(struct kunit *test)
{
	struct bqlm_usbnet_cfg cfg;
	enum bqlm_check check;
	unsigned int got[4];
	char err[160], *text = bqlm_kunit_zalloc(test, 256);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, bqlm_usbnet_schedule_parse("variant v1\npackets",
			&cfg, &check, got, ARRAY_SIZE(got), err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "line 2: expected a value after 'packets'");
	/* "lens" and three words of 60 digits: 180 bytes, no room */
	i = snprintf(text, 256, "lens ");
	memset(text + i, '1', 182);
	text[i + 60] = ' ';
	text[i + 121] = ' ';
	text[i + 182] = '\0';
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_schedule_parse(text, &cfg, &check,
			got, ARRAY_SIZE(got), err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "line 1: expected a value after 'lens'");
}

static struct kunit_case bqlm_usbnet_schedule_cases[] = {
	KUNIT_CASE(usbnet_schedule_roundtrip),
	KUNIT_CASE(usbnet_schedule_errors),
	KUNIT_CASE(usbnet_schedule_no_value),
	{}
};

BQLM_KUNIT_SUITE(bqlm_usbnet_schedule, bqlm_usbnet_schedule_cases);
