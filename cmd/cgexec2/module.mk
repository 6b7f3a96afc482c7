BINS += $(O)/cgexec2
MANS += man/cgexec2.1
# No -lcgroup: common/ops/rules.o opens libcgroup when cgrules.conf or --sticky needs it (the Makefile
# says why). CGEXEC2_STATIC=1 links cgexec2 wholly statically, glibc too (what that saves per
# run: bench/RESULTS-floors.md). Not with SAN=1; the linker warns that NSS lookups, and the
# dlopen of libcgroup and of libsystemd for -t's scope, then need the same glibc at run time.
CGEXEC2_LIBS :=
ifeq ($(CGEXEC2_STATIC),1)
ifneq ($(SAN),1)
CGEXEC2_LIBS := -static
endif
endif
$(O)/cgexec2: $(OBJ)/cmd/cgexec2/main.o $(OBJ)/cmd/cgexec2/place.o \
		$(OBJ)/cmd/cgexec2/usage.o $(OBJ)/cmd/tool.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(CGEXEC2_LIBS) $(LDLIBS)
