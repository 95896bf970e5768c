// SPDX-License-Identifier: GPL-2.0
/*
 * dql-insns model|kernel N - run N rounds of the DQL workload (queue one
 * packet, check avail, complete it; a jiffy every 1024 rounds) on the
 * model or on the kernel's own DQL, for counting instructions under
 * callgrind (--toggle-collect=mdql_loop or kdql_loop): see
 * scripts/dql-insns.sh, run by make bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bqlm/dql.h>

#include "dql_loop.h"

/**
 * mdql_loop() - @n rounds of the workload on the model
 * @n: rounds
 *
 * Return: as kdql_loop().
 */
unsigned long mdql_loop(unsigned int n)
{
	static struct bqlm_dql dql;
	unsigned long now = 1000, over = 0;

	memset(&dql, 0, sizeof(dql));
	bqlm_dql_init(&dql, 1000, now);
	DQL_LOOP(n, over, bqlm_dql_queued(&dql, DQL_LOOP_LEN, now),
		 bqlm_dql_avail(&dql),
		 bqlm_dql_completed(&dql, DQL_LOOP_LEN, now), now++);
	return dql.limit + over;
}

int main(int argc, char **argv)
{
	unsigned long n = argc == 3 ? strtoul(argv[2], NULL, 10) : 0;

	if (!n || n > 100000000 || (strcmp(argv[1], "model") &&
				    strcmp(argv[1], "kernel"))) {
		fprintf(stderr, "usage: dql-insns model|kernel ROUNDS\n");
		return 2;
	}
	printf("%lu\n", !strcmp(argv[1], "model") ? mdql_loop(n) :
	       kdql_loop(n));
	return 0;
}
