/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what model/bql_xoff/bql_xoff.c (the XOFF protocol of netdevice.h
 * over store buffers) and model/bql_xoff/bql_xoff_xsys.c (its explorer adapter)
 * share: the queue state bits and the enabling conditions of the two CPUs.
 * Private to the model: not installed.
 */
#ifndef _BQLM_BQL_XOFF_INTERNAL_H
#define _BQLM_BQL_XOFF_INTERNAL_H

#include "bqlm_internal.h"
#include <bqlm/bql_xoff.h>
#include <bqlm/netdevice.h>

#define BQLM_XOFF_BIT		(1U << BQLM_QUEUE_STATE_STACK_XOFF)
#define BQLM_XOFF_ANY		(BQLM_XOFF_BIT | \
				 (1U << BQLM_QUEUE_STATE_DRV_XOFF))

/* Does the producer (@sent) or the completer keep its smp_mb()? */
static inline bool bqlm_xoff_mb(const struct bqlm_xoff_cfg *cfg, bool sent)
{
	return sent ? cfg->sent_mb : cfg->completed_mb;
}

static inline bool bqlm_xoff_can_send(const struct bqlm_xoff *s,
				      const struct bqlm_xoff_cfg *cfg)
{
	struct bqlm_mm_cpu c;

	if (s->pphase != BQLM_XOFF_IDLE)
		return true;
	if (s->sent >= cfg->packets)
		return false;
	/* the qdisc sends only while the queue runs (netif_xmit_stopped) */
	c.kind = cfg->mm;
	c.mem = (unsigned short *)s->mem.v;
	c.sb = (struct bqlm_sb *)&s->psb;
	return !(bqlm_mm_load(&c, BQLM_XOFF_VAR_STATE) & BQLM_XOFF_ANY);
}

static inline bool bqlm_xoff_can_complete(const struct bqlm_xoff *s)
{
	return s->cphase != BQLM_XOFF_IDLE || s->done < s->sent;
}

#endif /* _BQLM_BQL_XOFF_INTERNAL_H */
