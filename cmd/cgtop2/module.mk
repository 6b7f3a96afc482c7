BINS += $(O)/cgtop2
MANS += man/cgtop2.1 man/cgtop2-record.5
# libcgtop2.a: every file of cgtop2 but main.c, a folder a part (ARCHITECTURE.md): the core
# (the pipeline and its sources) here, and mirror/, sampler/, watch/, record/, names/, output/, screen/,
# serve/, events/, kit/. The unit tests and fuzz targets link it instead of including .c files (the
# benches link libcgkit.a alone).
CGTOP2_SRC := $(filter-out cmd/cgtop2/main.c,$(sort $(wildcard cmd/cgtop2/*.c cmd/cgtop2/*/*.c)))
CGTOP2_HDR := $(wildcard cmd/cgtop2/*.h cmd/cgtop2/*/*.h)
CGTOP2_LIBOBJ := $(CGTOP2_SRC:%.c=$(OBJ)/%.o)
LIBCGTOP2 := $(OBJ)/libcgtop2.a
$(LIBCGTOP2): $(CGTOP2_LIBOBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
# ncursesw and its panels (Debian: libncurses-dev)
CGTOP2_CURSES := $(shell pkg-config --libs ncursesw panelw)
CGTOP2_CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw panelw)
$(OBJ)/cmd/cgtop2/screen/%.o: ALL_CFLAGS += $(CGTOP2_CURSES_CFLAGS)
# names/runtime.c: json-c (Debian: libjson-c-dev) for the runtimes' state files
CGTOP2_JSON := $(shell pkg-config --libs json-c)
$(OBJ)/cmd/cgtop2/names/%.o: ALL_CFLAGS += $(shell pkg-config --cflags json-c)
# --listen: libmicrohttpd (with GnuTLS), libyaml for --web-config, libcrypt for bcrypt, zlib
CGTOP2_LIBS := $(CGTOP2_CURSES) $(shell pkg-config --libs libmicrohttpd yaml-0.1 libcrypt zlib gnutls) $(CGTOP2_JSON) -lpthread -lm
# cmd/tool.c: the conventions every tool shares
$(O)/cgtop2: $(OBJ)/cmd/cgtop2/main.o $(LIBCGTOP2) $(OBJ)/cmd/tool.o $(LIBCGKIT)
	$(LINK) -o $@ $^ $(CGTOP2_LIBS) $(LIBCGKIT_LIBS) $(LDLIBS)

# make fuzz: the web config, Accept and --listen parsers, with the libraries they use
.fuzz/webconfig_fuzz: tests/fuzz/webconfig_fuzz.c cmd/cgtop2/serve/webconfig.c \
		cmd/cgtop2/serve/negotiate.c $(FUZZ_LIB_SRC) $(COMMON_HDR) $(CGTOP2_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< cmd/cgtop2/serve/webconfig.c \
		cmd/cgtop2/serve/negotiate.c $(FUZZ_LIB_SRC) -lcgroup $(CGTOP2_LIBS)
