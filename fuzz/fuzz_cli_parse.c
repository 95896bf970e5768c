// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - fuzz target: a model's explore command line as the CLI reads
 * it through the model's option table (bqlm_cli_model_parse(),
 * tools/cli_opts.c), for every model's table (fuzz.h), tables no command
 * uses yet included.
 *
 * Input: the model's name on a line (fuzz_pick()), then the command line
 * after it, one word a line.
 *
 * Oracles: an accepted command line gives a configuration that passes the
 * table's check, and whose description applies again and describes the
 * same.
 */
#include "../tools/cli.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char d1[BQLM_OPT_TEXT_MAX], d2[BQLM_OPT_TEXT_MAX];
	const struct bqlm_opts *t;
	char *argv[FUZZ_MAX_ARGS + 1], err[256];
	struct bqlm_cli_common c;
	const char *profile;
	void *cfg, *again;
	static bool said;
	int argc, r;

	if (!said) {
		said = true;
		fuzz_say_tables("cli_parse");
	}
	t = fuzz_pick(&data, &size);
	if (!t)
		return 0;
	argc = fuzz_args(data, size, NULL, argv);
	cfg = calloc(1, t->cfg_size);
	again = calloc(1, t->cfg_size);
	r = bqlm_cli_model_parse("bqlm", t, cfg, argc, argv, &c, NULL, NULL,
				 &profile);
	if (!r) {
		FUZZ_ASSERT(!bqlm_opt_check(t, cfg, err, sizeof(err)),
			    "%s: an accepted command line, an invalid configuration: %s",
			    t->model, err);
		bqlm_opt_describe(t, cfg, 0, d1, sizeof(d1));
		if (t->defaults)
			t->defaults(again);
		FUZZ_ASSERT(!bqlm_opt_apply(t, again, d1, err, sizeof(err)),
			    "%s: the description does not apply: %s", t->model, err);
		bqlm_opt_describe(t, again, 0, d2, sizeof(d2));
		FUZZ_ASSERT(!strcmp(d1, d2), "%s: described twice:\n  %s\n  %s",
			    t->model, d1, d2);
	} else {
		FUZZ_ASSERT(r == EXIT_USAGE, "%s: exit %d", t->model, r);
	}
	free(cfg);
	free(again);
	fuzz_free_args(argc, argv);
	return 0;
}
