#!/usr/bin/env bash
# The extension's tests on a throwaway cluster run by the postgres user:
# pg_regress (sql/, expected/), then conformance and round trips through SQL
# over the data folder (skipped with a message when it is absent), then the
# jsonpath differential against jsonb (test/jsonpath_differential.py).
# usage: test_sql.sh DATA_DIR     (the extension must be installed)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=$1
DIR=$(mktemp -d /tmp/fastjson-test.XXXXXX)
PORT=${FJ_TEST_PORT:-$((55000 + RANDOM % 1000))}
cleanup() {
	bash scripts/cluster.sh stop "$DIR/pg" >/dev/null 2>&1 || true
	rm -rf "$DIR"
}
trap cleanup EXIT
chmod 755 "$DIR"
eval "export $(bash scripts/cluster.sh start "$DIR/pg" "$PORT")"
export PGDATABASE=postgres

rc=0
# names a failed part for the suite's last lines (scripts/test.sh sets the file)
failed_part() {
	rc=1
	[ -n "${FJ_FAILED_PARTS:-}" ] && echo "$1" >>"$FJ_FAILED_PARTS"
	return 0
}
make -s installcheck || {
	failed_part "pg_regress"
	[ -f regression.diffs ] && head -n 200 regression.diffs
}

if [ -d "$DATA" ]; then
	# The server reads the files itself (pg_read_binary_file): give it a copy
	# it may read, in the throwaway directory, outside the project.
	mkdir -p "$DIR/pg/data-copy"
	cp -r "$DATA/jsontestsuite" "$DATA/corpus" "$DIR/pg/data-copy/"
	chown -R postgres "$DIR/pg/data-copy" 2>/dev/null || true
	psql -X -q -v ON_ERROR_STOP=1 -v data="$DIR/pg/data-copy" -f test/sql_conformance.sql || failed_part "SQL conformance"
	/usr/bin/python3 test/cbor_crosscheck.py "$DATA" || failed_part "CBOR cross-check"
else
	echo "SKIP: data folder $DATA is absent; SQL conformance and corpus round trips skipped"
fi

# SQL/JSON path against jsonb: generated expressions over generated documents
# and the corpus (skipped with a message when absent), and GIN index scans
# against sequential scans
/usr/bin/python3 test/jsonpath_differential.py "$DATA/corpus" || failed_part "jsonpath differential"

# Hardening: hostile input, dump/restore and COPY, flat memory, parallel
# query, and the pgbench stress run (STRESS_SECONDS, default 120). Each step
# runs even if an earlier one failed; any failure makes the script fail.
hardening() {
	local name=$1 t0=$SECONDS
	shift
	echo "=== hardening: $name"
	if "$@"; then
		echo "--- ok: $name ($((SECONDS - t0)) s)"
	else
		echo "--- FAILED: $name ($((SECONDS - t0)) s)"
		failed_part "$name"
	fi
}
hardening "hostile input (test/hostile.py)" /usr/bin/python3 test/hostile.py
hardening "dump, restore and COPY (test/durability.sh)" bash test/durability.sh "$DATA"
hardening "flat memory (test/memory.py)" /usr/bin/python3 test/memory.py
hardening "parallel query (test/parallel.py)" /usr/bin/python3 test/parallel.py
hardening "pgbench stress (scripts/stress.sh)" bash scripts/stress.sh --cluster-running
exit $rc
