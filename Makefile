# SPDX-License-Identifier: GPL-2.0
#
# bqlmodel - userspace build, tests, coverage and the KUnit run.
#
# "make help" lists the targets, one line each: the "## " comment on each
# target's line, here and in fuzz/fuzz.mk, is its entry (make check's
# check-help requires every target the README names to have one).

SHELL		:= /bin/bash
CC		?= gcc
BUILD		:= build
# One list of objects for both builds: the kernel's, in Kbuild.
include Kbuild
MODEL_SRCS	:= $(patsubst %.o,%.c,$(filter model/%,$(bqlm_kunit-y)))
KUNIT_SRCS	:= $(patsubst %.o,%.c,$(filter kunit/%,$(bqlm_kunit-y)))
USTEST_SRCS	:= $(wildcard userspace-tests/*.c)

WARN		:= -Wall -Wextra -Werror -Wno-sign-compare
CPPFLAGS	:= -Imodel/include -Imodel/core
STD		:= -std=gnu11
OPT		?= -O2 -g
TEST_CPPFLAGS	:= $(CPPFLAGS) -Iuserspace-tests/include -Ikunit \
		   -DBQLM_SRCDIR='"$(CURDIR)"'
SAN		:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
COV		:= --coverage -fprofile-update=single

# Minimum coverage of model/ that "make coverage" accepts, in percent.
COV_MIN_LINES	:= 95
COV_MIN_BRANCH	:= 85

.PHONY: all check coverage kunit kunit-build kunit-replay kunit-golden deps clean check-deps m32 bench
.PHONY: install uninstall check-install check-headers check-json check-svg check-cli print-version
.PHONY: check-standin check-outputs
.PHONY: check-recipes check-help check-patches help promote

# The library's version; the shared library's soname is libbqlm.so.$(SOVERSION).
VERSION		:= 0.1.0
SOVERSION	:= 0
SONAME		:= libbqlm.so.$(SOVERSION)
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
# The installed headers: model/include/bqlm/ but prng.h, a test helper that
# needs the model's internal header.
PUBLIC_HDRS	:= $(filter-out %/prng.h,$(wildcard model/include/bqlm/*.h))

all: $(BUILD)/libbqlm.a $(BUILD)/$(SONAME) $(BUILD)/bqlm ## build/libbqlm.a, build/libbqlm.so.0 and the CLI build/bqlm (the default)

# $(1): build flavour directory, $(2): extra CFLAGS. Each object's header
# dependencies come from the compiler (-MMD -MP: a .d file beside the .o,
# included below), so an edited header anywhere (tools/cli.h too) rebuilds
# exactly the objects that include it.
# Objects built before the .d files existed are older than the stamp and
# are rebuilt once.
define flavour
$(BUILD)/$(1)/%.o: %.c $(BUILD)/.mmd-stamp | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(STD) $$(WARN) $(2) $$(XOPT) $$(TEST_CPPFLAGS) -MMD -MP -c $$< -o $$@
endef

$(BUILD)/.mmd-stamp:
	@mkdir -p $(@D)
	@touch $@

$(eval $(call flavour,rel,$(OPT)))
$(eval $(call flavour,asan,-O1 -g $(SAN)))
$(eval $(call flavour,cov,-O0 -g $(COV)))
$(eval $(call flavour,m32,-m32 -isystem $(BUILD)/m32/include $(OPT)))
$(eval $(call flavour,pic,-fPIC $(OPT)))

objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

# The explorer's loop and the step functions of the models it runs most
# (-O3: about 7 % fewer seconds on bqlm explore; make bench). The DQL,
# whose instructions make bench counts against the kernel's, stays at
# $(OPT).
XOPT_SRCS	:= model/core/explore.c model/core/invariants.c \
		   model/core/memory_model.c \
		   model/kernel/netdevice.c model/kernel/ptr_ring.c \
		   model/usbnet/usbnet.c model/usbnet/usbnet_xsys.c \
		   model/tun/tun.c model/tun/tun_bql.c model/tun/tun_xsys.c
$(foreach f,rel pic,$(call objs,$(f),$(XOPT_SRCS))): XOPT := -O3

$(BUILD)/libbqlm.a: $(call objs,rel,$(MODEL_SRCS))
	@rm -f $@
	$(AR) rcs $@ $^

# The shared library exports the functions and objects the public headers
# declare, nothing else: the version script lists the defined symbols of
# the objects that appear as words in $(PUBLIC_HDRS).
$(BUILD)/libbqlm.map: $(call objs,pic,$(MODEL_SRCS)) $(PUBLIC_HDRS) scripts/libbqlm-map.sh
	@scripts/libbqlm-map.sh BQLM_$(SOVERSION) "$(PUBLIC_HDRS)" \
	  $(call objs,pic,$(MODEL_SRCS)) > $@

$(BUILD)/$(SONAME): $(call objs,pic,$(MODEL_SRCS)) $(BUILD)/libbqlm.map
	$(CC) -shared -Wl,-soname,$(SONAME) \
	  -Wl,--version-script,$(BUILD)/libbqlm.map -o $@ \
	  $(call objs,pic,$(MODEL_SRCS))

$(BUILD)/bqlm.pc: Makefile
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
	  'includedir=$(INCLUDEDIR)' '' 'Name: bqlm' \
	  'Description: reference model of Linux DQL/BQL and an explorer of driver interleavings' \
	  'Version: $(VERSION)' 'Libs: -L$${libdir} -lbqlm' \
	  'Cflags: -I$${includedir}' > $@

# make install PREFIX=/usr/local DESTDIR=/tmp/stage; make uninstall the same
install: $(BUILD)/libbqlm.a $(BUILD)/$(SONAME) $(BUILD)/bqlm $(BUILD)/bqlm.pc ## PREFIX=, DESTDIR=: the CLI, the libraries, the headers, bqlm.pc, bqlm(1)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	  $(DESTDIR)$(INCLUDEDIR)/bqlm $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/bqlm $(DESTDIR)$(BINDIR)/bqlm
	install -m 644 $(BUILD)/libbqlm.a $(DESTDIR)$(LIBDIR)/libbqlm.a
	install -m 755 $(BUILD)/$(SONAME) $(DESTDIR)$(LIBDIR)/$(SONAME).$(VERSION)
	ln -sfn $(SONAME).$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sfn $(SONAME) $(DESTDIR)$(LIBDIR)/libbqlm.so
	install -m 644 $(PUBLIC_HDRS) $(DESTDIR)$(INCLUDEDIR)/bqlm/
	install -m 644 $(BUILD)/bqlm.pc $(DESTDIR)$(PKGCONFIGDIR)/bqlm.pc
	install -m 644 docs/bqlm.1 $(DESTDIR)$(MANDIR)/man1/bqlm.1

uninstall: ## remove what make install put there (the same PREFIX=, DESTDIR=)
	rm -f $(DESTDIR)$(BINDIR)/bqlm $(DESTDIR)$(LIBDIR)/libbqlm.a \
	  $(DESTDIR)$(LIBDIR)/$(SONAME).$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libbqlm.so \
	  $(DESTDIR)$(PKGCONFIGDIR)/bqlm.pc $(DESTDIR)$(MANDIR)/man1/bqlm.1 \
	  $(addprefix $(DESTDIR)$(INCLUDEDIR)/bqlm/,$(notdir $(PUBLIC_HDRS)))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/bqlm 2>/dev/null

# Every public header alone, as C and as C++, warning-free.
check-headers: $(PUBLIC_HDRS) | check-deps ## every public header alone, as C and as C++, warning-free
	@scripts/check-install.sh headers "$(PUBLIC_HDRS)"

# Install into a stage under build/, build examples/ against it through
# pkg-config (static and shared), run them, check the exports, uninstall.
check-install: $(BUILD)/libbqlm.a $(BUILD)/$(SONAME) $(BUILD)/bqlm $(BUILD)/bqlm.pc | check-deps ## install into build/stage, build and run examples/ through pkg-config
	@MAKE="$(MAKE)" CC="$(CC)" scripts/check-install.sh install \
	  $(CURDIR)/$(BUILD)/stage

# bqlm explore --json: valid, and the same verdict and trace as the text
check-json: $(BUILD)/bqlm ## bqlm explore --json: valid, the same verdict and trace as the text
	@scripts/check-install.sh json $(BUILD)/bqlm

# bqlm command lines a user gets wrong: exit status and message of each
check-cli: $(BUILD)/bqlm ## the bqlm command lines a user gets wrong: exit status and message
	@scripts/check-cli.sh $(BUILD)/bqlm userspace-tests/cli/cases.txt

# bqlm's output files written whole or not at all: a failed write, Ctrl-C
check-outputs: $(BUILD)/bqlm ## bqlm's output files written whole or not at all (a failed write, Ctrl-C)
	@scripts/check-outputs.sh $(BUILD)/bqlm
# The model-side recipes of docs/hacking.md, followed on a scratch copy
check-recipes: ## docs/hacking.md's model recipes followed on a scratch copy
	@scripts/check-recipes.sh

# Every patch of real/patches/ applies on the kernel tree (KDIR=, else
# make kunit's unpack of linux-source-6.12); make kunit runs it first.
check-patches: ## every patch of real/patches/ applies on the kernel tree (KDIR=)
	@scripts/check-patches.sh

# The targets: the "## " comment on each target's line, in the order of
# the makefiles (awk: the first line of a target that has one); "=": all
# of them, fuzz/fuzz.mk too, read when the recipe runs.
HELP_MAKEFILES	= $(filter-out %.d,$(MAKEFILE_LIST))
help: ## this list
	@echo 'make TARGET (docs/hacking.md, README.md):'
	@awk '/^[a-z][a-z0-9-]*:([^=]|$$).*## / { \
		t = $$0; sub(/:.*/, "", t); h = $$0; sub(/^[^#]*## /, "", h); \
		if (!seen[t]++) printf "  %-21s %s\n", t, h }' $(HELP_MAKEFILES)

# Every target the README names is in make help.
check-help: ## every target the README names has its line in make help
	@MAKE="$(MAKE)" scripts/check-help.sh README.md

# bqlm sim --svg: the variants on the same axes
check-svg: $(BUILD)/bqlm ## bqlm sim --svg: the variants on the same axes
	@scripts/check-install.sh svg $(BUILD)/bqlm

print-version: ## the library's version
	@echo $(VERSION)

# The command line front end (tools/bqlm.c) on the model library.
CLI_SRCS	:= $(wildcard tools/*.c)

$(BUILD)/bqlm: $(call objs,rel,$(CLI_SRCS)) $(BUILD)/libbqlm.a
	$(CC) -o $@ $^ -lm

bench: $(BUILD)/bqlm ## explorer throughput, DQL cost against the kernel's, simulator speed
	@$(BUILD)/bqlm bench
	@MAKE="$(MAKE)" scripts/dql-insns.sh "$(KSRC)"

# make bench also counts the instructions of a DQL operation on the model
# and on the kernel's own lib/dynamic_queue_limits.c, built in userspace
# from the unpacked tree with the same flags (tools/bench/kshim.h stands
# in for the kernel headers it includes).
KSRC		?= $(or $(KDIR),.cache/linux-source-6.12)
KSHIM		:= $(BUILD)/kshim
KSHIM_STUBS	:= linux/types.h linux/kernel.h linux/jiffies.h \
		   linux/compiler.h linux/export.h linux/bitops.h asm/bug.h \
		   trace/events/napi.h
KDQL_FLAGS	:= -std=gnu11 $(OPT) -D__KERNEL__ -I$(KSHIM) -Itools/bench \
		   -include tools/bench/kshim.h

$(KSHIM)/stamp: Makefile
	@mkdir -p $(addprefix $(KSHIM)/,$(sort $(dir $(KSHIM_STUBS))))
	@for h in $(KSHIM_STUBS); do : > $(KSHIM)/$$h; done
	@echo '#include "$(abspath $(KSRC))/include/linux/dynamic_queue_limits.h"' \
	  > $(KSHIM)/linux/dynamic_queue_limits.h
	@touch $@

$(BUILD)/bench/kdql.o: $(KSRC)/lib/dynamic_queue_limits.c tools/bench/kshim.h $(KSHIM)/stamp
	@mkdir -p $(@D)
	$(CC) $(KDQL_FLAGS) -c $< -o $@

$(BUILD)/bench/kdql_loop.o: tools/bench/kdql_loop.c tools/bench/dql_loop.h tools/bench/kshim.h $(KSHIM)/stamp
	@mkdir -p $(@D)
	$(CC) $(KDQL_FLAGS) -c $< -o $@

$(BUILD)/dql-insns: $(call objs,rel,tools/bench/dql_insns.c) $(BUILD)/bench/kdql.o $(BUILD)/bench/kdql_loop.o $(BUILD)/libbqlm.a
	$(CC) -o $@ $^

TEST_OBJS = $(call objs,$(1),$(MODEL_SRCS) $(KUNIT_SRCS) $(USTEST_SRCS))
# userspace-tests/alloc_failure_test.c makes a chosen calloc() fail
TEST_LDFLAGS	:= -Wl,--wrap=calloc

$(BUILD)/asan/bqlm-kunit: $(call TEST_OBJS,asan)
	$(CC) $(SAN) $(TEST_LDFLAGS) -o $@ $^ -lcmocka

$(BUILD)/cov/bqlm-kunit: $(call TEST_OBJS,cov)
	$(CC) $(COV) $(TEST_LDFLAGS) -o $@ $^ -lcmocka

# 32-bit (unsigned long of 32 bits, as on i386 and arm kernels): the same
# suites, built with -m32 against Debian's libcmocka0:i386.
M32_CMOCKA	:= /usr/lib/i386-linux-gnu/libcmocka.so.0

# Debian's gcc-multilib metapackage only adds the link /usr/include/asm,
# which -m32 compiles need, and conflicts with every cross compiler: apt
# removes it when one is installed (make kunit ARCH=s390, make kunit-build).
# The same link in the build tree serves the -m32 build in either case.
M32_ASM		:= $(BUILD)/m32/include/asm

$(M32_ASM):
	@mkdir -p $(@D)
	@ln -sfn /usr/include/$(shell $(CC) -print-multiarch)/asm $@

$(call TEST_OBJS,m32): | $(M32_ASM)

$(BUILD)/m32/bqlm-kunit: $(call TEST_OBJS,m32)
	$(CC) -m32 $(TEST_LDFLAGS) -o $@ $^ $(M32_CMOCKA)

# Run natively where the kernel runs i386 binaries, else under qemu-i386.
# Without Debian's i386 libcmocka the suites are compiled with -m32 only.
ifneq ($(wildcard $(M32_CMOCKA)),)
m32: $(BUILD)/m32/bqlm-kunit ## the suites built with -m32 and run (32-bit; part of make check)
	@scripts/run32.sh $(BUILD)/m32/bqlm-kunit > $(BUILD)/m32.ktap || \
	  { cat $(BUILD)/m32.ktap; exit 1; }
	@echo "m32: $$(tail -n 1 $(BUILD)/m32.ktap | sed 's/^userspace/32-bit/')"
else
m32: $(call TEST_OBJS,m32)
	@echo "m32: built with -m32; not run: $(M32_CMOCKA) missing (libcmocka0:i386)"
endif

# The stand-in of <kunit/test.h> checked by its own tests, a binary of
# their own (two of its cases fail on purpose: scripts/check-standin.sh).
STANDIN_SRCS	:= $(wildcard userspace-tests/selftest/*.c) userspace-tests/kunit_cmocka.c

$(BUILD)/asan/standin-selftest: $(call objs,asan,$(STANDIN_SRCS))
	$(CC) $(SAN) -o $@ $^ -lcmocka

check-standin: $(BUILD)/asan/standin-selftest ## the CMocka stand-in of <kunit/test.h> against its own tests
	@scripts/check-standin.sh $<

check-deps: ## the userspace targets' Debian packages: installed as root, else named
	@scripts/deps.sh check

deps: ## install the Debian packages the userspace targets need
	@scripts/deps.sh install

check: $(BUILD)/asan/bqlm-kunit m32 check-standin check-headers check-install check-json check-svg check-cli check-outputs check-help ## the suites in userspace (CMocka, ASan+UBSan, 32-bit) and the check-* targets
	@mkdir -p $(BUILD)/cmocka-xml
	@rm -f $(BUILD)/cmocka-xml/*.xml
	@set -o pipefail; ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(BUILD)/asan/bqlm-kunit --xml $(BUILD)/cmocka-xml $(T) \
	  | tee $(BUILD)/userspace.ktap
	@scripts/parse-ktap.sh $(BUILD)/userspace.ktap

# The pinned figures of the exploration tables (kunit/expect/*.h) rewritten
# from a run of the userspace suites, whose verdicts are the kernel run's
# (make kunit compares them): git diff kunit/expect/ is then every figure
# a model change moved, to review and commit. T=GLOB: those suites only,
# the rows of the others kept (docs/hacking.md).
promote: $(BUILD)/asan/bqlm-kunit ## rewrite kunit/expect/*.h (the pinned figures) from a run of the suites [T=GLOB]
	@$(BUILD)/asan/bqlm-kunit $(T) > $(BUILD)/promote.ktap || true
	@scripts/promote.py $(if $(T),--keep) $(BUILD)/promote.ktap

coverage: $(BUILD)/cov/bqlm-kunit ## line and branch coverage of model/, with a gate
	@find $(BUILD)/cov/model -name '*.gcda' -delete 2>/dev/null || true
	@$(BUILD)/cov/bqlm-kunit > $(BUILD)/coverage.ktap || \
	  { cat $(BUILD)/coverage.ktap; exit 1; }
	@scripts/coverage.sh $(BUILD) $(COV_MIN_LINES) $(COV_MIN_BRANCH)

# The suites in a UML kernel (or, with ARCH=, in a QEMU kernel of that
# architecture), then the same suites in userspace with the same word size
# (the -m32 build for a 32-bit kernel), and a case-by-case comparison of the
# two runs' names and verdicts.
ifdef KDIR
export KDIR
endif
KUNIT_ARCH	:= $(or $(ARCH),um)
KUNIT_RESULTS	:= $(BUILD)/kunit$(if $(filter um,$(KUNIT_ARCH)),,-$(KUNIT_ARCH))-results.json
ifneq ($(filter i386 arm,$(KUNIT_ARCH)),)
KUNIT_US	:= $(BUILD)/m32/bqlm-kunit
KUNIT_US_RUN	:= scripts/run32.sh $(KUNIT_US)
KUNIT_US_KTAP	:= $(BUILD)/m32.ktap
else
KUNIT_US	:= $(BUILD)/asan/bqlm-kunit
KUNIT_US_RUN	:= $(KUNIT_US)
KUNIT_US_KTAP	:= $(BUILD)/userspace.ktap
endif

kunit: $(KUNIT_US) ## the suites in a UML kernel (ARCH=i386|x86_64|s390: QEMU), vs userspace
	@ARCH=$(KUNIT_ARCH) scripts/kunit.sh
	@$(KUNIT_US_RUN) > $(KUNIT_US_KTAP) || true
	@scripts/parse-ktap.sh $(KUNIT_US_KTAP) || true
	@scripts/compare-results.py $(KUNIT_RESULTS) \
	  $(KUNIT_US_KTAP:.ktap=-results.json)

# The kernel for ARCH built, linked and W=1-checked, nothing run.
kunit-build: ## ARCH=...: build the kernel (arm, arm64 too) and W=1-check it, run nothing
	@ARCH=$(KUNIT_ARCH) scripts/kunit.sh --build-only

# Every barrier claim under the Linux-kernel memory model (herd7), each
# compared with the explorer's verdict under pso, run live. herd7 comes
# from HERD7=, PATH, or is built from HERDTOOLS_TARBALL= (a herdtools7
# source tarball); LKMM_TESTS= runs only the litmus files named.
.PHONY: lkmm
lkmm: $(BUILD)/bqlm ## the barrier claims (lkmm/) under the kernel's memory model (herd7)
	@HERD7="$(HERD7)" HERDTOOLS_TARBALL="$(HERDTOOLS_TARBALL)" \
	  scripts/lkmm.sh $(LKMM_TESTS)

# The audit: the Coccinelle rules of audit/ over the kernel tree's BQL
# drivers, each finding run on the explorer (scripts/audit.sh installs
# coccinelle when root). Both only read the tree (KDIR= or Debian's).
# The recipe exits with the audit's own status: 0 clean, 1 findings,
# 2 usage, 3 incomplete. GNU make itself exits 0 or 2, so make audit
# succeeds for 0 only and otherwise ends on "Error N", N the audit's
# status; the number is also scripts/audit.sh's exit and
# build/audit.status (docs/audit.md, "Exit status").
.PHONY: audit audit-selftest
audit: $(BUILD)/bqlm ## every BQL driver of the tree read by the rules of audit/ (KDIR=)
	@KDIR="$(KDIR)" FILES="$(FILES)" AUDIT_ARGS="$(AUDIT_ARGS)" \
	  nice -n 10 scripts/audit.sh

audit-selftest: $(BUILD)/bqlm ## the Coccinelle rules on re-created upstream bugs: each must be flagged
	@KDIR="$(KDIR)" AUDIT_ARGS="$(AUDIT_ARGS)" nice -n 10 scripts/audit.sh --selftest

# Replay a schedule (bqlm explore usbnet ... --schedule FILE) on the real
# usbnet.c in the KUnit kernel, the model beside it (docs/real-usbnet.md),
# with the minidriver DRIVER's code (real/usbnet/minidrivers.h).
kunit-replay: ## SCHEDULE=F [DRIVER=name]: a schedule replayed on the real usbnet.c
	@scripts/kunit-replay.sh "$(SCHEDULE)" $(DRIVER)

# The three real-code suites of usbnet for one minidriver, with a summary
# table (docs/usbnet-drivers.md); kunit-drivers for every one (the slow
# tier CI runs on its own).
# make kunit-schedules: every schedule of real/schedules/ (the findings'
# replays) replayed on the real code with its minidriver
.PHONY: kunit-driver kunit-drivers kunit-schedules
kunit-schedules: ## every schedule of real/schedules/ replayed on the real code
	@scripts/kunit-schedules.sh

kunit-driver: ## DRIVER=name: the real-code suites of one usbnet minidriver, with a table
	@scripts/kunit-driver.sh "$(DRIVER)"
kunit-drivers: ## the real-code suites of every usbnet minidriver
	@scripts/kunit-driver.sh all

# The real-code suites with their deep tier: the searches at the models'
# full bounds that make kunit skips (UML, docs/real-code.md).
.PHONY: kunit-deep
kunit-deep: ## the real-code suites with the searches at the models' full bounds
	@scripts/kunit-deep.sh

# Re-record the golden vectors from the kernel's own DQL (needs make kunit).
kunit-golden: ## re-record the golden DQL vectors from the kernel's own DQL
	@scripts/record-golden.sh

# The seeds' experiments on the real usbnet and tun stacks (dummy_hcd, a
# gadget, the qdisc), in a UML kernel of their own in virtual time; the
# figures next to bqlm sim's (docs/stack.md).
.PHONY: kunit-stack
kunit-stack: $(BUILD)/bqlm ## the seeds' experiments on the real usbnet and tun stacks, in virtual time
	@BQLM=$(BUILD)/bqlm scripts/kunit-stack.sh

# The same kernel with KASAN, in a build directory of its own: the usbnet
# fixes' cases with no KASAN report, and finding 3's use-after-free
# reported on the buggy variants (docs/stack.md). Not in CI (its build).
.PHONY: kunit-stack-kasan
kunit-stack-kasan: ## the usbnet disconnect use-after-free and its fix, under KASAN
	@scripts/kunit-stack.sh --kasan

clean: ## remove build/
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# docs/results.md from the runs: the test runs found in build/, the
# explorer's verdicts and the simulator's figures run now, and the
# fragments other targets leave in build/results/ (scripts/results.py).
.PHONY: results
results: $(BUILD)/bqlm ## write docs/results.md from the runs
	@scripts/results.py --bqlm $(BUILD)/bqlm --build $(BUILD) --out docs/results.md

# The same suites in a UML kernel with the kernel's debug checks (KASAN,
# lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DEBUG_LIST, UBSAN, kmemleak;
# kunit/debug.kunitconfig), in .cache/kunit-build-debug; fails on any
# splat in the kernel log (scripts/kunit-debug.sh, docs/testing-the-tests.md),
# then compared with the userspace run as make kunit is.
# make kunit-debug-selftest: four harness bugs (a yield under a kernel
# spinlock, an URB freed early, the harness's RCU sections hidden from
# rcu_dereference()'s check, an URB's buffer leaked) put in by turn, each
# must be caught (scripts/kunit-debug-inject.txt)
#
# make kunit-debug-ci: CI's debug tier, a subset within CI's time: the same
# debug kernel (a cold build in CI) running the real-code harness's replay,
# schedule, stalled and pm suites (KUNIT_DEBUG_CI, one kunit.py glob),
# where the harness's own code runs (actors, hooks, the fake USB core, the
# minidrivers' status() and link_reset()); the log scanned as above;
# results build/kunit-debug-ci-* (docs/testing-the-tests.md)
KUNIT_DEBUG_CI	:= bqlm_real_*_[rsp][ectm]*
.PHONY: kunit-debug kunit-debug-ci kunit-debug-selftest
kunit-debug-selftest: ## four harness bugs put in by turn: make kunit-debug must catch each
	@scripts/mutate-real.py --mutants scripts/kunit-debug-inject.txt

kunit-debug-ci: ## CI's debug tier: the debug kernel, the real-code replay suites only
	@KUNIT_TAG=ci KUNIT_ARGS="--timeout=1800 '$(KUNIT_DEBUG_CI)'" scripts/kunit-debug.sh

kunit-debug: $(BUILD)/asan/bqlm-kunit ## the suites in a UML kernel with KASAN, lockdep and the other debug checks
	@scripts/kunit-debug.sh
	@$(BUILD)/asan/bqlm-kunit > $(BUILD)/userspace.ktap || true
	@scripts/parse-ktap.sh $(BUILD)/userspace.ktap || true
	@scripts/compare-results.py $(BUILD)/kunit-debug-results.json \
	  $(BUILD)/userspace-results.json

# make fuzz FUZZ_TIME=60, fuzz-regress: libFuzzer targets of every input a
# user writes (fuzz/fuzz.mk, docs/testing-the-tests.md)
include fuzz/fuzz.mk

# Mutation testing (docs/testing-the-tests.md): make mutate mutates model/
# and runs the userspace suites against each mutant (MUTATE_SAMPLE=N of
# the sites, seeded by MUTATE_SEED, 0 for all; MUTATE_JOBS; MUTATE_FILES=
# a glob); make mutate-real mutates real/patches/ and the real-code
# harness and runs the real-code suites in the UML kernel against each.
.PHONY: mutate mutate-real
mutate: $(BUILD)/asan/bqlm-kunit $(BUILD)/bqlm ## mutation testing of model/ against the userspace suites
	@nice -n 10 scripts/mutate.py

mutate-real: ## mutation testing of real/patches/ and the harness (UML)
	@scripts/mutate-real.py $(MUTATE_REAL_ARGS)
