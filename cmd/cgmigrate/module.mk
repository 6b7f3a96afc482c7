BINS += $(O)/cgmigrate
MANS += man/cgmigrate.1
# -lcgroup: common/rules.o (cgrules.conf classification without -g, --sticky); shared unless
# LIBCGROUP_STATIC=1 (the Makefile says why)
$(O)/cgmigrate: $(OBJ)/cmd/cgmigrate/main.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(LIBCGROUP) $(LDLIBS)
