BINS += $(O)/cgtop2
MANS += man/cgtop2.1 man/cgtop2-record.5
CGTOP2_OBJ := $(addprefix $(OBJ)/cmd/cgtop2/,main.o out.o record.o history.o render.o metrics.o screen.o screen_detail.o screen_table.o \
	source.o text.o)
# ncursesw and its panels (Debian: libncurses-dev)
CGTOP2_CURSES := $(shell pkg-config --libs ncursesw panelw)
CGTOP2_CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw panelw)
$(OBJ)/cmd/cgtop2/screen%.o $(OBJ)/cmd/cgtop2/history.o: ALL_CFLAGS += $(CGTOP2_CURSES_CFLAGS)
$(O)/cgtop2: $(CGTOP2_OBJ) $(LIBCGKIT)
	$(LINK) -o $@ $^ -lm $(CGTOP2_CURSES) $(LIBCGKIT_LIBS) $(LDLIBS)
