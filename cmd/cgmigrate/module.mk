BINS += $(O)/cgmigrate
MANS += man/cgmigrate.1
# -lcgroup: common/rules.o (cgrules.conf classification without -g, --sticky)
$(O)/cgmigrate: $(OBJ)/cmd/cgmigrate/main.o $(LIBCGKIT)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcgroup
