// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the KUnit module's information: one module (bqlm_kunit) of
 * every suite of kunit/ and the model they test (see the top-level Kbuild).
 */
#include <kunit/test.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of bqlmodel, a reference model of Linux DQL/BQL and its drivers");
