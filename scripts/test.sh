#!/usr/bin/env bash
# The whole fastjson test suite (what `make test` and CI run). On a fresh
# Debian 12 machine as root it installs what is missing, then runs:
#   1. the core's C tests (unit, conformance, kernel differential) and the
#      JSON-aware round-trip check, in a release build;
#   2. the same C tests in an AddressSanitizer + UBSan build;
#   3. the same C tests cross-compiled for ARM64 and run under qemu (NEON kernel);
#   3b. the libFuzzer targets over their regression inputs, then a short smoke
#      run of each (FUZZ_SECONDS, default 60);
#   4. the extension: build with -Wall -Wextra -Werror, install, start a
#      throwaway cluster run by the postgres user, pg_regress, then
#      conformance and round trips through SQL over ../shared/data, then the
#      hardening checks (test/hostile.py, test/durability.sh, test/memory.py,
#      test/parallel.py, and a pgbench stress run of STRESS_SECONDS, default 120).
#   4b. the client recipes (clients/run_tests.sh): psycopg, asyncpg, SQLAlchemy,
#      node-postgres and JDBC read and write every corpus document losslessly,
#      and the read path's speed against jsonb.
#   5. Citus (test/citus.sh): built once into a cache, a coordinator and two
#      workers on loopback ports; queries, indexes, joins, INSERT ... SELECT and
#      aggregates on distributed tables against local fastjson and jsonb copies.
#   6. the version matrix (scripts/test_matrix.sh): each PostgreSQL source tree
#      in ../shared/postgres (16 to 19) built once into a cache, fastjson built
#      and installed against it, pg_regress and the SQL conformance checks on
#      a throwaway cluster; then pg_upgrade to the newest with fastjson data.
# Every step runs even if an earlier one fails; the last line is
# "N passed, N failed" over the steps, and the exit status is nonzero on any failure.
#
# usage: scripts/test.sh [MAJOR]
#   MAJOR 15: only steps 1-4 (Debian's PostgreSQL 15); another MAJOR (16-19):
#   only that version of the matrix.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DATA=${FJ_DATA:-$ROOT/../shared/data}
JOBS=${JOBS:-2}
passed=0
failed=0
failures=()

step() {
	local name=$1
	shift
	echo
	echo "=== $name"
	local t0=$SECONDS
	# a step may name the parts of it that failed, one per line, in this file
	FJ_FAILED_PARTS=$(mktemp)
	export FJ_FAILED_PARTS
	if "$@"; then
		passed=$((passed + 1))
		echo "--- ok: $name ($((SECONDS - t0)) s)"
	else
		failed=$((failed + 1))
		if [ -s "$FJ_FAILED_PARTS" ]; then
			failures+=("$name: $(sed ':a;N;$!ba;s/\n/; /g' "$FJ_FAILED_PARTS")")
		else
			failures+=("$name")
		fi
		echo "--- FAILED: $name ($((SECONDS - t0)) s)"
	fi
	rm -f "$FJ_FAILED_PARTS"
}

core_tests() {
	local dir=$1 runner=${2:-}
	local t rc=0
	for t in test_core test_refs test_conformance test_kernels test_cbor test_store; do
		# the ARM64 cross build has no libcbor or liblz4, so no test_cbor or test_store
		if { [ "$t" = test_cbor ] || [ "$t" = test_store ]; } && [ ! -e "$dir/$t" ]; then
			echo "SKIP: $dir/$t not built (no libcbor or liblz4 for this target)"
			continue
		fi
		FJ_DATA=$DATA $runner "$dir/$t" || rc=1
	done
	return $rc
}

sql_suite() {
	bash scripts/test_sql.sh "$DATA"
}

ONLY=${1:-}
bash scripts/deps.sh test || { echo "could not install the test dependencies"; exit 1; }

if [ -n "$ONLY" ] && [ "$ONLY" != 15 ]; then
	step "version matrix: PostgreSQL $ONLY" bash scripts/test_matrix.sh "$ONLY"
	echo
	echo "fastjson test suite: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

step "core build (release)" make -s -f core.mk -j"$JOBS"
step "core tests (release)" core_tests build/release
step "JSON-aware round trip of the corpus" python3 test/json_equal.py build/release/fastjson_parse "$DATA"
step "core build (ASan + UBSan)" make -s -f core.mk VARIANT=asan -j"$JOBS"
step "core tests (ASan + UBSan)" core_tests build/asan
step "core build (ARM64 cross)" make -s -f core.mk CC=aarch64-linux-gnu-gcc VARIANT=arm64 -j"$JOBS"
step "core tests (ARM64 under qemu, NEON kernel)" core_tests build/arm64 "qemu-aarch64 -L /usr/aarch64-linux-gnu"
step "fuzz targets: build and regression inputs" bash -c "make -s -f fuzz.mk -j$JOBS && make -s -f fuzz.mk regress"
step "fuzz smoke (${FUZZ_SECONDS:-60} s per target)" make -s -f fuzz.mk smoke FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
step "extension build and install (-Wall -Wextra -Werror)" bash -c "make -s -j$JOBS && make -s install"
step "extension tests (pg_regress and SQL conformance)" sql_suite
step "client recipes (psycopg, asyncpg, SQLAlchemy, node-postgres, JDBC)" env FJ_DATA="$DATA" bash clients/run_tests.sh
step "Citus: a coordinator and two workers (test/citus.sh)" bash test/citus.sh
if [ -z "$ONLY" ]; then
	step "version matrix (PostgreSQL 16 and later) and pg_upgrade" bash scripts/test_matrix.sh
fi

echo
if [ "$failed" -gt 0 ]; then
	printf 'failed step: %s\n' "${failures[@]}"
fi
echo "fastjson test suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
