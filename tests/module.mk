# tests/: C unit tests of common/, helper programs the shell suites start, the driver.
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRC:%.c=$(OBJ)/%)
HELPER_SRC := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(HELPER_SRC:%.c=$(OBJ)/%)
TEST_BINS += $(UNIT_BINS) $(HELPER_BINS)

# Every unit test links both libraries (an archive gives only the objects a test uses) and the
# parts one other tool keeps beside its main.c (TOOL_PARTS: cgexec2's place and usage, cgcreate2's
# mountfs), never a .c
TOOL_PARTS := $(OBJ)/cmd/cgexec2/place.o $(OBJ)/cmd/cgexec2/usage.o $(OBJ)/cmd/cgcreate2/mountfs.o
$(OBJ)/tests/unit/%: tests/unit/%.c $(TOOL_PARTS) $(LIBCGTOP2) $(LIBCGKIT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TOOL_PARTS) $(LIBCGTOP2) $(LIBCGKIT) $(CGTOP2_LIBS) \
		$(LIBCGKIT_LIBS) $(LDLIBS)

$(OBJ)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -lpthread $(LDLIBS)

tests-build: all $(TEST_BINS)

# The driver runs unit tests, then the tests/*.sh suites, CGKIT_JOBS at a time (default: the
# CPUs), and prints "N passed, N failed, N skipped". make check is the quick tier: every suite
# but the tests tests/slow names (CGKIT_TIER=quick); make check-full runs them all.
check: tests-build
	CGKIT_TIER=quick CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) tests/run

check-full: tests-build
	CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) tests/run

# what make check leaves out, alone (CGKIT_TIER=slow): make check then make check-slow is make
# check-full with no test run twice (CI)
check-slow: tests-build
	CGKIT_TIER=slow CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) tests/run

# The live suites with every tool under valgrind's memcheck (tests/lib.sh's CGKIT_WRAP): a log
# a process in $(OBJ)/valgrind/ (1777: tests run tools as other uids), then each log with an
# error named; fails on any. A process a test killed (the suites end servers with SIGTERM) is
# reported on its memory errors only: what it held when killed is no leak. tests/valgrind.supp
# holds the library's leaks, each with its reason. Slow: 8 to 30 minutes here, with the load.
VG_SUITES ?= cgtop2 cgtop2_serve cgtop2_events
VG_LOGS = $(abspath $(OBJ))/valgrind
VG_MEMERR = == (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and dest)
valgrind: tests-build
	rm -rf $(VG_LOGS) && mkdir -p $(VG_LOGS) && chmod 1777 $(VG_LOGS)
	CGKIT_WRAP="valgrind --error-exitcode=99 --leak-check=full --suppressions=$(abspath tests/valgrind.supp) --log-file=$(VG_LOGS)/%p.log" \
	CGKIT_SUITE_TIMEOUT=3600 CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) tests/run $(VG_SUITES); rc=$$?; \
	killed=$$(grep -l 'terminating with default action' $(VG_LOGS)/*.log); \
	bad=$$(for f in $(VG_LOGS)/*.log; do \
		if echo "$$killed" | grep -qxF "$$f"; then grep -qE '$(VG_MEMERR)' $$f && echo $$f; \
		else grep -q 'ERROR SUMMARY: [1-9]' $$f && echo $$f; fi; done); \
	echo "valgrind: $$(ls $(VG_LOGS) | wc -l) processes, $$(echo "$$bad" | grep -c .) with errors;" \
		"$$(echo "$$killed" | grep -c .) killed by a signal, $$(grep -L 'ERROR SUMMARY' $(VG_LOGS)/*.log | wc -l) by SIGKILL (no summary)"; \
	for f in $$bad; do echo "== $$f"; grep -m 3 -A 12 -E '$(VG_MEMERR)|.* are (definitely|possibly) lost' $$f | head -40; done; \
	[ $$rc -eq 0 ] && [ -z "$$bad" ]

# The Debian package, built from this tree and installed into a fresh chroot (tests/pkg/run).
check-pkg:
	tests/pkg/run

.PHONY: check check-full check-slow tests-build check-pkg valgrind

# Fuzzing (clang's libFuzzer): make fuzz [FUZZ_RUNS=N]. Every target runs N inputs from a fixed
# seed and its corpus; a crash, leak or UB report fails it.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/*.c))
FUZZ_BINS := $(FUZZ_SRC:tests/fuzz/%.c=.fuzz/%)
FUZZ_RUNS ?= 200000
FUZZ_CC ?= clang
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -DCGKIT_VERSION='"fuzz"' -Icommon -Icmd -Icmd/cgtop2 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

# the library parts of cgtop2 (no terminal, no HTTP) beside common/: what the parsers need
FUZZ_LIB_SRC := $(COMMON_SRC) $(wildcard $(addprefix cmd/cgtop2/,mirror/*.c sampler/*.c watch/*.c record/record.c record/record_read.c names/*.c output/pattern.c))
# a target's own sources beyond those, compiled beside it (never #included: tests/structure.sh):
# FUZZ_SRC_<target>. The screen's settings file parser alone of the screen (settings_fuzz
# defines the one outside name it reads, order_names)
FUZZ_SRC_settings_fuzz := cmd/cgtop2/screen/settings.c
.fuzz/settings_fuzz: $(FUZZ_SRC_settings_fuzz)
.fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_SRC) $(COMMON_HDR) $(CGTOP2_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIB_SRC) -lcgroup -lpthread \
		$(LIBCGKIT_LIBS) $(CGTOP2_JSON)

fuzz: $(FUZZ_BINS)
	@pass=0; fail=0; for f in $(FUZZ_BINS); do \
		n=$${f##*/}; mkdir -p .fuzz/corpus/$$n; seeds=tests/fuzz/corpus/$$n; \
		[ -d $$seeds ] || seeds=; \
		if $$f -runs=$(FUZZ_RUNS) -seed=1 -max_len=512 .fuzz/corpus/$$n $$seeds \
			>.fuzz/$$n.log 2>&1; then pass=$$((pass + 1)); \
			echo "PASS fuzz/$$n: $$(grep -o '^Done [0-9]* runs in [0-9]* second' .fuzz/$$n.log)"; \
		else fail=$$((fail + 1)); echo "FAIL fuzz/$$n"; tail -n 30 .fuzz/$$n.log; fi; \
	done; echo "$$pass passed, $$fail failed"; [ $$fail -eq 0 ]

CLEAN += .fuzz
.PHONY: fuzz
