// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the BQL XOFF protocol over store buffers (see
 * <bqlm/bql_xoff.h>): netdev_tx_sent_queue() and
 * netdev_tx_completed_queue() of include/linux/netdevice.h, cut into the
 * steps between which the other CPU can run, every access to num_queued,
 * adj_limit and the queue state word through the CPU's view of memory.
 *
 * Packets go to the device at dql_queued() time; the completer completes
 * one at a time. A stall is a quiescent state (producer idle, nothing in
 * flight, buffers drained) with STACK_XOFF set.
 */
#include "bqlm_internal.h"
#include <bqlm/bql_xoff.h>
#include <bqlm/netdevice.h>

#define BQLM_XOFF_BIT		(1U << BQLM_QUEUE_STATE_STACK_XOFF)
#define BQLM_XOFF_ANY		(BQLM_XOFF_BIT | \
				 (1U << BQLM_QUEUE_STATE_DRV_XOFF))
#define BQLM_XOFF_KIND(a)	((a) >> 8)
#define BQLM_XOFF_ARG(a)	((a) & 0xff)
#define BQLM_XOFF_ACTION(k, a)	(((k) << 8) | (a))

static const char *const bqlm_xoff_var_names[BQLM_XOFF_NR_VARS] = {
	"num_queued", "adj_limit", "state",
};

/**
 * bqlm_xoff_cfg_default() - the default bound
 * @cfg: receives it
 *
 * Three packets of 100 bytes against a limit of 100 bytes, under tso,
 * with the barriers.
 */
void bqlm_xoff_cfg_default(struct bqlm_xoff_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mm = BQLM_MM_TSO;
	cfg->barriers = true;
	cfg->packets = 3;
	cfg->len = 100;
	cfg->limit = 100;
}

/**
 * bqlm_xoff_cfg_check() - is a configuration within the bounds?
 * @cfg: the configuration
 *
 * Return: 0, or -EINVAL.
 */
int bqlm_xoff_cfg_check(const struct bqlm_xoff_cfg *cfg)
{
	if ((unsigned int)cfg->mm >= BQLM_MM_NR || cfg->packets < 1 ||
	    cfg->packets > BQLM_XOFF_MAX_PACKETS || cfg->len < 1 ||
	    cfg->len > 1000 || cfg->limit > 2000)
		return -EINVAL;
	return 0;
}

/**
 * bqlm_xoff_init() - nothing sent, adj_limit = limit, queue running
 * @s: receives the state
 * @cfg: the configuration
 */
void bqlm_xoff_init(struct bqlm_xoff *s, const struct bqlm_xoff_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->mem.v[BQLM_XOFF_VAR_ADJ] = cfg->limit;
}

/**
 * bqlm_xoff_stopped() - STACK_XOFF as memory holds it
 * @s: the state
 *
 * Return: true if the bit is set in memory.
 */
bool bqlm_xoff_stopped(const struct bqlm_xoff *s)
{
	return s->mem.v[BQLM_XOFF_VAR_STATE] & BQLM_XOFF_BIT;
}

static void bqlm_xoff_view(struct bqlm_xoff *s, const struct bqlm_xoff_cfg *cfg,
			   struct bqlm_sb *sb, struct bqlm_mm_cpu *c)
{
	c->kind = cfg->mm;
	c->mem = s->mem.v;
	c->sb = sb;
}

/* dql_avail(): READ_ONCE(adj_limit) - READ_ONCE(num_queued), as a CPU sees */
static int bqlm_xoff_avail(const struct bqlm_mm_cpu *c)
{
	return (int)bqlm_mm_load(c, BQLM_XOFF_VAR_ADJ) -
	       (int)bqlm_mm_load(c, BQLM_XOFF_VAR_QUEUED);
}

/* Does the producer (@sent) or the completer keep its smp_mb()? */
static bool bqlm_xoff_mb(const struct bqlm_xoff_cfg *cfg, bool sent)
{
	return cfg->barriers && !(sent ? cfg->no_sent_mb : cfg->no_completed_mb);
}

static bool bqlm_xoff_can_send(const struct bqlm_xoff *s,
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

/**
 * bqlm_xoff_netdev_tx_sent_queue() - the producer's next step
 * @s: the state
 * @cfg: the configuration
 *
 * Idle: the qdisc hands over a packet, dql_queued() stores num_queued,
 * the device gets the packet, dql_avail() is read; over the limit the
 * next step sets STACK_XOFF (after smp_mb__before_atomic(), which drains
 * the buffer under the LKMM models), and the one after runs smp_mb()
 * (unless @cfg drops it: --no-barrier, --no-mb sent) and the re-check.
 *
 * Return: 0, -EAGAIN while the queue is stopped, -EINVAL when every packet
 * was sent.
 */
int bqlm_xoff_netdev_tx_sent_queue(struct bqlm_xoff *s,
				   const struct bqlm_xoff_cfg *cfg)
{
	struct bqlm_mm_cpu c;

	if (s->pphase == BQLM_XOFF_IDLE && s->sent >= cfg->packets)
		return -EINVAL;
	if (!bqlm_xoff_can_send(s, cfg))
		return -EAGAIN;
	bqlm_xoff_view(s, cfg, &s->psb, &c);
	switch (s->pphase) {
	case BQLM_XOFF_IDLE:
		s->queued += cfg->len;
		bqlm_mm_store(&c, BQLM_XOFF_VAR_QUEUED, s->queued);
		s->sent++;
		if (bqlm_xoff_avail(&c) < 0)
			s->pphase = BQLM_XOFF_SET;
		return 0;
	case BQLM_XOFF_SET:
		bqlm_mm_mb_after_atomic(&c);	/* smp_mb__before_atomic() */
		bqlm_mm_set_bits(&c, BQLM_XOFF_VAR_STATE, BQLM_XOFF_BIT);
		s->pphase = BQLM_XOFF_RECHECK;
		return 0;
	default:
		if (bqlm_xoff_mb(cfg, true))
			bqlm_mm_mb(&c);
		if (bqlm_xoff_avail(&c) >= 0)
			bqlm_mm_clear_bits(&c, BQLM_XOFF_VAR_STATE,
					   BQLM_XOFF_BIT);
		s->pphase = BQLM_XOFF_IDLE;
		return 0;
	}
}

static bool bqlm_xoff_can_complete(const struct bqlm_xoff *s)
{
	return s->cphase != BQLM_XOFF_IDLE || s->done < s->sent;
}

/**
 * bqlm_xoff_netdev_tx_completed_queue() - the completer's next step
 * @s: the state
 * @cfg: the configuration
 *
 * Idle: one packet completes, dql_completed() stores adj_limit = limit +
 * num_completed. Next step: smp_mb() (unless @cfg drops it: --no-barrier,
 * --no-mb completed), dql_avail(), and if there is room
 * test_and_clear_bit(STACK_XOFF) (a full barrier in every model), which
 * reschedules the queue when the bit was set.
 *
 * Return: 0, or -EINVAL when nothing is in flight.
 */
int bqlm_xoff_netdev_tx_completed_queue(struct bqlm_xoff *s,
					const struct bqlm_xoff_cfg *cfg)
{
	struct bqlm_mm_cpu c;

	if (!bqlm_xoff_can_complete(s))
		return -EINVAL;
	bqlm_xoff_view(s, cfg, &s->csb, &c);
	if (s->cphase == BQLM_XOFF_IDLE) {
		s->done++;
		s->completed += cfg->len;
		bqlm_mm_store(&c, BQLM_XOFF_VAR_ADJ, cfg->limit + s->completed);
		s->cphase = BQLM_XOFF_WAKE;
		return 0;
	}
	if (bqlm_xoff_mb(cfg, false))
		bqlm_mm_mb(&c);
	if (bqlm_xoff_avail(&c) >= 0 &&
	    bqlm_mm_test_and_clear_bits(&c, BQLM_XOFF_VAR_STATE,
					BQLM_XOFF_BIT))
		s->scheduled++;
	s->cphase = BQLM_XOFF_IDLE;
	return 0;
}

static unsigned int bqlm_xoff_enabled(const void *ctx, const void *state,
				      unsigned int *a)
{
	const struct bqlm_xoff_cfg *cfg = ctx;
	const struct bqlm_xoff *s = state;
	unsigned int n = 0, k;

	if (bqlm_xoff_can_send(s, cfg))
		a[n++] = BQLM_XOFF_ACTION(BQLM_XOFF_A_SENT, 0);
	if (bqlm_xoff_can_complete(s))
		a[n++] = BQLM_XOFF_ACTION(BQLM_XOFF_A_COMPLETED, 0);
	for (k = 0; k < s->psb.n; k++)
		if (bqlm_mm_can_flush(cfg->mm, &s->psb, k))
			a[n++] = BQLM_XOFF_ACTION(BQLM_XOFF_A_FLUSH, k);
	for (k = 0; k < s->csb.n; k++)
		if (bqlm_mm_can_flush(cfg->mm, &s->csb, k))
			a[n++] = BQLM_XOFF_ACTION(BQLM_XOFF_A_FLUSH,
						  BQLM_SB_DEPTH + k);
	return n;
}

static int bqlm_xoff_step(const void *ctx, const void *from,
			  unsigned int action, void *to,
			  struct bqlm_violation *each)
{
	const struct bqlm_xoff_cfg *cfg = ctx;
	struct bqlm_xoff *s = to;
	unsigned int arg = BQLM_XOFF_ARG(action);
	int ret;

	(void)from;
	(void)each;
	switch (BQLM_XOFF_KIND(action)) {
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

/* Quiescent: only the qdisc's next packet (external) may be enabled. */
static int bqlm_xoff_check_state(const void *ctx, const void *state,
				 const unsigned int *actions, unsigned int n,
				 struct bqlm_violation *each)
{
	const struct bqlm_xoff *s = state;
	struct bqlm_inv_counters c;
	unsigned int i;

	(void)ctx;
	for (i = 0; i < n; i++)
		if (BQLM_XOFF_KIND(actions[i]) != BQLM_XOFF_A_SENT ||
		    s->pphase != BQLM_XOFF_IDLE)
			return 0;
	memset(&c, 0, sizeof(c));
	c.where = "quiescent state";
	c.inflight = s->sent - s->done;
	c.quiescent = true;
	c.wants_tx = true;
	c.stopped = bqlm_xoff_stopped(s);
	return bqlm_inv_check(&c, NULL, each);
}

static int bqlm_xoff_describe_action(const void *ctx, const void *state,
				     unsigned int action, char *buf,
				     size_t len)
{
	const struct bqlm_xoff_cfg *cfg = ctx;
	const struct bqlm_xoff *s = state;
	unsigned int arg = BQLM_XOFF_ARG(action);
	const char *no = "(no smp_mb) ";
	char e[48];

	switch (BQLM_XOFF_KIND(action)) {
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
		bqlm_mm_describe_entry(arg < BQLM_SB_DEPTH ? &s->psb : &s->csb,
				       arg % BQLM_SB_DEPTH, bqlm_xoff_var_names,
				       BQLM_XOFF_NR_VARS, e, sizeof(e));
		return snprintf(buf, len, "memory: %s's store reaches memory: %s",
				arg < BQLM_SB_DEPTH ? "producer" : "completer",
				e);
	default:
		return snprintf(buf, len, "? action %#x", action);
	}
}

static int bqlm_xoff_describe_sb(const struct bqlm_sb *sb, const char *who,
				 char *buf, size_t len)
{
	size_t n = 0;
	unsigned int k;

	if (!sb->n)
		return 0;
	n += snprintf(buf, len, " %s-sb{", who);
	for (k = 0; k < sb->n && n < len; k++) {
		n += bqlm_mm_describe_entry(sb, k, bqlm_xoff_var_names,
					    BQLM_XOFF_NR_VARS, buf + n, len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, "%s",
				      k + 1 < sb->n ? ", " : "}");
	}
	return n;
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
		n += bqlm_xoff_describe_sb(&s->psb, "producer", buf + n,
					   len - n);
	if (n < len)
		n += bqlm_xoff_describe_sb(&s->csb, "completer", buf + n,
					   len - n);
	return n;
}

static void bqlm_xoff_xinit(const void *ctx, void *state)
{
	bqlm_xoff_init(state, ctx);
}

static const struct bqlm_xops bqlm_xoff_xops = {
	.init = bqlm_xoff_xinit,
	.enabled = bqlm_xoff_enabled,
	.step = bqlm_xoff_step,
	.check_state = bqlm_xoff_check_state,
	.describe_action = bqlm_xoff_describe_action,
	.describe_state = bqlm_xoff_describe_state,
};

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
	sys->name = "bql-xoff";
	sys->state_size = sizeof(struct bqlm_xoff);
	sys->ctx = cfg;
	sys->ops = &bqlm_xoff_xops;
	return 0;
}
