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
 * Line format: seed step op arg now ret <the DQL_FIELDS in order>; lines
 * starting with '#' are comments. An "init" line (arg = hold time) starts
 * a sequence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <kunit/test.h>
#include <bqlm/dql.h>

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

static void dql_golden_replay(struct kunit *test)
{
	unsigned long long seed, f[GOLDEN_NFIELDS];
	unsigned int step, arg, lineno = 0, steps = 0, seqs = 0;
	char line[1024], opname[32];
	struct bqlm_dql dql;
	unsigned long now;
	bool started = false;
	FILE *fp;
	int ret, n;

	if (sizeof(long) != 8)
		kunit_skip(test, "vectors recorded with 64-bit longs (history layout)");
	fp = fopen(golden_path(), "r");
	if (!fp)
		KUNIT_FAIL(test, "cannot open %s", golden_path());
	KUNIT_ASSERT_NOT_NULL(test, fp);

	while (fgets(line, sizeof(line), fp)) {
		struct dql_op op;
		int kind, got = 0;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = sscanf(line, "%llu %u %31s %u %lu %d%n", &seed, &step,
			   opname, &arg, &now, &ret, &got);
		kind = n == 6 ? golden_op(opname) : -1;
		if (kind < 0) {
			KUNIT_FAIL(test, "%s:%u: malformed line", golden_path(),
				   lineno);
			break;
		}
		for (n = 0; n < GOLDEN_NFIELDS; n++) {
			int used = 0;

			if (sscanf(line + got, "%llu%n", &f[n], &used) != 1)
				break;
			got += used;
		}
		if (n != GOLDEN_NFIELDS) {
			KUNIT_FAIL(test, "%s:%u: %d fields, want %d",
				   golden_path(), lineno, n, GOLDEN_NFIELDS);
			break;
		}

		if (kind == DQL_OP_SET_MAX_LIMIT + 1) {
			memset(&dql, 0, sizeof(dql));
			bqlm_dql_init(&dql, arg, now);
			started = true;
			seqs++;
		} else if (!started) {
			KUNIT_FAIL(test, "%s:%u: step before init", golden_path(),
				   lineno);
			break;
		} else if (kind != DQL_OP_TICK) {
			op.kind = kind;
			op.arg = arg;
			KUNIT_EXPECT_EQ_MSG(test, dql_workload_apply(&dql, &op, &now),
					    ret, "%s:%u", golden_path(), lineno);
		}
		steps++;
		n = 0;
#define GOLDEN_CMP(field) ({						\
		KUNIT_EXPECT_EQ_MSG(test, (unsigned long long)dql.field,	\
				    f[n], "%s:%u: seed %llu step %u (%s): %s", \
				    golden_path(), lineno, seed, step, opname, \
				    #field);				\
		n++;							\
})
		DQL_FIELDS(GOLDEN_CMP);
#undef GOLDEN_CMP
	}
	fclose(fp);
	kunit_info(test, "%u kernel steps in %u sequences replayed", steps, seqs);
	KUNIT_EXPECT_GT(test, seqs, 0U);
	KUNIT_EXPECT_GT(test, steps, 100U);
}

static struct kunit_case bqlm_dql_golden_cases[] = {
	KUNIT_CASE(dql_golden_replay),
	{}
};

static struct kunit_suite bqlm_dql_golden_suite = {
	.name = "bqlm_dql_golden",
	.test_cases = bqlm_dql_golden_cases,
};

kunit_test_suite(bqlm_dql_golden_suite);
