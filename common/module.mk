# common/: libcgkit.a, what two or more tools link, a folder a layer (ARCHITECTURE.md): base,
# kernel, vocab, cgroups, ops. Every .c below it belongs to it.
COMMON_SRC := $(sort $(wildcard common/*/*.c))
COMMON_HDR := $(wildcard common/*/*.h)
COMMON_OBJ := $(COMMON_SRC:%.c=$(OBJ)/%.o)
LIBCGKIT := $(OBJ)/libcgkit.a

$(LIBCGKIT): $(COMMON_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
# What libcgkit.a's objects need at link time: zlib's crc32 (cgtop2's record/, which links it too; kept here for the
# unit tests and benches that link both libraries).
LIBCGKIT_LIBS := $(shell pkg-config --libs zlib)
# common/cgroups/scope.c opens libsystemd (sd-bus) with dlopen when a scope is asked for: only its
# header is needed to build (libsystemd-dev), and nothing links it.
