// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - fuzz target: the whole bqlm command line (tools/), every
 * command and model: what a user types.
 *
 * Input: the arguments after "bqlm", one a line. The program runs in
 * process, its main() renamed (tools/bqlm.c built with -Dmain=bqlm_main);
 * what would make an input slow or touch the machine is bounded at the
 * edges, by the linker (--wrap):
 *  - an exploration stops after 300 states (bqlm_cli_run_explore());
 *  - a simulation stops at 20 ms simulated (bqlm_sim_run_until());
 *  - a file opened for writing (--json, --schedule, --csv, --svg) is
 *    /dev/null, whether fopen() opens it or it is a temporary file of
 *    tools/cli_out.c (mkstemp(), then rename(), fchmod() not made), and
 *    "--json -" does not move standard output (dup2());
 *  - "bench" (a fixed workload of minutes, no input) is not run.
 * tools/cli.c is compiled into this file, so that its per-run state (the
 * JSON report's stream, the reduction and memory options) is reset
 * before each input, as a new process would have it.
 *
 * Oracles: the sanitizers; the exit status: 0..4 (bqlm(1)), never 4 (an
 * internal error); at most one usage error printed (bqlm_cli_usage(),
 * counted through the linker too), and exit 2 after one.
 */
#include "../tools/cli.c"
#include "fuzz.h"

#include <fcntl.h>

#include <bqlm/sim.h>

int __wrap_bqlm_cli_run_explore(const struct bqlm_cli_explore *e)
{
	struct bqlm_cli_explore ee = *e;
	struct bqlm_xbounds b = { 0 };

	if (e->bounds)
		b = *e->bounds;
	if (!b.max_states || b.max_states > 300)
		b.max_states = 300;
	ee.bounds = &b;
	return __real_bqlm_cli_run_explore(&ee);
}

/*
 * The clock the other files read (the sweep's time budget, the run times
 * printed) runs a second faster at each reading: a sweep's budget of
 * --sweep TIME seconds ends after about TIME searches, not TIME seconds
 * (make fuzz: 'explore tun ... --sweep 30' ran 30 s an input).
 */
double __wrap_bqlm_cli_now(void)
{
	static double skew;

	skew += 1.0;
	return __real_bqlm_cli_now() + skew;
}

int __wrap_bqlm_sim_run_until(struct bqlm_sim *sim, u64 t)
{
	return __real_bqlm_sim_run_until(sim, t < 20000000 ? t : 20000000);
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	if (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'))
		path = "/dev/null";
	return __real_fopen(path, mode);
}

/* only the CLI's temporary files (PATH.bqlm-XXXXXX), not libFuzzer's */
int __wrap_mkstemp(char *tmpl)
{
	char *x = strstr(tmpl, ".bqlm-");

	if (!x)
		return __real_mkstemp(tmpl);
	memcpy(x + 6, "fuzz00", 6);
	return open("/dev/null", O_RDWR);
}

int __wrap_rename(const char *from, const char *to)
{
	return strstr(from, ".bqlm-") ? 0 : __real_rename(from, to);
}

int __wrap_fchmod(int fd, mode_t mode)
{
	(void)fd;
	(void)mode;
	return 0;
}

static unsigned int fuzz_cli_usages;

int __wrap_bqlm_cli_usage(const char *who, const char *fmt, const char *arg)
{
	fuzz_cli_usages++;
	return bqlm_cli_usage(who, fmt, arg);
}

int __wrap_dup2(int oldfd, int newfd)
{
	(void)oldfd;
	return newfd;
}

/* What a new process starts with. */
static void fuzz_cli_reset(void)
{
	if (bqlm_cli_json_out)
		fclose(bqlm_cli_json_out);
	bqlm_cli_json_out = NULL;
	bqlm_cli_json_to_stdout = false;
	bqlm_cli_json_argc = 0;
	bqlm_cli_json_argv = NULL;
	bqlm_cli_no_reduction = false;
	bqlm_cli_compare_full = false;
	bqlm_cli_max_memory = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_MAX_ARGS + 2], *copy[FUZZ_MAX_ARGS + 2];
	int argc, r;

	argc = fuzz_args(data, size, "bqlm", argv);
	/* main() may permute argv (--json is taken out): free the words */
	memcpy(copy, argv, sizeof(copy));
	if (argc > 1 && !strcmp(argv[1], "bench")) {
		fuzz_free_args(argc, copy);
		return 0;
	}
	fuzz_cli_reset();
	fuzz_cli_usages = 0;
	r = bqlm_main(argc, argv);
	fflush(stdout);
	FUZZ_ASSERT(r >= 0 && r <= EXIT_UNREACHED, "exit status %d", r);
	FUZZ_ASSERT(r != EXIT_INTERNAL, "an internal error (exit 4)");
	FUZZ_ASSERT(fuzz_cli_usages <= 1, "%u usage errors for one command line",
		    fuzz_cli_usages);
	FUZZ_ASSERT(!fuzz_cli_usages || r == EXIT_USAGE,
		    "a usage error, then exit %d", r);
	fuzz_cli_reset();
	fuzz_free_args(argc, copy);
	return 0;
}
