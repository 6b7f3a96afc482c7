BINS += $(O)/cgtop2
MANS += man/cgtop2.1 man/cgtop2-record.5
CGTOP2_OBJ := $(addprefix $(OBJ)/cmd/cgtop2/,main.o out.o report.o pipeline.o batch.o record.o history.o render.o render_data.o metrics.o labels.o screen.o screen_detail.o screen_table.o \
	screen_act.o screen_base.o settings.o source.o source_live.o source_replay.o text.o events.o)
# the libcgroup kit: --get, --list-cgroups, --list-controllers, --snapshot
CGTOP2_OBJ += $(addprefix $(OBJ)/cmd/cgtop2/,kit.o get.o list.o snapshot.o)
# ncursesw and its panels (Debian: libncurses-dev)
CGTOP2_CURSES := $(shell pkg-config --libs ncursesw panelw)
CGTOP2_CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw panelw)
$(OBJ)/cmd/cgtop2/screen%.o $(OBJ)/cmd/cgtop2/history.o: ALL_CFLAGS += $(CGTOP2_CURSES_CFLAGS)
# --listen: libmicrohttpd (with GnuTLS), libyaml for --web-config, libcrypt for bcrypt, zlib
CGTOP2_OBJ += $(addprefix $(OBJ)/cmd/cgtop2/,serve.o serve_auth.o serve_guard.o serve_io.o webconfig.o negotiate.o triggers.o)
# cmd/tool.c: the conventions every tool shares
CGTOP2_OBJ += $(OBJ)/cmd/tool.o
CGTOP2_LIBS := $(shell pkg-config --libs libmicrohttpd yaml-0.1 libcrypt zlib gnutls) -lpthread
$(O)/cgtop2: $(CGTOP2_OBJ) $(LIBCGKIT)
	$(LINK) -o $@ $^ -lm $(CGTOP2_CURSES) $(CGTOP2_LIBS) $(LIBCGKIT_LIBS) $(LDLIBS)

# make fuzz: the web config, Accept and --listen parsers, with the libraries they use
.fuzz/webconfig_fuzz: tests/fuzz/webconfig_fuzz.c cmd/cgtop2/webconfig.c cmd/cgtop2/negotiate.c \
		$(COMMON_SRC) $(wildcard common/*.h cmd/cgtop2/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Icmd -Icmd/cgtop2 -o $@ $< cmd/cgtop2/webconfig.c \
		cmd/cgtop2/negotiate.c $(COMMON_SRC) -lcgroup $(CGTOP2_LIBS)

# tests/unit/webconfig_test includes webconfig.c and negotiate.c: their libraries
$(OBJ)/tests/unit/webconfig_test: LDLIBS += $(CGTOP2_LIBS)
