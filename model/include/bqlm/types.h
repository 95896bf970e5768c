/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - basic types for the public headers.
 *
 * The public headers are included by kernel code (the KUnit suites) and by
 * userspace code (the CLI, the CMocka harness). This header pulls in the
 * handful of standard types (and the errno values) they use from the
 * right place.
 */
#ifndef _BQLM_TYPES_H
#define _BQLM_TYPES_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/stddef.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

/* The kernel's u64: unsigned long long on every architecture. */
typedef unsigned long long u64;
#endif

#endif /* _BQLM_TYPES_H */
