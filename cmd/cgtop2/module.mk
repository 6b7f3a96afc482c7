BINS += $(O)/cgtop2
MANS += man/cgtop2.1
# --listen: libmicrohttpd (with GnuTLS), libyaml for --web-config, libcrypt for bcrypt, zlib
CGTOP2_LIBS := $(shell pkg-config --libs libmicrohttpd yaml-0.1 libcrypt zlib gnutls) -lpthread
CGTOP2_OBJ := $(addprefix $(OBJ)/cmd/cgtop2/,main.o out.o render.o tty.o serve.o webconfig.o negotiate.o)
$(O)/cgtop2: $(CGTOP2_OBJ) $(LIBCGKIT)
	$(LINK) -o $@ $^ -lm $(CGTOP2_LIBS) $(LDLIBS)
