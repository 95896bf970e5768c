// SPDX-License-Identifier: GPL-2.0
/*
 * The DQL workload of make bench on the kernel's own DQL (built from the
 * unpacked tree with kshim.h): dql_queued(), dql_avail(), dql_completed().
 */
#include <linux/dynamic_queue_limits.h>

#include "dql_loop.h"

volatile unsigned long jiffies = 1000;

/**
 * kdql_loop() - @n rounds of the workload on a kernel struct dql
 * @n: rounds
 *
 * Return: the final limit and the rounds that found the queue over its
 * limit, folded, so that nothing can be optimised away.
 */
unsigned long kdql_loop(unsigned int n)
{
	static struct dql dql;
	unsigned long over = 0;

	memset(&dql, 0, sizeof(dql));
	dql_init(&dql, 1000);
	DQL_LOOP(n, over, dql_queued(&dql, DQL_LOOP_LEN), dql_avail(&dql),
		 dql_completed(&dql, DQL_LOOP_LEN), jiffies++);
	return dql.limit + over;
}
