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
 * and has a kernel thread run kmemleak_scan() twice under its scan_mutex,
 * both found by name (both are static in mm/kmemleak.c;
 * CONFIG_KALLSYMS_ALL). A thread, because the notifier runs in init's
 * task, which has no mm and is no kthread: kmemleak's scan_should_stop()
 * would call kthread_should_stop() there (a warning, then a crash). With
 * kmemleak.verbose=1 on the command line (scripts/kunit-debug.sh) each
 * leak is printed as it is found ("unreferenced object ..." and the
 * allocation's backtrace), and the scan counts them ("N new suspected
 * memory leaks"); scripts/kunit-debug.sh fails on either, and on the
 * line below saying that no scan could be made.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/reboot.h>

/* kmemleak's minimum object age for a report is 5 s (MSECS_MIN_AGE) */
#define BQLM_KMEMLEAK_AGE_MS	5500

struct bqlm_kmemleak_scan {
	void (*scan)(void);
	struct mutex *scan_mutex;
	struct completion done;
};

static int bqlm_kmemleak_scan_fn(void *data)
{
	struct bqlm_kmemleak_scan *s = data;
	int i;

	for (i = 0; i < 2; i++) {
		mutex_lock(s->scan_mutex);
		s->scan();
		mutex_unlock(s->scan_mutex);
	}
	complete(&s->done);
	return 0;
}

static int bqlm_kmemleak_halt(struct notifier_block *nb, unsigned long code,
			      void *unused)
{
	unsigned long scan = kallsyms_lookup_name("kmemleak_scan");
	unsigned long lock = kallsyms_lookup_name("scan_mutex");
	struct bqlm_kmemleak_scan s = {
		.scan = (void (*)(void))scan,
		.scan_mutex = (struct mutex *)lock,
	};
	struct task_struct *t;

	if (!scan || !lock) {
		pr_err("bqlm kmemleak: no scan: kmemleak_scan or scan_mutex not in kallsyms (CONFIG_KALLSYMS_ALL?)\n");
		return NOTIFY_DONE;
	}
	pr_info("bqlm kmemleak: the suites are done; scanning in %d ms\n",
		BQLM_KMEMLEAK_AGE_MS);
	msleep(BQLM_KMEMLEAK_AGE_MS);
	init_completion(&s.done);
	t = kthread_run(bqlm_kmemleak_scan_fn, &s, "bqlm-kmemleak");
	if (IS_ERR(t)) {
		pr_err("bqlm kmemleak: no scan: no thread (%ld)\n", PTR_ERR(t));
		return NOTIFY_DONE;
	}
	wait_for_completion(&s.done);
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
