BINS += $(O)/cgcreate2
MANS += man/cgcreate2.1 man/cgkit.conf.5
# apply.c: --apply, a cgconfig.conf file made; actions.c: -r memory.reclaim, memory.peak
$(O)/cgcreate2: $(OBJ)/cmd/cgcreate2/main.o $(OBJ)/cmd/cgcreate2/mountfs.o $(OBJ)/cmd/cgcreate2/apply.o \
		$(OBJ)/cmd/cgcreate2/actions.o $(OBJ)/cmd/tool.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(LDLIBS)
