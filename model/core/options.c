// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - one table of options per model (<bqlm/options.h>).
 *
 * Mirrors no kernel file: it is the model's configuration language, shared
 * by the command line, the configuration checks, the help, schedule files
 * and profiles. It runs in the kernel too (the KUnit suites read schedules
 * and profiles), so it keeps to what <linux/string.h> and <linux/sprintf.h>
 * offer and to small stack buffers.
 */
#include "bqlm_internal.h"
#include <bqlm/options.h>

/* Longest option name (without "--"), and one token of a text form. */
#define BQLM_OPT_NAME_MAX	48

/**
 * bqlm_opt_uint() - a whole number in [@min, @max], the whole string
 * @s: decimal, or hexadecimal after "0x" (may be NULL: missing)
 * @min: smallest accepted value
 * @max: largest accepted value
 * @out: the value (untouched on failure)
 *
 * No sign, no blanks, no empty string, no overflow.
 *
 * Return: true if @s is such a number.
 */
bool bqlm_opt_uint(const char *s, unsigned int min, unsigned int max,
		   unsigned int *out)
{
	unsigned int base = 10, v = 0, d;

	if (!s)
		return false;
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
		if (v > (UINT_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

/**
 * bqlm_opt_name_index() - a word's index in a name table
 * @names: the words, NULL-terminated
 * @word: the word (may be NULL)
 *
 * Return: the index, or -EINVAL if @word is not one of @names.
 */
int bqlm_opt_name_index(const char *const *names, const char *word)
{
	int i;

	for (i = 0; word && names[i]; i++)
		if (!strcmp(names[i], word))
			return i;
	return -EINVAL;
}

static unsigned int bqlm_opt_nr_names(const char *const *names)
{
	unsigned int n = 0;

	while (names && names[n])
		n++;
	return n;
}

static unsigned int bqlm_opt_load(const void *cfg, unsigned int off,
				  unsigned int size)
{
	const unsigned char *p = (const unsigned char *)cfg + off;
	unsigned short h;
	unsigned int w;

	switch (size) {
	case 1:
		return *p;
	case 2:
		memcpy(&h, p, sizeof(h));
		return h;
	default:
		memcpy(&w, p, sizeof(w));
		return w;
	}
}

static void bqlm_opt_store(void *cfg, unsigned int off, unsigned int size,
			   unsigned int v)
{
	unsigned char *p = (unsigned char *)cfg + off;
	unsigned short h = v;
	unsigned int w = v;

	switch (size) {
	case 1:
		*p = v;
		break;
	case 2:
		memcpy(p, &h, sizeof(h));
		break;
	default:
		memcpy(p, &w, sizeof(w));
		break;
	}
}

/* "a, b, c" of @names into @buf; return as snprintf() */
static int bqlm_opt_list_names(const char *const *names, const char *sep,
			       char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; names && names[i]; i++)
		n += snprintf(buf + min(n, len), len - min(n, len), "%s%s",
			      i ? sep : "", names[i]);
	return n;
}

/* The error of a value @arg that is not what option @o takes. */
static int bqlm_opt_bad(const struct bqlm_opt *o, const char *arg,
			char *err, size_t len)
{
	char words[BQLM_OPT_VALUE_MAX];

	switch (o->type) {
	case BQLM_OPT_UINT:
		if (!arg)
			snprintf(err, len, "--%s needs a number in %u..%u",
				 o->name, o->min, o->max);
		else
			snprintf(err, len, "--%s: '%.32s' is not a number in %u..%u",
				 o->name, arg, o->min, o->max);
		break;
	case BQLM_OPT_UINTS:
		snprintf(err, len,
			 "--%s: '%.32s' is not a list of 1..%u numbers in %u..%u",
			 o->name, arg ? arg : "", o->max_count, o->min, o->max);
		break;
	case BQLM_OPT_BOOL:
		snprintf(err, len, "--%s: '%.32s' is not on or off", o->name,
			 arg ? arg : "");
		break;
	case BQLM_OPT_CHOICE:
		bqlm_opt_list_names(o->names, ", ", words, sizeof(words));
		if (!arg)
			snprintf(err, len, "--%s needs one of %s", o->name, words);
		else
			snprintf(err, len, "--%s: '%.32s' is not one of %s",
				 o->name, arg, words);
		break;
	case BQLM_OPT_SET:
		bqlm_opt_list_names(o->names, ", ", words, sizeof(words));
		snprintf(err, len,
			 "--%s: '%.32s' is not a comma-separated list of %s, or none",
			 o->name, arg ? arg : "", words);
		break;
	default:
		snprintf(err, len, "--%s: bad value '%.32s'", o->name,
			 arg ? arg : "");
		break;
	}
	return -EINVAL;
}

/*
 * The next comma-separated item of *@s into @item (at most @len - 1
 * characters); *@s moves past it. Return false at the end, or for an
 * empty or too long item (*@bad set).
 */
static bool bqlm_opt_item(const char **s, char *item, size_t len, bool *bad)
{
	const char *c = strchr(*s, ',');
	size_t n = c ? (size_t)(c - *s) : strlen(*s);

	if (!**s && !*bad)
		return false;
	if (!n || n >= len) {
		*bad = true;
		return false;
	}
	memcpy(item, *s, n);
	item[n] = '\0';
	*s += n;
	if (**s == ',') {
		(*s)++;
		if (!**s) {
			*bad = true;	/* a trailing comma: an empty item */
			return false;
		}
	}
	return true;
}

static int bqlm_opt_parse_set(const struct bqlm_opt *o, void *cfg,
			      const char *arg, char *err, size_t len)
{
	unsigned int nr = bqlm_opt_nr_names(o->names), mask = 0, all;
	char item[BQLM_OPT_NAME_MAX];
	const char *s = arg;
	bool bad = false;
	int i;

	all = nr >= 32 ? ~0U : (1U << nr) - 1;
	if (!strcmp(arg, "none")) {
		bqlm_opt_store(cfg, o->off, o->size, 0);
		return 0;
	}
	if (arg[0] >= '0' && arg[0] <= '9') {
		if (!bqlm_opt_uint(arg, 0, all, &mask))
			return bqlm_opt_bad(o, arg, err, len);
		bqlm_opt_store(cfg, o->off, o->size, mask);
		return 0;
	}
	while (bqlm_opt_item(&s, item, sizeof(item), &bad)) {
		i = bqlm_opt_name_index(o->names, item);
		if (i < 0)
			return bqlm_opt_bad(o, arg, err, len);
		if (mask & (1U << i)) {
			snprintf(err, len, "--%s: '%s' given twice", o->name,
				 item);
			return -EINVAL;
		}
		mask |= 1U << i;
	}
	if (bad)
		return bqlm_opt_bad(o, arg, err, len);
	bqlm_opt_store(cfg, o->off, o->size, mask);
	return 0;
}

static int bqlm_opt_parse_uints(const struct bqlm_opt *o, void *cfg,
				const char *arg, char *err, size_t len)
{
	char item[BQLM_OPT_NAME_MAX];
	unsigned int n = 0, v;
	const char *s = arg;
	bool bad = false;

	while (bqlm_opt_item(&s, item, sizeof(item), &bad)) {
		if (n == o->max_count || !bqlm_opt_uint(item, o->min, o->max, &v))
			return bqlm_opt_bad(o, arg, err, len);
		n++;
	}
	if (bad || !n)
		return bqlm_opt_bad(o, arg, err, len);
	/* valid: store (a bad list leaves the field as it was) */
	s = arg;
	n = 0;
	while (bqlm_opt_item(&s, item, sizeof(item), &bad)) {
		bqlm_opt_uint(item, o->min, o->max, &v);
		bqlm_opt_store(cfg, o->off + n * sizeof(unsigned int),
			       sizeof(unsigned int), v);
		n++;
	}
	bqlm_opt_store(cfg, o->count_off, sizeof(unsigned int), n);
	return 0;
}

/**
 * bqlm_opt_find() - an option by name
 * @t: the model's options
 * @name: the name, without "--"
 *
 * Return: the option, or NULL.
 */
const struct bqlm_opt *bqlm_opt_find(const struct bqlm_opts *t,
				     const char *name)
{
	unsigned int i;

	for (i = 0; name && i < t->n; i++)
		if (!strcmp(t->opt[i].name, name))
			return &t->opt[i];
	return NULL;
}

/**
 * bqlm_opt_parse() - store one option's value
 * @t: the model's options
 * @o: the option, one of @t's
 * @cfg: the configuration
 * @arg: the value, as the command line gives it (NULL: missing; a
 *	no-argument option takes NULL as "on")
 * @err: where a message goes on failure
 * @len: its size
 *
 * A value that is not valid leaves @cfg as it was. Only the option's own
 * range is checked here; bqlm_opt_check() checks the whole configuration.
 *
 * Return: 0, or -EINVAL with the reason in @err.
 */
int bqlm_opt_parse(const struct bqlm_opts *t, const struct bqlm_opt *o,
		   void *cfg, const char *arg, char *err, size_t len)
{
	unsigned int v;
	int i;

	(void)t;
	if (!arg && (o->flags & BQLM_OPT_NOARG))
		arg = "on";
	if (o->parse)
		return o->parse(o, cfg, arg, err, len);
	if (!arg)
		return bqlm_opt_bad(o, arg, err, len);
	switch (o->type) {
	case BQLM_OPT_UINT:
		if (!bqlm_opt_uint(arg, o->min, o->max, &v))
			return bqlm_opt_bad(o, arg, err, len);
		bqlm_opt_store(cfg, o->off, o->size, v);
		return 0;
	case BQLM_OPT_BOOL:
		if (!strcmp(arg, "on"))
			v = 1;
		else if (!strcmp(arg, "off"))
			v = 0;
		else
			return bqlm_opt_bad(o, arg, err, len);
		bqlm_opt_store(cfg, o->off, o->size, v);
		return 0;
	case BQLM_OPT_CHOICE:
		i = bqlm_opt_name_index(o->names, arg);
		if (i < 0)
			return bqlm_opt_bad(o, arg, err, len);
		bqlm_opt_store(cfg, o->off, o->size, i);
		return 0;
	case BQLM_OPT_SET:
		return bqlm_opt_parse_set(o, cfg, arg, err, len);
	case BQLM_OPT_UINTS:
		return bqlm_opt_parse_uints(o, cfg, arg, err, len);
	default:
		return bqlm_opt_bad(o, arg, err, len);
	}
}

/**
 * bqlm_opt_set() - store an option's value, the option named
 * @t: the model's options
 * @cfg: the configuration
 * @name: the option's name, without "--"
 * @arg: its value (see bqlm_opt_parse())
 * @err: where a message goes on failure
 * @len: its size
 *
 * Return: 0, -ENOENT if @t has no such option, or -EINVAL with the reason
 * in @err.
 */
int bqlm_opt_set(const struct bqlm_opts *t, void *cfg, const char *name,
		 const char *arg, char *err, size_t len)
{
	const struct bqlm_opt *o = bqlm_opt_find(t, name);

	if (!o) {
		snprintf(err, len, "%s has no option --%.48s", t->model,
			 name ? name : "");
		return -ENOENT;
	}
	return bqlm_opt_parse(t, o, cfg, arg, err, len);
}

/**
 * bqlm_opt_format() - an option's value as bqlm_opt_parse() reads it
 * @o: the option
 * @cfg: the configuration
 * @buf: where
 * @len: its size
 *
 * Return: as snprintf(); -EINVAL for an alias, which has no value of its
 * own.
 */
int bqlm_opt_format(const struct bqlm_opt *o, const void *cfg, char *buf,
		    size_t len)
{
	unsigned int v, i, n, nr;
	size_t k = 0;

	if (o->flags & BQLM_OPT_ALIAS)
		return -EINVAL;
	if (o->format)
		return o->format(o, cfg, buf, len);
	v = bqlm_opt_load(cfg, o->off, o->size);
	switch (o->type) {
	case BQLM_OPT_BOOL:
		return snprintf(buf, len, "%s", v ? "on" : "off");
	case BQLM_OPT_CHOICE:
		if (v < bqlm_opt_nr_names(o->names))
			return snprintf(buf, len, "%s", o->names[v]);
		return snprintf(buf, len, "%u", v);
	case BQLM_OPT_SET:
		nr = bqlm_opt_nr_names(o->names);
		if (!v || (nr < 32 && v >> nr))
			return v ? snprintf(buf, len, "%#x", v) :
				   snprintf(buf, len, "none");
		if (len)
			buf[0] = '\0';
		for (i = 0; i < nr; i++)
			if (v & (1U << i))
				k += snprintf(buf + min(k, len), len - min(k, len),
					      "%s%s", k ? "," : "", o->names[i]);
		return k;
	case BQLM_OPT_UINTS:
		n = bqlm_opt_load(cfg, o->count_off, sizeof(unsigned int));
		if (len)
			buf[0] = '\0';
		for (i = 0; i < n && i < o->max_count; i++)
			k += snprintf(buf + min(k, len), len - min(k, len),
				      "%s%u", i ? "," : "",
				      bqlm_opt_load(cfg, o->off +
						    i * sizeof(unsigned int),
						    sizeof(unsigned int)));
		return k;
	default:
		return snprintf(buf, len, "%u", v);
	}
}

/* One field against its option's range; 0 or -EINVAL with @err. */
static int bqlm_opt_check_one(const struct bqlm_opt *o, const void *cfg,
			      char *err, size_t len)
{
	unsigned int v = bqlm_opt_load(cfg, o->off, o->size), n, i, nr;

	switch (o->type) {
	case BQLM_OPT_UINT:
		if (v >= o->min && v <= o->max)
			return 0;
		snprintf(err, len, "--%s %u is not in %u..%u", o->name, v,
			 o->min, o->max);
		return -EINVAL;
	case BQLM_OPT_BOOL:
		if (v <= 1)
			return 0;
		break;
	case BQLM_OPT_CHOICE:
		if (v < bqlm_opt_nr_names(o->names))
			return 0;
		break;
	case BQLM_OPT_SET:
		nr = bqlm_opt_nr_names(o->names);
		if (nr >= 32 || !(v >> nr))
			return 0;
		break;
	case BQLM_OPT_UINTS:
		n = bqlm_opt_load(cfg, o->count_off, sizeof(unsigned int));
		if (!n || n > o->max_count) {
			snprintf(err, len, "--%s has %u values, not 1..%u",
				 o->name, n, o->max_count);
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			v = bqlm_opt_load(cfg, o->off + i * sizeof(unsigned int),
					  sizeof(unsigned int));
			if (v < o->min || v > o->max) {
				snprintf(err, len, "--%s %u is not in %u..%u",
					 o->name, v, o->min, o->max);
				return -EINVAL;
			}
		}
		return 0;
	default:
		return o->check ? o->check(o, cfg, err, len) : 0;
	}
	snprintf(err, len, "--%s has the invalid value %u", o->name, v);
	return -EINVAL;
}

/**
 * bqlm_opt_check() - check a whole configuration
 * @t: the model's options
 * @cfg: the configuration
 * @err: where the reason goes on failure (may be NULL with @len 0)
 * @len: its size
 *
 * Each field against its option's range, then the model's own check of
 * what ranges cannot say.
 *
 * Return: 0, or -EINVAL with the first reason found in @err.
 */
int bqlm_opt_check(const struct bqlm_opts *t, const void *cfg, char *err,
		   size_t len)
{
	char dummy[8];
	unsigned int i;
	int ret;

	if (!err || !len) {
		err = dummy;
		len = sizeof(dummy);
	}
	for (i = 0; i < t->n; i++) {
		if (t->opt[i].flags & BQLM_OPT_ALIAS)
			continue;
		ret = bqlm_opt_check_one(&t->opt[i], cfg, err, len);
		if (ret)
			return ret;
	}
	return t->check ? t->check(cfg, err, len) : 0;
}

/* Copy the token at *@s (up to a blank) into @tok; move *@s past it. */
static bool bqlm_opt_token(const char **s, char *tok, size_t len, bool *bad)
{
	size_t n = 0;

	while (**s == ' ' || **s == '\t' || **s == '\n')
		(*s)++;
	if (!**s)
		return false;
	while ((*s)[n] && (*s)[n] != ' ' && (*s)[n] != '\t' &&
	       (*s)[n] != '\n')
		n++;
	if (n >= len) {
		*bad = true;
		return false;
	}
	memcpy(tok, *s, n);
	tok[n] = '\0';
	*s += n;
	return true;
}

/**
 * bqlm_opt_apply() - apply a configuration's text form
 * @t: the model's options
 * @cfg: the configuration: the options are applied on top of it, in order
 * @text: options separated by blanks, each "--name value", "--name=value",
 *	"name=value", or a no-argument option's name alone ("--name")
 * @err: where a message goes on failure
 * @len: its size
 *
 * Return: 0, or -EINVAL (or -ENOENT for an unknown option) with the reason
 * in @err; the options before the bad one have been applied.
 */
int bqlm_opt_apply(const struct bqlm_opts *t, void *cfg, const char *text,
		   char *err, size_t len)
{
	char tok[BQLM_OPT_VALUE_MAX], val[BQLM_OPT_VALUE_MAX];
	const struct bqlm_opt *o;
	const char *s = text, *arg;
	bool bad = false, dashes;
	char *eq;
	int ret;

	while (bqlm_opt_token(&s, tok, sizeof(tok), &bad)) {
		dashes = tok[0] == '-' && tok[1] == '-';
		eq = strchr(tok, '=');
		if (eq)
			*eq = '\0';
		o = bqlm_opt_find(t, dashes ? tok + 2 : tok);
		if (!o) {
			snprintf(err, len, "%s has no option '%.48s'", t->model,
				 tok);
			return -ENOENT;
		}
		arg = eq ? eq + 1 : NULL;
		if (!eq && dashes && !(o->flags & BQLM_OPT_NOARG)) {
			if (!bqlm_opt_token(&s, val, sizeof(val), &bad)) {
				snprintf(err, len, "--%s needs a value", o->name);
				return -EINVAL;
			}
			arg = val;
		} else if (!eq && !(o->flags & BQLM_OPT_NOARG)) {
			snprintf(err, len, "'%.48s' needs a value (name=value)",
				 tok);
			return -EINVAL;
		}
		ret = bqlm_opt_parse(t, o, cfg, arg, err, len);
		if (ret)
			return ret;
	}
	if (bad || *s) {
		snprintf(err, len, "%s: bad option text near '%.32s'", t->model,
			 s);
		return -EINVAL;
	}
	return 0;
}

/**
 * bqlm_opt_describe() - a configuration's text form
 * @t: the model's options
 * @cfg: the configuration
 * @mask: write only the options with one of these BQLM_OPT_* flags, or
 *	0 for every option but the aliases
 * @buf: where: "--name value" for each option, separated by blanks
 * @len: its size
 *
 * bqlm_opt_apply() of the text (with @mask 0) on any configuration of the
 * model gives @cfg's values of every option.
 *
 * Return: as snprintf().
 */
int bqlm_opt_describe(const struct bqlm_opts *t, const void *cfg,
		      unsigned int mask, char *buf, size_t len)
{
	char val[BQLM_OPT_VALUE_MAX], *at;
	const struct bqlm_opt *o;
	unsigned int i;
	size_t k = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < t->n; i++) {
		o = &t->opt[i];
		if ((o->flags & BQLM_OPT_ALIAS) || (mask && !(o->flags & mask)))
			continue;
		bqlm_opt_format(o, cfg, val, sizeof(val));
		/* NULL + 0 is undefined: @buf may be NULL to measure */
		at = len ? buf + min(k, len) : NULL;
		if (o->flags & BQLM_OPT_NOARG)
			k += snprintf(at, len - min(k, len), "%s--%s=%s",
				      k ? " " : "", o->name, val);
		else
			k += snprintf(at, len - min(k, len), "%s--%s %s",
				      k ? " " : "", o->name, val);
	}
	return k;
}

/**
 * bqlm_opt_help() - an option's line of help
 * @o: the option
 * @buf: where: "--name ARG" in a column, its help, its range or words
 * @len: its size
 *
 * Return: as snprintf().
 */
int bqlm_opt_help(const struct bqlm_opt *o, char *buf, size_t len)
{
	char head[BQLM_OPT_NAME_MAX + 24], words[BQLM_OPT_VALUE_MAX];
	const char *metavar = o->metavar ? o->metavar : "N";

	if (o->flags & BQLM_OPT_NOARG)
		snprintf(head, sizeof(head), "--%s", o->name);
	else if (o->type == BQLM_OPT_CHOICE || o->type == BQLM_OPT_BOOL)
		snprintf(head, sizeof(head), "--%s %s", o->name,
			 o->metavar ? o->metavar : "WORD");
	else if (o->type == BQLM_OPT_SET)
		snprintf(head, sizeof(head), "--%s %s", o->name,
			 o->metavar ? o->metavar : "LIST");
	else
		snprintf(head, sizeof(head), "--%s %s", o->name, metavar);
	switch (o->type) {
	case BQLM_OPT_UINT:
		return snprintf(buf, len, "  %-22s %s, %u..%u", head, o->help,
				o->min, o->max);
	case BQLM_OPT_UINTS:
		return snprintf(buf, len, "  %-22s %s, up to %u of %u..%u",
				head, o->help, o->max_count, o->min, o->max);
	case BQLM_OPT_BOOL:
		return snprintf(buf, len, "  %-22s %s%s", head, o->help,
				o->flags & BQLM_OPT_NOARG ? "" : ": on|off");
	case BQLM_OPT_CHOICE:
		bqlm_opt_list_names(o->names, "|", words, sizeof(words));
		return snprintf(buf, len, "  %-22s %s: %s", head, o->help, words);
	case BQLM_OPT_SET:
		bqlm_opt_list_names(o->names, ",", words, sizeof(words));
		return snprintf(buf, len, "  %-22s %s: any of %s, or none", head,
				o->help, words);
	default:
		return snprintf(buf, len, "  %-22s %s", head, o->help);
	}
}

/**
 * bqlm_opt_says() - what a choice option's value stands for
 * @o: a BQLM_OPT_CHOICE option
 * @cfg: the configuration
 *
 * Return: the entry of @o's says[] for the value in @cfg; its word where
 * the option has no says[]; "?" for a value that is no word (a
 * configuration bqlm_opt_check() would refuse).
 */
const char *bqlm_opt_says(const struct bqlm_opt *o, const void *cfg)
{
	unsigned int v;

	if (o->type != BQLM_OPT_CHOICE || (o->flags & BQLM_OPT_ALIAS) ||
	    o->format)
		return "?";
	v = bqlm_opt_load(cfg, o->off, o->size);
	if (v >= bqlm_opt_nr_names(o->names))
		return "?";
	return o->says ? o->says[v] : o->names[v];
}

/**
 * bqlm_opt_covers() - the options one option sets, as a mask of indices
 * @t: the model's options (at most 64)
 * @o: one of them
 *
 * An option covers itself; an alias also the options named in its
 * struct bqlm_opt.also. Two options given on one command line that cover
 * the same option are given twice.
 *
 * Return: the mask (bit i: @t->opt[i]).
 */
u64 bqlm_opt_covers(const struct bqlm_opts *t, const struct bqlm_opt *o)
{
	char name[BQLM_OPT_NAME_MAX];
	const struct bqlm_opt *a;
	const char *s = o->also;
	bool bad = false;
	u64 mask;

	mask = 1ULL << (o - t->opt);
	while (s && bqlm_opt_token(&s, name, sizeof(name), &bad)) {
		a = bqlm_opt_find(t, name);
		if (a)
			mask |= 1ULL << (a - t->opt);
	}
	return mask;
}

/**
 * bqlm_opt_profile_by_name() - a profile's index
 * @t: the model's options
 * @name: the profile's name (may be NULL)
 *
 * Return: the index in @t->profiles, or -ENOENT.
 */
int bqlm_opt_profile_by_name(const struct bqlm_opts *t, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < t->nr_profiles; i++)
		if (!strcmp(t->profiles[i].name, name))
			return i;
	return -ENOENT;
}

/**
 * bqlm_opt_profile() - the configuration of a profile
 * @t: the model's options
 * @cfg: receives it: the model's defaults, then the profile's options
 * @id: the profile's index in @t->profiles
 * @err: where a message goes on failure
 * @len: its size
 *
 * Return: 0, or -EINVAL (an unknown @id, or a profile whose options do not
 * apply, which is a bug of the model's table) with the reason in @err.
 */
int bqlm_opt_profile(const struct bqlm_opts *t, void *cfg, unsigned int id,
		     char *err, size_t len)
{
	if (id >= t->nr_profiles) {
		snprintf(err, len, "%s has no profile %u", t->model, id);
		return -EINVAL;
	}
	if (t->defaults)
		t->defaults(cfg);
	if (t->profile_set)
		t->profile_set(cfg, id);
	return bqlm_opt_apply(t, cfg, t->profiles[id].opts, err, len) ? -EINVAL : 0;
}
