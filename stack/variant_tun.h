/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - included first by each generated tun object (gen/tun_V.c, see
 * scripts/kunit-stack.sh), which defines BQLM_STACK_PFX: tun.c's three
 * exports are renamed per variant (CONFIG_TUN=y, so <linux/if_tun.h>
 * declares them, renamed too), and tun_init() registers nothing: the suite
 * creates its devices itself, as TUNSETIFF does.
 */
#ifndef _BQLM_STACK_VARIANT_TUN_H
#define _BQLM_STACK_VARIANT_TUN_H

#define BQLM_STACK_SYM3(p, n)	p##n
#define BQLM_STACK_SYM2(p, n)	BQLM_STACK_SYM3(p, n)
#define BQLM_STACK_SYM(n)	BQLM_STACK_SYM2(BQLM_STACK_PFX, n)

#define tun_get_socket		BQLM_STACK_SYM(tun_get_socket)
#define tun_get_tx_ring		BQLM_STACK_SYM(tun_get_tx_ring)
#define tun_ptr_free		BQLM_STACK_SYM(tun_ptr_free)

#include <linux/module.h>
#include <linux/init.h>
#include <linux/if_tun.h>

#include "stack.h"

#undef module_init
#define module_init(fn)							\
	static initcall_t __used __initdata BQLM_STACK_SYM(initcall) = fn

#endif /* _BQLM_STACK_VARIANT_TUN_H */
