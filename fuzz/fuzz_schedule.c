// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - fuzz target: a usbnet schedule file
 * (model/usbnet/usbnet_schedule.c), as "make kunit-replay SCHEDULE=FILE" and
 * the bqlm_real_usbnet_schedule suite read it.
 *
 * Oracles, beyond the sanitizers: a refused schedule says why; an accepted
 * one has a valid configuration, and when every step is enabled where the
 * model takes it, bqlm_usbnet_schedule_write() writes it back as text that
 * parses to the same configuration (every option of the table), check and
 * steps.
 */
#include <errno.h>

#include <bqlm/explore.h>
#include <bqlm/usbnet.h>

#include "fuzz.h"

#define FUZZ_MAX_STEPS	256

struct fuzz_out {
	char *buf;
	size_t len, room;
};

static void fuzz_line(void *arg, const char *line)
{
	struct fuzz_out *o = arg;
	size_t n = strlen(line);

	if (o->len + n + 2 > o->room) {
		o->room = 2 * (o->len + n + 2);
		o->buf = realloc(o->buf, o->room);
	}
	memcpy(o->buf + o->len, line, n);
	o->len += n;
	o->buf[o->len++] = '\n';
	o->buf[o->len] = '\0';
}

/* Every option's value, as the table writes them. */
static void fuzz_describe(const struct bqlm_usbnet_cfg *cfg, char *buf,
			  size_t len)
{
	int n = bqlm_opt_describe(bqlm_usbnet_options(), cfg, 0, buf, len);

	FUZZ_ASSERT(n >= 0 && (size_t)n < len, "describe: %d bytes", n);
}

/* Are the steps enabled, one after the other, from the initial state? */
static bool fuzz_replayable(const struct bqlm_usbnet_cfg *cfg,
			    const unsigned int *actions, unsigned int n)
{
	unsigned int en[BQLM_X_MAX_ACTIONS], nr, i, k;
	struct bqlm_violation each[BQLM_CHECK_NR];
	struct bqlm_xsys sys;
	void *from, *to, *tmp;
	bool ok = true;

	FUZZ_ASSERT(!bqlm_usbnet_system(cfg, &sys), "no system for a valid configuration");
	from = calloc(1, sys.state_size);
	to = calloc(1, sys.state_size);
	bqlm_xinit(&sys, from);
	for (i = 0; i < n && ok; i++) {
		nr = bqlm_xenabled(&sys, from, en);
		for (k = 0; k < nr && en[k] != actions[i]; k++)
			;
		ok = k < nr && bqlm_xstep(&sys, from, actions[i], to, each) >= 0;
		tmp = from;
		from = to;
		to = tmp;
	}
	free(from);
	free(to);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned int actions[FUZZ_MAX_STEPS], again[FUZZ_MAX_STEPS];
	static char d1[BQLM_OPT_TEXT_MAX], d2[BQLM_OPT_TEXT_MAX];
	struct bqlm_usbnet_cfg cfg, cfg2;
	enum bqlm_check check, check2;
	struct fuzz_out out = { 0 };
	char err[256], err2[256];
	char *text = fuzz_text(data, size);
	int n, n2;

	memset(&cfg, 0, sizeof(cfg));
	memset(err, 0x55, sizeof(err));
	n = bqlm_usbnet_schedule_parse(text, &cfg, &check, actions,
				       FUZZ_MAX_STEPS, err, sizeof(err));
	free(text);
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL, "parse returned %d", n);
		FUZZ_ASSERT(memchr(err, '\0', sizeof(err)) && err[0],
			    "a refused schedule without a reason");
		return 0;
	}
	FUZZ_ASSERT(n <= FUZZ_MAX_STEPS, "%d steps", n);
	FUZZ_ASSERT(!bqlm_usbnet_cfg_check(&cfg), "accepted an invalid configuration");
	if (!fuzz_replayable(&cfg, actions, n))
		return 0;
	FUZZ_ASSERT(!bqlm_usbnet_schedule_write(&cfg, check, actions, n,
						fuzz_line, &out),
		    "a replayable schedule cannot be written");
	memset(&cfg2, 0, sizeof(cfg2));
	n2 = bqlm_usbnet_schedule_parse(out.buf, &cfg2, &check2, again,
					FUZZ_MAX_STEPS, err2, sizeof(err2));
	FUZZ_ASSERT(n2 == n, "written back, %d steps read as %d (%s):\n%s", n,
		    n2, n2 < 0 ? err2 : "", out.buf);
	fuzz_describe(&cfg, d1, sizeof(d1));
	fuzz_describe(&cfg2, d2, sizeof(d2));
	FUZZ_ASSERT(!strcmp(d1, d2) && cfg.variant == cfg2.variant,
		    "written back, the configuration changed:\n  %s\n  %s", d1, d2);
	FUZZ_ASSERT(check == check2, "written back, check %d read as %d",
		    check, check2);
	FUZZ_ASSERT(!memcmp(actions, again, n * sizeof(*actions)),
		    "written back, the steps changed");
	free(out.buf);
	return 0;
}
