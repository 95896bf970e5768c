/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one exploration and the figures it must give, shared by the
 * driver model suites (usbnet, tun, nic); the explorer as a resource of
 * the case; the check of a model's symmetry (its canon() hook).
 */
#ifndef _BQLM_KUNIT_EXPLORE_EXPECT_H
#define _BQLM_KUNIT_EXPLORE_EXPECT_H

#include <bqlm/explore.h>
#include <bqlm/invariants.h>	/* BQLM_CHECK_BIT() */
#include <bqlm/prng.h>

#include "bqlm_kunit.h"

/*
 * The full search's bounds: what the figures the suites pin (exact state
 * counts, shortest paths) are measured with.
 */
#define EXPLORE_FULL	(&(const struct bqlm_xbounds){ .no_reduction = true })

/* The checks' bits in a mask of violated checks, as the suites name them */
#define BIT_OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BIT_BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define BIT_RS	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)
#define BIT_SC	BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION)
#define BIT_SA	BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)
#define BIT_ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)
#define BIT_BD	BQLM_CHECK_BIT(BQLM_CHECK_BACKPRESSURE_DROP)
#define BIT_WR	BQLM_CHECK_BIT(BQLM_CHECK_WAKE_ON_RECONFIG)
#define BIT_FB	BQLM_CHECK_BIT(BQLM_CHECK_FREED_BUSY)
#define BIT_SU	BQLM_CHECK_BIT(BQLM_CHECK_SUSPEND_COUNT)
#define BIT_RO	BQLM_CHECK_BIT(BQLM_CHECK_RING_OVERRUN)
#define BIT_WQ	BQLM_CHECK_BIT(BQLM_CHECK_WRONG_QUEUE)
#define BIT_AS	BQLM_CHECK_BIT(BQLM_CHECK_ABOVE_SENT)

/* Room for a path the explorer prints: deeper than any the suites pin. */
#define EXPLORE_PATH_MAX	256

/* Room for a path of EXPLORE_PATH_MAX actions, for the case's duration */
static inline unsigned int *explore_path_alloc(struct kunit *test)
{
	return bqlm_kunit_zalloc(test, EXPLORE_PATH_MAX * sizeof(unsigned int));
}

/*
 * The lines bqlm_xtrace() prints, counted, and which of @nr words (at
 * most 32) they contain: bit i of @seen, @want[i].
 */
struct explore_words {
	const char *const *want;
	unsigned int nr;
	unsigned int seen;
	unsigned int lines;
};

static inline void explore_words_line(void *arg, const char *line)
{
	struct explore_words *w = arg;
	unsigned int i;

	w->lines++;
	for (i = 0; i < w->nr; i++)
		if (strstr(line, w->want[i]))
			w->seen |= 1U << i;
}

/*
 * Print the @n actions of @path from @sys's initial state as the CLI does
 * (bqlm_xtrace()) and expect each of the @nr words of @want in the trace.
 * Returns the checks the path violates (bqlm_xtrace()'s mask); *@lines
 * (unless NULL): the lines printed.
 */
static inline int explore_trace_words(struct kunit *test,
				      const struct bqlm_xsys *sys,
				      const unsigned int *path, unsigned int n,
				      const char *const *want, unsigned int nr,
				      unsigned int *lines)
{
	struct explore_words w = { .want = want, .nr = nr };
	unsigned int i;
	int violated;

	KUNIT_ASSERT_LE(test, nr, 32U);
	violated = bqlm_xtrace(sys, path, n, explore_words_line, &w);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_TRUE_MSG(test, w.seen & (1U << i),
				      "no \"%s\" in the trace", want[i]);
	if (lines)
		*lines = w.lines;
	return violated;
}

/**
 * struct explore_expect - what an exploration must find
 * @key: the case's description, in a table of kunit/expect/ (else NULL)
 * @states: exact number of states
 * @transitions: exact number of transitions
 * @violated: exact mask of violated checks
 * @verdict: the verdict (bqlm_xresult_verdict())
 * @verdict_depth: the depth of the verdict's shortest witness
 */
struct explore_expect {
	const char *key;
	unsigned long long states;
	unsigned long long transitions;
	unsigned int violated;
	enum bqlm_check verdict;
	unsigned int verdict_depth;
};

/**
 * struct explore_expect_table - the figures of a table of cases, as a run
 *	measured them: kunit/expect/@name.h, which make promote rewrites
 *	(scripts/promote.py, docs/hacking.md)
 * @name: the table's name, its file's
 * @rows: one row a case, keyed by the case's description
 * @nr: the number of rows
 */
struct explore_expect_table {
	const char *name;
	const struct explore_expect *rows;
	unsigned int nr;
};

/* What a mismatch with a row of kunit/expect/ says */
#define EXPLORE_PROMOTE_HINT	"; run make promote to accept"

/*
 * The row of @t keyed @key; a failed expectation, and a row that matches
 * no search (no verdict is BQLM_CHECK_NR), if there is none.
 */
static inline const struct explore_expect *
explore_expect_row(struct kunit *test, const struct explore_expect_table *t,
		   const char *key)
{
	static const struct explore_expect missing = {
		.key = "", .verdict = BQLM_CHECK_NR,
	};
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->rows[i].key, key))
			return &t->rows[i];
	KUNIT_FAIL(test, "%s: no row in kunit/expect/%s.h" EXPLORE_PROMOTE_HINT,
		   key, t->name);
	return &missing;
}

/*
 * The figures of @res as a row @key of @t, on the line make promote reads
 * (scripts/promote.py): the table, the key, then each field.
 */
static inline void explore_promote(struct kunit *test,
				   const struct explore_expect_table *t,
				   const char *key,
				   const struct bqlm_xresult *res)
{
	enum bqlm_check v = bqlm_xresult_verdict(res);

	kunit_info(test,
		   "promote %s \"%s\" states=%llu transitions=%llu violated=%#x verdict=%u depth=%u",
		   t->name, key, res->states, res->transitions, res->violated,
		   v, v == BQLM_CHECK_NONE ? 0 : res->w[v].depth);
}

/*
 * The rows @key and @other of @t have the same figures: two cases whose
 * difference must not change the search.
 */
static inline void explore_expect_same(struct kunit *test,
				       const struct explore_expect_table *t,
				       const char *key, const char *other)
{
	const struct explore_expect *a = explore_expect_row(test, t, key);
	const struct explore_expect *b = explore_expect_row(test, t, other);

	KUNIT_EXPECT_EQ_MSG(test, a->states, b->states, "%s, %s: states",
			    key, other);
	KUNIT_EXPECT_EQ_MSG(test, a->transitions, b->transitions,
			    "%s, %s: transitions", key, other);
	KUNIT_EXPECT_EQ_MSG(test, a->violated, b->violated,
			    "%s, %s: violated checks", key, other);
	KUNIT_EXPECT_EQ_MSG(test, a->verdict, b->verdict, "%s, %s: verdict",
			    key, other);
	KUNIT_EXPECT_EQ_MSG(test, a->verdict_depth, b->verdict_depth,
			    "%s, %s: the verdict's depth", key, other);
}

/* A deferred action (kunit_add_action()) that destroys an explorer. */
static inline void explore_destroy_action(void *x)
{
	bqlm_explorer_destroy(x);
}

/*
 * An explorer of @sys within @bounds (may be NULL), destroyed when the
 * case ends, however it ends; kunit_release_action() with
 * explore_destroy_action destroys it earlier. Ends the case if it cannot
 * be had.
 */
static inline struct bqlm_explorer *explore_create(struct kunit *test,
						   const struct bqlm_xsys *sys,
						   const struct bqlm_xbounds *bounds)
{
	struct bqlm_explorer *x = bqlm_explorer_create(sys, bounds);

	KUNIT_ASSERT_NOT_NULL_MSG(test, x, "an explorer of %s", sys->name);
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test,
							    explore_destroy_action,
							    x), 0,
			    "an explorer of %s", sys->name);
	return x;
}

/*
 * An explorer of @sys within @bounds (may be NULL; explore_create()), its
 * search into @res, which must succeed, and the shortest path to a
 * violation of @check into @path (EXPLORE_PATH_MAX actions at most).
 * Returns the explorer; *@n: bqlm_explorer_path()'s result, the path's
 * length or a negative code.
 */
static inline struct bqlm_explorer *
explore_shortest(struct kunit *test, const struct bqlm_xsys *sys,
		 const struct bqlm_xbounds *bounds, struct bqlm_xresult *res,
		 enum bqlm_check check, unsigned int *path, int *n)
{
	struct bqlm_explorer *x = explore_create(test, sys, bounds);

	KUNIT_EXPECT_EQ_MSG(test, bqlm_explore(x, res), 0, "exploring %s",
			    sys->name);
	*n = bqlm_explorer_path(x, check, path, EXPLORE_PATH_MAX);
	return x;
}

/*
 * Does @path (@n actions from the initial state) end in a violation of
 * check @c: its last step violates @c, or the state it reaches does?
 * Replays the path through the system's own steps.
 */
static inline bool explore_replays(struct kunit *test,
				   const struct bqlm_xsys *sys,
				   const unsigned int *path, unsigned int n,
				   unsigned int c)
{
	unsigned char *cur = kunit_kzalloc(test, sys->state_size, GFP_KERNEL);
	unsigned char *next = kunit_kzalloc(test, sys->state_size,
					    GFP_KERNEL);
	unsigned int *en = kunit_kcalloc(test, BQLM_X_MAX_ACTIONS,
					 sizeof(*en), GFP_KERNEL);
	struct bqlm_violation *each = kunit_kcalloc(test, BQLM_CHECK_NR,
						    sizeof(*each),
						    GFP_KERNEL);
	unsigned int k, ne;
	int mask = 0;
	bool ok = false;

	if (!cur || !next || !en || !each)
		return false;
	bqlm_xinit(sys, cur);
	for (k = 0; k < n; k++) {
		memcpy(next, cur, sys->state_size);
		mask = bqlm_xstep(sys, cur, path[k], next, each);
		if (mask < 0)
			return false;
		memcpy(cur, next, sys->state_size);
	}
	if (n && (mask & BQLM_CHECK_BIT(c))) {
		ok = true;
	} else {
		ne = bqlm_xenabled(sys, cur, en);
		mask = bqlm_xcheck_state(sys, cur, en, ne, each);
		ok = mask > 0 && (mask & BQLM_CHECK_BIT(c));
	}
	return ok;
}

/*
 * The reduced search of @sys within @bounds against the full search's
 * result @full: the same checks violated, no more states, and a path to
 * each violation that replays from the initial state to it. Returns the
 * reduced search's states (0 when @sys has no reduction hook).
 */
static inline unsigned long long
explore_compare_reduced(struct kunit *test, const struct bqlm_xsys *sys,
			const struct bqlm_xbounds *bounds,
			const struct bqlm_xresult *full, const char *desc)
{
	struct bqlm_xbounds b = { 0 };
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	unsigned int *path, c;
	unsigned long long states;
	int n;

	if (!sys->ops->canon)
		return 0;
	if (bounds)
		b = *bounds;
	b.no_reduction = false;
	b.max_depth = 0;	/* a depth bound turns the reduction off */
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	path = kunit_kcalloc(test, 1024, sizeof(*path), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, res, "%s", desc);
	KUNIT_ASSERT_NOT_NULL_MSG(test, path, "%s", desc);
	x = explore_create(test, sys, &b);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_explore(x, res), 0, "%s: reduced", desc);
	KUNIT_EXPECT_TRUE_MSG(test, res->reduced, "%s", desc);
	kunit_info(test, "%s: reduced %llu states (full %llu), %s",
		   desc, res->states, full->states,
		   bqlm_check_name(bqlm_xresult_verdict(res)));
	KUNIT_EXPECT_EQ_MSG(test, res->violated, full->violated,
			    "%s: checks violated, reduced and full", desc);
	KUNIT_EXPECT_LE_MSG(test, res->states, full->states,
			    "%s: states, reduced and full", desc);
	for (c = 0; c < BQLM_CHECK_NR; c++) {
		if (!(res->violated & BQLM_CHECK_BIT(c)))
			continue;
		n = bqlm_explorer_path(x, c, path, 1024);
		KUNIT_EXPECT_GE_MSG(test, n, (int)full->w[c].depth,
				    "%s: the reduced path to %s", desc,
				    bqlm_check_name(c));
		if (n >= 0)
			KUNIT_EXPECT_TRUE_MSG(test,
					      explore_replays(test, sys, path, n, c),
					      "%s: the path to %s does not replay",
					      desc, bqlm_check_name(c));
	}
	states = res->states;
	kunit_release_action(test, explore_destroy_action, x);
	return states;
}

/*
 * Explore @sys within @bounds (may be NULL) into @res, completely, without
 * reduction, and expect the figures of @e: the explorer is deterministic,
 * so they are the same in the kernel, in userspace and in the 32-bit
 * build. Every violated check has a witness of that check.
 */
static inline void explore_expect_full(struct kunit *test,
				       const struct bqlm_xsys *sys,
				       const struct bqlm_xbounds *bounds,
				       struct bqlm_xresult *res,
				       const struct explore_expect *e,
				       const char *desc)
{
	const char *hint = e->key ? EXPLORE_PROMOTE_HINT : "";
	struct bqlm_xbounds b = { 0 };
	struct bqlm_explorer *x;
	unsigned int c;
	int err;

	if (bounds)
		b = *bounds;
	b.no_reduction = true;
	x = explore_create(test, sys, &b);
	err = bqlm_explore(x, res);
	kunit_release_action(test, explore_destroy_action, x);

	KUNIT_EXPECT_EQ_MSG(test, err, 0, "%s: bqlm_explore()", desc);
	KUNIT_EXPECT_TRUE_MSG(test, res->complete, "%s: complete", desc);
	KUNIT_EXPECT_FALSE_MSG(test, res->reduced, "%s: reduced", desc);
	kunit_info(test, "%s: %llu states, %llu transitions, depth %u, %s",
		   desc, res->states, res->transitions, res->max_depth,
		   bqlm_check_name(bqlm_xresult_verdict(res)));
	KUNIT_EXPECT_EQ_MSG(test, res->states, e->states, "%s: states%s", desc,
			    hint);
	KUNIT_EXPECT_EQ_MSG(test, res->transitions, e->transitions,
			    "%s: transitions%s", desc, hint);
	KUNIT_EXPECT_EQ_MSG(test, res->violated, e->violated,
			    "%s: mask of violated checks%s", desc, hint);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_xresult_verdict(res), e->verdict,
			    "%s: verdict %s, expected %s%s", desc,
			    bqlm_check_name(bqlm_xresult_verdict(res)),
			    bqlm_check_name(e->verdict), hint);
	if (e->verdict != BQLM_CHECK_NONE && e->verdict < BQLM_CHECK_NR)
		KUNIT_EXPECT_EQ_MSG(test, res->w[e->verdict].depth,
				    e->verdict_depth,
				    "%s: depth of the %s witness%s", desc,
				    bqlm_check_name(e->verdict), hint);
	for (c = 0; c < BQLM_CHECK_NR; c++)
		if (res->violated & BQLM_CHECK_BIT(c))
			KUNIT_EXPECT_EQ_MSG(test, res->w[c].v.check, c,
					    "%s: the witness of %s", desc,
					    bqlm_check_name(c));
}

/*
 * explore_expect_full(), then the reduced search, which must find the
 * same checks violated (explore_compare_reduced()); a depth bound turns
 * the reduction off, so there is nothing to compare then.
 */
static inline void explore_expect(struct kunit *test,
				  const struct bqlm_xsys *sys,
				  const struct bqlm_xbounds *bounds,
				  struct bqlm_xresult *res,
				  const struct explore_expect *e,
				  const char *desc)
{
	explore_expect_full(test, sys, bounds, res, e, desc);
	if (!bounds || !bounds->max_depth)
		explore_compare_reduced(test, sys, bounds, res, desc);
}

/*
 * The premise of a model's symmetry reduction, checked directly: on states
 * reached by seeded random walks of the unreduced model, canon() is
 * idempotent, a state and its representative have the same successors up
 * to canon() (each with the same violated checks, in both directions),
 * and the same state checks. A comparison of searches only sees the checks
 * a broken canon() hides; this sees the broken canon().
 */
#define SYMMETRY_WALKS	60
#define SYMMETRY_STEPS	60

struct symmetry_walk {
	const struct bqlm_xsys *sys;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned char *rep;
	unsigned char *again;
	unsigned char *succ[2];
	int mask[2][BQLM_X_MAX_ACTIONS];
	unsigned int act[2][BQLM_X_MAX_ACTIONS];
	unsigned int n[2];
	unsigned int walk;		/* the walk and its depth, for messages */
	unsigned int depth;
	unsigned int states;
	unsigned int renamed;
};

/* The canonical successors of @s into side @k. */
static inline void symmetry_succ(struct symmetry_walk *b,
				 const unsigned char *s, int k)
{
	const struct bqlm_xsys *sys = b->sys;
	size_t z = sys->state_size;
	unsigned int i;

	b->n[k] = bqlm_xenabled(sys, s, b->act[k]);
	for (i = 0; i < b->n[k]; i++) {
		unsigned char *t = b->succ[k] + i * z;

		memcpy(t, s, z);
		b->mask[k][i] = bqlm_xstep(sys, s, b->act[k][i], t,
					  b->each);
		bqlm_xcanon(sys, t);
	}
}

/* Does every successor of side @k have its match on the other side? */
static inline bool symmetry_matched(const struct symmetry_walk *b, int k,
				    unsigned int *bad)
{
	size_t z = b->sys->state_size;
	unsigned int i, j;

	for (i = 0; i < b->n[k]; i++) {
		for (j = 0; j < b->n[!k]; j++)
			if (b->mask[k][i] == b->mask[!k][j] &&
			    !memcmp(b->succ[k] + i * z, b->succ[!k] + j * z, z))
				break;
		if (j == b->n[!k]) {
			*bad = b->act[k][i];
			return false;
		}
	}
	return true;
}

static inline void symmetry_state(struct kunit *test, struct symmetry_walk *b,
				  const unsigned char *s)
{
	const struct bqlm_xsys *sys = b->sys;
	size_t z = sys->state_size;
	unsigned int bad = 0;

	memcpy(b->rep, s, z);
	bqlm_xcanon(sys, b->rep);
	memcpy(b->again, b->rep, z);
	bqlm_xcanon(sys, b->again);
	b->states++;
	b->renamed += !!memcmp(b->rep, s, z);
	KUNIT_ASSERT_EQ_MSG(test, memcmp(b->again, b->rep, z), 0,
			    "walk %u depth %u: canon() not idempotent",
			    b->walk, b->depth);
	symmetry_succ(b, s, 0);
	symmetry_succ(b, b->rep, 1);
	KUNIT_ASSERT_EQ_MSG(test, b->n[0], b->n[1],
			    "walk %u depth %u: %u actions enabled, %u in the representative",
			    b->walk, b->depth, b->n[0], b->n[1]);
	KUNIT_ASSERT_TRUE_MSG(test, symmetry_matched(b, 0, &bad),
			      "walk %u depth %u: action %#x of the state has no match in its representative",
			      b->walk, b->depth, bad);
	KUNIT_ASSERT_TRUE_MSG(test, symmetry_matched(b, 1, &bad),
			      "walk %u depth %u: action %#x of the representative has no match in the state",
			      b->walk, b->depth, bad);
	if (bqlm_xops_checks_states(sys->ops))
		KUNIT_ASSERT_EQ_MSG(test,
				    bqlm_xcheck_state(sys, s, b->act[0],
						     b->n[0], b->each),
				    bqlm_xcheck_state(sys, b->rep, b->act[1],
						     b->n[1], b->each),
				    "walk %u depth %u: the state checks differ",
				    b->walk, b->depth);
}

/*
 * SYMMETRY_WALKS seeded random walks of SYMMETRY_STEPS steps from the
 * initial state of @sys, which must have a canon(), every state on them
 * checked (symmetry_state()); some of them must be renamed by canon().
 */
static inline void explore_symmetry_walks(struct kunit *test,
					  const struct bqlm_xsys *sys, u64 seed)
{
	struct symmetry_walk *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	size_t z = sys->state_size;
	unsigned char *s = kunit_kzalloc(test, z, GFP_KERNEL);
	unsigned char *t = kunit_kzalloc(test, z, GFP_KERNEL);
	unsigned int n, act[BQLM_X_MAX_ACTIONS];
	struct bqlm_prng rng;

	KUNIT_ASSERT_NOT_NULL_MSG(test, b, "%s", sys->name);
	KUNIT_ASSERT_NOT_NULL_MSG(test, s, "%s", sys->name);
	KUNIT_ASSERT_NOT_NULL_MSG(test, t, "%s", sys->name);
	KUNIT_ASSERT_NOT_NULL_MSG(test, sys->ops->canon, "%s has no canon()",
				  sys->name);
	b->sys = sys;
	b->rep = kunit_kzalloc(test, z, GFP_KERNEL);
	b->again = kunit_kzalloc(test, z, GFP_KERNEL);
	b->succ[0] = kunit_kcalloc(test, BQLM_X_MAX_ACTIONS, z, GFP_KERNEL);
	b->succ[1] = kunit_kcalloc(test, BQLM_X_MAX_ACTIONS, z, GFP_KERNEL);
	KUNIT_ASSERT_TRUE_MSG(test, b->rep && b->again && b->succ[0] &&
			      b->succ[1], "%s", sys->name);
	bqlm_prng_seed(&rng, seed);
	for (b->walk = 0; b->walk < SYMMETRY_WALKS; b->walk++) {
		memset(s, 0, z);
		bqlm_xinit(sys, s);
		for (b->depth = 0; b->depth < SYMMETRY_STEPS; b->depth++) {
			symmetry_state(test, b, s);
			n = bqlm_xenabled(sys, s, act);
			if (!n)
				break;
			memcpy(t, s, z);
			KUNIT_ASSERT_GE_MSG(test, bqlm_xstep(sys, s,
							    act[bqlm_prng_below(&rng, n)],
							    t, b->each), 0,
					    "walk %u depth %u: a step refused",
					    b->walk, b->depth);
			memcpy(s, t, z);
		}
	}
	/* the walks met states that canon() does rename */
	KUNIT_EXPECT_GT_MSG(test, b->renamed, 0U, "%s", sys->name);
	kunit_info(test, "%s: %u states, %u renamed by canon()", sys->name,
		   b->states, b->renamed);
}

#endif /* _BQLM_KUNIT_EXPLORE_EXPECT_H */
