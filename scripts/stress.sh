#!/usr/bin/env bash
# The concurrency stress test (`make stress`): pgbench runs test/stress.sql
# with 8 clients for 2 minutes on one table (id int primary key, f fastjson,
# j jsonb) preloaded with 1000 rows. Every transaction upserts from text,
# extracts, updates with || and with subscripts, keeping j as the jsonb shadow
# of f in the same statements, and fails (division by zero) if f and j ever
# disagree. Passes when pgbench reports no failed transaction and no aborted
# client, and afterwards every row has f::jsonb = j, f::text::jsonb = j and
# f = j::fastjson.
#
# usage: scripts/stress.sh                    install what is missing, build,
#                                             install, run on a throwaway cluster
#        scripts/stress.sh --cluster-running  use the running cluster named by
#                                             PGHOST/PGPORT/PGUSER (test_sql.sh)
#   STRESS_SECONDS=N  duration (default 120)    STRESS_CLIENTS=N  clients (default 8)
#   STRESS_ROWS=N     preloaded rows (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${STRESS_SECONDS:-120}
CLIENTS=${STRESS_CLIENTS:-8}
ROWS=${STRESS_ROWS:-1000}
PGBIN=/usr/lib/postgresql/15/bin
DB=fastjson_stress

if [ "${1:-}" = "--cluster-running" ]; then
	if [ -z "${PGHOST:-}" ] || [ -z "${PGPORT:-}" ]; then
		echo "stress.sh: --cluster-running needs PGHOST and PGPORT" >&2
		exit 2
	fi
elif [ $# -eq 0 ]; then
	bash scripts/deps.sh build
	make -s -j2
	make -s install
	DIR=$(mktemp -d /tmp/fastjson-stress.XXXXXX)
	chmod 755 "$DIR"
	PORT=${FJ_STRESS_PORT:-$((57000 + RANDOM % 1000))}
	cleanup() {
		bash scripts/cluster.sh stop "$DIR/pg" >/dev/null 2>&1 || true
		rm -rf "$DIR"
	}
	trap cleanup EXIT
	eval "export $(bash scripts/cluster.sh start "$DIR/pg" "$PORT")"
else
	echo "usage: $0 [--cluster-running]" >&2
	exit 2
fi
export PGUSER=${PGUSER:-postgres}

psql_db() {
	"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"
}

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" \
	-c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql_db <<SQL
SET client_min_messages = warning;
CREATE EXTENSION fastjson;
CREATE TABLE stress (id int PRIMARY KEY, f fastjson NOT NULL, j jsonb NOT NULL);
INSERT INTO stress (id, f, j)
SELECT g, d::fastjson, d::jsonb
FROM generate_series(1, $ROWS) AS g,
	LATERAL (SELECT format('{"k":"v%s","a":{"b":%s,"c":[%s,"x"]},"num":%s,"dup":1,"dup":"d","u":"\u00e9","z":null,"t":true,"e":[],"o":{}}',
		g, g * 7, g, g || '.50') AS d) AS src;
ANALYZE stress;
SQL
echo "stress: $CLIENTS clients for $DURATION s on $ROWS preloaded rows (test/stress.sql)"

out=$(mktemp)
rc=0
"$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$DURATION" -P 30 -D rows="$ROWS" \
	-f test/stress.sql "$DB" 2>&1 | tee "$out" || rc=$?

failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$out")
processed=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out")
aborted=$(grep -c 'aborted in command\|client [0-9]* aborted' "$out" || true)
errors=$(grep -c 'ERROR' "$out" || true)
rm -f "$out"

ok=1
if [ "$rc" -ne 0 ]; then echo "stress: pgbench exited with status $rc"; ok=0; fi
if [ -z "$failed" ] || [ "$failed" != 0 ]; then echo "stress: failed transactions: '${failed}'"; ok=0; fi
if [ -z "$processed" ] || [ "$processed" -eq 0 ]; then echo "stress: no transaction processed"; ok=0; fi
if [ "$aborted" -ne 0 ] || [ "$errors" -ne 0 ]; then echo "stress: $aborted aborted clients, $errors errors"; ok=0; fi

# every row equals its shadow, through every path
check=$(psql_db -A -t -F ' ' -c "
SELECT count(*),
	count(*) FILTER (WHERE f::jsonb IS DISTINCT FROM j),
	count(*) FILTER (WHERE f::text::jsonb IS DISTINCT FROM j),
	count(*) FILTER (WHERE f IS DISTINCT FROM j::fastjson),
	count(*) FILTER (WHERE f->>'k' IS DISTINCT FROM j->>'k' OR f #>> '{a,b}' IS DISTINCT FROM j #>> '{a,b}'),
	count(*) FILTER (WHERE fastjson_send(f::text::fastjson) <> fastjson_send(f))
FROM stress")
read -r nrows d_jsonb d_text d_eq d_extract d_tape <<<"$check"
echo "stress: $nrows rows after the run; rows differing from their shadow: f::jsonb $d_jsonb," \
	"f::text::jsonb $d_text, f = j::fastjson $d_eq, extraction $d_extract; text re-parse changes tape: $d_tape"
if [ "$d_jsonb" != 0 ] || [ "$d_text" != 0 ] || [ "$d_eq" != 0 ] || [ "$d_extract" != 0 ] || [ "$d_tape" != 0 ]; then
	psql_db -c "SELECT id, f::text, j::text FROM stress WHERE f::jsonb IS DISTINCT FROM j OR f::text::jsonb IS DISTINCT FROM j LIMIT 5"
	ok=0
fi
# the indexes and the heap are consistent after the concurrent updates
psql_db -c "CREATE EXTENSION IF NOT EXISTS amcheck" \
	-c "SELECT bt_index_check('stress_pkey', true)" >/dev/null || { echo "stress: amcheck failed"; ok=0; }

"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" || true
if [ "$ok" -eq 1 ]; then
	echo "stress: passed ($processed transactions, 0 failed)"
else
	echo "stress: FAILED"
	exit 1
fi
