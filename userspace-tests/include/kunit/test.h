/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a userspace stand-in for <kunit/test.h>, built on CMocka.
 *
 * It provides the subset of the KUnit API that the project's suites use,
 * with KUnit's semantics:
 *  - KUNIT_EXPECT_*() records a failure and lets the case go on;
 *  - KUNIT_ASSERT_*() records a failure and ends the case (through CMocka's
 *    fail(), which unwinds to the CMocka runner);
 *  - kunit_skip() marks the case skipped and ends it (CMocka's skip());
 *  - parameterised cases (KUNIT_CASE_PARAM, KUNIT_ARRAY_PARAM) with
 *    descriptions, suite init/exit and case init/exit;
 *  - the speed attribute of cases and suites (KUNIT_CASE_SLOW,
 *    KUNIT_CASE_ATTR, KUNIT_CASE_PARAM_ATTR, .attr), printed in the KTAP
 *    as lib/kunit/attributes.c prints it;
 *  - kunit_kzalloc() and friends, and deferred actions (kunit_add_action(),
 *    kunit_add_action_or_reset(), kunit_remove_action(),
 *    kunit_release_action()): one list of resources a case, released in
 *    the reverse order of their registration when the case ends, after
 *    the suite's exit, as lib/kunit/resource.c does.
 *
 * The runner (userspace-tests/kunit_cmocka.c) runs each suite as a CMocka
 * group and each case (each parameter) as a CMocka test, and prints KTAP in
 * the layout lib/kunit/test.c prints, so that kunit.py parse reads it and
 * the kernel and userspace results can be compared case by case.
 */
#ifndef _BQLM_USERSPACE_KUNIT_TEST_H
#define _BQLM_USERSPACE_KUNIT_TEST_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define KUNIT_PARAM_DESC_SIZE		128
#define KUNIT_STATUS_COMMENT_SIZE	256

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define __KUNIT_CONCAT2(a, b)	a##b
#define __KUNIT_CONCAT(a, b)	__KUNIT_CONCAT2(a, b)

#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#endif
#ifndef __maybe_unused
#define __maybe_unused	__attribute__((__unused__))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((__noreturn__))
#endif

/* Module boilerplate of the kernel build: kept as unused strings. */
#define __KUNIT_MODINFO(tag, x)						\
	static const char __KUNIT_CONCAT(tag, __LINE__)[]		\
	__maybe_unused = x
#define MODULE_LICENSE(x)	__KUNIT_MODINFO(__modinfo_license_, x)
#define MODULE_DESCRIPTION(x)	__KUNIT_MODINFO(__modinfo_description_, x)
#define MODULE_AUTHOR(x)	__KUNIT_MODINFO(__modinfo_author_, x)

/* Allocation flags are accepted and ignored. */
#define GFP_KERNEL	0u

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit_resource_node;

/**
 * struct kunit - the state of one running case (one parameter of it)
 * @name: the case's name
 * @priv: for the suite's init/exit and the case to share
 * @param_value: the current parameter, NULL for plain cases
 * @param_index: index of the current parameter
 * @status: the verdict so far
 * @status_comment: the skip reason
 * @res: memory to free when the case ends (stand-in only)
 */
struct kunit {
	const char *name;
	void *priv;
	const void *param_value;
	int param_index;
	enum kunit_status status;
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
	struct kunit_resource_node *res;
};

/*
 * The speed attribute, as <kunit/test.h> of 6.12 declares it: relative to
 * other KUnit tests; unset means normal. A case without a speed of its
 * own has its suite's.
 */
enum kunit_speed {
	KUNIT_SPEED_UNSET,
	KUNIT_SPEED_VERY_SLOW,
	KUNIT_SPEED_SLOW,
	KUNIT_SPEED_NORMAL,
	KUNIT_SPEED_MAX = KUNIT_SPEED_NORMAL,
};

/**
 * struct kunit_attributes - the attributes of a case or a suite
 * @speed: how long it runs, relative to other KUnit tests
 */
struct kunit_attributes {
	enum kunit_speed speed;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	struct kunit_attributes attr;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
	struct kunit_attributes attr;
};

#define KUNIT_CASE(test_name)	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_ATTR(test_name, attributes)			\
	{ .run_case = test_name, .name = #test_name,		\
	  .attr = attributes }
#define KUNIT_CASE_SLOW(test_name)				\
	{ .run_case = test_name, .name = #test_name,		\
	  .attr.speed = KUNIT_SPEED_SLOW }
#define KUNIT_CASE_PARAM(test_name, gen_params)			\
	{ .run_case = test_name, .name = #test_name,		\
	  .generate_params = gen_params }
#define KUNIT_CASE_PARAM_ATTR(test_name, gen_params, attributes)	\
	{ .run_case = test_name, .name = #test_name,		\
	  .generate_params = gen_params, .attr = attributes }

/* Index of the parameter after @prev in @array (0 for the first). */
#define __KUNIT_PARAM_NEXT(array, prev)					\
	((prev) ? (size_t)((const typeof((array)[0]) *)(prev) -	\
			   (array)) + 1 : 0)

#define KUNIT_ARRAY_PARAM(name, array, get_desc)				\
	static const void *name##_gen_params(const void *prev, char *desc)	\
	{									\
		size_t __i = __KUNIT_PARAM_NEXT(array, prev);			\
		void (*__get_desc)(typeof(&(array)[0]), char *) = get_desc;	\
										\
		if (__i >= ARRAY_SIZE(array))					\
			return NULL;						\
		if (__get_desc)							\
			__get_desc(&(array)[__i], desc);			\
		return &(array)[__i];						\
	}

#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)			\
	static const void *name##_gen_params(const void *prev, char *desc)	\
	{									\
		size_t __i = __KUNIT_PARAM_NEXT(array, prev);			\
										\
		if (__i >= ARRAY_SIZE(array))					\
			return NULL;						\
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",			\
			 (array)[__i].desc_member);				\
		return &(array)[__i];						\
	}

/*
 * Suites are registered in a linker section, as the kernel does with
 * .kunit_test_suites; the runner walks it with __start_/__stop_ symbols.
 */
#define kunit_test_suites(...)						\
	static struct kunit_suite *__KUNIT_CONCAT(__kunit_suites_,	\
						  __LINE__)[]		\
	__attribute__((used, section("bqlm_kunit_suites"),	\
		       aligned(sizeof(void *)))) =		\
		{ __VA_ARGS__ }
#define kunit_test_suite(suite)	kunit_test_suites(&(suite))

/* The suites registered above, in link order (for the runner). */
extern struct kunit_suite *__start_bqlm_kunit_suites[];
extern struct kunit_suite *__stop_bqlm_kunit_suites[];

/* The stand-in's internals, called by the macros below. */
enum kunit_ustub_kind { KUNIT_USTUB_EXPECT, KUNIT_USTUB_ASSERT };

void kunit_ustub_fail(struct kunit *test, enum kunit_ustub_kind kind,
		      const char *file, int line, const char *fmt, ...)
	__printf(5, 6);
void kunit_ustub_fail_binary(struct kunit *test, enum kunit_ustub_kind kind,
			     const char *file, int line, const char *op,
			     const char *lname, long long lval,
			     const char *rname, long long rval);
void kunit_ustub_fail_ptr(struct kunit *test, enum kunit_ustub_kind kind,
			  const char *file, int line, const char *op,
			  const char *lname, const void *lval,
			  const char *rname, const void *rval);
void kunit_ustub_msg(struct kunit *test, const char *fmt, ...)
	__printf(2, 3);
void kunit_ustub_end_case(struct kunit *test, enum kunit_status why)
	__noreturn;
int kunit_ustub_memcmp_fail(struct kunit *test, enum kunit_ustub_kind kind,
			    const char *file, int line, const char *lname,
			    const void *l, const char *rname, const void *r,
			    size_t size, bool eq);

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size,
			  unsigned int gfp);
void kunit_kfree(struct kunit *test, const void *ptr);

/* A deferred action: a function run with its context when the case ends. */
typedef void (kunit_action_t)(void *);

/*
 * A wrapper of a function of one pointer-sized argument, to be deferred
 * without casting a function pointer (which control-flow integrity
 * forbids in the kernel).
 */
#define KUNIT_DEFINE_ACTION_WRAPPER(wrapper, orig, arg_type)		\
	static void wrapper(void *in)					\
	{								\
		arg_type arg = (arg_type)in;				\
		orig(arg);						\
	}

int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx);
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx);
void kunit_remove_action(struct kunit *test, kunit_action_t *action,
			 void *ctx);
void kunit_release_action(struct kunit *test, kunit_action_t *action,
			  void *ctx);

/*
 * Stand-in only: make the next @n registrations of a resource (an
 * allocation or an action) fail, as if memory had run out, so that the
 * stand-in's own tests can reach kunit_add_action_or_reset()'s reset.
 */
void kunit_ustub_fail_next_resources(unsigned int n);

static inline void *kunit_kmalloc(struct kunit *test, size_t size, unsigned int gfp)
{
	return kunit_kmalloc_array(test, 1, size, gfp);
}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, unsigned int gfp)
{
	return kunit_kmalloc_array(test, 1, size, gfp);
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size,
				  unsigned int gfp)
{
	return kunit_kmalloc_array(test, n, size, gfp);
}

#define kunit_info(test, fmt, ...)	kunit_ustub_msg(test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kunit_ustub_msg(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_ustub_msg(test, fmt, ##__VA_ARGS__)

#define kunit_mark_skipped(test, fmt, ...)				\
	do {								\
		(test)->status = KUNIT_SKIPPED;				\
		snprintf((test)->status_comment,			\
			 KUNIT_STATUS_COMMENT_SIZE, fmt, ##__VA_ARGS__);\
	} while (0)

#define kunit_skip(test, fmt, ...)					\
	do {								\
		kunit_mark_skipped(test, fmt, ##__VA_ARGS__);		\
		kunit_ustub_end_case(test, KUNIT_SKIPPED);		\
	} while (0)

#define __KUNIT_FAIL(test, kind, fmt, ...)				\
	kunit_ustub_fail(test, kind, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define KUNIT_FAIL(test, fmt, ...)					\
	__KUNIT_FAIL(test, KUNIT_USTUB_EXPECT, fmt, ##__VA_ARGS__)
#define KUNIT_SUCCEED(test)	((void)(test))

/* Integer comparisons: both sides evaluated once, values printed. */
#define __KUNIT_BINARY(test, kind, left, op, right, fmt, ...)		\
	do {								\
		__typeof__(left) __l = (left);				\
		__typeof__(right) __r = (right);			\
		if (!(__l op __r)) {					\
			kunit_ustub_fail_binary(test, kind, __FILE__,	\
						__LINE__, #op, #left,	\
						(long long)__l, #right,	\
						(long long)__r);	\
			__KUNIT_MSG(test, kind, fmt, ##__VA_ARGS__);	\
		}							\
	} while (0)

#define __KUNIT_PTR(test, kind, left, op, right, fmt, ...)		\
	do {								\
		const void *__l = (left);				\
		const void *__r = (right);				\
		if (!(__l op __r)) {					\
			kunit_ustub_fail_ptr(test, kind, __FILE__,	\
					     __LINE__, #op, #left, __l,	\
					     #right, __r);		\
			__KUNIT_MSG(test, kind, fmt, ##__VA_ARGS__);	\
		}							\
	} while (0)

#define __KUNIT_MSG(test, kind, fmt, ...)				\
	do {								\
		if ((fmt)[0])						\
			kunit_ustub_msg(test, "%s" fmt, "", ##__VA_ARGS__);	\
		if ((kind) == KUNIT_USTUB_ASSERT)			\
			kunit_ustub_end_case(test, KUNIT_FAILURE);	\
	} while (0)

#define __KUNIT_STREQ(test, kind, left, right, eq, fmt, ...)		\
	do {								\
		const char *__l = (left), *__r = (right);		\
		if ((strcmp(__l, __r) == 0) != (eq)) {			\
			kunit_ustub_fail(test, kind, __FILE__, __LINE__,\
					 "Expected %s %s %s: \"%s\" vs \"%s\"", \
					 #left, (eq) ? "==" : "!=",	\
					 #right, __l, __r);		\
			__KUNIT_MSG(test, kind, fmt, ##__VA_ARGS__);	\
		}							\
	} while (0)

#define __KUNIT_MEMEQ(test, kind, left, right, size, eq, fmt, ...)	\
	do {								\
		if (kunit_ustub_memcmp_fail(test, kind, __FILE__,	\
					    __LINE__, #left, (left),	\
					    #right, (right), (size),	\
					    (eq)))			\
			__KUNIT_MSG(test, kind, fmt, ##__VA_ARGS__);	\
	} while (0)

/* The kernel's IS_ERR_OR_NULL(): NULL or one of the last 4095 addresses. */
#define __KUNIT_NOT_ERR_OR_NULL(test, kind, ptr, fmt, ...)		\
	do {								\
		const void *__p = (ptr);				\
		if (!__p || (uintptr_t)__p >= (uintptr_t)-4095) {	\
			kunit_ustub_fail(test, kind, __FILE__, __LINE__,\
					 "Expected %s is not error, is not NULL, but is: %p", \
					 #ptr, __p);			\
			__KUNIT_MSG(test, kind, fmt, ##__VA_ARGS__);	\
		}							\
	} while (0)

/*
 * Every expectation and assertion of <kunit/test.h> 6.12, each with its
 * _MSG form: the message is printed after the values when it fails.
 */

#define KUNIT_EXPECT_EQ_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, l, <, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, l, <=, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, l, >, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, l, >=, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, !!(c), ==, true, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_EXPECT, !!(c), ==, false, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_EXPECT, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(t, l, r, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_EXPECT, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(t, p, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_EXPECT, p, ==, NULL, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_EXPECT, p, !=, NULL, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(t, p, f, ...)	__KUNIT_NOT_ERR_OR_NULL(t, KUNIT_USTUB_EXPECT, p, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, f, ...)	__KUNIT_STREQ(t, KUNIT_USTUB_EXPECT, l, r, true, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(t, l, r, f, ...)	__KUNIT_STREQ(t, KUNIT_USTUB_EXPECT, l, r, false, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMEQ_MSG(t, l, r, n, f, ...)	__KUNIT_MEMEQ(t, KUNIT_USTUB_EXPECT, l, r, n, true, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMNEQ_MSG(t, l, r, n, f, ...)	__KUNIT_MEMEQ(t, KUNIT_USTUB_EXPECT, l, r, n, false, f, ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_EXPECT_EQ_MSG(t, l, r, "")
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_EXPECT_NE_MSG(t, l, r, "")
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_EXPECT_LT_MSG(t, l, r, "")
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_EXPECT_LE_MSG(t, l, r, "")
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_EXPECT_GT_MSG(t, l, r, "")
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_EXPECT_GE_MSG(t, l, r, "")
#define KUNIT_EXPECT_PTR_EQ(t, l, r)	KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, "")
#define KUNIT_EXPECT_PTR_NE(t, l, r)	KUNIT_EXPECT_PTR_NE_MSG(t, l, r, "")
#define KUNIT_EXPECT_STREQ(t, l, r)	KUNIT_EXPECT_STREQ_MSG(t, l, r, "")
#define KUNIT_EXPECT_STRNEQ(t, l, r)	KUNIT_EXPECT_STRNEQ_MSG(t, l, r, "")
#define KUNIT_EXPECT_TRUE(t, c)	KUNIT_EXPECT_TRUE_MSG(t, c, "")
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_EXPECT_FALSE_MSG(t, c, "")
#define KUNIT_EXPECT_NULL(t, p)	KUNIT_EXPECT_NULL_MSG(t, p, "")
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_EXPECT_NOT_NULL_MSG(t, p, "")
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(t, p)	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(t, p, "")
#define KUNIT_EXPECT_MEMEQ(t, l, r, n)	KUNIT_EXPECT_MEMEQ_MSG(t, l, r, n, "")
#define KUNIT_EXPECT_MEMNEQ(t, l, r, n)	KUNIT_EXPECT_MEMNEQ_MSG(t, l, r, n, "")

#define KUNIT_ASSERT_EQ_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, l, <, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, l, <=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, l, >, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, l, >=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, !!(c), ==, true, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, f, ...)	__KUNIT_BINARY(t, KUNIT_USTUB_ASSERT, !!(c), ==, false, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_ASSERT, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(t, l, r, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_ASSERT, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(t, p, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_ASSERT, p, ==, NULL, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, f, ...)	__KUNIT_PTR(t, KUNIT_USTUB_ASSERT, p, !=, NULL, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(t, p, f, ...)	__KUNIT_NOT_ERR_OR_NULL(t, KUNIT_USTUB_ASSERT, p, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_STREQ_MSG(t, l, r, f, ...)	__KUNIT_STREQ(t, KUNIT_USTUB_ASSERT, l, r, true, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(t, l, r, f, ...)	__KUNIT_STREQ(t, KUNIT_USTUB_ASSERT, l, r, false, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ_MSG(t, l, r, n, f, ...)	__KUNIT_MEMEQ(t, KUNIT_USTUB_ASSERT, l, r, n, true, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMNEQ_MSG(t, l, r, n, f, ...)	__KUNIT_MEMEQ(t, KUNIT_USTUB_ASSERT, l, r, n, false, f, ##__VA_ARGS__)

#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_ASSERT_EQ_MSG(t, l, r, "")
#define KUNIT_ASSERT_NE(t, l, r)	KUNIT_ASSERT_NE_MSG(t, l, r, "")
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_ASSERT_LT_MSG(t, l, r, "")
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_ASSERT_LE_MSG(t, l, r, "")
#define KUNIT_ASSERT_GT(t, l, r)	KUNIT_ASSERT_GT_MSG(t, l, r, "")
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_ASSERT_GE_MSG(t, l, r, "")
#define KUNIT_ASSERT_PTR_EQ(t, l, r)	KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, "")
#define KUNIT_ASSERT_PTR_NE(t, l, r)	KUNIT_ASSERT_PTR_NE_MSG(t, l, r, "")
#define KUNIT_ASSERT_STREQ(t, l, r)	KUNIT_ASSERT_STREQ_MSG(t, l, r, "")
#define KUNIT_ASSERT_STRNEQ(t, l, r)	KUNIT_ASSERT_STRNEQ_MSG(t, l, r, "")
#define KUNIT_ASSERT_TRUE(t, c)	KUNIT_ASSERT_TRUE_MSG(t, c, "")
#define KUNIT_ASSERT_FALSE(t, c)	KUNIT_ASSERT_FALSE_MSG(t, c, "")
#define KUNIT_ASSERT_NULL(t, p)	KUNIT_ASSERT_NULL_MSG(t, p, "")
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_ASSERT_NOT_NULL_MSG(t, p, "")
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p)	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(t, p, "")
#define KUNIT_ASSERT_MEMEQ(t, l, r, n)	KUNIT_ASSERT_MEMEQ_MSG(t, l, r, n, "")
#define KUNIT_ASSERT_MEMNEQ(t, l, r, n)	KUNIT_ASSERT_MEMNEQ_MSG(t, l, r, n, "")

#endif /* _BQLM_USERSPACE_KUNIT_TEST_H */
