BINS += $(O)/cgtop2
MANS += man/cgtop2.1
$(O)/cgtop2: $(OBJ)/cmd/cgtop2/main.o $(LIBCGKIT)
	$(LINK) -o $@ $^ -lm $(LDLIBS)
