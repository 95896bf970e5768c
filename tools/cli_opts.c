// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm CLI - a model's command line, read through its option table
 * (<bqlm/options.h>): the profile, the model's options, the explorer's
 * common options; the help and the profile list made from the same tables.
 */
#include <errno.h>
#include <limits.h>
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
	"  --sweep [TIME]         every bound from the smallest up (the options marked bound that",
	"                         are not given), level by level, for TIME seconds (default 60)",
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

/* "--sweep [TIME]": the time from "=TIME" or the next word if a number. */
static int bqlm_cli_parse_sweep(const char *who, struct bqlm_cli_common *c,
				const char *val, int argc, char **argv, int *i)
{
	const char *n = *i + 1 < argc ? argv[*i + 1] : NULL;

	if (c->sweep)
		return bqlm_cli_usage(who, "%s", "--sweep given twice");
	if (!val && n && n[0] >= '0' && n[0] <= '9') {
		val = n;
		(*i)++;
	}
	if (!val) {
		c->sweep = BQLM_CLI_SWEEP_DEFAULT;
		return 0;
	}
	if (bqlm_cli_parse_uint(val, 1, 86400, &c->sweep))
		return bqlm_cli_usage(who,
				      "--sweep: '%.32s' is not a number of seconds in 1..86400",
				      val);
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
 *	option and its value, BQLM_CLI_EXTRA_ALONE if it took the option
 *	alone, 1 if it is not one of its own, or EXIT_USAGE after printing
 *	an error (2: not "alone", which once made an error's value the next
 *	argument, and a second error)
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
		if (!strcmp(name, "sweep")) {
			r = bqlm_cli_parse_sweep(who, c, val, argc, argv, &i);
			if (r)
				return r;
			continue;
		}
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
			if (r == BQLM_CLI_EXTRA_ALONE)
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
	c->given = given;
	if (c->sweep && c->bounds.max_depth)
		return bqlm_cli_usage(who, "%s",
				      "--depth does not go with --sweep (it would cut every search of the sweep)");
	if (c->sweep && !t->system)
		return bqlm_cli_usage(who, "bqlm explore %s has no --sweep",
				      t->model);
	if (c->sweep && bqlm_cli_json_enabled())
		return bqlm_cli_usage(who, "%s",
				      "--json does not go with --sweep (the sweep prints a table; run the configuration it reports with --json)");
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

/* The value of a BQLM_OPT_UINT option. */
static unsigned int bqlm_cli_opt_value(const struct bqlm_opt *o,
				       const void *cfg)
{
	char buf[BQLM_OPT_VALUE_MAX];
	unsigned int v = 0;

	if (bqlm_opt_format(o, cfg, buf, sizeof(buf)) < 0 ||
	    !bqlm_opt_uint(buf, 0, UINT_MAX, &v))
		return 0;
	return v;
}

/**
 * bqlm_cli_model_bound() - every bound parameter and the memory model
 * @t: the model's options
 * @cfg: the configuration
 * @buf: where
 * @len: its size
 *
 * "name value, name value, ...": every BQLM_OPT_BOUND option of @t, then
 * "; memory model X" if the model has a "memory-model" option.
 *
 * Return: as snprintf().
 */
int bqlm_cli_model_bound(const struct bqlm_opts *t, const void *cfg,
			 char *buf, size_t len)
{
	const struct bqlm_opt *mm = bqlm_opt_find(t, "memory-model");
	char val[BQLM_OPT_VALUE_MAX];
	size_t n = 0;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < t->n; i++) {
		if (!(t->opt[i].flags & BQLM_OPT_BOUND))
			continue;
		bqlm_opt_format(&t->opt[i], cfg, val, sizeof(val));
		n += snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			      "%s%s %s", n ? ", " : "", t->opt[i].name, val);
	}
	if (mm) {
		bqlm_opt_format(mm, cfg, val, sizeof(val));
		n += snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			      "; memory model %s", val);
	}
	return n;
}

/**
 * bqlm_cli_json_bound() - the JSON report's "bound" and "memory_model"
 * @f: the report
 * @t: the model's options
 * @cfg: the configuration
 *
 * Writes "bound": an object with every BQLM_OPT_BOUND option of @t by
 * name (a number), and "memory_model": its "memory-model" option's value
 * or null, each followed by a comma and a newline.
 */
void bqlm_cli_json_bound(FILE *f, const struct bqlm_opts *t, const void *cfg)
{
	const struct bqlm_opt *mm = bqlm_opt_find(t, "memory-model");
	char val[BQLM_OPT_VALUE_MAX];
	unsigned int i, first = 1;

	fprintf(f, "  \"bound\": {");
	for (i = 0; i < t->n; i++) {
		if (!(t->opt[i].flags & BQLM_OPT_BOUND))
			continue;
		fprintf(f, "%s\"%s\": %u", first ? " " : ", ", t->opt[i].name,
			bqlm_cli_opt_value(&t->opt[i], cfg));
		first = 0;
	}
	fprintf(f, "%s},\n  \"memory_model\": ", first ? "" : " ");
	if (mm) {
		bqlm_opt_format(mm, cfg, val, sizeof(val));
		fprintf(f, "\"%s\",\n", val);
	} else {
		fprintf(f, "null,\n");
	}
}

/* The sweep: its dimensions, where it is, and what it covered. */
struct bqlm_cli_sweep_dim {
	const struct bqlm_opt *o;
	unsigned int lo;
	unsigned int hi;
	unsigned int v;
};

struct bqlm_cli_sweep {
	const struct bqlm_opts *t;
	const struct bqlm_cli_common *c;
	const void *base;
	void *work;
	void *found;
	struct bqlm_cli_sweep_dim dim[64];
	unsigned int ndim;
	/* the memory model, when not given: every one at each bound */
	const struct bqlm_opt *mm;
	unsigned int nmm;
	double t0;
	double budget;
	/* this level's figures */
	unsigned long long configs, skipped, states, largest;
	double secs;
	bool out_of_time;
	bool incomplete;
	bool violation;
	bool error;
	/* optional: what the searches took of the stated paths */
	const struct bqlm_cli_reach *reach;
	void *acc;
	void *ctx;
};

/* Explore the configuration of the dimensions' values (and memory model k). */
static void bqlm_cli_sweep_mm(struct bqlm_cli_sweep *w, unsigned int k)
{
	char val[16], err[256];
	struct bqlm_xresult res;
	struct bqlm_xsys sys;
	double secs = 0;
	unsigned int d;
	int ret;

	if (bqlm_cli_now() - w->t0 >= w->budget) {
		w->out_of_time = true;
		return;
	}
	memcpy(w->work, w->base, w->t->cfg_size);
	for (d = 0; d < w->ndim; d++) {
		snprintf(val, sizeof(val), "%u", w->dim[d].v);
		if (bqlm_opt_parse(w->t, w->dim[d].o, w->work, val, err,
				   sizeof(err))) {
			w->skipped++;
			return;
		}
	}
	if (w->mm && bqlm_opt_parse(w->t, w->mm, w->work, w->mm->names[k],
				    err, sizeof(err))) {
		w->skipped++;
		return;
	}
	if (bqlm_opt_check(w->t, w->work, err, sizeof(err)) ||
	    (w->t->sweep_redundant && w->t->sweep_redundant(w->work)) ||
	    (w->reach ? w->reach->system(w->work, w->ctx, &sys) :
	     w->t->system(w->work, &sys))) {
		w->skipped++;
		return;
	}
	{
		struct bqlm_cli_explore e = {
			.sys = &sys, .bounds = &w->c->bounds, .quiet = true,
			.res = &res, .secs = &secs,
		};

		ret = bqlm_cli_run_explore(&e);
	}
	if (w->reach && !ret)
		w->reach->merge(w->acc, w->ctx);
	w->configs++;
	w->states += res.states;
	if (res.states > w->largest)
		w->largest = res.states;
	w->secs += secs;
	if (ret == EXIT_VIOLATION) {
		w->violation = true;
		memcpy(w->found, w->work, w->t->cfg_size);
	} else if (ret == EXIT_INCOMPLETE) {
		w->incomplete = true;
	} else if (ret) {
		w->error = true;
	}
}

static bool bqlm_cli_sweep_stop(const struct bqlm_cli_sweep *w)
{
	return w->out_of_time || w->incomplete || w->violation || w->error;
}

/* The configuration of the dimensions' values under every memory model. */
static void bqlm_cli_sweep_one(struct bqlm_cli_sweep *w)
{
	unsigned int k;

	for (k = 0; k < (w->mm ? w->nmm : 1) && !bqlm_cli_sweep_stop(w); k++)
		bqlm_cli_sweep_mm(w, k);
}

/* Every value of dimensions @d.. with @left steps above their lowest. */
static void bqlm_cli_sweep_level(struct bqlm_cli_sweep *w, unsigned int d,
				 unsigned int left)
{
	unsigned int x, top;

	if (d + 1 == w->ndim) {
		if (left > w->dim[d].hi - w->dim[d].lo)
			return;
		w->dim[d].v = w->dim[d].lo + left;
		bqlm_cli_sweep_one(w);
		return;
	}
	top = w->dim[d].hi - w->dim[d].lo;
	for (x = 0; x <= top && x <= left && !bqlm_cli_sweep_stop(w); x++) {
		w->dim[d].v = w->dim[d].lo + x;
		bqlm_cli_sweep_level(w, d + 1, left - x);
	}
}

/* "name lo..hi, ..." of the swept dimensions (hi: the level's reach). */
static void bqlm_cli_sweep_dims(const struct bqlm_cli_sweep *w,
				unsigned int level, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int d, hi;

	buf[0] = '\0';
	for (d = 0; d < w->ndim && n < len; d++) {
		hi = w->dim[d].lo + level < w->dim[d].hi ?
		     w->dim[d].lo + level : w->dim[d].hi;
		n += snprintf(buf + n, len - n, "%s%s %u..%u", d ? ", " : "",
			      w->dim[d].o->name, w->dim[d].lo, hi);
	}
}

/**
 * bqlm_cli_sweep() - "--sweep [TIME]": explore every bound, smallest first
 * @t: the model's options (with its system callback)
 * @cfg: the configuration the command line made
 * @c: the explorer's options: the time budget, the options given
 * @profile: the profile's name, for the heading
 *
 * The dimensions are the options of @t marked BQLM_OPT_BOUND or
 * BQLM_OPT_SWEPT that the command line did not give: a size (an option
 * whose range starts at 1 or more) or a BQLM_OPT_SWEPT one from its
 * smallest value to its largest, a count of optional events (a range from
 * 0: paths, drops, frames) from 0 to the value @cfg has; and a
 * "memory-model" the command line did not give, every value at each
 * bound. The
 * sweep explores level by level, level L being every combination whose
 * values are L steps in all above the lowest, each configuration in full
 * (the model's check refuses some, its sweep_redundant() skips those whose
 * search is that of a smaller one). It prints a row a level, and stops at
 * the first violation, printing that configuration's full report (the
 * smallest counterexample: no configuration of a lower level has one), at
 * the time budget, or when a search is cut by the state or memory bound.
 *
 * Return: the exit status: 1 a violation (the report printed), 0 none
 * ("OK up to" the last level done), 3 when a search was cut, 4 an
 * internal error.
 */
int bqlm_cli_sweep(const struct bqlm_opts *t, const void *cfg,
		   const struct bqlm_cli_common *c, const char *profile)
{
	return bqlm_cli_sweep_reach(t, cfg, c, profile, NULL);
}

/**
 * bqlm_cli_sweep_reach() - bqlm_cli_sweep(), recording the stated paths
 * @t: as bqlm_cli_sweep()
 * @cfg: as bqlm_cli_sweep()
 * @c: as bqlm_cli_sweep()
 * @profile: as bqlm_cli_sweep()
 * @reach: NULL, or how the model records what each search took: the
 *	searches' reach is ORed together, and a sweep with no violation
 *	lists the paths @cfg states that no search took (exit
 *	EXIT_UNREACHED)
 *
 * Return: as bqlm_cli_sweep(), or EXIT_UNREACHED.
 */
int bqlm_cli_sweep_reach(const struct bqlm_opts *t, const void *cfg,
			 const struct bqlm_cli_common *c, const char *profile,
			 const struct bqlm_cli_reach *reach)
{
	struct bqlm_cli_sweep *w = calloc(1, sizeof(*w));
	unsigned long long total = 0, tstates = 0;
	unsigned int i, level, maxlevel = 0, done = 0;
	char line[BQLM_OPT_TEXT_MAX], fixed[BQLM_OPT_TEXT_MAX];
	size_t nf = 0;
	int ret = 0;

	if (!w)
		return EXIT_INTERNAL;
	w->t = t;
	w->c = c;
	w->base = cfg;
	w->work = malloc(t->cfg_size);
	w->found = malloc(t->cfg_size);
	if (!w->work || !w->found) {
		ret = EXIT_INTERNAL;
		goto out;
	}
	if (reach) {
		struct bqlm_xsys sys;

		w->reach = reach;
		w->acc = calloc(1, reach->size);
		w->ctx = calloc(1, reach->size);
		/* the base configuration's stated paths, nothing reached */
		if (!w->acc || !w->ctx || reach->system(cfg, w->acc, &sys)) {
			ret = EXIT_INTERNAL;
			goto out;
		}
	}
	fixed[0] = '\0';
	for (i = 0; i < t->n && w->ndim < ARRAY_SIZE(w->dim); i++) {
		const struct bqlm_opt *o = &t->opt[i];
		unsigned int v;

		if (!(o->flags & (BQLM_OPT_BOUND | BQLM_OPT_SWEPT)) ||
		    o->type != BQLM_OPT_UINT)
			continue;
		v = bqlm_cli_opt_value(o, cfg);
		if ((c->given & bqlm_opt_covers(t, o)) ||
		    (!o->min && !v && !(o->flags & BQLM_OPT_SWEPT))) {
			nf += snprintf(fixed + (nf < sizeof(fixed) ? nf :
						sizeof(fixed)),
				       nf < sizeof(fixed) ?
				       sizeof(fixed) - nf : 0,
				       "%s%s %u", nf ? ", " : "", o->name, v);
			continue;
		}
		w->dim[w->ndim].o = o;
		w->dim[w->ndim].lo = o->min;
		w->dim[w->ndim].hi = o->min || (o->flags & BQLM_OPT_SWEPT) ?
				     o->max : v;
		w->ndim++;
	}
	for (i = 0; i < w->ndim; i++)
		maxlevel += w->dim[i].hi - w->dim[i].lo;
	/*
	 * A memory model the command line does not give is swept too, every
	 * one at each bound: a stop or a wake on another CPU may need a
	 * weaker one than the default to go wrong.
	 */
	w->mm = bqlm_opt_find(t, "memory-model");
	if (w->mm && (w->mm->type != BQLM_OPT_CHOICE || !w->mm->names ||
		      (c->given & bqlm_opt_covers(t, w->mm))))
		w->mm = NULL;
	for (w->nmm = 0; w->mm && w->mm->names[w->nmm]; w->nmm++)
		;
	w->budget = c->sweep;
	bqlm_cli_sweep_dims(w, maxlevel, line, sizeof(line));
	printf("sweep: %s, profile %s, every bound from the smallest up, for %u s\n",
	       t->model, profile, c->sweep);
	printf("swept: %s\n", w->ndim ? line : "nothing (every bound given)");
	if (w->mm) {
		printf("memory models: each bound under every one,");
		for (i = 0; i < w->nmm; i++)
			printf(" %s", w->mm->names[i]);
		printf(" (--memory-model fixes one)\n");
	}
	printf("fixed: %s\n", nf ? fixed : "nothing");
	printf("level L: every combination whose values are L steps in all above the lowest\n");
	printf("  %5s %9s %8s %13s %11s %9s  %s\n", "level", "configs",
	       "skipped", "states", "largest", "time s", "result");
	w->t0 = bqlm_cli_now();
	for (level = 0; level <= maxlevel; level++) {
		w->configs = 0;
		w->skipped = 0;
		w->states = 0;
		w->largest = 0;
		w->secs = 0;
		if (w->ndim)
			bqlm_cli_sweep_level(w, 0, level);
		else
			bqlm_cli_sweep_one(w);
		printf("  %5u %9llu %8llu %13llu %11llu %9.3f  %s\n", level,
		       w->configs, w->skipped, w->states, w->largest, w->secs,
		       w->violation ? "VIOLATION" :
		       w->incomplete ? "INCOMPLETE (a search was cut)" :
		       w->error ? "error" :
		       w->out_of_time ? "time budget reached in this level" :
		       "ok");
		total += w->configs;
		tstates += w->states;
		if (bqlm_cli_sweep_stop(w))
			break;
		done = level + 1;
		if (!w->ndim)
			break;
	}
	fflush(stdout);
	if (w->error) {
		ret = EXIT_INTERNAL;
	} else if (w->violation) {
		char *opts = bqlm_cli_model_options(t, w->found, 0);
		struct bqlm_xsys sys;

		printf("VIOLATION at level %u: the smallest counterexample of the sweep (no configuration of a lower level has one):\n",
		       level);
		bqlm_cli_model_bound(t, w->found, line, sizeof(line));
		printf("bound: %s\n", line);
		printf("options: %s\n\n", opts ? opts : "?");
		free(opts);
		if (t->system(w->found, &sys)) {
			ret = EXIT_INTERNAL;
		} else {
			struct bqlm_cli_explore e = {
				.sys = &sys, .bounds = &c->bounds,
				.no_trace = c->no_trace,
				.all_traces = c->all_traces,
			};

			ret = bqlm_cli_run_explore(&e);
		}
	} else if (!done) {
		printf("NOTHING COVERED: %s before level 0 was done\n",
		       w->incomplete ? "a search was cut by a bound" :
		       "the time budget ran out");
		ret = w->incomplete ? EXIT_INCOMPLETE : 0;
	} else {
		bqlm_cli_sweep_dims(w, done - 1, line, sizeof(line));
		printf("OK up to level %u: every combination of %s at most %u steps above the lowest (%llu configurations, %llu states), no violation%s%s\n",
		       done - 1, w->ndim ? line : "the given bound", done - 1,
		       total, tstates,
		       done - 1 == maxlevel ? "; every bound of the sweep" :
		       w->incomplete ? "; the next level has a search a bound cut" :
		       "; the next level not finished in the time budget",
		       "");
		ret = w->incomplete ? EXIT_INCOMPLETE : 0;
		if (!ret && w->reach)
			ret = w->reach->report(w->acc);
	}
out:
	free(w->acc);
	free(w->ctx);
	free(w->work);
	free(w->found);
	free(w);
	return ret;
}
