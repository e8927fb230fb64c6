# Makefile — fastjson, a PostgreSQL extension (PGXS).
#
#   make && make install        build and install into the PostgreSQL that pg_config names
#   make demo                   the demo on a throwaway cluster (installs what is missing)
#   make test                   the whole test suite (installs what is missing)
#   make bench                  the benchmark
#   make fuzz FUZZ_SECONDS=N    each libFuzzer target for N seconds
#
# make demo/test/bench run on a fresh Debian 12 machine as root: the scripts
# install missing packages first, so this file must not need pg_config to parse.

EXTENSION = fastjson
MODULE_big = fastjson
DATA = fastjson--0.1.sql fastjson--0.1--0.2.sql
PGFILEDESC = "fastjson - fast JSON type"

include sources.mk
OBJS = $(patsubst %.c,%.o,$(CORE_SRC) $(CBOR_SRC) $(STORE_SRC) $(SQL_SRC))
# LZ4 for the stored form of large values; the CBOR code needs no library
# (libcbor is only the tests' reference, core.mk)
SHLIB_LINK += -llz4 -lm

REGRESS = io errors extract ndjson kernels binary_copy functions build_agg casts casts_null edit compare contain gin differential
REGRESS += cbor stored toast_cursor refs ndjson_lines hashes upgrade parallel_agg
REGRESS += set_lax object records records_differential jsonpath arrow_chain tsearch
REGRESS_OPTS = --load-extension=fastjson

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
PG_INCLUDE_SERVER := $(shell $(PG_CONFIG) --includedir-server 2>/dev/null)

# -isystem keeps -Wextra to our own code, not PostgreSQL's headers.
PG_CPPFLAGS = -isystem $(PG_INCLUDE_SERVER)
# the version the module reports (PG_MODULE_MAGIC_EXT, 18 and later)
FASTJSON_VERSION := $(shell sed -n "s/^default_version = '\\(.*\\)'/\\1/p" fastjson.control)
PG_CPPFLAGS += -DFASTJSON_VERSION='"$(FASTJSON_VERSION)"'
PG_CFLAGS = -std=gnu11 -Wall -Wextra -Werror -Wno-declaration-after-statement

# No LLVM bitcode for JIT inlining: it needs clang at build time and buys
# nothing for functions that are not inlined into expressions.
override with_llvm = no

ifneq ($(PGXS),)
include $(PGXS)
# What newer servers offer: soft input errors and jsonb's strict/unique
# aggregates to compare with (16), COPY ON_ERROR, SQL/JSON and jsonpath's
# conversion methods, jsonb_populate_record_valid (17; before 17,
# .double()'s older errors and fastjson_populate_record_valid's), jsonpath's
# string methods (19).
ifeq ($(shell test $(MAJORVERSION) -ge 16 && echo y),y)
REGRESS += soft_errors jsonb16
endif
ifeq ($(shell test $(MAJORVERSION) -ge 17 && echo y),y)
REGRESS += on_error sqljson jsonpath_17 records_valid
else
REGRESS += jsonpath_16 records_16
endif
ifeq ($(shell test $(MAJORVERSION) -ge 19 && echo y),y)
REGRESS += jsonpath_19
endif
else
all install installcheck:
	@echo "pg_config not found: run 'make test' or 'make demo' (they install it), or set PG_CONFIG" >&2
	@exit 1
endif

# Every object depends on every header (PGXS tracks none): a stale object
# built against an older tape.h would mix two tape layouts.
$(OBJS): $(wildcard src/*.h src/simd/*.h)

demo:
	bash scripts/demo.sh

# make test PG=17: only that version of the matrix (PG=15: only the suite on Debian's 15)
test:
	bash scripts/test.sh $(PG)

bench:
	bash scripts/bench.sh

# make fuzz FUZZ_SECONDS=1800: each libFuzzer target for as long as asked
FUZZ_SECONDS ?= 600
fuzz:
	bash scripts/deps.sh test
	$(MAKE) -f fuzz.mk fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

.PHONY: demo test bench fuzz

stress:
	bash scripts/stress.sh
.PHONY: stress
