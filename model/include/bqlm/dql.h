/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - dynamic queue limits, the model of Linux 6.12
 * include/linux/dynamic_queue_limits.h and lib/dynamic_queue_limits.c.
 *
 * The structure has the fields of struct dql with the same names and types,
 * so the unsigned wrap-around of every counter is the kernel's. The
 * functions take the jiffies value the kernel would read at that call as an
 * explicit @now argument: the model has no clock of its own.
 *
 * Where the kernel would BUG_ON() or WARN_ON_ONCE() the model returns a
 * negative code, leaves the structure untouched and records the violation in
 * @vlog when one is attached (see <bqlm/violation.h>).
 *
 * Like the kernel's, these functions do no locking: bqlm_dql_queued() calls
 * must be serialised among themselves, bqlm_dql_completed() calls too, and
 * the two may run concurrently with each other.
 */
#ifndef _BQLM_DQL_H
#define _BQLM_DQL_H

#include <bqlm/types.h>
#include <bqlm/violation.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BQLM_DQL_HIST_LEN	4
#define BQLM_DQL_MAX_OBJECT	(UINT_MAX / 16)
#define BQLM_DQL_MAX_LIMIT	((UINT_MAX / 2) - BQLM_DQL_MAX_OBJECT)

/**
 * struct bqlm_dql - the state of struct dql
 * @num_queued: total ever queued
 * @adj_limit: limit + num_completed
 * @last_obj_cnt: count at the last queuing
 * @stall_thrs: stall threshold in jiffies, 0 disables the stall detector
 * @history_head: jiffies / BITS_PER_LONG of the newest history word
 * @history: stall history, one bit per jiffy in which something was queued
 * @limit: current limit
 * @num_completed: total ever completed
 * @prev_ovlimit: over-limit amount of the previous interval
 * @prev_num_queued: num_queued at the previous completion
 * @prev_last_obj_cnt: last_obj_cnt at the previous completion
 * @lowest_slack: lowest slack seen since @slack_start_time
 * @slack_start_time: when slack measurement began (jiffies)
 * @max_limit: upper bound of @limit
 * @min_limit: lower bound of @limit
 * @slack_hold_time: how long slack is measured before the limit drops
 * @stall_max: longest stall detected (jiffies, truncated to 16 bits)
 * @last_reap: jiffies of the last completion
 * @stall_cnt: number of stalls detected
 * @vlog: model only: where rejected calls are described, may be NULL
 *
 * The kernel allocates its queues zeroed and dql_init() leaves @adj_limit,
 * @stall_max and @stall_cnt alone; so does bqlm_dql_init(). Zero the
 * structure before initialising it.
 */
struct bqlm_dql {
	unsigned int	num_queued;
	unsigned int	adj_limit;
	unsigned int	last_obj_cnt;
	unsigned short	stall_thrs;
	unsigned long	history_head;
	unsigned long	history[BQLM_DQL_HIST_LEN];

	unsigned int	limit;
	unsigned int	num_completed;
	unsigned int	prev_ovlimit;
	unsigned int	prev_num_queued;
	unsigned int	prev_last_obj_cnt;
	unsigned int	lowest_slack;
	unsigned long	slack_start_time;

	unsigned int	max_limit;
	unsigned int	min_limit;
	unsigned int	slack_hold_time;

	unsigned short	stall_max;
	unsigned long	last_reap;
	unsigned long	stall_cnt;

	struct bqlm_vlog *vlog;
};

/*
 * Every kernel-visible field of struct bqlm_dql (all of struct dql), in one
 * fixed order: a statement that evaluates X(field) for each. The digest,
 * the kernel conformance suite and the golden vectors all use this order.
 */
#define BQLM_DQL_FIELDS(X) ({						\
	X(num_queued); X(adj_limit); X(last_obj_cnt); X(stall_thrs);	\
	X(history_head); X(history[0]); X(history[1]); X(history[2]);	\
	X(history[3]); X(limit); X(num_completed); X(prev_ovlimit);	\
	X(prev_num_queued); X(prev_last_obj_cnt); X(lowest_slack);	\
	X(slack_start_time); X(max_limit); X(min_limit);		\
	X(slack_hold_time); X(stall_max); X(last_reap); X(stall_cnt);	\
})

void bqlm_dql_init(struct bqlm_dql *dql, unsigned int hold_time,
		   unsigned long now);
void bqlm_dql_reset(struct bqlm_dql *dql, unsigned long now);
int bqlm_dql_completed(struct bqlm_dql *dql, unsigned int count,
		       unsigned long now);
/* The violation reports, out of line, and the stall history update. */
int bqlm_dql_completed_too_much(struct bqlm_dql *dql, unsigned int count);
int bqlm_dql_queued_too_big(struct bqlm_dql *dql, unsigned int count);
void bqlm_dql_queue_stall(struct bqlm_dql *dql, unsigned long now);
int bqlm_dql_check_limit(const struct bqlm_dql *dql, const char *where);
u64 bqlm_dql_digest(const struct bqlm_dql *dql);

/*
 * As in the kernel, queueing and the avail check are inline (the transmit
 * path's fast path); dql_completed() and the violation report are out of
 * line.
 */

/**
 * bqlm_dql_queued() - model of dql_queued()
 * @dql: the queue
 * @count: objects (bytes) queued
 * @now: jiffies at the call
 *
 * Return: 0, or -E2BIG when @count exceeds DQL_MAX_OBJECT: there the kernel
 * warns once and does not count the object; so does the model, recording
 * the violation (bqlm_dql_queued_too_big()).
 */
static inline int bqlm_dql_queued(struct bqlm_dql *dql, unsigned int count,
				  unsigned long now)
{
	if (__builtin_expect(count > BQLM_DQL_MAX_OBJECT, 0))
		return bqlm_dql_queued_too_big(dql, count);
	dql->last_obj_cnt = count;
	dql->num_queued += count;
	if (dql->stall_thrs)
		bqlm_dql_queue_stall(dql, now);
	return 0;
}

/**
 * bqlm_dql_avail() - model of dql_avail()
 * @dql: the queue
 *
 * Return: how many objects may still be queued; negative when over limit.
 */
static inline int bqlm_dql_avail(const struct bqlm_dql *dql)
{
	return dql->adj_limit - dql->num_queued;
}

/**
 * bqlm_dql_inflight() - objects queued and not yet completed
 * @dql: the queue
 *
 * Return: num_queued - num_completed, with the kernel's wrap-around.
 */
static inline unsigned int bqlm_dql_inflight(const struct bqlm_dql *dql)
{
	return dql->num_queued - dql->num_completed;
}

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_DQL_H */
