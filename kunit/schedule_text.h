/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A schedule file's text, collected in memory from the lines
 * bqlm_usbnet_schedule_write() emits (bqlm_usbnet and the real-code
 * suites both read it back with bqlm_usbnet_schedule_parse()).
 */
#ifndef _BQLM_KUNIT_SCHEDULE_TEXT_H
#define _BQLM_KUNIT_SCHEDULE_TEXT_H

struct schedule_text {
	char buf[8192];
	size_t len;
	bool overflow;
};

/* A bqlm_xemit_t: append @line and a newline, or note the overflow. */
static inline void schedule_text_line(void *arg, const char *line)
{
	struct schedule_text *t = arg;
	size_t n = strlen(line);

	if (t->len + n + 2 > sizeof(t->buf)) {
		t->overflow = true;
		return;
	}
	memcpy(t->buf + t->len, line, n);
	t->len += n;
	t->buf[t->len++] = '\n';
	t->buf[t->len] = '\0';
}

#endif /* _BQLM_KUNIT_SCHEDULE_TEXT_H */
