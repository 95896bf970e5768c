// SPDX-License-Identifier: GPL-2.0
/*
 * Replay of golden vectors recorded from the kernel's own DQL.
 *
 * The kernel-only suite bqlm_dql_conformance prints, for its "golden"
 * parameters, every operation with the jiffies value the real
 * lib/dynamic_queue_limits.c saw and every field of the real struct dql
 * after it. scripts/record-golden.sh collects those lines into
 * userspace-tests/data/dql-golden.txt. This userspace-only suite feeds the
 * same operations to the model and checks every field after every step,
 * so that "make check" compares the model with kernel-derived truth without
 * a kernel.
 *
 * Line format: seed step op arg now ret <the BQLM_DQL_FIELDS in order>; lines
 * starting with '#' are comments. An "init" line (arg = hold time) starts
 * a sequence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <kunit/test.h>
#include <bqlm/dql.h>

#include "bqlm_kunit.h"
#include "dql_workload.h"

#define GOLDEN_NFIELDS	22

#ifndef BQLM_SRCDIR
#define BQLM_SRCDIR "."
#endif

static const char *golden_path(void)
{
	const char *env = getenv("BQLM_GOLDEN");

	return env ? env : BQLM_SRCDIR "/userspace-tests/data/dql-golden.txt";
}

/* Parse an op name; -1 if unknown. "init" is DQL_OP_SET_MAX_LIMIT + 1. */
static int golden_op(const char *name)
{
	int k;

	if (!strcmp(name, "init"))
		return DQL_OP_SET_MAX_LIMIT + 1;
	for (k = DQL_OP_QUEUE; k <= DQL_OP_SET_MAX_LIMIT; k++)
		if (!strcmp(name, dql_op_name(k)))
			return k;
	return -1;
}

struct golden_result {
	unsigned int steps, seqs, mismatches;
	unsigned int bad_line;		/* first malformed line, 0 if none */
};

/*
 * Replay the golden file at @path against the model; count the fields that
 * differ (reporting the first few) instead of failing, so that a case can
 * also check that a corrupted file is caught.
 */
static void golden_replay(struct kunit *test, const char *path,
			  struct golden_result *res)
{
	unsigned long long seed, f[GOLDEN_NFIELDS];
	unsigned int step, arg, lineno = 0;
	char line[1024], opname[32];
	struct bqlm_dql dql;
	unsigned long now;
	bool started = false;
	FILE *fp;
	int ret, n;

	memset(res, 0, sizeof(*res));
	fp = fopen(path, "r");
	if (!fp) {
		kunit_err(test, "cannot open %s", path);
		res->bad_line = UINT_MAX;
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		struct dql_op op;
		int kind, got = 0;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = sscanf(line, "%llu %u %31s %u %lu %d%n", &seed, &step,
			   opname, &arg, &now, &ret, &got);
		kind = n == 6 ? golden_op(opname) : -1;
		for (n = 0; kind >= 0 && n < GOLDEN_NFIELDS; n++) {
			int used = 0;

			if (sscanf(line + got, "%llu%n", &f[n], &used) != 1)
				break;
			got += used;
		}
		if (kind < 0 || n != GOLDEN_NFIELDS ||
		    (!started && kind != DQL_OP_SET_MAX_LIMIT + 1)) {
			kunit_err(test, "%s:%u: malformed line", path, lineno);
			res->bad_line = lineno;
			break;
		}

		if (kind == DQL_OP_SET_MAX_LIMIT + 1) {
			memset(&dql, 0, sizeof(dql));
			bqlm_dql_init(&dql, arg, now);
			started = true;
			res->seqs++;
		} else if (kind != DQL_OP_TICK) {
			op.kind = kind;
			op.arg = arg;
			if (dql_workload_apply(&dql, &op, &now) != ret)
				res->mismatches++;
		}
		res->steps++;
		n = 0;
#define GOLDEN_CMP(field) ({						\
		if ((unsigned long long)dql.field != f[n] &&		\
		    res->mismatches++ < 5)				\
			kunit_err(test, "%s:%u: seed %llu step %u (%s): %s is %llu, kernel had %llu", \
				  path, lineno, seed, step, opname, #field, \
				  (unsigned long long)dql.field, f[n]);	\
		n++;							\
})
		BQLM_DQL_FIELDS(GOLDEN_CMP);
#undef GOLDEN_CMP
	}
	fclose(fp);
}

static void dql_golden_replay(struct kunit *test)
{
	struct golden_result res;

	if (sizeof(long) != 8)
		kunit_skip(test, "vectors recorded with 64-bit longs (history layout)");
	golden_replay(test, golden_path(), &res);
	kunit_info(test, "%u kernel steps in %u sequences replayed, %u fields differ",
		   res.steps, res.seqs, res.mismatches);
	KUNIT_EXPECT_EQ(test, res.bad_line, 0U);
	KUNIT_EXPECT_EQ(test, res.mismatches, 0U);
	KUNIT_EXPECT_GT(test, res.seqs, 0U);
	KUNIT_EXPECT_GT(test, res.steps, 100U);
}

/* A deferred action: remove the temporary file named @path. */
static void golden_unlink(void *path)
{
	unlink(path);
}

/*
 * Replay @text through a temporary file, removed when the case ends
 * however it ends, or as soon as the replay is done.
 */
static void golden_replay_text(struct kunit *test, const char *text,
			       struct golden_result *res)
{
	static const char tmpl[] = "/tmp/bqlm-golden-XXXXXX";
	char *path = kunit_kzalloc(test, sizeof(tmpl), GFP_KERNEL);
	FILE *fp;
	int fd;

	KUNIT_ASSERT_NOT_NULL_MSG(test, path, "the temporary vector file");
	memcpy(path, tmpl, sizeof(tmpl));
	fd = mkstemp(path);
	KUNIT_ASSERT_GE_MSG(test, fd, 0, "mkstemp(%s)", path);
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test, golden_unlink,
							    path), 0,
			    "the temporary vector file");
	fp = fdopen(fd, "w");
	if (!fp)
		close(fd);
	KUNIT_ASSERT_NOT_NULL_MSG(test, fp, "fdopen(%s)", path);
	fputs(text, fp);
	KUNIT_ASSERT_EQ_MSG(test, fclose(fp), 0, "writing %s", path);
	golden_replay(test, path, res);
	kunit_release_action(test, golden_unlink, path);
}

/* The replay notices a single wrong field, and rejects broken lines. */
static void dql_golden_detects_differences(struct kunit *test)
{
	static const char good[] =
		"1 0 init 4 1000 0 0 0 0 0 15 0 0 0 0 0 0 0 0 0 4294967295 1000 1879048192 0 4 0 1000 0\n"
		"1 1 queue 300 1000 0 300 0 300 0 15 0 0 0 0 0 0 0 0 0 4294967295 1000 1879048192 0 4 0 1000 0\n"
		"1 2 complete 300 1001 0 300 600 300 0 15 0 0 0 0 300 300 0 300 300 4294967295 1001 1879048192 0 4 0 1000 0\n";
	struct golden_result res;
	char *bad, *p;

	if (sizeof(long) != 8)
		kunit_skip(test, "hand-made vectors assume 64-bit longs");
	golden_replay_text(test, good, &res);
	KUNIT_EXPECT_EQ_MSG(test, res.mismatches, 0U, "the good vectors");
	KUNIT_EXPECT_EQ_MSG(test, res.steps, 3U, "the good vectors");

	/* num_completed 300 -> 301 after the completion: one field differs */
	bad = kunit_kzalloc(test, sizeof(good), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bad);
	memcpy(bad, good, sizeof(good));
	p = strstr(bad, "1 2 complete");
	KUNIT_ASSERT_NOT_NULL(test, p);
	p = strstr(p, " 300 0 300 300 ");
	KUNIT_ASSERT_NOT_NULL(test, p);
	p[3] = '1';
	golden_replay_text(test, bad, &res);
	KUNIT_EXPECT_EQ_MSG(test, res.mismatches, 1U, "num_completed changed");

	golden_replay_text(test, "1 0 init 4 1000 0 1 2\n", &res);
	KUNIT_EXPECT_EQ_MSG(test, res.bad_line, 1U, "fields missing");
	golden_replay_text(test, "1 1 frobnicate 1 1 0\n", &res);
	KUNIT_EXPECT_EQ_MSG(test, res.bad_line, 1U, "unknown operation");
	golden_replay(test, "/nonexistent/bqlm-golden", &res);
	KUNIT_EXPECT_EQ_MSG(test, res.bad_line, UINT_MAX, "no file");
}

static struct kunit_case bqlm_dql_golden_cases[] = {
	KUNIT_CASE(dql_golden_replay),
	KUNIT_CASE(dql_golden_detects_differences),
	{}
};

BQLM_KUNIT_SUITE(bqlm_dql_golden, bqlm_dql_golden_cases);
