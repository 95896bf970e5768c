// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - fuzz target: a model's options in their text form
 * (bqlm_opt_apply(): the profiles' texts, a schedule's option lines, the
 * JSON report's "options") and one option by name (bqlm_opt_set()), for
 * every model's table (fuzz.h).
 *
 * Input: the model's name on a line (fuzz_pick()), then a byte that picks
 * the profile applied first (or the bare defaults), a byte for the mode (apply the rest as text, or "NAME\nVALUE"
 * through bqlm_opt_set()); the rest is the text.
 *
 * Oracles: a refusal says why; an accepted text's description
 * (bqlm_opt_describe()) applies again, on the same profile and on
 * another, and describes the same (the round trip <bqlm/options.h>
 * promises); the help of every option formats.
 */
#include <errno.h>

#include "fuzz.h"

static void fuzz_base(const struct bqlm_opts *t, void *cfg, unsigned int p)
{
	char err[256];

	memset(cfg, 0, t->cfg_size);
	if (p < t->nr_profiles) {
		FUZZ_ASSERT(!bqlm_opt_profile(t, cfg, p, err, sizeof(err)),
			    "%s profile %s does not apply: %s", t->model,
			    t->profiles[p].name, err);
	} else if (t->defaults) {
		t->defaults(cfg);
	}
}

/* @cfg's description applied on profile @p describes the same. */
static void fuzz_round_trip(const struct bqlm_opts *t, const void *cfg,
			    unsigned int p)
{
	static char d1[BQLM_OPT_TEXT_MAX], d2[BQLM_OPT_TEXT_MAX];
	char err[256];
	void *again = malloc(t->cfg_size);
	int n;

	n = bqlm_opt_describe(t, cfg, 0, d1, sizeof(d1));
	FUZZ_ASSERT(n >= 0 && (size_t)n < sizeof(d1), "%s: a %d-byte description",
		    t->model, n);
	fuzz_base(t, again, p);
	FUZZ_ASSERT(!bqlm_opt_apply(t, again, d1, err, sizeof(err)),
		    "%s: its own description does not apply: %s\n  %s", t->model,
		    err, d1);
	bqlm_opt_describe(t, again, 0, d2, sizeof(d2));
	FUZZ_ASSERT(!strcmp(d1, d2), "%s: described twice:\n  %s\n  %s",
		    t->model, d1, d2);
	free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct bqlm_opts *t;
	unsigned int p, i;
	char err[256], line[BQLM_OPT_TEXT_MAX];
	static bool said;
	char *text, *val;
	void *cfg;
	int r;

	if (!said) {
		said = true;
		fuzz_say_tables("options");
	}
	t = fuzz_pick(&data, &size);
	if (!t || size < 2)
		return 0;
	p = data[0] % (t->nr_profiles + 1);
	text = fuzz_text(data + 2, size - 2);
	cfg = malloc(t->cfg_size);
	fuzz_base(t, cfg, p);
	err[0] = '\0';
	if (data[1] & 1) {
		val = strchr(text, '\n');
		if (val)
			*val++ = '\0';
		r = bqlm_opt_set(t, cfg, text, val, err, sizeof(err));
	} else {
		r = bqlm_opt_apply(t, cfg, text, err, sizeof(err));
	}
	if (r) {
		FUZZ_ASSERT(r == -EINVAL || r == -ENOENT, "%s: returned %d",
			    t->model, r);
		FUZZ_ASSERT(err[0], "%s: refused without a reason", t->model);
	} else {
		fuzz_round_trip(t, cfg, p);
		fuzz_round_trip(t, cfg, (p + 1) % (t->nr_profiles + 1));
		bqlm_opt_check(t, cfg, err, sizeof(err));
	}
	for (i = 0; i < t->n; i++) {
		r = bqlm_opt_help(&t->opt[i], line, sizeof(line));
		FUZZ_ASSERT(r > 0 && (size_t)r < sizeof(line), "help of --%s",
			    t->opt[i].name);
	}
	free(cfg);
	free(text);
	return 0;
}
