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
 * Reduction (see <bqlm/explore.h>): with a @canon hook every state is
 * canonicalised before it is looked up, so only representatives are
 * stored.
 * Memory: every allocation the search makes (blocks, hash set) is counted
 * against the memory bound first, so the search stops with -ENOBUFS
 * rather than being killed.
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
	const struct bqlm_xops *ops;
	const void *ctx;
	unsigned int max_states;
	unsigned int max_depth;
	bool strict;
	bool canon;
	u64 max_memory;
	u64 memory;
	size_t ssize;
	unsigned int count;
	unsigned int nr_blocks;
	unsigned char **sblock;
	struct bqlm_xnode **nblock;
	struct bqlm_xslot *table;
	unsigned int tmask;
	unsigned char *next;
	unsigned char *succ;
	unsigned int *succ_hash;
	struct bqlm_violation *each;
	struct bqlm_xresult res;
};

/* Allocate @size bytes counted against the memory bound, or NULL. */
static void *bqlm_x_alloc(struct bqlm_explorer *x, size_t size)
{
	void *p;

	if (x->memory + size > x->max_memory)
		return NULL;
	p = bqlm_alloc(size);
	if (p)
		x->memory += size;
	return p;
}

/* Would allocating @size more bytes pass the memory bound? */
static bool bqlm_x_over(const struct bqlm_explorer *x, size_t size)
{
	return x->memory + size > x->max_memory;
}

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
static u64 bqlm_x_mix(u64 h, u64 w)
{
	h ^= w * 0xff51afd7ed558ccdULL;
	return (h << 31 | h >> 33) * 0xc4ceb9fe1a85ec53ULL;
}

static unsigned int bqlm_x_hash(const unsigned char *p, size_t n)
{
	/* four lanes, so that four multiplies are in flight at once */
	u64 a = 0x9e3779b97f4a7c15ULL ^ n, b = 0x6a09e667f3bcc908ULL;
	u64 c = 0xbb67ae8584caa73bULL, d = 0x3c6ef372fe94f82bULL;
	u64 w[4];
	size_t i;

	for (i = 0; i + 32 <= n; i += 32) {
		memcpy(w, p + i, 32);
		a = bqlm_x_mix(a, w[0]);
		b = bqlm_x_mix(b, w[1]);
		c = bqlm_x_mix(c, w[2]);
		d = bqlm_x_mix(d, w[3]);
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(w, p + i, 8);
		a = bqlm_x_mix(a, w[0]);
	}
	w[0] = 0;
	memcpy(w, p + i, n - i);
	a = bqlm_x_mix(a, w[0]);
	a = bqlm_x_mix(a, b);
	a = bqlm_x_mix(a, c);
	a = bqlm_x_mix(a, d);
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	a *= 0xc4ceb9fe1a85ec53ULL;
	a ^= a >> 33;
	return (unsigned int)a;
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
	size_t bytes = sizeof(*x->table) * (size_t)size;
	unsigned int i, j;

	if (bqlm_x_over(x, bytes))
		return -ENOBUFS;
	x->table = bqlm_x_alloc(x, bytes);
	if (!x->table) {
		x->table = old;
		return -ENOMEM;
	}
	x->memory -= bytes / 2;
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
 * 1 if it is new, 0 if known, or a negative errno (out of memory, the
 * state bound reached: -ENOSPC, the memory bound: -ENOBUFS).
 */
static int bqlm_x_insert_hashed(struct bqlm_explorer *x,
				const unsigned char *s, unsigned int h,
				unsigned int parent, unsigned int action,
				unsigned int depth, unsigned int *idx)
{
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
		size_t sb = x->ssize * BQLM_X_BLOCK;
		size_t nb = sizeof(struct bqlm_xnode) * BQLM_X_BLOCK;

		/* room for this block and for the hash set's next doubling */
		if (bqlm_x_over(x, sb + nb +
				sizeof(*x->table) * 2 * (x->tmask + 1)))
			return -ENOBUFS;
		x->sblock[b] = bqlm_x_alloc(x, sb);
		x->nblock[b] = bqlm_x_alloc(x, nb);
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

static int bqlm_x_insert(struct bqlm_explorer *x, const unsigned char *s,
			 unsigned int parent, unsigned int action,
			 unsigned int depth, unsigned int *idx)
{
	return bqlm_x_insert_hashed(x, s, bqlm_x_hash(s, x->ssize), parent,
				    action, depth, idx);
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
	bool reduce = !bounds || (!bounds->no_reduction && !bounds->max_depth);

	if (!sys->state_size || !sys->ops || !sys->ops->init ||
	    !sys->ops->enabled || !sys->ops->step)
		return NULL;
	if (bounds && bounds->max_states)
		max_states = min(bounds->max_states, BQLM_X_DEFAULT_STATES);

	x = bqlm_alloc(sizeof(*x));
	if (!x)
		return NULL;
	memset(x, 0, sizeof(*x));
	x->ops = sys->ops;
	x->ctx = sys->ctx;
	x->ssize = sys->state_size;
	x->max_states = max_states;
	x->max_depth = bounds ? min(bounds->max_depth, 0xfffeU) : 0;
	x->strict = bounds && bounds->strict;
	x->canon = reduce && sys->ops->canon;
	x->max_memory = bounds && bounds->max_memory ? bounds->max_memory :
			BQLM_X_DEFAULT_MEMORY;
	x->nr_blocks = (max_states + BQLM_X_BLOCK - 1) >> BQLM_X_BLOCK_SHIFT;
	x->sblock = bqlm_x_alloc(x, sizeof(*x->sblock) * x->nr_blocks);
	x->nblock = bqlm_x_alloc(x, sizeof(*x->nblock) * x->nr_blocks);
	x->tmask = 1023;
	x->table = bqlm_x_alloc(x, sizeof(*x->table) * (x->tmask + 1));
	x->next = bqlm_alloc(x->ssize);
	x->succ = bqlm_alloc(x->ssize * BQLM_X_MAX_ACTIONS);
	x->succ_hash = bqlm_alloc(sizeof(*x->succ_hash) * BQLM_X_MAX_ACTIONS);
	x->each = bqlm_alloc(sizeof(*x->each) * BQLM_CHECK_NR);
	if (!x->sblock || !x->nblock || !x->table || !x->next || !x->succ ||
	    !x->succ_hash || !x->each) {
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
	bqlm_free(x->succ);
	bqlm_free(x->succ_hash);
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

	if (!(mask & ~res->violated))
		return;		/* nothing new: most steps */
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

	if (!mask || x->strict)
		return mask;
	for (c = 0; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && bqlm_inv_fatal(c))
			return true;
	return false;
}

/*
 * Take the @n actions @actions[k] of state @i, in order: every step
 * first, then every lookup, so that the hash set's cache misses overlap
 * (the slots are prefetched between the two). States are numbered as one
 * step at a time would number them.
 */
static int bqlm_x_take_all(struct bqlm_explorer *x, unsigned int i,
			   const unsigned int *actions, unsigned int n,
			   unsigned int depth)
{
	const struct bqlm_xops *ops = x->ops;
	unsigned long long keep = 0;
	unsigned int k, idx;
	unsigned char *s;
	int mask, ret;

	for (k = 0; k < n; k++) {
		s = x->succ + (size_t)k * x->ssize;
		memcpy(s, bqlm_x_state(x, i), x->ssize);
		mask = ops->step(x->ctx, bqlm_x_state(x, i), actions[k], s,
				 x->each);
		if (mask < 0)
			return mask;
		x->res.transitions++;
		bqlm_x_witness(x, mask, i, actions[k], depth + 1);
		if (bqlm_x_any_fatal(x, mask))
			continue;
		if (x->canon)
			ops->canon(x->ctx, s);
		x->succ_hash[k] = bqlm_x_hash(s, x->ssize);
		bqlm_prefetch(&x->table[x->succ_hash[k] & x->tmask]);
		keep |= 1ULL << k;
	}
	/* the slots are in cache now: fetch the states they name */
	for (k = 0; k < n; k++) {
		const struct bqlm_xslot *e;

		if (!(keep & (1ULL << k)))
			continue;
		e = &x->table[x->succ_hash[k] & x->tmask];
		if (e->idx1 && e->hash == x->succ_hash[k]) {
			const unsigned char *p = bqlm_x_state(x, e->idx1 - 1);
			size_t o;

			for (o = 0; o < x->ssize; o += 64)
				bqlm_prefetch(p + o);
		}
	}
	for (k = 0; k < n; k++) {
		if (!(keep & (1ULL << k)))
			continue;
		ret = bqlm_x_insert_hashed(x, x->succ + (size_t)k * x->ssize,
					   x->succ_hash[k], i, actions[k],
					   depth + 1, &idx);
		if (ret < 0)
			return ret;
		if (ret && depth + 1 > x->res.max_depth)
			x->res.max_depth = depth + 1;
	}
	return 0;
}

/*
 * Expand state @i: check it, then take every enabled action.
 */
static int bqlm_x_expand(struct bqlm_explorer *x, unsigned int i,
			 unsigned int *actions)
{
	const struct bqlm_xops *ops = x->ops;
	unsigned int depth = bqlm_x_node(x, i)->depth;
	unsigned int n;
	int mask;

	n = ops->enabled(x->ctx, bqlm_x_state(x, i), actions);
	if (n > BQLM_X_MAX_ACTIONS)
		return -E2BIG;
	if (bqlm_xops_checks_states(ops)) {
		mask = bqlm_xops_check_state(ops, x->ctx, bqlm_x_state(x, i),
					     actions, n, x->each);
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
	return bqlm_x_take_all(x, i, actions, n, depth);
}

/**
 * bqlm_explore() - explore every state reachable within the bounds
 * @x: the explorer, fresh from bqlm_explorer_create()
 * @res: receives the figures and the violations found
 *
 * Return: 0 when the search ended within its bounds (see @res->complete),
 * -ENOSPC when the state bound stopped it, -ENOBUFS when the memory bound
 * did, -ENOMEM when memory ran out,
 * -E2BIG or -EINVAL when the system broke its contract (too many actions,
 * a step of an action it had enabled refused). On every return @res holds
 * what was found until then.
 */
int bqlm_explore(struct bqlm_explorer *x, struct bqlm_xresult *res)
{
	const struct bqlm_xops *ops = x->ops;
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
		ops->init(x->ctx, x->next);
		if (x->canon)
			ops->canon(x->ctx, x->next);
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
	x->res.reduced = x->canon;
	x->res.memory = x->memory;
	*res = x->res;
	return err;
}

/*
 * With symmetry, the stored path runs through representatives: each
 * action was taken in a representative, not in the state the previous
 * action reached. Replay it from the real initial state instead, taking
 * at each step the first enabled action whose successor has the stored
 * successor's representative and which violates the checks the stored
 * step violated (so that a --strict path stays clean, and the last step
 * of a step witness violates @check); the symmetry promises there is one. @path holds the
 * stored actions on entry and the real ones on return; @sidx the stored
 * states along it (@sidx[0] the initial one).
 */
static int bqlm_x_unsymmetrize(const struct bqlm_explorer *x,
			       enum bqlm_check check, unsigned int *path,
			       const unsigned int *sidx, unsigned int n)
{
	const struct bqlm_xops *ops = x->ops;
	const struct bqlm_xwitness *w = &x->res.w[check];
	unsigned char *cur = bqlm_alloc(x->ssize);
	unsigned char *nxt = bqlm_alloc(x->ssize);
	unsigned char *tgt = bqlm_alloc(x->ssize);
	unsigned int *en = bqlm_alloc(sizeof(*en) * BQLM_X_MAX_ACTIONS);
	struct bqlm_violation *each = bqlm_alloc(sizeof(*each) *
						 BQLM_CHECK_NR);
	unsigned int j, k, ne;
	int mask, want, err = 0;
	bool last;

	if (!cur || !nxt || !tgt || !en || !each) {
		err = -ENOMEM;
		goto out;
	}
	ops->init(x->ctx, cur);
	for (j = 0; j < n && !err; j++) {
		last = j + 1 == n && w->action != BQLM_X_NO_ACTION;
		/*
		 * The stored step again (for the last step of a step witness,
		 * w->action from w->state): the checks it violated, which the
		 * real one must violate too, and, the last step's successor
		 * not being stored, its representative.
		 */
		memcpy(tgt, bqlm_x_state(x, sidx[j]), x->ssize);
		want = ops->step(x->ctx, bqlm_x_state(x, sidx[j]), path[j],
				 tgt, each);
		if (want < 0) {
			err = want;
			break;
		}
		if (last)
			ops->canon(x->ctx, tgt);
		else
			memcpy(tgt, bqlm_x_state(x, sidx[j + 1]), x->ssize);
		ne = ops->enabled(x->ctx, cur, en);
		err = -EIO;	/* the symmetry did not hold */
		for (k = 0; k < ne && k < BQLM_X_MAX_ACTIONS; k++) {
			memcpy(nxt, cur, x->ssize);
			mask = ops->step(x->ctx, cur, en[k], nxt, each);
			if (mask < 0 || mask != want ||
			    (last && !(mask & BQLM_CHECK_BIT(check))))
				continue;
			path[j] = en[k];
			ops->canon(x->ctx, nxt);
			if (!memcmp(nxt, tgt, x->ssize)) {
				/* redo it uncanonicalised: the real state */
				memcpy(nxt, cur, x->ssize);
				ops->step(x->ctx, cur, en[k], nxt, each);
				memcpy(cur, nxt, x->ssize);
				err = 0;
				break;
			}
		}
	}
	if (!err && w->action == BQLM_X_NO_ACTION &&
	    bqlm_xops_checks_states(ops)) {
		/* a state witness: the real state must violate it too */
		ne = ops->enabled(x->ctx, cur, en);
		mask = ne > BQLM_X_MAX_ACTIONS ? -E2BIG :
		       bqlm_xops_check_state(ops, x->ctx, cur, en, ne, each);
		if (mask < 0 || !(mask & BQLM_CHECK_BIT(check)))
			err = -EIO;
	}
out:
	bqlm_free(cur);
	bqlm_free(nxt);
	bqlm_free(tgt);
	bqlm_free(en);
	bqlm_free(each);
	return err;
}

/**
 * bqlm_explorer_path() - the actions of a path to a violation
 * @x: the explorer, after bqlm_explore()
 * @check: the violated check
 * @actions: receives the actions, from the initial state on
 * @max: room in @actions
 *
 * The path ends with the violating step's action, or at the violating
 * state when the violation is a property of a state. It is a shortest one
 * (symmetry keeps witness depths) and a valid path from the initial
 * state, mapped back through the system's steps where symmetry stored
 * representatives.
 *
 * Return: the number of actions, -ENOENT when @check was not violated,
 * -ENOSPC when @max is too small, -ENOMEM, or -EIO when the system's
 * symmetry did not hold along the path.
 */
int bqlm_explorer_path(const struct bqlm_explorer *x, enum bqlm_check check,
		       unsigned int *actions, unsigned int max)
{
	const struct bqlm_xwitness *w;
	unsigned int n, i, s, *sidx;
	int err;

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
	if (!x->canon)
		return n;
	sidx = bqlm_alloc(sizeof(*sidx) * (n + 1));
	if (!sidx)
		return -ENOMEM;
	i = w->action != BQLM_X_NO_ACTION ? n - 1 : n;
	for (s = w->state;; s = bqlm_x_node(x, s)->parent) {
		sidx[i] = s;
		if (!i--)
			break;
	}
	err = bqlm_x_unsymmetrize(x, check, actions, sidx, n);
	bqlm_free(sidx);
	return err ? err : n;
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

/*
 * For each check of @mask (none if it is negative), a line "!! violation
 * and the kernel's effect" through @emit; @desc and @line are
 * BQLM_X_LINE-byte scratch buffers.
 */
static void bqlm_x_emit_violations(int mask,
				   const struct bqlm_violation *each,
				   char *desc, char *line, bqlm_xemit_t emit,
				   void *arg)
{
	unsigned int c;

	for (c = 0; mask > 0 && c < BQLM_CHECK_NR; c++) {
		if (!(mask & BQLM_CHECK_BIT(c)))
			continue;
		bqlm_violation_format(desc, BQLM_X_LINE, &each[c]);
		snprintf(line, BQLM_X_LINE, "      !! %s", desc);
		emit(arg, line);
	}
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
	const struct bqlm_xops *ops = sys->ops;
	const void *ctx = sys->ctx;
	unsigned char *cur = bqlm_alloc(sys->state_size);
	unsigned char *next = bqlm_alloc(sys->state_size);
	unsigned int *enabled = bqlm_alloc(sizeof(*enabled) *
					   BQLM_X_MAX_ACTIONS);
	struct bqlm_violation *each = bqlm_alloc(sizeof(*each) *
						 BQLM_CHECK_NR);
	char *line = bqlm_alloc(BQLM_X_LINE);
	char *desc = bqlm_alloc(BQLM_X_LINE);
	unsigned int k, ne;
	int mask = 0;

	if (!cur || !next || !enabled || !each || !line || !desc) {
		mask = -ENOMEM;
		goto out;
	}
	ops->init(ctx, cur);
	ops->describe_state(ctx, cur, desc, BQLM_X_LINE);
	emit(arg, "  0. initial state");
	snprintf(line, BQLM_X_LINE, "      %s", desc);
	emit(arg, line);
	for (k = 0; k < n; k++) {
		ops->describe_action(ctx, cur, actions[k], desc,
				     BQLM_X_LINE);
		snprintf(line, BQLM_X_LINE, "%3u. %s", k + 1, desc);
		emit(arg, line);
		memcpy(next, cur, sys->state_size);
		memset(each, 0, sizeof(*each) * BQLM_CHECK_NR);
		mask = ops->step(ctx, cur, actions[k], next, each);
		if (mask < 0) {
			mask = -EINVAL;
			goto out;
		}
		ops->describe_state(ctx, next, desc, BQLM_X_LINE);
		snprintf(line, BQLM_X_LINE, "      %s", desc);
		emit(arg, line);
		bqlm_x_emit_violations(mask, each, desc, line, emit, arg);
		memcpy(cur, next, sys->state_size);
	}
	if (!mask && bqlm_xops_checks_states(ops)) {
		ne = ops->enabled(ctx, cur, enabled);
		memset(each, 0, sizeof(*each) * BQLM_CHECK_NR);
		mask = bqlm_xops_check_state(ops, ctx, cur, enabled, ne, each);
		bqlm_x_emit_violations(mask, each, desc, line, emit, arg);
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
