// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the deterministic scheduler of the real-code harness (rc.h).
 *
 * Hand-over is a pair of completions: the scheduler completes the actor's
 * @go and waits on @back; the actor runs until it yields or finishes and
 * then completes @back and (when yielding) waits on its @go. At any time
 * exactly one of the scheduler and the actors is not waiting.
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/stdarg.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>

#include "rc.h"

/* An actor that runs longer than this without yielding is lost. */
#define BQLM_RC_TIMEOUT	(10 * HZ)

static int bqlm_rc_thread(void *data)
{
	struct bqlm_rc_actor *a = data;
	struct bqlm_rc *rc = a->rc;

	for (;;) {
		wait_for_completion(&a->go);
		if (a->exit)
			break;
		a->fn(a);
		a->busy = false;
		a->at = NULL;
		a->wait_lock = NULL;
		a->wait_cond = NULL;
		complete(&rc->back);
	}
	/* @a may be freed once @back is completed: touch nothing after */
	complete(&rc->back);
	return 0;
}

/**
 * bqlm_rc_fail() - record a harness failure
 * @rc: the scheduler
 * @err: a negative errno
 * @fmt: what happened, printf-style
 *
 * Only the first failure is kept; the run must end.
 */
void bqlm_rc_fail(struct bqlm_rc *rc, int err, const char *fmt, ...)
{
	va_list ap;

	if (rc->error)
		return;
	rc->error = err;
	va_start(ap, fmt);
	vscnprintf(rc->msg, sizeof(rc->msg), fmt, ap);
	va_end(ap);
}

/**
 * bqlm_rc_init() - start the actors' threads
 * @rc: the scheduler, zeroed by the caller
 * @nr: number of actors, at most BQLM_RC_MAX_ACTORS
 * @names: their names
 * @priv: the driver adapter's pointer
 *
 * Return: 0, -EINVAL for too many actors, or the error of kthread_run()
 * (the threads already started are ended).
 */
int bqlm_rc_init(struct bqlm_rc *rc, unsigned int nr, const char *const *names,
		 void *priv)
{
	unsigned int i;

	if (nr > BQLM_RC_MAX_ACTORS)
		return -EINVAL;
	init_completion(&rc->back);
	rc->priv = priv;
	for (i = 0; i < nr; i++) {
		struct bqlm_rc_actor *a = &rc->actor[i];

		a->rc = rc;
		a->name = names[i];
		init_completion(&a->go);
		a->task = kthread_run(bqlm_rc_thread, a, "bqlm-rc/%s", a->name);
		if (IS_ERR(a->task)) {
			int err = PTR_ERR(a->task);

			a->task = NULL;
			rc->nr_actors = i;
			bqlm_rc_destroy(rc);
			return err;
		}
		rc->nr_actors = i + 1;
	}
	return 0;
}

/**
 * bqlm_rc_destroy() - end the actors' threads
 * @rc: the scheduler
 *
 * An actor still busy (parked in the middle of real code) cannot be ended:
 * its thread and what it holds are left, with a message. The driver
 * adapter drains every actor before it calls this.
 */
void bqlm_rc_destroy(struct bqlm_rc *rc)
{
	unsigned int i;

	for (i = 0; i < rc->nr_actors; i++) {
		struct bqlm_rc_actor *a = &rc->actor[i];

		if (!a->task)
			continue;
		if (a->busy) {
			pr_err("bqlm real-code harness: actor %s still parked at %s: leaking its thread\n",
			       a->name, a->at ? a->at : "?");
			continue;
		}
		a->exit = true;
		complete(&a->go);
		wait_for_completion(&rc->back);
		a->task = NULL;
	}
	rc->nr_actors = 0;
}

/**
 * bqlm_rc_self() - the actor the calling thread is
 * @rc: the scheduler, or NULL
 *
 * Return: the actor, or NULL when called from any other thread (the
 * driver's code then behaves as it does outside the harness).
 */
struct bqlm_rc_actor *bqlm_rc_self(struct bqlm_rc *rc)
{
	if (!rc || !rc->cur || rc->cur->task != current)
		return NULL;
	return rc->cur;
}

/**
 * bqlm_rc_runnable() - can a busy actor make its next step now?
 * @a: the actor
 *
 * Return: true when it is parked and what it waits for holds.
 */
bool bqlm_rc_runnable(const struct bqlm_rc_actor *a)
{
	if (!a->busy)
		return false;
	if (a->wait_lock && a->wait_lock->owner && a->wait_lock->owner != a)
		return false;
	if (a->wait_cond && !a->wait_cond((struct bqlm_rc_actor *)a))
		return false;
	return true;
}

/* Run @a until it yields or finishes. */
static int bqlm_rc_switch(struct bqlm_rc_actor *a)
{
	struct bqlm_rc *rc = a->rc;

	if (rc->error)
		return rc->error;
	rc->cur = a;
	complete(&a->go);
	if (!wait_for_completion_timeout(&rc->back, BQLM_RC_TIMEOUT)) {
		bqlm_rc_fail(rc, -ETIMEDOUT,
			     "actor %s did not yield or finish within %d s",
			     a->name, BQLM_RC_TIMEOUT / HZ);
		return rc->error;
	}
	rc->cur = NULL;
	return rc->error;
}

/**
 * bqlm_rc_start() - give an idle actor work and run it to its first yield
 * @a: the actor
 * @fn: the work
 * @arg: its argument
 *
 * Return: 0, -EBUSY if the actor is busy, or the harness error.
 */
int bqlm_rc_start(struct bqlm_rc_actor *a, bqlm_rc_fn fn, unsigned long arg)
{
	if (a->busy)
		return -EBUSY;
	a->fn = fn;
	a->arg = arg;
	a->busy = true;
	a->mark = 0;
	a->count = 0;
	a->at = NULL;
	a->wait_lock = NULL;
	a->wait_cond = NULL;
	return bqlm_rc_switch(a);
}

/**
 * bqlm_rc_resume() - run a parked actor to its next yield or its end
 * @a: the actor
 *
 * Return: 0, -EINVAL if it is not busy, -EAGAIN if it is not runnable
 * (nothing done), or the harness error.
 */
int bqlm_rc_resume(struct bqlm_rc_actor *a)
{
	if (!a->busy)
		return -EINVAL;
	if (!bqlm_rc_runnable(a))
		return -EAGAIN;
	return bqlm_rc_switch(a);
}

/**
 * bqlm_rc_yield() - hand the CPU back to the scheduler (actor context)
 * @a: the calling actor (bqlm_rc_self())
 * @at: the yield point, for traces
 * @cond: NULL, or what must hold before the actor may go on
 *
 * Never called holding a spinlock or in atomic context.
 */
void bqlm_rc_yield(struct bqlm_rc_actor *a, const char *at, bqlm_rc_cond cond)
{
	a->at = at;
	a->wait_cond = cond;
	complete(&a->rc->back);
	wait_for_completion(&a->go);
	a->at = NULL;
	a->wait_cond = NULL;
}

/**
 * bqlm_rc_lock() - take a harness lock (actor context)
 * @a: the calling actor
 * @l: the lock
 *
 * If another actor holds it, the caller parks until it is free. The
 * schedule normally only runs an actor whose lock is free; a wait in the
 * middle of a step is still correct, and the adapter notices it.
 */
void bqlm_rc_lock(struct bqlm_rc_actor *a, struct bqlm_rc_lock *l)
{
	while (l->owner && l->owner != a) {
		a->wait_lock = l;
		bqlm_rc_yield(a, l->name, NULL);
		a->wait_lock = NULL;
	}
	l->owner = a;
}

/**
 * bqlm_rc_unlock() - release a harness lock
 * @a: the calling actor
 * @l: the lock
 */
void bqlm_rc_unlock(struct bqlm_rc_actor *a, struct bqlm_rc_lock *l)
{
	if (l->owner != a)
		bqlm_rc_fail(a->rc, -EPERM, "%s releases %s held by %s",
			     a->name, l->name,
			     l->owner ? l->owner->name : "nobody");
	l->owner = NULL;
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

static u64 bqlm_rc_state_hash(const struct bqlm_rc_search *s)
{
	if (s->hash)
		s->hash(s->priv);
	return bqlm_rc_hash(s->view, s->view_size);
}

static bool bqlm_rc_fatal(unsigned int mask)
{
	unsigned int c;

	for (c = 0; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && bqlm_inv_fatal(c))
			return true;
	return false;
}

/* Replay node @k's path on a fresh device; the path is left in @path. */
static int bqlm_rc_goto(const struct bqlm_rc_search *s,
			const struct bqlm_rc_xnode *node, u32 k,
			unsigned int *path, struct bqlm_rc_xresult *xr)
{
	unsigned int d = node[k].depth, i;
	int ret;

	for (i = d; i > 0; i--, k = node[k].parent)
		path[i - 1] = node[k].action;
	ret = s->start(s->priv);
	if (ret)
		return ret;
	xr->devices++;
	for (i = 0; i < d; i++) {
		ret = s->step(s->priv, path[i]);
		if (ret)
			return ret;
		xr->steps++;
	}
	return 0;
}

/**
 * bqlm_rc_explore() - every schedule of the real code within a bound
 * @s: the driver adapter
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
int bqlm_rc_explore(const struct bqlm_rc_search *s, unsigned int max_states,
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
	ret = s->start(s->priv);
	if (ret)
		goto out;
	xr->devices++;
	s->check(s->priv, &smask);
	node[0].leaf = bqlm_rc_fatal(smask);
	h = bqlm_rc_state_hash(s);
	hash[h & (hsize - 1)] = h;
	xr->states = 1;
	ret = s->down(s->priv);
	while (!ret && head < xr->states) {
		k = head++;
		if (node[k].leaf)
			continue;
		ret = bqlm_rc_goto(s, node, k, path, xr);
		if (ret)
			break;
		nact = s->enabled(s->priv, act);
		ret = s->down(s->priv);
		for (i = 0; i < nact && !ret; i++) {
			unsigned int mask, smask, c;

			ret = bqlm_rc_goto(s, node, k, path, xr);
			if (ret)
				break;
			ret = s->step(s->priv, act[i]);
			if (ret)
				break;
			xr->steps++;
			xr->transitions++;
			mask = s->check(s->priv, &smask);
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
					ret = s->down(s->priv);
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
			ret = s->down(s->priv);
		}
	}
	xr->complete = !ret;
out:
	kvfree(node);
	kvfree(hash);
	kfree(path);
	return ret;
}
