// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the userspace KUnit runner, built on CMocka.
 *
 * Runs every suite registered with kunit_test_suites() (collected in the
 * bqlm_kunit_suites linker section) as a CMocka group, each case and each
 * parameter of a parameterised case as one CMocka test, and prints KTAP in
 * the layout of lib/kunit/test.c, so that kunit.py parse accepts it and the
 * suite and case names match the kernel run. CMocka's own report goes to
 * JUnit XML files (one a suite) when --xml DIR is given, and is otherwise
 * silenced, so that standard output is pure KTAP plus one closing line.
 *
 * Usage: bqlm-kunit [--xml DIR] [--list] [--timing] [GLOB]
 *   GLOB selects suites ("bqlm_dql*") or cases ("bqlm_dql.dql_reset*"),
 *   like the kernel's kunit.filter_glob: the part before the first '.'
 *   is matched against the suite's name, the rest against the case's.
 *   --timing prints how long each case (each parameter) ran, and says,
 *   as lib/kunit/test.c does, which ran 2 s or more without a slow speed.
 */
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <kunit/test.h>

/*
 * One resource of a case: memory from kunit_kmalloc_array() (@ptr), or a
 * deferred action (@action with @ctx). A case's resources are a list,
 * newest first, released from the head when the case ends.
 */
struct kunit_resource_node {
	struct kunit_resource_node *next;
	void *ptr;
	kunit_action_t *action;
	void *ctx;
};

/* Per-case verdicts, aggregated as lib/kunit/test.c does. */
struct ustub_stats {
	unsigned long passed, failed, skipped, total;
};

/* One CMocka test: a plain case, or one parameter of a case. */
struct ustub_test {
	struct kunit_suite *suite;
	struct kunit_case *kcase;
	unsigned int case_num;		/* 1-based, within the suite */
	const void *param;
	int param_index;		/* -1 for a plain case */
	bool last_param;
	bool init_failed;
	char desc[KUNIT_PARAM_DESC_SIZE];
	struct kunit test;
};

static struct {
	struct ustub_stats suite;	/* cases of the current suite */
	struct ustub_stats params;	/* params of the current case */
	struct ustub_stats total;	/* all cases and params */
	enum kunit_status case_status;	/* of the current param case */
	bool timing;			/* --timing */
	struct timespec start;		/* of the running case (parameter) */
	unsigned int fail_resources;	/* registrations left to refuse */
} ustub;

static const char * const ustub_speed_names[] = {
	[KUNIT_SPEED_UNSET] = "unset",
	[KUNIT_SPEED_VERY_SLOW] = "very_slow",
	[KUNIT_SPEED_SLOW] = "slow",
	[KUNIT_SPEED_NORMAL] = "normal",
};

static const char *ustub_speed_name(enum kunit_speed speed)
{
	return speed <= KUNIT_SPEED_MAX ? ustub_speed_names[speed] : "?";
}

/*
 * The case's speed attribute, as lib/kunit/attributes.c prints it: a
 * suite's after its "# Subtest:" line, a case's before its result line;
 * nothing when unset.
 */
static void ustub_print_speed(const char *name, enum kunit_speed speed)
{
	if (speed != KUNIT_SPEED_UNSET)
		printf("    # %s%sspeed: %s\n", name ? name : "",
		       name ? "." : "", ustub_speed_name(speed));
}

static void ustub_count(struct ustub_stats *s, enum kunit_status st)
{
	s->total++;
	if (st == KUNIT_SUCCESS)
		s->passed++;
	else if (st == KUNIT_FAILURE)
		s->failed++;
	else
		s->skipped++;
}

static void ustub_ok(int indent, enum kunit_status st, unsigned long num,
		     const char *desc, const char *comment)
{
	printf("%*s%s %lu %s%s%s\n", indent, "",
	       st == KUNIT_FAILURE ? "not ok" : "ok", num, desc,
	       st == KUNIT_SKIPPED ? " # SKIP " : "",
	       st == KUNIT_SKIPPED ? comment : "");
}

static void ustub_print_stats(int indent, const char *name,
			      const struct ustub_stats *s)
{
	printf("%*s# %s: pass:%lu fail:%lu skip:%lu total:%lu\n", indent, "",
	       name, s->passed, s->failed, s->skipped, s->total);
}

/* ---- the API the macros of <kunit/test.h> call ---------------------- */

static void ustub_vmsg(struct kunit *test, const char *fmt, va_list ap)
{
	char buf[1024];
	char *line, *save;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("    # %s: %s\n", test->name, line);
}

void kunit_ustub_msg(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ustub_vmsg(test, fmt, ap);
	va_end(ap);
}

static void ustub_failed(struct kunit *test, enum kunit_ustub_kind kind,
			 const char *file, int line)
{
	test->status = KUNIT_FAILURE;
	kunit_ustub_msg(test, "%s FAILED at %s:%d",
			kind == KUNIT_USTUB_ASSERT ? "ASSERTION" : "EXPECTATION",
			file, line);
}

void kunit_ustub_fail(struct kunit *test, enum kunit_ustub_kind kind,
		      const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	ustub_failed(test, kind, file, line);
	va_start(ap, fmt);
	ustub_vmsg(test, fmt, ap);
	va_end(ap);
	/* an assertion ends the case after its message (__KUNIT_MSG) */
}

void kunit_ustub_fail_binary(struct kunit *test, enum kunit_ustub_kind kind,
			     const char *file, int line, const char *op,
			     const char *lname, long long lval,
			     const char *rname, long long rval)
{
	ustub_failed(test, kind, file, line);
	kunit_ustub_msg(test, "Expected %s %s %s, but", lname, op, rname);
	kunit_ustub_msg(test, "    %s == %lld (0x%llx)", lname, lval,
			(unsigned long long)lval);
	kunit_ustub_msg(test, "    %s == %lld (0x%llx)", rname, rval,
			(unsigned long long)rval);
}

void kunit_ustub_fail_ptr(struct kunit *test, enum kunit_ustub_kind kind,
			  const char *file, int line, const char *op,
			  const char *lname, const void *lval,
			  const char *rname, const void *rval)
{
	ustub_failed(test, kind, file, line);
	kunit_ustub_msg(test, "Expected %s %s %s, but", lname, op, rname);
	kunit_ustub_msg(test, "    %s == %p", lname, lval);
	kunit_ustub_msg(test, "    %s == %p", rname, rval);
}

int kunit_ustub_memcmp_fail(struct kunit *test, enum kunit_ustub_kind kind,
			    const char *file, int line, const char *lname,
			    const void *l, const char *rname, const void *r,
			    size_t size, bool eq)
{
	const unsigned char *a = l, *b = r;
	size_t i;

	if (!memcmp(l, r, size) == eq)
		return 0;
	ustub_failed(test, kind, file, line);
	if (!eq) {
		kunit_ustub_msg(test, "Expected %s != %s (%zu bytes), but they are equal",
				lname, rname, size);
		return 1;
	}
	for (i = 0; i < size && a[i] == b[i]; i++)
		;
	kunit_ustub_msg(test, "Expected %s == %s (%zu bytes), first difference at byte %zu: 0x%02x vs 0x%02x",
			lname, rname, size, i, a[i], b[i]);
	return 1;
}

/*
 * End the running case, as KUnit's kunit_try_catch_throw() does: CMocka's
 * _fail() and _skip() unwind to its runner, which then runs our teardown.
 */
void kunit_ustub_end_case(struct kunit *test, enum kunit_status why)
{
	if (why == KUNIT_SKIPPED && test->status != KUNIT_FAILURE)
		_skip(__FILE__, __LINE__);
	_fail(__FILE__, __LINE__);
	/* both unwind to the CMocka runner and never return */
	abort();
}

/* ---- resources: memory and deferred actions --------------------------- */

void kunit_ustub_fail_next_resources(unsigned int n)
{
	ustub.fail_resources = n;
}

/* A new resource at the head of @test's list, or NULL if none may be. */
static struct kunit_resource_node *ustub_res_add(struct kunit *test)
{
	struct kunit_resource_node *node;

	if (ustub.fail_resources) {
		ustub.fail_resources--;
		return NULL;
	}
	node = calloc(1, sizeof(*node));
	if (!node)
		return NULL;
	node->next = test->res;
	test->res = node;
	return node;
}

/* Release one resource taken off the list: free it or run it. */
static void ustub_res_release(struct kunit_resource_node *node)
{
	if (node->action)
		node->action(node->ctx);
	else
		free(node->ptr);
	free(node);
}

/* Release every resource of @test, the newest first. */
static void ustub_res_release_all(struct kunit *test)
{
	struct kunit_resource_node *node;

	while ((node = test->res)) {
		test->res = node->next;
		ustub_res_release(node);
	}
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size,
			  unsigned int gfp)
{
	struct kunit_resource_node *node;
	void *ptr;

	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	ptr = calloc(n ? n : 1, size ? size : 1);
	if (!ptr)
		return NULL;
	node = ustub_res_add(test);
	if (!node) {
		free(ptr);
		return NULL;
	}
	node->ptr = ptr;
	return ptr;
}

/* Take the newest resource that is @ptr, or @action with @ctx, off the list. */
static struct kunit_resource_node *ustub_res_take(struct kunit *test,
						  const void *ptr,
						  kunit_action_t *action,
						  const void *ctx)
{
	struct kunit_resource_node **pp, *node;

	for (pp = &test->res; *pp; pp = &(*pp)->next) {
		node = *pp;
		if (action ? node->action == action && node->ctx == ctx :
			     !node->action && node->ptr == ptr) {
			*pp = node->next;
			return node;
		}
	}
	return NULL;
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct kunit_resource_node *node = ustub_res_take(test, ptr, NULL,
							  NULL);

	if (node)
		ustub_res_release(node);
}

int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct kunit_resource_node *node;

	if (!action)
		return -EINVAL;
	node = ustub_res_add(test);
	if (!node)
		return -ENOMEM;
	node->action = action;
	node->ctx = ctx;
	return 0;
}

int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx)
{
	int err = kunit_add_action(test, action, ctx);

	if (err)
		action(ctx);
	return err;
}

void kunit_remove_action(struct kunit *test, kunit_action_t *action,
			 void *ctx)
{
	free(ustub_res_take(test, NULL, action, ctx));
}

void kunit_release_action(struct kunit *test, kunit_action_t *action,
			  void *ctx)
{
	struct kunit_resource_node *node = ustub_res_take(test, NULL, action,
							  ctx);

	if (node)
		ustub_res_release(node);
}

/* ---- CMocka fixtures: one KUnit case (parameter) each ---------------- */

static int ustub_setup(void **state)
{
	struct ustub_test *t = *state;

	memset(&t->test, 0, sizeof(t->test));
	t->test.name = t->kcase->name;
	t->test.param_value = t->param;
	t->test.param_index = t->param_index < 0 ? 0 : t->param_index;
	t->test.status = KUNIT_SUCCESS;
	t->init_failed = false;
	if (t->param_index == 0) {
		printf("        KTAP version 1\n");
		printf("        # Subtest: %s\n", t->kcase->name);
		memset(&ustub.params, 0, sizeof(ustub.params));
		ustub.case_status = KUNIT_SKIPPED;
	}
	if (t->suite->init && t->suite->init(&t->test)) {
		kunit_ustub_msg(&t->test, "failed to initialize");
		t->test.status = KUNIT_FAILURE;
		t->init_failed = true;
	}
	clock_gettime(CLOCK_MONOTONIC, &ustub.start);
	return 0;
}

/* A case's speed: its own, else its suite's (lib/kunit/attributes.c). */
static enum kunit_speed ustub_case_speed(const struct ustub_test *t)
{
	return t->kcase->attr.speed != KUNIT_SPEED_UNSET ?
	       t->kcase->attr.speed : t->suite->attr.speed;
}

/*
 * --timing: how long the case (parameter) ran, and the kernel's warning
 * for a case of 2 s or more that is not marked slow.
 */
static void ustub_report_time(struct ustub_test *t)
{
	enum kunit_speed speed = ustub_case_speed(t);
	struct timespec now;
	double s;

	if (!ustub.timing)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	s = (now.tv_sec - ustub.start.tv_sec) +
	    (now.tv_nsec - ustub.start.tv_nsec) / 1e9;
	printf("%*s# %s.%s%s%s: %.3f s (speed: %s)\n",
	       t->param_index < 0 ? 4 : 8, "", t->suite->name, t->kcase->name,
	       t->param_index < 0 ? "" : ".", t->param_index < 0 ? "" : t->desc,
	       s, ustub_speed_name(speed == KUNIT_SPEED_UNSET ?
				   KUNIT_SPEED_NORMAL : speed));
	if (s >= 2.0 && speed != KUNIT_SPEED_SLOW &&
	    speed != KUNIT_SPEED_VERY_SLOW)
		kunit_ustub_msg(&t->test,
				"Test should be marked slow (runtime: %.9fs)",
				s);
}

static void ustub_run(void **state)
{
	struct ustub_test *t = *state;

	if (t->init_failed)
		fail_msg("suite init failed");
	t->kcase->run_case(&t->test);
	if (t->test.status == KUNIT_FAILURE)
		fail_msg("KUnit expectation failed");
	if (t->test.status == KUNIT_SKIPPED)
		skip();
}

static int ustub_teardown(void **state)
{
	struct ustub_test *t = *state;
	enum kunit_status st;

	ustub_report_time(t);
	/* as kunit_run_case_cleanup(): the suite's exit, then the resources */
	if (t->suite->exit && !t->init_failed)
		t->suite->exit(&t->test);
	ustub_res_release_all(&t->test);

	st = t->test.status;
	if (t->param_index < 0) {
		ustub_count(&ustub.total, st);
		ustub_count(&ustub.suite, st);
		ustub_print_speed(t->kcase->name, t->kcase->attr.speed);
		ustub_ok(4, st, t->case_num, t->kcase->name,
			 t->test.status_comment);
		return 0;
	}

	ustub_count(&ustub.params, st);
	ustub_count(&ustub.total, st);
	ustub_ok(8, st, t->param_index + 1, t->desc, t->test.status_comment);
	if (st == KUNIT_FAILURE || ustub.case_status == KUNIT_FAILURE)
		ustub.case_status = KUNIT_FAILURE;
	else if (st == KUNIT_SUCCESS)
		ustub.case_status = KUNIT_SUCCESS;
	if (t->last_param) {
		ustub_print_speed(t->kcase->name, t->kcase->attr.speed);
		ustub_print_stats(4, t->kcase->name, &ustub.params);
		ustub_count(&ustub.suite, ustub.case_status);
		ustub_ok(4, ustub.case_status, t->case_num, t->kcase->name,
			 "");
	}
	return 0;
}

/* ---- suites ------------------------------------------------------------ */

/*
 * As lib/kunit/executor.c: the glob up to the first '.' selects suites,
 * the rest (if any) cases of them.
 */
static bool ustub_case_selected(const struct kunit_suite *suite,
				const struct kunit_case *kc, const char *glob)
{
	char sglob[256];
	const char *dot;

	if (!glob)
		return true;
	dot = strchr(glob, '.');
	snprintf(sglob, sizeof(sglob), "%.*s",
		 dot ? (int)(dot - glob) : (int)strlen(glob), glob);
	if (fnmatch(sglob, suite->name, 0))
		return false;
	return !dot || !fnmatch(dot + 1, kc->name, 0);
}

/* Fill @tests (may be NULL to count) with the suite's selected cases. */
static size_t ustub_collect(struct kunit_suite *suite, const char *glob,
			    struct ustub_test *ts, struct CMUnitTest *tests)
{
	struct kunit_case *kc;
	unsigned int num = 0;
	size_t n = 0;

	for (kc = suite->test_cases; kc->run_case; kc++) {
		char desc[KUNIT_PARAM_DESC_SIZE];
		const void *param;
		int idx = 0;

		if (!ustub_case_selected(suite, kc, glob))
			continue;
		num++;
		if (!kc->generate_params) {
			if (ts) {
				ts[n] = (struct ustub_test){
					.suite = suite, .kcase = kc,
					.case_num = num, .param_index = -1 };
			}
			n++;
			continue;
		}
		desc[0] = '\0';
		for (param = kc->generate_params(NULL, desc); param;
		     idx++) {
			const void *next;
			char ndesc[KUNIT_PARAM_DESC_SIZE] = "";

			next = kc->generate_params(param, ndesc);
			if (ts) {
				ts[n] = (struct ustub_test){
					.suite = suite, .kcase = kc,
					.case_num = num, .param = param,
					.param_index = idx,
					.last_param = !next };
				if (desc[0])
					snprintf(ts[n].desc,
						 sizeof(ts[n].desc), "%s",
						 desc);
				else
					snprintf(ts[n].desc,
						 sizeof(ts[n].desc),
						 "param-%d", idx);
			}
			n++;
			memcpy(desc, ndesc, sizeof(desc));
			param = next;
		}
	}
	if (tests) {
		size_t i;

		for (i = 0; i < n; i++) {
			tests[i] = (struct CMUnitTest){
				.name = ts[i].param_index < 0 ?
					ts[i].kcase->name : ts[i].desc,
				.test_func = ustub_run,
				.setup_func = ustub_setup,
				.teardown_func = ustub_teardown,
				.initial_state = &ts[i],
			};
		}
	}
	return n;
}

/* Cases (not parameters) among the collected tests: the KTAP plan. */
static size_t ustub_num_cases(const struct ustub_test *ts, size_t n)
{
	size_t i, cases = 0;

	for (i = 0; i < n; i++)
		cases += ts[i].param_index <= 0;
	return cases;
}

static int ustub_run_suite(struct kunit_suite *suite, const char *glob,
			   unsigned long num)
{
	size_t n = ustub_collect(suite, glob, NULL, NULL);
	struct ustub_test *ts;
	struct CMUnitTest *tests;
	enum kunit_status st;
	int err = 0;

	ts = calloc(n ? n : 1, sizeof(*ts));
	tests = calloc(n ? n : 1, sizeof(*tests));
	if (!ts || !tests) {
		fprintf(stderr, "bqlm-kunit: out of memory\n");
		exit(2);
	}
	ustub_collect(suite, glob, ts, tests);

	memset(&ustub.suite, 0, sizeof(ustub.suite));
	if (suite->suite_init)
		err = suite->suite_init(suite);
	if (err) {
		printf("    # failed to initialize (%d)\n", err);
		st = KUNIT_FAILURE;
	} else {
		struct ustub_stats before = ustub.total;

		printf("    KTAP version 1\n");
		printf("    # Subtest: %s\n", suite->name);
		ustub_print_speed(NULL, suite->attr.speed);
		printf("    1..%zu\n", ustub_num_cases(ts, n));
		_cmocka_run_group_tests(suite->name, tests, n, NULL, NULL);
		if (suite->suite_exit)
			suite->suite_exit(suite);
		printf("# %s: pass:%lu fail:%lu skip:%lu total:%lu\n",
		       suite->name, ustub.suite.passed, ustub.suite.failed,
		       ustub.suite.skipped, ustub.suite.total);
		printf("# Totals: pass:%lu fail:%lu skip:%lu total:%lu\n",
		       ustub.total.passed - before.passed,
		       ustub.total.failed - before.failed,
		       ustub.total.skipped - before.skipped,
		       ustub.total.total - before.total);
		st = ustub.suite.failed ? KUNIT_FAILURE :
		     ustub.suite.passed ? KUNIT_SUCCESS : KUNIT_SKIPPED;
	}
	ustub_ok(0, st, num, suite->name, "");
	free(ts);
	free(tests);
	return st == KUNIT_FAILURE;
}

/* Remove the temporary XML directory and the reports in it. */
static void ustub_rm_xml(const char *dir)
{
	struct kunit_suite **sp;
	char path[4096 + 300];

	for (sp = __start_bqlm_kunit_suites; sp < __stop_bqlm_kunit_suites;
	     sp++) {
		snprintf(path, sizeof(path), "%s/%s.xml", dir, (*sp)->name);
		unlink(path);
	}
	rmdir(dir);
}

static void ustub_usage(FILE *f)
{
	fprintf(f, "usage: bqlm-kunit [--xml DIR] [--list] [--timing] [GLOB]\n"
		"  GLOB      suite glob (\"bqlm_dql*\") or suite.case glob\n"
		"  --xml     write CMocka's JUnit XML report, a file a suite, to DIR\n"
		"  --list    print the selected suite.case names and exit\n"
		"  --timing  print each case's run time; name the slow ones not marked slow\n");
}

int main(int argc, char **argv)
{
	struct kunit_suite **sp;
	const char *glob = NULL, *xml = NULL;
	char tmpdir[4096] = "", path[4096 + 16];
	bool list = false;
	unsigned long nsuites = 0, num = 0;
	int i, failed = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			ustub_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--xml") && i + 1 < argc) {
			xml = argv[++i];
		} else if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "--timing")) {
			ustub.timing = true;
		} else if (argv[i][0] != '-' && !glob) {
			glob = argv[i];
		} else {
			fprintf(stderr, "bqlm-kunit: unexpected argument '%s'\n",
				argv[i]);
			ustub_usage(stderr);
			return 2;
		}
	}

	/*
	 * CMocka reports in XML, a file a suite: to DIR when asked, else to
	 * a temporary directory removed at the end. (CMocka writes to
	 * standard output instead when the file already exists.)
	 */
	cmocka_set_message_output(CM_OUTPUT_XML);
	if (!xml) {
		snprintf(tmpdir, sizeof(tmpdir), "%s/bqlm-kunit-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("bqlm-kunit: mkdtemp");
			return 2;
		}
		xml = tmpdir;
	}
	snprintf(path, sizeof(path), "%s/%%g.xml", xml);
	setenv("CMOCKA_XML_FILE", path, 1);

	for (sp = __start_bqlm_kunit_suites; sp < __stop_bqlm_kunit_suites;
	     sp++) {
		struct kunit_case *kc;

		if (!ustub_collect(*sp, glob, NULL, NULL))
			continue;
		nsuites++;
		if (!list)
			continue;
		for (kc = (*sp)->test_cases; kc->run_case; kc++)
			if (ustub_case_selected(*sp, kc, glob))
				printf("%s.%s\n", (*sp)->name, kc->name);
	}
	if (list)
		return 0;
	if (!nsuites) {
		fprintf(stderr, "bqlm-kunit: no test matches '%s'\n",
			glob ? glob : "*");
		return 2;
	}

	printf("KTAP version 1\n1..%lu\n", nsuites);
	fflush(stdout);
	for (sp = __start_bqlm_kunit_suites; sp < __stop_bqlm_kunit_suites;
	     sp++) {
		if (!ustub_collect(*sp, glob, NULL, NULL))
			continue;
		failed |= ustub_run_suite(*sp, glob, ++num);
		fflush(stdout);
	}
	printf("userspace: %lu passed, %lu failed, %lu skipped\n",
	       ustub.total.passed, ustub.total.failed, ustub.total.skipped);
	if (tmpdir[0])
		ustub_rm_xml(tmpdir);
	return failed || ustub.total.failed ? 1 : 0;
}
