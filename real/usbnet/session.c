// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real usbnet.c beside the model: the harness as a struct
 * bqlm_rc_target for bqlm_rc_lockstep() and bqlm_rc_explore(), the
 * variants (real/patches/usbnet/series) and the minidrivers
 * (real/usbnet/minidrivers.h) by name, and the schedule of
 * "make kunit-replay" (see harness.h, docs/real-usbnet.md).
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>

#include "harness.h"
#include "real.h"

/* A string given on the kernel command line, NULL when empty */
static const char *bqlm_rusbnet_param(const char *p)
{
	return p && *p ? p : NULL;
}

/*
 * A schedule to replay, given on the kernel command line by
 * "make kunit-replay SCHEDULE=FILE" (bqlm_kunit.schedule=...).
 */
static char *bqlm_rusbnet_schedule;
module_param_named(schedule, bqlm_rusbnet_schedule, charp, 0444);
MODULE_PARM_DESC(schedule, "a usbnet schedule to replay on the real code");

/**
 * bqlm_rusbnet_schedule_param() - the schedule given on the command line
 *
 * Return: its text (';' between lines), or NULL.
 */
const char *bqlm_rusbnet_schedule_param(void)
{
	return bqlm_rusbnet_param(bqlm_rusbnet_schedule);
}

/*
 * The minidriver "make kunit-driver DRIVER=NAME" and "make kunit-replay
 * SCHEDULE=FILE DRIVER=NAME" run (bqlm_kunit.driver=NAME).
 */
static char *bqlm_rusbnet_driver_arg;
module_param_named(driver, bqlm_rusbnet_driver_arg, charp, 0444);
MODULE_PARM_DESC(driver, "the usbnet minidriver the real-code suites run");

/**
 * bqlm_rusbnet_driver_param() - the minidriver given on the command line
 *
 * Return: its name, or NULL.
 */
const char *bqlm_rusbnet_driver_param(void)
{
	return bqlm_rusbnet_param(bqlm_rusbnet_driver_arg);
}

/* Every variant of real/patches/usbnet/series (generated) */
static const struct bqlm_rc_variant bqlm_rusbnet_variants[] =
	BQLM_RUSBNET_VARIANTS;

/* The ops of the compiled variant the model names so, or NULL */
static const void *bqlm_rusbnet_variant_named(const char *name)
{
	return bqlm_rc_variant(bqlm_rusbnet_variants,
			       ARRAY_SIZE(bqlm_rusbnet_variants), name);
}

/* The compiled variant the model's configuration names, or NULL */
static const struct bqlm_rusbnet_ops *
bqlm_rusbnet_variant(const struct bqlm_usbnet_cfg *cfg)
{
	const char *name = bqlm_usbnet_variant_name(cfg->variant);

	return bqlm_rusbnet_variant_named(name);
}

/* A minidriver of a variant, by name, or NULL */
static const struct bqlm_rusbnet_driver *
bqlm_rusbnet_driver(const struct bqlm_rusbnet_ops *ops, const char *name)
{
	unsigned int i;

	for (i = 0; ops && name && i < ops->nr_drivers; i++)
		if (!strcmp(ops->drivers[i]->name, name))
			return ops->drivers[i];
	return NULL;
}

/*
 * A minidriver of the first variant that has it (the series' first
 * variants patch no minidriver: its description as the tree has it)
 */
static const struct bqlm_rusbnet_driver *bqlm_rusbnet_any(const char *name)
{
	const struct bqlm_rusbnet_driver *drv = NULL;
	unsigned int v;

	for (v = 0; !drv && v < ARRAY_SIZE(bqlm_rusbnet_variants); v++)
		drv = bqlm_rusbnet_driver(bqlm_rusbnet_variants[v].ops, name);
	return drv;
}

/* The model's count for packet length @i of a minidriver's description */
static unsigned int bqlm_rusbnet_desc_header(const struct bqlm_rusbnet_desc *m,
					     unsigned int i)
{
	return m->header[m->nr_headers > 1 && i < BQLM_USBNET_MAX_LENS ? i : 0];
}

/*
 * Does the model's configuration describe the minidriver's TX path? If
 * not, *@why says what differs.
 */
static bool bqlm_rusbnet_describes(const struct bqlm_usbnet_cfg *cfg,
				   const struct bqlm_rusbnet_driver *drv,
				   char *why, size_t len)
{
	const struct bqlm_rusbnet_desc *m = &drv->model;
	unsigned int i;

	if (cfg->fixup != m->fixup) {
		scnprintf(why, len, "fixup %u, and %s's tx_fixup() is %u",
			  cfg->fixup, drv->name, m->fixup);
		return false;
	}
	if (m->fixup == BQLM_USBNET_FIXUP_MULTI && cfg->strip != m->strip) {
		scnprintf(why, len, "strip %u, and %s's tx_fixup() takes %u",
			  cfg->strip, drv->name, m->strip);
		return false;
	}
	if (cfg->flags != m->flags) {
		scnprintf(why, len, "flags %#x, and %s's driver_info has %#x",
			  cfg->flags, drv->name, m->flags);
		return false;
	}
	if ((cfg->pm & ~BQLM_USBNET_PM_OWN_SUSPEND_FAILS) != m->pm) {
		scnprintf(why, len, "pm %#x, and %s's suspend()/resume() %#x",
			  cfg->pm, drv->name, m->pm);
		return false;
	}
	if ((cfg->pm & BQLM_USBNET_PM_OWN_SUSPEND_FAILS) && !drv->fail_request) {
		scnprintf(why, len, "pm own-suspend-fails, and %s's entry names no control transfer its device refuses (fail_request)",
			  drv->name);
		return false;
	}
	if (m->maxpacket && cfg->maxpacket != m->maxpacket) {
		scnprintf(why, len, "maxpacket %u, and %s's endpoint has %u",
			  cfg->maxpacket, drv->name, m->maxpacket);
		return false;
	}
	for (i = 0; m->fixup == BQLM_USBNET_FIXUP_PAD && i < cfg->nr_lens; i++)
		if (bqlm_usbnet_header(cfg, i) !=
		    bqlm_rusbnet_desc_header(m, i)) {
			scnprintf(why, len,
				  "a header of %u bytes on packet length %u, and %s's tx_fixup() adds %u",
				  bqlm_usbnet_header(cfg, i), cfg->lens[i],
				  drv->name, bqlm_rusbnet_desc_header(m, i));
			return false;
		}
	return true;
}

/**
 * bqlm_rusbnet_driver_cfg() - a minidriver's description in the model's
 *	configuration
 * @name: the minidriver (real/usbnet/minidrivers.h)
 * @cfg: the configuration: its fixup, pad_header, strip, flags, pm,
 *	maxpacket and packet lengths are set as the minidriver's entry has
 *	them in the configuration's variant (a patch of the series may
 *	change the minidriver; a variant without it: the first that has
 *	it), one link-up report if its callbacks turn the carrier off,
 *	and one link-down report, with one link-up report, if its entry
 *	has the bytes of both for its own status() (a flap)
 *
 * Return: 0, or -ENOENT for a name the harness does not have.
 */
int bqlm_rusbnet_driver_cfg(const char *name, struct bqlm_usbnet_cfg *cfg)
{
	const struct bqlm_rusbnet_driver *drv;
	const struct bqlm_rusbnet_desc *m;

	/* the entry of the configuration's variant: a patch may change it */
	drv = bqlm_rusbnet_driver(bqlm_rusbnet_variant(cfg), name) ?:
	      bqlm_rusbnet_any(name);
	if (!drv)
		return -ENOENT;
	m = &drv->model;
	cfg->fixup = m->fixup;
	if (m->fixup == BQLM_USBNET_FIXUP_PAD) {
		memcpy(cfg->pad_header, m->header, sizeof(cfg->pad_header));
		cfg->nr_pad_headers = m->nr_headers ?: 1;
	}
	if (m->fixup == BQLM_USBNET_FIXUP_MULTI)
		cfg->strip = m->strip;
	cfg->flags = m->flags;
	cfg->pm = m->pm;
	/*
	 * a carrier its callbacks turn off comes back with a status report;
	 * one its status() turns off too
	 */
	cfg->link_downs = drv->link_down_len ? 1 : 0;
	cfg->links = cfg->link_downs || (m->pm & BQLM_USBNET_PM_CARRIER_OFF);
	if (m->maxpacket)
		cfg->maxpacket = m->maxpacket;
	if (m->nr_lens) {
		memcpy(cfg->lens, m->lens, sizeof(cfg->lens));
		cfg->nr_lens = m->nr_lens;
	}
	return 0;
}

/**
 * bqlm_rusbnet_driver_for() - the first minidriver a configuration describes
 * @cfg: the model's configuration (of a schedule)
 *
 * Return: its name (of those compiled with the configuration's variant),
 * or NULL if none of the harness's does.
 */
const char *bqlm_rusbnet_driver_for(const struct bqlm_usbnet_cfg *cfg)
{
	const struct bqlm_rusbnet_ops *ops = bqlm_rusbnet_variant(cfg);
	char why[8];
	unsigned int i;

	for (i = 0; ops && i < ops->nr_drivers; i++)
		if (bqlm_rusbnet_describes(cfg, ops->drivers[i], why,
					   sizeof(why)))
			return ops->drivers[i]->name;
	return NULL;
}

/**
 * bqlm_rusbnet_driver_name() - the minidriver the harness would run
 * @i: its index among the harness's, from 0
 *
 * Return: its name, or NULL after the last.
 */
const char *bqlm_rusbnet_driver_name(unsigned int i)
{
	const struct bqlm_rusbnet_ops *ops = NULL, *o;
	unsigned int v;

	/* the variant with every minidriver */
	for (v = 0; v < ARRAY_SIZE(bqlm_rusbnet_variants); v++) {
		o = bqlm_rusbnet_variants[v].ops;
		if (!ops || o->nr_drivers > ops->nr_drivers)
			ops = o;
	}
	return ops && i < ops->nr_drivers ? ops->drivers[i]->name : NULL;
}

/* usbnet's driver_info flags by name (include/linux/usb/usbnet.h) */
static const struct {
	int flag;
	const char *name;
} bqlm_rusbnet_flag_names[] = {
	{ FLAG_FRAMING_NC, "FRAMING_NC" },
	{ FLAG_FRAMING_GL, "FRAMING_GL" },
	{ FLAG_FRAMING_Z, "FRAMING_Z" },
	{ FLAG_FRAMING_RN, "FRAMING_RN" },
	{ FLAG_NO_SETINT, "NO_SETINT" },
	{ FLAG_ETHER, "ETHER" },
	{ FLAG_FRAMING_AX, "FRAMING_AX" },
	{ FLAG_WLAN, "WLAN" },
	{ FLAG_AVOID_UNLINK_URBS, "AVOID_UNLINK_URBS" },
	{ FLAG_SEND_ZLP, "SEND_ZLP" },
	{ FLAG_WWAN, "WWAN" },
	{ FLAG_LINK_INTR, "LINK_INTR" },
	{ FLAG_POINTTOPOINT, "POINTTOPOINT" },
	{ FLAG_MULTI_PACKET, "MULTI_PACKET" },
	{ FLAG_RX_ASSEMBLE, "RX_ASSEMBLE" },
	{ FLAG_NOARP, "NOARP" },
	{ FLAG_NOMAXMTU, "NOMAXMTU" },
};

/* A list being written into a buffer: its words, separated by @sep */
struct bqlm_rusbnet_words {
	char *buf;
	size_t len;
	size_t k;
	const char *sep;
	unsigned int n;
};

static void bqlm_rusbnet_word(struct bqlm_rusbnet_words *w, bool on,
			      const char *word)
{
	if (!on)
		return;
	w->k += scnprintf(w->buf + w->k, w->len - w->k, "%s%s",
			  w->n++ ? w->sep : "", word);
}

/* Start a list after what @w holds */
static void bqlm_rusbnet_words_start(struct bqlm_rusbnet_words *w,
				     const char *head, const char *sep)
{
	w->k += scnprintf(w->buf + w->k, w->len - w->k, "%s", head);
	w->sep = sep;
	w->n = 0;
}

/* The model's options of a minidriver that are not the defaults */
static void bqlm_rusbnet_model_opts(const char *name,
				    struct bqlm_rusbnet_words *w)
{
	const struct bqlm_opts *t = bqlm_usbnet_options();
	struct bqlm_usbnet_cfg *cfg = kmalloc_array(2, sizeof(*cfg), GFP_KERNEL);
	char *a = kmalloc(2 * BQLM_OPT_VALUE_MAX, GFP_KERNEL);
	char *b = a + BQLM_OPT_VALUE_MAX;
	unsigned int i;

	if (cfg && a) {
		bqlm_usbnet_cfg_default(&cfg[0], BQLM_USBNET_FIXED);
		bqlm_usbnet_cfg_default(&cfg[1], BQLM_USBNET_FIXED);
		bqlm_rusbnet_driver_cfg(name, &cfg[1]);
		for (i = 0; i < t->n; i++) {
			if (t->opt[i].flags & BQLM_OPT_ALIAS)
				continue;
			bqlm_opt_format(&t->opt[i], &cfg[0], a, BQLM_OPT_VALUE_MAX);
			bqlm_opt_format(&t->opt[i], &cfg[1], b, BQLM_OPT_VALUE_MAX);
			if (!strcmp(a, b))
				continue;
			bqlm_rusbnet_word(w, true, "--");
			w->k += scnprintf(w->buf + w->k, w->len - w->k, "%s %s",
					  t->opt[i].name, b);
		}
	}
	bqlm_rusbnet_word(w, !w->n, cfg && a ? "the defaults" : "?");
	kfree(a);
	kfree(cfg);
}

/**
 * bqlm_rusbnet_driver_describe() - what the harness runs of a minidriver
 * @name: the minidriver (real/usbnet/minidrivers.h)
 * @buf: receives "DESC, flags F|G; model: OPTIONS; runs: NAMES; not run:
 *	NAMES (WHY)": its driver_info's description and flags, the model's
 *	options that describe it (those that are not the defaults), the
 *	callbacks of its own that run, and those it has that do not (with
 *	the entry's reason for those it clears). Its suspend(), resume()
 *	and reset_resume() are its own when they are not usbnet's.
 * @len: room in @buf
 *
 * Return: 0, or -ENOENT for a name the harness does not have.
 */
int bqlm_rusbnet_driver_describe(const char *name, char *buf, size_t len)
{
	struct bqlm_rusbnet_words w = { .buf = buf, .len = len };
	const struct bqlm_rusbnet_driver *drv = NULL;
	const struct bqlm_rusbnet_ops *ops = NULL;
	const struct driver_info *i;
	const struct usb_driver *usb;
	unsigned int v, c;
	bool pm;

	for (v = 0; !drv && v < ARRAY_SIZE(bqlm_rusbnet_variants); v++) {
		ops = bqlm_rusbnet_variants[v].ops;
		drv = bqlm_rusbnet_driver(ops, name);
	}
	if (!drv || !len)
		return -ENOENT;
	i = drv->info;
	usb = drv->usb;
	c = drv->clear;
	pm = usb && !(c & BQLM_RUSBNET_NO_PM);
	buf[0] = '\0';
	bqlm_rusbnet_words_start(&w, "\"", "");
	bqlm_rusbnet_word(&w, true, i->description ?: "?");
	bqlm_rusbnet_words_start(&w, "\", flags ", "|");
	for (v = 0; v < ARRAY_SIZE(bqlm_rusbnet_flag_names); v++)
		bqlm_rusbnet_word(&w, i->flags & bqlm_rusbnet_flag_names[v].flag,
				  bqlm_rusbnet_flag_names[v].name);
	bqlm_rusbnet_word(&w, !w.n, "0");
	bqlm_rusbnet_words_start(&w, "; model: ", " ");
	bqlm_rusbnet_model_opts(name, &w);
	bqlm_rusbnet_words_start(&w, "; runs: ", " ");
	bqlm_rusbnet_word(&w, i->tx_fixup, "tx_fixup");
	bqlm_rusbnet_word(&w, i->status && bqlm_rusbnet_runs_status(drv),
			  "status");
	bqlm_rusbnet_word(&w, i->link_reset && bqlm_rusbnet_runs_status(drv),
			  "link_reset");
	bqlm_rusbnet_word(&w, i->stop && !(c & BQLM_RUSBNET_NO_STOP), "stop");
	bqlm_rusbnet_word(&w, i->unbind && !(c & BQLM_RUSBNET_NO_UNBIND),
			  "unbind");
	bqlm_rusbnet_word(&w, i->manage_power && !(c & BQLM_RUSBNET_NO_POWER),
			  "manage_power");
	bqlm_rusbnet_word(&w, pm && usb->suspend && usb->suspend != ops->suspend,
			  "suspend");
	bqlm_rusbnet_word(&w, pm && usb->resume && usb->resume != ops->resume,
			  "resume");
	bqlm_rusbnet_word(&w, pm && usb->reset_resume &&
			  usb->reset_resume != ops->resume, "reset_resume");
	bqlm_rusbnet_word(&w, !w.n, "usbnet's only");
	bqlm_rusbnet_words_start(&w, "; not run: ", " ");
	bqlm_rusbnet_word(&w, i->bind, "bind (faked)");
	bqlm_rusbnet_word(&w, i->reset, "reset");
	bqlm_rusbnet_word(&w, i->check_connect, "check_connect");
	bqlm_rusbnet_word(&w, i->status && !bqlm_rusbnet_runs_status(drv),
			  "status");
	bqlm_rusbnet_word(&w, i->link_reset && !bqlm_rusbnet_runs_status(drv),
			  "link_reset");
	bqlm_rusbnet_word(&w, i->stop && (c & BQLM_RUSBNET_NO_STOP), "stop");
	bqlm_rusbnet_word(&w, i->unbind && (c & BQLM_RUSBNET_NO_UNBIND),
			  "unbind");
	bqlm_rusbnet_word(&w, i->manage_power && (c & BQLM_RUSBNET_NO_POWER),
			  "manage_power");
	bqlm_rusbnet_word(&w, usb && (c & BQLM_RUSBNET_NO_PM),
			  "suspend/resume");
	bqlm_rusbnet_word(&w, !w.n, "none");
	if (c && drv->why)
		w.k += scnprintf(buf + w.k, len - w.k, " (%s)", drv->why);
	return 0;
}

/* Does the USB core autosuspend the minidriver's interface? (usbnet's: yes) */
static bool bqlm_rusbnet_autosuspends(const struct bqlm_rusbnet_driver *drv)
{
	return !drv->usb || (drv->clear & BQLM_RUSBNET_NO_PM) ||
	       drv->usb->supports_autosuspend;
}

/**
 * bqlm_rusbnet_check() - can the harness run a configuration with a
 *	minidriver?
 * @cfg: the model's configuration (a schedule's, a case's)
 * @driver: the minidriver's name
 * @why: receives the reason when it cannot
 * @len: room in @why
 *
 * The variant must be compiled (real/patches/usbnet/series) with the
 * minidriver (the series property "minidrivers"), whose ndo_change_mtu
 * must be able to make the model's mtu-qlen change; the configuration's
 * properties must be the variant's (a patch is a fixed set of them), and
 * its tx_fixup, header, flags and maxpacket the minidriver's, and an
 * autosuspend only of a minidriver the USB core autosuspends.
 *
 * Return: 0, -ENOENT (no such variant or minidriver, or nothing of it
 * runs the configuration: its mtu-qlen), -EOPNOTSUPP (the
 * configuration does not describe them) or -EINVAL (not a valid
 * configuration).
 */
int bqlm_rusbnet_check(const struct bqlm_usbnet_cfg *cfg, const char *driver,
		       char *why, size_t len)
{
	const struct bqlm_rusbnet_driver *drv;
	const struct bqlm_rusbnet_ops *ops;
	struct bqlm_usbnet_cfg v;

	if (bqlm_usbnet_cfg_check(cfg) || cfg->maxpacket > USB_ENDPOINT_MAXP_MASK) {
		scnprintf(why, len, "not a valid configuration (bqlm_usbnet_cfg_check())");
		return -EINVAL;
	}
	ops = bqlm_rusbnet_variant(cfg);
	if (!ops) {
		scnprintf(why, len, "variant %s has no patch in real/patches/usbnet/series",
			  bqlm_usbnet_variant_name(cfg->variant));
		return -ENOENT;
	}
	drv = bqlm_rusbnet_driver(ops, driver);
	if (!drv) {
		scnprintf(why, len, "%s is %s",
			  driver ?: "(none)", bqlm_rusbnet_any(driver) ?
			  "not compiled with this variant (series property minidrivers)" :
			  "not a minidriver of real/usbnet/minidrivers.h");
		return -ENOENT;
	}
	if (cfg->mtu_qlen && drv->mtu_why) {
		scnprintf(why, len, "mtu-qlen: %s", drv->mtu_why);
		return -ENOENT;
	}
	bqlm_usbnet_cfg_default(&v, cfg->variant);
	if (v.bql != cfg->bql || v.bql_lock != cfg->bql_lock ||
	    v.stop_reset != cfg->stop_reset ||
	    v.resume_sent != cfg->resume_sent ||
	    v.stop_drain != cfg->stop_drain ||
	    v.disconnect_kill != cfg->disconnect_kill ||
	    v.xmit_open != cfg->xmit_open) {
		scnprintf(why, len, "its properties (bql, bql-lock, stop-reset, resume-sent, stop-drain, disconnect-kill, xmit-open) are not variant %s's: the real code of a variant is its patch",
			  bqlm_usbnet_variant_name(cfg->variant));
		return -EOPNOTSUPP;
	}
	if (!bqlm_rusbnet_describes(cfg, drv, why, len))
		return -EOPNOTSUPP;
	if (cfg->autosuspend && !bqlm_rusbnet_autosuspends(drv)) {
		scnprintf(why, len, "autosuspend on, and %s's usb_driver has no supports_autosuspend: the USB core never autosuspends it",
			  driver);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The harness beside its model: the target the scheduler drives */
struct bqlm_rusbnet_session {
	struct bqlm_rc_target t;
	struct bqlm_rusbnet u;
};

static struct bqlm_rusbnet_session *
bqlm_rusbnet_session(struct bqlm_rc_target *t)
{
	return container_of(t, struct bqlm_rusbnet_session, t);
}

/*
 * The harness failure: a wait in the middle of a step; or the step was
 * refused, an action the USB core would not take
 */
static const char *bqlm_rusbnet_t_error(struct bqlm_rc_target *t)
{
	const struct bqlm_rusbnet *u = &bqlm_rusbnet_session(t)->u;

	return u->midstep ?: u->refused;
}

/* The view, and the model's step checks on it (bqlm_usbnet_check()). */
static unsigned int bqlm_rusbnet_view_check(struct bqlm_rusbnet *u,
					    struct bqlm_usbnet *v,
					    struct bqlm_violation *each)
{
	bqlm_rusbnet_view(u, v);
	return bqlm_usbnet_check(v, &u->cfg, "real code", &u->ev, false, each);
}

static bool bqlm_rusbnet_t_same(struct bqlm_rc_target *t,
				struct bqlm_rc_result *res)
{
	struct bqlm_rusbnet *u = &bqlm_rusbnet_session(t)->u;
	unsigned long long real = 0, model = 0;
	const char *what = NULL;

	if (bqlm_rusbnet_compare(u, t->from, t->view, &what, &real, &model))
		return true;
	strscpy(res->diff_what, what ?: "?", sizeof(res->diff_what));
	scnprintf(res->diff_real, sizeof(res->diff_real), "%llu", real);
	scnprintf(res->diff_model, sizeof(res->diff_model), "%llu", model);
	return false;
}

/*
 * Before hashing: the jiffies values the DQL keeps, relative to the
 * device's creation (each fresh device is made at another jiffies value).
 */
static void bqlm_rusbnet_t_hash(struct bqlm_rc_target *t)
{
	struct bqlm_rusbnet *u = &bqlm_rusbnet_session(t)->u;
	struct bqlm_dql *d = &((struct bqlm_usbnet *)t->view)->txq.dql;

	d->slack_start_time -= u->cfg.now;
	d->last_reap -= u->cfg.now;
	d->history_head -= u->cfg.now / BITS_PER_LONG;
}

/* The harness ended, unless it was never made (@u->ops NULL) */
static bool bqlm_rusbnet_end(struct bqlm_rusbnet *u)
{
	return u->ops && bqlm_rusbnet_release(u);
}

/* A fresh device, and the model in its initial state */
static int bqlm_rusbnet_t_start(struct bqlm_rc_target *t)
{
	int ret = bqlm_rusbnet_up(&bqlm_rusbnet_session(t)->u);

	if (!ret)
		bqlm_rc_model_start(t);
	return ret;
}

static int bqlm_rusbnet_t_step(struct bqlm_rc_target *t, unsigned int action)
{
	return bqlm_rusbnet_step(&bqlm_rusbnet_session(t)->u, action);
}

static const char *bqlm_rusbnet_t_parked_at(struct bqlm_rc_target *t,
					    unsigned int action)
{
	return bqlm_rusbnet_parked_at(&bqlm_rusbnet_session(t)->u, action);
}

static unsigned int bqlm_rusbnet_t_enabled(struct bqlm_rc_target *t,
					   unsigned int *actions)
{
	return bqlm_rusbnet_enabled(&bqlm_rusbnet_session(t)->u, actions);
}

static unsigned int bqlm_rusbnet_t_view(struct bqlm_rc_target *t)
{
	return bqlm_rusbnet_view_check(&bqlm_rusbnet_session(t)->u, t->view,
				       t->each);
}

static int bqlm_rusbnet_t_down(struct bqlm_rc_target *t)
{
	return bqlm_rusbnet_down(&bqlm_rusbnet_session(t)->u);
}

/*
 * The session freed, unless the harness failed: its threads may still
 * use it then
 */
static void bqlm_rusbnet_t_destroy(struct bqlm_rc_target *t)
{
	struct bqlm_rusbnet_session *r = bqlm_rusbnet_session(t);

	if (bqlm_rusbnet_end(&r->u))
		return;
	bqlm_rc_target_release(t);
	kfree(r);
}

static const struct bqlm_rc_target_ops bqlm_rusbnet_target_ops = {
	.start = bqlm_rusbnet_t_start,
	.step = bqlm_rusbnet_t_step,
	.parked_at = bqlm_rusbnet_t_parked_at,
	.enabled = bqlm_rusbnet_t_enabled,
	.view = bqlm_rusbnet_t_view,
	.down = bqlm_rusbnet_t_down,
	.destroy = bqlm_rusbnet_t_destroy,
	.error = bqlm_rusbnet_t_error,
	.same = bqlm_rusbnet_t_same,
	.hash = bqlm_rusbnet_t_hash,
};

/**
 * bqlm_rusbnet_create() - the real usbnet.c of a configuration, beside the
 *	model
 * @cfg: the model's configuration
 * @driver: whose driver_info usbnet runs with: the name of an entry of
 *	real/usbnet/minidrivers.h ("harness": FLAG_ETHER, no tx_fixup())
 *
 * bqlm_rc_lockstep() runs a schedule on it, the model beside it, with the
 * real state read by bqlm_rusbnet_view() and compared field by field, then
 * byte by byte. The model runs at one jiffies value per step: a step during
 * which jiffies ticked is taken again on the model at the later value, and
 * a schedule during which jiffies ticked and the states differed is run
 * again on a fresh device, up to 5 times. bqlm_rc_explore() searches the
 * real code alone. bqlm_rc_target_destroy() ends it.
 *
 * Return: the harness, or an ERR_PTR(): as bqlm_rusbnet_check() (whose
 * reason goes to the kernel log), -EBUSY if another harness is in use,
 * -ENOMEM.
 */
struct bqlm_rc_target *bqlm_rusbnet_create(const struct bqlm_usbnet_cfg *cfg,
					   const char *driver)
{
	const struct bqlm_rusbnet_driver *drv;
	const struct bqlm_rusbnet_ops *ops;
	struct bqlm_rusbnet_session *r;
	struct bqlm_usbnet_cfg c;
	char why[160];
	int err;

	/* the maxpacket of a real endpoint, which the device is made with */
	err = bqlm_rusbnet_check(cfg, driver, why, sizeof(why));
	if (err) {
		pr_info("bqlm real-code harness: %s\n", why);
		return ERR_PTR(err);
	}
	ops = bqlm_rusbnet_variant(cfg);
	drv = bqlm_rusbnet_driver(ops, driver);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	c = *cfg;
	c.hold_time = HZ;
	err = bqlm_rc_target_init(&r->t, &bqlm_rusbnet_target_ops, &r->u.rc,
				  bqlm_usbnet_size(&c));
	if (!err)
		err = bqlm_rusbnet_init(&r->u, &c, ops, drv);
	if (err)
		r->u.ops = NULL;
	else
		err = bqlm_usbnet_system(&r->u.cfg, &r->t.sys);
	if (err) {
		bqlm_rusbnet_t_destroy(&r->t);
		return ERR_PTR(err);
	}
	r->t.now = &r->u.cfg.now;
	return &r->t;
}

/**
 * bqlm_rusbnet_reset_resume() - resume with the minidriver's reset_resume()
 * @t: the harness (bqlm_rusbnet_create())
 * @on: true: the model's resume is the minidriver's reset_resume() (the
 *	USB core's resume of a device reset meanwhile), false: its resume()
 */
void bqlm_rusbnet_reset_resume(struct bqlm_rc_target *t, bool on)
{
	bqlm_rusbnet_session(t)->u.reset_resume = on;
}
