// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm CLI - the pieces every command front end shares.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bqlm/invariants.h>

#include "cli.h"

/**
 * bqlm_cli_usage() - report a usage error
 * @who: the command, e.g. "bqlm" or "bqlm sim"
 * @fmt: the message, with one %s for @arg
 * @arg: the offending argument
 *
 * Return: EXIT_USAGE.
 */
int bqlm_cli_usage(const char *who, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", who);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'bqlm help'.\n");
	return EXIT_USAGE;
}

/**
 * bqlm_cli_parse_uint() - a decimal number in [@lo, @hi], the whole string
 * @s: the string (may be NULL: a missing argument)
 * @lo: smallest accepted value
 * @hi: largest accepted value
 * @out: the value
 *
 * Return: 0, or -EINVAL (nothing stored).
 */
int bqlm_cli_parse_uint(const char *s, unsigned long lo, unsigned long hi,
			unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/**
 * bqlm_cli_opt_uint() - an option's number in [@lo, @hi], or an error that
 *	names the option and its range
 * @who: the command, e.g. "bqlm" or "bqlm sim"
 * @opt: the option, e.g. "--lens"
 * @arg: its argument (may be NULL: missing)
 * @lo: smallest accepted value
 * @hi: largest accepted value
 * @out: the value
 *
 * Return: 0, or EXIT_USAGE after the error was printed (nothing stored).
 */
int bqlm_cli_opt_uint(const char *who, const char *opt, const char *arg,
		      unsigned long lo, unsigned long hi, unsigned int *out)
{
	char msg[160];

	if (!bqlm_cli_parse_uint(arg, lo, hi, out))
		return 0;
	if (!arg)
		snprintf(msg, sizeof(msg), "%s needs a number in %lu..%lu",
			 opt, lo, hi);
	else
		snprintf(msg, sizeof(msg), "%s: '%.32s' is not a number in %lu..%lu",
			 opt, arg, lo, hi);
	return bqlm_cli_usage(who, "%s", msg);
}

/**
 * bqlm_cli_opt_choice() - one of @names as an option's argument, or an
 *	error that lists them
 * @who: the command, e.g. "bqlm"
 * @opt: the option
 * @arg: its argument (may be NULL: missing)
 * @names: the accepted words, NULL-terminated
 * @out: the index of @arg in @names
 *
 * Return: 0, or EXIT_USAGE after the error was printed (nothing stored).
 */
int bqlm_cli_opt_choice(const char *who, const char *opt, const char *arg,
			const char *const *names, unsigned int *out)
{
	char msg[256];
	size_t n;
	unsigned int i;

	for (i = 0; arg && names[i]; i++)
		if (!strcmp(arg, names[i])) {
			*out = i;
			return 0;
		}
	if (arg)
		n = snprintf(msg, sizeof(msg), "%s: '%.32s' is not one of", opt,
			     arg);
	else
		n = snprintf(msg, sizeof(msg), "%s needs one of", opt);
	for (i = 0; names[i] && n < sizeof(msg); i++)
		n += snprintf(msg + n, sizeof(msg) - n, "%s%s", i ? ", " : " ",
			      names[i]);
	return bqlm_cli_usage(who, "%s", msg);
}

/**
 * bqlm_cli_check_names() - a mask of BQLM_CHECK_BIT()s as check names
 * @buf: where
 * @len: its size
 * @mask: the checks
 *
 * Return: @buf: "none", or the names separated by ", ".
 */
const char *bqlm_cli_check_names(char *buf, size_t len, unsigned int mask)
{
	size_t n = 0;
	unsigned int c;

	snprintf(buf, len, "none");
	for (c = 1; c < BQLM_CHECK_NR && n < len; c++)
		if (mask & BQLM_CHECK_BIT(c))
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				      bqlm_check_name(c));
	return buf;
}

/**
 * bqlm_cli_now() - the monotonic wall clock, for reporting run times only
 *
 * Return: seconds.
 */
double bqlm_cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --no-reduction, --compare-full, --max-memory: every explore command's */
static bool bqlm_cli_no_reduction;
static bool bqlm_cli_compare_full;
static unsigned long long bqlm_cli_max_memory;

/**
 * bqlm_cli_parse_bytes() - a byte count: digits, then K, M or G (powers of
 *	1024), the whole string
 * @s: the string (may be NULL)
 * @out: the value, at least 1 MiB
 *
 * Return: 0, or -EINVAL (nothing stored).
 */
int bqlm_cli_parse_bytes(const char *s, unsigned long long *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		mul = 1ULL << 10;
	else if (*end == 'M' || *end == 'm')
		mul = 1ULL << 20;
	else if (*end == 'G' || *end == 'g')
		mul = 1ULL << 30;
	else if (*end)
		return -EINVAL;
	if (*end && end[1])
		return -EINVAL;
	if (v > (1ULL << 50) / mul || v * mul < (1ULL << 20))
		return -EINVAL;
	*out = v * mul;
	return 0;
}

/**
 * bqlm_cli_default_memory() - the default --max-memory
 *
 * Return: half the machine's physical memory (so that the explorer stops
 * cleanly before the OOM killer would), or 4 GiB where that is unknown.
 */
unsigned long long bqlm_cli_default_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 4ULL << 30;
	return (unsigned long long)pages * (unsigned long long)page / 2;
}

/**
 * bqlm_cli_reduce_setup() - take the reduction and memory options out of
 *	an explore command line
 * @argc: the arguments' count, updated
 * @argv: the arguments (after "explore"), the options removed
 *
 * --no-reduction (the full search), --compare-full (the full search too,
 * to compare), --max-memory N[K|M|G] (the memory bound).
 *
 * Return: 0, or EXIT_USAGE after an error was printed.
 */
int bqlm_cli_reduce_setup(int *argc, char **argv)
{
	int i = 0, take;

	bqlm_cli_max_memory = bqlm_cli_default_memory();
	while (i < *argc) {
		take = 1;
		if (!strcmp(argv[i], "--no-reduction")) {
			bqlm_cli_no_reduction = true;
		} else if (!strcmp(argv[i], "--compare-full")) {
			bqlm_cli_compare_full = true;
		} else if (!strcmp(argv[i], "--max-memory")) {
			if (bqlm_cli_parse_bytes(i + 1 < *argc ? argv[i + 1] :
						 NULL, &bqlm_cli_max_memory))
				return bqlm_cli_usage("bqlm", "%s needs a byte count of at least 1M, with an optional K, M or G suffix (powers of 1024)",
						      "--max-memory");
			take = 2;
		} else {
			i++;
			continue;
		}
		memmove(&argv[i], &argv[i + take],
			(*argc - i - take) * sizeof(*argv));
		*argc -= take;
	}
	return 0;
}

/* --json: where the JSON report goes, and the command line it names */
static FILE *bqlm_cli_json_out;
static const char *bqlm_cli_json_path;
static bool bqlm_cli_json_to_stdout;
static int bqlm_cli_json_argc;
static char **bqlm_cli_json_argv;

/**
 * bqlm_cli_json_setup() - take "--json FILE" out of an explore command line
 * @argc: the arguments' count, updated
 * @argv: the arguments (after "explore"), the two words removed
 *
 * With "--json -" the JSON goes to standard output and the readable report
 * to standard error.
 *
 * Return: 0, or EXIT_USAGE after an error was printed.
 */
int bqlm_cli_json_setup(int *argc, char **argv)
{
	const char *path = NULL;
	int i, fd;

	for (i = 0; i < *argc; i++) {
		if (strcmp(argv[i], "--json"))
			continue;
		if (i + 1 >= *argc)
			return bqlm_cli_usage("bqlm", "%s needs a file name (- for standard output)",
					      "--json");
		path = argv[i + 1];
		memmove(&argv[i], &argv[i + 2], (*argc - i - 2) * sizeof(*argv));
		*argc -= 2;
		break;
	}
	bqlm_cli_json_argc = *argc;
	bqlm_cli_json_argv = argv;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		bqlm_cli_json_to_stdout = true;
		fflush(stdout);
		fd = dup(STDOUT_FILENO);
		bqlm_cli_json_out = fd < 0 ? NULL : fdopen(fd, "w");
		if (bqlm_cli_json_out && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			fclose(bqlm_cli_json_out);
			bqlm_cli_json_out = NULL;
		}
	} else {
		/* written whole or not at all (cli_out.c) */
		bqlm_cli_json_out = bqlm_cli_out_open("bqlm", path);
		bqlm_cli_json_path = path;
		return bqlm_cli_json_out ? 0 : EXIT_USAGE;
	}
	if (!bqlm_cli_json_out) {
		fprintf(stderr, "bqlm: cannot write %s: %s\n", path,
			strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/**
 * bqlm_cli_json_enabled() - was --json given?
 *
 * Return: true if a JSON report will be written.
 */
bool bqlm_cli_json_enabled(void)
{
	return bqlm_cli_json_out;
}

/**
 * bqlm_cli_json_stdout() - does the JSON report go to standard output?
 *
 * Return: true after "--json -".
 */
bool bqlm_cli_json_stdout(void)
{
	return bqlm_cli_json_out && bqlm_cli_json_to_stdout;
}

/* @s as a JSON string */
static void bqlm_cli_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/*
 * The trace's lines (bqlm_xtrace()) as JSON steps: "%3u. action", then
 * "      state", then "      !! violation" lines.
 */
struct bqlm_cli_json_trace {
	FILE *f;
	bool open;
	bool first_violation;
};

static void bqlm_cli_json_line(void *arg, const char *line)
{
	struct bqlm_cli_json_trace *t = arg;
	const char *dot;

	if (!strncmp(line, "      !! ", 9)) {
		fprintf(t->f, "%s", t->first_violation ? "" : ", ");
		bqlm_cli_json_str(t->f, line + 9);
		t->first_violation = false;
	} else if (!strncmp(line, "      ", 6)) {
		fprintf(t->f, ", \"state\": ");
		bqlm_cli_json_str(t->f, line + 6);
		fprintf(t->f, ", \"violations\": [");
	} else {
		dot = strstr(line, ". ");
		fprintf(t->f, "%s\n      { \"step\": %lu, \"action\": ",
			t->open ? "] }," : "", strtoul(line, NULL, 10));
		bqlm_cli_json_str(t->f, dot ? dot + 2 : line);
		t->open = true;
		t->first_violation = true;
	}
}

/* The JSON report (docs/json.md) of one exploration. */
static int bqlm_cli_json_write(const struct bqlm_cli_explore *e,
			       const struct bqlm_explorer *x,
			       const struct bqlm_xresult *res, int err,
			       int ret, double secs)
{
	struct bqlm_cli_json_trace t = { .f = bqlm_cli_json_out };
	enum bqlm_check verdict = bqlm_xresult_verdict(res);
	FILE *f = bqlm_cli_json_out;
	unsigned int *path = NULL;
	unsigned int c, first = 1;
	char line[256];
	int i, n = 0;

	fprintf(f, "{\n  \"schema\": \"bqlm-explore/1\",\n  \"system\": ");
	bqlm_cli_json_str(f, e->sys->name);
	fprintf(f, ",\n  \"argv\": [");
	for (i = 0; i < bqlm_cli_json_argc; i++) {
		fprintf(f, "%s", i ? ", " : "");
		bqlm_cli_json_str(f, bqlm_cli_json_argv[i]);
	}
	fprintf(f, "],\n  \"options\": ");
	if (e->options)
		bqlm_cli_json_str(f, e->options);
	else
		fprintf(f, "null");
	fprintf(f, ",\n");
	if (e->opts && e->cfg)
		bqlm_cli_json_bound(f, e->opts, e->cfg);
	fprintf(f, "  \"result\": \"%s\",\n  \"exit_status\": %d,\n",
		ret == EXIT_VIOLATION ? "violation" :
		ret == EXIT_INCOMPLETE ? "incomplete" :
		ret == EXIT_UNREACHED ? "unreached" : "ok", ret);
	fprintf(f, "  \"verdict\": ");
	if (verdict == BQLM_CHECK_NONE)
		fprintf(f, "null");
	else
		bqlm_cli_json_str(f, bqlm_check_name(verdict));
	fprintf(f, ",\n  \"incomplete_reason\": %s,\n",
		err == -ENOSPC ? "\"state bound\"" :
		err == -ENOBUFS ? "\"memory bound\"" :
		err == -ENOMEM ? "\"out of memory\"" : "null");
	fprintf(f, "  \"reduced\": %s,\n  \"memory_bytes\": %llu,\n",
		res->reduced ? "true" : "false", res->memory);
	fprintf(f, "  \"states\": %llu,\n  \"transitions\": %llu,\n  \"max_depth\": %u,\n  \"depth_bounded\": %s,\n  \"seconds\": %.3f,\n",
		res->states, res->transitions, res->max_depth,
		res->depth_bounded ? "true" : "false", secs);
	fprintf(f, "  \"violations\": [");
	for (c = 0; c < BQLM_CHECK_NR; c++) {
		if (!(res->violated & BQLM_CHECK_BIT(c)))
			continue;
		bqlm_violation_format(line, sizeof(line), &res->w[c].v);
		fprintf(f, "%s\n    { \"check\": ", first ? "" : ",");
		bqlm_cli_json_str(f, bqlm_check_name(c));
		fprintf(f, ", \"depth\": %u, \"fatal\": %s, \"kernel_effect\": ",
			res->w[c].depth, bqlm_inv_fatal(c) ? "true" : "false");
		bqlm_cli_json_str(f, bqlm_check_kernel_effect(c));
		fprintf(f, ", \"detail\": ");
		bqlm_cli_json_str(f, line);
		fprintf(f, " }");
		first = 0;
	}
	fprintf(f, "%s],\n  \"trace\": ", first ? "" : "\n  ");
	if (verdict != BQLM_CHECK_NONE)
		path = calloc(BQLM_CLI_MAX_PATH, sizeof(*path));
	if (path)
		n = bqlm_explorer_path(x, verdict, path, BQLM_CLI_MAX_PATH);
	if (path && n >= 0) {
		fprintf(f, "{\n    \"check\": ");
		bqlm_cli_json_str(f, bqlm_check_name(verdict));
		fprintf(f, ",\n    \"steps\": [");
		n = bqlm_xtrace(e->sys, path, n, bqlm_cli_json_line, &t);
		fprintf(f, "%s\n    ]\n  }", t.open ? "] }" : "");
	} else {
		fprintf(f, "null");
	}
	fprintf(f, "\n}\n");
	free(path);
	if (verdict != BQLM_CHECK_NONE && (!path || n < 0))
		return -ENOMEM;
	/* a file is flushed by bqlm_cli_out_close(), which names the error */
	return bqlm_cli_json_to_stdout && fflush(f) ? -EIO : 0;
}

static void bqlm_cli_emit(void *arg, const char *line)
{
	(void)arg;
	printf("    %s\n", line);
}

static bool bqlm_cli_same_witness(const struct bqlm_xresult *res,
				  unsigned int c, unsigned int d)
{
	return res->w[d].depth == res->w[c].depth &&
	       res->w[d].state == res->w[c].state &&
	       res->w[d].action == res->w[c].action;
}

static int bqlm_cli_print_trace(const struct bqlm_cli_explore *e,
				const struct bqlm_explorer *x,
				const struct bqlm_xresult *res,
				enum bqlm_check c, unsigned int *path)
{
	int n = bqlm_explorer_path(x, c, path, BQLM_CLI_MAX_PATH);
	unsigned int d;

	if (n < 0)
		return n;
	/* symmetry keeps witness depths */
	printf("\ntrace to %s (%d steps, shortest):\n", bqlm_check_name(c), n);
	n = bqlm_xtrace(e->sys, path, n, bqlm_cli_emit, NULL);
	if (n < 0)
		return n;
	printf("    => %s: %s\n", bqlm_check_name(c),
	       bqlm_check_kernel_effect(c));
	/* other checks first violated by the same step */
	for (d = 0; d < BQLM_CHECK_NR; d++)
		if (d != c && (res->violated & BQLM_CHECK_BIT(d)) &&
		    bqlm_cli_same_witness(res, c, d))
			printf("    => also %s: %s\n", bqlm_check_name(d),
			       bqlm_check_kernel_effect(d));
	return 0;
}

/*
 * The traces: the verdict's, then every other fatal check's (and, with
 * all_traces, every other check's) unless an earlier trace ended at the
 * same step.
 */
static int bqlm_cli_print_traces(const struct bqlm_cli_explore *e,
				 const struct bqlm_explorer *x,
				 const struct bqlm_xresult *res,
				 enum bqlm_check verdict)
{
	unsigned int *path = calloc(BQLM_CLI_MAX_PATH, sizeof(*path));
	unsigned int c, d, shown = 0;
	int err = 0;

	if (!path)
		return -ENOMEM;
	err = bqlm_cli_print_trace(e, x, res, verdict, path);
	shown |= BQLM_CHECK_BIT(verdict);
	for (c = 0; !err && c < BQLM_CHECK_NR; c++) {
		bool same = false;

		if (!(res->violated & BQLM_CHECK_BIT(c)) ||
		    (shown & BQLM_CHECK_BIT(c)) ||
		    (!e->all_traces && !bqlm_inv_fatal(c)))
			continue;
		for (d = 0; d < BQLM_CHECK_NR; d++)
			if ((shown & BQLM_CHECK_BIT(d)) &&
			    bqlm_cli_same_witness(res, c, d))
				same = true;
		if (same)
			continue;
		err = bqlm_cli_print_trace(e, x, res, c, path);
		shown |= BQLM_CHECK_BIT(c);
	}
	free(path);
	return err;
}

/*
 * Hand the shortest trace to e->save_check (or the verdict's) to e->save;
 * a check that was not violated is said, and nothing is saved.
 */
static int bqlm_cli_save_path(const struct bqlm_cli_explore *e,
			      const struct bqlm_explorer *x,
			      const struct bqlm_xresult *res,
			      enum bqlm_check verdict)
{
	enum bqlm_check c = e->save_check ? e->save_check : verdict;
	unsigned int *path;
	int n, err;

	if (c == BQLM_CHECK_NONE || !(res->violated & BQLM_CHECK_BIT(c))) {
		if (c == BQLM_CHECK_NONE)
			fprintf(stderr, "bqlm: no schedule written: no invariant was violated\n");
		else
			fprintf(stderr, "bqlm: no schedule written: %s was not violated\n",
				bqlm_check_name(c));
		return 0;
	}
	path = calloc(BQLM_CLI_MAX_PATH, sizeof(*path));
	if (!path)
		return -ENOMEM;
	n = bqlm_explorer_path(x, c, path, BQLM_CLI_MAX_PATH);
	err = n < 0 ? n : e->save(e->save_arg, c, path, n);
	free(path);
	return err;
}

/* One search of @e->sys within @b: its result, wall time and error. */
static struct bqlm_explorer *bqlm_cli_search(const struct bqlm_cli_explore *e,
					     const struct bqlm_xbounds *b,
					     struct bqlm_xresult *res,
					     double *secs, int *err)
{
	struct bqlm_explorer *x = bqlm_explorer_create(e->sys, b);
	double t0;

	if (!x) {
		fprintf(stderr, "bqlm: out of memory\n");
		return NULL;
	}
	t0 = bqlm_cli_now();
	*err = bqlm_explore(x, res);
	*secs = bqlm_cli_now() - t0;
	return x;
}

/* --compare-full: the full search's figures next to the reduced one's. */
static void bqlm_cli_print_compare(const struct bqlm_xresult *res,
				   double secs, int err,
				   const struct bqlm_xresult *full,
				   double fsecs, int ferr)
{
	char a[256], b[256];
	unsigned int c;

	printf("full search: states %llu, transitions %llu, time %.3f s%s; reduction factor %.2f in states, %.2f in time\n",
	       full->states, full->transitions, fsecs,
	       ferr ? " (INCOMPLETE: a bound stopped it)" : "",
	       res->states ? (double)full->states / res->states : 0.0,
	       secs > 0 ? fsecs / secs : 0.0);
	printf("violated checks: reduced %s; full %s: %s%s\n",
	       bqlm_cli_check_names(a, sizeof(a), res->violated),
	       bqlm_cli_check_names(b, sizeof(b), full->violated),
	       res->violated == full->violated ? "the same" : "DIFFERENT",
	       err || ferr ? " (a bound stopped a search: not conclusive)" :
	       "");
	for (c = 0; c < BQLM_CHECK_NR; c++)
		if (res->violated & full->violated & BQLM_CHECK_BIT(c))
			printf("  %-20s witness depth: reduced %u, full (shortest) %u\n",
			       bqlm_check_name(c), res->w[c].depth,
			       full->w[c].depth);
}

/**
 * bqlm_cli_run_explore() - explore, print the figures, verdict and traces
 * @e: what to explore and how to report it
 *
 * The bounds are @e->bounds with the command line's --no-reduction and
 * --max-memory; with --compare-full the full search runs after the
 * reduced one and both are reported.
 *
 * Return: the exit status: 0, EXIT_VIOLATION, EXIT_INCOMPLETE (a bound,
 * of states or of memory, stopped the search before any violation) or
 * EXIT_INTERNAL.
 */
int bqlm_cli_run_explore(const struct bqlm_cli_explore *e)
{
	struct bqlm_cli_explore ee = *e;
	struct bqlm_xresult res, full;
	struct bqlm_explorer *x, *fx;
	struct bqlm_xbounds b = { 0 };
	enum bqlm_check verdict;
	double secs, fsecs = 0;
	unsigned int c;
	int err, ferr = 0, ret;

	if (e->bounds)
		b = *e->bounds;
	b.no_reduction |= bqlm_cli_no_reduction;
	if (!b.max_memory)
		b.max_memory = bqlm_cli_max_memory ? bqlm_cli_max_memory :
			       bqlm_cli_default_memory();
	x = bqlm_cli_search(e, &b, &res, &secs, &err);
	if (!x)
		return EXIT_INTERNAL;
	if (e->res)
		*e->res = res;
	if (e->secs)
		*e->secs = secs;
	if (err == -E2BIG || err == -EINVAL || err == -EIO) {
		fprintf(stderr, "bqlm: the model broke the explorer's contract (%d)\n",
			err);
		bqlm_explorer_destroy(x);
		return EXIT_INTERNAL;
	}
	verdict = bqlm_xresult_verdict(&res);
	ret = verdict != BQLM_CHECK_NONE ? EXIT_VIOLATION :
	      err ? EXIT_INCOMPLETE : 0;
	/* an OK the model does not vouch for (a stated path never taken) */
	if (!ret && e->ok_status && !b.max_depth)
		ret = e->ok_status(e->ok_arg);
	if (e->quiet)
		goto out;
	if (bqlm_cli_json_out) {
		bool ok = !bqlm_cli_json_write(&ee, x, &res, err, ret, secs);

		if (!bqlm_cli_json_to_stdout) {
			ok = !bqlm_cli_out_close("bqlm", bqlm_cli_json_path,
						 bqlm_cli_json_out, ok) && ok;
			bqlm_cli_json_out = NULL;
		} else if (!ok) {
			fprintf(stderr, "bqlm: writing the JSON report failed\n");
		}
		if (!ok)
			ret = EXIT_INTERNAL;
	}

	printf("states %llu, transitions %llu, max depth %u, time %.3f s (%.0f states/s)%s\n",
	       res.states, res.transitions, res.max_depth, secs,
	       secs > 0 ? res.states / secs : 0.0,
	       res.depth_bounded ? ", depth bound reached" : "");
	printf("reduction: %s", res.reduced ? "symmetry" : "off (full search)");
	printf("; memory %.1f MiB (%.0f bytes a state, bound %.1f MiB)\n",
	       res.memory / 1048576.0,
	       res.states ? (double)res.memory / res.states : 0.0,
	       b.max_memory / 1048576.0);
	if (e->figures)
		e->figures(e->arg);
	/* after the figures, which a model may gather in its search */
	if (bqlm_cli_compare_full && res.reduced) {
		struct bqlm_xbounds fb = b;

		fb.no_reduction = true;
		/* the reduced search's memory stays held (its traces): the
		 * full one gets what is left of the bound
		 */
		fb.max_memory = b.max_memory > res.memory ?
				b.max_memory - res.memory : 1;
		fx = bqlm_cli_search(e, &fb, &full, &fsecs, &ferr);
		if (!fx) {
			bqlm_explorer_destroy(x);
			return EXIT_INTERNAL;
		}
		bqlm_explorer_destroy(fx);
		bqlm_cli_print_compare(&res, secs, err, &full, fsecs, ferr);
	}
	if (err == -ENOSPC)
		printf("INCOMPLETE: state bound reached, not every state was explored\n");
	else if (err == -ENOBUFS)
		printf("INCOMPLETE: memory bound (--max-memory %llu bytes) reached after %llu states, not every state was explored\n",
		       b.max_memory, res.states);
	else if (err == -ENOMEM)
		printf("INCOMPLETE: out of memory\n");

	if (verdict == BQLM_CHECK_NONE) {
		printf("%s: no invariant violated in %llu states%s\n",
		       err ? "NO VIOLATION FOUND" : "OK", res.states,
		       res.depth_bounded ? " (within the depth bound only)" :
		       "");
		goto out;
	}
	printf("VIOLATION: %s (depth %u): %s\n", bqlm_check_name(verdict),
	       res.w[verdict].depth, bqlm_check_kernel_effect(verdict));
	for (c = 0; c < BQLM_CHECK_NR; c++) {
		char line[256];

		if (!(res.violated & BQLM_CHECK_BIT(c)))
			continue;
		bqlm_violation_format(line, sizeof(line), &res.w[c].v);
		printf("  violated %-20s first at depth %3u: %s\n",
		       bqlm_check_name(c), res.w[c].depth, line);
	}
	if (!e->no_trace && bqlm_cli_print_traces(&ee, x, &res, verdict))
		ret = EXIT_INTERNAL;
out:
	if (e->save && ret != EXIT_INTERNAL &&
	    bqlm_cli_save_path(e, x, &res, verdict))
		ret = EXIT_INTERNAL;
	bqlm_explorer_destroy(x);
	return ret;
}
