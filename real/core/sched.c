// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the deterministic scheduler of the real-code harness (rc.h):
 * the actors' threads, their hand-over, yields and locks, their
 * read-side sections and their end. The search is in search.c, what
 * every driver's harness does alike to packets and queues in net.c.
 *
 * Hand-over is a pair of completions: the scheduler completes the actor's
 * @go and waits on @back; the actor runs until it yields or finishes and
 * then completes @back and (when yielding) waits on its @go. At any time
 * exactly one of the scheduler and the actors is not waiting.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/stdarg.h>
#include <linux/string.h>

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
