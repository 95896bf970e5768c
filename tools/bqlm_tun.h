/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlm - the tun and bql-xoff commands (tools/bqlm_tun.c).
 */
#ifndef _BQLM_TOOLS_TUN_H
#define _BQLM_TOOLS_TUN_H

#include <stdio.h>

void bqlm_cli_tun_models(void);
void bqlm_cli_tun_list(void);
void bqlm_cli_tun_usage(FILE *f);
void bqlm_cli_xoff_usage(FILE *f);
int bqlm_cli_explore_tun(int argc, char **argv);
int bqlm_cli_explore_xoff(int argc, char **argv);

#endif /* _BQLM_TOOLS_TUN_H */
