// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real virtio_net.c beside the NIC model: the harness as a
 * struct bqlm_rc_target for bqlm_rc_lockstep() and bqlm_rc_explore(), the
 * variants of real/patches/virtio_net/series by name, and what the
 * harness can run (see harness.h, docs/real-virtio_net.md).
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <bqlm/nic.h>

#include "harness.h"
#include "real.h"

static const char *const bqlm_rvnet_names[RVNET_NR_ACTORS] = {
	"stack", "dev0", "dev1", "napi0", "napi1", "rx0", "rx1", "path",
};

/* Every variant of real/patches/virtio_net/series (generated) */
static const struct bqlm_rc_variant bqlm_rvnet_variants[] =
	BQLM_RVIRTIO_NET_VARIANTS;

/* The ops of the compiled variant the model names so, or NULL */
static const void *bqlm_rvnet_variant_named(const char *name)
{
	return bqlm_rc_variant(bqlm_rvnet_variants,
			       ARRAY_SIZE(bqlm_rvnet_variants), name);
}

/**
 * bqlm_rvnet_variant_of() - the variant a profile of the NIC model runs on
 * @profile: the profile's name (bqlm_nic_profile_by_name())
 *
 * The bug side of a virtio_net fix (its commit ends in '^') runs on the
 * variant named as the profile without "virtio-net-"; the fixed side on
 * "stock", the tree's, which has the three fixes.
 *
 * Return: the variant's name, or NULL for a profile that is not
 * virtio_net's.
 */
const char *bqlm_rvnet_variant_of(const char *profile)
{
	const struct bqlm_profile *p;
	int id = profile ? bqlm_nic_profile_by_name(profile) : -1;
	size_t n;

	if (id < 0)
		return NULL;
	p = bqlm_nic_profile(id);
	if (!p || strcmp(p->driver, "virtio_net"))
		return NULL;
	n = strlen(p->commit);
	if (!n || p->commit[n - 1] != '^')
		return "stock";
	return p->name + strlen("virtio-net-");
}

/**
 * bqlm_rvnet_supported() - can the harness run a configuration?
 * @cfg: the model's configuration
 * @variant: the variant's name (real/patches/virtio_net/series)
 * @why: receives what it cannot run
 *
 * virtio_net's transmit pattern as the profiles state it, one queue pair,
 * one descriptor per model packet of 1000 bytes, a ring of 1 to 4
 * packets, a poll's budget no smaller than the ring (free_old_xmit()
 * cleans every used buffer), no XDP frames, no tx timeout. The reset
 * paths' lists are the real code's to take or refuse.
 *
 * Return: 0, or -EOPNOTSUPP with the reason in @why.
 */
int bqlm_rvnet_supported(const struct bqlm_nic_cfg *cfg, const char *variant,
			 const char **why)
{
	*why = NULL;
	if (bqlm_nic_cfg_check(cfg))
		*why = "an invalid configuration";
	else if (!bqlm_rvnet_variant_named(variant))
		*why = "a variant without a line in real/patches/virtio_net/series";
	else if (cfg->queues != 1)
		*why = "more than one queue pair (the device has no control virtqueue)";
	else if (cfg->descs != 1 || cfg->len != RVNET_PKT_LEN)
		*why = "packets other than one model descriptor of 1000 bytes";
	else if (cfg->budget < cfg->ring)
		*why = "a poll budget below the ring (virtnet_poll_tx() cleans every used buffer)";
	else if (cfg->sent != BQLM_NIC_SENT_BEFORE_DOORBELL ||
		 cfg->sent_call != BQLM_NIC_CALL_XMIT_MORE ||
		 cfg->doorbell != BQLM_NIC_KICK_SENT_QUEUE ||
		 cfg->stopcheck != BQLM_NIC_STOP_BEFORE_SENT)
		*why = "a transmit other than virtio_net's";
	else if (cfg->completers != BQLM_NIC_COMPLETE_NAPI_XMIT ||
		 !cfg->napi_txlock || cfg->bytes != BQLM_NIC_BYTES_SKB_LEN ||
		 cfg->completion != BQLM_NIC_COMPLETION_NAPI ||
		 cfg->complete_queue != BQLM_NIC_CQUEUE_OWN ||
		 cfg->notify != BQLM_NIC_NOTIFY_VQ_CB ||
		 cfg->down != BQLM_NIC_DOWN_NONE)
		*why = "a completion other than virtio_net's";
	else if (bqlm_nic_split(cfg))
		*why = "the driver's stop and wake cut at their barriers (the real code runs one step at a time: sc, the helpers' forms)";
	else if (cfg->drv_queue != BQLM_NIC_DQUEUE_OWN ||
		 cfg->index != BQLM_NIC_INDEX_DESCS)
		*why = "a stop or an index other than virtio_net's";
	else if (cfg->drops || cfg->hangs)
		*why = "a DMA mapping error or a device hang (the fake device does neither)";
	else if (cfg->xdp_frames)
		*why = "XDP frames";
	else if (cfg->timeouts)
		*why = "a tx timeout recovery (virtio_net's ndo_tx_timeout only logs)";
	return *why ? -EOPNOTSUPP : 0;
}

/* The harness beside its model: the target the scheduler drives */
struct bqlm_rvnet_session {
	struct bqlm_rc_target t;
	struct bqlm_rvnet u;
};

static struct bqlm_rvnet_session *bqlm_rvnet_session(struct bqlm_rc_target *t)
{
	return container_of(t, struct bqlm_rvnet_session, t);
}

/* The harness failure: a wait in the middle of a step, a driver's error */
static const char *bqlm_rvnet_t_error(struct bqlm_rc_target *t)
{
	struct bqlm_rvnet *u = &bqlm_rvnet_session(t)->u;

	return u->why[0] ? u->why : u->midstep;
}

/* The view, and the model's step checks on it (bqlm_nic_check_step()). */
static unsigned int bqlm_rvnet_view_check(struct bqlm_rvnet *u,
					  struct bqlm_nic *v,
					  struct bqlm_violation *each)
{
	bqlm_rvnet_view(u, v);
	return bqlm_nic_check_step(v, &u->cfg, "real code", &u->ev, u->evq,
				   u->completing, each);
}

static bool bqlm_rvnet_t_same(struct bqlm_rc_target *t,
			      struct bqlm_rc_result *res)
{
	struct bqlm_rvnet *u = &bqlm_rvnet_session(t)->u;
	unsigned long long real = 0, model = 0;

	res->diff_what[0] = 0;
	if (bqlm_rvnet_compare(u, t->from, t->view, res->diff_what,
			       sizeof(res->diff_what), &real, &model))
		return true;
	if (!strncmp(res->diff_what, "the states", 10)) {
		bqlm_xdescribe_state(&t->sys, t->view, res->diff_real,
				     sizeof(res->diff_real));
		bqlm_xdescribe_state(&t->sys, t->from, res->diff_model,
				     sizeof(res->diff_model));
		return false;
	}
	scnprintf(res->diff_real, sizeof(res->diff_real), "%llu", real);
	scnprintf(res->diff_model, sizeof(res->diff_model), "%llu", model);
	return false;
}

/*
 * Before hashing: the jiffies values the DQLs keep left out. Each fresh
 * device is made at another jiffies value, and a tick during its steps
 * moves them; the model's search runs every step at one value, and the
 * DQL's hold time (HZ) is far longer than a path, so that they change
 * nothing else.
 */
static void bqlm_rvnet_t_hash(struct bqlm_rc_target *t)
{
	struct bqlm_nic *v = t->view;
	unsigned int q;

	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++) {
		struct bqlm_dql *d = &v->q[q].txq.dql;

		d->slack_start_time = 0;
		d->last_reap = 0;
		d->history_head = 0;
		v->q[q].txq.trans_start = 0;
	}
}

/* The actors ended, and the driver unloaded unless the harness failed */
static bool bqlm_rvnet_end(struct bqlm_rvnet *u)
{
	bool failed = bqlm_rc_end(&u->rc);

	if (!failed && bqlm_rvnet_cur == u) {
		u->ops->exit();
		bqlm_rvnet_cur = NULL;
	}
	return failed;
}

/* A fresh device, and the model in its initial state */
static int bqlm_rvnet_t_start(struct bqlm_rc_target *t)
{
	int ret = bqlm_rvnet_up(&bqlm_rvnet_session(t)->u);

	if (!ret)
		bqlm_rc_model_start(t);
	return ret;
}

static int bqlm_rvnet_t_step(struct bqlm_rc_target *t, unsigned int action)
{
	return bqlm_rvnet_step(&bqlm_rvnet_session(t)->u, action);
}

static const char *bqlm_rvnet_t_parked_at(struct bqlm_rc_target *t,
					  unsigned int action)
{
	return bqlm_rvnet_parked_at(&bqlm_rvnet_session(t)->u, action);
}

static unsigned int bqlm_rvnet_t_enabled(struct bqlm_rc_target *t,
					 unsigned int *actions)
{
	return bqlm_rvnet_enabled(&bqlm_rvnet_session(t)->u, actions);
}

static unsigned int bqlm_rvnet_t_view(struct bqlm_rc_target *t)
{
	return bqlm_rvnet_view_check(&bqlm_rvnet_session(t)->u, t->view,
				     t->each);
}

static int bqlm_rvnet_t_down(struct bqlm_rc_target *t)
{
	return bqlm_rvnet_down(&bqlm_rvnet_session(t)->u);
}

/*
 * The session freed, unless the harness failed: its threads may still
 * use it then
 */
static void bqlm_rvnet_t_destroy(struct bqlm_rc_target *t)
{
	struct bqlm_rvnet_session *r = bqlm_rvnet_session(t);

	if (bqlm_rvnet_end(&r->u))
		return;
	bqlm_rc_target_release(t);
	kfree(r);
}

static const struct bqlm_rc_target_ops bqlm_rvnet_target_ops = {
	.start = bqlm_rvnet_t_start,
	.step = bqlm_rvnet_t_step,
	.parked_at = bqlm_rvnet_t_parked_at,
	.enabled = bqlm_rvnet_t_enabled,
	.view = bqlm_rvnet_t_view,
	.down = bqlm_rvnet_t_down,
	.destroy = bqlm_rvnet_t_destroy,
	.error = bqlm_rvnet_t_error,
	.same = bqlm_rvnet_t_same,
	.hash = bqlm_rvnet_t_hash,
};

/**
 * bqlm_rvnet_create() - the real virtio_net.c of a configuration, beside
 *	the NIC model
 * @cfg: the model's configuration (bqlm_rvnet_supported())
 * @variant: the variant (bqlm_rvnet_variant_of() of the profile)
 * @xsk: the model's reconfiguration is an XSK pool (un)bind, not ethtool -G
 *
 * The variant's driver is loaded as its module would be (its CPU hotplug
 * states and its virtio driver), and bqlm_rc_target_destroy() unloads it.
 * bqlm_rc_lockstep() runs a schedule on a fresh device, the model beside
 * it, the real state read by bqlm_rvnet_view() and compared field by
 * field, then byte by byte; the model runs at one jiffies value per step,
 * taken again at the later one when jiffies ticked during the real step.
 * bqlm_rc_explore() searches the real code alone.
 *
 * Return: the harness or an ERR_PTR(): -EOPNOTSUPP for a configuration it
 * cannot run, -EBUSY if another harness is in use, -ENOMEM, or the error
 * of the driver's load.
 */
struct bqlm_rc_target *bqlm_rvnet_create(const struct bqlm_nic_cfg *cfg,
					 const char *variant, bool xsk)
{
	struct bqlm_rvnet_session *r;
	const char *why;
	int ret;

	if (bqlm_rvnet_supported(cfg, variant, &why))
		return ERR_PTR(-EOPNOTSUPP);
	if (bqlm_rvnet_cur)
		return ERR_PTR(-EBUSY);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	ret = bqlm_rc_target_init(&r->t, &bqlm_rvnet_target_ops, &r->u.rc,
				  sizeof(struct bqlm_nic));
	r->u.cfg = *cfg;
	r->u.cfg.hold_time = HZ;
	r->t.now = &r->u.cfg.now;
	if (!ret)
		ret = bqlm_nic_system(&r->u.cfg, &r->t.sys);
	r->u.ops = bqlm_rvnet_variant_named(variant);
	r->u.reconfig = xsk ? RVNET_XSK : RVNET_RESIZE;
	/* check_sq_full_and_disable() stops at the model's full ring */
	r->u.tx_num = 2 + MAX_SKB_FRAGS + RVNET_DESCS * (cfg->ring - 1) + 1;
	if (!ret)
		ret = bqlm_rc_init(&r->u.rc, RVNET_NR_ACTORS, bqlm_rvnet_names);
	if (!ret) {
		ret = r->u.ops->init();
		if (!ret)
			bqlm_rvnet_cur = &r->u;
	}
	if (ret) {
		bqlm_rvnet_t_destroy(&r->t);
		return ERR_PTR(ret);
	}
	return &r->t;
}
