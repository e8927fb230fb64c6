# bench/bench.mk — build the core benchmark (run from the repository root).
#
#   make -f bench/bench.mk               build build/release/core_bench
#   make -f bench/bench.mk core-bench    build it and run it on the corpus
#   make -f bench/bench.mk cbor-bench    build build/release/cbor_bench (CBOR against the
#                                        text path, outside the server) and run it
#   bash bench/core_ab.sh REV_A REV_B    two revisions of the core in one process
#                                        (build/release/core_ab, bench/core_ab.c)
#
# Links the release core (built by core.mk) and Debian's libsimdjson-dev.
# No -march=native: the kernels pick their instruction set at run time.

CXX ?= g++
B := build/release
LIB := $(B)/libfjcore.a
CXXFLAGS_BENCH := -std=c++17 -O2 -g -Wall -Wextra $(EXTRA_CXXFLAGS)
BENCH_ARGS ?=

all: $(B)/core_bench

# Always ask core.mk; it only rebuilds what changed.
$(LIB): FORCE
	$(MAKE) -f core.mk $(LIB)

$(B)/core_bench: bench/core_bench.cpp src/fj_core.h src/tape.h $(LIB)
	@mkdir -p $(B)
	$(CXX) $(CXXFLAGS_BENCH) $< $(LIB) -lsimdjson -o $@

# the CBOR A/B driver (bench/cbor_bench.c; bench/cbor_callgrind.sh counts instructions with it)
# (it links the reference implementation, test/cbor_ref/, as test_cbor does)
REF_OBJ := $(patsubst test/cbor_ref/%.c,$(B)/obj/cbor_ref/%.o,$(wildcard test/cbor_ref/*.c))

$(REF_OBJ): FORCE
	$(MAKE) -f core.mk $@

$(B)/cbor_bench: bench/cbor_bench.c bench/read_file.h src/cbor.h src/fj_core.h src/tape.h $(LIB) $(REF_OBJ)
	@mkdir -p $(B)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror $< $(REF_OBJ) $(LIB) -lcbor -lm -o $@

cbor-bench: $(B)/cbor_bench
	$(B)/cbor_bench $(BENCH_ARGS)

# the in-process A/B driver of two builds of the core (bench/core_ab.c, run by bench/core_ab.sh)
$(B)/core_ab: bench/core_ab.c bench/read_file.h src/cbor.h src/fj_core.h src/tape.h
	@mkdir -p $(B)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror $< -ldl -o $@

core-bench: $(B)/core_bench
	$(B)/core_bench $(BENCH_ARGS)

FORCE:

.PHONY: all core-bench cbor-bench FORCE
