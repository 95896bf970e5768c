/* SPDX-License-Identifier: GPL-2.0 */
/* The DQL workload of make bench, on the model and on the kernel's DQL. */
#ifndef _BQLM_DQL_LOOP_H
#define _BQLM_DQL_LOOP_H

#define DQL_LOOP_LEN	1514	/* bytes per packet */
#define DQL_LOOP_TICK	1024	/* rounds per jiffy */

/*
 * DQL_LOOP() - the workload, one source for both sides
 * @n: rounds
 * @over: counts the rounds that found the queue over its limit
 * @queued: queues one packet of DQL_LOOP_LEN bytes
 * @avail: the avail check, an int expression
 * @completed: completes that packet
 * @tick: advances the clock by one jiffy
 *
 * The clock ticks after every DQL_LOOP_TICK rounds, from an outer loop, so
 * that a round costs the same loop code on both sides whatever the clock
 * is: the model's is a local passed to each call, the kernel's the volatile
 * jiffies its DQL reads. A tick inside the round costed the model two
 * instructions a round more than the kernel (the compiler made the local's
 * conditional increment branch-free, the volatile one a test and a branch),
 * a difference of the harness, not of the DQL.
 */
#define DQL_LOOP(n, over, queued, avail, completed, tick)		\
do {									\
	unsigned int __i = 0, __end;					\
									\
	while (__i < (n)) {						\
		__end = (n) - __i > DQL_LOOP_TICK ?			\
			__i + DQL_LOOP_TICK : (n);			\
		for (; __i < __end; __i++) {				\
			queued;						\
			if ((avail) < 0)				\
				(over)++;				\
			completed;					\
		}							\
		tick;							\
	}								\
} while (0)

unsigned long kdql_loop(unsigned int n);
unsigned long mdql_loop(unsigned int n);

#endif /* _BQLM_DQL_LOOP_H */
