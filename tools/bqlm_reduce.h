/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlm - what the explorer's reduction saves, for bqlm bench
 * (tools/bqlm_reduce.c).
 */
#ifndef _BQLM_TOOLS_REDUCE_H
#define _BQLM_TOOLS_REDUCE_H

void bqlm_cli_reduction_bench(void);

#endif /* _BQLM_TOOLS_REDUCE_H */
