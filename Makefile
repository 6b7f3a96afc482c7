# SPDX-License-Identifier: MIT
# cgkit: plain GNU make, non-recursive. Each directory adds itself through its module.mk.
#   make | make check | make check SAN=1 | make check-vm | make bench | make man | make install

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

CC ?= cc
SCDOC ?= scdoc

# SAN=1 builds a separate tree (.san/) so sanitized and normal binaries never mix.
ifeq ($(SAN),1)
O := .san
OPT ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SANLD := -fsanitize=address,undefined
else
O := .
OPT ?= -O2 -g -D_FORTIFY_SOURCE=2
SANLD :=
endif
OBJ := $(O)/.obj

CFLAGS ?=
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter
VERSION := 0.1.0
ALL_CFLAGS := -std=gnu11 $(OPT) $(WARN) -D_GNU_SOURCE -DCGKIT_VERSION='"$(VERSION)"' -Icommon \
	-MMD -MP $(CFLAGS)
ALL_LDFLAGS := $(SANLD) $(LDFLAGS)

TOOLS := cgcreate2 cgexec2 cgmigrate cgtop2
BINS :=
MANS :=
TEST_BINS :=
CLEAN :=

all:

include common/module.mk
include $(sort $(wildcard cmd/*/module.mk))
include tests/module.mk
-include tests/vm/module.mk
-include bench/module.mk

all: $(BINS)

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

man: $(MANS)
man/%.1: man/%.1.scd
	$(SCDOC) < $< > $@

install: all man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BINS) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(MANS) $(DESTDIR)$(MANDIR)/man1/

format-check:
	clang-format --dry-run --Werror $(shell git ls-files '*.c' '*.h')

clean:
	rm -rf .obj .san $(TOOLS) $(MANS) $(CLEAN)

.PHONY: all man install clean format-check
-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
