BINS += $(O)/cgtop2
MANS += man/cgtop2.1 man/cgtop2-record.5
CGTOP2_OBJ := $(addprefix $(OBJ)/cmd/cgtop2/,main.o out.o record.o render.o metrics.o source.o tty.o)
$(O)/cgtop2: $(CGTOP2_OBJ) $(LIBCGKIT)
	$(LINK) -o $@ $^ -lm $(LIBCGKIT_LIBS) $(LDLIBS)
