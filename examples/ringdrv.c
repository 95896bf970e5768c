// SPDX-License-Identifier: GPL-2.0
/*
 * ringdrv - what a driver author writes against libbqlm: a model of the
 * BQL calls of one's own driver, run through the explorer.
 *
 * The driver: a tx ring of RINGDRV_RING descriptors. ndo_start_xmit()
 * puts a packet on the ring and calls netdev_tx_sent_queue(); a full ring
 * stops the queue. The NAPI poll runs in two steps: it takes the finished
 * descriptors off the ring, then reports them with
 * netdev_tx_completed_queue() and wakes the queue. ndo_stop() frees what
 * is left on the ring and calls netdev_tx_reset_queue().
 *
 *   ringdrv            ndo_stop() calls napi_disable() first: it waits
 *                      for a poll in progress
 *   ringdrv --buggy    ndo_stop() resets the queue while a poll may be
 *                      between its two steps
 *
 * It prints the verdict and, for a violation, the shortest trace to it.
 * Exit status: 0 no violation, 1 violation, 2 bad usage, 3 incomplete.
 *
 * Build it against the installed library:
 *   cc ringdrv.c $(pkg-config --cflags --libs bqlm) -o ringdrv
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/netdevice.h>
#include <bqlm/violation.h>

#define RINGDRV_RING	2	/* tx descriptors */
#define RINGDRV_PACKETS	3	/* packets the stack sends */
#define RINGDRV_LEN	1000	/* bytes per packet */
#define RINGDRV_NOW	1000UL	/* jiffies: the model has no clock */

enum { A_XMIT = 1, A_POLL_TAKE, A_POLL_REPORT, A_STOP };

/* The whole driver state: no pointer, no padding left unset. */
struct ringdrv {
	struct bqlm_txq txq;
	unsigned char up;	/* netif_running() */
	unsigned char sent;	/* packets the stack handed over */
	unsigned char ring;	/* on the ring, reported sent */
	unsigned char polled;	/* taken off the ring by the poll */
	unsigned char stale;	/* of those, sent before the last reset */
	unsigned char napi;	/* a poll is between its two steps */
	unsigned char pad[2];
};

struct ringdrv_cfg {
	int buggy;
};

static void ringdrv_init(struct ringdrv *d, const struct ringdrv_cfg *cfg)
{
	(void)cfg;
	memset(d, 0, sizeof(*d));
	bqlm_txq_init(&d->txq, 1000, RINGDRV_NOW);
	d->up = 1;
}

static int ringdrv_can(const struct ringdrv_cfg *cfg, const struct ringdrv *d,
		       unsigned int a)
{
	switch (a) {
	case A_XMIT:
		return d->up && d->sent < RINGDRV_PACKETS &&
		       !bqlm_netif_xmit_stopped(&d->txq);
	case A_POLL_TAKE:
		return d->ring && !d->napi;
	case A_POLL_REPORT:
		return d->napi;
	case A_STOP:
		return d->up && (cfg->buggy || !d->napi);
	}
	return 0;
}

static unsigned int ringdrv_enabled(const void *ctx, const void *state,
				    unsigned int *actions)
{
	unsigned int a, n = 0;

	for (a = A_XMIT; a <= A_STOP; a++)
		if (ringdrv_can(ctx, state, a))
			actions[n++] = a;
	return n;
}

/* Bytes handed to the device since the last reset, not yet reported. */
static unsigned int ringdrv_inflight(const struct ringdrv *d)
{
	return (d->ring + d->polled - d->stale) * RINGDRV_LEN;
}

/* One action: the driver's code, what it did in @r. */
static int ringdrv_run(const void *ctx, void *state, unsigned int a,
		       struct bqlm_xrun *r)
{
	struct ringdrv *d = state;

	if (!ringdrv_can(ctx, d, a))
		return -1;
	switch (a) {
	case A_XMIT:
		r->where = "ndo_start_xmit";
		r->ev.dql_err = bqlm_netdev_tx_sent_queue(&d->txq, RINGDRV_LEN,
							  RINGDRV_NOW);
		d->sent++;
		d->ring++;
		if (d->ring == RINGDRV_RING)
			bqlm_netif_tx_stop_queue(&d->txq, RINGDRV_NOW);
		break;
	case A_POLL_TAKE:
		r->where = "napi poll";
		d->polled = d->ring;
		d->ring = 0;
		d->napi = 1;
		break;
	case A_POLL_REPORT:
		r->where = "napi poll";
		r->ev.dql_err = bqlm_netdev_tx_completed_queue(&d->txq,
				d->polled, d->polled * RINGDRV_LEN,
				RINGDRV_NOW);
		r->ev.stale_bytes = d->stale * RINGDRV_LEN;
		r->ev.dql_val[0] = d->polled * RINGDRV_LEN;
		d->polled = 0;
		d->stale = 0;
		d->napi = 0;
		if (bqlm_netif_tx_queue_stopped(&d->txq) && d->up)
			bqlm_netif_tx_wake_queue(&d->txq);
		break;
	case A_STOP:
		r->where = "ndo_stop";
		d->up = 0;
		bqlm_netif_tx_stop_queue(&d->txq, RINGDRV_NOW);
		d->ring = 0;		/* freed, never completed */
		d->stale = d->polled;	/* a poll in progress keeps its own */
		bqlm_netdev_tx_reset_queue(&d->txq, RINGDRV_NOW);
		break;
	}
	/* the qdisc's reschedule request is not driver state */
	bqlm_txq_sched_clear(&d->txq);
	return 0;
}

/* The invariants after a step: BQL's books against the ring's. */
static unsigned int ringdrv_check(const void *ctx, const void *state,
				  const struct bqlm_xrun *r,
				  struct bqlm_violation *each)
{
	const struct ringdrv *d = state;
	struct bqlm_inv_counters c;

	(void)ctx;
	memset(&c, 0, sizeof(c));
	c.where = r->where;
	c.bql = true;
	c.dql = &d->txq.dql;
	c.inflight = ringdrv_inflight(d);
	c.completions = d->napi;
	c.step = r->ev;
	return bqlm_inv_check(&c, NULL, each);
}

static int ringdrv_xstep(const void *ctx, const void *from, unsigned int a,
			 void *to, struct bqlm_violation *each)
{
	(void)from;
	return bqlm_xstep_checked(ctx, to, a, each, ringdrv_run, ringdrv_check);
}

/* The outside world's actions: the stack's packets, ifdown. */
static bool ringdrv_external(const void *ctx, const void *state,
			     unsigned int a)
{
	(void)ctx;
	(void)state;
	return a == A_XMIT || a == A_STOP;
}

/* A stall, decided where the driver itself cannot act (the explorer asks). */
static int ringdrv_check_quiescent(const void *ctx, const void *state,
				   struct bqlm_violation *each)
{
	const struct ringdrv *d = state;

	(void)ctx;
	return bqlm_inv_check_stall(&d->txq.dql, ringdrv_inflight(d),
				    d->up && d->sent < RINGDRV_PACKETS,
				    bqlm_netif_xmit_stopped(&d->txq), each);
}

static int ringdrv_describe_action(const void *ctx, const void *from,
				   unsigned int a, char *buf, size_t len)
{
	static const char *const what[] = {
		[A_XMIT] = "ndo_start_xmit: ring a packet, netdev_tx_sent_queue()",
		[A_POLL_TAKE] = "napi poll: take the finished descriptors",
		[A_POLL_REPORT] = "napi poll: netdev_tx_completed_queue(), wake",
		[A_STOP] = "ndo_stop: free the ring, netdev_tx_reset_queue()",
	};

	(void)ctx;
	(void)from;
	return snprintf(buf, len, "%s", a <= A_STOP && what[a] ? what[a] : "?");
}

static int ringdrv_describe_state(const void *ctx, const void *state,
				  char *buf, size_t len)
{
	const struct ringdrv *d = state;

	(void)ctx;
	return snprintf(buf, len,
			"%s, ring %u, poll holds %u, dql inflight %u, queue %s",
			d->up ? "up" : "down", d->ring, d->polled,
			bqlm_dql_inflight(&d->txq.dql),
			bqlm_netif_xmit_stopped(&d->txq) ? "stopped" : "running");
}

static void print_line(void *arg, const char *line)
{
	(void)arg;
	printf("    %s\n", line);
}

/*
 * ringdrv_xops: ringdrv_init() as the initial state, ringdrv_enabled(),
 * ringdrv_xstep(), ringdrv_describe_action(), ringdrv_describe_state(),
 * ringdrv_external() and ringdrv_check_quiescent(); no other state check,
 * no symmetry.
 */
BQLM_DEFINE_XOPS(ringdrv, NULL, NULL);

int main(int argc, char **argv)
{
	struct ringdrv_cfg cfg = { 0 };
	struct bqlm_xsys sys = {
		.name = "ringdrv", .state_size = sizeof(struct ringdrv),
		.ctx = &cfg, .ops = &ringdrv_xops,
	};
	struct bqlm_xresult res;
	struct bqlm_explorer *x;
	enum bqlm_check verdict;
	unsigned int path[256];
	int n, err;

	if (argc == 2 && !strcmp(argv[1], "--buggy")) {
		cfg.buggy = 1;
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--buggy]\n", argv[0]);
		return 2;
	}
	x = bqlm_explorer_create(&sys, NULL);
	if (!x) {
		fprintf(stderr, "ringdrv: out of memory\n");
		return 2;
	}
	err = bqlm_explore(x, &res);
	verdict = bqlm_xresult_verdict(&res);
	printf("ringdrv%s: %llu states, %llu transitions\n",
	       cfg.buggy ? " --buggy" : "", res.states, res.transitions);
	if (verdict == BQLM_CHECK_NONE) {
		printf("%s: no invariant violated\n", err ? "INCOMPLETE" : "OK");
		bqlm_explorer_destroy(x);
		return err ? 3 : 0;
	}
	printf("VIOLATION: %s (depth %u): %s\n", bqlm_check_name(verdict),
	       res.w[verdict].depth, bqlm_check_kernel_effect(verdict));
	n = bqlm_explorer_path(x, verdict, path, 256);
	if (n > 0)
		bqlm_xtrace(&sys, path, n, print_line, NULL);
	bqlm_explorer_destroy(x);
	return 1;
}
