// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the bounded exhaustive explorer (see <bqlm/explore.h>).
 *
 * States live in blocks of BQLM_X_BLOCK, appended in the order they are
 * found; since the search is breadth first, that order is also the queue:
 * state i is expanded after states 0..i-1. A state's number is its index.
 * Each state has a node with its parent, the action that first reached it
 * and its depth. The hash set is open addressing with linear probing over
 * state numbers and their hashes, doubled when half full.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/explore.h>
#include <bqlm/invariants.h>

#define BQLM_X_BLOCK_SHIFT	14
#define BQLM_X_BLOCK		(1U << BQLM_X_BLOCK_SHIFT)
#define BQLM_X_DEFAULT_STATES	(1U << 24)
#define BQLM_X_NO_PARENT	0xffffffffU
#define BQLM_X_LINE		512

struct bqlm_xnode {
	unsigned int parent;
	unsigned short action;
	unsigned short depth;
};

/* A hash set entry: the state's number + 1 (0: empty) and its hash. */
struct bqlm_xslot {
	unsigned int idx1;
	unsigned int hash;
};

struct bqlm_explorer {
	const struct bqlm_xsys *sys;
	unsigned int max_states;
	unsigned int max_depth;
	bool strict;
	size_t ssize;
	unsigned int count;
	unsigned int nr_blocks;
	unsigned char **sblock;
	struct bqlm_xnode **nblock;
	struct bqlm_xslot *table;
	unsigned int tmask;
	unsigned char *next;
	struct bqlm_violation *each;
	struct bqlm_xresult res;
};

static unsigned char *bqlm_x_state(const struct bqlm_explorer *x,
				   unsigned int i)
{
	return x->sblock[i >> BQLM_X_BLOCK_SHIFT] +
	       (size_t)(i & (BQLM_X_BLOCK - 1)) * x->ssize;
}

static struct bqlm_xnode *bqlm_x_node(const struct bqlm_explorer *x,
				      unsigned int i)
{
	return &x->nblock[i >> BQLM_X_BLOCK_SHIFT][i & (BQLM_X_BLOCK - 1)];
}

/*
 * A 32-bit hash of the state's bytes: eight bytes at a time through a
 * multiply-rotate mix, then the tail, then a final avalanche. The value
 * depends on the host's byte order, which is harmless: it only places
 * states in the hash set, it does not decide which states are found or
 * how they are numbered.
 */
static unsigned int bqlm_x_hash(const unsigned char *p, size_t n)
{
	u64 h = 0x9e3779b97f4a7c15ULL ^ n;
	u64 w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h ^= w * 0xff51afd7ed558ccdULL;
		h = (h << 31 | h >> 33) * 0xc4ceb9fe1a85ec53ULL;
	}
	w = 0;
	memcpy(&w, p + i, n - i);
	h ^= w;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (unsigned int)h;
}

/* Slot of the state equal to @s (hash @h), or of the empty slot for it. */
static unsigned int bqlm_x_slot(const struct bqlm_explorer *x,
				const unsigned char *s, unsigned int h)
{
	unsigned int i = h & x->tmask;
	const struct bqlm_xslot *e;

	for (e = &x->table[i]; e->idx1; e = &x->table[i]) {
		if (e->hash == h &&
		    !memcmp(bqlm_x_state(x, e->idx1 - 1), s, x->ssize))
			break;
		i = (i + 1) & x->tmask;
	}
	return i;
}

static int bqlm_x_grow_table(struct bqlm_explorer *x)
{
	unsigned int size = (x->tmask + 1) * 2;
	struct bqlm_xslot *old = x->table;
	unsigned int i, j;

	x->table = bqlm_alloc(sizeof(*x->table) * (size_t)size);
	if (!x->table) {
		x->table = old;
		return -ENOMEM;
	}
	x->tmask = size - 1;
	for (i = 0; i < size / 2; i++) {
		if (!old[i].idx1)
			continue;
		j = old[i].hash & x->tmask;
		while (x->table[j].idx1)
			j = (j + 1) & x->tmask;
		x->table[j] = old[i];
	}
	bqlm_free(old);
	return 0;
}

/*
 * Store @s unless it is known. Return its number (new or old) in *@idx and
 * 1 if it is new, 0 if known, or a negative errno (out of memory, or the
 * state bound reached: -ENOSPC).
 */
static int bqlm_x_insert(struct bqlm_explorer *x, const unsigned char *s,
			 unsigned int parent, unsigned int action,
			 unsigned int depth, unsigned int *idx)
{
	unsigned int h = bqlm_x_hash(s, x->ssize);
	unsigned int slot = bqlm_x_slot(x, s, h);
	unsigned int b = x->count >> BQLM_X_BLOCK_SHIFT;
	struct bqlm_xnode *node;
	int err;

	if (x->table[slot].idx1) {
		*idx = x->table[slot].idx1 - 1;
		return 0;
	}
	if (x->count >= x->max_states)
		return -ENOSPC;
	if (!x->sblock[b]) {
		x->sblock[b] = bqlm_alloc(x->ssize * BQLM_X_BLOCK);
		x->nblock[b] = bqlm_alloc(sizeof(struct bqlm_xnode) *
					  BQLM_X_BLOCK);
		if (!x->sblock[b] || !x->nblock[b])
			return -ENOMEM;
	}
	*idx = x->count++;
	memcpy(bqlm_x_state(x, *idx), s, x->ssize);
	node = bqlm_x_node(x, *idx);
	node->parent = parent;
	node->action = action;
	node->depth = depth;
	x->table[slot].idx1 = *idx + 1;
	x->table[slot].hash = h;
	if (x->count * 2 > x->tmask + 1) {
		err = bqlm_x_grow_table(x);
		if (err)
			return err;
	}
	return 1;
}

/**
 * bqlm_explorer_create() - set up an exploration
 * @sys: the system; it must outlive the explorer
 * @bounds: the bounds, NULL for the defaults
 *
 * Return: the explorer, or NULL when out of memory or when @sys is unfit
 * (no state, or a callback missing).
 */
struct bqlm_explorer *bqlm_explorer_create(const struct bqlm_xsys *sys,
					   const struct bqlm_xbounds *bounds)
{
	struct bqlm_explorer *x;
	unsigned int max_states = BQLM_X_DEFAULT_STATES;

	if (!sys->state_size || !sys->init || !sys->enabled || !sys->step)
		return NULL;
	if (bounds && bounds->max_states)
		max_states = min(bounds->max_states, BQLM_X_DEFAULT_STATES);

	x = bqlm_alloc(sizeof(*x));
	if (!x)
		return NULL;
	x->sys = sys;
	x->ssize = sys->state_size;
	x->max_states = max_states;
	x->max_depth = bounds ? min(bounds->max_depth, 0xfffeU) : 0;
	x->strict = bounds && bounds->strict;
	x->nr_blocks = (max_states + BQLM_X_BLOCK - 1) >> BQLM_X_BLOCK_SHIFT;
	x->sblock = bqlm_alloc(sizeof(*x->sblock) * x->nr_blocks);
	x->nblock = bqlm_alloc(sizeof(*x->nblock) * x->nr_blocks);
	x->tmask = 1023;
	x->table = bqlm_alloc(sizeof(*x->table) * (x->tmask + 1));
	x->next = bqlm_alloc(x->ssize);
	x->each = bqlm_alloc(sizeof(*x->each) * BQLM_CHECK_NR);
	if (!x->sblock || !x->nblock || !x->table || !x->next || !x->each) {
		bqlm_explorer_destroy(x);
		return NULL;
	}
	return x;
}

/**
 * bqlm_explorer_destroy() - free an explorer and every state it stored
 * @x: the explorer, may be NULL
 */
void bqlm_explorer_destroy(struct bqlm_explorer *x)
{
	unsigned int b;

	if (!x)
		return;
	for (b = 0; x->sblock && b < x->nr_blocks; b++) {
		bqlm_free(x->sblock[b]);
		if (x->nblock)
			bqlm_free(x->nblock[b]);
	}
	bqlm_free(x->sblock);
	bqlm_free(x->nblock);
	bqlm_free(x->table);
	bqlm_free(x->next);
	bqlm_free(x->each);
	bqlm_free(x);
}

/* Keep the first (shallowest) witness of each check in @mask. */
static void bqlm_x_witness(struct bqlm_explorer *x, unsigned int mask,
			   unsigned int state, unsigned int action,
			   unsigned int depth)
{
	struct bqlm_xresult *res = &x->res;
	unsigned int c;

	for (c = 0; c < BQLM_CHECK_NR; c++) {
		if (!(mask & BQLM_CHECK_BIT(c)) ||
		    (res->violated & BQLM_CHECK_BIT(c)))
			continue;
		res->violated |= BQLM_CHECK_BIT(c);
		res->w[c].depth = depth;
		res->w[c].state = state;
		res->w[c].action = action;
		res->w[c].v = x->each[c];
		res->w[c].v.check = c;
	}
}

static bool bqlm_x_any_fatal(const struct bqlm_explorer *x,
			     unsigned int mask)
{
	unsigned int c;

	if (x->strict)
		return mask;
	for (c = 0; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && bqlm_inv_fatal(c))
			return true;
	return false;
}

/* Expand state @i: check it, then take every enabled action. */
static int bqlm_x_expand(struct bqlm_explorer *x, unsigned int i,
			 unsigned int *actions)
{
	const struct bqlm_xsys *sys = x->sys;
	unsigned int depth = bqlm_x_node(x, i)->depth;
	unsigned int n, k, idx;
	int mask, ret;

	n = sys->enabled(sys->ctx, bqlm_x_state(x, i), actions);
	if (n > BQLM_X_MAX_ACTIONS)
		return -E2BIG;
	if (sys->check_state) {
		mask = sys->check_state(sys->ctx, bqlm_x_state(x, i), actions,
					n, x->each);
		if (mask < 0)
			return mask;
		bqlm_x_witness(x, mask, i, BQLM_X_NO_ACTION, depth);
		if (bqlm_x_any_fatal(x, mask))
			return 0;
	}
	if (x->max_depth && depth >= x->max_depth) {
		if (n)
			x->res.depth_bounded = true;
		return 0;
	}
	for (k = 0; k < n; k++) {
		memcpy(x->next, bqlm_x_state(x, i), x->ssize);
		mask = sys->step(sys->ctx, bqlm_x_state(x, i), actions[k],
				 x->next, x->each);
		if (mask < 0)
			return mask;
		x->res.transitions++;
		bqlm_x_witness(x, mask, i, actions[k], depth + 1);
		if (bqlm_x_any_fatal(x, mask))
			continue;
		ret = bqlm_x_insert(x, x->next, i, actions[k], depth + 1, &idx);
		if (ret < 0)
			return ret;
		if (ret && depth + 1 > x->res.max_depth)
			x->res.max_depth = depth + 1;
	}
	return 0;
}

/**
 * bqlm_explore() - explore every state reachable within the bounds
 * @x: the explorer, fresh from bqlm_explorer_create()
 * @res: receives the figures and the violations found
 *
 * Return: 0 when the search ended within its bounds (see @res->complete),
 * -ENOSPC when the state bound stopped it, -ENOMEM when memory ran out,
 * -E2BIG or -EINVAL when the system broke its contract (too many actions,
 * a step of an action it had enabled refused). On every return @res holds
 * what was found until then.
 */
int bqlm_explore(struct bqlm_explorer *x, struct bqlm_xresult *res)
{
	const struct bqlm_xsys *sys = x->sys;
	unsigned int *actions;
	unsigned int i, idx;
	int err;

	memset(&x->res, 0, sizeof(x->res));
	actions = bqlm_alloc(sizeof(*actions) * BQLM_X_MAX_ACTIONS);
	err = actions ? 0 : -ENOMEM;
	if (!err && x->count)
		err = -EINVAL;	/* an explorer explores once */
	if (!err) {
		memset(x->next, 0, x->ssize);
		sys->init(sys->ctx, x->next);
		err = bqlm_x_insert(x, x->next, BQLM_X_NO_PARENT,
				    BQLM_X_NO_ACTION, 0, &idx);
		err = err < 0 ? err : 0;
	}
	for (i = 0; !err && i < x->count; i++) {
		if (!(i & 1023))
			bqlm_cond_resched();
		err = bqlm_x_expand(x, i, actions);
	}
	bqlm_free(actions);
	x->res.states = x->count;
	x->res.complete = !err;
	*res = x->res;
	return err;
}

/**
 * bqlm_explorer_path() - the actions of a shortest path to a violation
 * @x: the explorer, after bqlm_explore()
 * @check: the violated check
 * @actions: receives the actions, from the initial state on
 * @max: room in @actions
 *
 * The path ends with the violating step's action, or at the violating
 * state when the violation is a property of a state.
 *
 * Return: the number of actions, -ENOENT when @check was not violated,
 * -ENOSPC when @max is too small.
 */
int bqlm_explorer_path(const struct bqlm_explorer *x, enum bqlm_check check,
		       unsigned int *actions, unsigned int max)
{
	const struct bqlm_xwitness *w;
	unsigned int n, i, s;

	if ((unsigned int)check >= BQLM_CHECK_NR ||
	    !(x->res.violated & BQLM_CHECK_BIT(check)))
		return -ENOENT;
	w = &x->res.w[check];
	n = w->depth;
	if (n > max)
		return -ENOSPC;
	i = n;
	if (w->action != BQLM_X_NO_ACTION)
		actions[--i] = w->action;
	for (s = w->state; i; s = bqlm_x_node(x, s)->parent)
		actions[--i] = bqlm_x_node(x, s)->action;
	return n;
}

/**
 * bqlm_xresult_verdict() - the violation that sums an exploration up
 * @res: the result
 *
 * The shallowest violation of a fatal check (the kernel's crash, if the
 * model found one), else the shallowest violation; ties go to the check
 * listed first in enum bqlm_check.
 *
 * Return: the check, or BQLM_CHECK_NONE when nothing was violated.
 */
enum bqlm_check bqlm_xresult_verdict(const struct bqlm_xresult *res)
{
	enum bqlm_check best = BQLM_CHECK_NONE;
	bool best_fatal = false;
	unsigned int c;

	for (c = 0; c < BQLM_CHECK_NR; c++) {
		bool fatal = bqlm_inv_fatal(c);

		if (!(res->violated & BQLM_CHECK_BIT(c)))
			continue;
		if (best == BQLM_CHECK_NONE || (fatal && !best_fatal) ||
		    (fatal == best_fatal &&
		     res->w[c].depth < res->w[best].depth)) {
			best = c;
			best_fatal = fatal;
		}
	}
	return best;
}

/**
 * bqlm_xtrace() - replay a path and describe it for humans
 * @sys: the system
 * @actions: the path, from the initial state
 * @n: its length
 * @emit: receives each line
 * @arg: passed to @emit
 *
 * Emits the initial state, then for each step a numbered line "actor:
 * modelled kernel function", the state after it, and one line for each
 * invariant the step violated: the violation and the kernel's effect.
 *
 * Return: the mask of checks the last step violated (or the state check of
 * the final state, when the path ends at a violating state), or a negative
 * errno: -ENOMEM, or -EINVAL if a step of the path is not enabled.
 */
int bqlm_xtrace(const struct bqlm_xsys *sys, const unsigned int *actions,
		unsigned int n, bqlm_xemit_t emit, void *arg)
{
	unsigned char *cur = bqlm_alloc(sys->state_size);
	unsigned char *next = bqlm_alloc(sys->state_size);
	unsigned int *enabled = bqlm_alloc(sizeof(*enabled) *
					   BQLM_X_MAX_ACTIONS);
	struct bqlm_violation *each = bqlm_alloc(sizeof(*each) *
						 BQLM_CHECK_NR);
	char *line = bqlm_alloc(BQLM_X_LINE);
	char *desc = bqlm_alloc(BQLM_X_LINE);
	unsigned int k, c, ne;
	int mask = 0;

	if (!cur || !next || !enabled || !each || !line || !desc) {
		mask = -ENOMEM;
		goto out;
	}
	sys->init(sys->ctx, cur);
	sys->describe_state(sys->ctx, cur, desc, BQLM_X_LINE);
	emit(arg, "  0. initial state");
	snprintf(line, BQLM_X_LINE, "      %s", desc);
	emit(arg, line);
	for (k = 0; k < n; k++) {
		sys->describe_action(sys->ctx, cur, actions[k], desc,
				     BQLM_X_LINE);
		snprintf(line, BQLM_X_LINE, "%3u. %s", k + 1, desc);
		emit(arg, line);
		memcpy(next, cur, sys->state_size);
		memset(each, 0, sizeof(*each) * BQLM_CHECK_NR);
		mask = sys->step(sys->ctx, cur, actions[k], next, each);
		if (mask < 0) {
			mask = -EINVAL;
			goto out;
		}
		sys->describe_state(sys->ctx, next, desc, BQLM_X_LINE);
		snprintf(line, BQLM_X_LINE, "      %s", desc);
		emit(arg, line);
		for (c = 0; c < BQLM_CHECK_NR; c++) {
			if (!(mask & BQLM_CHECK_BIT(c)))
				continue;
			bqlm_violation_format(desc, BQLM_X_LINE, &each[c]);
			snprintf(line, BQLM_X_LINE, "      !! %s", desc);
			emit(arg, line);
		}
		memcpy(cur, next, sys->state_size);
	}
	if (!mask && sys->check_state) {
		ne = sys->enabled(sys->ctx, cur, enabled);
		memset(each, 0, sizeof(*each) * BQLM_CHECK_NR);
		mask = sys->check_state(sys->ctx, cur, enabled, ne, each);
		for (c = 0; mask > 0 && c < BQLM_CHECK_NR; c++) {
			if (!(mask & BQLM_CHECK_BIT(c)))
				continue;
			bqlm_violation_format(desc, BQLM_X_LINE, &each[c]);
			snprintf(line, BQLM_X_LINE, "      !! %s", desc);
			emit(arg, line);
		}
	}
out:
	bqlm_free(cur);
	bqlm_free(next);
	bqlm_free(enabled);
	bqlm_free(each);
	bqlm_free(line);
	bqlm_free(desc);
	return mask;
}
