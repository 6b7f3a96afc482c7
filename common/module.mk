# common/: libcgkit.a, the only code that knows cgroupfs. Every .c here belongs to it.
COMMON_SRC := $(sort $(wildcard common/*.c))
COMMON_OBJ := $(COMMON_SRC:%.c=$(OBJ)/%.o)
LIBCGKIT := $(OBJ)/libcgkit.a

$(LIBCGKIT): $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
# What libcgkit.a's objects need at link time: zlib's crc32 (record.c, record_read.c).
LIBCGKIT_LIBS := $(shell pkg-config --libs zlib)
# common/scope.c opens libsystemd (sd-bus) with dlopen when a scope is asked for: only its
# header is needed to build (libsystemd-dev), and nothing links it.
