#!/usr/bin/env bash
# pg_upgrade across major versions with fastjson: a cluster of the old
# version stores documents (small, large in the stored form, out of line) with
# GIN (both operator classes), hash and btree indexes and a hash-partitioned
# table; pg_upgrade moves it to the new version; every value must come back
# byte for byte (its send form), with the same hash, and every index must
# give the answers it gave before.
#
# usage: test/pg_upgrade.sh OLD_BINDIR NEW_BINDIR
# fastjson must be installed in both installations. Servers run as the
# postgres user on unix sockets in a throwaway folder.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?usage: pg_upgrade.sh OLD_BINDIR NEW_BINDIR}
NEW=${2:?usage: pg_upgrade.sh OLD_BINDIR NEW_BINDIR}
W=$(mktemp -d /tmp/fastjson-upgrade.XXXXXX)
PORT_OLD=$((57000 + RANDOM % 500))
PORT_NEW=$((PORT_OLD + 500))

as_pg() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
	as_pg "$OLD/pg_ctl" stop -D "$W/old" -m fast -s >/dev/null 2>&1 || true
	as_pg "$NEW/pg_ctl" stop -D "$W/new" -m fast -s >/dev/null 2>&1 || true
	rm -rf "$W"
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] && chown postgres "$W"
chmod 700 "$W"
cd "$W"

psql_old() { "$OLD/psql" -X -q -v ON_ERROR_STOP=1 -h "$W" -p "$PORT_OLD" -U postgres -d fj "$@"; }
psql_new() { "$NEW/psql" -X -q -v ON_ERROR_STOP=1 -h "$W" -p "$PORT_NEW" -U postgres -d fj "$@"; }
start() {	# BINDIR DATADIR PORT
	as_pg "$1/pg_ctl" start -D "$2" -l "$2.log" -w -s \
		-o "-c listen_addresses='' -c unix_socket_directories='$W' -c port=$3 -c fsync=off" >/dev/null
}

# What the test compares: each row's send form and hash, and each query's
# answer with sequential scans off (so the indexes answer).
snapshot() {	# psql function, output file
	"$1" -A -t >"$2" <<'SQL'
SET enable_seqscan = off;
SELECT 'row', id, md5(fastjson_send(doc)), fastjson_hash(doc), fastjson_hash_extended(doc, 7),
	fastjson_storage_form(doc), pg_column_compression(doc) IS NOT NULL FROM docs ORDER BY id;
SELECT 'gin ops @>', array_agg(id ORDER BY id) FROM docs WHERE doc @> '{"k":"c","nested":{"x":2}}';
SELECT 'gin ops ?', array_agg(id ORDER BY id) FROM docs WHERE doc ? 'a';
SELECT 'gin path_ops @>', array_agg(id ORDER BY id) FROM docs2 WHERE doc @> '{"k":"b"}';
SELECT 'hash =', array_agg(id ORDER BY id) FROM docs WHERE doc = '{"a":2}';
SELECT 'btree <', array_agg(id ORDER BY id) FROM docs WHERE doc < '{"id":3}' AND id % 50 <> 0;
SELECT 'lookup', sum((doc ->> 'id')::int), count(doc #>> '{nested,s}') FROM docs;
SELECT 'partitions', tableoid::regclass, count(*) FROM parts GROUP BY 2 ORDER BY 2;
SQL
}

echo "pg_upgrade.sh: old cluster ($("$OLD/postgres" -V))"
as_pg "$OLD/initdb" -D "$W/old" -E UTF8 --locale=C.UTF-8 -U postgres --auth=trust >"$W/initdb-old.log"
start "$OLD" "$W/old" "$PORT_OLD"
"$OLD/psql" -X -q -h "$W" -p "$PORT_OLD" -U postgres -d postgres -c 'CREATE DATABASE fj'
psql_old <<'SQL'
CREATE EXTENSION fastjson;
CREATE TABLE docs (id int PRIMARY KEY, doc fastjson);
INSERT INTO docs
SELECT g, format('{"id":%s,"k":"%s","n":%s,"nested":{"x":%s,"s":"%s"},"big":"%s"}',
	g, chr(97 + g % 5), CASE WHEN g % 3 = 0 THEN g || '.50' ELSE g::text END, g % 7, repeat('é', g % 9),
	CASE WHEN g % 50 = 0 THEN (SELECT string_agg(md5((g * 1000 + i)::text), '') FROM generate_series(1, 300) i)	-- out of line
		 WHEN g % 10 = 0 THEN repeat('abc', 2000) ELSE '' END)::fastjson	-- compressed in the row
FROM generate_series(1, 2000) g;
INSERT INTO docs VALUES (2001, '{"a":1,"a":2}'), (2002, '[1.0,1e2,-0.0,123456789012345678901234567890]'),
	(2003, '"\u0000"'), (2004, 'null');
CREATE TABLE docs2 AS SELECT * FROM docs;
CREATE INDEX docs_gin ON docs USING gin (doc);
CREATE INDEX docs2_gin_path ON docs2 USING gin (doc fastjson_path_ops);
CREATE INDEX docs_hash ON docs USING hash (doc);
-- a btree entry must fit in a page: not the out-of-line values
CREATE INDEX docs_btree ON docs (doc) WHERE id % 50 <> 0;
CREATE TABLE parts (doc fastjson) PARTITION BY HASH (doc);
CREATE TABLE parts0 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE parts1 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE parts2 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO parts SELECT doc FROM docs;
ANALYZE;
SQL
snapshot psql_old "$W/before.txt"
# Debian's PostgreSQL 15.20 gives every column an attribute option,
# pg_attver, that no other version knows: pg_dump --binary-upgrade writes it
# out and the new server rejects it, for any table, fastjson or not. Strip
# it from the user's columns so that pg_upgrade can run (nothing else reads it).
n=$(psql_old -A -t -c "SELECT count(*) FROM pg_attribute WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg\_attver=%'")
if [ "$n" -gt 0 ]; then
	echo "pg_upgrade.sh: NOTE: the old server wrote the unknown attribute option pg_attver on $n columns; removing it first"
	psql_old -c "UPDATE pg_attribute SET attoptions = NULLIF(array(SELECT o FROM unnest(attoptions) o WHERE o NOT LIKE 'pg\_attver=%'), '{}')
		WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg\_attver=%'"
fi
as_pg "$OLD/pg_ctl" stop -D "$W/old" -m fast -s

echo "pg_upgrade.sh: new cluster ($("$NEW/postgres" -V))"
checksums=
# (the help read whole first: grep -q would stop reading, and under pipefail
# initdb's SIGPIPE would make the test say no on a fast machine)
help=$("$NEW/initdb" --help)
case $help in *--no-data-checksums*) checksums=--no-data-checksums ;; esac
as_pg "$NEW/initdb" -D "$W/new" -E UTF8 --locale=C.UTF-8 -U postgres --auth=trust $checksums >"$W/initdb-new.log"
if ! as_pg "$NEW/pg_upgrade" -b "$OLD" -B "$NEW" -d "$W/old" -D "$W/new" -p "$PORT_OLD" -P "$PORT_NEW" \
	-U postgres --socketdir="$W" >"$W/pg_upgrade.log" 2>&1; then
	cat "$W/pg_upgrade.log"
	find "$W/new" -path "*pg_upgrade_output.d*" -name "*.log" -exec grep -B2 -A8 -m3 "ERROR" {} + 2>/dev/null || true
	echo "pg_upgrade.sh: pg_upgrade failed"
	exit 1
fi
start "$NEW" "$W/new" "$PORT_NEW"
snapshot psql_new "$W/after.txt"
psql_new -c "SELECT extversion FROM pg_extension WHERE extname = 'fastjson'" -A -t | sed 's/^/pg_upgrade.sh: fastjson version after upgrade: /'
# the indexes are used, not only present
psql_new -A -t -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE doc @> '{\"k\":\"c\"}'" \
	-c "EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE doc = '{\"a\":2}'" \
	-c "EXPLAIN (COSTS OFF) SELECT id FROM docs2 WHERE doc @> '{\"k\":\"b\"}'" | grep -E 'Index' | sed 's/^/pg_upgrade.sh:   /'
rows=$(grep -c '^row|' "$W/after.txt" || true)
blocks=$(grep -c '^row|.*|blocks|' "$W/after.txt" || true)
compressed=$(grep -c '^row|.*|t$' "$W/after.txt" || true)
if [ "$blocks" -eq 0 ]; then
	echo "pg_upgrade.sh: no value is in the stored form of large documents: the test lost its point"
	exit 1
fi
if ! diff "$W/before.txt" "$W/after.txt"; then
	echo "pg_upgrade.sh: values or answers differ after pg_upgrade"
	exit 1
fi
echo "pg_upgrade.sh: $rows values byte for byte ($blocks in the stored form of large documents, $compressed compressed by PostgreSQL), hashes, GIN/hash/btree answers and hash partitions as before"
