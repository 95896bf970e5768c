// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - model of lib/dynamic_queue_limits.c and the inline parts of
 * include/linux/dynamic_queue_limits.h (Linux 6.12).
 *
 * Each bqlm_dql_*() function performs the kernel function of the same name
 * on explicit state, with the jiffies value passed in as @now. The kernel
 * reads jiffies more than once per call; the model uses one value per call,
 * which is what the kernel computes whenever no tick falls inside the call.
 */
#include "bqlm_internal.h"
#include <bqlm/dql.h>

/* (a - b) if a is after b in 32-bit sequence space, else 0. */
static unsigned int bqlm_posdiff(unsigned int a, unsigned int b)
{
	return (int)(a - b) > 0 ? a - b : 0;
}

/* a is at or after b in 32-bit sequence space. */
static bool bqlm_after_eq(unsigned int a, unsigned int b)
{
	return (int)(a - b) >= 0;
}

/*
 * Model of dql_check_stall(). A stall is a span of at least @stall_thrs
 * jiffies without completions, in whose first half something was queued.
 * The history bitmap has one bit per jiffy over the last
 * BQLM_DQL_HIST_LEN * BITS_PER_LONG jiffies.
 *
 * The kernel re-reads history_head and retries when a concurrent
 * dql_queued() moved it during the search; in the model queueing is a step
 * of its own and never runs inside this one, so no retry is needed.
 *
 * For the same reason stall_thrs is read here and not, as the kernel does,
 * at the start of dql_completed() (to touch the queueing side's cache line
 * once): within one step both reads see the same value, and not keeping it
 * live through the limit computation spares bqlm_dql_completed() a saved
 * register (make bench: two instructions a completion).
 */
static void bqlm_dql_check_stall(struct bqlm_dql *dql, unsigned long now)
{
	const unsigned long span = BQLM_DQL_HIST_LEN * BITS_PER_LONG;
	unsigned short stall_thrs = dql->stall_thrs;
	unsigned long head, first, last, t;

	if (!stall_thrs)
		return;

	if (time_after_eq(now, dql->last_reap + stall_thrs)) {
		head = dql->history_head;

		/* Oldest jiffy the history word ring still remembers. */
		first = (head - BQLM_DQL_HIST_LEN + 1) * BITS_PER_LONG;
		/* Nothing before the previous completion is of interest. */
		if (time_before(first, dql->last_reap + 1))
			first = dql->last_reap + 1;

		/* Newest jiffy of the newest word... */
		last = head * BITS_PER_LONG + (BITS_PER_LONG - 1);
		/* ...unless that is inside the second half of the window. */
		if (time_before(now, last + stall_thrs / 2))
			last = now - stall_thrs / 2;

		/* Oldest jiffy in [first, last] at which something queued. */
		for (t = first; time_before_eq(t, last); t++)
			if (test_bit(t % span, dql->history))
				break;

		if (time_before_eq(t, last)) {
			dql->stall_cnt++;
			dql->stall_max = max_t(unsigned short, dql->stall_max,
					       now - t);
		}
	}
	dql->last_reap = now;
}

/**
 * bqlm_dql_completed_too_much() - the rejected dql_completed() of more than
 *	is in flight
 * @dql: the queue
 * @count: the objects the completion reported
 *
 * The kernel's BUG_ON() in dql_completed(), out of line so that the
 * completion itself costs what the kernel's does: records the violation,
 * changes nothing.
 *
 * Return: -ERANGE.
 */
noinline int bqlm_dql_completed_too_much(struct bqlm_dql *dql,
					 unsigned int count)
{
	return bqlm_vlog_report(dql->vlog, BQLM_CHECK_DQL_OVER_COMPLETION,
				-ERANGE, "dql_completed", count,
				dql->num_queued - dql->num_completed);
}

/**
 * bqlm_dql_completed() - model of dql_completed()
 * @dql: the queue
 * @count: objects (bytes) retired by this completion round
 * @now: jiffies at the call
 *
 * Retires @count objects and adapts the limit: grows it when the queue
 * starved while over the limit, shrinks it by the lowest slack seen once
 * slack_hold_time has passed, clamps it to [min_limit, max_limit], and runs
 * the stall detector.
 *
 * Return: 0, or -ERANGE when @count exceeds what is in flight: there the
 * kernel hits BUG_ON(); the model records the violation and changes nothing.
 */
int bqlm_dql_completed(struct bqlm_dql *dql, unsigned int count,
		       unsigned long now)
{
	unsigned int queued = dql->num_queued;
	unsigned int done, limit, ovlimit, inprogress, prev_inprogress;
	bool all_prev_done;

	if (unlikely(count > queued - dql->num_completed))
		return bqlm_dql_completed_too_much(dql, count);

	done = dql->num_completed + count;
	limit = dql->limit;
	ovlimit = bqlm_posdiff(queued - dql->num_completed, limit);
	inprogress = queued - done;
	prev_inprogress = dql->prev_num_queued - dql->num_completed;
	all_prev_done = bqlm_after_eq(done, dql->prev_num_queued);

	if ((ovlimit && !inprogress) ||
	    (dql->prev_ovlimit && all_prev_done)) {
		/*
		 * Starved: over the limit and now empty, or over the limit
		 * last time and everything queued then is done (so the
		 * queue may have run dry before this completion ran). Grow
		 * by what was queued and completed in the interval plus the
		 * previous over-limit.
		 */
		limit += bqlm_posdiff(done, dql->prev_num_queued) +
			 dql->prev_ovlimit;
		dql->slack_start_time = now;
		dql->lowest_slack = UINT_MAX;
	} else if (inprogress && prev_inprogress && !all_prev_done) {
		/*
		 * Busy for the whole interval: measure the slack, the excess
		 * over what was needed to stay busy, as the larger of
		 * limit + prev_ovlimit - 2 * completed-this-round and the
		 * part of the last queued object not covered by the previous
		 * over-limit. After slack_hold_time, shrink the limit by the
		 * lowest slack seen.
		 */
		unsigned int slack, slack_last;

		slack = bqlm_posdiff(limit + dql->prev_ovlimit,
				     2 * (done - dql->num_completed));
		slack_last = dql->prev_ovlimit ?
			bqlm_posdiff(dql->prev_last_obj_cnt,
				     dql->prev_ovlimit) : 0;
		slack = max(slack, slack_last);

		if (slack < dql->lowest_slack)
			dql->lowest_slack = slack;

		if (time_after(now, dql->slack_start_time +
				    dql->slack_hold_time)) {
			limit = bqlm_posdiff(limit, dql->lowest_slack);
			dql->slack_start_time = now;
			dql->lowest_slack = UINT_MAX;
		}
	}

	limit = clamp(limit, dql->min_limit, dql->max_limit);
	if (limit != dql->limit) {
		dql->limit = limit;
		ovlimit = 0;
	}

	dql->adj_limit = limit + done;
	dql->prev_ovlimit = ovlimit;
	dql->prev_last_obj_cnt = dql->last_obj_cnt;
	dql->num_completed = done;
	dql->prev_num_queued = queued;

	bqlm_dql_check_stall(dql, now);
	return 0;
}

/**
 * bqlm_dql_reset() - model of dql_reset()
 * @dql: the queue
 * @now: jiffies at the call
 *
 * Forgets everything in flight and restarts the limit at min_limit. Like
 * the kernel's, it leaves adj_limit, the configuration and the stall
 * statistics as they are.
 */
void bqlm_dql_reset(struct bqlm_dql *dql, unsigned long now)
{
	dql->limit = dql->min_limit;
	dql->num_queued = 0;
	dql->num_completed = 0;
	dql->last_obj_cnt = 0;
	dql->prev_num_queued = 0;
	dql->prev_last_obj_cnt = 0;
	dql->prev_ovlimit = 0;
	dql->lowest_slack = UINT_MAX;
	dql->slack_start_time = now;

	dql->last_reap = now;
	dql->history_head = now / BITS_PER_LONG;
	memset(dql->history, 0, sizeof(dql->history));
}

/**
 * bqlm_dql_init() - model of dql_init()
 * @dql: the queue, zeroed by the caller
 * @hold_time: slack hold time in jiffies
 * @now: jiffies at the call
 *
 * Sets the default bounds [0, DQL_MAX_LIMIT], disables the stall detector
 * and resets the queue.
 */
void bqlm_dql_init(struct bqlm_dql *dql, unsigned int hold_time,
		   unsigned long now)
{
	dql->max_limit = BQLM_DQL_MAX_LIMIT;
	dql->min_limit = 0;
	dql->slack_hold_time = hold_time;
	dql->stall_thrs = 0;
	bqlm_dql_reset(dql, now);
}

/**
 * bqlm_dql_queue_stall() - model of dql_queue_stall()
 * @dql: the queue
 * @now: jiffies at the call
 *
 * Marks jiffy @now in the history, clearing the words that the ring
 * reuses when @now moved past the newest one. bqlm_dql_queued() calls it
 * when the stall detector is on (stall_thrs set); the kernel inlines it.
 */
void bqlm_dql_queue_stall(struct bqlm_dql *dql, unsigned long now)
{
	unsigned long now_hi = now / BITS_PER_LONG;
	unsigned long i;

	if (now_hi != dql->history_head) {
		for (i = 0; i < BQLM_DQL_HIST_LEN; i++) {
			/* Compare jiffies, so high bits wrap alike. */
			if (now_hi * BITS_PER_LONG ==
			    (dql->history_head + i) * BITS_PER_LONG)
				break;
			dql->history[(dql->history_head + i + 1) %
				     BQLM_DQL_HIST_LEN] = 0;
		}
		dql->history_head = now_hi;
	}
	dql->history[now_hi % BQLM_DQL_HIST_LEN] |= BIT_MASK(now);
}

/**
 * bqlm_dql_queued_too_big() - the rejected dql_queued() of an object above
 *	DQL_MAX_OBJECT
 * @dql: the queue
 * @count: the object
 *
 * The out-of-line part of bqlm_dql_queued(): the kernel's WARN_ON_ONCE();
 * records the violation, changes nothing.
 *
 * Return: -E2BIG.
 */
int bqlm_dql_queued_too_big(struct bqlm_dql *dql, unsigned int count)
{
	return bqlm_vlog_report(dql->vlog, BQLM_CHECK_DQL_OBJECT_TOO_BIG,
				-E2BIG, "dql_queued", count,
				BQLM_DQL_MAX_OBJECT);
}

/**
 * bqlm_dql_check_limit() - invariant: limit within [min_limit, max_limit]
 * @dql: the queue
 * @where: the modelled function after which the check runs
 *
 * The kernel clamps the limit on every completion; a sysfs write of
 * limit_min/limit_max only takes effect at the next one, so check after
 * completions and resets, not after configuration changes.
 *
 * Return: 0, or -EDOM with the violation recorded.
 */
int bqlm_dql_check_limit(const struct bqlm_dql *dql, const char *where)
{
	bool low = dql->limit < dql->min_limit;

	if (!low && dql->limit <= dql->max_limit)
		return 0;
	return bqlm_vlog_report(dql->vlog, BQLM_CHECK_DQL_LIMIT_BOUNDS, -EDOM,
				where, dql->limit,
				low ? dql->min_limit : dql->max_limit);
}

/**
 * bqlm_dql_digest() - a host-independent digest of the kernel-visible state
 * @dql: the queue
 *
 * Folds every field of struct dql (not @vlog) into a 64-bit FNV-1a digest.
 * Equal states give equal digests on every host of the same BITS_PER_LONG.
 *
 * Return: the digest.
 */
u64 bqlm_dql_digest(const struct bqlm_dql *dql)
{
	u64 h = BQLM_FNV_OFFSET;

#define BQLM_DQL_FOLD(f)	(h = bqlm_fnv_u64(h, dql->f))
	BQLM_DQL_FIELDS(BQLM_DQL_FOLD);
#undef BQLM_DQL_FOLD
	return h;
}
