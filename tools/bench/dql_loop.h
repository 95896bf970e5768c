/* SPDX-License-Identifier: GPL-2.0 */
/* The DQL workload of make bench, on the model and on the kernel's DQL. */
#ifndef _BQLM_DQL_LOOP_H
#define _BQLM_DQL_LOOP_H

#define DQL_LOOP_LEN	1514	/* bytes per packet */

unsigned long kdql_loop(unsigned int n);
unsigned long mdql_loop(unsigned int n);

#endif /* _BQLM_DQL_LOOP_H */
