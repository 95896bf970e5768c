/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the violation record.
 *
 * Every place where the kernel would BUG_ON(), WARN_ON_ONCE() or silently
 * misbehave, and every invariant the model checks, is reported the same way:
 * the call that hit it returns a negative errno-style code, leaves the state
 * it was given untouched, and (when the caller asked for it) describes what
 * happened in a struct bqlm_violation kept in a struct bqlm_vlog.
 *
 * A vlog only counts and keeps the first violation in detail: the first one
 * is the one a trace explains, later ones are usually its consequences.
 */
#ifndef _BQLM_VIOLATION_H
#define _BQLM_VIOLATION_H

#include <bqlm/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum bqlm_check - the checks the model performs
 * @BQLM_CHECK_NONE: no violation
 * @BQLM_CHECK_DQL_OBJECT_TOO_BIG: dql_queued() with count > DQL_MAX_OBJECT;
 *	the kernel warns once and does not count the object
 * @BQLM_CHECK_DQL_OVER_COMPLETION: dql_completed() with more than is in
 *	flight; the kernel hits BUG_ON() in lib/dynamic_queue_limits.c
 * @BQLM_CHECK_DQL_LIMIT_BOUNDS: the DQL limit left [min_limit, max_limit]
 * @BQLM_CHECK_BYTE_BALANCE: bytes completed exceed bytes sent, or sent is
 *	not completed + in flight
 * @BQLM_CHECK_RESET_ON_STOP: a completion of bytes sent before a queue reset
 *	was counted after it
 * @BQLM_CHECK_SERIAL_COMPLETION: two dql_completed() calls in progress at
 *	once on the same queue
 * @BQLM_CHECK_SERIAL_PRODUCER: two dql_queued() calls in progress at once
 * @BQLM_CHECK_SKB_ACCOUNTING: an skb was sent or completed twice, never, or
 *	with different lengths on the two sides
 * @BQLM_CHECK_STALL: a quiescent state with the queue stopped and nothing
 *	left that can wake it
 * @BQLM_CHECK_BAD_CALL: an API call with arguments the model rejects
 * @BQLM_CHECK_BACKPRESSURE_DROP: a packet dropped on a full ring while the
 *	driver's backpressure (stop instead of drop) was in force, with no
 *	documented race to explain it
 * @BQLM_CHECK_WAKE_ON_RECONFIG: a queue left stopped (or its wake counter
 *	not reset) by an attach, resize or reconfiguration that must wake it
 * @BQLM_CHECK_FREED_BUSY: the device was freed (free_netdev()) with a
 *	bottom half queued or running or its timer armed, which then run on
 *	freed memory, or with skbs and their URBs still on its queues, which
 *	are leaked
 * @BQLM_CHECK_SUSPEND_COUNT: usbnet's dev->suspend_count is out of step
 *	with the USB core's view of the interface: the core holds it
 *	suspended while usbnet is not (a minidriver's suspend() returned 0
 *	when usbnet_suspend() refused), holds it awake while usbnet is
 *	suspended (a suspend() that failed after usbnet_suspend() and
 *	resumed nothing), or a resume took the count below 0 (it wraps)
 * @BQLM_CHECK_RING_OVERRUN: a transmit wrote descriptors over ones still in
 *	use on its ring (owned by the device, or completed and not yet
 *	cleaned): more than the ring's free descriptors
 * @BQLM_CHECK_WRONG_QUEUE: the driver's ring-full stop or its completion's
 *	wake acted on a netdev queue other than the one whose ring filled or
 *	was cleaned
 * @BQLM_CHECK_ABOVE_SENT: a packet completed with more bytes than it was
 *	reported sent with (the per-packet byte balance; dql_completed()'s
 *	BUG_ON() sees it only once the queue's sum goes below zero)
 * @BQLM_CHECK_NR: number of checks
 */
enum bqlm_check {
	BQLM_CHECK_NONE = 0,
	BQLM_CHECK_DQL_OBJECT_TOO_BIG,
	BQLM_CHECK_DQL_OVER_COMPLETION,
	BQLM_CHECK_DQL_LIMIT_BOUNDS,
	BQLM_CHECK_BYTE_BALANCE,
	BQLM_CHECK_RESET_ON_STOP,
	BQLM_CHECK_SERIAL_COMPLETION,
	BQLM_CHECK_SERIAL_PRODUCER,
	BQLM_CHECK_SKB_ACCOUNTING,
	BQLM_CHECK_STALL,
	BQLM_CHECK_BAD_CALL,
	BQLM_CHECK_BACKPRESSURE_DROP,
	BQLM_CHECK_WAKE_ON_RECONFIG,
	BQLM_CHECK_FREED_BUSY,
	BQLM_CHECK_SUSPEND_COUNT,
	BQLM_CHECK_RING_OVERRUN,
	BQLM_CHECK_WRONG_QUEUE,
	BQLM_CHECK_ABOVE_SENT,
	BQLM_CHECK_NR
};

/**
 * struct bqlm_violation - one violation, described
 * @check: which check failed
 * @err: the negative errno-style code the failing call returned
 * @where: the modelled kernel function that hit it (a string literal)
 * @val: the two figures that were compared (e.g. count and in flight)
 */
struct bqlm_violation {
	enum bqlm_check check;
	int err;
	const char *where;
	u64 val[2];
};

/**
 * struct bqlm_vlog - where violations are recorded
 * @count: number of violations recorded since bqlm_vlog_init()
 * @first: the first one, in detail (valid when @count > 0)
 */
struct bqlm_vlog {
	unsigned int count;
	struct bqlm_violation first;
};

void bqlm_vlog_init(struct bqlm_vlog *log);
int bqlm_vlog_report(struct bqlm_vlog *log, enum bqlm_check check, int err,
		     const char *where, u64 a, u64 b);
const char *bqlm_check_name(enum bqlm_check check);
const char *bqlm_check_kernel_effect(enum bqlm_check check);
int bqlm_violation_format(char *buf, size_t len,
			  const struct bqlm_violation *v);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_VIOLATION_H */
