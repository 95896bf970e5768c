/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlm CLI - what the command front ends (bqlm.c, bqlm_tun.c, bqlm_sim.c)
 * share: exit codes, usage errors, number parsing, the wall clock, and the
 * run-and-report of one exploration.
 */
#ifndef _BQLM_CLI_H
#define _BQLM_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <bqlm/explore.h>
#include <bqlm/options.h>

#define EXIT_VIOLATION	1
#define EXIT_USAGE	2
#define EXIT_INCOMPLETE	3
#define EXIT_INTERNAL	4
/* no violation, but a stated code path was never taken (bqlm explore nic) */
#define EXIT_UNREACHED	5

/* Longest counterexample the CLI prints. */
#define BQLM_CLI_MAX_PATH	4096

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

int bqlm_cli_usage(const char *who, const char *fmt, const char *arg);
int bqlm_cli_parse_uint(const char *s, unsigned long lo, unsigned long hi,
			unsigned int *out);
int bqlm_cli_opt_uint(const char *who, const char *opt, const char *arg,
		      unsigned long lo, unsigned long hi, unsigned int *out);
int bqlm_cli_opt_choice(const char *who, const char *opt, const char *arg,
			const char *const *names, unsigned int *out);
const char *bqlm_cli_check_names(char *buf, size_t len, unsigned int mask);
double bqlm_cli_now(void);

/**
 * struct bqlm_cli_explore - one exploration to run and report
 * @sys: the system
 * @bounds: the bounds
 * @quiet: print nothing, only fill @res and @secs
 * @no_trace: print no trace
 * @all_traces: a trace for every violated check, not only the fatal ones
 * @figures: optional: print model-specific figures after the counts
 * @arg: for @figures
 * @res: optional: where to store the result
 * @secs: optional: where to store the exploration's wall time
 * @save: optional: receives the shortest trace to @save_check (or to the
 *	verdict), to write it as a schedule; returns 0 or a negative errno
 * @save_arg: for @save
 * @save_check: the check whose trace @save receives, or BQLM_CHECK_NONE
 * @options: optional: the configuration's text form (every option of the
 *	model, bqlm_opt_describe()), written to the JSON report
 * @opts: optional, with @cfg: the model's option table, for the JSON
 *	report's bound (every BQLM_OPT_BOUND option) and memory model
 * @cfg: the configuration @opts describes
 * @ok_status: optional: after a full search with no violation, the exit
 *	status the model gives it (EXIT_UNREACHED: a stated path never
 *	taken), in the JSON report too; called with @ok_arg
 * @ok_arg: its argument
 */
struct bqlm_cli_explore {
	const struct bqlm_xsys *sys;
	const struct bqlm_xbounds *bounds;
	bool quiet;
	bool no_trace;
	bool all_traces;
	void (*figures)(const void *arg);
	const void *arg;
	struct bqlm_xresult *res;
	double *secs;
	int (*save)(const void *arg, enum bqlm_check c,
		    const unsigned int *path, unsigned int n);
	const void *save_arg;
	enum bqlm_check save_check;
	const char *options;
	const struct bqlm_opts *opts;
	const void *cfg;
	int (*ok_status)(const void *arg);
	const void *ok_arg;
};

int bqlm_cli_run_explore(const struct bqlm_cli_explore *e);
int bqlm_cli_json_setup(int *argc, char **argv);
int bqlm_cli_reduce_setup(int *argc, char **argv);
int bqlm_cli_parse_bytes(const char *s, unsigned long long *out);
unsigned long long bqlm_cli_default_memory(void);
bool bqlm_cli_json_stdout(void);
bool bqlm_cli_json_enabled(void);

/* Output files, written whole or not at all (cli_out.c) */
int bqlm_cli_out_check(const char *who, const char *opt, const char *path);
FILE *bqlm_cli_out_open(const char *who, const char *path);
int bqlm_cli_out_close(const char *who, const char *path, FILE *f, bool keep);

/**
 * struct bqlm_cli_common - the explorer's options every model takes
 * @bounds: --depth, --max-states, --strict
 * @all_traces: --all-traces
 * @no_trace: --no-trace
 * @sweep: --sweep [TIME]: the sweep's time budget in seconds, 0 for none
 * @given: the model's options given on the command line, as a mask of
 *	their indices in its table (implied ones included)
 */
struct bqlm_cli_common {
	struct bqlm_xbounds bounds;
	bool all_traces;
	bool no_trace;
	unsigned int sweep;
	u64 given;
};

/* bqlm_cli_model_parse()'s @extra took its option, not the word after it */
#define BQLM_CLI_EXTRA_ALONE	(-1)
/* The time budget of "--sweep" without its TIME. */
#define BQLM_CLI_SWEEP_DEFAULT	60

int bqlm_cli_model_parse(const char *who, const struct bqlm_opts *t,
			 void *cfg, int argc, char **argv,
			 struct bqlm_cli_common *c,
			 int (*extra)(void *arg, const char *opt,
				      const char *val),
			 void *arg, const char **profile);
void bqlm_cli_model_help(FILE *f, const struct bqlm_opts *t,
			 const char *usage);
void bqlm_cli_model_list(const struct bqlm_opts *t, const char *title);
char *bqlm_cli_model_options(const struct bqlm_opts *t, const void *cfg,
			     unsigned int mask);
int bqlm_cli_model_bound(const struct bqlm_opts *t, const void *cfg,
			 char *buf, size_t len);
void bqlm_cli_json_bound(FILE *f, const struct bqlm_opts *t, const void *cfg);
int bqlm_cli_sweep(const struct bqlm_opts *t, const void *cfg,
		   const struct bqlm_cli_common *c, const char *profile);

/**
 * struct bqlm_cli_reach - what a sweep records of the paths a model's
 *	options state
 * @size: bytes of one context: a configuration and its reach record
 * @system: fills @ctx for configuration @cfg and the system that records
 *	what its search takes into it; 0 or an error
 * @merge: ORs what the search of @ctx took into @acc (the base
 *	configuration's context, whose stated paths the sweep reports on)
 * @report: after a sweep with no violation, prints the stated paths no
 *	search took; returns 0, or EXIT_UNREACHED when there are some
 */
struct bqlm_cli_reach {
	size_t size;
	int (*system)(const void *cfg, void *ctx, struct bqlm_xsys *sys);
	void (*merge)(void *acc, const void *ctx);
	int (*report)(const void *acc);
};

int bqlm_cli_sweep_reach(const struct bqlm_opts *t, const void *cfg,
			 const struct bqlm_cli_common *c, const char *profile,
			 const struct bqlm_cli_reach *reach);

#endif /* _BQLM_CLI_H */
