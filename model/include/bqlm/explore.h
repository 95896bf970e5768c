/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a bounded, exhaustive, explicit-state explorer.
 *
 * A model presents itself as a struct bqlm_xsys: a fixed-size state, an
 * initial state, the actions enabled in a state, the step an action takes
 * and the invariants a step or a state violates. The explorer visits every
 * state reachable from the initial one, breadth first, storing each once
 * (a hash set over the state's bytes: states must be fully initialised,
 * padding included, so build them from memset() or copies), and keeps for
 * each state its parent and the action that reached it first. Breadth-first
 * order makes the first path found to a violation a shortest one.
 *
 * A violation is kept per check: the first (shallowest) step or state that
 * violates it. After a step that violates a fatal check (one after which
 * the kernel would have crashed, see bqlm_inv_fatal()) the state reached is
 * not explored further; after other violations exploration goes on, so
 * that their consequences are found too.
 *
 * The explorer has no clock and no randomness: the same system and bounds
 * give the same states, numbered the same, on every host. Timing is the
 * caller's business.
 *
 * A model's side: it numbers its actions BQLM_X_ACTION(kind, argument);
 * its step is bqlm_xstep_checked() over its dispatcher (struct bqlm_xrun
 * carries what the step did to its invariants); it names the outside
 * world's actions, and the explorer runs its quiescent checks (a stall)
 * where only those are enabled (bqlm_xquiescent()); it provides one const
 * struct bqlm_xops (BQLM_DEFINE_XOPS()) and fills a struct bqlm_xsys per
 * configuration with bqlm_xsys_fill(). Callers run a system's callbacks
 * through bqlm_xinit(), bqlm_xstep() and the like.
 *
 * Reduction (symmetry). A system may offer a hook (@canon) that rewrites
 * a state into a canonical representative of the states that differ from
 * it only by the identity of interchangeable objects (skb slots holding
 * equal skbs, packet ids); the explorer then stores and expands
 * representatives only, and finds the same checks violated, at the same
 * (shortest) depths (docs/explore.md gives the argument). It is on unless
 * struct bqlm_xbounds.no_reduction or a depth bound turns it off.
 */
#ifndef _BQLM_EXPLORE_H
#define _BQLM_EXPLORE_H

#include <bqlm/types.h>
#include <bqlm/violation.h>
#include <bqlm/invariants.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of actions a system may enable in one state. */
#define BQLM_X_MAX_ACTIONS	64
/* Action number of a violation found in a state rather than by a step. */
#define BQLM_X_NO_ACTION	0xffffU

/**
 * BQLM_X_ACTION() - the action number of a model's action
 * @kind: what the action is, 1..254 (each model's enum of action kinds)
 * @arg: which one, 0..255 (a CPU, a queue, an skb, a buffer entry, ...)
 *
 * Every model numbers its actions so; BQLM_X_KIND() and BQLM_X_ARG() take
 * the number apart.
 */
#define BQLM_X_ACTION(kind, arg)	(((kind) << 8) | (arg))
/**
 * BQLM_X_KIND() - the kind of an action number (BQLM_X_ACTION())
 * @action: the action number
 */
#define BQLM_X_KIND(action)		((action) >> 8)
/**
 * BQLM_X_ARG() - the argument of an action number (BQLM_X_ACTION())
 * @action: the action number
 */
#define BQLM_X_ARG(action)		((action) & 0xff)

/**
 * struct bqlm_xops - what a system does: one const table per model
 * @init: build the initial state in @state (zeroed by the caller)
 * @enabled: store the actions enabled in @state in @actions, in a fixed
 *	order, and return how many (at most BQLM_X_MAX_ACTIONS); action
 *	numbers are below BQLM_X_NO_ACTION
 * @step: run @action from @from into @to (a copy of @from on entry);
 *	describe each violated invariant in its entry of @each (an array of
 *	BQLM_CHECK_NR, as bqlm_inv_check() fills it) and return their mask
 *	(BQLM_CHECK_BIT()), or a negative errno if @action is not enabled
 * @check_state: optional: the invariants that are properties of a state
 *	rather than of a step, given the actions enabled in it; return their
 *	mask as @step does
 * @describe_action: write "actor: modelled kernel function" for @action
 *	taken in @from; return as snprintf()
 * @describe_state: write the state in one line; return as snprintf()
 * @canon: optional (symmetry): rewrite @state into the representative of
 *	its class; two states that differ only by the identity of
 *	interchangeable objects must give the same bytes, and the classes
 *	must be a bisimulation that keeps the checks: each step of a state is
 *	matched by a step of its representative (the same kind of step, on
 *	the renamed object) to a state of the same class, violating the same
 *	checks, and a state and its representative violate the same state
 *	checks. The representative need not be reachable itself; witnesses
 *	keep their (shortest) depths, the deepest state may be shallower
 * @external: with @check_quiescent: is an action the outside world's
 *	(bqlm_xexternal_t)?
 * @check_quiescent: optional: the invariants decided only where nothing
 *	but the outside world can act (a stall); called, after @check_state,
 *	on a state in which every enabled action is @external; return their
 *	mask as @step does
 *
 * Every callback gets the system's @ctx (struct bqlm_xsys) first.
 */
struct bqlm_xops {
	void (*init)(const void *ctx, void *state);
	unsigned int (*enabled)(const void *ctx, const void *state,
				unsigned int *actions);
	int (*step)(const void *ctx, const void *from, unsigned int action,
		    void *to, struct bqlm_violation *each);
	int (*check_state)(const void *ctx, const void *state,
			   const unsigned int *actions, unsigned int n,
			   struct bqlm_violation *each);
	int (*describe_action)(const void *ctx, const void *from,
			       unsigned int action, char *buf, size_t len);
	int (*describe_state)(const void *ctx, const void *state, char *buf,
			      size_t len);
	void (*canon)(const void *ctx, void *state);
	bool (*external)(const void *ctx, const void *state,
			 unsigned int action);
	int (*check_quiescent)(const void *ctx, const void *state,
			       struct bqlm_violation *each);
};

/**
 * struct bqlm_xsys - a system to explore: a model in one configuration
 * @name: the system's name, for messages
 * @state_size: bytes of one state
 * @ctx: the system's configuration, passed to every callback of @ops
 * @ops: what the system does; @ops->init, @ops->enabled and @ops->step are
 *	required
 */
struct bqlm_xsys {
	const char *name;
	size_t state_size;
	const void *ctx;
	const struct bqlm_xops *ops;
};

/**
 * BQLM_DEFINE_XOPS() - define a model's const struct bqlm_xops
 * @model: the model's prefix: the table is @model_xops; its initial state
 *	is what @model_init(state, ctx) builds, its other callbacks are
 *	@model_enabled, @model_xstep, @model_describe_action,
 *	@model_describe_state, @model_external and @model_check_quiescent
 * @check: the model's check_state callback, or NULL
 * @symmetry: the model's canon callback, or NULL
 */
#define BQLM_DEFINE_XOPS(model, check, symmetry)			\
static void model##_xinit(const void *ctx, void *state)		\
{									\
	model##_init(state, ctx);					\
}									\
									\
static const struct bqlm_xops model##_xops = {				\
	.init = model##_xinit,						\
	.enabled = model##_enabled,					\
	.step = model##_xstep,						\
	.check_state = check,						\
	.describe_action = model##_describe_action,			\
	.describe_state = model##_describe_state,			\
	.canon = symmetry,						\
	.external = model##_external,					\
	.check_quiescent = model##_check_quiescent,			\
}

/**
 * bqlm_xsys_fill() - describe a model in one configuration as a system
 * @sys: receives it
 * @name: the system's name
 * @state_size: bytes of one state
 * @ctx: the configuration, passed to every callback of @ops
 * @ops: the model's const table
 *
 * Return: 0, so that a model's system function can end with it.
 */
static inline int bqlm_xsys_fill(struct bqlm_xsys *sys, const char *name,
				 size_t state_size, const void *ctx,
				 const struct bqlm_xops *ops)
{
	sys->name = name;
	sys->state_size = state_size;
	sys->ctx = ctx;
	sys->ops = ops;
	return 0;
}

/**
 * struct bqlm_xrun - what one step of a model did, from its run to its check
 * @ev: what the step did, for the invariants (struct bqlm_inv_counters.step)
 * @where: the modelled kernel function of the step
 * @queue: the queue the step acted on, for a model that checks each queue
 * @completing: the step ran a dql_completed() of its own on @queue
 */
struct bqlm_xrun {
	struct bqlm_inv_step ev;
	const char *where;
	unsigned int queue;
	bool completing;
};

/**
 * typedef bqlm_xrun_t - run one action of a model
 * @ctx: the configuration
 * @state: the state, changed in place
 * @action: the action
 * @r: receives what the step did (zeroed on entry)
 *
 * Return: 0, or a negative errno when @action is not enabled in @state.
 */
typedef int (*bqlm_xrun_t)(const void *ctx, void *state, unsigned int action,
			   struct bqlm_xrun *r);

/**
 * typedef bqlm_xcheck_t - the invariants after a step of a model
 * @ctx: the configuration
 * @state: the state after the step
 * @r: what the step did
 * @each: as for struct bqlm_xops.step, may be NULL
 *
 * Return: the mask of the violated checks.
 */
typedef unsigned int (*bqlm_xcheck_t)(const void *ctx, const void *state,
				      const struct bqlm_xrun *r,
				      struct bqlm_violation *each);

/**
 * bqlm_xstep_checked() - a model's struct bqlm_xops.step: run, then check
 * @ctx: the configuration
 * @to: the state (a copy of the state the action is taken in), changed
 *	in place
 * @action: the action
 * @each: as for struct bqlm_xops.step, may be NULL
 * @run: the model's dispatcher: runs the actor's step @action names
 * @check: the model's invariants on the state after the step
 *
 * A model's step callback is this call with its own @run and @check.
 *
 * Return: the mask of the checks the step violated, or -EINVAL when the
 * action is not enabled.
 */
static inline int bqlm_xstep_checked(const void *ctx, void *to,
				     unsigned int action,
				     struct bqlm_violation *each,
				     bqlm_xrun_t run, bqlm_xcheck_t check)
{
	struct bqlm_xrun r;

	__builtin_memset(&r, 0, sizeof(r));
	if (run(ctx, to, action, &r))
		return -EINVAL;
	return check(ctx, to, &r, each);
}

/**
 * typedef bqlm_xexternal_t - is an action the outside world's?
 * @ctx: the configuration
 * @state: the state the action is enabled in
 * @action: the action
 *
 * The outside world: the stack's next packet, an administrator, the PM
 * core, the watchdog; not an actor inside the kernel that will run on its
 * own.
 */
typedef bool (*bqlm_xexternal_t)(const void *ctx, const void *state,
				 unsigned int action);

/**
 * bqlm_xquiescent() - is nothing but the outside world enabled?
 * @ctx: the configuration
 * @state: the state
 * @actions: the actions enabled in it
 * @n: how many
 * @external: the model's test of one action
 *
 * A model's quiescent checks (a stall) are decided in such states only
 * (struct bqlm_xops.check_quiescent).
 *
 * Return: true when every action of @actions is external.
 */
static inline bool bqlm_xquiescent(const void *ctx, const void *state,
				   const unsigned int *actions, unsigned int n,
				   bqlm_xexternal_t external)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!external(ctx, state, actions[i]))
			return false;
	return true;
}

/**
 * bqlm_xops_check_state() - the checks a state violates, by a model's table
 * @ops: the model's table
 * @ctx: the configuration
 * @state: the state
 * @actions: the actions enabled in it
 * @n: how many
 * @each: as for struct bqlm_xops.step, may be NULL
 *
 * @ops->check_state, then, in a quiescent state (bqlm_xquiescent() by
 * @ops->external), @ops->check_quiescent.
 *
 * Return: the mask of the violated checks (0 for a model without state
 * checks), or a negative errno.
 */
static inline int bqlm_xops_check_state(const struct bqlm_xops *ops,
					const void *ctx, const void *state,
					const unsigned int *actions,
					unsigned int n,
					struct bqlm_violation *each)
{
	int mask = 0, q;

	if (ops->check_state) {
		mask = ops->check_state(ctx, state, actions, n, each);
		if (mask < 0)
			return mask;
	}
	if (!ops->check_quiescent ||
	    !bqlm_xquiescent(ctx, state, actions, n, ops->external))
		return mask;
	q = ops->check_quiescent(ctx, state, each);
	return q < 0 ? q : mask | q;
}

/**
 * bqlm_xops_checks_states() - has a model's table any state check?
 * @ops: the table
 *
 * Return: true if bqlm_xops_check_state() may find a violation.
 */
static inline bool bqlm_xops_checks_states(const struct bqlm_xops *ops)
{
	return ops->check_state || ops->check_quiescent;
}

/**
 * bqlm_xinit() - build a system's initial state
 * @sys: the system
 * @state: receives it, @sys->state_size bytes, zeroed
 */
static inline void bqlm_xinit(const struct bqlm_xsys *sys, void *state)
{
	sys->ops->init(sys->ctx, state);
}

/**
 * bqlm_xenabled() - the actions a system enables in a state
 * @sys: the system
 * @state: the state
 * @actions: receives them, room for BQLM_X_MAX_ACTIONS
 *
 * Return: how many.
 */
static inline unsigned int bqlm_xenabled(const struct bqlm_xsys *sys,
					 const void *state,
					 unsigned int *actions)
{
	return sys->ops->enabled(sys->ctx, state, actions);
}

/**
 * bqlm_xstep() - take one action of a system
 * @sys: the system
 * @from: the state the action is taken in
 * @action: the action
 * @to: a copy of @from on entry, the state after the step on return
 * @each: as for struct bqlm_xops.step, may be NULL
 *
 * Return: the mask of the checks the step violated, or a negative errno
 * when @action is not enabled in @from.
 */
static inline int bqlm_xstep(const struct bqlm_xsys *sys, const void *from,
			     unsigned int action, void *to,
			     struct bqlm_violation *each)
{
	return sys->ops->step(sys->ctx, from, action, to, each);
}

/**
 * bqlm_xcheck_state() - the checks a state violates
 * @sys: the system
 * @state: the state
 * @actions: the actions enabled in it (bqlm_xenabled())
 * @n: how many
 * @each: as for struct bqlm_xops.step, may be NULL
 *
 * Return: the mask of the violated checks (0 for a system without state
 * checks), or a negative errno.
 */
static inline int bqlm_xcheck_state(const struct bqlm_xsys *sys,
				    const void *state,
				    const unsigned int *actions, unsigned int n,
				    struct bqlm_violation *each)
{
	return bqlm_xops_check_state(sys->ops, sys->ctx, state, actions, n,
				     each);
}

/**
 * bqlm_xdescribe_action() - "actor: modelled kernel function" of an action
 * @sys: the system
 * @from: the state the action is taken in
 * @action: the action
 * @buf: the output
 * @len: its size
 *
 * Return: as snprintf().
 */
static inline int bqlm_xdescribe_action(const struct bqlm_xsys *sys,
					const void *from, unsigned int action,
					char *buf, size_t len)
{
	return sys->ops->describe_action(sys->ctx, from, action, buf, len);
}

/**
 * bqlm_xdescribe_state() - a state in one line
 * @sys: the system
 * @state: the state
 * @buf: the output
 * @len: its size
 *
 * Return: as snprintf().
 */
static inline int bqlm_xdescribe_state(const struct bqlm_xsys *sys,
				       const void *state, char *buf,
				       size_t len)
{
	return sys->ops->describe_state(sys->ctx, state, buf, len);
}

/**
 * bqlm_xcanon() - rewrite a state into its representative (symmetry)
 * @sys: the system; without a symmetry the state is left as it is
 * @state: the state
 */
static inline void bqlm_xcanon(const struct bqlm_xsys *sys, void *state)
{
	if (sys->ops->canon)
		sys->ops->canon(sys->ctx, state);
}

/**
 * struct bqlm_xbounds - how far to explore
 * @max_states: stop storing new states beyond this many (0: 1 << 24)
 * @max_depth: do not expand states at this depth (0: no bound); a bound
 *	turns the symmetry off, so that its figures are the full search's
 * @strict: treat every violation as fatal: explore only from states that
 *	were reached without any, so that each witness path is otherwise clean
 * @no_reduction: explore every state, ignoring the system's symmetry
 *	(the full search: the figures the docs and the suites give)
 * @max_memory: stop before the explorer's own memory (states, nodes, hash
 *	set) would pass this many bytes (0: BQLM_X_DEFAULT_MEMORY)
 */
struct bqlm_xbounds {
	unsigned int max_states;
	unsigned int max_depth;
	bool strict;
	bool no_reduction;
	u64 max_memory;
};

/* The memory bound when struct bqlm_xbounds.max_memory is 0: 4 GiB. */
#define BQLM_X_DEFAULT_MEMORY	(4ULL << 30)

/**
 * struct bqlm_xwitness - where a check was first violated
 * @depth: steps from the initial state to the violation (inclusive)
 * @state: the state the violating step started from, or the violating
 *	state itself when @action is BQLM_X_NO_ACTION
 * @action: the violating step's action, or BQLM_X_NO_ACTION
 * @v: the violation as the system described it
 */
struct bqlm_xwitness {
	unsigned int depth;
	unsigned int state;
	unsigned int action;
	struct bqlm_violation v;
};

/**
 * struct bqlm_xresult - what an exploration found
 * @states: distinct states stored
 * @transitions: steps taken (successful @step calls)
 * @max_depth: deepest state stored
 * @complete: every reachable state within the bounds was expanded (false
 *	when the state or memory bound stopped the search or memory ran out)
 * @depth_bounded: some state was left unexpanded at @max_depth
 * @reduced: the search was reduced (the system has a symmetry and the
 *	bounds allowed it)
 * @memory: bytes the explorer held at the end (states, nodes, hash set)
 * @violated: mask of the checks violated (BQLM_CHECK_BIT())
 * @w: for each check in @violated, its shallowest witness
 */
struct bqlm_xresult {
	u64 states;
	u64 transitions;
	unsigned int max_depth;
	bool complete;
	bool depth_bounded;
	bool reduced;
	u64 memory;
	unsigned int violated;
	struct bqlm_xwitness w[BQLM_CHECK_NR];
};

struct bqlm_explorer;

struct bqlm_explorer *bqlm_explorer_create(const struct bqlm_xsys *sys,
					   const struct bqlm_xbounds *bounds);
void bqlm_explorer_destroy(struct bqlm_explorer *x);
int bqlm_explore(struct bqlm_explorer *x, struct bqlm_xresult *res);
int bqlm_explorer_path(const struct bqlm_explorer *x, enum bqlm_check check,
		       unsigned int *actions, unsigned int max);
enum bqlm_check bqlm_xresult_verdict(const struct bqlm_xresult *res);

/**
 * typedef bqlm_xemit_t - receives one line of a trace
 * @arg: the caller's argument
 * @line: the line, without a newline
 */
typedef void (*bqlm_xemit_t)(void *arg, const char *line);

int bqlm_xtrace(const struct bqlm_xsys *sys, const unsigned int *actions,
		unsigned int n, bqlm_xemit_t emit, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_EXPLORE_H */
