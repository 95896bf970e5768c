/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what every KUnit file of kunit/ (and of stack/ and
 * userspace-tests/) declares the same way.
 *
 * One suite a model file: BQLM_KUNIT_SUITE() defines it and registers it,
 * in the kernel (lib/kunit) and in the userspace stand-in alike. The
 * module's license and description are kunit/module.c's, once for the
 * whole bqlm_kunit object. bqlm_kunit_zalloc(): a case's memory, checked.
 */
#ifndef _BQLM_KUNIT_H
#define _BQLM_KUNIT_H

#include <kunit/test.h>

/**
 * BQLM_KUNIT_SUITE() - define and register a suite
 * @sname: the suite's name, an identifier ("bqlm_dql"); the suite is
 *	@sname##_suite
 * @cases: its struct kunit_case array, {}-terminated
 * @...: more struct kunit_suite fields (.init = ..., .attr = ...)
 */
#define BQLM_KUNIT_SUITE(sname, cases, ...)				\
	static struct kunit_suite sname##_suite = {			\
		.name = #sname,						\
		.test_cases = cases,					\
		__VA_ARGS__						\
	};								\
	kunit_test_suite(sname##_suite)

/**
 * BQLM_EXPECT_EDGE() - a configuration field at the edge of its range
 * @test: the case
 * @check: the configuration check: 0 or -EINVAL
 * @cfg: the configuration, a pointer; @field is left at @bad
 * @field: the field (a name)
 * @ok: a value @check(@cfg) takes
 * @bad: the value past it, which @check(@cfg) refuses with -EINVAL
 */
#define BQLM_EXPECT_EDGE(test, check, cfg, field, ok, bad)		\
	do {								\
		(cfg)->field = (ok);					\
		KUNIT_EXPECT_EQ_MSG(test, check(cfg), 0, "%s = %s",	\
				    #field, #ok);			\
		(cfg)->field = (bad);					\
		KUNIT_EXPECT_EQ_MSG(test, check(cfg), -EINVAL,		\
				    "%s = %s", #field, #bad);		\
	} while (0)

/**
 * bqlm_kunit_zalloc() - zeroed memory that lives as long as the case
 * @test: the case
 * @size: its size in bytes
 *
 * Ends the case (a failed assertion) if the memory cannot be had.
 *
 * Return: the memory, zeroed; kunit frees it when the case ends.
 */
static inline void *bqlm_kunit_zalloc(struct kunit *test, size_t size)
{
	void *p = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL_MSG(test, p, "%zu bytes", size);
	return p;
}

#endif /* _BQLM_KUNIT_H */
