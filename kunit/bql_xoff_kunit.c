// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the store buffers (model/memory_model.c) and the BQL
 * XOFF protocol over them (model/bql_xoff.c), suite bqlm_bql_xoff.
 *
 * The explorations check, for each memory model with and without the two
 * smp_mb() of netdev_tx_sent_queue() / netdev_tx_completed_queue(), the
 * verdict and the exact numbers of states and transitions.
 */
#include <kunit/test.h>
#include <bqlm/bql_xoff.h>

#define BIT_ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)

struct sb_pair {
	struct bqlm_mem mem;
	struct bqlm_sb sb0;
	struct bqlm_sb sb1;
	struct bqlm_mm_cpu c0;
	struct bqlm_mm_cpu c1;
};

static struct sb_pair *sb_setup(struct kunit *test, enum bqlm_mm_kind kind)
{
	struct sb_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->c0.kind = kind;
	p->c0.mem = p->mem.v;
	p->c0.sb = &p->sb0;
	p->c1.kind = kind;
	p->c1.mem = p->mem.v;
	p->c1.sb = &p->sb1;
	return p;
}

/* A store waits in its CPU's buffer; the CPU itself reads it at once. */
static void sb_store_forwarding(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);

	bqlm_mm_store(&p->c0, 0, 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 0), 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 0);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 1);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_can_flush(BQLM_MM_TSO, &p->sb0, 0));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_TSO, &p->sb0, 1));
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(p->mem.v, &p->sb0, 0), 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(p->mem.v, &p->sb0, 0), -EINVAL);
	/* sc: no buffer at all */
	p = sb_setup(test, BQLM_MM_SC);
	bqlm_mm_store(&p->c0, 1, 7);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 1), 7);
}

/* The store-buffering pattern: both CPUs read the other's old value. */
static void sb_store_buffering(struct kunit *test)
{
	static const enum bqlm_mm_kind kinds[] = {
		BQLM_MM_SC, BQLM_MM_TSO, BQLM_MM_PSO, BQLM_MM_X86,
	};
	unsigned int i, r0, r1;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct sb_pair *p = sb_setup(test, kinds[i]);

		bqlm_mm_store(&p->c0, 0, 1);
		bqlm_mm_store(&p->c1, 1, 1);
		r0 = bqlm_mm_load(&p->c0, 1);
		r1 = bqlm_mm_load(&p->c1, 0);
		KUNIT_EXPECT_EQ(test, r0 || r1, kinds[i] == BQLM_MM_SC);
		/* with smp_mb() on both sides, one of them sees the other */
		p = sb_setup(test, kinds[i]);
		bqlm_mm_store(&p->c0, 0, 1);
		bqlm_mm_mb(&p->c0);
		bqlm_mm_store(&p->c1, 1, 1);
		bqlm_mm_mb(&p->c1);
		KUNIT_EXPECT_TRUE(test, bqlm_mm_load(&p->c0, 1) ||
					bqlm_mm_load(&p->c1, 0));
	}
}

/* set_bit: unordered under the LKMM models, a locked op on x86. */
static void sb_atomics(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);

	bqlm_mm_store(&p->c0, 0, 3);
	bqlm_mm_set_bits(&p->c0, 2, 0x2);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 2), 0x2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 2), 0);
	bqlm_mm_mb_after_atomic(&p->c0);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 2), 0x2);
	/* test_and_clear: a full barrier that acts on memory */
	bqlm_mm_store(&p->c1, 0, 9);
	KUNIT_EXPECT_EQ(test, bqlm_mm_test_and_clear_bits(&p->c1, 2, 0x3),
			0x2);
	KUNIT_EXPECT_EQ(test, p->sb1.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 9);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_test_and_set_bits(&p->c1, 2, 0x1), 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0x1);
	bqlm_mm_clear_bits(&p->c0, 2, 0x1);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 2), 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0x1);
	bqlm_mm_mb(&p->c0);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0);
	/* x86: the locked instruction drains and acts on memory */
	p = sb_setup(test, BQLM_MM_X86);
	bqlm_mm_store(&p->c0, 0, 3);
	bqlm_mm_set_bits(&p->c0, 2, 0x2);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 3);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0x2);
	bqlm_mm_store(&p->c0, 0, 4);
	bqlm_mm_mb_after_atomic(&p->c0);	/* only a compiler barrier */
	KUNIT_EXPECT_EQ(test, p->sb0.n, 1);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);	/* locked */
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[5], 1);
}

/*
 * Locks: the release waits in the buffer behind the stores made under the
 * lock; nobody else can take the lock before they are visible; the owner
 * can, and under the LKMM models its old stores may stay buffered.
 */
static void sb_locks(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);

	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	KUNIT_EXPECT_FALSE(test, bqlm_mm_lock_free(&p->c1, 5));
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c1, 5, 2), -EBUSY);
	bqlm_mm_store(&p->c0, 0, 7);
	bqlm_mm_unlock(&p->c0, 5);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 2);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_lock_free(&p->c0, 5));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_lock_free(&p->c1, 5));
	/* pso: the release goes only when it is the oldest */
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_PSO, &p->sb0, 1));
	/* the owner again: unlock and lock collapse, the store stays */
	bqlm_mm_store(&p->c0, 1, 8);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[5], 1);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 2);
	bqlm_mm_unlock(&p->c0, 5);
	while (p->sb0.n)
		bqlm_mm_flush(p->mem.v, &p->sb0, 0);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_lock_free(&p->c1, 5));
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 7);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 1), 8);
	/* x86: the re-acquire is a locked instruction, everything drains */
	p = sb_setup(test, BQLM_MM_X86);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	bqlm_mm_store(&p->c0, 0, 7);
	bqlm_mm_unlock(&p->c0, 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 7);
	/* sc: everything at once */
	p = sb_setup(test, BQLM_MM_SC);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	bqlm_mm_unlock(&p->c0, 5);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_lock_free(&p->c1, 5));
}

/* pso: stores to different variables may overtake each other. */
static void sb_pso_order(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_PSO);
	char buf[48];
	static const char *const names[] = { "a", "b" };

	bqlm_mm_store(&p->c0, 0, 1);
	bqlm_mm_store(&p->c0, 1, 2);
	bqlm_mm_store(&p->c0, 0, 3);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_can_flush(BQLM_MM_PSO, &p->sb0, 1));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_PSO, &p->sb0, 2));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_TSO, &p->sb0, 1));
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 0), 3);
	KUNIT_EXPECT_GT(test, bqlm_mm_describe_entry(&p->sb0, 1, names, 2,
						     buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "b = 2");
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(p->mem.v, &p->sb0, 1), 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 1), 2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 0);
	/* a full buffer makes room by draining its oldest entry */
	bqlm_mm_store(&p->c0, 1, 4);
	bqlm_mm_store(&p->c0, 1, 5);
	KUNIT_EXPECT_EQ(test, p->sb0.n, BQLM_SB_DEPTH);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 1);
	bqlm_mm_set_bits(&p->c0, 2, 0x4);
	bqlm_mm_describe_entry(&p->sb0, 2, NULL, 0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "v2 |= 4");
	bqlm_mm_describe_entry(&p->sb0, 3, NULL, 0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "(none)");
	KUNIT_EXPECT_STREQ(test, bqlm_mm_name(BQLM_MM_PSO), "pso");
	KUNIT_EXPECT_STREQ(test, bqlm_mm_name(BQLM_MM_NR), "unknown");
	KUNIT_EXPECT_EQ(test, bqlm_mm_by_name("x86"), BQLM_MM_X86);
	KUNIT_EXPECT_EQ(test, bqlm_mm_by_name("arm"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_mm_by_name(NULL), -EINVAL);
}

/* which smp_mb() a case drops: --no-barrier, --no-mb sent, --no-mb completed */
#define XOFF_NO_MB_SENT		1U
#define XOFF_NO_MB_COMPLETED	2U
#define XOFF_NO_MB_BOTH		(XOFF_NO_MB_SENT | XOFF_NO_MB_COMPLETED)

struct xoff_x_case {
	const char *desc;
	enum bqlm_mm_kind mm;
	unsigned int no_mb;
	unsigned long long states;
	unsigned long long transitions;
	unsigned int violated;
	unsigned int depth;
};

static const struct xoff_x_case xoff_x_cases[] = {
	{ "sc", BQLM_MM_SC, 0, 70, 106, 0, 0 },
	/* under sc the re-check alone closes the window */
	{ "sc-no-barrier", BQLM_MM_SC, XOFF_NO_MB_BOTH, 70, 106, 0, 0 },
	{ "tso", BQLM_MM_TSO, 0, 242, 581, 0, 0 },
	{ "tso-no-barrier", BQLM_MM_TSO, XOFF_NO_MB_BOTH, 309, 723, BIT_ST, 9 },
	{ "pso", BQLM_MM_PSO, 0, 254, 638, 0, 0 },
	{ "pso-no-barrier", BQLM_MM_PSO, XOFF_NO_MB_BOTH, 333, 835, BIT_ST, 9 },
	{ "x86", BQLM_MM_X86, 0, 173, 395, 0, 0 },
	/* x86: the locked set_bit / test_and_clear_bit order on their own */
	{ "x86-no-barrier", BQLM_MM_X86, XOFF_NO_MB_BOTH, 173, 395, 0, 0 },
	/* one barrier at a time: the sender's is the one that matters */
	{ "tso-no-sent-mb", BQLM_MM_TSO, XOFF_NO_MB_SENT, 309, 723, BIT_ST, 9 },
	{ "pso-no-sent-mb", BQLM_MM_PSO, XOFF_NO_MB_SENT, 333, 835, BIT_ST, 9 },
	/* test_and_clear_bit() is fully ordered: the store is out before it */
	{ "tso-no-completed-mb", BQLM_MM_TSO, XOFF_NO_MB_COMPLETED, 242, 581,
	  0, 0 },
	{ "pso-no-completed-mb", BQLM_MM_PSO, XOFF_NO_MB_COMPLETED, 254, 638,
	  0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(xoff_x, xoff_x_cases, desc);

static void xoff_exploration(struct kunit *test)
{
	const struct xoff_x_case *p = test->param_value;
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;

	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);
	bqlm_xoff_cfg_default(&cfg);
	cfg.mm = p->mm;
	/* both dropped: the --no-barrier switch itself */
	cfg.barriers = p->no_mb != XOFF_NO_MB_BOTH;
	cfg.no_sent_mb = p->no_mb == XOFF_NO_MB_SENT;
	cfg.no_completed_mb = p->no_mb == XOFF_NO_MB_COMPLETED;
	KUNIT_ASSERT_EQ(test, bqlm_xoff_system(&cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, NULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	bqlm_explorer_destroy(x);
	kunit_info(test, "%s: %llu states, %llu transitions, %s", p->desc,
		   res->states, res->transitions,
		   bqlm_check_name(bqlm_xresult_verdict(res)));
	KUNIT_EXPECT_TRUE(test, res->complete);
	KUNIT_EXPECT_EQ(test, res->states, p->states);
	KUNIT_EXPECT_EQ(test, res->transitions, p->transitions);
	KUNIT_EXPECT_EQ(test, res->violated, p->violated);
	if (p->violated)
		KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_STALL].depth,
				p->depth);
}

/*
 * The forever-stopped queue, step by step (tso, no barriers): the
 * producer's set_bit waits in its buffer while its re-check reads the old
 * adj_limit; the completer's test_and_clear_bit finds the bit clear.
 */
static void xoff_lost_wakeup(struct kunit *test)
{
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xoff *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	bqlm_xoff_cfg_default(&cfg);
	cfg.barriers = false;
	bqlm_xoff_init(s, &cfg);
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, s->pphase, BQLM_XOFF_SET);
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, s->psb.n, 1);	/* state |= STACK_XOFF waits */
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, s->pphase, BQLM_XOFF_IDLE);
	/* the qdisc sees its own stop: nothing more is sent */
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
			-EAGAIN);
	while (s->done < s->sent || s->cphase != BQLM_XOFF_IDLE)
		KUNIT_ASSERT_EQ(test,
				bqlm_xoff_netdev_tx_completed_queue(s, &cfg),
				0);
	KUNIT_EXPECT_EQ(test, s->scheduled, 0);
	KUNIT_EXPECT_FALSE(test, bqlm_xoff_stopped(s));
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(s->mem.v, &s->psb, 0), 0);
	KUNIT_EXPECT_TRUE(test, bqlm_xoff_stopped(s));
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_completed_queue(s, &cfg),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
			-EAGAIN);
	/* with the barriers the same schedule ends with the queue awake */
	cfg.barriers = true;
	bqlm_xoff_init(s, &cfg);
	while (s->pphase != BQLM_XOFF_IDLE || s->sent < 2)
		KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
				0);
	while (s->done < s->sent || s->cphase != BQLM_XOFF_IDLE)
		KUNIT_ASSERT_EQ(test,
				bqlm_xoff_netdev_tx_completed_queue(s, &cfg),
				0);
	KUNIT_EXPECT_EQ(test, s->scheduled, 1);
	KUNIT_EXPECT_FALSE(test, bqlm_xoff_stopped(s));
	KUNIT_EXPECT_EQ(test, s->psb.n, 0);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_cfg_check(&cfg), 0);
	cfg.packets = 0;
	KUNIT_EXPECT_EQ(test, bqlm_xoff_cfg_check(&cfg), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_system(&cfg, NULL), -EINVAL);
}

struct xoff_words {
	unsigned int lines;
	bool set_bit;
	bool flush;
	bool stall;
	bool wake;
};

static void xoff_emit(void *arg, const char *line)
{
	struct xoff_words *w = arg;

	w->lines++;
	if (strstr(line, "set_bit(STACK_XOFF)"))
		w->set_bit = true;
	if (strstr(line, "reaches memory: state |= 2"))
		w->flush = true;
	if (strstr(line, "!! stall"))
		w->stall = true;
	if (strstr(line, "test_and_clear_bit(STACK_XOFF)"))
		w->wake = true;
}

/* The words of the next step of kind @kind contain @want. */
static void xoff_expect_words(struct kunit *test, const struct bqlm_xsys *sys,
			      const struct bqlm_xoff *s, unsigned int kind,
			      const char *want)
{
	char line[160];

	bqlm_xdescribe_action(sys, s, kind << 8, line, sizeof(line));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, want));
}

/* The explorer's shortest path, printed as the CLI prints it. */
static void xoff_trace(struct kunit *test)
{
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	struct xoff_words *w;
	unsigned int *path;
	struct bqlm_xoff *s;
	char buf[64];
	int n;

	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	path = kunit_kcalloc(test, 64, sizeof(*path), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, path);
	bqlm_xoff_cfg_default(&cfg);
	cfg.barriers = false;
	KUNIT_ASSERT_EQ(test, bqlm_xoff_system(&cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, NULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	n = bqlm_explorer_path(x, BQLM_CHECK_STALL, path, 64);
	bqlm_explorer_destroy(x);
	KUNIT_ASSERT_EQ(test, n, 9);
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, path, n, xoff_emit, w),
			(int)BIT_ST);
	KUNIT_EXPECT_EQ(test, w->lines, 2U + 2 * 9 + 1);
	KUNIT_EXPECT_TRUE(test, w->set_bit);
	KUNIT_EXPECT_TRUE(test, w->flush);
	KUNIT_EXPECT_TRUE(test, w->stall);
	KUNIT_EXPECT_TRUE(test, w->wake);
	/* refusals of the system's step */
	bqlm_xoff_init(s, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, 0x900, s, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, (BQLM_XOFF_A_FLUSH << 8),
					 s, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, (BQLM_XOFF_A_FLUSH << 8) |
					 (2 * BQLM_SB_DEPTH), s, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, BQLM_XOFF_A_COMPLETED << 8,
					 s, NULL), -EINVAL);
	bqlm_xdescribe_action(&sys, s, 0x900, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	cfg.packets = 1;
	bqlm_xoff_init(s, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
			-EINVAL);
	/* one smp_mb() dropped: each side's step says whether it has its own */
	cfg.packets = 3;
	cfg.barriers = true;
	cfg.no_sent_mb = true;
	bqlm_xoff_init(s, &cfg);
	s->pphase = BQLM_XOFF_RECHECK;
	s->cphase = BQLM_XOFF_WAKE;
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_SENT, "(no smp_mb) dql");
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_COMPLETED, "smp_mb(), dql");
	cfg.no_sent_mb = false;
	cfg.no_completed_mb = true;
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_SENT, "smp_mb(), dql");
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_COMPLETED,
			  "(no smp_mb) dql");
}

static struct kunit_case bqlm_bql_xoff_cases[] = {
	KUNIT_CASE(sb_store_forwarding),
	KUNIT_CASE(sb_store_buffering),
	KUNIT_CASE(sb_atomics),
	KUNIT_CASE(sb_locks),
	KUNIT_CASE(sb_pso_order),
	KUNIT_CASE_PARAM(xoff_exploration, xoff_x_gen_params),
	KUNIT_CASE(xoff_lost_wakeup),
	KUNIT_CASE(xoff_trace),
	{}
};

static struct kunit_suite bqlm_bql_xoff_suite = {
	.name = "bqlm_bql_xoff",
	.test_cases = bqlm_bql_xoff_cases,
};

kunit_test_suite(bqlm_bql_xoff_suite);

MODULE_LICENSE("GPL");
