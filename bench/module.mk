# bench/: benchmarks against the anchors, printing ratios. Not tests: nothing here can fail a build.
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRC:%.c=$(OBJ)/%)

$(OBJ)/bench/%: bench/%.c $(LIBCGKIT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBCGKIT) -lpthread $(LIBCGKIT_LIBS) $(LDLIBS)

# make bench            every bench/*.sh in turn, then bench/RESULTS.md (bench/run)
# make bench B=cgtop2   only bench/cgtop2.sh (RESULTS.md is left as it is)
bench: all $(BENCH_BINS) $(TEST_BINS)
	CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) bench/run $(B)

.PHONY: bench
