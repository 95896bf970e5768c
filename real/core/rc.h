/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a deterministic scheduler for real kernel code, and the search
 * and lockstep that drive a driver's real code with it.
 *
 * The real-code harness runs a driver's own functions (drivers/net/usb/
 * usbnet.c, drivers/net/tun.c, compiled from the kernel tree) under a
 * schedule: each actor of the model (the stack's transmit, an URB
 * completion, a bottom half, ifdown, a reader, ...) is a kernel thread, and
 * exactly one of them runs at any time. The scheduler (the KUnit case's
 * thread) hands the CPU to an actor; the actor runs real code until it
 * reaches a yield point, where it hands the CPU back. Yield points are
 * placed, by macros defined before the driver is compiled, at the calls
 * where the model's steps begin and end, so that one model step is one
 * stretch of real code between two yields. Each yield point names the
 * model's phase the actor is in while it is parked there.
 *
 * No two actors ever run at once, so nothing races: the order is the
 * schedule's. Locks that the model holds across steps are the harness's
 * own (struct bqlm_rc_lock): an actor never sleeps holding a spinlock and
 * never runs in atomic context when it yields. An actor that must wait
 * (for a lock, or for a condition such as "dev->txq is empty") parks with
 * that condition; it is runnable only when the condition holds.
 *
 * A driver's harness fills one struct bqlm_rc_target (const ops, the model,
 * the state buffers) and embeds it; bqlm_rc_lockstep() and
 * bqlm_rc_explore() drive it.
 *
 * sched.c is the scheduler, search.c the search and the lockstep, net.c
 * what every harness does alike to packets and queues.
 *
 * Kernel only: the userspace build never compiles real/.
 */
#ifndef _BQLM_REAL_RC_H
#define _BQLM_REAL_RC_H

#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <bqlm/explore.h>
#include <bqlm/violation.h>

#define BQLM_RC_MAX_ACTORS	25
#define BQLM_RC_MSG		192

struct bqlm_rc;
struct bqlm_rc_actor;

/**
 * struct bqlm_rc_yield - a yield point
 * @name: where the actor stops, for traces
 * @phase: the model's phase of the actor while it is parked there (its
 *	enum of the actor's kind), or BQLM_RC_NO_PHASE
 */
struct bqlm_rc_yield {
	const char *name;
	int phase;
};

/* A yield point that does not end a model step (a wait for a lock). */
#define BQLM_RC_NO_PHASE	(-1)

/**
 * struct bqlm_rc_lock - a lock the harness owns instead of a spinlock
 * @owner: the actor holding it, or NULL
 * @wait: the yield point of an actor waiting for it (its name is the
 *	lock's)
 */
struct bqlm_rc_lock {
	struct bqlm_rc_actor *owner;
	struct bqlm_rc_yield wait;
};

typedef void (*bqlm_rc_fn)(struct bqlm_rc_actor *a);
typedef bool (*bqlm_rc_cond)(struct bqlm_rc_actor *a);

/**
 * struct bqlm_rc_actor - one actor: a kernel thread that runs real code
 * @rc: its scheduler
 * @task: the thread
 * @go: completed by the scheduler to let the actor run
 * @name: its name in traces
 * @fn: the work it runs once started
 * @arg: the work's argument
 * @busy: started and not yet finished
 * @exit: the thread is asked to end
 * @at: where it is parked, NULL while running or idle
 * @phase: the model's phase of the last yield point that named one; 0 (the
 *	models' idle phase) when its work starts and when it ends
 * @mark: the driver adapter's note of the actor's progress
 * @count: the adapter's counter within the current work
 * @wait_lock: parked until this lock is free
 * @wait_cond: parked until this returns true
 */
struct bqlm_rc_actor {
	struct bqlm_rc *rc;
	struct task_struct *task;
	struct completion go;
	const char *name;
	bqlm_rc_fn fn;
	unsigned long arg;
	bool busy;
	bool exit;
	const struct bqlm_rc_yield *at;
	int phase;
	unsigned int mark;
	unsigned int count;
	struct bqlm_rc_lock *wait_lock;
	bqlm_rc_cond wait_cond;
};

/**
 * struct bqlm_rc - the scheduler
 * @back: completed by an actor when it yields or finishes
 * @cur: the actor running now, NULL when the scheduler runs
 * @actor: the actors
 * @nr_actors: how many
 * @error: set by a harness failure (an actor that does not come back, a
 *	wait that the schedule did not foresee); the run must end
 * @msg: what happened
 */
struct bqlm_rc {
	struct completion back;
	struct bqlm_rc_actor *cur;
	struct bqlm_rc_actor actor[BQLM_RC_MAX_ACTORS];
	unsigned int nr_actors;
	int error;
	char msg[BQLM_RC_MSG];
};

int bqlm_rc_init(struct bqlm_rc *rc, unsigned int nr, const char *const *names);
void bqlm_rc_destroy(struct bqlm_rc *rc);
struct bqlm_rc_actor *bqlm_rc_self(struct bqlm_rc *rc);
bool bqlm_rc_runnable(const struct bqlm_rc_actor *a);
int bqlm_rc_start(struct bqlm_rc_actor *a, bqlm_rc_fn fn, unsigned long arg);
int bqlm_rc_resume(struct bqlm_rc_actor *a);
int bqlm_rc_go(struct bqlm_rc_actor *a, bqlm_rc_fn fn, unsigned long arg);
void bqlm_rc_yield(struct bqlm_rc_actor *a, const struct bqlm_rc_yield *at,
		   bqlm_rc_cond cond);
const char *bqlm_rc_parked_at(const struct bqlm_rc_actor *a);
void bqlm_rc_lock_init(struct bqlm_rc_lock *l, const char *name);
void bqlm_rc_lock(struct bqlm_rc_actor *a, struct bqlm_rc_lock *l);
void bqlm_rc_unlock(struct bqlm_rc_actor *a, struct bqlm_rc_lock *l);
bool bqlm_rc_lock_free(const struct bqlm_rc_actor *a,
		       const struct bqlm_rc_lock *l);
void bqlm_rc_fail(struct bqlm_rc *rc, int err, const char *fmt, ...)
	__printf(3, 4);

/* Deepest path bqlm_rc_explore() follows. */
#define BQLM_RC_MAX_DEPTH	255

/* Room for one line of a lockstep result's text. */
#define BQLM_RC_DESC		160

/**
 * struct bqlm_rc_xresult - what a search of the real code found
 * @states: distinct real states visited
 * @transitions: actions taken from them
 * @steps: real steps run in all, replays included
 * @devices: fresh devices made
 * @max_depth: deepest state
 * @complete: every state within the bound was expanded
 * @violated: mask of the checks violated
 * @depth: for each check in @violated, the depth it was first violated at
 * @err: the step the search stopped at, and why, after a step the real code
 *	could not take; empty otherwise
 */
struct bqlm_rc_xresult {
	unsigned int states;
	unsigned int transitions;
	unsigned long long steps;
	unsigned int devices;
	unsigned int max_depth;
	bool complete;
	unsigned int violated;
	unsigned int depth[BQLM_CHECK_NR];
	char err[BQLM_RC_DESC];
};

/**
 * struct bqlm_rc_result - what one schedule did on the real code
 * @steps: steps taken on both sides
 * @model_violated: checks the model violated
 * @real_violated: checks the real state violated
 * @model_first: for each check, the step the model first violated it at
 * @real_first: the same on the real state
 * @diff: the states or the enabled actions differed
 * @diff_step: the step after which they did (0: the initial state)
 * @diff_what: what differed
 * @diff_real: the real side of it
 * @diff_model: the model's side
 * @err_step: the step at which the harness or the model failed, 0 if none
 * @err: why
 * @desc: the last model step
 * @retries: runs started again on a fresh device (a tick inside a real
 *	step: struct bqlm_rc_target's @now)
 */
struct bqlm_rc_result {
	unsigned int steps;
	unsigned int model_violated;
	unsigned int real_violated;
	unsigned int model_first[BQLM_CHECK_NR];
	unsigned int real_first[BQLM_CHECK_NR];
	bool diff;
	unsigned int diff_step;
	char diff_what[BQLM_RC_DESC];
	char diff_real[BQLM_RC_DESC];
	char diff_model[BQLM_RC_DESC];
	unsigned int err_step;
	char err[BQLM_RC_DESC];
	char desc[BQLM_RC_DESC];
	unsigned int retries;
};

typedef void (*bqlm_rc_emit_t)(void *arg, const char *line);

struct bqlm_rc_target;

/**
 * struct bqlm_rc_target_ops - a driver's harness, as bqlm_rc_lockstep()
 *	and bqlm_rc_explore() drive it; each callback gets the struct
 *	bqlm_rc_target the harness embeds (container_of())
 * @start: a fresh device; the model (@sys) and its initial state in @from
 * @step: one model action on the real code: 0 or a negative errno
 * @error: optional: the harness failure its scheduler (@rc) does not
 *	know of, or NULL
 * @parked_at: where the actor of an action is parked, for messages
 * @enabled: the model actions the real code can take now, in the model's
 *	order; returns how many (at most BQLM_X_MAX_ACTIONS)
 * @view: read the real state into @view, in the model's terms; return the
 *	mask of the model's step checks it violates (each recorded in @each)
 * @same: optional: is the real state (@view) the model's @from? If not,
 *	say what differs in @res->diff_what, @res->diff_real and
 *	@res->diff_model. Without it, byte by byte (bqlm_rc_same_bytes())
 * @hash: optional: adjust @view before the search hashes it (values that
 *	differ from one fresh device to the next)
 * @down: drain the device and free it: 0 or a negative errno
 * @destroy: end the harness and free the target (bqlm_rc_target_destroy())
 */
struct bqlm_rc_target_ops {
	int (*start)(struct bqlm_rc_target *t);
	int (*step)(struct bqlm_rc_target *t, unsigned int action);
	const char *(*error)(struct bqlm_rc_target *t);
	const char *(*parked_at)(struct bqlm_rc_target *t, unsigned int action);
	unsigned int (*enabled)(struct bqlm_rc_target *t, unsigned int *actions);
	unsigned int (*view)(struct bqlm_rc_target *t);
	bool (*same)(struct bqlm_rc_target *t, struct bqlm_rc_result *res);
	void (*hash)(struct bqlm_rc_target *t);
	int (*down)(struct bqlm_rc_target *t);
	void (*destroy)(struct bqlm_rc_target *t);
};

/**
 * struct bqlm_rc_target - a driver's harness beside its model
 * @ops: the harness
 * @rc: the harness's scheduler (its failure is the target's)
 * @sys: the model, as the explorer runs it
 * @state_size: bytes of a model state (and of the real state's @view)
 * @from: the model's state, which bqlm_rc_lockstep() steps
 * @to: room for the model's next state
 * @view: the real state in the model's terms (search: what is hashed)
 * @now: the jiffies value of the model's steps (in its configuration), or
 *	NULL for a model without one. With it, bqlm_rc_lockstep() takes each
 *	model step at the jiffies value the real step starts at, takes it
 *	again at the later value when a tick fell inside the real step and
 *	the states differ, and runs a schedule that still differs after
 *	such a tick again on a fresh device (at most 5 runs)
 * @pre: the model's state before the step being taken (with @now)
 * @ticked: with @now, jiffies ticked during the last real step
 * @each: the violations of one step
 * @mact: the actions the model enables
 * @ract: the actions the real code enables
 */
struct bqlm_rc_target {
	const struct bqlm_rc_target_ops *ops;
	struct bqlm_rc *rc;
	struct bqlm_xsys sys;
	size_t state_size;
	void *from;
	void *to;
	void *view;
	unsigned long *now;
	void *pre;
	bool ticked;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned int mact[BQLM_X_MAX_ACTIONS];
	unsigned int ract[BQLM_X_MAX_ACTIONS];
};

int bqlm_rc_target_init(struct bqlm_rc_target *t,
			const struct bqlm_rc_target_ops *ops,
			struct bqlm_rc *rc, size_t state_size);
void bqlm_rc_target_release(struct bqlm_rc_target *t);
void bqlm_rc_target_destroy(struct bqlm_rc_target *t);
void bqlm_rc_model_start(struct bqlm_rc_target *t);
bool bqlm_rc_end(struct bqlm_rc *rc);

/**
 * struct bqlm_rc_variant - a compiled variant of a driver
 * @name: the model's name of it (its line of real/patches/DRIVER/series)
 * @ops: the driver's ops of it
 */
struct bqlm_rc_variant {
	const char *name;
	const void *ops;
};

const void *bqlm_rc_variant(const struct bqlm_rc_variant *v, unsigned int n,
			    const char *name);

int bqlm_rc_explore(struct bqlm_rc_target *t, unsigned int max_states,
		    struct bqlm_rc_xresult *xr);
int bqlm_rc_lockstep(struct bqlm_rc_target *t, const unsigned int *actions,
		     unsigned int n, u64 seed, unsigned int max_steps,
		     bqlm_rc_emit_t emit, void *arg, struct bqlm_rc_result *res);
bool bqlm_rc_fatal(unsigned int mask);
bool bqlm_rc_deep(void);

struct bqlm_inv_step;
struct net_device;
struct sk_buff;
struct sk_buff *bqlm_rc_new_skb(struct net_device *dev, unsigned int headroom,
				unsigned int len, unsigned int pkt, u16 proto);
void bqlm_rc_free_skbs(struct sk_buff **skb, unsigned int max,
		       unsigned int sent);
void bqlm_rc_audit_skb(struct bqlm_rc *rc, struct sk_buff *skb,
		       unsigned int pkt, bool held, struct bqlm_inv_step *ev);
bool bqlm_rc_resume_busy(struct bqlm_rc *rc, bool all, bool *busy);
int bqlm_rc_finished(struct bqlm_rc *rc, bool busy);
struct netdev_queue;
void bqlm_rc_dql_completed(struct netdev_queue *q, unsigned int bytes,
			   struct bqlm_inv_step *ev);
void bqlm_rc_completed_wake(struct netdev_queue *q);
void bqlm_rc_rcu_read_lock(struct bqlm_rc *rc, unsigned int *depth);
void bqlm_rc_rcu_read_unlock(struct bqlm_rc *rc, unsigned int *depth);
bool bqlm_rc_rcu_held(struct bqlm_rc *rc, const unsigned int *depth);

struct Qdisc_ops;
extern struct Qdisc_ops bqlm_rc_qdisc_ops;
extern struct Qdisc_ops bqlm_rc_noqueue_ops;
struct Qdisc;
int bqlm_rc_qdisc_put(struct netdev_queue *txq, struct Qdisc *q);

#endif /* _BQLM_REAL_RC_H */
