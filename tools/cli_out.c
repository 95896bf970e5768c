// SPDX-License-Identifier: GPL-2.0
/*
 * bqlm CLI - the files a command writes (--json, --schedule, --csv,
 * --svg), written whole or not at all.
 *
 * A regular file (or a new one) is written to a temporary file beside it,
 * PATH.bqlm-XXXXXX, and renamed onto PATH once every byte reached the disk
 * without an error; a failed write (a full disk), an error exit, or
 * SIGINT/SIGTERM/SIGHUP (Ctrl-C during a long search) removes the
 * temporary file, so that PATH is never left truncated or half written
 * looking complete. Anything else (a device such as /dev/null, a pipe) is
 * written in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define BQLM_CLI_MAX_OUT	4

/* The temporary files not yet renamed into place. */
static struct bqlm_cli_out {
	FILE *f;
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	int pending;	/* __atomic_*(): the signal handler reads it */
} bqlm_cli_out[BQLM_CLI_MAX_OUT];

static bool bqlm_cli_out_hooked;

/* Remove what is pending: at exit, and on a fatal signal (async-safe). */
static void bqlm_cli_out_remove(void)
{
	unsigned int i;

	for (i = 0; i < BQLM_CLI_MAX_OUT; i++)
		if (__atomic_exchange_n(&bqlm_cli_out[i].pending, 0,
					__ATOMIC_SEQ_CST))
			unlink(bqlm_cli_out[i].tmp);
}

static void bqlm_cli_out_signal(int sig)
{
	bqlm_cli_out_remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void bqlm_cli_out_hook(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = bqlm_cli_out_signal };
	struct sigaction old;
	unsigned int i;

	if (bqlm_cli_out_hooked)
		return;
	bqlm_cli_out_hooked = true;
	atexit(bqlm_cli_out_remove);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		/* leave a signal ignored by the caller (nohup) ignored */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/* A file written in place: it exists and is not a regular file. */
static bool bqlm_cli_out_in_place(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode);
}

/**
 * bqlm_cli_out_check() - can a command write @path? (before its long run)
 * @who: the command, for the message ("bqlm")
 * @opt: the option that names it ("--schedule")
 * @path: the file ("-": standard output)
 *
 * The file, or its directory for a new or regular file, must be writable,
 * so that an hour of search does not end in "cannot write".
 *
 * Return: 0, or EXIT_USAGE after a message.
 */
int bqlm_cli_out_check(const char *who, const char *opt, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;
	size_t n;

	if (!strcmp(path, "-"))
		return 0;
	if (!*path) {
		fprintf(stderr, "%s: %s needs a file name\n", who, opt);
		return EXIT_USAGE;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
	} else if (bqlm_cli_out_in_place(path)) {
		if (!access(path, W_OK))
			return 0;
	} else {
		if (!slash) {
			snprintf(dir, sizeof(dir), ".");
		} else if (slash == path) {
			snprintf(dir, sizeof(dir), "/");
		} else {
			n = slash - path;
			if (n >= sizeof(dir))
				n = sizeof(dir) - 1;
			memcpy(dir, path, n);
			dir[n] = '\0';
		}
		if (!access(dir, W_OK | X_OK))
			return 0;
	}
	fprintf(stderr, "%s: %s: cannot write %s: %s\n", who, opt, path,
		strerror(errno));
	return EXIT_USAGE;
}

/**
 * bqlm_cli_out_open() - open a file to write whole (bqlm_cli_out_close())
 * @who: the command, for the message
 * @path: the file
 *
 * Return: the stream, or NULL after a message.
 */
FILE *bqlm_cli_out_open(const char *who, const char *path)
{
	struct bqlm_cli_out *o = NULL;
	mode_t mask;
	FILE *f;
	int fd, len;
	unsigned int i;

	for (i = 0; i < BQLM_CLI_MAX_OUT && !o; i++)
		if (!bqlm_cli_out[i].f)
			o = &bqlm_cli_out[i];
	len = o ? snprintf(o->tmp, sizeof(o->tmp), "%s.bqlm-XXXXXX", path) : -1;
	if (!o || bqlm_cli_out_in_place(path) || len < 0 ||
	    (size_t)len >= sizeof(o->tmp) || strlen(path) >= sizeof(o->path)) {
		f = fopen(path, "w");
		if (!f)
			fprintf(stderr, "%s: cannot write %s: %s\n", who, path,
				strerror(errno));
		return f;
	}
	bqlm_cli_out_hook();
	snprintf(o->path, sizeof(o->path), "%s", path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", who, path,
			strerror(errno));
		return NULL;
	}
	__atomic_store_n(&o->pending, 1, __ATOMIC_SEQ_CST);
	/* mkstemp() makes it 0600: as fopen() would have made it */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "%s: cannot write %s: %s\n", who, path,
			strerror(errno));
		close(fd);
		__atomic_store_n(&o->pending, 0, __ATOMIC_SEQ_CST);
		unlink(o->tmp);
		return NULL;
	}
	o->f = f;
	return f;
}

/**
 * bqlm_cli_out_close() - finish a file of bqlm_cli_out_open()
 * @who: the command, for the message
 * @path: the file, for the message
 * @f: the stream (NULL: nothing to do)
 * @keep: false to drop it (the command failed before it was complete)
 *
 * The file is flushed and closed; written in full, it takes its name, and
 * otherwise it is removed.
 *
 * Return: 0, or -1 after a message naming the file and the error (a full
 * disk: "No space left on device").
 */
int bqlm_cli_out_close(const char *who, const char *path, FILE *f, bool keep)
{
	struct bqlm_cli_out *o = NULL;
	unsigned int i;
	int err;

	if (!f)
		return 0;
	for (i = 0; i < BQLM_CLI_MAX_OUT; i++)
		if (bqlm_cli_out[i].f == f)
			o = &bqlm_cli_out[i];
	err = fflush(f) ? errno : ferror(f) ? EIO : 0;
	if (!err && o && fsync(fileno(f)) && errno != EINVAL)
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	if (o) {
		o->f = NULL;
		if (keep && !err && rename(o->tmp, o->path))
			err = errno;
		__atomic_store_n(&o->pending, 0, __ATOMIC_SEQ_CST);
		if (!keep || err)
			unlink(o->tmp);
	}
	if (!err)
		return 0;
	fprintf(stderr, "%s: writing %s failed: %s%s\n", who, path,
		strerror(err), o ? " (nothing written)" : "");
	return -1;
}
