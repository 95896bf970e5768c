/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the BQL XOFF protocol of include/linux/netdevice.h over a weak
 * memory model: one producer CPU running netdev_tx_sent_queue(), one
 * completer CPU running netdev_tx_completed_queue(), a few packets, and the
 * store buffers of <bqlm/memory_model.h> between them.
 *
 *   producer                              completer
 *     dql_queued(): num_queued += len       dql_completed(): adj_limit =
 *     avail < 0 ?                             limit + num_completed
 *     set_bit(STACK_XOFF)                   smp_mb()
 *     smp_mb()                              avail >= 0 ?
 *     avail >= 0 ? clear_bit(STACK_XOFF)    test_and_clear_bit(STACK_XOFF)
 *
 * The DQL is reduced to the two words the protocol shares: num_queued
 * (written by the producer) and adj_limit (written by the completer),
 * with the limit pinned (min_limit == max_limit), so that
 * dql_avail() = adj_limit - num_queued is exactly the kernel's. Its
 * adaptation is the DQL model's business (model/kernel/dynamic_queue_limits.c)
 * and does not change who reads whose store.
 */
#ifndef _BQLM_BQL_XOFF_H
#define _BQLM_BQL_XOFF_H

#include <bqlm/types.h>
#include <bqlm/memory_model.h>
#include <bqlm/invariants.h>
#include <bqlm/explore.h>
#include <bqlm/options.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BQLM_XOFF_MAX_PACKETS	6

/**
 * struct bqlm_xoff_cfg - the bql-xoff system's configuration
 * @mm: the memory model
 * @sent_mb: netdev_tx_sent_queue() keeps its smp_mb() after the set_bit()
 * @completed_mb: netdev_tx_completed_queue() keeps its smp_mb() after
 *	dql_completed()
 * @packets: packets the producer sends, 1..BQLM_XOFF_MAX_PACKETS
 * @len: bytes per packet, 1..1000
 * @limit: the pinned DQL limit in bytes, 0..2000
 *
 * Every field is an option of bqlm_xoff_options().
 */
struct bqlm_xoff_cfg {
	enum bqlm_mm_kind mm;
	bool sent_mb;
	bool completed_mb;
	unsigned int packets;
	unsigned int len;
	unsigned int limit;
};

/* struct bqlm_xoff.pphase / .cphase */
enum bqlm_xoff_phase {
	BQLM_XOFF_IDLE,		/* producer: next packet / completer: next */
	BQLM_XOFF_SET,		/* producer: over the limit, set_bit next */
	BQLM_XOFF_RECHECK,	/* producer: smp_mb + re-check next */
	BQLM_XOFF_WAKE,		/* completer: smp_mb + avail + wake next */
	BQLM_XOFF_NR_PHASES
};

/* Shared variables. */
#define BQLM_XOFF_VAR_QUEUED	0	/* dql->num_queued */
#define BQLM_XOFF_VAR_ADJ	1	/* dql->adj_limit */
#define BQLM_XOFF_VAR_STATE	2	/* dev_queue->state */
#define BQLM_XOFF_NR_VARS	3

/**
 * struct bqlm_xoff - the state
 * @mem: the shared variables
 * @psb: the producer's store buffer
 * @csb: the completer's store buffer
 * @queued: the producer's num_queued (its own, always current)
 * @completed: the completer's num_completed
 * @sent: packets handed to the device
 * @done: packets completed
 * @pphase: the producer's enum bqlm_xoff_phase
 * @cphase: the completer's enum bqlm_xoff_phase
 * @scheduled: netif_schedule_queue() calls (the qdisc was woken)
 * @pad: zero
 */
struct bqlm_xoff {
	struct bqlm_mem mem;
	struct bqlm_sb psb;
	struct bqlm_sb csb;
	unsigned short queued;
	unsigned short completed;
	unsigned char sent;
	unsigned char done;
	unsigned char pphase;
	unsigned char cphase;
	unsigned char scheduled;
	unsigned char pad[3];
};

void bqlm_xoff_cfg_default(struct bqlm_xoff_cfg *cfg);
int bqlm_xoff_cfg_check(const struct bqlm_xoff_cfg *cfg);
const struct bqlm_opts *bqlm_xoff_options(void);
void bqlm_xoff_init(struct bqlm_xoff *s, const struct bqlm_xoff_cfg *cfg);
int bqlm_xoff_netdev_tx_sent_queue(struct bqlm_xoff *s,
				   const struct bqlm_xoff_cfg *cfg);
int bqlm_xoff_netdev_tx_completed_queue(struct bqlm_xoff *s,
					const struct bqlm_xoff_cfg *cfg);
bool bqlm_xoff_stopped(const struct bqlm_xoff *s);

/* action kinds: BQLM_X_ACTION(kind, argument) */
#define BQLM_XOFF_A_SENT	1
#define BQLM_XOFF_A_COMPLETED	2
#define BQLM_XOFF_A_FLUSH	3	/* arg: cpu (0 producer) * depth + k */

int bqlm_xoff_system(const struct bqlm_xoff_cfg *cfg, struct bqlm_xsys *sys);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_BQL_XOFF_H */
