// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the BQL invariants shared by every driver model.
 *
 * This file has no kernel counterpart: it states what the kernel's BQL
 * users must guarantee and reports, through the violation record, where a
 * modelled driver does not.
 */
#include "bqlm_internal.h"
#include <bqlm/invariants.h>

/* Where one call of bqlm_inv_check() reports. */
struct bqlm_inv_out {
	struct bqlm_vlog *log;
	struct bqlm_violation *each;
	unsigned int mask;
};

/* Report @check unless it already was; record it in @out. */
static void bqlm_inv_report(struct bqlm_inv_out *out, enum bqlm_check check,
			    int err, const char *where, u64 a, u64 b)
{
	struct bqlm_violation *v;

	if (out->mask & BQLM_CHECK_BIT(check))
		return;
	out->mask |= BQLM_CHECK_BIT(check);
	bqlm_vlog_report(out->log, check, err, where, a, b);
	if (!out->each)
		return;
	v = &out->each[check];
	v->check = check;
	v->err = err;
	v->where = where;
	v->val[0] = a;
	v->val[1] = b;
}

/* A count of struct bqlm_inv_step that, when not 0, violates a check. */
struct bqlm_inv_count {
	size_t off;
	enum bqlm_check check;
	int err;
};

#define BQLM_INV_COUNT(field, chk, e) \
	{ offsetof(struct bqlm_inv_step, field), BQLM_CHECK_##chk, -e }

/* In the order they are reported. */
static const struct bqlm_inv_count bqlm_inv_counts[] = {
	BQLM_INV_COUNT(stale_bytes, RESET_ON_STOP, ESTALE),
	BQLM_INV_COUNT(unsent_skbs, SKB_ACCOUNTING, ENOENT),
	BQLM_INV_COUNT(len_mismatch, SKB_ACCOUNTING, EINVAL),
	BQLM_INV_COUNT(twice, SKB_ACCOUNTING, EEXIST),
	BQLM_INV_COUNT(lost, SKB_ACCOUNTING, ENOENT),
	BQLM_INV_COUNT(bp_drops, BACKPRESSURE_DROP, ENOBUFS),
	BQLM_INV_COUNT(reconfig_stopped, WAKE_ON_RECONFIG, EAGAIN),
	BQLM_INV_COUNT(after_free, FREED_BUSY, EFAULT),
};

/* What the step did to individual skbs and to the DQL. */
static void bqlm_inv_check_step(const struct bqlm_inv_counters *c,
				struct bqlm_inv_out *out)
{
	const struct bqlm_inv_step *s = &c->step;
	const struct bqlm_inv_count *k;
	unsigned int i, n;

	if (s->dql_err == -ERANGE)
		bqlm_inv_report(out, BQLM_CHECK_DQL_OVER_COMPLETION,
				-ERANGE, c->where, s->dql_val[0],
				s->dql_val[1]);
	else if (s->dql_err == -E2BIG)
		bqlm_inv_report(out, BQLM_CHECK_DQL_OBJECT_TOO_BIG,
				-E2BIG, c->where, s->dql_val[0],
				s->dql_val[1]);
	for (i = 0; i < ARRAY_SIZE(bqlm_inv_counts); i++) {
		k = &bqlm_inv_counts[i];
		n = *(const unsigned int *)((const char *)s + k->off);
		if (n)
			bqlm_inv_report(out, k->check, k->err, c->where, n, 0);
	}
	/* the ring's view of a transmit, a stop or wake, a packet's bytes */
	if (s->overrun)
		bqlm_inv_report(out, BQLM_CHECK_RING_OVERRUN, -ENOSPC,
				c->where, s->overrun + s->overrun_free,
				s->overrun_free);
	if (s->wrong_queue)
		bqlm_inv_report(out, BQLM_CHECK_WRONG_QUEUE, -EXDEV, c->where,
				s->wrong_queue_q, s->wrong_queue_ring);
	if (s->above_sent)
		bqlm_inv_report(out, BQLM_CHECK_ABOVE_SENT, -ERANGE, c->where,
				s->above_sent_done, s->above_sent_len);
}

/* The queue's counters against the driver's own truth. */
static void bqlm_inv_check_balance(const struct bqlm_inv_counters *c,
				   struct bqlm_inv_out *out)
{
	const struct bqlm_dql *dql = c->dql;
	unsigned int queued = dql->num_queued;
	unsigned int completed = dql->num_completed;

	/* counters wrap: "completed <= queued" in sequence space */
	if ((int)(queued - completed) < 0)
		bqlm_inv_report(out, BQLM_CHECK_BYTE_BALANCE, -ERANGE,
				c->where, completed, queued);
	else if (queued - completed != c->inflight)
		bqlm_inv_report(out, BQLM_CHECK_BYTE_BALANCE, -EBADMSG,
				c->where, queued - completed, c->inflight);

	if (bqlm_dql_check_limit(dql, c->where))
		bqlm_inv_report(out, BQLM_CHECK_DQL_LIMIT_BOUNDS, -EDOM,
				c->where, dql->limit,
				dql->limit < dql->min_limit ? dql->min_limit :
							      dql->max_limit);
}

/**
 * bqlm_inv_check() - check every BQL invariant on one observation
 * @c: the observation, filled by the driver model after a step
 * @log: where violations are described, may be NULL
 * @each: may be NULL; else an array of BQLM_CHECK_NR entries, in which the
 *	entry of each violated check receives its description
 *
 * Each violated invariant is reported once, in this order: over-completion
 * (or an object too big), reset-on-stop, skb accounting, serialised
 * completions, serialised producers, byte balance, limit bounds, stall. So
 * the first violation in @log is the kernel's most immediate symptom (the
 * BUG_ON()) when there is one, and the others name its causes.
 *
 * When @c->bql is false (a driver that does not use BQL) only the stall
 * check runs.
 *
 * Return: the mask of violated checks (BQLM_CHECK_BIT() of each), 0 if all
 * hold.
 */
unsigned int bqlm_inv_check(const struct bqlm_inv_counters *c,
			    struct bqlm_vlog *log, struct bqlm_violation *each)
{
	struct bqlm_inv_out out = { .log = log, .each = each };

	if (c->bql) {
		bqlm_inv_check_step(c, &out);
		if (c->completions > 1)
			bqlm_inv_report(&out, BQLM_CHECK_SERIAL_COMPLETION,
					-EBUSY, c->where, c->completions, 1);
		if (c->producers > 1)
			bqlm_inv_report(&out, BQLM_CHECK_SERIAL_PRODUCER,
					-EBUSY, c->where, c->producers, 1);
		bqlm_inv_check_balance(c, &out);
	}
	if (c->quiescent && c->wants_tx && c->stopped)
		bqlm_inv_report(&out, BQLM_CHECK_STALL, -EAGAIN, c->where,
				c->dql ? bqlm_dql_inflight(c->dql) : 0,
				c->inflight);
	return out.mask;
}

/**
 * bqlm_inv_check_stall() - the check of a quiescent state: a stall
 * @dql: the queue's DQL, may be NULL (the report names its figures)
 * @inflight: ground truth, as struct bqlm_inv_counters.inflight
 * @wants_tx: as struct bqlm_inv_counters.wants_tx
 * @stopped: as struct bqlm_inv_counters.stopped
 * @each: as for bqlm_inv_check(), may be NULL
 *
 * bqlm_inv_check() of a quiescent state ("quiescent state") for a model
 * whose only check on a state is the stall.
 *
 * Return: BQLM_CHECK_BIT(BQLM_CHECK_STALL) on a stall, else 0.
 */
unsigned int bqlm_inv_check_stall(const struct bqlm_dql *dql,
				  unsigned int inflight, bool wants_tx,
				  bool stopped, struct bqlm_violation *each)
{
	struct bqlm_inv_counters c;

	memset(&c, 0, sizeof(c));
	c.where = "quiescent state";
	c.dql = dql;
	c.inflight = inflight;
	c.quiescent = true;
	c.wants_tx = wants_tx;
	c.stopped = stopped;
	return bqlm_inv_check(&c, NULL, each);
}

/**
 * bqlm_inv_fatal() - whether a violation ends the modelled execution
 * @check: the violated check
 *
 * An over-completion is the kernel's BUG_ON(): nothing runs after it. Two
 * dql_completed() (or dql_queued()) calls in progress at once race on the
 * DQL's fields; the model does not say which of their writes survive, so
 * what follows is not modelled either. A stall is a state with no way out.
 * A ring overrun leaves a ring the model cannot describe (more descriptors
 * in use than it has).
 * The other violations leave the kernel running with wrong figures, and an
 * explorer should go on to find where that leads.
 *
 * Return: true if no step should follow a state that violates @check.
 */
bool bqlm_inv_fatal(enum bqlm_check check)
{
	switch (check) {
	case BQLM_CHECK_DQL_OVER_COMPLETION:
	case BQLM_CHECK_SERIAL_COMPLETION:
	case BQLM_CHECK_SERIAL_PRODUCER:
	case BQLM_CHECK_STALL:
	case BQLM_CHECK_RING_OVERRUN:
		return true;
	default:
		return false;
	}
}
