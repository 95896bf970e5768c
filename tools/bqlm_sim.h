/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlm - the sim command (tools/bqlm_sim.c).
 */
#ifndef _BQLM_TOOLS_SIM_H
#define _BQLM_TOOLS_SIM_H

#include <stdio.h>

void bqlm_cli_sim_usage(FILE *f);
int bqlm_cli_sim(int argc, char **argv);
void bqlm_cli_sim_bench(void);

#endif /* _BQLM_TOOLS_SIM_H */
