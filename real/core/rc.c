// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the deterministic scheduler of the real-code harness (rc.h).
 *
 * Hand-over is a pair of completions: the scheduler completes the actor's
 * @go and waits on @back; the actor runs until it yields or finishes and
 * then completes @back and (when yielding) waits on its @go. At any time
 * exactly one of the scheduler and the actors is not waiting.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <net/sch_generic.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/prng.h>

#include "rc.h"

/*
 * The deep tier ("make kunit-deep": bqlm_kunit.deep=1 on the kernel command
 * line): the real-code searches at their models' full bounds.
 */
static bool bqlm_rc_deep_tier;
module_param_named(deep, bqlm_rc_deep_tier, bool, 0444);
MODULE_PARM_DESC(deep, "run the real-code searches of the deep tier (make kunit-deep)");

/**
 * bqlm_rc_deep() - does this run include the deep tier?
 *
 * Return: bqlm_kunit.deep, from the kernel command line.
 */
bool bqlm_rc_deep(void)
{
	return bqlm_rc_deep_tier;
}

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
		a->phase = 0;
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
 *
 * Return: 0, -EINVAL for too many actors, or the error of kthread_run()
 * (the threads already started are ended).
 */
int bqlm_rc_init(struct bqlm_rc *rc, unsigned int nr, const char *const *names)
{
	unsigned int i;

	if (nr > BQLM_RC_MAX_ACTORS)
		return -EINVAL;
	init_completion(&rc->back);
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
 * its thread and what it holds are left, with a message, and the harness
 * fails (@rc->error), so that its driver is not unloaded nor its memory
 * freed under the thread. The driver adapter drains every actor before it
 * calls this.
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
			       a->name, bqlm_rc_parked_at(a));
			/*
			 * What it holds (the RTNL, a NAPI, the device) stays
			 * held: the harness failed, and its device and memory
			 * are left to the thread (bqlm_rc_end()).
			 */
			bqlm_rc_fail(rc, -EBUSY, "actor %s left parked at %s",
				     a->name, bqlm_rc_parked_at(a));
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
	a->phase = 0;
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
 * bqlm_rc_go() - start an idle actor, or run a parked one to its next yield
 * @a: the actor
 * @fn: the work, if it is idle
 * @arg: its argument
 *
 * Return: as bqlm_rc_start() or bqlm_rc_resume().
 */
int bqlm_rc_go(struct bqlm_rc_actor *a, bqlm_rc_fn fn, unsigned long arg)
{
	return a->busy ? bqlm_rc_resume(a) : bqlm_rc_start(a, fn, arg);
}

/**
 * bqlm_rc_yield() - hand the CPU back to the scheduler (actor context)
 * @a: the calling actor (bqlm_rc_self())
 * @at: the yield point: where the actor stops, and its model phase there
 * @cond: NULL, or what must hold before the actor may go on
 *
 * Never called holding a spinlock or in atomic context.
 */
void bqlm_rc_yield(struct bqlm_rc_actor *a, const struct bqlm_rc_yield *at,
		   bqlm_rc_cond cond)
{
	/*
	 * An actor may park between a sleep's set_current_state() and its
	 * schedule() (usbnet_terminate_urbs() sets TASK_UNINTERRUPTIBLE
	 * before the unlinks and waits it yields in): it waits for its turn
	 * as a running task, which DEBUG_ATOMIC_SLEEP requires of a blocking
	 * call, and goes on in the state it parked in.
	 */
	unsigned int state = get_current_state();

	__set_current_state(TASK_RUNNING);
	a->at = at;
	if (at->phase != BQLM_RC_NO_PHASE)
		a->phase = at->phase;
	a->wait_cond = cond;
	complete(&a->rc->back);
	wait_for_completion(&a->go);
	a->at = NULL;
	a->wait_cond = NULL;
	set_current_state(state);
}

/**
 * bqlm_rc_parked_at() - where an actor is, for messages
 * @a: the actor
 *
 * Return: the name of its yield point, "idle", or "running".
 */
const char *bqlm_rc_parked_at(const struct bqlm_rc_actor *a)
{
	if (!a->busy)
		return "idle";
	return a->at ? a->at->name : "running";
}

/**
 * bqlm_rc_lock_init() - a harness lock, free
 * @l: the lock
 * @name: its name, for messages (an actor waiting for it is parked there)
 */
void bqlm_rc_lock_init(struct bqlm_rc_lock *l, const char *name)
{
	l->owner = NULL;
	l->wait.name = name;
	l->wait.phase = BQLM_RC_NO_PHASE;
}

/**
 * bqlm_rc_lock_free() - may an actor take a harness lock without waiting?
 * @a: the actor
 * @l: the lock
 *
 * Return: true if nobody or @a holds it.
 */
bool bqlm_rc_lock_free(const struct bqlm_rc_actor *a,
		       const struct bqlm_rc_lock *l)
{
	return !l->owner || l->owner == a;
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
		bqlm_rc_yield(a, &l->wait, NULL);
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
			     a->name, l->wait.name,
			     l->owner ? l->owner->name : "nobody");
	l->owner = NULL;
}

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

/**
 * bqlm_rc_end() - end a harness's actors
 * @rc: its scheduler, or one never started (no actors)
 *
 * Return: true after a harness failure: the actors' threads may still use
 * the harness, whose memory must be left to them.
 */
bool bqlm_rc_end(struct bqlm_rc *rc)
{
	if (!rc->nr_actors)
		return false;
	bqlm_rc_destroy(rc);
	return rc->error;
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

/* ------------------------------------------------------------------ */
/* What every driver's harness does alike */

/**
 * bqlm_rc_new_skb() - a harness's packet, its id in its header and data
 * @dev: the device it is sent on
 * @headroom: bytes reserved before the frame
 * @len: the frame's linear length (at least ETH_HLEN + 2)
 * @pkt: the packet's id (1 to 255)
 * @proto: its ethertype (host order)
 *
 * A broadcast Ethernet frame from a locally administered source whose last
 * byte is @pkt, @pkt (big-endian) after the header, the rest zero; the
 * harness holds a reference besides the one it hands over.
 *
 * Return: the packet, or NULL without memory.
 */
struct sk_buff *bqlm_rc_new_skb(struct net_device *dev, unsigned int headroom,
				unsigned int len, unsigned int pkt, u16 proto)
{
	struct sk_buff *skb = alloc_skb(headroom + len, GFP_KERNEL);
	u8 *p;

	if (!skb)
		return NULL;
	skb_reserve(skb, headroom);
	p = skb_put_zero(skb, len);
	eth_broadcast_addr(p);
	p[6] = 0x02;			/* a locally administered source */
	p[11] = pkt;
	put_unaligned_be16(proto, p + 12);
	put_unaligned_be16(pkt, p + ETH_HLEN);
	skb->dev = dev;
	skb->protocol = htons(proto);
	skb_reset_mac_header(skb);
	skb_get(skb);			/* the harness's reference */
	return skb;
}

/**
 * bqlm_rc_free_skbs() - free a harness's packets (bqlm_rc_new_skb())
 * @skb: the packets, by id 1..@max; each set to NULL
 * @max: the last id
 * @sent: the packets handed to the driver (ids 1..@sent)
 *
 * Drops the harness's reference of every packet, and the stack's too of
 * one never handed to the driver (the driver owns that one otherwise).
 */
void bqlm_rc_free_skbs(struct sk_buff **skb, unsigned int max,
		       unsigned int sent)
{
	unsigned int i;

	for (i = 1; i <= max; i++) {
		if (skb[i] && i > sent)
			kfree_skb(skb[i]);
		kfree_skb(skb[i]);
		skb[i] = NULL;
	}
}

/**
 * bqlm_rc_audit_skb() - a packet's references against what holds it
 * @rc: the scheduler, failed on a reference too many
 * @skb: the packet (bqlm_rc_new_skb())
 * @pkt: its id, for the message
 * @held: whether the driver (or an actor) still holds it
 * @ev: the step's events: a reference too few counts in @ev->lost
 *
 * The harness holds one reference, the driver one while it holds the
 * packet. Fewer: the driver freed a packet it still holds (counted lost,
 * as the models count an overwritten one); more: it kept one it let go of
 * (a harness failure).
 */
void bqlm_rc_audit_skb(struct bqlm_rc *rc, struct sk_buff *skb,
		       unsigned int pkt, bool held, struct bqlm_inv_step *ev)
{
	unsigned int want = held ? 2 : 1;
	unsigned int have = refcount_read(&skb->users);

	if (have < want)
		ev->lost++;
	else if (have > want)
		bqlm_rc_fail(rc, -EINVAL, "pkt %u has %u references, %u expected",
			     pkt, have, want);
}

/**
 * bqlm_rc_dql_completed() - dql_completed() as 6.12's
 *	netdev_tx_completed_queue() calls it; an over-completion is reported,
 *	never made
 * @q: the queue
 * @bytes: the bytes completed
 * @ev: receives an over-completion (dql_completed() would BUG_ON()), or
 *	NULL when the call is not the harness's to report
 */
void bqlm_rc_dql_completed(struct netdev_queue *q, unsigned int bytes,
			   struct bqlm_inv_step *ev)
{
	unsigned int inflight = q->dql.num_queued - q->dql.num_completed;

	if (bytes <= inflight) {
		dql_completed(&q->dql, bytes);
	} else if (ev) {
		ev->dql_err = -ERANGE;
		ev->dql_val[0] = bytes;
		ev->dql_val[1] = inflight;
	}
}

/**
 * bqlm_rc_completed_wake() - the end of 6.12's netdev_tx_completed_queue():
 *	the barrier, and the wake of a queue that its DQL lets run again
 * @q: the queue
 */
void bqlm_rc_completed_wake(struct netdev_queue *q)
{
	/* dql_completed() before the STACK_XOFF test; pairs with the sender's */
	smp_mb();
	if (unlikely(dql_avail(&q->dql) < 0))
		return;
	if (test_and_clear_bit(__QUEUE_STATE_STACK_XOFF, &q->state))
		netif_schedule_queue(q);
}

/**
 * bqlm_rc_rcu_read_lock() - rcu_read_lock() in a compiled driver
 * @rc: the harness's scheduler, or NULL when no harness is in use
 * @depth: each actor's count of read-side sections, by actor index
 *
 * An actor's section is counted by the harness (it may yield inside);
 * outside an actor, the kernel's.
 */
void bqlm_rc_rcu_read_lock(struct bqlm_rc *rc, unsigned int *depth)
{
	struct bqlm_rc_actor *a = bqlm_rc_self(rc);

	if (a)
		depth[a - rc->actor]++;
	else
		rcu_read_lock();
}

/**
 * bqlm_rc_rcu_read_unlock() - rcu_read_unlock() in a compiled driver
 * @rc: the harness's scheduler, or NULL when no harness is in use
 * @depth: each actor's count of read-side sections, by actor index
 *
 * An actor's unlock without a lock fails the harness.
 */
void bqlm_rc_rcu_read_unlock(struct bqlm_rc *rc, unsigned int *depth)
{
	struct bqlm_rc_actor *a = bqlm_rc_self(rc);

	if (!a)
		rcu_read_unlock();
	else if (!depth[a - rc->actor])
		bqlm_rc_fail(rc, -EINVAL, "%s: unbalanced rcu_read_unlock()",
			     a->name);
	else
		depth[a - rc->actor]--;
}

/**
 * bqlm_rc_rcu_held() - is the calling actor in a read-side section?
 * @rc: the harness's scheduler, or NULL when no harness is in use
 * @depth: each actor's count of read-side sections, by actor index
 *
 * What a compiled driver's rcu_dereference() is checked against, beside
 * lockdep's own rcu_read_lock_held(): an actor's section is the harness's
 * count (bqlm_rc_rcu_read_lock()), which lockdep does not see.
 *
 * Return: true when the calling thread is an actor of @rc with a section
 * open; false outside an actor, where only the kernel's sections count.
 */
bool bqlm_rc_rcu_held(struct bqlm_rc *rc, const unsigned int *depth)
{
	struct bqlm_rc_actor *a = bqlm_rc_self(rc);

	return a && depth[a - rc->actor];
}

/**
 * bqlm_rc_resume_busy() - at a teardown, run the busy actors that can run
 * @rc: the scheduler
 * @all: run each of them (else the first that runs, only)
 * @busy: set to true when an actor is busy
 *
 * Return: whether one ran (to its next yield or its end).
 */
bool bqlm_rc_resume_busy(struct bqlm_rc *rc, bool all, bool *busy)
{
	bool ran = false;
	unsigned int i;

	for (i = 0; i < rc->nr_actors; i++) {
		struct bqlm_rc_actor *a = &rc->actor[i];

		if (!a->busy)
			continue;
		*busy = true;
		if (bqlm_rc_runnable(a) && !bqlm_rc_resume(a)) {
			ran = true;
			if (!all)
				break;
		}
	}
	return ran;
}

/**
 * bqlm_rc_finished() - the end of a teardown's rounds
 * @rc: the scheduler
 * @busy: whether an actor is still busy
 *
 * Return: 0 when every actor finished, else -EBUSY, the harness failed
 * (now, if it had not already: an actor cannot finish).
 */
int bqlm_rc_finished(struct bqlm_rc *rc, bool busy)
{
	if (!busy && !rc->error)
		return 0;
	if (!rc->error)
		bqlm_rc_fail(rc, -EBUSY, "an actor cannot finish at teardown");
	return -EBUSY;
}

/* ------------------------------------------------------------------ */
/* The test qdiscs: they hold nothing, so a reschedule runs nothing */

/* Jiffies a test qdisc may stay running or scheduled at its put, at most */
#define BQLM_RC_QDISC_IDLE_TIMEOUT	(10 * HZ)

/**
 * bqlm_rc_qdisc_put() - free a test qdisc of a txq, as dev_deactivate() would
 * @txq: the txq, which gets &noop_qdisc
 * @q: its qdisc
 *
 * A wake of the txq may have scheduled the qdisc for the TX softirq
 * (__netif_schedule()); freed then, net_tx_action() would lock it after
 * qdisc_put() unregistered its lock's class (lockdep: "bad unlock
 * balance") and might run on freed memory. As dev_deactivate_many(): the
 * txq first leaves the qdisc, then the qdisc must be neither running nor
 * scheduled before it is put.
 *
 * The wake that scheduled it raised the TX softirq from an actor's thread:
 * the spin_unlock_bh() after the first look runs it on this CPU, so the
 * second look normally finds the qdisc idle at once. Only then does the
 * caller sleep a jiffy between looks (a softirq run elsewhere). Sleeping
 * after the first look, as the first version did, cost a jiffy (10 ms in
 * UML) on every device whose last step woke the queue, 4 in 10 of a
 * search's fresh devices: aqc111's search took 161 s instead of 2 s, and
 * make kunit-drivers ran into kunit.py's limit in its third search.
 *
 * Return: 0, or -ETIMEDOUT when the qdisc stayed busy: it is left to its
 * softirq (leaked, with a message) rather than freed under it.
 */
int bqlm_rc_qdisc_put(struct netdev_queue *txq, struct Qdisc *q)
{
	unsigned long start = jiffies;
	unsigned int looks;
	bool busy;

	rcu_assign_pointer(txq->qdisc, &noop_qdisc);
	synchronize_net();
	for (looks = 0; ; looks++) {
		spin_lock_bh(qdisc_lock(q));
		busy = qdisc_is_running(q) ||
		       test_bit(__QDISC_STATE_SCHED, &q->state);
		spin_unlock_bh(qdisc_lock(q));	/* a pending TX softirq runs */
		if (!busy)
			break;
		if (time_after(jiffies, start + BQLM_RC_QDISC_IDLE_TIMEOUT)) {
			pr_err("bqlm real-code harness: a test qdisc stayed %s for %d s: leaked\n",
			       qdisc_is_running(q) ? "running" : "scheduled",
			       BQLM_RC_QDISC_IDLE_TIMEOUT / HZ);
			return -ETIMEDOUT;
		}
		if (looks)
			schedule_timeout_uninterruptible(1);
	}
	rtnl_lock();
	qdisc_put(q);
	rtnl_unlock();
	return 0;
}

static int bqlm_rc_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
				 struct sk_buff **to_free)
{
	return qdisc_drop(skb, sch, to_free);
}

static struct sk_buff *bqlm_rc_qdisc_dequeue(struct Qdisc *sch)
{
	return NULL;
}

/*
 * A qdisc the harness's stack stands for: the driver sees a txq with a
 * queue (qdisc_txq_has_no_queue() false); the harness hands it packets.
 */
#define BQLM_RC_QDISC_OPS(name)					\
	.id		= name,						\
	.enqueue	= bqlm_rc_qdisc_enqueue,			\
	.dequeue	= bqlm_rc_qdisc_dequeue,			\
	.peek		= bqlm_rc_qdisc_dequeue,			\
	.owner		= THIS_MODULE

struct Qdisc_ops bqlm_rc_qdisc_ops = {
	BQLM_RC_QDISC_OPS("bqlm_rc"),
};

static int bqlm_rc_noqueue_init(struct Qdisc *sch, struct nlattr *opt,
				struct netlink_ext_ack *extack)
{
	sch->enqueue = NULL;	/* as noqueue's: qdisc_txq_has_no_queue() */
	return 0;
}

/* noqueue, as the driver sees it */
struct Qdisc_ops bqlm_rc_noqueue_ops = {
	BQLM_RC_QDISC_OPS("bqlm_rc_noq"),
	.init		= bqlm_rc_noqueue_init,
};
