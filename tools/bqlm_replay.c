// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm replay FILE - a usbnet schedule (what "bqlm explore usbnet
 * --schedule FILE" writes, what "make kunit-replay" runs on the real
 * usbnet.c) stepped on the model, in userspace.
 *
 * The file is read with the model's own parser
 * (model/usbnet/usbnet_schedule.c): a bad line is named with its number. Each
 * step must be an action the model enables where the schedule takes it; the
 * first that is not is named with its step and line number, with the actions
 * that were enabled. Each step is printed as the explorer's traces print it,
 * with the invariants it violates.
 *
 * Exit status: 0 the schedule ran and violated nothing, as it declares;
 * 1 it ran and ended in the violation it declares ("check" line) at its
 * last step; 2 bad usage, an unreadable or malformed file, a step the
 * model does not enable, or a run that is not what the file declares.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/usbnet.h>

#include "cli.h"
#include "bqlm_replay.h"

/* The longest schedule file, and the most steps, bqlm replay reads */
#define REPLAY_MAX_BYTES	(1 << 20)
#define REPLAY_MAX_STEPS	4096
#define REPLAY_LINE		256

static const char *prog = "bqlm replay";

/**
 * struct replay - a schedule being stepped on the model
 * @file: its file name, for messages
 * @cfg: its configuration
 * @check: the check it declares it ends in, or BQLM_CHECK_NONE
 * @actions: its steps
 * @lines: the line of each step
 * @n: how many
 * @first: the first step each check was violated at (0: never)
 * @violated: the checks violated on the way
 * @last: the checks the last step violated
 */
struct replay {
	const char *file;
	struct bqlm_usbnet_cfg cfg;
	enum bqlm_check check;
	unsigned int *actions;
	unsigned int *lines;
	int n;
	unsigned int first[BQLM_CHECK_NR];
	unsigned int violated;
	unsigned int last;
};

/* The whole file as a string, or NULL after a message. */
static char *read_file(const char *name)
{
	FILE *f = fopen(name, "r");
	size_t len;
	char *buf;

	if (!f) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, name,
			strerror(errno));
		return NULL;
	}
	buf = malloc(REPLAY_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		fprintf(stderr, "%s: out of memory\n", prog);
		return NULL;
	}
	len = fread(buf, 1, REPLAY_MAX_BYTES + 1, f);
	if (ferror(f) || len > REPLAY_MAX_BYTES || memchr(buf, '\0', len)) {
		fprintf(stderr, "%s: %s: %s\n", prog, name,
			ferror(f) ? strerror(errno) :
			len > REPLAY_MAX_BYTES ? "longer than 1 MiB: not a schedule" :
			"holds a NUL byte: not a text schedule");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Print the checks @mask (violated by the step) in @each. */
static void print_violations(unsigned int mask,
			     const struct bqlm_violation *each)
{
	char line[REPLAY_LINE];
	unsigned int c;

	for (c = 1; c < BQLM_CHECK_NR; c++) {
		if (!(mask & BQLM_CHECK_BIT(c)))
			continue;
		bqlm_violation_format(line, sizeof(line), &each[c]);
		printf("      !! %s\n", line);
	}
}

/* Note what step @k violated. */
static void note(struct replay *r, unsigned int k, unsigned int mask)
{
	unsigned int c;

	for (c = 1; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && !r->first[c])
			r->first[c] = k;
	r->violated |= mask;
}

/*
 * Is @a among the @n actions @en? A step is taken only as the model
 * enables it: the same number, not one the model would run the same way.
 */
static bool enabled(const unsigned int *en, unsigned int n, unsigned int a)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (en[i] == a)
			return true;
	return false;
}

/* The steps, each an enabled action; EXIT_USAGE at the first that is not. */
static int step_all(struct replay *r, const struct bqlm_xsys *sys, void *cur,
		    void *next)
{
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned int en[BQLM_X_MAX_ACTIONS];
	char desc[REPLAY_LINE];
	unsigned int ne, i;
	int k, mask = 0;

	bqlm_xinit(sys, cur);
	bqlm_xdescribe_state(sys, cur, desc, sizeof(desc));
	printf("  0. initial state\n      %s\n", desc);
	for (k = 0; k < r->n; k++) {
		ne = bqlm_xenabled(sys, cur, en);
		if (!enabled(en, ne, r->actions[k])) {
			fprintf(stderr, "%s: %s: step %d (line %u): action %#x is not enabled here; enabled:",
				prog, r->file, k + 1, r->lines[k], r->actions[k]);
			for (i = 0; i < ne; i++)
				fprintf(stderr, " %#x", en[i]);
			fprintf(stderr, "%s\n", ne ? "" : " none");
			return EXIT_USAGE;
		}
		bqlm_xdescribe_action(sys, cur, r->actions[k], desc,
				      sizeof(desc));
		printf("%3d. %s\n", k + 1, desc);
		memset(each, 0, sizeof(each));
		memcpy(next, cur, sys->state_size);
		mask = bqlm_xstep(sys, cur, r->actions[k], next, each);
		if (mask < 0) {
			fprintf(stderr, "%s: %s: step %d (line %u): the model refused action %#x (%d)\n",
				prog, r->file, k + 1, r->lines[k],
				r->actions[k], mask);
			return EXIT_USAGE;
		}
		memcpy(cur, next, sys->state_size);
		bqlm_xdescribe_state(sys, cur, desc, sizeof(desc));
		printf("      %s\n", desc);
		print_violations(mask, each);
		note(r, k + 1, mask);
	}
	/* at the end: the state check (a stall) of where the steps led */
	if (!mask && bqlm_xops_checks_states(sys->ops)) {
		ne = bqlm_xenabled(sys, cur, en);
		memset(each, 0, sizeof(each));
		mask = bqlm_xcheck_state(sys, cur, en, ne, each);
		if (mask > 0) {
			print_violations(mask, each);
			note(r, r->n, mask);
		}
	}
	r->last = mask > 0 ? mask : 0;
	return 0;
}

/* The first check of a mask, in the checks' order */
static enum bqlm_check first_check(unsigned int mask)
{
	unsigned int c;

	for (c = 1; c < BQLM_CHECK_NR; c++)
		if (mask & BQLM_CHECK_BIT(c))
			return c;
	return BQLM_CHECK_NONE;
}

/* What ran against what the file declares: the exit status. */
static int verdict(const struct replay *r)
{
	unsigned int c;

	for (c = 1; c < BQLM_CHECK_NR; c++)
		if (r->violated & BQLM_CHECK_BIT(c))
			printf("%s: first at step %u\n", bqlm_check_name(c),
			       r->first[c]);
	if (r->check == BQLM_CHECK_NONE) {
		if (!r->violated) {
			printf("replay: %d steps, no invariant violated\n",
			       r->n);
			return 0;
		}
		fprintf(stderr, "%s: %s declares no violation, but the model violates %s at step %u\n",
			prog, r->file, bqlm_check_name(first_check(r->violated)),
			r->first[first_check(r->violated)]);
		return EXIT_USAGE;
	}
	if (!(r->last & BQLM_CHECK_BIT(r->check)) ||
	    r->first[r->check] != (unsigned int)r->n) {
		fprintf(stderr, "%s: %s declares %s at its last step (%d); the model %s",
			prog, r->file, bqlm_check_name(r->check), r->n,
			r->first[r->check] ? "violates it first at step" :
			"does not violate it");
		if (r->first[r->check])
			fprintf(stderr, " %u", r->first[r->check]);
		fprintf(stderr, "\n");
		return EXIT_USAGE;
	}
	printf("replay: %d steps, %s at the last step, as the schedule declares\n",
	       r->n, bqlm_check_name(r->check));
	return EXIT_VIOLATION;
}

static int replay(struct replay *r, const char *text)
{
	struct bqlm_xsys sys;
	char err[REPLAY_LINE];
	void *cur, *next;
	int ret;

	r->n = bqlm_usbnet_schedule_parse_lines(text, &r->cfg, &r->check,
						r->actions, r->lines,
						REPLAY_MAX_STEPS, err,
						sizeof(err));
	if (r->n < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, r->file, err);
		return EXIT_USAGE;
	}
	if (!r->n) {
		fprintf(stderr, "%s: %s holds no steps (empty, or comments only): not a schedule\n",
			prog, r->file);
		return EXIT_USAGE;
	}
	if (bqlm_usbnet_system(&r->cfg, &sys)) {
		fprintf(stderr, "%s: %s: the explorer cannot run its configuration (--packets 1..%d)\n",
			prog, r->file, BQLM_USBNET_MAX_PACKETS);
		return EXIT_USAGE;
	}
	printf("schedule %s: usbnet, variant %s, %d steps, %s\n", r->file,
	       bqlm_usbnet_variant_name(r->cfg.variant), r->n,
	       r->check ? bqlm_check_name(r->check) : "no violation declared");
	cur = calloc(1, sys.state_size);
	next = calloc(1, sys.state_size);
	if (!cur || !next) {
		free(cur);
		free(next);
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_INTERNAL;
	}
	ret = step_all(r, &sys, cur, next);
	free(cur);
	free(next);
	return ret ? ret : verdict(r);
}

/**
 * bqlm_cli_replay() - bqlm replay FILE
 * @argc: arguments after "replay"
 * @argv: them
 *
 * Return: the exit status (see the top of this file).
 */
int bqlm_cli_replay(int argc, char **argv)
{
	struct replay r;
	char *text;
	int ret;

	if (argc != 1 || !argv[0][0])
		return bqlm_cli_usage("bqlm", "usage: bqlm replay FILE (a usbnet schedule: bqlm explore usbnet ... --schedule FILE)%s",
				      "");
	memset(&r, 0, sizeof(r));
	r.file = argv[0];
	text = read_file(r.file);
	if (!text)
		return EXIT_USAGE;
	r.actions = calloc(REPLAY_MAX_STEPS, sizeof(*r.actions));
	r.lines = calloc(REPLAY_MAX_STEPS, sizeof(*r.lines));
	if (!r.actions || !r.lines) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_INTERNAL;
	} else {
		ret = replay(&r, text);
	}
	free(r.actions);
	free(r.lines);
	free(text);
	return ret;
}
