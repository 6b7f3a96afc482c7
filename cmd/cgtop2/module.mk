BINS += $(O)/cgtop2
MANS += man/cgtop2.1
CGTOP2_OBJ := $(addprefix $(OBJ)/cmd/cgtop2/,main.o out.o render.o tty.o events.o)
$(O)/cgtop2: $(CGTOP2_OBJ) $(LIBCGKIT)
	$(LINK) -o $@ $^ -lm $(LDLIBS)
