// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the search of the real-code harness (rc.h): a driver's
 * harness beside its model (struct bqlm_rc_target), the bounded search
 * of the real code against the model's actions, and the lockstep of the
 * two along one schedule. The actors it runs are sched.c's.
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/prng.h>

#include "rc.h"

/* ------------------------------------------------------------------ */
/* The harness of a driver beside its model */

/**
 * bqlm_rc_target_init() - a target's model state buffers
 * @t: the target, zeroed by the caller
 * @ops: the driver's harness
 * @rc: the harness's scheduler
 * @state_size: bytes of a model state
 *
 * A harness whose model has a clock sets @t->now afterwards.
 *
 * Return: 0 or -ENOMEM (bqlm_rc_target_release() frees what was made).
 */
int bqlm_rc_target_init(struct bqlm_rc_target *t,
			const struct bqlm_rc_target_ops *ops,
			struct bqlm_rc *rc, size_t state_size)
{
	t->ops = ops;
	t->rc = rc;
	t->state_size = state_size;
	t->from = kzalloc(state_size, GFP_KERNEL);
	t->to = kzalloc(state_size, GFP_KERNEL);
	t->view = kzalloc(state_size, GFP_KERNEL);
	t->pre = kzalloc(state_size, GFP_KERNEL);
	return t->from && t->to && t->view && t->pre ? 0 : -ENOMEM;
}

/**
 * bqlm_rc_target_release() - free a target's model state buffers
 * @t: the target
 */
void bqlm_rc_target_release(struct bqlm_rc_target *t)
{
	kfree(t->from);
	kfree(t->to);
	kfree(t->view);
	kfree(t->pre);
	t->from = NULL;
	t->to = NULL;
	t->view = NULL;
	t->pre = NULL;
}

/**
 * bqlm_rc_target_destroy() - end a driver's harness
 * @t: its target, or NULL or an ERR_PTR() (nothing is done)
 */
void bqlm_rc_target_destroy(struct bqlm_rc_target *t)
{
	if (!IS_ERR_OR_NULL(t))
		t->ops->destroy(t);
}

/**
 * bqlm_rc_model_start() - the model's initial state in @t->from
 * @t: the target, its @sys set
 */
void bqlm_rc_model_start(struct bqlm_rc_target *t)
{
	memset(t->from, 0, t->state_size);
	bqlm_xinit(&t->sys, t->from);
}

/*
 * A tick fell inside the real step (@t->now), so the real code may have
 * read the later jiffies value: the model's step taken again from @t->pre
 * at that value. Returns true with @t->from the new state and *@nm the
 * actions the model enables now.
 */
static bool bqlm_rc_model_retake(struct bqlm_rc_target *t,
				 unsigned int action, unsigned int *nm)
{
	if (!t->now || !t->ticked)
		return false;
	*t->now = jiffies;
	memcpy(t->to, t->pre, t->state_size);
	memset(t->each, 0, sizeof(t->each));
	if (bqlm_xstep(&t->sys, t->pre, action, t->to, t->each) < 0)
		return false;
	memcpy(t->from, t->to, t->state_size);
	*nm = bqlm_xenabled(&t->sys, t->from, t->mact);
	return true;
}

/*
 * The real state against the model's, byte by byte (a harness's @same
 * unless it has its own): true when @t->view equals @t->from; if not,
 * @res receives the first differing byte and both states in the
 * explorer's one-line form.
 */
static bool bqlm_rc_same_bytes(struct bqlm_rc_target *t, struct bqlm_rc_result *res)
{
	const u8 *a = t->view, *b = t->from;
	size_t i, n = t->state_size;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	if (i == n)
		return true;
	scnprintf(res->diff_what, sizeof(res->diff_what),
		  "the states (first at byte %zu)", i);
	bqlm_xdescribe_state(&t->sys, t->view, res->diff_real,
			      sizeof(res->diff_real));
	bqlm_xdescribe_state(&t->sys, t->from, res->diff_model,
			      sizeof(res->diff_model));
	return false;
}

/**
 * bqlm_rc_variant() - a compiled variant by the model's name
 * @v: the variants (the generated BQLM_RDRIVER_VARIANTS)
 * @n: how many
 * @name: the model's name, or NULL
 *
 * Return: its ops, or NULL if no variant has that name.
 */
const void *bqlm_rc_variant(const struct bqlm_rc_variant *v, unsigned int n,
			    const char *name)
{
	unsigned int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].ops;
	return NULL;
}

/*
 * The model's invariants on the real state after a step: the step's
 * checks on the view (the harness's @view), and the state's (the stall)
 * with the actions the real code enables, left in @t->ract, their number
 * in *@nr. The state's checks alone go to *@smask if it is not NULL.
 */
static unsigned int bqlm_rc_check(struct bqlm_rc_target *t, unsigned int *nr,
				  unsigned int *smask)
{
	unsigned int mask, state;

	memset(t->each, 0, sizeof(t->each));
	mask = t->ops->view(t);
	*nr = t->ops->enabled(t, t->ract);
	state = bqlm_xcheck_state(&t->sys, t->view, t->ract, *nr, t->each);
	if (smask)
		*smask = state;
	return mask | state;
}

/* ------------------------------------------------------------------ */
/* A bounded search of the real code */

struct bqlm_rc_xnode {
	u32 parent;
	u16 action;
	u8 depth;
	u8 leaf;
};

static u64 bqlm_rc_hash(const void *p, size_t n)
{
	const u8 *b = p;
	u64 h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h ? h : 1;
}

static u64 bqlm_rc_state_hash(struct bqlm_rc_target *s)
{
	if (s->ops->hash)
		s->ops->hash(s);
	return bqlm_rc_hash(s->view, s->state_size);
}

/**
 * bqlm_rc_fatal() - does a mask hold a check after which the kernel would
 *	have crashed (bqlm_inv_fatal())?
 * @mask: checks, BQLM_CHECK_BIT()
 *
 * Return: true if so.
 */
bool bqlm_rc_fatal(unsigned int mask)
{
	unsigned int c;

	for (c = 0; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && bqlm_inv_fatal(c))
			return true;
	return false;
}

/* The harness failure: its scheduler's, or one the harness knows of. */
static const char *bqlm_rc_error(struct bqlm_rc_target *t)
{
	if (t->rc->error)
		return t->rc->msg;
	return t->ops->error ? t->ops->error(t) : NULL;
}

static bool bqlm_rc_same(struct bqlm_rc_target *t, struct bqlm_rc_result *res)
{
	return t->ops->same ? t->ops->same(t, res) : bqlm_rc_same_bytes(t, res);
}

/* One real step; with a model clock, whether jiffies ticked during it. */
static int bqlm_rc_real_step(struct bqlm_rc_target *t, unsigned int action)
{
	int ret = t->ops->step(t, action);

	if (t->now)
		t->ticked = time_after(jiffies, *t->now);
	return ret;
}

/* One real step, a harness failure during it an error too. */
static int bqlm_rc_step(struct bqlm_rc_target *t, unsigned int action)
{
	int ret = bqlm_rc_real_step(t, action);

	return ret ? ret : bqlm_rc_error(t) ? -EIO : 0;
}

/*
 * The end of a search at a step the real code cannot take (a divergence
 * from the model, a harness failure): what happened goes to @xr->err, and
 * the device is torn down as after any other step, so that no actor is
 * left parked in the middle of the real code (holding the RTNL, a NAPI, a
 * lock) when the harness ends and the next case makes its own device.
 * Returns @err.
 */
static int bqlm_rc_abandon(struct bqlm_rc_target *s, int err,
			   unsigned int action, unsigned int depth,
			   struct bqlm_rc_xresult *xr)
{
	scnprintf(xr->err, sizeof(xr->err),
		  "action %#x at depth %u (%d): %s; actor at %s", action, depth,
		  err, bqlm_rc_error(s) ?: "-", s->ops->parked_at(s, action));
	if (s->ops->down(s))
		pr_err("bqlm real-code harness: the search's device after a failed step cannot be torn down: %s\n",
		       bqlm_rc_error(s) ?: "-");
	return err;
}

/* Replay node @k's path on a fresh device; the path is left in @path. */
static int bqlm_rc_goto(struct bqlm_rc_target *s,
			const struct bqlm_rc_xnode *node, u32 k,
			unsigned int *path, struct bqlm_rc_xresult *xr)
{
	unsigned int d = node[k].depth, i;
	int ret;

	for (i = d; i > 0; i--, k = node[k].parent)
		path[i - 1] = node[k].action;
	ret = s->ops->start(s);
	if (ret)
		return ret;
	xr->devices++;
	for (i = 0; i < d; i++) {
		ret = bqlm_rc_step(s, path[i]);
		if (ret)
			return bqlm_rc_abandon(s, ret, path[i], i + 1, xr);
		xr->steps++;
	}
	return 0;
}

/**
 * bqlm_rc_explore() - every schedule of the real code within a bound
 * @s: the driver's harness
 * @max_states: bound on the states stored
 * @xr: the result
 *
 * Breadth first over the real code, from a fresh device for every state
 * expanded and for every action taken from it (the real code cannot be
 * copied or rolled back): the actions are those the real code enables,
 * the state reached is read in the model's terms and hashed to visit each
 * once, the model's invariants are checked on it, and a state after a
 * fatal violation is not expanded. The model is not consulted.
 *
 * Return: 0, -ENOSPC when the state bound stopped the search (the result
 * holds what was found), or another negative errno on a harness failure.
 */
int bqlm_rc_explore(struct bqlm_rc_target *s, unsigned int max_states,
		    struct bqlm_rc_xresult *xr)
{
	unsigned int hsize = roundup_pow_of_two(max_states * 2);
	unsigned int *path = NULL, act[BQLM_X_MAX_ACTIONS], nact, i;
	struct bqlm_rc_xnode *node = NULL;
	u64 *hash = NULL, h;
	u32 head = 0, k, slot;
	unsigned int smask;
	int ret = 0;

	memset(xr, 0, sizeof(*xr));
	node = kvcalloc(max_states, sizeof(*node), GFP_KERNEL);
	hash = kvcalloc(hsize, sizeof(*hash), GFP_KERNEL);
	path = kcalloc(BQLM_RC_MAX_DEPTH + 1, sizeof(*path), GFP_KERNEL);
	if (!node || !hash || !path) {
		ret = -ENOMEM;
		goto out;
	}
	/* the initial state */
	ret = s->ops->start(s);
	if (ret)
		goto out;
	xr->devices++;
	bqlm_rc_check(s, &nact, &smask);
	node[0].leaf = bqlm_rc_fatal(smask);
	h = bqlm_rc_state_hash(s);
	hash[h & (hsize - 1)] = h;
	xr->states = 1;
	ret = s->ops->down(s);
	while (!ret && head < xr->states) {
		k = head++;
		if (node[k].leaf)
			continue;
		ret = bqlm_rc_goto(s, node, k, path, xr);
		if (ret)
			break;
		nact = s->ops->enabled(s, act);
		ret = s->ops->down(s);
		for (i = 0; i < nact && !ret; i++) {
			unsigned int mask, nr, c;

			ret = bqlm_rc_goto(s, node, k, path, xr);
			if (ret)
				break;
			ret = bqlm_rc_step(s, act[i]);
			if (ret) {
				bqlm_rc_abandon(s, ret, act[i],
						node[k].depth + 1, xr);
				break;
			}
			xr->steps++;
			xr->transitions++;
			mask = bqlm_rc_check(s, &nr, &smask);
			for (c = 0; c < BQLM_CHECK_NR; c++)
				if ((mask & BQLM_CHECK_BIT(c)) && !xr->depth[c])
					xr->depth[c] = node[k].depth + 1;
			xr->violated |= mask;
			h = bqlm_rc_state_hash(s);
			for (slot = h & (hsize - 1); hash[slot] &&
			     hash[slot] != h; slot = (slot + 1) & (hsize - 1))
				;
			/*
			 * As the model's explorer: a state reached by a fatal
			 * step is not kept, one that is fatal in itself (a
			 * stall) is kept and not expanded.
			 */
			if (!hash[slot] && !bqlm_rc_fatal(mask & ~smask) &&
			    node[k].depth < BQLM_RC_MAX_DEPTH) {
				if (xr->states >= max_states) {
					ret = s->ops->down(s);
					ret = ret ? ret : -ENOSPC;
					break;
				}
				hash[slot] = h;
				node[xr->states].parent = k;
				node[xr->states].action = act[i];
				node[xr->states].depth = node[k].depth + 1;
				node[xr->states].leaf = bqlm_rc_fatal(smask);
				xr->max_depth = max_t(unsigned int, xr->max_depth,
						      node[k].depth + 1);
				xr->states++;
			}
			ret = s->ops->down(s);
		}
	}
	xr->complete = !ret;
out:
	kvfree(node);
	kvfree(hash);
	kfree(path);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The model and the real code in lockstep */

static void bqlm_rc_first(unsigned int *first, unsigned int mask,
			  unsigned int step)
{
	unsigned int c;

	for (c = 0; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && !first[c])
			first[c] = step;
}

/* One schedule on a fresh device. */
static int bqlm_rc_once(struct bqlm_rc_target *t,
			const unsigned int *actions, unsigned int n, u64 seed,
			unsigned int max_steps, bqlm_rc_emit_t emit, void *arg,
			struct bqlm_rc_result *res)
{
	const struct bqlm_xsys *sys = &t->sys;
	unsigned int step, action, mask, nm, nr;
	char line[2 * BQLM_RC_DESC];
	struct bqlm_prng rng;
	int ret;

	bqlm_prng_seed(&rng, seed);
	ret = t->ops->start(t);
	if (ret) {
		res->err_step = 1;
		scnprintf(res->err, sizeof(res->err),
			  "cannot create the real device (%d)", ret);
		return ret;
	}
	nm = bqlm_xenabled(sys, t->from, t->mact);
	bqlm_rc_check(t, &nr, NULL);
	if (!bqlm_rc_same(t, res)) {
		res->diff = true;
		goto down;
	}
	for (step = 1; step <= (actions ? n : max_steps); step++) {
		if (actions) {
			action = actions[step - 1];
		} else {
			if (!nm)
				break;
			action = t->mact[bqlm_prng_below(&rng, nm)];
		}
		bqlm_xdescribe_action(sys, t->from, action, res->desc,
				     sizeof(res->desc));
		/* the model's step at the jiffies value the real one starts at */
		if (t->now) {
			*t->now = jiffies;
			memcpy(t->pre, t->from, t->state_size);
		}
		memcpy(t->to, t->from, sys->state_size);
		memset(t->each, 0, sizeof(t->each));
		ret = bqlm_xstep(sys, t->from, action, t->to, t->each);
		if (ret < 0) {
			res->err_step = step;
			scnprintf(res->err, sizeof(res->err),
				  "the model cannot take action %#x (%d)",
				  action, ret);
			break;
		}
		mask = ret;
		memcpy(t->from, t->to, sys->state_size);
		nm = bqlm_xenabled(sys, t->from, t->mact);
		mask |= bqlm_xcheck_state(sys, t->from, t->mact, nm,
					 t->each);
		res->model_violated |= mask;
		bqlm_rc_first(res->model_first, mask, step);

		ret = bqlm_rc_real_step(t, action);
		if (ret || bqlm_rc_error(t)) {
			res->err_step = step;
			scnprintf(res->err, sizeof(res->err),
				  "the real code cannot take it (%d): %s; actor at %s",
				  ret, bqlm_rc_error(t) ?: "-",
				  t->ops->parked_at(t, action));
			break;
		}
		mask = bqlm_rc_check(t, &nr, NULL);
		res->real_violated |= mask;
		bqlm_rc_first(res->real_first, mask, step);
		res->steps = step;
		if (emit) {
			scnprintf(line, sizeof(line), "%3u. %s | real: %s",
				  step, res->desc,
				  t->ops->parked_at(t, action));
			emit(arg, line);
		}
		if (!bqlm_rc_same(t, res) &&
		    bqlm_rc_model_retake(t, action, &nm))
			bqlm_rc_check(t, &nr, NULL);
		if (!bqlm_rc_same(t, res)) {
			res->diff = true;
			res->diff_step = step;
			break;
		}
		if (nm != nr || memcmp(t->mact, t->ract, nm * sizeof(*t->mact))) {
			res->diff = true;
			res->diff_step = step;
			strscpy(res->diff_what, "enabled actions",
				sizeof(res->diff_what));
			scnprintf(res->diff_real, sizeof(res->diff_real),
				  "%u, first %#x", nr, nr ? t->ract[0] : 0);
			scnprintf(res->diff_model, sizeof(res->diff_model),
				  "%u, first %#x", nm, nm ? t->mact[0] : 0);
			break;
		}
		/* stop where the kernel would have crashed */
		if (bqlm_rc_fatal(res->model_violated))
			break;
	}
down:
	/* a difference after a tick: the model saw another jiffies value */
	ret = res->diff && t->now && t->ticked ? -EAGAIN : 0;
	if (t->ops->down(t)) {
		ret = -EBUSY;
		res->err_step = res->steps + 1;
		strscpy(res->err, bqlm_rc_error(t) ?: "teardown failed",
			sizeof(res->err));
	}
	return ret;
}

/**
 * bqlm_rc_lockstep() - run a schedule on the model and the real code
 * @t: the driver's harness
 * @actions: the schedule, model action numbers; NULL for a random path
 * @n: its length
 * @seed: for a random path, its seed
 * @max_steps: for a random path, its longest length
 * @emit: NULL, or receives each step as "N. model step | real: yield point"
 * @arg: @emit's argument
 * @res: the result
 *
 * On a fresh device. After every step the whole real state, read in the
 * model's terms, must equal the model's (@t->ops->same, or byte by
 * byte), the real code
 * must enable exactly the actions the model does, and the model's
 * invariants are checked on the real state (@t->ops->view); the schedule
 * stops at the first difference, at a harness failure, and after a step
 * at which the kernel would have crashed (the violation is reported,
 * never made). A run that differs after a tick fell inside a real step
 * (@t->now) is run again on a fresh device, up to 5 times.
 *
 * Return: 0, or a negative errno if the harness could not run or end.
 */
int bqlm_rc_lockstep(struct bqlm_rc_target *t,
		     const unsigned int *actions, unsigned int n, u64 seed,
		     unsigned int max_steps, bqlm_rc_emit_t emit, void *arg,
		     struct bqlm_rc_result *res)
{
	unsigned int tries;
	int ret = -EAGAIN;

	for (tries = 0; tries < 5 && ret == -EAGAIN; tries++) {
		memset(res, 0, sizeof(*res));
		res->retries = tries;
		ret = bqlm_rc_once(t, actions, n, seed, max_steps, emit, arg,
				   res);
	}
	return ret == -EAGAIN ? 0 : ret;
}
