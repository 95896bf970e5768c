/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlm replay FILE: a usbnet schedule stepped on the model
 * (tools/bqlm_replay.c).
 */
#ifndef _BQLM_TOOLS_REPLAY_H
#define _BQLM_TOOLS_REPLAY_H

int bqlm_cli_replay(int argc, char **argv);

#endif /* _BQLM_TOOLS_REPLAY_H */
