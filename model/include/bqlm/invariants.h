/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the BQL invariants, one checker for every driver model.
 *
 * A driver model (usbnet, tun, ...) keeps its own ground truth next to the
 * struct bqlm_dql it drives: which bytes it has handed to the device since
 * the last netdev_tx_reset_queue(), which skbs it reported to BQL and with
 * which length. After each step it fills a struct bqlm_inv_counters with
 * that truth, what the step did (struct bqlm_inv_step) and the queue, and
 * calls bqlm_inv_check(), which compares the three and reports every
 * violated invariant in a struct bqlm_vlog.
 *
 * The invariants:
 *  - no over-completion: no dql_completed() of more than is in flight (the
 *    kernel's BUG_ON() in lib/dynamic_queue_limits.c);
 *  - reset-on-stop: no completion of bytes sent before the last reset is
 *    counted after it;
 *  - serialised completions and producers: at most one dql_completed() and
 *    one dql_queued() in progress at a time;
 *  - byte balance: completed <= queued since the last reset, and queued -
 *    completed equals the bytes the driver has in flight;
 *  - skb accounting: every skb reported sent once and completed once, with
 *    the same length on both sides;
 *  - DQL limit within [min_limit, max_limit];
 *  - no permanent stall: a state in which nothing but the outside world can
 *    act, the device is up and wants to send, and the queue is stopped;
 *  - no ring overrun: no descriptor written over one still in use;
 *  - the right queue: a driver's stop or wake acts on the queue whose ring
 *    filled or was cleaned;
 *  - per-packet balance: no packet completed with more bytes than it was
 *    reported sent with.
 */
#ifndef _BQLM_INVARIANTS_H
#define _BQLM_INVARIANTS_H

#include <bqlm/types.h>
#include <bqlm/dql.h>
#include <bqlm/violation.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * BQLM_CHECK_BIT() - the bit of a check in a mask of checks
 * @c: an enum bqlm_check
 */
#define BQLM_CHECK_BIT(c)	(1U << (c))

/**
 * struct bqlm_inv_step - what one step of a driver model did
 * @dql_err: what the step's dql_completed()/dql_queued() call returned (0,
 *	-ERANGE for an over-completion, -E2BIG for an object too big)
 * @dql_val: the two figures behind @dql_err (count and in flight)
 * @stale_bytes: bytes of skbs sent before the last reset that this step
 *	reported complete
 * @unsent_skbs: skbs this step reported complete that were never reported
 *	sent (in any epoch)
 * @len_mismatch: skbs this step reported complete with a length other than
 *	the one they were reported sent with
 * @twice: skbs this step reported sent or complete a second time
 * @lost: skbs this step freed after reporting them sent in the current
 *	epoch, without reporting them complete
 * @bp_drops: packets this step dropped on a full ring while backpressure
 *	was in force and no documented race explains it
 * @reconfig_stopped: queues this step (an attach, resize or
 *	reconfiguration that must wake them) left stopped or not reset
 * @after_free: what could still act on a device this step freed (its
 *	bottom halves queued or running, its armed timer, the skbs it held)
 * @overrun: descriptors this step wrote over ones still in use on a ring
 * @overrun_free: the free descriptors the ring had for that write
 * @wrong_queue: stops or wakes this step made on a queue other than the
 *	one whose ring filled or was cleaned
 * @wrong_queue_q: the queue the first of them acted on
 * @wrong_queue_ring: the queue whose ring it was for
 * @above_sent: packets this step reported complete with more bytes than
 *	they were reported sent with
 * @above_sent_done: the bytes the first of them completed with
 * @above_sent_len: the bytes it was reported sent with
 */
struct bqlm_inv_step {
	int dql_err;
	u64 dql_val[2];
	unsigned int stale_bytes;
	unsigned int unsent_skbs;
	unsigned int len_mismatch;
	unsigned int twice;
	unsigned int lost;
	unsigned int bp_drops;
	unsigned int reconfig_stopped;
	unsigned int after_free;
	unsigned int overrun;
	unsigned int overrun_free;
	unsigned int wrong_queue;
	unsigned int wrong_queue_q;
	unsigned int wrong_queue_ring;
	unsigned int above_sent;
	unsigned int above_sent_done;
	unsigned int above_sent_len;
};

/**
 * struct bqlm_inv_counters - one observation of a driver model
 * @where: the modelled kernel function the step ran (a string literal)
 * @bql: the driver accounts with BQL; when false only the stall check runs
 * @dql: the queue's DQL
 * @inflight: ground truth: bytes handed to the device since the last reset
 *	and not yet reported complete
 * @completions: dql_completed() calls in progress on the queue
 * @producers: dql_queued() calls in progress on the queue
 * @quiescent: nothing but the outside world (the stack, the administrator,
 *	the PM core, the watchdog) can act in this state
 * @wants_tx: the device is up, present and awake: a stopped queue there
 *	means packets are held back
 * @stopped: the queue is stopped in a way nothing inside the model can
 *	undo (the model decides which XOFF bits count)
 * @step: what the step did
 */
struct bqlm_inv_counters {
	const char *where;
	bool bql;
	const struct bqlm_dql *dql;
	unsigned int inflight;
	unsigned int completions;
	unsigned int producers;
	bool quiescent;
	bool wants_tx;
	bool stopped;
	struct bqlm_inv_step step;
};

unsigned int bqlm_inv_check(const struct bqlm_inv_counters *c,
			    struct bqlm_vlog *log, struct bqlm_violation *each);
unsigned int bqlm_inv_check_stall(const struct bqlm_dql *dql,
				  unsigned int inflight, bool wants_tx,
				  bool stopped, struct bqlm_violation *each);
bool bqlm_inv_fatal(enum bqlm_check check);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_INVARIANTS_H */
