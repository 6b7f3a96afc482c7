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

# common/scope.o talks to systemd over D-Bus (sd-bus): what links it links libsystemd too.
LIBSYSTEMD := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)
