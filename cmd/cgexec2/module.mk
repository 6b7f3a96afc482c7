BINS += $(O)/cgexec2
MANS += man/cgexec2.1
# -lcgroup: common/rules.o (cgrules.conf classification, --sticky); shared unless
# LIBCGROUP_STATIC=1 (the Makefile says why). CGEXEC2_STATIC=1 links cgexec2 wholly statically,
# glibc too: about 0.45 ms less per run than the default, libcgroup's 0.15 ms included. Not with
# SAN=1; the linker warns that NSS lookups, and the dlopen of libsystemd for -t's scope, then
# need the same glibc at run time.
CGEXEC2_LIBS := $(LIBCGROUP)
ifeq ($(CGEXEC2_STATIC),1)
ifneq ($(SAN),1)
CGEXEC2_LIBS := -static -lcgroup
endif
endif
$(O)/cgexec2: $(OBJ)/cmd/cgexec2/main.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(CGEXEC2_LIBS) $(LDLIBS)
