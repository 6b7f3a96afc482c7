# SPDX-License-Identifier: MIT
# cgkit: plain GNU make, non-recursive. Each directory adds itself through its module.mk.
#   make | make check | make check-full | make check SAN=1 | make check-vm | make check-pkg
#   make bench | make man | make help (the test tiers with their times)
#   make install | make install-man | make uninstall
#     (PREFIX, BINDIR, MANDIR, DATADIR, SYSTEMDUNITDIR, DESTDIR)
# CPPFLAGS, CFLAGS, LDFLAGS and LDLIBS are the user's (GNU conventions): they come after the
# project's own flags, so that a distribution's hardening flags win. WERROR=1 turns warnings
# into errors (CI and developers); a user's build does not break on a newer compiler's warning.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# where zsh's default fpath looks: a distribution's zsh, /usr/share/zsh/vendor-completions for its
# packages; zsh built for /usr/local (and any other prefix), PREFIX/share/zsh/site-functions
ZSHCOMPDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
# the monitoring mixin and the OpenRC services (contrib/)
DATADIR ?= $(PREFIX)/share/cgkit
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
MIXIN := $(addprefix contrib/mixin/,rules.yml rules-cadvisor.yml rules_test.yml \
	rules-cadvisor_test.yml dashboard.json dashboard-cadvisor.json dashboard-k8s.json \
	dashboard-k8s-cadvisor.json)
DESTDIR ?=

CC ?= cc
SCDOC ?= scdoc

# SAN=1 builds a separate tree (.san/) so sanitized and normal binaries never mix.
ifeq ($(SAN),1)
O := .san
OPT ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SANLD := -fsanitize=address,undefined
FORTIFY :=
else
O := .
OPT ?= -O2 -g
SANLD :=
# Fortification is ours only while the user sets none: a second -D_FORTIFY_SOURCE is a
# "redefined" warning. -U first: some compilers predefine it (Ubuntu's gcc does).
# Without optimisation glibc warns that it does nothing.
FORTIFY := $(if $(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS))$(filter -O0,$(CFLAGS)),,\
	-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2)
endif
OBJ := $(O)/.obj

CPPFLAGS ?=
CFLAGS ?=
LDFLAGS ?=
LDLIBS ?=
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
VERSION := 0.2.0
# Compiling (and the one-step compile-and-link of tests and benchmarks) uses ALL_CFLAGS, a tool's
# link LINK: the user's CFLAGS reach the linker too (-flto, -fsanitize=..., as automake does).
ALL_CFLAGS := -std=gnu11 $(OPT) $(WARN) -D_GNU_SOURCE $(FORTIFY) -DCGKIT_VERSION='"$(VERSION)"' \
	-Icommon -Icmd -Icmd/cgtop2 -MMD -MP $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SANLD) $(LDFLAGS)
LINK := $(CC) $(CFLAGS) $(ALL_LDFLAGS)

# libcgroup (only common/ops/rules.c uses it) is linked by no tool: rules.c opens the system's
# shared libcgroup.so.2 (dlopen) when cgrules.conf or cgrulesengd is asked for, so that its
# security fixes reach every tool and the runs that never ask do not load it
# (bench/RESULTS-floors.md: what it cost cgexec2's start-up).

# Objects and binaries are rebuilt when the flags change (make, then make WERROR=1 or
# make CFLAGS=...): the flags of the last build are kept in $(OBJ)/flags.
FLAGS := $(CC) $(ALL_CFLAGS) $(LINK) $(LDLIBS) $(CGEXEC2_STATIC)
ifneq ($(FLAGS),$(file <$(OBJ)/flags))
$(shell mkdir -p $(OBJ))
$(file >$(OBJ)/flags,$(FLAGS))
endif

TOOLS := cgcreate2 cgexec2 cgmigrate cgtop2
BINS :=
MANS :=
TEST_BINS :=
CLEAN :=

# A failed recipe leaves no target behind: an empty man page from a missing scdoc would
# otherwise count as built.
.DELETE_ON_ERROR:

all:

include common/module.mk
include $(sort $(wildcard cmd/*/module.mk))
include tests/module.mk
-include tests/vm/module.mk
-include bench/module.mk

all: $(BINS)

$(OBJ)/%.o: %.c $(OBJ)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(TEST_BINS) $(BENCH_BINS): $(OBJ)/flags
$(OBJ)/flags: ;

man: $(MANS)
man/%.1: man/%.1.scd
	$(SCDOC) < $< > $@
man/%.5: man/%.5.scd
	$(SCDOC) < $< > $@

# install puts the binaries, the shell completions, the mixin (rules and dashboards) and the
# services, so that it needs no scdoc; the services name cgtop2 where BINDIR put it. install-man
# builds the man pages and puts them. uninstall removes the files either put there, and no
# directory. bash-completion looks a completion up by the command's name: one file, a link per
# tool.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 $(BINS) $(DESTDIR)$(BINDIR)/
	install -m 0644 completions/cgkit.bash $(DESTDIR)$(BASHCOMPDIR)/cgkit
	for t in $(notdir $(BINS)); do ln -sf cgkit $(DESTDIR)$(BASHCOMPDIR)/$$t; done
	install -m 0644 completions/zsh/_cgkit $(DESTDIR)$(ZSHCOMPDIR)/_cgkit
	install -d $(DESTDIR)$(DATADIR)/mixin $(DESTDIR)$(DATADIR)/openrc $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0644 $(MIXIN) $(DESTDIR)$(DATADIR)/mixin/
	sed 's|/usr/local/bin/cgtop2|$(BINDIR)/cgtop2|' contrib/cgtop2.service \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/cgtop2.service
	sed 's|/usr/local/bin/cgtop2|$(BINDIR)/cgtop2|' contrib/cgtop2.openrc \
		>$(DESTDIR)$(DATADIR)/openrc/cgtop2
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/cgtop2.service
	chmod 0755 $(DESTDIR)$(DATADIR)/openrc/cgtop2
	sed 's|/usr/local/bin/cgcreate2|$(BINDIR)/cgcreate2|' contrib/cgkit-apply.service \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/cgkit-apply.service
	sed 's|/usr/local/bin/cgcreate2|$(BINDIR)/cgcreate2|' contrib/cgkit-apply.openrc \
		>$(DESTDIR)$(DATADIR)/openrc/cgkit-apply
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/cgkit-apply.service
	chmod 0755 $(DESTDIR)$(DATADIR)/openrc/cgkit-apply
	sed 's|/usr/local/bin/cgtop2|$(BINDIR)/cgtop2|' contrib/cgkit-record.service \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/cgkit-record.service
	sed 's|/usr/local/bin/cgtop2|$(BINDIR)/cgtop2|' contrib/cgkit-record.openrc \
		>$(DESTDIR)$(DATADIR)/openrc/cgkit-record
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/cgkit-record.service
	chmod 0755 $(DESTDIR)$(DATADIR)/openrc/cgkit-record

install-man: man
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 0644 $(filter %.1,$(MANS)) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(filter %.5,$(MANS)) $(DESTDIR)$(MANDIR)/man5/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(BINS))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(filter %.1,$(MANS)))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(filter %.5,$(MANS)))) \
		$(addprefix $(DESTDIR)$(BASHCOMPDIR)/,cgkit $(notdir $(BINS))) \
		$(DESTDIR)$(ZSHCOMPDIR)/_cgkit \
		$(addprefix $(DESTDIR)$(DATADIR)/mixin/,$(notdir $(MIXIN))) \
		$(DESTDIR)$(DATADIR)/openrc/cgtop2 $(DESTDIR)$(SYSTEMDUNITDIR)/cgtop2.service \
		$(DESTDIR)$(DATADIR)/openrc/cgkit-apply $(DESTDIR)$(SYSTEMDUNITDIR)/cgkit-apply.service \
		$(DESTDIR)$(DATADIR)/openrc/cgkit-record $(DESTDIR)$(SYSTEMDUNITDIR)/cgkit-record.service

# The tiers and their times measured here (CONTRIBUTING's tier table says when and at what load)
help:
	@echo 'make                build the tools'
	@echo 'make check          the quick tier: unit tests, fixture tests and a live test of each'
	@echo '                    behaviour (tests/slow names what it leaves out); 4.2 min from a fresh clone'
	@echo 'make check-full     every live test (make check with what tests/slow names); about 10 min'
	@echo 'make check-slow     what make check leaves out (tests/slow) alone: check + check-slow = check-full'
	@echo 'make check-vm       the suites in QEMU guests, one a cgroup layout; 36 min'
	@echo 'make check SAN=1    make check under ASan/UBSan (check-full SAN=1: every suite)'
	@echo 'make valgrind       the cgtop2 suites under valgrind memcheck; about 8 min'
	@echo 'make check-pkg      the Debian package in a fresh chroot; about 80 s'
	@echo 'make fuzz           the parsers under libFuzzer; 8-10 min (the build most of it)'
	@echo 'make bench          the benchmarks (timings and floors: bench/RESULTS.md); an hour'
	@echo 'bash .ci/run        all of the above as CI runs them; 30-35 min (the VM matrix sets it)'
	@echo 'CGKIT_JOBS=N        suites at a time in tests/run (default: the CPUs; 1 in the VM guests)'

format-check:
	clang-format --dry-run --Werror $(shell git ls-files '*.c' '*.h')

clean:
	rm -rf .obj .san $(TOOLS) $(MANS) $(CLEAN)

.PHONY: all man install install-man uninstall clean format-check help
-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
