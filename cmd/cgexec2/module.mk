BINS += $(O)/cgexec2
MANS += man/cgexec2.1
# -lcgroup: common/rules.o (cgrules.conf classification, --sticky)
$(O)/cgexec2: $(OBJ)/cmd/cgexec2/main.o $(LIBCGKIT)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -Wl,-Bstatic -lcgroup -Wl,-Bdynamic
