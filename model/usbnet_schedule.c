// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - a usbnet schedule as text: the configuration and the model
 * actions of one trace, written by "bqlm explore usbnet --schedule FILE"
 * and replayed on the real usbnet.c by "make kunit-replay SCHEDULE=FILE"
 * (docs/real-code.md). The same parser runs in the CLI and in the kernel.
 *
 * One item per line, "key value...", '#' starts a comment; ';' also ends
 * a line and ',' also separates words, so that a schedule fits on a kernel
 * command line once its comments are gone:
 *
 *	variant merged
 *	packets 3
 *	lens 1514
 *	...
 *	check dql-over-completion
 *	steps 11
 *	step 0x100	# stack: qdisc -> usbnet_start_xmit(1514 bytes): tx_fixup
 */
#include "bqlm_internal.h"
#include <bqlm/usbnet.h>

#define BQLM_SCHED_LINE		256
#define BQLM_SCHED_WORDS	4
/* What a schedule has declared: the low bits are its step count */
#define BQLM_SCHED_HAS_VARIANT	0x40000000
#define BQLM_SCHED_HAS_STEPS	0x20000000
#define BQLM_SCHED_STEPS_MASK	0x0fffffff

static const char *const bqlm_sched_fixups[BQLM_USBNET_NR_FIXUPS] = {
	[BQLM_USBNET_FIXUP_NONE] = "none",
	[BQLM_USBNET_FIXUP_PAD] = "pad",
	[BQLM_USBNET_FIXUP_MULTI] = "multi",
};

struct bqlm_sched_out {
	bqlm_xemit_t emit;
	void *arg;
	char line[BQLM_SCHED_LINE];
};

static void bqlm_sched_put(struct bqlm_sched_out *o, const char *key,
			   unsigned int val)
{
	snprintf(o->line, sizeof(o->line), "%s %u", key, val);
	o->emit(o->arg, o->line);
}

/**
 * bqlm_usbnet_schedule_write() - a trace as a schedule
 * @cfg: the configuration it was explored with (valid)
 * @check: the violation it ends in, or BQLM_CHECK_NONE
 * @actions: the trace's actions
 * @n: how many
 * @emit: receives each line, without a newline
 * @arg: @emit's argument
 *
 * Each step is written with the model's description of it as a comment;
 * the trace is run on the model to get them.
 *
 * Return: 0, or -EINVAL if the configuration is invalid or an action is
 * not enabled where the trace takes it (nothing more is written then).
 */
int bqlm_usbnet_schedule_write(const struct bqlm_usbnet_cfg *cfg,
			       enum bqlm_check check,
			       const unsigned int *actions, unsigned int n,
			       bqlm_xemit_t emit, void *arg)
{
	struct bqlm_violation each[BQLM_CHECK_NR];
	struct bqlm_sched_out o = { .emit = emit, .arg = arg };
	char desc[BQLM_SCHED_LINE - 16];
	struct bqlm_xsys sys;
	void *from, *to;
	unsigned int i;
	int ret = 0;

	if (bqlm_usbnet_system(cfg, &sys))
		return -EINVAL;
	from = bqlm_alloc(sys.state_size);
	to = bqlm_alloc(sys.state_size);
	if (!from || !to) {
		ret = -ENOMEM;
		goto out;
	}
	emit(arg, "# bqlmodel usbnet schedule: make kunit-replay SCHEDULE=FILE replays it on the real usbnet.c");
	snprintf(o.line, sizeof(o.line), "variant %s",
		 bqlm_usbnet_variant_name(cfg->variant));
	emit(arg, o.line);
	snprintf(o.line, sizeof(o.line), "fixup %s",
		 bqlm_sched_fixups[cfg->fixup]);
	emit(arg, o.line);
	bqlm_sched_put(&o, "flags", cfg->flags);
	bqlm_sched_put(&o, "packets", cfg->packets);
	bqlm_sched_put(&o, "skbs", cfg->skbs);
	bqlm_sched_put(&o, "tx-qlen", cfg->tx_qlen);
	if (cfg->nr_lens > 1)
		snprintf(o.line, sizeof(o.line), "lens %u %u", cfg->lens[0],
			 cfg->lens[1]);
	else
		snprintf(o.line, sizeof(o.line), "lens %u", cfg->lens[0]);
	emit(arg, o.line);
	bqlm_sched_put(&o, "maxpacket", cfg->maxpacket);
	bqlm_sched_put(&o, "pad-header", cfg->pad_header);
	bqlm_sched_put(&o, "statuses", cfg->statuses);
	bqlm_sched_put(&o, "stops", cfg->stops);
	bqlm_sched_put(&o, "suspends", cfg->suspends);
	bqlm_sched_put(&o, "timeouts", cfg->timeouts);
	if (check != BQLM_CHECK_NONE) {
		snprintf(o.line, sizeof(o.line), "check %s",
			 bqlm_check_name(check));
		emit(arg, o.line);
	}
	bqlm_sched_put(&o, "steps", n);
	bqlm_xinit(&sys, from);
	for (i = 0; i < n; i++) {
		bqlm_xdescribe_action(&sys, from, actions[i], desc,
				      sizeof(desc));
		memcpy(to, from, sys.state_size);
		if (bqlm_xstep(&sys, from, actions[i], to, each) < 0) {
			ret = -EINVAL;
			break;
		}
		memcpy(from, to, sys.state_size);
		snprintf(o.line, sizeof(o.line), "step %#x\t# %s", actions[i],
			 desc);
		emit(arg, o.line);
	}
out:
	bqlm_free(from);
	bqlm_free(to);
	return ret;
}

/* A whole number, decimal or 0x hexadecimal, within [0, @max]. */
static bool bqlm_sched_uint(const char *s, unsigned int max,
			    unsigned int *out)
{
	unsigned int base = 10, v = 0, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (d > max || v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

/* The keys whose value is one number: a field of the configuration */
static const struct {
	const char *name;
	size_t off;
	unsigned int max;
} bqlm_sched_keys[] = {
	{ "flags", offsetof(struct bqlm_usbnet_cfg, flags), ~0U },
	{ "packets", offsetof(struct bqlm_usbnet_cfg, packets),
	  BQLM_USBNET_MAX_PACKETS },
	{ "skbs", offsetof(struct bqlm_usbnet_cfg, skbs), BQLM_USBNET_MAX_SKBS },
	{ "tx-qlen", offsetof(struct bqlm_usbnet_cfg, tx_qlen), 1000 },
	{ "maxpacket", offsetof(struct bqlm_usbnet_cfg, maxpacket), 1024 },
	{ "pad-header", offsetof(struct bqlm_usbnet_cfg, pad_header), 64 },
	{ "statuses", offsetof(struct bqlm_usbnet_cfg, statuses), 15 },
	{ "stops", offsetof(struct bqlm_usbnet_cfg, stops), 3 },
	{ "suspends", offsetof(struct bqlm_usbnet_cfg, suspends), 3 },
	{ "timeouts", offsetof(struct bqlm_usbnet_cfg, timeouts), 3 },
};

struct bqlm_sched_in {
	char *err;
	size_t errlen;
	unsigned int line;
};

static int bqlm_sched_fail(struct bqlm_sched_in *in, const char *what,
			   const char *word)
{
	if (in->line)
		snprintf(in->err, in->errlen, "line %u: %s%s%s%s", in->line,
			 what, word ? " '" : "", word ? word : "",
			 word ? "'" : "");
	else
		snprintf(in->err, in->errlen, "%s", what);
	return -EINVAL;
}

/* The number after @key, at most @max, or an error naming both. */
static int bqlm_sched_num(struct bqlm_sched_in *in, char **w, unsigned int nw,
			  unsigned int max, unsigned int *out)
{
	if (nw != 2)
		return bqlm_sched_fail(in, "expected one value after", w[0]);
	if (!bqlm_sched_uint(w[1], max, out))
		return bqlm_sched_fail(in, "not a number in range:", w[1]);
	return 0;
}

/* One line's words; @cfg and the steps are filled as they come. */
static int bqlm_sched_item(struct bqlm_sched_in *in, char **w, unsigned int nw,
			   struct bqlm_usbnet_cfg *cfg, enum bqlm_check *check,
			   unsigned int *actions, unsigned int max,
			   unsigned int *n, unsigned int *declared)
{
	unsigned int v, c;
	int ret = 0;

	if (!strcmp(w[0], "variant")) {
		if (nw != 2)
			return bqlm_sched_fail(in, "expected one value after", w[0]);
		ret = bqlm_usbnet_variant_by_name(w[1]);
		if (ret < 0)
			return bqlm_sched_fail(in, "unknown variant", w[1]);
		cfg->variant = ret;
		*declared |= BQLM_SCHED_HAS_VARIANT;
		return 0;
	}
	if (!strcmp(w[0], "fixup")) {
		if (nw != 2)
			return bqlm_sched_fail(in, "expected one value after", w[0]);
		ret = bqlm_name_find(BQLM_NAMES(bqlm_sched_fixups), w[1]);
		if (ret < 0)
			return bqlm_sched_fail(in, "unknown fixup", w[1]);
		cfg->fixup = ret;
		return 0;
	}
	if (!strcmp(w[0], "check")) {
		if (nw != 2)
			return bqlm_sched_fail(in, "expected one value after", w[0]);
		for (c = 1; c < BQLM_CHECK_NR; c++)
			if (!strcmp(w[1], bqlm_check_name(c)))
				break;
		if (c == BQLM_CHECK_NR)
			return bqlm_sched_fail(in, "unknown check", w[1]);
		*check = c;
		return 0;
	}
	if (!strcmp(w[0], "lens")) {
		if (nw < 2 || nw > 1 + BQLM_USBNET_MAX_LENS)
			return bqlm_sched_fail(in, "expected one or two lengths after", w[0]);
		for (v = 1; v < nw; v++)
			if (!bqlm_sched_uint(w[v], BQLM_USBNET_MAX_LEN,
					     &cfg->lens[v - 1]))
				return bqlm_sched_fail(in, "not a length in range:", w[v]);
		cfg->nr_lens = nw - 1;
		return 0;
	}
	if (!strcmp(w[0], "step")) {
		if (*n >= max)
			return bqlm_sched_fail(in, "too many steps", NULL);
		ret = bqlm_sched_num(in, w, nw, 0xffff, &actions[*n]);
		if (!ret)
			(*n)++;
		return ret;
	}
	if (!strcmp(w[0], "steps")) {
		ret = bqlm_sched_num(in, w, nw, max, &v);
		*declared = (*declared & BQLM_SCHED_HAS_VARIANT) |
			    BQLM_SCHED_HAS_STEPS | v;
		return ret;
	}
	ret = bqlm_name_find(BQLM_NAMES_OF(bqlm_sched_keys, name), w[0]);
	if (ret < 0)
		return bqlm_sched_fail(in, "unknown key", w[0]);
	return bqlm_sched_num(in, w, nw, bqlm_sched_keys[ret].max,
			      (unsigned int *)((char *)cfg +
					       bqlm_sched_keys[ret].off));
}

/**
 * bqlm_usbnet_schedule_parse() - read a schedule
 * @text: the schedule (bqlm_usbnet_schedule_write()'s lines)
 * @cfg: receives the configuration (the variant's defaults, then what the
 *	schedule says)
 * @check: receives the violation it says it ends in, or BQLM_CHECK_NONE
 * @actions: receives its actions
 * @max: room in @actions
 * @err: receives, on an error, what is wrong and on which line
 * @errlen: room in @err
 *
 * Only the text is checked here (keys, values, ranges, the step count a
 * "steps" line declares, the configuration as a whole); whether each step
 * is enabled where it is taken is the replay's business.
 *
 * Return: the number of steps, or -EINVAL.
 */
int bqlm_usbnet_schedule_parse(const char *text, struct bqlm_usbnet_cfg *cfg,
			       enum bqlm_check *check, unsigned int *actions,
			       unsigned int max, char *err, size_t errlen)
{
	struct bqlm_sched_in in = { .err = err, .errlen = errlen };
	char buf[BQLM_SCHED_LINE], *w[BQLM_SCHED_WORDS + 1];
	unsigned int n = 0, len, nw, declared = 0;
	bool comment;
	int ret;

	bqlm_usbnet_cfg_default(cfg, BQLM_USBNET_FIXED);
	*check = BQLM_CHECK_NONE;
	err[0] = '\0';
	while (*text) {
		in.line++;
		len = 0;
		nw = 0;
		comment = false;
		/* a comment runs to the newline, ';' in it included */
		for (; *text && *text != '\n' && (comment || *text != ';');
		     text++) {
			if (*text == '#')
				comment = true;
			if (comment)
				continue;
			if (len + 1 >= sizeof(buf))
				return bqlm_sched_fail(&in, "line too long", NULL);
			buf[len++] = *text;
		}
		if (*text)
			text++;
		buf[len] = '\0';
		for (len = 0; buf[len]; ) {
			while (buf[len] == ' ' || buf[len] == '\t' ||
			       buf[len] == ',' || buf[len] == '\r')
				buf[len++] = '\0';
			if (!buf[len])
				break;
			if (nw == BQLM_SCHED_WORDS)
				return bqlm_sched_fail(&in, "too many words", NULL);
			w[nw++] = &buf[len];
			while (buf[len] && buf[len] != ' ' && buf[len] != '\t' &&
			       buf[len] != ',' && buf[len] != '\r')
				len++;
		}
		if (!nw)
			continue;
		ret = bqlm_sched_item(&in, w, nw, cfg, check, actions, max,
				      &n, &declared);
		if (ret)
			return ret;
	}
	in.line = 0;
	if (n && !(declared & BQLM_SCHED_HAS_VARIANT))
		return bqlm_sched_fail(&in, "no 'variant' line", NULL);
	if ((declared & BQLM_SCHED_HAS_STEPS) &&
	    (declared & BQLM_SCHED_STEPS_MASK) != n) {
		snprintf(err, errlen, "the schedule declares %u steps and has %u (cut short?)",
			 declared & BQLM_SCHED_STEPS_MASK, n);
		return -EINVAL;
	}
	if (bqlm_usbnet_cfg_check(cfg))
		return bqlm_sched_fail(&in, "the configuration is out of range (bqlm_usbnet_cfg_check())",
				       NULL);
	return n;
}
