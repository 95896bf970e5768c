/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the userspace stand-in for <kunit/resource.h>: the deferred
 * actions are declared in the stand-in's <kunit/test.h>, which the
 * kernel's <kunit/test.h> includes this header from as well.
 */
#ifndef _BQLM_USERSPACE_KUNIT_RESOURCE_H
#define _BQLM_USERSPACE_KUNIT_RESOURCE_H

#include <kunit/test.h>

#endif /* _BQLM_USERSPACE_KUNIT_RESOURCE_H */
