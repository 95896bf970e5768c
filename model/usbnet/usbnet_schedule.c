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
#include <bqlm/options.h>

#define BQLM_SCHED_LINE		256
/* the key and one word for each bit of a BQLM_OPT_SET mask */
#define BQLM_SCHED_WORDS	(1 + 32)
/* What a schedule has declared: the low bits are its step count */
#define BQLM_SCHED_HAS_VARIANT	0x40000000
#define BQLM_SCHED_HAS_STEPS	0x20000000
#define BQLM_SCHED_HAS_OPTION	0x10000000
#define BQLM_SCHED_STEPS_MASK	0x0fffffff

struct bqlm_sched_out {
	bqlm_xemit_t emit;
	void *arg;
	char line[BQLM_SCHED_LINE];
};

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
	const struct bqlm_opts *t = bqlm_usbnet_options();
	struct bqlm_sched_out o = { .emit = emit, .arg = arg };
	struct bqlm_violation *each;
	struct bqlm_xsys sys;
	void *from, *to;
	/* off the stack: o.line is the frame's share (1024 under KASAN) */
	char *desc;
	unsigned int i;
	int ret = 0;

	if (bqlm_usbnet_system(cfg, &sys))
		return -EINVAL;
	from = bqlm_alloc(sys.state_size);
	to = bqlm_alloc(sys.state_size);
	desc = bqlm_alloc(BQLM_SCHED_LINE - 16);
	each = bqlm_alloc(BQLM_CHECK_NR * sizeof(*each));
	if (!from || !to || !desc || !each) {
		ret = -ENOMEM;
		goto out;
	}
	emit(arg, "# bqlmodel usbnet schedule: make kunit-replay SCHEDULE=FILE replays it on the real usbnet.c");
	snprintf(o.line, sizeof(o.line), "variant %s",
		 bqlm_usbnet_variant_name(cfg->variant));
	emit(arg, o.line);
	for (i = 0; i < t->n; i++) {
		const struct bqlm_opt *opt = &t->opt[i];
		char *c;
		int k;

		if (opt->flags & BQLM_OPT_ALIAS)
			continue;
		k = snprintf(o.line, sizeof(o.line), "%s ", opt->name);
		bqlm_opt_format(opt, cfg, o.line + k, sizeof(o.line) - k);
		/* a list's words: blanks, as the reader splits at either */
		for (c = o.line + k; *c; c++)
			if (*c == ',')
				*c = ' ';
		emit(arg, o.line);
	}
	if (check != BQLM_CHECK_NONE) {
		snprintf(o.line, sizeof(o.line), "check %s",
			 bqlm_check_name(check));
		emit(arg, o.line);
	}
	snprintf(o.line, sizeof(o.line), "steps %u", n);
	emit(arg, o.line);
	bqlm_xinit(&sys, from);
	for (i = 0; i < n; i++) {
		bqlm_xdescribe_action(&sys, from, actions[i], desc,
				      BQLM_SCHED_LINE - 16);
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
	bqlm_free(each);
	bqlm_free(desc);
	bqlm_free(from);
	bqlm_free(to);
	return ret;
}

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
	if (!bqlm_opt_uint(w[1], 0, max, out))
		return bqlm_sched_fail(in, "not a number in range:", w[1]);
	return 0;
}

/*
 * A step line: a number that is an action of the configuration read so
 * far (bqlm_usbnet_action_valid()), kept with its line number.
 */
static int bqlm_sched_step(struct bqlm_sched_in *in, char **w, unsigned int nw,
			   const struct bqlm_usbnet_cfg *cfg,
			   unsigned int *actions, unsigned int *lines,
			   unsigned int max, unsigned int *n)
{
	unsigned int a;
	int ret;

	if (*n >= max)
		return bqlm_sched_fail(in, "too many steps", NULL);
	ret = bqlm_sched_num(in, w, nw, 0xffff, &a);
	if (ret)
		return ret;
	if (!bqlm_usbnet_action_valid(cfg, a))
		return bqlm_sched_fail(in, "not an action of this configuration (kind, or its argument, out of range):",
				       w[1]);
	actions[*n] = a;
	if (lines)
		lines[*n] = in->line;
	(*n)++;
	return 0;
}

/* One line's words; @cfg and the steps are filled as they come. */
static int bqlm_sched_item(struct bqlm_sched_in *in, char **w, unsigned int nw,
			   struct bqlm_usbnet_cfg *cfg, enum bqlm_check *check,
			   unsigned int *actions, unsigned int *lines,
			   unsigned int max, unsigned int *n,
			   unsigned int *declared)
{
	char val[BQLM_OPT_VALUE_MAX], msg[BQLM_SCHED_LINE];
	const struct bqlm_opt *opt;
	unsigned int v, c;
	size_t len;
	int ret = 0;

	if (!strcmp(w[0], "variant")) {
		if (nw != 2)
			return bqlm_sched_fail(in, "expected one value after", w[0]);
		if ((*declared & BQLM_SCHED_HAS_OPTION) || *n)
			return bqlm_sched_fail(in, "the variant must come before the options and steps:",
					       w[1]);
		ret = bqlm_usbnet_variant_by_name(w[1]);
		if (ret < 0)
			return bqlm_sched_fail(in, "unknown variant", w[1]);
		bqlm_usbnet_cfg_default(cfg, ret);
		*declared |= BQLM_SCHED_HAS_VARIANT;
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
	if (!strcmp(w[0], "step"))
		return bqlm_sched_step(in, w, nw, cfg, actions, lines, max, n);
	if (!strcmp(w[0], "steps")) {
		ret = bqlm_sched_num(in, w, nw, max, &v);
		*declared = (*declared & ~BQLM_SCHED_STEPS_MASK) |
			    BQLM_SCHED_HAS_STEPS | v;
		return ret;
	}
	opt = bqlm_opt_find(bqlm_usbnet_options(), w[0]);
	if (!opt || (opt->flags & BQLM_OPT_ALIAS))
		return bqlm_sched_fail(in, "unknown key", w[0]);
	if (*n)
		return bqlm_sched_fail(in, "the options must come before the steps they configure:",
				       w[0]);
	/* a list's words back into the option's commas */
	for (v = 1, len = 0; v < nw; v++)
		len += snprintf(val + min(len, sizeof(val)),
				sizeof(val) - min(len, sizeof(val)), "%s%s",
				v > 1 ? "," : "", w[v]);
	if (nw < 2 || len >= sizeof(val))
		return bqlm_sched_fail(in, "expected a value after", w[0]);
	*declared |= BQLM_SCHED_HAS_OPTION;
	if (bqlm_opt_parse(bqlm_usbnet_options(), opt, cfg, val, msg,
			   sizeof(msg)))
		return bqlm_sched_fail(in, msg, NULL);
	return 0;
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
 * bqlm_usbnet_schedule_parse_lines() without the steps' line numbers.
 *
 * Only the text is checked here (keys, values, ranges, the step count a
 * "steps" line declares, the configuration as a whole and within the
 * explorer's bounds, as bqlm_usbnet_system() takes it); whether each step
 * is enabled where it is taken is the replay's business.
 *
 * Return: the number of steps, or -EINVAL.
 */
int bqlm_usbnet_schedule_parse(const char *text, struct bqlm_usbnet_cfg *cfg,
			       enum bqlm_check *check, unsigned int *actions,
			       unsigned int max, char *err, size_t errlen)
{
	return bqlm_usbnet_schedule_parse_lines(text, cfg, check, actions,
						NULL, max, err, errlen);
}

/**
 * bqlm_usbnet_schedule_parse_lines() - read a schedule, with the line of
 *	each step
 * @text: the schedule (bqlm_usbnet_schedule_write()'s lines)
 * @cfg: receives the configuration (the variant's defaults, then what the
 *	schedule says)
 * @check: receives the violation it says it ends in, or BQLM_CHECK_NONE
 * @actions: receives its actions
 * @lines: receives the line number of each, or NULL
 * @max: room in @actions (and @lines)
 * @err: receives, on an error, what is wrong and on which line
 * @errlen: room in @err
 *
 * Only the text is checked here (keys, values, ranges, the order variant,
 * options, steps, each step an action of the configuration with its
 * argument in range, the step count a "steps" line declares, the
 * configuration as a whole); whether each step is enabled where it is
 * taken is the replay's business.
 *
 * Return: the number of steps, or -EINVAL.
 */
int bqlm_usbnet_schedule_parse_lines(const char *text,
				     struct bqlm_usbnet_cfg *cfg,
				     enum bqlm_check *check,
				     unsigned int *actions,
				     unsigned int *lines, unsigned int max,
				     char *err, size_t errlen)
{
	struct bqlm_sched_in in = { .err = err, .errlen = errlen };
	char buf[BQLM_SCHED_LINE], *w[BQLM_SCHED_WORDS + 1];
	unsigned int n = 0, len, nw, declared = 0;
	struct bqlm_xsys sys;
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
		ret = bqlm_sched_item(&in, w, nw, cfg, check, actions, lines,
				      max, &n, &declared);
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
	/* the explorer wrote it, and its model replays it beside the kernel */
	if (bqlm_usbnet_system(cfg, &sys))
		return bqlm_sched_fail(&in, "the configuration is outside the explorer's bounds (--packets 1..6, at most 6 skbs)",
				       NULL);
	return n;
}
