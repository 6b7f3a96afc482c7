# tests/: C unit tests of common/, helper programs the shell suites start, the driver.
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRC:%.c=$(OBJ)/%)
HELPER_SRC := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(HELPER_SRC:%.c=$(OBJ)/%)
TEST_BINS += $(UNIT_BINS) $(HELPER_BINS)

$(OBJ)/tests/unit/%: tests/unit/%.c $(LIBCGKIT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBCGKIT)

$(OBJ)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -lpthread

tests-build: all $(TEST_BINS)

# The driver runs unit tests, then every tests/*.sh suite, and prints "N passed, N failed".
check: tests-build
	CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) tests/run

.PHONY: check tests-build
