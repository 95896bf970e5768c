/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one table of options per model.
 *
 * A model describes each field of its configuration once: the option's
 * name, the field it sets, its range or its words, and a line of help.
 * The same table parses the command line (bqlm explore MODEL --NAME
 * VALUE), checks a configuration (each model's *_cfg_check()), prints the
 * help (bqlm help MODEL), prints the bound a search ran with, reads and
 * writes the configuration lines of a schedule file, and spells the
 * profiles (named variants) of a model, so that a range or a word is
 * written in one place.
 *
 * The text form of a configuration is a list of options, each
 * "--name value" or "name=value" (a no-argument option alone), separated
 * by blanks: bqlm_opt_apply() reads it and bqlm_opt_describe() writes it,
 * and the two round-trip.
 */
#ifndef _BQLM_OPTIONS_H
#define _BQLM_OPTIONS_H

#include <bqlm/types.h>

struct bqlm_xsys;

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum bqlm_opt_type - what an option's value is
 * @BQLM_OPT_UINT: a whole number in [min, max] (decimal or 0x hex)
 * @BQLM_OPT_BOOL: on or off (a bool field)
 * @BQLM_OPT_CHOICE: one word of names[], stored as its index (an enum)
 * @BQLM_OPT_SET: words of names[] separated by commas, or "none", stored
 *	as a mask (bit i for names[i]); a number is taken as the mask
 * @BQLM_OPT_UINTS: numbers in [min, max] separated by commas, stored in
 *	an array of unsigned int of at most max_count, the count in the
 *	field at count_off
 * @BQLM_OPT_CUSTOM: the option's own parse() and format()
 */
enum bqlm_opt_type {
	BQLM_OPT_UINT,
	BQLM_OPT_BOOL,
	BQLM_OPT_CHOICE,
	BQLM_OPT_SET,
	BQLM_OPT_UINTS,
	BQLM_OPT_CUSTOM,
};

/* struct bqlm_opt.flags */
/* takes no argument on the command line: setting it means "on" */
#define BQLM_OPT_NOARG		0x1
/*
 * a shorthand for other options (struct bqlm_opt.also): not written by
 * bqlm_opt_describe(), and counted as setting those for the "given
 * twice" check
 */
#define BQLM_OPT_ALIAS		0x2
/* part of the bound (the size of the search), printed on the bound line */
#define BQLM_OPT_BOUND		0x4
/*
 * not part of the bound, but "--sweep" varies it too when the command line
 * does not give it, from its smallest value to its largest: a dimension
 * that enables a code path (descriptors per packet, a threshold)
 */
#define BQLM_OPT_SWEPT		0x8

/**
 * struct bqlm_opt - one option
 * @name: its name: "--@name" on the command line, "@name" in a schedule
 * @type: enum bqlm_opt_type
 * @flags: BQLM_OPT_*
 * @off: offset of the field in the configuration (offsetof())
 * @size: size of the field: 1, 2 or 4 bytes (a bool is 1)
 * @count_off: BQLM_OPT_UINTS: offset of the unsigned int count field
 * @max_count: BQLM_OPT_UINTS: most values
 * @min: BQLM_OPT_UINT(S): smallest value
 * @max: BQLM_OPT_UINT(S): largest value
 * @names: BQLM_OPT_CHOICE, BQLM_OPT_SET: the words, NULL-terminated
 * @says: BQLM_OPT_CHOICE, optional: what each word stands for, in the
 *	words of a report (the model's header, bqlm help), one entry per
 *	word of @names, in its order
 * @metavar: the argument's name in the help, e.g. "N"
 * @help: one line of help (the range or words are added to it)
 * @also: BQLM_OPT_ALIAS: the options it sets, names separated by blanks
 * @implies: optional: options (text form, "name=value ...") that giving
 *	this one on a command line also sets, each only if it was not given
 *	itself and its value is 0 (e.g. a reset path's list implies that the
 *	path runs once); the command line says so when it applies one
 * @requires: optional: "name=value": giving this option on a command line
 *	is refused unless that option has that value in the end (an option
 *	that means nothing otherwise, such as a header length without the
 *	fixup that adds it, is not silently ignored)
 * @parse: BQLM_OPT_CUSTOM, or an alias: store @arg into @cfg; return 0,
 *	or a negative errno with a message in @err
 * @format: BQLM_OPT_CUSTOM: write the field as @parse reads it; return as
 *	snprintf()
 * @check: BQLM_OPT_CUSTOM, optional: is the field valid? 0 or -EINVAL
 *	with the reason in @err
 */
struct bqlm_opt {
	const char *name;
	enum bqlm_opt_type type;
	unsigned int flags;
	unsigned short off;
	unsigned char size;
	unsigned short count_off;
	unsigned int max_count;
	unsigned int min;
	unsigned int max;
	const char *const *names;
	const char *const *says;
	const char *metavar;
	const char *help;
	const char *also;
	const char *implies;
	const char *requires;
	int (*parse)(const struct bqlm_opt *o, void *cfg, const char *arg,
		     char *err, size_t len);
	int (*format)(const struct bqlm_opt *o, const void *cfg, char *buf,
		      size_t len);
	int (*check)(const struct bqlm_opt *o, const void *cfg, char *err,
		     size_t len);
};

/* The field of @field in a configuration of type @type. */
#define BQLM_OPT_FIELD(type, field)				\
	.off = offsetof(type, field),				\
	.size = sizeof(((type *)0)->field)

/**
 * struct bqlm_profile - a named configuration of a model (a variant of a
 *	driver, or a driver's pattern at one side of an upstream fix)
 * @name: its name (--profile / --variant)
 * @desc: what it is, one line
 * @driver: the driver it stands for, or NULL
 * @commit: the upstream commit it is one side of, or NULL
 * @opts: the options it sets, on top of the model's defaults, in the
 *	text form of bqlm_opt_apply()
 */
struct bqlm_profile {
	const char *name;
	const char *desc;
	const char *driver;
	const char *commit;
	const char *opts;
};

/**
 * struct bqlm_opts - a model's options
 * @model: the model's name, for messages
 * @opt: the options, in the order help and descriptions print them
 * @n: how many (at most 64)
 * @cfg_size: size of the configuration struct
 * @check: optional: what the ranges of single fields cannot say (one
 *	field's range depending on another's, options that exclude each
 *	other); return 0, or -EINVAL with the reason in @err
 * @defaults: fill a configuration with the model's defaults, under every
 *	profile
 * @profiles: the model's named configurations (may be NULL)
 * @nr_profiles: how many
 * @profile_opt: the option that picks one on the command line
 *	("profile", "variant")
 * @default_profile: the profile used when none is given, or NULL if one
 *	must be given
 * @profile_set: optional: record in the configuration which profile it
 *	was made from (after @defaults, before the profile's options)
 * @system: optional: the model's explorer system for a configuration
 *	(what "--sweep" explores); 0 or a negative errno
 * @sweep_redundant: optional: is this configuration's search the same as
 *	that of one with smaller BQLM_OPT_BOUND values (a batch longer than
 *	the packets sent, ...)? The sweep skips it
 */
struct bqlm_opts {
	const char *model;
	const struct bqlm_opt *opt;
	unsigned int n;
	size_t cfg_size;
	int (*check)(const void *cfg, char *err, size_t len);
	void (*defaults)(void *cfg);
	const struct bqlm_profile *profiles;
	unsigned int nr_profiles;
	const char *profile_opt;
	const char *default_profile;
	void (*profile_set)(void *cfg, unsigned int id);
	int (*system)(const void *cfg, struct bqlm_xsys *sys);
	bool (*sweep_redundant)(const void *cfg);
};

/* Longest text form of a configuration, and of one option's value. */
#define BQLM_OPT_TEXT_MAX	4096
#define BQLM_OPT_VALUE_MAX	160

bool bqlm_opt_uint(const char *s, unsigned int min, unsigned int max,
		   unsigned int *out);
const struct bqlm_opt *bqlm_opt_find(const struct bqlm_opts *t,
				     const char *name);
int bqlm_opt_parse(const struct bqlm_opts *t, const struct bqlm_opt *o,
		   void *cfg, const char *arg, char *err, size_t len);
int bqlm_opt_set(const struct bqlm_opts *t, void *cfg, const char *name,
		 const char *arg, char *err, size_t len);
int bqlm_opt_format(const struct bqlm_opt *o, const void *cfg, char *buf,
		    size_t len);
int bqlm_opt_check(const struct bqlm_opts *t, const void *cfg, char *err,
		   size_t len);
int bqlm_opt_apply(const struct bqlm_opts *t, void *cfg, const char *text,
		   char *err, size_t len);
int bqlm_opt_describe(const struct bqlm_opts *t, const void *cfg,
		      unsigned int mask, char *buf, size_t len);
int bqlm_opt_help(const struct bqlm_opt *o, char *buf, size_t len);
const char *bqlm_opt_says(const struct bqlm_opt *o, const void *cfg);
int bqlm_opt_profile_by_name(const struct bqlm_opts *t, const char *name);
int bqlm_opt_profile(const struct bqlm_opts *t, void *cfg, unsigned int id,
		     char *err, size_t len);
u64 bqlm_opt_covers(const struct bqlm_opts *t, const struct bqlm_opt *o);
int bqlm_opt_name_index(const char *const *names, const char *word);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_OPTIONS_H */
