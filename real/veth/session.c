// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real veth.c beside the ring-consumer model: the harness
 * as a struct bqlm_rc_target for bqlm_rc_lockstep() and bqlm_rc_explore(),
 * and the variants of real/patches/veth/series by the model's names (see
 * harness.h, docs/real-veth.md).
 */
#include <linux/cache.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <bqlm/tun.h>

#include "harness.h"
#include "real.h"

static const char *const bqlm_rveth_names[RVETH_NR_ACTORS] = {
	"cpu0", "cpu1", "napi0",
};

/* Every variant of real/patches/veth/series (generated) */
static const struct bqlm_rc_variant bqlm_rveth_variants[] = BQLM_RVETH_VARIANTS;

/* The ops of the compiled variant the model names so, or NULL */
static const void *bqlm_rveth_variant_named(const char *name)
{
	return bqlm_rc_variant(bqlm_rveth_variants,
			       ARRAY_SIZE(bqlm_rveth_variants), name);
}

/* The compiled variant the model's configuration names, or NULL */
static const struct bqlm_rveth_ops *
bqlm_rveth_variant(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_rveth_variant_named(bqlm_tun_variant_name(cfg->variant));
}

/**
 * bqlm_rveth_supported() - can the harness run a configuration?
 * @cfg: the model's configuration
 * @why: receives what it cannot run, or NULL
 *
 * One of veth's profiles as it is (the patch is its variant's design), one
 * queue, a bounded number of packets, sequential consistency (the real
 * code runs one step at a time), this kernel's consumer batch; any budget
 * (the NAPI's weight is set to it).
 *
 * Return: 0, or -EOPNOTSUPP with what it cannot run in @why.
 */
int bqlm_rveth_supported(const struct bqlm_tun_cfg *cfg, const char **why)
{
	struct bqlm_tun_cfg base;

	*why = NULL;
	if (bqlm_tun_cfg_check(cfg))
		*why = "an invalid configuration";
	else if (!bqlm_rveth_variant(cfg))
		*why = "a variant without a line in real/patches/veth/series";
	if (*why)
		return -EOPNOTSUPP;
	bqlm_tun_cfg_default(&base, cfg->variant);
	if (!bqlm_tun_cfg_same_design(cfg, &base))
		*why = "a design other than its variant's (a property changed on top of --variant: the patch does not have it)";
	else if (cfg->mm != BQLM_MM_SC)
		*why = "a weak memory model (the real code runs one step at a time: sc)";
	else if (cfg->queues != 1)
		*why = "more than one queue";
	else if (!cfg->packets)
		*why = "an unbounded stream";
	else if (cfg->detaches || cfg->resizes || cfg->set_iffs)
		*why = "a reconfiguration (veth has none the model states)";
	else if (cfg->batch != SMP_CACHE_BYTES * 2 / sizeof(void *))
		*why = "a consumer batch other than this kernel's";
	return *why ? -EOPNOTSUPP : 0;
}

/*
 * The view after the packets' references were audited, and the model's
 * step checks on it with what the real step did to packets.
 */
static unsigned int bqlm_rveth_view_check(struct bqlm_rveth *u,
					  struct bqlm_tun *v,
					  struct bqlm_violation *each)
{
	bqlm_rveth_audit(u);
	bqlm_rveth_view(u, v);
	return bqlm_tun_check_step(v, &u->cfg, "real code", &u->ev, each);
}

/* The actors ended; true if the harness failed (bqlm_rc_end()). */
static bool bqlm_rveth_end(struct bqlm_rveth *u)
{
	bool failed = bqlm_rc_end(&u->rc);

	if (bqlm_rveth_cur == u)
		bqlm_rveth_cur = NULL;
	return failed;
}

/* The harness beside its model: the target the scheduler drives */
struct bqlm_rveth_session {
	struct bqlm_rc_target t;
	struct bqlm_rveth u;
};

static struct bqlm_rveth_session *bqlm_rveth_session(struct bqlm_rc_target *t)
{
	return container_of(t, struct bqlm_rveth_session, t);
}

/* A fresh device, and the model in its initial state */
static int bqlm_rveth_t_start(struct bqlm_rc_target *t)
{
	int ret = bqlm_rveth_up(&bqlm_rveth_session(t)->u);

	if (!ret)
		bqlm_rc_model_start(t);
	return ret;
}

static int bqlm_rveth_t_step(struct bqlm_rc_target *t, unsigned int action)
{
	return bqlm_rveth_step(&bqlm_rveth_session(t)->u, action);
}

static const char *bqlm_rveth_t_parked_at(struct bqlm_rc_target *t,
					  unsigned int action)
{
	return bqlm_rveth_parked_at(&bqlm_rveth_session(t)->u, action);
}

static unsigned int bqlm_rveth_t_enabled(struct bqlm_rc_target *t,
					 unsigned int *actions)
{
	return bqlm_rveth_enabled(&bqlm_rveth_session(t)->u, actions);
}

static unsigned int bqlm_rveth_t_view(struct bqlm_rc_target *t)
{
	return bqlm_rveth_view_check(&bqlm_rveth_session(t)->u, t->view,
				     t->each);
}

static int bqlm_rveth_t_down(struct bqlm_rc_target *t)
{
	return bqlm_rveth_down(&bqlm_rveth_session(t)->u);
}

/*
 * The session freed, unless the harness failed: its threads may still
 * use it then
 */
static void bqlm_rveth_t_destroy(struct bqlm_rc_target *t)
{
	struct bqlm_rveth_session *r = bqlm_rveth_session(t);

	if (bqlm_rveth_end(&r->u))
		return;
	bqlm_rc_target_release(t);
	kfree(r);
}

static const struct bqlm_rc_target_ops bqlm_rveth_target_ops = {
	.start = bqlm_rveth_t_start,
	.step = bqlm_rveth_t_step,
	.parked_at = bqlm_rveth_t_parked_at,
	.enabled = bqlm_rveth_t_enabled,
	.view = bqlm_rveth_t_view,
	.down = bqlm_rveth_t_down,
	.destroy = bqlm_rveth_t_destroy,
};

/**
 * bqlm_rveth_create() - the real veth.c of a configuration, beside the
 *	ring-consumer model
 * @cfg: the model's configuration (bqlm_rveth_supported())
 *
 * bqlm_rc_lockstep() runs a schedule on a fresh pair, the model beside it,
 * the real state read by bqlm_rveth_view() and compared with the model's
 * byte for byte; bqlm_rc_explore() searches the real code alone.
 * bqlm_rc_target_destroy() ends it.
 *
 * Return: the harness or an ERR_PTR(): -EOPNOTSUPP for a configuration it
 * cannot run, -EBUSY if another harness is in use, -ENOMEM.
 */
struct bqlm_rc_target *bqlm_rveth_create(const struct bqlm_tun_cfg *cfg)
{
	struct bqlm_rveth_session *r;
	const char *why;
	int ret;

	if (bqlm_rveth_supported(cfg, &why))
		return ERR_PTR(-EOPNOTSUPP);
	if (bqlm_rveth_cur)
		return ERR_PTR(-EBUSY);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	ret = bqlm_rc_target_init(&r->t, &bqlm_rveth_target_ops, &r->u.rc,
				  bqlm_tun_state_size(cfg));
	r->u.cfg = *cfg;
	r->u.ops = bqlm_rveth_variant(cfg);
	if (!ret)
		ret = bqlm_rc_init(&r->u.rc, RVETH_NR_ACTORS, bqlm_rveth_names);
	if (ret) {
		bqlm_rveth_t_destroy(&r->t);
		return ERR_PTR(ret);
	}
	bqlm_tun_system(&r->u.cfg, &r->t.sys);
	bqlm_rveth_cur = &r->u;
	return &r->t;
}
