# core.mk — build the plain-C core and its tests outside PostgreSQL.
#
#   make -f core.mk                 release build in build/release
#   make -f core.mk VARIANT=asan    AddressSanitizer + UBSan build in build/asan
#   make -f core.mk CC=aarch64-linux-gnu-gcc VARIANT=arm64
#
# The Makefile (PGXS) builds the same sources (sources.mk) into the extension.

VARIANT ?= release
CC ?= cc
B := build/$(VARIANT)

include sources.mk
# CBOR needs libcbor and the stored form LZ4, which the ARM64 cross build
# lacks: both are left out there.
CBOR_LIBS :=
ifneq ($(VARIANT),arm64)
  CORE_SRC += $(CBOR_SRC) $(STORE_SRC)
  CBOR_LIBS := -lcbor -llz4 -lm
endif
WARN := -Wall -Wextra -Werror
BASE_CFLAGS := -std=gnu11 -g $(WARN) -fPIC
ifeq ($(VARIANT),asan)
  OPT := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  LDOPT := -fsanitize=address,undefined
else
  OPT := -O2
  LDOPT :=
endif
ifeq ($(VARIANT),arm64)
  LDOPT += -static
endif
CFLAGS_ALL := $(BASE_CFLAGS) $(OPT) $(EXTRA_CFLAGS)

OBJ := $(patsubst src/%.c,$(B)/obj/%.o,$(CORE_SRC))
LIB := $(B)/libfjcore.a
PROGS := $(B)/fastjson_parse $(B)/test_core $(B)/test_refs $(B)/test_conformance $(B)/test_kernels
ifneq ($(VARIANT),arm64)
  PROGS += $(B)/test_cbor $(B)/test_store
endif

all: $(PROGS)

$(B)/obj/%.o: src/%.c $(wildcard src/*.h src/simd/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(LIB): $(OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/fastjson_parse: tools/fastjson_parse.c $(LIB)
	$(CC) $(CFLAGS_ALL) $< $(LIB) $(CBOR_LIBS) $(LDOPT) -o $@

# test_cbor also links the CBOR oracle: the implementation before the fast
# paths (test/cbor_ref/cbor_ref.h), to compare bytes with.
REF_SRC := $(wildcard test/cbor_ref/*.c)
REF_OBJ := $(patsubst test/cbor_ref/%.c,$(B)/obj/cbor_ref/%.o,$(REF_SRC))

$(B)/obj/cbor_ref/%.o: test/cbor_ref/%.c $(wildcard test/cbor_ref/*.h src/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/test_cbor: test/test_cbor.c test/harness.h test/cbor_ref/cbor_ref.h $(LIB) $(REF_OBJ)
	$(CC) $(CFLAGS_ALL) $< $(REF_OBJ) $(LIB) $(CBOR_LIBS) $(LDOPT) -o $@

$(B)/test_%: test/test_%.c test/harness.h $(LIB)
	$(CC) $(CFLAGS_ALL) $< $(LIB) $(CBOR_LIBS) $(LDOPT) -o $@

clean:
	rm -rf build

.PHONY: all clean
