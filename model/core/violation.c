// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the violation record shared by every model and invariant.
 *
 * This file has no kernel counterpart: it is how the model says "here the
 * kernel would BUG, WARN or misbehave" without crashing.
 */
#include "bqlm_internal.h"
#include <bqlm/violation.h>

static const struct {
	const char *name;
	const char *effect;
} bqlm_checks[BQLM_CHECK_NR] = {
	[BQLM_CHECK_NONE] = { "none", "nothing" },
	[BQLM_CHECK_DQL_OBJECT_TOO_BIG] = {
		"dql-object-too-big",
		"WARNING in dql_queued (count > DQL_MAX_OBJECT), object not counted" },
	[BQLM_CHECK_DQL_OVER_COMPLETION] = {
		"dql-over-completion",
		"kernel BUG at lib/dynamic_queue_limits.c (dql_completed: count > num_queued - num_completed)" },
	[BQLM_CHECK_DQL_LIMIT_BOUNDS] = {
		"dql-limit-bounds",
		"DQL limit outside [min_limit, max_limit]" },
	[BQLM_CHECK_BYTE_BALANCE] = {
		"byte-balance",
		"BQL byte balance broken: completed > sent, or sent != completed + in flight" },
	[BQLM_CHECK_RESET_ON_STOP] = {
		"reset-on-stop",
		"bytes sent before netdev_tx_reset_queue() completed after it" },
	[BQLM_CHECK_SERIAL_COMPLETION] = {
		"serial-completion",
		"two dql_completed() in progress at once (unserialised completions)" },
	[BQLM_CHECK_SERIAL_PRODUCER] = {
		"serial-producer",
		"two dql_queued() in progress at once (unserialised producers)" },
	[BQLM_CHECK_SKB_ACCOUNTING] = {
		"skb-accounting",
		"an skb was accounted twice, never, or with different lengths" },
	[BQLM_CHECK_STALL] = {
		"stall",
		"transmit queue stopped forever: nothing left that can wake it" },
	[BQLM_CHECK_BAD_CALL] = {
		"bad-call",
		"API call with invalid arguments rejected" },
	[BQLM_CHECK_BACKPRESSURE_DROP] = {
		"backpressure-drop",
		"packet dropped on a full ring although the queue should have been stopped instead" },
	[BQLM_CHECK_WAKE_ON_RECONFIG] = {
		"wake-on-reconfig",
		"queue left stopped by attach/resize/reconfiguration: nothing wakes it" },
	[BQLM_CHECK_FREED_BUSY] = {
		"freed-busy",
		"free_netdev() with a bottom half or timer still queued or running (it runs on freed memory) or skbs still on the device's queues (leaked)" },
	[BQLM_CHECK_SUSPEND_COUNT] = {
		"suspend-count",
		"usbnet's suspend_count out of step with the USB core: the core holds the interface suspended while usbnet is not, or awake while usbnet is (EVENT_DEV_ASLEEP: every transmit deferred, nothing resumes it), or a resume took the count below 0 (255, an unsigned char: later suspends neither detach the device nor terminate its URBs)" },
	[BQLM_CHECK_RING_OVERRUN] = {
		"ring-overrun",
		"ndo_start_xmit() wrote descriptors over ones still in use on its ring: the device sends a corrupted frame, the overwritten skb is never freed" },
	[BQLM_CHECK_WRONG_QUEUE] = {
		"wrong-queue",
		"the driver stopped or woke a tx queue other than the one whose ring filled or was cleaned: that ring's queue is left awake on a full ring, or another stopped with room" },
	[BQLM_CHECK_ABOVE_SENT] = {
		"above-sent",
		"a packet completed with more bytes than netdev_tx_sent_queue() was given for it: BQL's in-flight count drifts low, until dql_completed()'s BUG_ON" },
};

/**
 * bqlm_vlog_init() - empty a violation log
 * @log: the log
 */
void bqlm_vlog_init(struct bqlm_vlog *log)
{
	memset(log, 0, sizeof(*log));
}

/**
 * bqlm_vlog_report() - record a violation
 * @log: the log, may be NULL (then nothing is recorded)
 * @check: which check failed
 * @err: the negative code the failing call returns
 * @where: the modelled kernel function, a string literal
 * @a: first figure compared
 * @b: second figure compared
 *
 * Only the first violation is kept in detail; later ones are counted.
 *
 * Return: @err, so that a caller can write "return bqlm_vlog_report(...)".
 */
int bqlm_vlog_report(struct bqlm_vlog *log, enum bqlm_check check, int err,
		     const char *where, u64 a, u64 b)
{
	if (!log)
		return err;
	if (!log->count++) {
		log->first.check = check;
		log->first.err = err;
		log->first.where = where;
		log->first.val[0] = a;
		log->first.val[1] = b;
	}
	return err;
}

/**
 * bqlm_check_name() - short, stable name of a check
 * @check: the check
 *
 * Return: a name such as "dql-over-completion", or "unknown".
 */
const char *bqlm_check_name(enum bqlm_check check)
{
	return bqlm_name(BQLM_NAMES_OF(bqlm_checks, name), check, "unknown");
}

/**
 * bqlm_check_kernel_effect() - what the kernel does when the check fails
 * @check: the check
 *
 * Return: one line describing the kernel's behaviour, or "unknown".
 */
const char *bqlm_check_kernel_effect(enum bqlm_check check)
{
	return bqlm_name(BQLM_NAMES_OF(bqlm_checks, effect), check, "unknown");
}

/**
 * bqlm_violation_format() - describe a violation in one line
 * @buf: output buffer
 * @len: size of @buf
 * @v: the violation
 *
 * Return: as snprintf().
 */
int bqlm_violation_format(char *buf, size_t len,
			  const struct bqlm_violation *v)
{
	return snprintf(buf, len, "%s in %s (%llu vs %llu, err %d): %s",
			bqlm_check_name(v->check),
			v->where ? v->where : "?", v->val[0], v->val[1], v->err,
			bqlm_check_kernel_effect(v->check));
}
