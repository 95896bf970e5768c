/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlm - the nic command (tools/bqlm_nic.c).
 */
#ifndef _BQLM_TOOLS_NIC_H
#define _BQLM_TOOLS_NIC_H

#include <stdio.h>

void bqlm_cli_nic_models(void);
void bqlm_cli_nic_list(void);
void bqlm_cli_nic_usage(FILE *f);
int bqlm_cli_explore_nic(int argc, char **argv);
void bqlm_cli_nic_bench(void);

#endif /* _BQLM_TOOLS_NIC_H */
