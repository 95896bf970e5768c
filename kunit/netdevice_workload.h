/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - seeded BQL transmit-queue workloads, shared by the
 * bqlm_netdevice property test and the bqlm_netdevice_conformance suite,
 * so that the model and the kernel's netdev queue run the same sequences.
 *
 * A workload is a sequence of whole kernel calls on one transmit queue, as
 * a driver and the stack make them: packets sent one by one or in xmit_more
 * batches, completion rounds retiring part or all of what is in flight
 * (and now and then nothing), the driver stopping, starting and waking the
 * queue, queue resets, and time passing. An adversarial workload also makes
 * the calls the kernel rejects: objects above DQL_MAX_OBJECT (a warning)
 * and completions of more than is in flight (a BUG in the kernel: the
 * conformance suite never makes those on the real queue).
 */
#ifndef _BQLM_KUNIT_NETDEVICE_WORKLOAD_H
#define _BQLM_KUNIT_NETDEVICE_WORKLOAD_H

#include <bqlm/netdevice.h>
#include <bqlm/prng.h>

enum bql_op_kind {
	BQL_OP_SENT,		/* netdev_tx_sent_queue() */
	BQL_OP_SENT_MORE,	/* __netdev_tx_sent_queue(xmit_more = true) */
	BQL_OP_SENT_LAST,	/* __netdev_tx_sent_queue(xmit_more = false) */
	BQL_OP_COMPLETE,	/* netdev_tx_completed_queue() */
	BQL_OP_RESET,		/* netdev_tx_reset_queue() */
	BQL_OP_STOP,		/* netif_tx_stop_queue() */
	BQL_OP_START,		/* netif_tx_start_queue() */
	BQL_OP_WAKE,		/* netif_tx_wake_queue() */
	BQL_OP_TICK,		/* @arg jiffies pass */
};

struct bql_op {
	enum bql_op_kind kind;
	unsigned int arg;
};

static inline const char *bql_op_name(enum bql_op_kind kind)
{
	static const char * const names[] = {
		[BQL_OP_SENT] = "sent", [BQL_OP_SENT_MORE] = "sent-more",
		[BQL_OP_SENT_LAST] = "sent-last",
		[BQL_OP_COMPLETE] = "complete", [BQL_OP_RESET] = "reset",
		[BQL_OP_STOP] = "stop", [BQL_OP_START] = "start",
		[BQL_OP_WAKE] = "wake", [BQL_OP_TICK] = "tick",
	};

	return names[kind];
}

/* An object size the DQL model rejects (above DQL_MAX_OBJECT). */
static inline unsigned int bql_workload_oversized(struct bqlm_prng *r)
{
	return BQLM_DQL_MAX_OBJECT + 1 + bqlm_prng_below(r, 100000);
}

/*
 * Draw the next call for @txq. Completions retire at most what is in
 * flight unless @adversarial, which also draws oversized objects.
 */
static inline struct bql_op bql_workload_next(struct bqlm_prng *r,
					      const struct bqlm_txq *txq,
					      bool adversarial)
{
	unsigned int inflight = bqlm_dql_inflight(&txq->dql);
	unsigned int dice = bqlm_prng_below(r, 1000);
	struct bql_op op;

	if (dice < 450) {
		op.kind = dice < 280 ? BQL_OP_SENT :
			  dice < 400 ? BQL_OP_SENT_MORE : BQL_OP_SENT_LAST;
		op.arg = 60 + bqlm_prng_below(r, 9000);
		if (adversarial && !bqlm_prng_below(r, 40))
			op.arg = bql_workload_oversized(r);
	} else if (dice < 770) {
		unsigned int how = bqlm_prng_below(r, 100);

		op.kind = BQL_OP_COMPLETE;
		if (how < 8)
			op.arg = 0;
		else if (how < 35)
			op.arg = inflight;
		else
			op.arg = bqlm_prng_below(r, inflight + 1);
		if (adversarial && how >= 95)
			op.arg = inflight + 1 + bqlm_prng_below(r, 5000);
	} else if (dice < 940) {
		/* the calls without an argument */
		op.kind = dice < 790 ? BQL_OP_RESET :
			  dice < 850 ? BQL_OP_STOP :
			  dice < 870 ? BQL_OP_START : BQL_OP_WAKE;
		op.arg = 0;
	} else {
		op.kind = BQL_OP_TICK;
		op.arg = 1 + bqlm_prng_below(r, 3);
	}
	return op;
}

/*
 * Apply @op to the model at jiffies @now (a tick is the caller's business:
 * it moves @now). @kick receives __netdev_tx_sent_queue()'s verdict, and is
 * left alone by the other calls.
 *
 * Return: what the model call returned (0 or a negative code).
 */
static inline int bql_workload_apply(struct bqlm_txq *txq,
				     const struct bql_op *op,
				     unsigned long now, bool *kick)
{
	switch (op->kind) {
	case BQL_OP_SENT:
		return bqlm_netdev_tx_sent_queue(txq, op->arg, now);
	case BQL_OP_SENT_MORE:
	case BQL_OP_SENT_LAST:
		return bqlm___netdev_tx_sent_queue(txq, op->arg,
						   op->kind == BQL_OP_SENT_MORE,
						   now, kick);
	case BQL_OP_COMPLETE:
		return bqlm_netdev_tx_completed_queue(txq, 1, op->arg, now);
	case BQL_OP_RESET:
		bqlm_netdev_tx_reset_queue(txq, now);
		return 0;
	case BQL_OP_STOP:
		bqlm_netif_tx_stop_queue(txq, now);
		return 0;
	case BQL_OP_START:
		bqlm_netif_tx_start_queue(txq);
		return 0;
	case BQL_OP_WAKE:
		bqlm_netif_tx_wake_queue(txq);
		return 0;
	case BQL_OP_TICK:
		break;
	}
	return 0;
}

#endif /* _BQLM_KUNIT_NETDEVICE_WORKLOAD_H */
