// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the bql-xoff model (model/bql_xoff/bql_xoff.c) as a system for the
 * explorer of <bqlm/explore.h>: the actions (the producer's next step,
 * the completer's next step, each buffered store that may reach memory)
 * and their encoding, the step, the stall check of a quiescent state, and
 * the descriptions of actions and states for traces.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/bql_xoff.h>
#include "bql_xoff_internal.h"

static const char *const bqlm_xoff_var_names[BQLM_XOFF_NR_VARS] = {
	"num_queued", "adj_limit", "state",
};

static int bqlm_xoff_var_name(const void *arg, unsigned int var, char *buf,
			      size_t len)
{
	const char *name = bqlm_name(BQLM_NAMES(bqlm_xoff_var_names), var,
				     NULL);

	(void)arg;
	return name ? snprintf(buf, len, "%s", name) : 0;
}

static unsigned int bqlm_xoff_enabled(const void *ctx, const void *state,
				      unsigned int *a)
{
	const struct bqlm_xoff_cfg *cfg = ctx;
	const struct bqlm_xoff *s = state;
	unsigned int n = 0, k;

	if (bqlm_xoff_can_send(s, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_XOFF_A_SENT, 0);
	if (bqlm_xoff_can_complete(s))
		a[n++] = BQLM_X_ACTION(BQLM_XOFF_A_COMPLETED, 0);
	for (k = 0; k < s->psb.n; k++)
		if (bqlm_mm_can_flush(cfg->mm, &s->psb, k))
			a[n++] = BQLM_X_ACTION(BQLM_XOFF_A_FLUSH, k);
	for (k = 0; k < s->csb.n; k++)
		if (bqlm_mm_can_flush(cfg->mm, &s->csb, k))
			a[n++] = BQLM_X_ACTION(BQLM_XOFF_A_FLUSH,
						  BQLM_SB_DEPTH + k);
	return n;
}

static int bqlm_xoff_xstep(const void *ctx, const void *from,
			   unsigned int action, void *to,
			   struct bqlm_violation *each)
{
	const struct bqlm_xoff_cfg *cfg = ctx;
	struct bqlm_xoff *s = to;
	unsigned int arg = BQLM_X_ARG(action);
	int ret;

	(void)from;
	(void)each;
	switch (BQLM_X_KIND(action)) {
	case BQLM_XOFF_A_SENT:
		ret = bqlm_xoff_netdev_tx_sent_queue(s, cfg);
		break;
	case BQLM_XOFF_A_COMPLETED:
		ret = bqlm_xoff_netdev_tx_completed_queue(s, cfg);
		break;
	case BQLM_XOFF_A_FLUSH:
		if (arg >= 2 * BQLM_SB_DEPTH) {
			ret = -EINVAL;
			break;
		}
		if (!bqlm_mm_can_flush(cfg->mm, arg < BQLM_SB_DEPTH ?
				       &s->psb : &s->csb,
				       arg % BQLM_SB_DEPTH)) {
			ret = -EINVAL;
			break;
		}
		ret = bqlm_mm_flush(s->mem.v, arg < BQLM_SB_DEPTH ?
				    &s->psb : &s->csb, arg % BQLM_SB_DEPTH);
		break;
	default:
		ret = -EINVAL;
	}
	return ret ? -EINVAL : 0;
}

/* The outside world: the qdisc's next packet. */
static bool bqlm_xoff_external(const void *ctx, const void *state,
			       unsigned int action)
{
	const struct bqlm_xoff *s = state;

	(void)ctx;
	return BQLM_X_KIND(action) == BQLM_XOFF_A_SENT &&
	       s->pphase == BQLM_XOFF_IDLE;
}

/* A stall: STACK_XOFF set in a quiescent state. */
/* In a quiescent state: a stall. */
static int bqlm_xoff_check_quiescent(const void *ctx, const void *state,
				     struct bqlm_violation *each)
{
	const struct bqlm_xoff *s = state;

	(void)ctx;
	return bqlm_inv_check_stall(NULL, s->sent - s->done, true,
				    bqlm_xoff_stopped(s), each);
}

static int bqlm_xoff_describe_action(const void *ctx, const void *state,
				     unsigned int action, char *buf,
				     size_t len)
{
	const struct bqlm_xoff_cfg *cfg = ctx;
	const struct bqlm_xoff *s = state;
	unsigned int arg = BQLM_X_ARG(action);
	const char *no = "(no smp_mb) ";
	char e[48];

	switch (BQLM_X_KIND(action)) {
	case BQLM_XOFF_A_SENT:
		if (s->pphase == BQLM_XOFF_IDLE)
			return snprintf(buf, len,
					"producer: qdisc -> xmit pkt%u (%u B): netdev_tx_sent_queue: dql_queued, dql_avail() < 0 ?",
					s->sent + 1, cfg->len);
		if (s->pphase == BQLM_XOFF_SET)
			return snprintf(buf, len,
					"producer: netdev_tx_sent_queue: smp_mb__before_atomic(), set_bit(STACK_XOFF)");
		return snprintf(buf, len,
				"producer: netdev_tx_sent_queue: %sdql_avail() >= 0 ? clear_bit(STACK_XOFF)",
				bqlm_xoff_mb(cfg, true) ? "smp_mb(), " : no);
	case BQLM_XOFF_A_COMPLETED:
		if (s->cphase == BQLM_XOFF_IDLE)
			return snprintf(buf, len,
					"completer: netdev_tx_completed_queue(1, %u): dql_completed",
					cfg->len);
		return snprintf(buf, len,
				"completer: netdev_tx_completed_queue: %sdql_avail() >= 0 ? test_and_clear_bit(STACK_XOFF) -> netif_schedule_queue",
				bqlm_xoff_mb(cfg, false) ? "smp_mb(), " : no);
	case BQLM_XOFF_A_FLUSH:
		bqlm_mm_describe_entry_by(arg < BQLM_SB_DEPTH ? &s->psb :
					  &s->csb, arg % BQLM_SB_DEPTH,
					  bqlm_xoff_var_name, NULL, e,
					  sizeof(e));
		return snprintf(buf, len, "memory: %s's store reaches memory: %s",
				arg < BQLM_SB_DEPTH ? "producer" : "completer",
				e);
	default:
		return snprintf(buf, len, "? action %#x", action);
	}
}

static int bqlm_xoff_describe_state(const void *ctx, const void *state,
				    char *buf, size_t len)
{
	const struct bqlm_xoff *s = state;
	size_t n;

	(void)ctx;
	n = snprintf(buf, len,
		     "mem: num_queued %u adj_limit %u%s | sent %u completed %u in flight %u scheduled %u",
		     s->mem.v[BQLM_XOFF_VAR_QUEUED], s->mem.v[BQLM_XOFF_VAR_ADJ],
		     bqlm_xoff_stopped(s) ? " STACK_XOFF" : "", s->sent,
		     s->done, s->sent - s->done, s->scheduled);
	if (n < len)
		n += bqlm_mm_describe_sb(&s->psb, "producer-sb",
					 bqlm_xoff_var_name, NULL, buf + n,
					 len - n);
	if (n < len)
		n += bqlm_mm_describe_sb(&s->csb, "completer-sb",
					 bqlm_xoff_var_name, NULL, buf + n,
					 len - n);
	return n;
}

BQLM_DEFINE_XOPS(bqlm_xoff, NULL, NULL);

/**
 * bqlm_xoff_system() - the bql-xoff system for the explorer
 * @cfg: the configuration; it must outlive @sys
 * @sys: receives the system
 *
 * Actions: the producer's next step, the completer's next step, each
 * buffered store that may reach memory. The state check reports a stall:
 * STACK_XOFF set in a quiescent state.
 *
 * Return: 0, or -EINVAL when @cfg is invalid.
 */
int bqlm_xoff_system(const struct bqlm_xoff_cfg *cfg, struct bqlm_xsys *sys)
{
	if (bqlm_xoff_cfg_check(cfg))
		return -EINVAL;
	return bqlm_xsys_fill(sys, "bql-xoff", sizeof(struct bqlm_xoff), cfg,
			      &bqlm_xoff_xops);
}
