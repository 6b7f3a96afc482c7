BINS += $(O)/cgmigrate
MANS += man/cgmigrate.1
# no -lcgroup: common/ops/rules.o opens libcgroup when -g is left out or --sticky given (the Makefile
# says why)
$(O)/cgmigrate: $(OBJ)/cmd/cgmigrate/main.o $(OBJ)/cmd/tool.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(LDLIBS)
