// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real tun.c beside the model: the harness as a struct
 * bqlm_rc_target for bqlm_rc_lockstep() and bqlm_rc_explore(), and the
 * variants of real/patches/tun/series by name (see harness.h,
 * docs/real-tun.md).
 */
#include <linux/cache.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <bqlm/tun.h>

#include "harness.h"
#include "real.h"

static const char *const bqlm_rtun_names[RTUN_NR_ACTORS] = {
	"cpu0", "cpu1", "rd0", "rd1", "admin",
};

static const char *const bqlm_rtun_lock_names[BQLM_TUN_MAX_QUEUES][2] = {
	{ "q0 producer_lock", "q0 consumer_lock" },
	{ "q1 producer_lock", "q1 consumer_lock" },
};

/* Every variant of real/patches/tun/series (generated) */
static const struct bqlm_rc_variant bqlm_rtun_variants[] = BQLM_RTUN_VARIANTS;

/* The ops of the compiled variant the model names so, or NULL */
static const void *bqlm_rtun_variant_named(const char *name)
{
	return bqlm_rc_variant(bqlm_rtun_variants,
			       ARRAY_SIZE(bqlm_rtun_variants), name);
}

/* The compiled variant the model's configuration names, or NULL */
static const struct bqlm_rtun_ops *bqlm_rtun_variant(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_rtun_variant_named(bqlm_tun_variant_name(cfg->variant));
}

/**
 * bqlm_rtun_supported() - can the harness run a configuration?
 * @cfg: the model's configuration
 * @why: receives what it cannot run, or NULL
 *
 * Return: 0, or -EOPNOTSUPP with what it cannot run in @why.
 */
int bqlm_rtun_supported(const struct bqlm_tun_cfg *cfg, const char **why)
{
	struct bqlm_tun_cfg base;

	*why = NULL;
	if (bqlm_tun_napi(cfg))
		*why = "a NAPI consumer: veth's design, which bqlm_real_veth_* runs on the real veth.c";
	else if (bqlm_tun_cfg_check(cfg))
		*why = "an invalid configuration";
	else if (!bqlm_rtun_variant(cfg))
		*why = "a variant without a patch in real/patches/tun/series";
	if (*why)
		return -EOPNOTSUPP;
	/* the patch is its variant's design: no property changed on top */
	bqlm_tun_cfg_default(&base, cfg->variant);
	if (!bqlm_tun_cfg_same_design(cfg, &base))
		*why = "a design other than its variant's (a property changed on top of --variant: the patch does not have it)";
	else if (cfg->mm != BQLM_MM_SC)
		*why = "a weak memory model (the real code runs one step at a time: sc)";
	else if (cfg->reader != BQLM_TUN_READ)
		*why = "a reader other than a blocking read()";
	else if (!cfg->packets)
		*why = "an unbounded stream";
	else if (cfg->set_iffs)
		*why = "TUNSETIFF on the running device (reached only by re-attaching a persistent device)";
	else if (cfg->batch != SMP_CACHE_BYTES * 2 / sizeof(void *))
		*why = "a consumer batch other than this kernel's";
	return *why ? -EOPNOTSUPP : 0;
}

/*
 * The view after the packets' references were audited, and the model's
 * step checks on it with what the real step did to packets.
 */
static unsigned int bqlm_rtun_view_check(struct bqlm_rtun *u,
					 struct bqlm_tun *v,
					 struct bqlm_violation *each)
{
	bqlm_rtun_audit(u);
	bqlm_rtun_view(u, v);
	return bqlm_tun_check_step(v, &u->cfg, "real code", &u->ev, each);
}

/* The actors ended; true if the harness failed (bqlm_rc_end()). */
static bool bqlm_rtun_end(struct bqlm_rtun *u)
{
	bool failed = bqlm_rc_end(&u->rc);

	if (bqlm_rtun_cur == u)
		bqlm_rtun_cur = NULL;
	return failed;
}

/* The harness beside its model: the target the scheduler drives */
struct bqlm_rtun_session {
	struct bqlm_rc_target t;
	struct bqlm_rtun u;
};

static struct bqlm_rtun_session *bqlm_rtun_session(struct bqlm_rc_target *t)
{
	return container_of(t, struct bqlm_rtun_session, t);
}

/* A fresh device, and the model in its initial state */
static int bqlm_rtun_t_start(struct bqlm_rc_target *t)
{
	int ret = bqlm_rtun_up(&bqlm_rtun_session(t)->u);

	if (!ret)
		bqlm_rc_model_start(t);
	return ret;
}

static int bqlm_rtun_t_step(struct bqlm_rc_target *t, unsigned int action)
{
	return bqlm_rtun_step(&bqlm_rtun_session(t)->u, action);
}

static const char *bqlm_rtun_t_parked_at(struct bqlm_rc_target *t,
					 unsigned int action)
{
	return bqlm_rtun_parked_at(&bqlm_rtun_session(t)->u, action);
}

static unsigned int bqlm_rtun_t_enabled(struct bqlm_rc_target *t,
					unsigned int *actions)
{
	return bqlm_rtun_enabled(&bqlm_rtun_session(t)->u, actions);
}

static unsigned int bqlm_rtun_t_view(struct bqlm_rc_target *t)
{
	return bqlm_rtun_view_check(&bqlm_rtun_session(t)->u, t->view, t->each);
}

static int bqlm_rtun_t_down(struct bqlm_rc_target *t)
{
	return bqlm_rtun_down(&bqlm_rtun_session(t)->u);
}

/*
 * The session freed, unless the harness failed: its threads may still
 * use it then
 */
static void bqlm_rtun_t_destroy(struct bqlm_rc_target *t)
{
	struct bqlm_rtun_session *r = bqlm_rtun_session(t);

	if (bqlm_rtun_end(&r->u))
		return;
	bqlm_rc_target_release(t);
	kfree(r);
}

static const struct bqlm_rc_target_ops bqlm_rtun_target_ops = {
	.start = bqlm_rtun_t_start,
	.step = bqlm_rtun_t_step,
	.parked_at = bqlm_rtun_t_parked_at,
	.enabled = bqlm_rtun_t_enabled,
	.view = bqlm_rtun_t_view,
	.down = bqlm_rtun_t_down,
	.destroy = bqlm_rtun_t_destroy,
};

/**
 * bqlm_rtun_create() - the real tun.c of a configuration, beside the model
 * @cfg: the model's configuration (bqlm_rtun_supported())
 *
 * bqlm_rc_lockstep() runs a schedule on it, the model beside it, with the
 * real state read by bqlm_rtun_view() and compared with the model's byte
 * for byte; bqlm_rc_explore() searches the real code alone.
 * bqlm_rc_target_destroy() ends it.
 *
 * Return: the harness or an ERR_PTR(): -EOPNOTSUPP for a configuration it
 * cannot run, -EBUSY if another harness is in use, -ENOMEM.
 */
struct bqlm_rc_target *bqlm_rtun_create(const struct bqlm_tun_cfg *cfg)
{
	struct bqlm_rtun_session *r;
	const char *why;
	unsigned int q;
	int ret;

	if (bqlm_rtun_supported(cfg, &why))
		return ERR_PTR(-EOPNOTSUPP);
	if (bqlm_rtun_cur)
		return ERR_PTR(-EBUSY);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	ret = bqlm_rc_target_init(&r->t, &bqlm_rtun_target_ops, &r->u.rc,
				  bqlm_tun_state_size(cfg));
	r->u.cfg = *cfg;
	r->u.ops = bqlm_rtun_variant(cfg);
	for (q = 0; q < BQLM_TUN_MAX_QUEUES; q++) {
		bqlm_rc_lock_init(&r->u.plock[q], bqlm_rtun_lock_names[q][0]);
		bqlm_rc_lock_init(&r->u.clock[q], bqlm_rtun_lock_names[q][1]);
	}
	if (!ret)
		ret = bqlm_rc_init(&r->u.rc, RTUN_NR_ACTORS, bqlm_rtun_names);
	if (ret) {
		bqlm_rtun_t_destroy(&r->t);
		return ERR_PTR(ret);
	}
	bqlm_tun_system(&r->u.cfg, &r->t.sys);
	bqlm_rtun_cur = &r->u;
	return &r->t;
}
