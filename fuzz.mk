# fuzz.mk — libFuzzer targets for the plain-C core (clang-14, ASan + UBSan).
#
#   make -f fuzz.mk                        build every target into build/fuzz/
#   make -f fuzz.mk smoke                  run each target FUZZ_SECONDS (default 60) from
#                                          fresh corpora; print execs and cov; fail on a crash
#   make -f fuzz.mk fuzz FUZZ_SECONDS=1800 run each target in turn (one process, one core),
#                                          corpora kept in build/fuzz/corpus-<target>/
#   make -f fuzz.mk regress                run each target once over test/fuzz/regressions/<target>/
#   make -f fuzz.mk seeds                  rebuild the seed corpora from $(DATA)
#   make -f fuzz.mk minimize T=fuzz_parse F=build/fuzz/crashes/fuzz_parse-crash-...
#                                          minimize a crash into build/fuzz/crashes/
#   make -f fuzz.mk fuzz-clean             remove build/fuzz (corpora and crashes too)
#
# FUZZ_RUN=<targets> restricts smoke/fuzz/regress to some targets; FUZZ_LOG_TAG
# names the logs of `fuzz` (build/fuzz/<target>-<tag>.log, default "fuzz");
# smoke logs are build/fuzz/<target>-smoke.log. Crashes go to build/fuzz/crashes/.
# FJ_FUZZ_KNOWN=<names> steps over known, reported bugs (see
# test/fuzz/regressions/README.md); by default every check is strict.
# A crash file is reproduced by running the target on it: build/fuzz/fuzz_parse FILE.
#
# The core sources are CORE_SRC from sources.mk, compiled here with coverage
# instrumentation; src/simd/neon.c compiles to nothing on x86-64.

include sources.mk

FUZZ_CC ?= clang-14
DATA ?= ../shared/data
FUZZ_SECONDS ?= 60
FUZZ_LOG_TAG ?= fuzz
B := build/fuzz

# ---------------------------------------------------------------- targets
#
# Each target is test/fuzz/<target>.c built into build/fuzz/<target>, linked
# with the core. Per-target settings (all optional except MAX_LEN):
#   <target>_SRC      more sources compiled into it (e.g. src/cbor.c)
#   <target>_CFLAGS   more compiler flags
#   <target>_LIBS     more libraries (e.g. -lcbor)
#   <target>_MAX_LEN  -max_len for the fuzzer
#   <target>_DICT     a libFuzzer dictionary
#   <target>_SEEDS    seed corpus directories (read-only inputs)
#   <target>_SEEDS_DEP a file or target that creates those seeds
# To add a target (e.g. the CBOR decoder): add it to FUZZ_TARGETS and set
# its variables in the block below.

FUZZ_TARGETS := fuzz_parse fuzz_tape

fuzz_parse_MAX_LEN := 65536
fuzz_parse_DICT := test/fuzz/json.dict
fuzz_parse_SEEDS := $(B)/seeds/json
fuzz_parse_SEEDS_DEP := $(B)/seeds/.stamp

fuzz_tape_MAX_LEN := 16384
fuzz_tape_DICT :=
fuzz_tape_SEEDS := $(B)/seeds/tape
fuzz_tape_SEEDS_DEP := $(B)/seeds/.stamp

# The CBOR decoder: its sources are outside CORE_SRC, so the other targets
# do not need libcbor (which the reference implementation links). Seeds: Appendix A and the JSON seeds encoded by cbor2.
FUZZ_TARGETS += fuzz_cbor
# and the reference implementation (test/cbor_ref/), which it compares with
fuzz_cbor_SRC := $(CBOR_SRC) $(wildcard test/cbor_ref/*.c)
fuzz_cbor_LIBS := -lcbor -lm
fuzz_cbor_MAX_LEN := 4096
fuzz_cbor_DICT := test/fuzz/cbor.dict
fuzz_cbor_SEEDS := $(B)/seeds/cbor
fuzz_cbor_SEEDS_DEP := $(B)/seeds/cbor/.stamp

$(B)/seeds/cbor/.stamp: $(B)/seeds/.stamp test/fuzz/make_cbor_seeds.py
	/usr/bin/python3 test/fuzz/make_cbor_seeds.py $(DATA) $(B)/seeds/json $(B)/seeds/cbor
	touch $@

# The stored form of large tapes (src/tape_store.c, outside CORE_SRC for its
# liblz4): its reader on hostile bytes, its writer at every level on what the
# input parses to. Seeds: the JSON seeds.
FUZZ_TARGETS += fuzz_store
fuzz_store_SRC := $(STORE_SRC)
fuzz_store_LIBS := -llz4
fuzz_store_MAX_LEN := 65536
fuzz_store_DICT := test/fuzz/json.dict
fuzz_store_SEEDS := $(B)/seeds/json
fuzz_store_SEEDS_DEP := $(B)/seeds/.stamp

FUZZ_RUN ?= $(FUZZ_TARGETS)

# Known, reported bugs a run may step over (comma-separated names, see
# test/fuzz/regressions/README.md); empty by default: every check is strict.
FJ_FUZZ_KNOWN ?=
export FJ_FUZZ_KNOWN

# ------------------------------------------------------------------ build

SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra -fsanitize=fuzzer $(SAN)
FUZZ_LDFLAGS := -fsanitize=fuzzer $(SAN)
# the seed generator: the same core, sanitized, without the fuzzer
SEED_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra $(SAN)

CORE_HDR := $(wildcard src/*.h src/simd/*.h)
CORE_OBJ := $(patsubst src/%.c,$(B)/obj/%.o,$(CORE_SRC))
SEED_OBJ := $(patsubst src/%.c,$(B)/obj-seed/%.o,$(CORE_SRC))
FUZZ_BINS := $(addprefix $(B)/,$(FUZZ_TARGETS))

all: $(FUZZ_BINS)

$(B)/obj/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(B)/obj-seed/%.o: src/%.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(SEED_CFLAGS) -c $< -o $@

.SECONDEXPANSION:
$(FUZZ_BINS): $(B)/%: test/fuzz/%.c test/fuzz/fuzz_common.h $(CORE_OBJ) $(CORE_HDR) $$($$*_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $($*_CFLAGS) $< $($*_SRC) $(CORE_OBJ) $(FUZZ_LDFLAGS) $($*_LIBS) -o $@

$(B)/make_seeds: test/fuzz/make_seeds.c $(SEED_OBJ) $(CORE_HDR)
	$(FUZZ_CC) $(SEED_CFLAGS) $< $(SEED_OBJ) -o $@

# ------------------------------------------------------------------ seeds

# Generated at run time from $(DATA) (never copied into the repository); with
# no $(DATA), make_seeds says so and writes only its built-in documents.
$(B)/seeds/.stamp: $(B)/make_seeds
	rm -rf $(B)/seeds
	mkdir -p $(B)/seeds
	$(B)/make_seeds $(DATA) $(B)/seeds/json $(B)/seeds/tape $(fuzz_parse_MAX_LEN) $(fuzz_tape_MAX_LEN)
	touch $@

seeds:
	rm -f $(B)/seeds/.stamp
	$(MAKE) -f fuzz.mk $(B)/seeds/.stamp

# ------------------------------------------------------------------- runs

# one run per target, in turn; status 1 if any target crashed
define run_targets
	@rm -f $(B)/summary-$(1).txt; status=0; \
	$(foreach t,$(FUZZ_RUN),B='$(B)' sh test/fuzz/run.sh $(1) $(t) '$($(t)_MAX_LEN)' '$($(t)_DICT)' \
		'$($(t)_SEEDS)' '$(FUZZ_SECONDS)' '$(2)' || status=1;) \
	echo "==== $(1) summary"; cat $(B)/summary-$(1).txt; exit $$status
endef

smoke: $(FUZZ_BINS) $(foreach t,$(FUZZ_RUN),$($(t)_SEEDS_DEP))
	$(call run_targets,smoke,smoke)

fuzz: $(FUZZ_BINS) $(foreach t,$(FUZZ_RUN),$($(t)_SEEDS_DEP))
	$(call run_targets,fuzz,$(FUZZ_LOG_TAG))

regress: $(FUZZ_BINS)
	$(call run_targets,regress,regress)

minimize: $(FUZZ_BINS)
	@test -n "$(T)" -a -f "$(F)" || { echo "usage: make -f fuzz.mk minimize T=<target> F=<crash file>"; exit 2; }
	mkdir -p $(B)/crashes
	$(B)/$(T) -minimize_crash=1 -runs=20000 -max_total_time=300 \
		-exact_artifact_path=$(B)/crashes/$(T)-minimized-$(notdir $(F)) $(F)
	@echo "minimized: $(B)/crashes/$(T)-minimized-$(notdir $(F))"

fuzz-clean:
	rm -rf $(B)

.PHONY: all seeds smoke fuzz regress minimize fuzz-clean
