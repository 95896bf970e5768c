// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance of the bqlmodel ptr_ring model with the kernel's ptr_ring.
 *
 * In the kernel, these cases run the real <linux/ptr_ring.h> of the tree
 * the suite is built in and model/kernel/ptr_ring.c side by side, one call at a
 * time: produce, consume, batched consume, peek, peek and discard, the
 * full and empty checks, the producer's room check, purge and resize, on
 * rings of 1 to 4096 slots. After every step the five indices (producer,
 * consumer_head, consumer_tail, size, batch) and every slot of the ring
 * (NULL, or which object) must be equal, and so must every value a call
 * returned; the first difference fails the case with the seed, the step,
 * the call and the field.
 *
 * The kernel's ring holds pointers; the model's holds small numbers. The
 * objects are the bytes of one array: object k is the byte at offset k,
 * the model's entry k (1..65535, the range of a model slot).
 *
 * The model starts from the batch the kernel starts from (read off a real
 * ring of 4096 slots: SMP_CACHE_BYTES * 2 / sizeof(void *), 16 on x86-64,
 * the model's BQLM_PTR_RING_BATCH); __ptr_ring_set_size() then caps it for
 * small rings, on both sides.
 *
 * 6.12 has no __ptr_ring_check_produce() (43be21ec2efd came later): the
 * model's is checked against what it stands for, the refusal of the next
 * __ptr_ring_produce(): before every produce its verdict must be the real
 * produce's return value, and as a query it must say -ENOSPC exactly when
 * the real __ptr_ring_full() says full (the rings here are never of size
 * 0). The model resizes in place (bqlm___ptr_ring_swap_queue()), the
 * kernel into a new array (ptr_ring_resize()): the entries destroyed must
 * be the same, in the same order, and so must the ring after.
 *
 * In userspace there is no kernel ring to compare with: the cases skip.
 */
#include "bqlm_kunit.h"
#include <bqlm/ptr_ring.h>
#include <bqlm/prng.h>

struct prc_param {
	u64 seed;		/* the first seed; the case runs @seeds of them */
	unsigned int seeds;
	unsigned int steps;	/* per seed */
	unsigned int lo, hi;	/* sizes drawn, at the start and on resize */
	bool log;		/* sizes drawn log-uniformly, else uniformly */
	const char *desc;
};

/* 100 seeds of 20000 steps: 2,000,000 steps, sizes 1..4096. */
static const struct prc_param prc_params[] = {
	{ .seed = 1000, .seeds = 25, .steps = 20000, .lo = 1, .hi = 8,
	  .desc = "seeds-1000-1024-sizes-1-to-8" },
	{ .seed = 2000, .seeds = 25, .steps = 20000, .lo = 24, .hi = 72,
	  .desc = "seeds-2000-2024-sizes-24-to-72" },
	{ .seed = 3000, .seeds = 25, .steps = 20000, .lo = 1,
	  .hi = BQLM_PTR_RING_LIMIT, .log = true,
	  .desc = "seeds-3000-3024-sizes-1-to-4096" },
	{ .seed = 4000, .seeds = 25, .steps = 20000, .lo = 1024,
	  .hi = BQLM_PTR_RING_LIMIT,
	  .desc = "seeds-4000-4024-sizes-1024-to-4096" },
};

KUNIT_ARRAY_PARAM_DESC(prc, prc_params, desc);

#ifdef __KERNEL__

#include <linux/cache.h>
#include <linux/ptr_ring.h>
#include <linux/slab.h>
#include <kunit/resource.h>

/* Object ids: a model slot holds an unsigned short. */
#define PRC_IDS		65535U
/* What prc_id() says of a pointer that is no object of the case. */
#define PRC_STRAY	0x10000U
/* Room for a batched consume or purge of every entry, and then some. */
#define PRC_OUT		(BQLM_PTR_RING_LIMIT + 2)

enum prc_op {
	PRC_PRODUCE,
	PRC_CONSUME,
	PRC_CONSUME_BATCHED,
	PRC_DISCARD,
	PRC_PEEK,
	PRC_FULL,
	PRC_EMPTY,
	PRC_CHECK_PRODUCE,
	PRC_COUNT,
	PRC_PURGE,
	PRC_RESIZE,
	PRC_NR_OPS
};

static const char * const prc_op_names[PRC_NR_OPS] = {
	[PRC_PRODUCE] = "__ptr_ring_produce",
	[PRC_CONSUME] = "__ptr_ring_consume",
	[PRC_CONSUME_BATCHED] = "__ptr_ring_consume_batched",
	[PRC_DISCARD] = "__ptr_ring_peek+__ptr_ring_discard_one",
	[PRC_PEEK] = "__ptr_ring_peek",
	[PRC_FULL] = "__ptr_ring_full",
	[PRC_EMPTY] = "__ptr_ring_empty",
	[PRC_CHECK_PRODUCE] = "__ptr_ring_check_produce",
	[PRC_COUNT] = "count",
	[PRC_PURGE] = "purge",
	[PRC_RESIZE] = "ptr_ring_resize",
};

struct prc_ctx {
	struct kunit *test;
	struct ptr_ring real;
	bool real_live;			/* @real holds a queue */
	struct bqlm_ptr_ring model;
	unsigned short *mem;		/* the model's slots: words 0.. */
	struct bqlm_sb sb;
	struct bqlm_mm_cpu c;
	char *objs;			/* object k is objs + k */
	void **real_out;		/* PRC_OUT entries */
	unsigned int *real_ids;		/* PRC_OUT: ids the kernel gave back */
	unsigned int nreal;
	unsigned int *model_out;	/* PRC_OUT */
	unsigned int *queue;		/* the model's new queue on resize */
	int batch;			/* the kernel's starting batch */
	unsigned int next_id;
	unsigned int live;		/* entries the book says are in */
	u64 seed;
	unsigned int step;
	/* figures */
	unsigned long produced, refused, consumed, destroyed;
	unsigned int resizes, min_size, max_size;
};

/* ptr_ring_resize()'s destroy callback has no context: the case's. */
static struct prc_ctx *prc_destroying;

static unsigned int prc_id(const struct prc_ctx *ctx, const void *ptr)
{
	const char *p = ptr;

	if (!p)
		return 0;
	if (p <= ctx->objs || p > ctx->objs + PRC_IDS)
		return PRC_STRAY;
	return p - ctx->objs;
}

static void prc_destroy(void *ptr)
{
	struct prc_ctx *ctx = prc_destroying;

	if (ctx && ctx->nreal < PRC_OUT)
		ctx->real_ids[ctx->nreal++] = prc_id(ctx, ptr);
}

static bool prc_differs(struct prc_ctx *ctx, const char *op, unsigned int arg,
			const char *field, long real, long model)
{
	KUNIT_FAIL(ctx->test,
		   "seed %llu step %u: %s(%u): %s differs: kernel %ld, model %ld",
		   (unsigned long long)ctx->seed, ctx->step, op, arg, field,
		   real, model);
	return false;
}

/* Every index and every slot of the ring, kernel against model. */
static bool prc_compare(struct prc_ctx *ctx, const char *op, unsigned int arg)
{
	const struct ptr_ring *r = &ctx->real;
	const struct bqlm_ptr_ring *m = &ctx->model;
	char field[24];
	unsigned int k, j;
	int i;
#define PRC_IDX(f)	{ .name = #f, .real = r->f, .model = m->f }
	const struct {
		const char *name;
		int real, model;
	} idx[] = {
		PRC_IDX(size), PRC_IDX(batch), PRC_IDX(producer),
		PRC_IDX(consumer_head), PRC_IDX(consumer_tail),
	};
#undef PRC_IDX

	for (j = 0; j < ARRAY_SIZE(idx); j++)
		if (idx[j].real != idx[j].model)
			return prc_differs(ctx, op, arg, idx[j].name,
					   idx[j].real, idx[j].model);
	for (i = 0; i < r->size; i++) {
		k = prc_id(ctx, r->queue[i]);
		if (k != ctx->mem[m->base + i]) {
			scnprintf(field, sizeof(field), "queue[%d]", i);
			return prc_differs(ctx, op, arg, field, k,
					   ctx->mem[m->base + i]);
		}
	}
	return true;
}

static bool prc_same(struct prc_ctx *ctx, const char *op, unsigned int arg,
		     const char *what, long real, long model)
{
	return real == model || prc_differs(ctx, op, arg, what, real, model);
}

/* Entries given back by both sides: the same number, the same objects. */
static bool prc_same_list(struct prc_ctx *ctx, const char *op,
			  unsigned int arg, const char *what, int nmodel)
{
	char field[32];
	int i;

	if (!prc_same(ctx, op, arg, what, ctx->nreal, nmodel))
		return false;
	for (i = 0; i < nmodel; i++) {
		scnprintf(field, sizeof(field), "%s[%d]", what, i);
		if (!prc_same(ctx, op, arg, field, ctx->real_ids[i],
			      ctx->model_out[i]))
			return false;
	}
	return true;
}

static void prc_free_real(void *data)
{
	struct prc_ctx *ctx = data;

	if (ctx->real_live)
		ptr_ring_cleanup(&ctx->real, NULL);
	ctx->real_live = false;
	prc_destroying = NULL;
}

static struct prc_ctx *prc_ctx_alloc(struct kunit *test)
{
	struct prc_ctx *ctx;
	struct ptr_ring probe;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx, "the case's rings and buffers");
	ctx->test = test;
	ctx->mem = kunit_kcalloc(test, BQLM_PTR_RING_LIMIT,
				 sizeof(*ctx->mem), GFP_KERNEL);
	ctx->objs = kunit_kzalloc(test, PRC_IDS + 1, GFP_KERNEL);
	ctx->real_out = kunit_kcalloc(test, PRC_OUT, sizeof(void *),
				      GFP_KERNEL);
	ctx->real_ids = kunit_kcalloc(test, PRC_OUT, sizeof(unsigned int),
				      GFP_KERNEL);
	ctx->model_out = kunit_kcalloc(test, PRC_OUT, sizeof(unsigned int),
				       GFP_KERNEL);
	ctx->queue = kunit_kcalloc(test, BQLM_PTR_RING_LIMIT,
				   sizeof(unsigned int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->mem,
				  "the case's rings and buffers");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->objs,
				  "the case's rings and buffers");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->real_out,
				  "the case's rings and buffers");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->real_ids,
				  "the case's rings and buffers");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->model_out,
				  "the case's rings and buffers");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->queue,
				  "the case's rings and buffers");
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test, prc_free_real,
							    ctx), 0,
			    "the case's rings and buffers");
	ctx->c.kind = BQLM_MM_SC;
	ctx->c.mem = ctx->mem;
	ctx->c.sb = &ctx->sb;

	/* the batch the kernel starts from: no cap on a ring this large */
	KUNIT_ASSERT_EQ_MSG(test, ptr_ring_init(&probe, BQLM_PTR_RING_LIMIT,
						GFP_KERNEL), 0,
			    "the ring that gives the starting batch");
	ctx->batch = probe.batch;
	ptr_ring_cleanup(&probe, NULL);
	KUNIT_ASSERT_GT_MSG(test, ctx->batch, 0, "the kernel's starting batch");
	KUNIT_ASSERT_LE_MSG(test, ctx->batch, BQLM_PTR_RING_LIMIT / 2,
			    "the kernel's starting batch");
	prc_destroying = ctx;
	ctx->min_size = UINT_MAX;
	return ctx;
}

/* A fresh pair of empty rings of @size slots. */
static void prc_start(struct prc_ctx *ctx, unsigned int size)
{
	prc_free_real(ctx);
	prc_destroying = ctx;
	KUNIT_ASSERT_EQ_MSG(ctx->test, ptr_ring_init(&ctx->real, size,
						     GFP_KERNEL), 0,
			    "seed %llu: ptr_ring_init(%u)",
			    (unsigned long long)ctx->seed, size);
	ctx->real_live = true;
	memset(ctx->mem, 0, BQLM_PTR_RING_LIMIT * sizeof(*ctx->mem));
	memset(&ctx->sb, 0, sizeof(ctx->sb));
	bqlm_ptr_ring_init(&ctx->model, 0, size, ctx->batch);
	ctx->next_id = 1;
	ctx->live = 0;
	ctx->min_size = min(ctx->min_size, size);
	ctx->max_size = max(ctx->max_size, size);
}

/*
 * One step on both rings: the call, its results, then the whole ring.
 * Returns false (the case has failed) at the first difference.
 */
static bool prc_step(struct prc_ctx *ctx, enum prc_op op, unsigned int arg)
{
	struct bqlm_ptr_ring *m = &ctx->model;
	const struct bqlm_mm_cpu *c = &ctx->c;
	struct ptr_ring *r = &ctx->real;
	const char *name = prc_op_names[op];
	unsigned int k, id;
	int ret, mret, i;
	void *ptr;

	ctx->step++;
	switch (op) {
	case PRC_PRODUCE:
		id = ctx->next_id;
		mret = bqlm___ptr_ring_check_produce(m, c);
		ret = __ptr_ring_produce(r, ctx->objs + id);
		if (!prc_same(ctx, name, id, "__ptr_ring_check_produce()",
			      ret, mret))
			return false;
		mret = bqlm___ptr_ring_produce(m, c, id);
		if (!prc_same(ctx, name, id, "return value", ret, mret))
			return false;
		if (ret) {
			ctx->refused++;
		} else {
			ctx->produced++;
			ctx->live++;
			ctx->next_id = id % PRC_IDS + 1;
		}
		break;
	case PRC_CONSUME:
		k = prc_id(ctx, __ptr_ring_consume(r));
		id = bqlm___ptr_ring_consume(m, c);
		if (!prc_same(ctx, name, 0, "entry", k, id))
			return false;
		ctx->consumed += !!id;
		ctx->live -= !!id;
		break;
	case PRC_CONSUME_BATCHED:
		ret = __ptr_ring_consume_batched(r, ctx->real_out, arg);
		mret = bqlm___ptr_ring_consume_batched(m, c, ctx->model_out,
						       arg);
		for (i = 0; i < ret; i++)
			ctx->real_ids[i] = prc_id(ctx, ctx->real_out[i]);
		ctx->nreal = ret;
		if (!prc_same_list(ctx, name, arg, "entries", mret))
			return false;
		ctx->consumed += mret;
		ctx->live -= mret;
		break;
	case PRC_DISCARD:
		k = prc_id(ctx, __ptr_ring_peek(r));
		id = bqlm___ptr_ring_peek(m, c);
		if (!prc_same(ctx, name, 0, "peeked entry", k, id))
			return false;
		if (k) {
			__ptr_ring_discard_one(r);
			bqlm___ptr_ring_discard_one(m, c);
			ctx->consumed++;
			ctx->live--;
		}
		break;
	case PRC_PEEK:
		k = prc_id(ctx, __ptr_ring_peek(r));
		if (!prc_same(ctx, name, 0, "entry", k,
			      bqlm___ptr_ring_peek(m, c)))
			return false;
		break;
	case PRC_FULL:
		if (!prc_same(ctx, name, 0, "full", __ptr_ring_full(r),
			      bqlm___ptr_ring_full(m, c)))
			return false;
		break;
	case PRC_EMPTY:
		if (!prc_same(ctx, name, 0, "empty", __ptr_ring_empty(r),
			      bqlm___ptr_ring_empty(m, c)))
			return false;
		break;
	case PRC_CHECK_PRODUCE:
		/* the refusal of the next produce: __ptr_ring_full() */
		if (!prc_same(ctx, name, 0, "verdict",
			      __ptr_ring_full(r) ? -ENOSPC : 0,
			      bqlm___ptr_ring_check_produce(m, c)))
			return false;
		break;
	case PRC_COUNT:
		/* model only: against the harness's own book */
		if (!prc_same(ctx, name, 0, "bqlm_ptr_ring_count() vs book",
			      ctx->live, bqlm_ptr_ring_count(m, ctx->mem)))
			return false;
		break;
	case PRC_PURGE:
		/* tun_queue_purge(): consume until empty */
		ctx->nreal = 0;
		while (ctx->nreal < PRC_OUT && (ptr = __ptr_ring_consume(r)))
			ctx->real_ids[ctx->nreal++] = prc_id(ctx, ptr);
		mret = bqlm_ptr_ring_purge(m, c, ctx->model_out, PRC_OUT);
		if (!prc_same_list(ctx, name, 0, "freed", mret))
			return false;
		ctx->consumed += mret;
		ctx->live -= mret;
		break;
	case PRC_RESIZE:
		ctx->nreal = 0;
		ret = ptr_ring_resize(r, arg, GFP_KERNEL, prc_destroy);
		KUNIT_ASSERT_EQ_MSG(ctx->test, ret, 0,
				    "seed %llu step %u: ptr_ring_resize(%u)",
				    (unsigned long long)ctx->seed, ctx->step,
				    arg);
		mret = bqlm___ptr_ring_swap_queue(m, c, ctx->queue, arg,
						  ctx->batch, ctx->model_out,
						  PRC_OUT);
		if (!prc_same_list(ctx, name, arg, "destroyed", mret))
			return false;
		ctx->resizes++;
		ctx->destroyed += mret;
		ctx->live -= mret;
		ctx->min_size = min(ctx->min_size, arg);
		ctx->max_size = max(ctx->max_size, arg);
		break;
	case PRC_NR_OPS:
		break;
	}
	return prc_compare(ctx, name, arg);
}

/* The seeded workload: phases of filling, draining and balance. */
enum prc_mode {
	PRC_FILLING,
	PRC_DRAINING,
	PRC_BALANCED,
	PRC_NR_MODES
};

struct prc_gen {
	struct bqlm_prng r;
	enum prc_mode mode;
	unsigned int left;	/* steps left in the phase */
};

static unsigned int prc_draw_size(struct prc_gen *g, const struct prc_param *p,
				  int batch)
{
	/* the ends, and around the size from which batching is on */
	const unsigned int edges[] = {
		p->lo, p->hi, 2 * batch - 1, 2 * batch, 2 * batch + 1,
	};
	unsigned int k, bits;

	if (!bqlm_prng_below(&g->r, 4)) {
		k = edges[bqlm_prng_below(&g->r, ARRAY_SIZE(edges))];
		if (k >= p->lo && k <= p->hi)
			return k;
	}
	if (!p->log)
		return p->lo + bqlm_prng_below(&g->r, p->hi - p->lo + 1);
	bits = bqlm_prng_below(&g->r, 13);
	k = (1U << bits) + bqlm_prng_below(&g->r, 1U << bits);
	return clamp(k, p->lo, p->hi);
}

static enum prc_op prc_next(struct prc_gen *g, const struct prc_ctx *ctx,
			    const struct prc_param *p, unsigned int *arg)
{
	/* produce, consume, batched consume, peek+discard; per phase */
	static const unsigned char weights[PRC_NR_MODES][4] = {
		[PRC_FILLING] = { 85, 5, 5, 5 },
		[PRC_DRAINING] = { 10, 30, 40, 20 },
		[PRC_BALANCED] = { 50, 20, 15, 15 },
	};
	unsigned int size = ctx->model.size, dice, w, i;
	const unsigned char *wt;

	*arg = 0;
	if (!g->left) {
		g->mode = bqlm_prng_below(&g->r, PRC_NR_MODES);
		g->left = 1 + bqlm_prng_below(&g->r, 4 * size + 64);
	}
	g->left--;
	/* a purge empties the ring: rarer the larger it is */
	if (!bqlm_prng_below(&g->r, 2000 + 16 * size))
		return PRC_PURGE;
	dice = bqlm_prng_below(&g->r, 1000);
	if (dice < 1) {
		*arg = prc_draw_size(g, p, ctx->batch);
		return PRC_RESIZE;
	}
	if (dice < 200)
		return PRC_PEEK + bqlm_prng_below(&g->r, PRC_COUNT -
						  PRC_PEEK + 1);
	wt = weights[g->mode];
	w = bqlm_prng_below(&g->r, 100);
	for (i = 0; i < 3 && w >= wt[i]; i++)
		w -= wt[i];
	if (i != 2)
		return i == 0 ? PRC_PRODUCE : i == 1 ? PRC_CONSUME :
		       PRC_DISCARD;
	/*
	 * A few, as vhost-net; a batch or two; when draining, now and then
	 * all there is.
	 */
	dice = bqlm_prng_below(&g->r, 20);
	if (g->mode == PRC_DRAINING && dice < 2)
		*arg = 1 + bqlm_prng_below(&g->r, size + 2);
	else if (g->mode != PRC_FILLING && dice < 10)
		*arg = 1 + bqlm_prng_below(&g->r, 2 * ctx->batch + 2);
	else
		*arg = 1 + bqlm_prng_below(&g->r, 4);
	return PRC_CONSUME_BATCHED;
}

static void ptr_ring_conformance(struct kunit *test)
{
	const struct prc_param *p = test->param_value;
	unsigned long steps = 0;
	struct prc_ctx *ctx;
	struct prc_gen g;
	unsigned int s, i, arg;
	enum prc_op op;

	ctx = prc_ctx_alloc(test);
	for (s = 0; s < p->seeds; s++) {
		ctx->seed = p->seed + s;
		ctx->step = 0;
		memset(&g, 0, sizeof(g));
		bqlm_prng_seed(&g.r, ctx->seed);
		prc_start(ctx, prc_draw_size(&g, p, ctx->batch));
		if (!prc_compare(ctx, "ptr_ring_init", ctx->model.size))
			return;
		for (i = 0; i < p->steps; i++) {
			op = prc_next(&g, ctx, p, &arg);
			if (!prc_step(ctx, op, arg))
				return;
		}
		/* what is left: the book, the model's count, the kernel's */
		if (!prc_step(ctx, PRC_COUNT, 0) ||
		    !prc_step(ctx, PRC_PURGE, 0))
			return;
		steps += ctx->step;
	}
	KUNIT_EXPECT_EQ(test, ctx->produced,
			ctx->consumed + ctx->destroyed);
	/* the workload reached what it is there for */
	KUNIT_EXPECT_GT(test, ctx->refused, 0UL);
	KUNIT_EXPECT_GT(test, ctx->destroyed, 0UL);
	KUNIT_EXPECT_EQ(test, ctx->min_size, p->lo);
	KUNIT_EXPECT_EQ(test, ctx->max_size, p->hi);
	kunit_info(test, "%u seeds, %lu steps, sizes %u..%u, batch %d: %lu produced, %lu refused (full), %lu consumed, %u resizes destroying %lu; every index and slot equal after every step",
		   p->seeds, steps, ctx->min_size, ctx->max_size, ctx->batch,
		   ctx->produced, ctx->refused, ctx->consumed, ctx->resizes,
		   ctx->destroyed);
}

/*
 * __ptr_ring_set_size()'s rule for every size from 1 to 4096, at
 * ptr_ring_init() and at ptr_ring_resize(): the kernel's batch, and the
 * model's from the kernel's starting batch.
 */
static void ptr_ring_conformance_batch_rule(struct kunit *test)
{
	struct prc_ctx *ctx = prc_ctx_alloc(test);
	unsigned int size, first = 0;

	kunit_info(test, "the kernel starts from a batch of %d (SMP_CACHE_BYTES %d, pointers of %zu bytes)",
		   ctx->batch, SMP_CACHE_BYTES, sizeof(void *));
	/* the model's default is x86-64's */
	if (SMP_CACHE_BYTES == 64 && sizeof(void *) == 8)
		KUNIT_EXPECT_EQ(test, ctx->batch, BQLM_PTR_RING_BATCH);
	ctx->seed = 0;
	for (size = 1; size <= BQLM_PTR_RING_LIMIT; size++) {
		prc_start(ctx, size);
		if (!prc_compare(ctx, "ptr_ring_init", size))
			return;
		if (ctx->real.batch > 1 && !first)
			first = size;
	}
	/* one ring resized through every size, down, then up */
	prc_start(ctx, BQLM_PTR_RING_LIMIT);
	for (size = BQLM_PTR_RING_LIMIT; size >= 1; size--)
		if (!prc_step(ctx, PRC_RESIZE, size))
			return;
	for (size = 1; size <= BQLM_PTR_RING_LIMIT; size++)
		if (!prc_step(ctx, PRC_RESIZE, size))
			return;
	/* batching starts at twice the batch: below, one slot at a time */
	KUNIT_EXPECT_EQ(test, first, 2U * ctx->batch);
	kunit_info(test, "sizes 1..%u: batch 1 up to %u, %d from %u on, at init and at each of %u resizes",
		   BQLM_PTR_RING_LIMIT, first - 1, ctx->batch, first,
		   ctx->resizes);
}

/*
 * @n steps @op (argument @arg), each with the same result on the
 * kernel's ring and on the model's (prc_step()), or the case ends.
 */
static void prc_steps(struct prc_ctx *ctx, enum prc_op op, unsigned int arg,
		      unsigned int n)
{
	while (n--)
		KUNIT_ASSERT_TRUE_MSG(ctx->test, prc_step(ctx, op, arg),
				      "step %u, ring of %d", ctx->step,
				      ctx->real.size);
}

/* The kernel's ring is full after step ctx->step */
static void prc_expect_full(struct prc_ctx *ctx)
{
	KUNIT_EXPECT_TRUE_MSG(ctx->test, __ptr_ring_full(&ctx->real),
			      "step %u, ring of %d", ctx->step, ctx->real.size);
}

/*
 * The batched zeroing, step by step on a ring of four batches and on one
 * of two and a half: the producer sees consumed slots taken until a whole
 * batch is consumed, or the end of the ring is reached.
 */
static void ptr_ring_conformance_zeroing(struct kunit *test)
{
	struct prc_ctx *ctx = prc_ctx_alloc(test);
	unsigned int b, size, i;

	b = ctx->batch;
	KUNIT_ASSERT_GE(test, b, 2U);
	size = 4 * b;
	prc_start(ctx, size);
	prc_steps(ctx, PRC_PRODUCE, 0, size);
	prc_steps(ctx, PRC_FULL, 0, 1);
	prc_expect_full(ctx);
	/* a batch less one consumed: nothing zeroed, still full */
	prc_steps(ctx, PRC_CONSUME, 0, b - 1);
	prc_expect_full(ctx);
	KUNIT_EXPECT_EQ(test, ctx->real.consumer_tail, 0);
	KUNIT_EXPECT_EQ(test, prc_id(ctx, ctx->real.queue[0]), 1U);
	prc_steps(ctx, PRC_PRODUCE, 0, 1);
	KUNIT_EXPECT_EQ(test, ctx->refused, 1UL);
	/* the batch's last: all of its slots zeroed at once */
	prc_steps(ctx, PRC_CONSUME, 0, 1);
	KUNIT_EXPECT_FALSE(test, __ptr_ring_full(&ctx->real));
	KUNIT_EXPECT_EQ(test, ctx->real.consumer_tail, (int)b);
	for (i = 0; i < b; i++)
		KUNIT_EXPECT_NULL_MSG(test, ctx->real.queue[i], "slot %u", i);
	KUNIT_EXPECT_NOT_NULL(test, ctx->real.queue[b]);
	prc_steps(ctx, PRC_PRODUCE, 0, b);
	prc_steps(ctx, PRC_CHECK_PRODUCE, 0, 1);
	prc_expect_full(ctx);

	/* two and a half batches: the half at the end goes at the wrap */
	size = 2 * b + b / 2;
	prc_start(ctx, size);
	KUNIT_EXPECT_EQ(test, ctx->real.batch, (int)b);
	prc_steps(ctx, PRC_PRODUCE, 0, size);
	prc_steps(ctx, PRC_CONSUME_BATCHED, size - 1, 1);
	KUNIT_EXPECT_EQ(test, ctx->real.consumer_tail, (int)(2 * b));
	KUNIT_EXPECT_NOT_NULL(test, ctx->real.queue[size - 2]);
	prc_steps(ctx, PRC_DISCARD, 0, 1);
	KUNIT_EXPECT_EQ(test, ctx->real.consumer_head, 0);
	KUNIT_EXPECT_EQ(test, ctx->real.consumer_tail, 0);
	for (i = 2 * b; i < size; i++)
		KUNIT_EXPECT_NULL_MSG(test, ctx->real.queue[i], "slot %u", i);
	prc_steps(ctx, PRC_EMPTY, 0, 1);
	prc_steps(ctx, PRC_COUNT, 0, 1);
	kunit_info(test, "batch %u: %u steps equal, zeroing after %u consumes and at the end of a ring of %u",
		   b, ctx->step, b, size);
}

#else /* userspace */

static void ptr_ring_conformance(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's <linux/ptr_ring.h>");
}

static void ptr_ring_conformance_batch_rule(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's <linux/ptr_ring.h>");
}

static void ptr_ring_conformance_zeroing(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's <linux/ptr_ring.h>");
}

#endif /* __KERNEL__ */

static struct kunit_case bqlm_ptr_ring_conformance_cases[] = {
	KUNIT_CASE(ptr_ring_conformance_batch_rule),
	KUNIT_CASE(ptr_ring_conformance_zeroing),
	/* 500,000 steps a parameter: up to 2 s in UML */
	KUNIT_CASE_PARAM_ATTR(ptr_ring_conformance, prc_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

BQLM_KUNIT_SUITE(bqlm_ptr_ring_conformance, bqlm_ptr_ring_conformance_cases);
