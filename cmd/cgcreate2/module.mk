BINS += $(O)/cgcreate2
MANS += man/cgcreate2.1
$(O)/cgcreate2: $(OBJ)/cmd/cgcreate2/main.o $(OBJ)/cmd/cgcreate2/mountfs.o $(OBJ)/cmd/tool.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(LDLIBS)
