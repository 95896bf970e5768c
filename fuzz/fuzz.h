/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what the fuzz targets share (fuzz/fuzz_*.c, make fuzz): the
 * models' option tables, and an input cut into command-line words.
 */
#ifndef _BQLM_FUZZ_H
#define _BQLM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <bqlm/options.h>
#include <bqlm/types.h>

/*
 * Every model's option table: build/fuzz/fuzz_tables.h, made by
 * fuzz/fuzz.mk from the public headers, lists each function declared as
 * "const struct bqlm_opts *bqlm_NAME_options(void);" (with the headers to
 * include), so that a table is fuzzed from the day it lands.
 */
#include "fuzz_tables.h"

#define FUZZ_MAX_TABLES	8

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* The tables linked in; their number. */
static inline unsigned int fuzz_tables(const struct bqlm_opts **t)
{
	const struct bqlm_opts *(*const get[])(void) = { FUZZ_TABLES };
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(get) && n < FUZZ_MAX_TABLES; i++)
		t[n++] = get[i]();
	return n;
}

/*
 * The table an input names on its first line (a model's name), or, if it
 * names none, the one its first byte picks; *@data and *@size are moved
 * past the line. NULL for an empty input.
 */
static inline const struct bqlm_opts *fuzz_pick(const uint8_t **data,
						size_t *size)
{
	const struct bqlm_opts *t[FUZZ_MAX_TABLES];
	unsigned int i, n = fuzz_tables(t);
	const uint8_t *nl = memchr(*data, '\n', *size);
	size_t len;

	if (!*size)
		return NULL;
	len = nl ? (size_t)(nl - *data) : *size;
	for (i = 0; i < n; i++) {
		if (strlen(t[i]->model) == len &&
		    !memcmp(t[i]->model, *data, len)) {
			*data += nl ? len + 1 : len;
			*size -= nl ? len + 1 : len;
			return t[i];
		}
	}
	i = **data % n;
	*data += 1;
	*size -= 1;
	return t[i];
}

/* Print once which tables a target drives. */
static inline void fuzz_say_tables(const char *target)
{
	const struct bqlm_opts *t[FUZZ_MAX_TABLES];
	unsigned int i, n = fuzz_tables(t);

	fprintf(stderr, "fuzz %s: %u option tables:", target, n);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %s (%u options, %u profiles)", t[i]->model,
			t[i]->n, t[i]->nr_profiles);
	fprintf(stderr, "\n");
}

#define FUZZ_MAX_ARGS	48

/*
 * @data cut at newlines (and NULs) into at most FUZZ_MAX_ARGS words, each
 * its own allocation (so that ASan sees a read past any of them), after
 * @argv0 if not NULL. Returns argc; fuzz_free_args() frees them.
 */
static inline int fuzz_args(const uint8_t *data, size_t size,
			    const char *argv0, char **argv)
{
	size_t i = 0, start;
	int argc = 0;

	if (argv0)
		argv[argc++] = strdup(argv0);
	while (i <= size && argc < FUZZ_MAX_ARGS) {
		start = i;
		while (i < size && data[i] != '\n' && data[i] != '\0')
			i++;
		if (i == size && start == size)
			break;
		argv[argc] = malloc(i - start + 1);
		memcpy(argv[argc], data + start, i - start);
		argv[argc][i - start] = '\0';
		argc++;
		i++;
	}
	argv[argc] = NULL;
	return argc;
}

static inline void fuzz_free_args(int argc, char **argv)
{
	while (argc--)
		free(argv[argc]);
}

/* A NUL-terminated copy of @data, its own allocation. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* An oracle failed: say what, and crash so that the fuzzer keeps the input. */
#define FUZZ_ASSERT(cond, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fprintf(stderr, "\n");					\
		abort();						\
	}								\
} while (0)

/*
 * The cli target (fuzz_cli.c): the calls the linker sends to its
 * wrappers (-Wl,--wrap=NAME), and the CLI's main() renamed.
 */
struct bqlm_cli_explore;
struct bqlm_sim;
int bqlm_main(int argc, char **argv);
int __real_bqlm_cli_run_explore(const struct bqlm_cli_explore *e);
int __real_bqlm_sim_run_until(struct bqlm_sim *sim, u64 t);
FILE *__real_fopen(const char *path, const char *mode);
int __wrap_bqlm_cli_run_explore(const struct bqlm_cli_explore *e);
int __wrap_bqlm_sim_run_until(struct bqlm_sim *sim, u64 t);
FILE *__wrap_fopen(const char *path, const char *mode);
int __wrap_dup2(int oldfd, int newfd);
int __real_mkstemp(char *tmpl);
int __real_rename(const char *from, const char *to);
double __real_bqlm_cli_now(void);
double __wrap_bqlm_cli_now(void);
int __wrap_mkstemp(char *tmpl);
int __wrap_rename(const char *from, const char *to);
int __wrap_fchmod(int fd, mode_t mode);
int __wrap_bqlm_cli_usage(const char *who, const char *fmt, const char *arg);

#endif /* _BQLM_FUZZ_H */
