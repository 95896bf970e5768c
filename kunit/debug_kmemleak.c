// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - make kunit-debug: a kmemleak scan once every suite has run.
 *
 * Built only with CONFIG_DEBUG_KMEMLEAK (kunit/debug.kunitconfig). The UML
 * kernel that runs the suites has no user space to write "scan" to
 * /sys/kernel/debug/kmemleak, kmemleak's debugfs file takes its command
 * from user memory only (kernel_write() refuses a ->write file), and
 * kmemleak's own thread scans first a minute after boot and then every ten
 * minutes. KUnit halts the kernel when its suites are done
 * (kunit_shutdown=halt, as kunit.py boots UML): this reboot notifier runs
 * then, in process context, waits out kmemleak's minimum object age (5 s),
 * and runs kmemleak_scan() twice under its scan_mutex, both found by name
 * (both are static in mm/kmemleak.c; CONFIG_KALLSYMS_ALL). With
 * kmemleak.verbose=1 on the command line (scripts/kunit-debug.sh) each
 * leak is printed as it is found ("unreferenced object ..." and the
 * allocation's backtrace), and the scan counts them ("N new suspected
 * memory leaks"); scripts/kunit-debug.sh fails on either, and on the
 * line below saying that no scan could be made.
 */
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/reboot.h>

/* kmemleak's minimum object age for a report is 5 s (MSECS_MIN_AGE) */
#define BQLM_KMEMLEAK_AGE_MS	5500

static int bqlm_kmemleak_halt(struct notifier_block *nb, unsigned long code,
			      void *unused)
{
	unsigned long scan = kallsyms_lookup_name("kmemleak_scan");
	unsigned long lock = kallsyms_lookup_name("scan_mutex");
	void (*kmemleak_scan)(void) = (void (*)(void))scan;
	struct mutex *scan_mutex = (struct mutex *)lock;
	int i;

	if (!scan || !lock) {
		pr_err("bqlm kmemleak: no scan: kmemleak_scan or scan_mutex not in kallsyms (CONFIG_KALLSYMS_ALL?)\n");
		return NOTIFY_DONE;
	}
	pr_info("bqlm kmemleak: the suites are done; scanning in %d ms\n",
		BQLM_KMEMLEAK_AGE_MS);
	msleep(BQLM_KMEMLEAK_AGE_MS);
	for (i = 0; i < 2; i++) {
		mutex_lock(scan_mutex);
		kmemleak_scan();
		mutex_unlock(scan_mutex);
	}
	pr_info("bqlm kmemleak: scan done\n");
	return NOTIFY_DONE;
}

static struct notifier_block bqlm_kmemleak_nb = {
	.notifier_call = bqlm_kmemleak_halt,
};

static int __init bqlm_kmemleak_init(void)
{
	return register_reboot_notifier(&bqlm_kmemleak_nb);
}
late_initcall(bqlm_kmemleak_init);
