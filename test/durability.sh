#!/usr/bin/env bash
# durability.sh — fastjson values survive pg_dump / restore and COPY, byte for byte.
#
# usage: test/durability.sh [DATA_DIR]
#   Runs against the cluster named by PGHOST/PGPORT/PGUSER (scripts/test_sql.sh
#   runs it on its throwaway cluster); creates and drops databases fj_dur_*.
#
# A source database holds table docs: the corpus documents of DATA_DIR/corpus
# read client side (every *.json file, and the NDJSON files line by line;
# skipped with a message when DATA_DIR is absent) and generated documents:
# duplicate keys, number spellings (1.0, 1e2, -0, 30-digit integers, 1e400),
# unicode and escapes, \u0000 inside strings, nesting near the default limit,
# empty containers, scalars at the root, wide objects (key index), a large
# TOASTed document, random documents, and NULLs. It is copied five ways:
#   pg_dump -Fp restored with psql, -Fc with pg_restore, -Fd -j 2 with
#   pg_restore -j 2, COPY (FORMAT binary) out and in, COPY (text) out and in.
# Each copy must match the source: count, and md5 of the ordered per-row md5s
# of fastjson_send(v) and v::text, then row by row (diff of the per-row lists).
# A table with GIN (fastjson_ops, fastjson_path_ops), btree expression and
# btree fastjson indexes is dumped too; after each restore the indexes must be
# used (EXPLAIN), answer as a sequential scan does on the source, and pass
# amcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-}
PGBIN=/usr/lib/postgresql/15/bin
export PGUSER=${PGUSER:-postgres}
WORK=$(mktemp -d /tmp/fastjson-durability.XXXXXX)
SRC=fj_dur_src
DBS=(fj_dur_plain fj_dur_custom fj_dur_dir fj_dur_bincopy fj_dur_textcopy)
failures=0

P() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
Q() { local db=$1; shift; P -d "$db" -A -t -F ' ' -c "$@"; }

drop_all() {
	local db
	for db in "$SRC" "${DBS[@]}"; do
		P -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	done
}
cleanup() {
	drop_all
	rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
	echo "durability: FAIL: $*"
	failures=$((failures + 1))
}

drop_all
P -d postgres -c "CREATE DATABASE $SRC TEMPLATE template0 ENCODING 'UTF8'"

# ------------------------------------------------------------ the documents
{
	echo "SET client_min_messages = warning;"
	echo "CREATE EXTENSION fastjson;"
	echo "CREATE TABLE docs (id serial PRIMARY KEY, src text NOT NULL, f fastjson);"
	if [ -n "$DATA" ] && [ -d "$DATA/corpus" ]; then
		find "$DATA/corpus" -name '*.json' -type f | LC_ALL=C sort | while read -r file; do
			# shellcheck disable=SC2016 # psql's backquotes, not the shell's
			printf '\\set doc `cat %q`\n' "$file"
			printf "INSERT INTO docs (src, f) VALUES ('%s', :'doc');\n" "${file#"$DATA"/}"
		done
		find "$DATA/corpus" -name '*.ndjson' -type f | LC_ALL=C sort | while read -r file; do
			printf "CREATE TEMP TABLE nd (f fastjson);\n"
			printf "\\\\copy nd FROM %q WITH (FORMAT csv, QUOTE e'\\\\x01', DELIMITER e'\\\\x02')\n" "$file"
			printf "INSERT INTO docs (src, f) SELECT '%s', f FROM nd;\nDROP TABLE nd;\n" "${file#"$DATA"/}"
		done
	fi
	cat <<'SQL'
INSERT INTO docs (src, f) VALUES
	('duplicate keys', '{"a":1,"a":2,"b":{"c":1,"c":[1,2],"c":{}},"a":{"x":null},"a":"last"}'),
	('numbers', '[1.0,1e2,1E+2,1e-2,-0,-0.0,0.1000,123456789012345678901234567890,-123456789012345678901234567890,1e400,-1.5e-400,9223372036854775807,-9223372036854775808,9223372036854775808,-9223372036854775809,0,-1,23,24,-24,-25,255,256,65535,65536,4294967295,4294967296]'),
	('unicode', '["h\u00e9llo","é","☃","😀","\ud83d\ude00","\u4e2d\u6587","\"\\\/\b\f\n\r\t","\u001f\u007f","\uffff","\udbff\udfff"]'),
	('unicode keys', '{"é":1,"\u00e9":2,"😀":{"☃":"❄"},"":0}'),
	('nul in strings', '{"a":"x\u0000y","\u0000k":"\u0000","arr":["\u0000\u0000",1]}'),
	('empty array', '[]'), ('empty object', '{}'),
	('empty nested', '[[],{},[[]],{"":{}},[{}],{"a":[]}]'),
	('null', 'null'), ('true', 'true'), ('false', 'false'), ('zero', '0'), ('minus zero', '-0'),
	('float', '1.5e3'), ('empty string', '""'), ('string', '"just a string"'),
	('big integer', '123456789012345678901234567890'), ('negative', '-9223372036854775808'),
	('sql null', NULL), ('sql null', NULL), ('sql null', NULL);
INSERT INTO docs (src, f)
SELECT 'wide ' || n, ('{' || string_agg(format('"key%s":%s', i, i), ',' ORDER BY i) || '}')::fastjson
FROM (VALUES (9), (17), (300), (70000)) AS w(n), generate_series(1, n) AS i GROUP BY n ORDER BY n;
INSERT INTO docs (src, f) VALUES
	('wide with duplicates', (SELECT '{' || string_agg(format('"k%s":%s', i % 7, i), ',' ORDER BY i) || '}' FROM generate_series(1, 40) i)::fastjson),
	('deep arrays 9999', (repeat('[', 9999) || '1' || repeat(']', 9999))::fastjson),
	('deep arrays 10000', (repeat('[', 10000) || repeat(']', 10000))::fastjson),
	('deep objects 9999', (repeat('{"a":', 9999) || '"x"' || repeat('}', 9999))::fastjson),
	('deep mixed', (repeat('[{"k":', 4000) || '[]' || repeat('}]', 4000))::fastjson),
	('large', ('[' || repeat('{"id":12345,"name":"h\u00e9llo","v":1.25e3,"ok":true,"n":null},', 50000) || '0]')::fastjson),
	('large incompressible', (SELECT '[' || string_agg(format('"%s"', md5(i::text)), ',') || ']' FROM generate_series(1, 20000) i)::fastjson);
DO $$ BEGIN PERFORM setseed(0.42); END $$;
INSERT INTO docs (src, f)
SELECT 'random', format('{"i":%s,"s":"%s","f":%s,"a":[%s,%s,"%s"],"o":{"x":%s,"y":[%s]},"b":%s,"u":"\u00e9%s"}',
	g, md5(g::text), round((random() * 1e6)::numeric, (g % 7)), (random() * 1e9)::bigint, -g,
	repeat('x', g % 50), CASE WHEN g % 3 = 0 THEN 'null' ELSE (g * 1.5)::text END,
	CASE WHEN g % 5 = 0 THEN '' ELSE g::text || ',1e' || (g % 20) END, (g % 2 = 0)::text, chr(256 + g % 2000))::fastjson
FROM generate_series(1, 3000) g;
INSERT INTO docs (src, f) SELECT 'sql null', NULL;

-- a table with indexes
CREATE TABLE idx (id int PRIMARY KEY, f fastjson NOT NULL);
INSERT INTO idx SELECT g, format('{"k":"k%s","n":%s,"tags":["t%s","u%s"],"o":{"p":%s},"dup":0,"dup":%s,"x%s":true}',
	g % 100, g, g % 7, g % 11, g % 3, g % 5, g % 13)::fastjson FROM generate_series(1, 20000) g;
CREATE INDEX idx_gin ON idx USING gin (f);
CREATE INDEX idx_gin_path ON idx USING gin (f fastjson_path_ops);
CREATE INDEX idx_k ON idx ((f->>'k'));
CREATE INDEX idx_n ON idx (((f->>'n')::int));
CREATE INDEX idx_f ON idx (f);
ANALYZE docs;
ANALYZE idx;
SQL
} >"$WORK/load.sql"
if [ -z "$DATA" ] || [ ! -d "$DATA/corpus" ]; then
	echo "SKIP: data folder '${DATA}' is absent; corpus documents left out of the durability test"
fi
t0=$SECONDS
P -d "$SRC" -f "$WORK/load.sql"
Q "$SRC" "SELECT 'source: ' || count(*) || ' rows (' || count(f) || ' documents, ' ||
	count(*) FILTER (WHERE src LIKE 'corpus/%') || ' from the corpus), ' ||
	pg_size_pretty(sum(pg_column_size(f))) || ' stored' FROM docs"
echo "durability: source loaded in $((SECONDS - t0)) s"

# ---------------------------------------------------------------- the copies
t0=$SECONDS
"$PGBIN/pg_dump" -Fp -f "$WORK/plain.sql" "$SRC"
P -d postgres -c "CREATE DATABASE fj_dur_plain TEMPLATE template0 ENCODING 'UTF8'"
P -d fj_dur_plain -f "$WORK/plain.sql" >/dev/null
echo "durability: pg_dump -Fp | psql: $((SECONDS - t0)) s ($(du -h "$WORK/plain.sql" | cut -f1))"

t0=$SECONDS
"$PGBIN/pg_dump" -Fc -f "$WORK/custom.dump" "$SRC"
P -d postgres -c "CREATE DATABASE fj_dur_custom TEMPLATE template0 ENCODING 'UTF8'"
"$PGBIN/pg_restore" --exit-on-error -d fj_dur_custom "$WORK/custom.dump"
echo "durability: pg_dump -Fc | pg_restore: $((SECONDS - t0)) s ($(du -h "$WORK/custom.dump" | cut -f1))"

t0=$SECONDS
"$PGBIN/pg_dump" -Fd -j 2 -f "$WORK/dir.dump" "$SRC"
P -d postgres -c "CREATE DATABASE fj_dur_dir TEMPLATE template0 ENCODING 'UTF8'"
"$PGBIN/pg_restore" --exit-on-error -j 2 -d fj_dur_dir "$WORK/dir.dump"
echo "durability: pg_dump -Fd -j 2 | pg_restore -j 2: $((SECONDS - t0)) s"

for fmt in binary text; do
	db=fj_dur_${fmt/binary/bin}copy
	t0=$SECONDS
	P -d "$SRC" -c "\\copy docs TO '$WORK/docs.$fmt' WITH (FORMAT $fmt)" \
		-c "\\copy idx TO '$WORK/idx.$fmt' WITH (FORMAT $fmt)"
	P -d postgres -c "CREATE DATABASE $db TEMPLATE template0 ENCODING 'UTF8'"
	P -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION fastjson" \
		-c "CREATE TABLE docs (id serial PRIMARY KEY, src text NOT NULL, f fastjson)" \
		-c "CREATE TABLE idx (id int PRIMARY KEY, f fastjson NOT NULL)" \
		-c "\\copy docs FROM '$WORK/docs.$fmt' WITH (FORMAT $fmt)" \
		-c "\\copy idx FROM '$WORK/idx.$fmt' WITH (FORMAT $fmt)" \
		-c "CREATE INDEX idx_gin ON idx USING gin (f)" \
		-c "CREATE INDEX idx_gin_path ON idx USING gin (f fastjson_path_ops)" \
		-c "CREATE INDEX idx_k ON idx ((f->>'k'))" \
		-c "CREATE INDEX idx_n ON idx (((f->>'n')::int))" \
		-c "CREATE INDEX idx_f ON idx (f)" -c "ANALYZE docs" -c "ANALYZE idx"
	echo "durability: COPY (FORMAT $fmt) out and in: $((SECONDS - t0)) s ($(du -h "$WORK/docs.$fmt" | cut -f1))"
done

# ------------------------------------------------------------- the comparison
SUMMARY="SELECT count(*), count(f),
	md5(string_agg(id || ':' || src || ':' || coalesce(md5(fastjson_send(f)), 'NULL') || ':' || coalesce(md5(f::text), 'NULL'), ',' ORDER BY id)),
	(SELECT md5(string_agg(id || ':' || md5(fastjson_send(f)), ',' ORDER BY id)) FROM idx)
FROM docs"
ROWS="COPY (SELECT id, src, md5(fastjson_send(f)), md5(f::text), octet_length(fastjson_send(f)) FROM docs ORDER BY id) TO STDOUT"
expected=$(Q "$SRC" "$SUMMARY")
Q "$SRC" "$ROWS" >"$WORK/rows.src"
echo "durability: source summary: $expected"

# index queries: each answered by a sequential scan on the source, then by the
# named index on every copy
IQ=(
	"idx_gin|SELECT count(*), sum(id) FROM idx WHERE f ? 'x3'"
	"idx_gin|SELECT count(*), sum(id) FROM idx WHERE f ?| array['zz', 'x1', 'x2']"
	"idx_gin|SELECT count(*), sum(id) FROM idx WHERE f ?& array['k', 'x4']"
	"idx_gin|SELECT count(*), sum(id) FROM idx WHERE f @> '{\"tags\":[\"t3\"],\"dup\":4}'"
	"idx_gin_path|SELECT count(*), sum(id) FROM idx WHERE f @> '{\"o\":{\"p\":2},\"k\":\"k41\"}'"
	"idx_k|SELECT count(*), sum(id) FROM idx WHERE f->>'k' = 'k42'"
	"idx_n|SELECT count(*), sum(id) FROM idx WHERE (f->>'n')::int BETWEEN 100 AND 250"
	"idx_f|SELECT count(*), sum(id) FROM idx WHERE f = '{\"k\":\"k5\",\"n\":105,\"tags\":[\"t0\",\"u6\"],\"o\":{\"p\":0},\"dup\":0,\"x1\":true}'"
	"idx_f|SELECT count(*), sum(id) FROM idx WHERE f < '{\"k\":\"k1\",\"n\":1,\"tags\":[],\"o\":{},\"dup\":0,\"x0\":true}'"
)
declare -A iq_expected=()
for item in "${IQ[@]}"; do
	q=${item#*|}
	iq_expected[$q]=$(P -d "$SRC" -A -t -F ' ' -c "SET enable_indexscan = off" -c "SET enable_bitmapscan = off" -c "$q")
	echo "durability: by a sequential scan on the source: ${iq_expected[$q]} (count, sum of ids) for: $q"
done

check_copy() {
	local db=$1 got
	got=$(Q "$db" "$SUMMARY")
	if [ "$got" != "$expected" ]; then
		fail "$db: summary differs: $got"
	fi
	Q "$db" "$ROWS" >"$WORK/rows.$db"
	if ! diff -q "$WORK/rows.src" "$WORK/rows.$db" >/dev/null; then
		fail "$db: rows differ from the source:"
		diff "$WORK/rows.src" "$WORK/rows.$db" | head -n 10
	fi
	local n_ok=0 item index q want plan res
	for item in "${IQ[@]}"; do
		index=${item%%|*}
		q=${item#*|}
		want=${iq_expected[$q]}
		plan=$(P -d "$db" -A -t -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) $q")
		if [ "$index" = idx_gin ] || [ "$index" = idx_gin_path ]; then
			grep -Eq "Index Scan on idx_gin|Index Scan on idx_gin_path" <<<"$plan" || { fail "$db: no GIN index for: $q"; echo "$plan"; }
		else
			grep -Eq "(Index|Index Only) Scan (using|on) $index( |$)" <<<"$plan" || { fail "$db: $index not used for: $q"; echo "$plan"; }
		fi
		res=$(P -d "$db" -A -t -F ' ' -c "SET enable_seqscan = off" -c "$q")
		if [ "$res" != "$want" ]; then
			fail "$db: $q gives '$res' through $index, '$want' by a sequential scan on the source"
		else
			n_ok=$((n_ok + 1))
		fi
	done
	P -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS amcheck" \
		-c "SELECT bt_index_check(c.oid, true) FROM pg_class c WHERE relname IN ('idx_k', 'idx_n', 'idx_f', 'idx_pkey', 'docs_pkey')" \
		>/dev/null || fail "$db: amcheck found a problem in a btree index"
	echo "durability: $db: $(head -c 60 <<<"$got")... identical, $(wc -l <"$WORK/rows.$db") rows identical," \
		"$n_ok/${#IQ[@]} index queries right through their index"
}

for db in "${DBS[@]}"; do
	check_copy "$db"
done

if [ "$failures" -ne 0 ]; then
	echo "durability: $failures failure(s)"
	exit 1
fi
echo "durability: all checks passed"
