# bench/: benchmarks against the anchors, printing ratios. Not tests: nothing here can fail a build.
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRC:%.c=$(OBJ)/%)

$(OBJ)/bench/%: bench/%.c $(LIBCGKIT)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBCGKIT) -lpthread $(LIBCGKIT_LIBS) $(LDLIBS)

# make bench            every bench/*.sh in turn
# make bench B=cgtop2   only bench/cgtop2.sh
bench: all $(BENCH_BINS) $(TEST_BINS)
	@for b in $(if $(B),bench/$(B).sh,$(sort $(wildcard bench/*.sh))); do \
		echo "=== $$b"; CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) bash $$b || exit 1; \
	done

.PHONY: bench
