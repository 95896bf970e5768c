// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm CLI - a model's command line, read through its option table
 * (<bqlm/options.h>): the profile, the model's options, the explorer's
 * common options; the help and the profile list made from the same tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The explorer's options every model takes (struct bqlm_cli_common). */
static const struct bqlm_opt bqlm_cli_common_opt[] = {
	{ .name = "depth", .type = BQLM_OPT_UINT,
	  BQLM_OPT_FIELD(struct bqlm_cli_common, bounds.max_depth),
	  .min = 1, .max = 65534,
	  .help = "do not expand states at this depth (default: none)" },
	{ .name = "max-states", .type = BQLM_OPT_UINT,
	  BQLM_OPT_FIELD(struct bqlm_cli_common, bounds.max_states),
	  .min = 1, .max = 1U << 24,
	  .help = "stop storing states beyond this many (default 16777216)" },
	{ .name = "strict", .type = BQLM_OPT_BOOL, .flags = BQLM_OPT_NOARG,
	  BQLM_OPT_FIELD(struct bqlm_cli_common, bounds.strict),
	  .help = "stop at every violation, not only fatal ones" },
	{ .name = "all-traces", .type = BQLM_OPT_BOOL, .flags = BQLM_OPT_NOARG,
	  BQLM_OPT_FIELD(struct bqlm_cli_common, all_traces),
	  .help = "a trace for every violated check" },
	{ .name = "no-trace", .type = BQLM_OPT_BOOL, .flags = BQLM_OPT_NOARG,
	  BQLM_OPT_FIELD(struct bqlm_cli_common, no_trace),
	  .help = "print no trace" },
};

static const struct bqlm_opts bqlm_cli_common_opts = {
	.model = "bqlm explore", .opt = bqlm_cli_common_opt,
	.n = ARRAY_SIZE(bqlm_cli_common_opt),
	.cfg_size = sizeof(struct bqlm_cli_common),
};

/* The options handled before a model's parser: only named in the help. */
static const char *const bqlm_cli_early_help[] = {
	"  --json FILE            the verdict, figures and trace as JSON (- for standard output)",
	"  --no-reduction         the full search: every interleaving, shortest traces",
	"  --compare-full         also run the full search and report both",
	"  --max-memory N         the explorer's memory bound, suffix K, M or G (default: half the memory)",
};

/* "--name" or "--name=value": the name into @name, the value or NULL */
static const char *bqlm_cli_split(const char *arg, char *name, size_t len)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (n - 2 >= len) {
		name[0] = '\0';
		return NULL;
	}
	memcpy(name, arg + 2, n - 2);
	name[n - 2] = '\0';
	return eq ? eq + 1 : NULL;
}

/*
 * Apply @o's implied options (struct bqlm_opt.implies) that were not given
 * and are 0: say so on standard error.
 */
static int bqlm_cli_implies(const struct bqlm_opts *t, void *cfg,
			    const struct bqlm_opt *o, u64 given)
{
	char name[64], val[BQLM_OPT_VALUE_MAX], err[256];
	const char *s = o->implies, *eq;
	const struct bqlm_opt *i;
	size_t n;

	while (s && *s) {
		while (*s == ' ')
			s++;
		n = strcspn(s, " ");
		eq = memchr(s, '=', n);
		if (!n || !eq || (size_t)(eq - s) >= sizeof(name) ||
		    n - (eq - s) > sizeof(val))
			return -EINVAL;	/* a bug of the model's table */
		memcpy(name, s, eq - s);
		name[eq - s] = '\0';
		memcpy(val, eq + 1, n - (eq - s) - 1);
		val[n - (eq - s) - 1] = '\0';
		s += n;
		i = bqlm_opt_find(t, name);
		if (!i)
			return -EINVAL;
		if (given & bqlm_opt_covers(t, i))
			continue;
		if (bqlm_opt_format(i, cfg, err, sizeof(err)) < 0 ||
		    (strcmp(err, "0") && strcmp(err, "off") && strcmp(err, "none")))
			continue;
		if (bqlm_opt_parse(t, i, cfg, val, err, sizeof(err)))
			return -EINVAL;
		fprintf(stderr, "bqlm: note: --%s without --%s: --%s %s\n",
			o->name, name, name, val);
	}
	return 0;
}

/*
 * Does @o's requirement (struct bqlm_opt.requires, "name=value") hold in
 * @cfg? If not, the reason into @err.
 */
static bool bqlm_cli_requires(const struct bqlm_opts *t, const void *cfg,
			      const struct bqlm_opt *o, char *err, size_t len)
{
	const char *eq = strchr(o->requires, '=');
	char name[64], val[BQLM_OPT_VALUE_MAX];
	const struct bqlm_opt *r;

	snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - o->requires) : 0,
		 o->requires);
	r = bqlm_opt_find(t, name);
	if (!eq || !r || bqlm_opt_format(r, cfg, val, sizeof(val)) < 0) {
		snprintf(err, len, "internal error: bad requires of --%s",
			 o->name);
		return false;
	}
	if (!strcmp(val, eq + 1))
		return true;
	snprintf(err, len, "--%s means nothing without --%s %s (here --%s %.48s)",
		 o->name, name, eq + 1, name, val);
	return false;
}

/**
 * bqlm_cli_model_parse() - a model's explore command line
 * @who: the command, for messages ("bqlm")
 * @t: the model's options
 * @cfg: receives the configuration (@t->cfg_size bytes)
 * @argc: the arguments after the model's name
 * @argv: them
 * @c: receives the explorer's common options
 * @extra: optional: the command's own options (e.g. --schedule FILE):
 *	called with each option @t does not know; returns 0 if it took the
 *	option and its value, 2 if it took the option alone, 1 if it is not
 *	one of its own, or EXIT_USAGE after printing an error
 * @arg: @extra's argument
 * @profile: receives the profile's name
 *
 * The profile (@t->profile_opt, or @t->default_profile) is applied first,
 * wherever it stands; every other option then on top of it. A model
 * without profiles starts from its defaults (*@profile NULL). An option
 * given twice, or two options that set the same field (an alias and the
 * option it stands for), are refused: nothing is silently overridden.
 * Unknown options, missing values and values out of range are refused
 * with the option's range or words; the whole configuration is then
 * checked (bqlm_opt_check()).
 *
 * Return: 0, or EXIT_USAGE after the error was printed.
 */
int bqlm_cli_model_parse(const char *who, const struct bqlm_opts *t,
			 void *cfg, int argc, char **argv,
			 struct bqlm_cli_common *c,
			 int (*extra)(void *arg, const char *opt,
				      const char *val),
			 void *arg, const char **profile)
{
	const struct bqlm_opt *setter[64] = { NULL };
	char name[64], err[256], popt[64];
	const struct bqlm_opt *o;
	u64 given = 0, cov, cgiven = 0;
	int i, id, r, seen;
	const char *val;

	memset(c, 0, sizeof(*c));
	*profile = t->default_profile;
	popt[0] = '\0';
	if (!t->nr_profiles) {
		/* a model without profiles: its defaults */
		t->defaults(cfg);
		goto options;
	}
	snprintf(popt, sizeof(popt), "--%s", t->profile_opt ? t->profile_opt :
		 "profile");
	for (i = 0, seen = 0; i < argc; i++) {
		if (strcmp(argv[i], popt))
			continue;
		if (i + 1 >= argc)
			return bqlm_cli_usage(who, "option '%s' needs an argument",
					      popt);
		if (seen++)
			return bqlm_cli_usage(who, "%s given twice", popt);
		*profile = argv[++i];
	}
	if (!*profile) {
		snprintf(err, sizeof(err), "%s explore %s needs %s NAME (see 'bqlm list')",
			 who, t->model, popt);
		return bqlm_cli_usage(who, "%s", err);
	}
	id = bqlm_opt_profile_by_name(t, *profile);
	if (id < 0) {
		snprintf(err, sizeof(err), "unknown %s %s '%.48s' (see 'bqlm list')",
			 t->model, t->profile_opt ? t->profile_opt : "profile",
			 *profile);
		return bqlm_cli_usage(who, "%s", err);
	}
	if (bqlm_opt_profile(t, cfg, id, err, sizeof(err))) {
		fprintf(stderr, "%s: internal error: %s\n", who, err);
		return EXIT_INTERNAL;
	}
options:
	for (i = 0; i < argc; i++) {
		if (popt[0] && !strcmp(argv[i], popt)) {
			i++;
			continue;
		}
		if (strncmp(argv[i], "--", 2))
			return bqlm_cli_usage(who, "unexpected argument '%s'",
					      argv[i]);
		val = bqlm_cli_split(argv[i], name, sizeof(name));
		o = bqlm_opt_find(&bqlm_cli_common_opts, name);
		if (o) {
			if (!val && !(o->flags & BQLM_OPT_NOARG)) {
				if (i + 1 >= argc)
					return bqlm_cli_usage(who, "option '%s' needs an argument",
							      argv[i]);
				val = argv[++i];
			}
			cov = bqlm_opt_covers(&bqlm_cli_common_opts, o);
			if (cgiven & cov)
				return bqlm_cli_usage(who, "--%s given twice",
						      o->name);
			cgiven |= cov;
			if (bqlm_opt_parse(&bqlm_cli_common_opts, o, c, val, err,
					   sizeof(err)))
				return bqlm_cli_usage(who, "%s", err);
			continue;
		}
		o = bqlm_opt_find(t, name);
		if (!o) {
			r = extra ? extra(arg, argv[i], i + 1 < argc ?
					  argv[i + 1] : NULL) : 1;
			if (r == 1)
				return bqlm_cli_usage(who, "unknown option '%s'",
						      argv[i]);
			if (r == 2)
				continue;
			if (r)
				return r;
			i++;
			continue;
		}
		if (!val && !(o->flags & BQLM_OPT_NOARG)) {
			if (i + 1 >= argc)
				return bqlm_cli_usage(who, "option '%s' needs an argument",
						      argv[i]);
			val = argv[++i];
		}
		cov = bqlm_opt_covers(t, o);
		if (given & cov) {
			unsigned int b = __builtin_ctzll(given & cov);

			if (setter[b] == o)
				snprintf(err, sizeof(err),
					 "--%s given twice (each option once)",
					 o->name);
			else
				snprintf(err, sizeof(err),
					 "--%s and --%s both set --%s (each option once; see 'bqlm help %s')",
					 setter[b]->name, o->name, t->opt[b].name,
					 t->model);
			return bqlm_cli_usage(who, "%s", err);
		}
		for (r = 0; r < (int)t->n; r++)
			if (cov & (1ULL << r))
				setter[r] = o;
		given |= cov;
		if (bqlm_opt_parse(t, o, cfg, val, err, sizeof(err)))
			return bqlm_cli_usage(who, "%s", err);
	}
	for (i = 0; i < (int)t->n; i++)
		if ((given & (1ULL << i)) && t->opt[i].implies &&
		    bqlm_cli_implies(t, cfg, &t->opt[i], given)) {
			fprintf(stderr, "%s: internal error: bad implies of --%s\n",
				who, t->opt[i].name);
			return EXIT_INTERNAL;
		}
	for (i = 0; i < (int)t->n; i++)
		if ((given & (1ULL << i)) && t->opt[i].requires &&
		    !bqlm_cli_requires(t, cfg, &t->opt[i], err, sizeof(err)))
			return bqlm_cli_usage(who, "%s", err);
	if (bqlm_opt_check(t, cfg, err, sizeof(err)))
		return bqlm_cli_usage(who, "%s", err);
	return 0;
}

/**
 * bqlm_cli_model_help() - a model's options, for "bqlm help MODEL"
 * @f: where
 * @t: the model's options
 * @usage: the usage line(s), printed first
 */
void bqlm_cli_model_help(FILE *f, const struct bqlm_opts *t,
			 const char *usage)
{
	char line[BQLM_OPT_TEXT_MAX];
	unsigned int i;

	fprintf(f, "%s\n%s options", usage, t->model);
	if (t->nr_profiles)
		fprintf(f, " (applied on top of the %s; %s)",
			t->profile_opt ? t->profile_opt : "profile",
			t->default_profile ? t->default_profile : "required");
	fprintf(f, ":\n");
	if (t->nr_profiles) {
		snprintf(line, sizeof(line), "--%s NAME",
			 t->profile_opt ? t->profile_opt : "profile");
		fprintf(f, "  %-22s one of 'bqlm list', e.g. %s\n", line,
			t->profiles[0].name);
	}
	for (i = 0; i < t->n; i++) {
		bqlm_opt_help(&t->opt[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	fprintf(f, "explore options (every model):\n");
	for (i = 0; i < bqlm_cli_common_opts.n; i++) {
		bqlm_opt_help(&bqlm_cli_common_opts.opt[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	for (i = 0; i < ARRAY_SIZE(bqlm_cli_early_help); i++)
		fprintf(f, "%s\n", bqlm_cli_early_help[i]);
}

/**
 * bqlm_cli_model_list() - a model's profiles, for "bqlm list"
 * @t: the model's options
 * @title: the heading
 */
void bqlm_cli_model_list(const struct bqlm_opts *t, const char *title)
{
	unsigned int i;

	printf("%s\n", title);
	for (i = 0; i < t->nr_profiles; i++) {
		const struct bqlm_profile *p = &t->profiles[i];

		if (p->driver || p->commit)
			printf("  %-28s %-16s %-14s %s\n", p->name,
			       p->driver ? p->driver : "-",
			       p->commit ? p->commit : "-", p->desc);
		else
			printf("  %-28s %s\n", p->name, p->desc);
	}
}

/**
 * bqlm_cli_model_options() - a configuration's text form, for the report
 * @t: the model's options
 * @cfg: the configuration
 * @mask: as bqlm_opt_describe()
 *
 * Return: a string to free(), or NULL without memory.
 */
char *bqlm_cli_model_options(const struct bqlm_opts *t, const void *cfg,
			     unsigned int mask)
{
	int n = bqlm_opt_describe(t, cfg, mask, NULL, 0);
	char *s = n < 0 ? NULL : malloc(n + 1);

	if (s)
		bqlm_opt_describe(t, cfg, mask, s, n + 1);
	return s;
}
