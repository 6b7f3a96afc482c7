BINS += $(O)/cgexec2
MANS += man/cgexec2.1
# -lcgroup: common/rules.o (cgrules.conf classification, --sticky). Linked statically: its
# shared object costs every run about 0.15 ms of loading, and cgexec2 runs in front of
# every command it wraps. CGEXEC2_STATIC=1 links glibc statically too (another ~0.3 ms per
# run; not with SAN=1, and the linker warns that NSS lookups then need the same glibc).
CGEXEC2_LIBS := -Wl,-Bstatic -lcgroup -Wl,-Bdynamic
ifeq ($(CGEXEC2_STATIC),1)
ifneq ($(SAN),1)
CGEXEC2_LIBS := -static -lcgroup
endif
endif
$(O)/cgexec2: $(OBJ)/cmd/cgexec2/main.o $(LIBCGKIT)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CGEXEC2_LIBS)
