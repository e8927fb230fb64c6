#!/usr/bin/env bash
# fastjson under Citus: a coordinator and two workers on loopback ports (each
# a throwaway cluster of Debian's PostgreSQL 15, run by the postgres user),
# Citus built once into a cache (scripts/citus_build.sh). Every query runs on
# the distributed tables and on local copies of the same data, one fastjson
# and one jsonb; the distributed answers must equal the local fastjson ones,
# which must agree with jsonb's.
#
# usage: test/citus.sh [CITUS_DIR]       (default ../shared/citus; skipped with a message if absent)
# ROWS (default 50000) sets the size of the event log.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CITUS=${1:-$ROOT/../shared/citus}
ROWS=${ROWS:-50000}
if [ ! -d "$CITUS" ] || ! ls "$CITUS"/citus-*.tar.gz >/dev/null 2>&1; then
	echo "SKIP: $CITUS is absent: the Citus test is skipped"
	exit 0
fi
bash scripts/citus_build.sh "$CITUS" || exit 1

W=$(mktemp -d /tmp/fastjson-citus.XXXXXX)
chmod 755 "$W"
BASE=$((58500 + RANDOM % 400))
PORTS=("$BASE" $((BASE + 1)) $((BASE + 2)))
NAMES=(coordinator worker1 worker2)
cleanup() {
	for n in "${NAMES[@]}"; do bash scripts/cluster.sh stop "$W/$n" >/dev/null 2>&1; done
	rm -rf "$W"
}
trap cleanup EXIT

failures=0
checks=0
pass() { checks=$((checks + 1)); echo "ok   $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $*"; }

for i in 0 1 2; do
	# TCP on 127.0.0.1 (Citus connects to its nodes by host and port), sockets in the folder
	bash scripts/cluster.sh start "$W/${NAMES[$i]}" "${PORTS[$i]}" shared_preload_libraries=citus \
		listen_addresses=127.0.0.1 max_worker_processes=16 >/dev/null || { echo "could not start ${NAMES[$i]}"; exit 1; }
done
q() {	# node, psql arguments...
	local i=$1
	shift
	/usr/lib/postgresql/15/bin/psql -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${PORTS[$i]}" -U postgres -d postgres "$@"
}
for i in 1 2; do q $i -c 'CREATE EXTENSION citus' || exit 1; done
q 0 <<SQL || exit 1
CREATE EXTENSION citus;
SELECT citus_set_coordinator_host('127.0.0.1', ${PORTS[0]});
SELECT citus_add_node('127.0.0.1', ${PORTS[1]});
SELECT citus_add_node('127.0.0.1', ${PORTS[2]});
CREATE EXTENSION fastjson;
SQL
echo "Citus $(q 0 -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'"), fastjson $(q 0 -c "SELECT extversion FROM pg_extension WHERE extname = 'fastjson'"), nodes: $(q 0 -c "SELECT string_agg(nodename || ':' || nodeport, ' ') FROM pg_dist_node")"

# CREATE EXTENSION propagated to the workers
for i in 1 2; do
	v=$(q $i -c "SELECT extversion FROM pg_extension WHERE extname = 'fastjson'")
	[ -n "$v" ] && pass "CREATE EXTENSION fastjson reached ${NAMES[$i]} (version $v)" || fail "fastjson is not on ${NAMES[$i]}"
done

# The event log: a tenant, then the document, for COPY with the CSV trick.
/usr/bin/python3 scripts/gen_events.py --rows "$ROWS" --seed 19 2>/dev/null |
	awk '{ printf "%d\002%s\n", NR % 24, $0 }' >"$W/events.csv"
chmod 644 "$W/events.csv"
copy="WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')"
q 0 <<SQL || exit 1
SET citus.shard_count = 8;
CREATE TABLE events (tenant int, doc fastjson);
SELECT create_distributed_table('events', 'tenant');
CREATE TABLE local_f (tenant int, doc fastjson);
CREATE TABLE local_j (tenant int, doc jsonb);
\copy events FROM '$W/events.csv' $copy
\copy local_f FROM '$W/events.csv' $copy
\copy local_j FROM '$W/events.csv' $copy
CREATE INDEX events_gin ON events USING gin (doc);
CREATE INDEX local_f_gin ON local_f USING gin (doc);
-- distributed by the document itself, and a second table co-located with it
CREATE TABLE by_doc (id bigint, doc fastjson);
SELECT create_distributed_table('by_doc', 'doc');
CREATE TABLE by_doc2 (id bigint, doc fastjson);
SELECT create_distributed_table('by_doc2', 'doc', colocate_with => 'by_doc');
-- INSERT ... SELECT between distributed tables (repartitioned: another distribution column)
INSERT INTO by_doc SELECT (doc ->> 'id')::bigint, doc FROM events;
INSERT INTO by_doc2 SELECT (doc ->> 'id')::bigint, doc FROM events WHERE (doc ->> 'id')::bigint % 3 = 0;
-- a reference table: on every node
CREATE TABLE services (name text PRIMARY KEY, info fastjson);
SELECT create_reference_table('services');
INSERT INTO services SELECT s, format('{"name":"%s","tier":%s}', s, length(s) % 3)::fastjson
FROM (SELECT DISTINCT doc ->> 'service' AS s FROM local_f WHERE doc ? 'service') x;
CREATE TABLE local_services AS SELECT * FROM services;
ANALYZE;
SQL
n=$(q 0 -c "SELECT count(*) FROM events")
[ "$n" = "$ROWS" ] && pass "COPY into the distributed table: $n rows" || fail "COPY into the distributed table: $n rows, not $ROWS"
shards=$(q 0 -c "SELECT count(DISTINCT nodeport) FROM pg_dist_shard_placement p JOIN pg_dist_shard s USING (shardid) WHERE logicalrelid = 'events'::regclass")
[ "$shards" = 2 ] && pass "the shards of events are on both workers" || fail "the shards of events are on $shards nodes"

# Each check: a query with {T} (and {S}) for the table (and the services
# table); its answer on the distributed tables must equal the local fastjson
# one, and the local fastjson one must equal the local jsonb one.
check() {
	local label=$1 sql=$2 setting=${3:-}
	local dist loc jb
	dist=$(q 0 -c "$setting" -c "$(echo "${sql//\{T\}/events}" | sed 's/{S}/services/g')" 2>&1) ||
		{ fail "$label: $dist"; return; }
	loc=$(q 0 -c "$(echo "${sql//\{T\}/local_f}" | sed 's/{S}/local_services/g')" 2>&1)
	jb=$(q 0 -c "$(echo "${sql//\{T\}/local_j}" | sed 's/{S}/local_services/g; s/::fastjson/::jsonb/g; s/fastjson_agg/jsonb_agg/g')" 2>&1)
	if [ "$dist" != "$loc" ]; then
		fail "$label: distributed and local answers differ"
		diff <(echo "$dist") <(echo "$loc") | head -n 10
	elif [ "$loc" != "$jb" ]; then
		fail "$label: fastjson and jsonb answers differ"
		diff <(echo "$loc") <(echo "$jb") | head -n 10
	else
		pass "$label ($(echo "$dist" | wc -l) lines of answer)"
	fi
}
check "->> filter" "SELECT count(*) FROM {T} WHERE doc ->> 'type' = 'http_request'"
check "#>> filter, numbers" "SELECT count(*), sum((doc #>> '{http,status}')::int) FROM {T} WHERE (doc #>> '{http,status}')::int >= 500"
check "GROUP BY doc->>'type'" "SELECT doc ->> 'type', count(*) FROM {T} GROUP BY 1 ORDER BY 1"
check "GROUP BY a nested key" "SELECT doc #>> '{client,geo,city}', count(*) FROM {T} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10"
check "sum of (doc->>'id')::bigint" "SELECT sum((doc ->> 'id')::bigint), count(*) FROM {T}"
check "sum by tenant" "SELECT tenant, sum((doc ->> 'id')::bigint) FROM {T} GROUP BY 1 ORDER BY 1"
check "@> containment" "SELECT count(*) FROM {T} WHERE doc @> '{\"type\":\"error\"}'"
check "@> nested" "SELECT count(*) FROM {T} WHERE doc @> '{\"http\":{\"method\":\"POST\"}}'"
check "? key exists" "SELECT count(*) FROM {T} WHERE doc ? 'big_id'"
check "ORDER BY doc LIMIT" "SELECT doc ->> 'id' FROM {T} ORDER BY doc LIMIT 20"
check "ORDER BY doc DESC LIMIT" "SELECT doc ->> 'id' FROM {T} ORDER BY doc DESC LIMIT 20"
check "DISTINCT doc" "SELECT count(*) FROM (SELECT DISTINCT doc FROM {T}) s"
check "DISTINCT on a subdocument" "SELECT count(*) FROM (SELECT DISTINCT doc -> 'user' FROM {T}) s"
check "join with a reference table" "SELECT i.info ->> 'tier', count(*) FROM {T} e JOIN {S} i ON i.name = e.doc ->> 'service' GROUP BY 1 ORDER BY 1"
check "aggregate of documents" "SELECT md5((fastjson_agg(doc -> 'user' ORDER BY doc ->> 'id'))::jsonb::text) FROM {T} WHERE tenant = 3"

# Binary transfer between nodes (send/recv): whole documents come back byte for byte
sum_d=$(q 0 -c "SELECT md5(string_agg(md5(fastjson_send(doc)), '' ORDER BY doc ->> 'id')) FROM events")
sum_l=$(q 0 -c "SELECT md5(string_agg(md5(fastjson_send(doc)), '' ORDER BY doc ->> 'id')) FROM local_f")
[ "$sum_d" = "$sum_l" ] && pass "every document fetched from the workers is byte for byte the stored one" || fail "documents fetched from the workers differ"
bin=$(q 0 -c "SHOW citus.enable_binary_protocol")
echo "     (citus.enable_binary_protocol = $bin: workers send results in binary, fastjson_send/fastjson_recv)"

# GIN inside the tasks
plan=$(q 0 -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE doc @> '{\"type\":\"error\"}'")
if echo "$plan" | grep -q 'Bitmap Index Scan on events_gin_'; then
	pass "GIN-indexed @>: the index is used inside the tasks ($(echo "$plan" | grep -m1 -o 'Bitmap Index Scan on events_gin_[0-9]*'))"
else
	fail "GIN-indexed @>: no index scan in the tasks"; echo "$plan"
fi

# Distributed by a fastjson column: equal documents spelled differently hash to one shard
doc=$(q 0 -c "SELECT doc::text FROM by_doc WHERE id = (SELECT min(id) FROM by_doc)")
respelled=$(q 0 -c "SELECT (SELECT fastjson_object_agg(key, value ORDER BY key DESC) FROM fastjson_each('$doc'::fastjson))::text")
got=$(q 0 -c "SELECT id FROM by_doc WHERE doc = '$respelled'")
plan=$(q 0 -c "EXPLAIN (COSTS OFF) SELECT id FROM by_doc WHERE doc = '$respelled'")
want=$(q 0 -c "SELECT min(id) FROM by_doc")
if [ "$got" = "$want" ] && echo "$plan" | grep -q 'Task Count: 1'; then
	pass "distributed by doc: the same document with its keys in another order finds its row on one shard (Task Count: 1)"
else
	fail "distributed by doc: lookup by a respelled document gave '$got' (want $want)"; echo "$plan" | head -n 8
fi
got=$(q 0 -c "SELECT count(*) FROM by_doc WHERE doc = '{\"b\":2,\"a\":1.0}'")
q 0 -c "INSERT INTO by_doc VALUES (-1, '{\"a\":1,\"b\":2}')"
got=$(q 0 -c "SELECT id FROM by_doc WHERE doc = '{\"b\":2.00,\"a\":1e0}'")
[ "$got" = -1 ] && pass "distributed by doc: {\"a\":1,\"b\":2} found as {\"b\":2.00,\"a\":1e0}" || fail "distributed by doc: respelled numbers not found ($got)"
q 0 -c "DELETE FROM by_doc WHERE id = -1"

# INSERT ... SELECT kept every row; a co-located join on doc
check "INSERT ... SELECT (repartitioned by doc)" "SELECT count(*), sum((doc ->> 'id')::bigint) FROM {T}" ""
n1=$(q 0 -c "SELECT count(*), sum(id) FROM by_doc")
n2=$(q 0 -c "SELECT count(*), sum((doc ->> 'id')::bigint) FROM local_f")
[ "$n1" = "$n2" ] && pass "INSERT ... SELECT into the table distributed by doc: every row ($n1)" || fail "INSERT ... SELECT: $n1, local $n2"
plan=$(q 0 -c "EXPLAIN (COSTS OFF) SELECT count(*) FROM by_doc a JOIN by_doc2 b ON a.doc = b.doc")
j1=$(q 0 -c "SELECT count(*), sum(a.id) FROM by_doc a JOIN by_doc2 b ON a.doc = b.doc")
j2=$(q 0 -c "SELECT count(*), sum((a.doc ->> 'id')::bigint) FROM local_f a JOIN local_f b ON a.doc = b.doc AND (b.doc ->> 'id')::bigint % 3 = 0")
if [ "$j1" = "$j2" ] && ! echo "$plan" | grep -qi 'repartition'; then
	pass "co-located join on doc: $j1, pushed down without repartitioning"
else
	fail "co-located join on doc: $j1 against local $j2"; echo "$plan" | head -n 12
fi
# a join on doc that is not co-located needs citus.enable_repartition_joins
j3=$(q 0 -c "SET citus.enable_repartition_joins = on" -c "SELECT count(*) FROM events a JOIN by_doc2 b ON a.doc = b.doc")
j4=$(q 0 -c "SELECT count(*) FROM local_f a JOIN local_f b ON a.doc = b.doc AND (b.doc ->> 'id')::bigint % 3 = 0")
[ "$j3" = "$j4" ] && pass "repartition join on doc (citus.enable_repartition_joins): $j3 rows" || fail "repartition join on doc: $j3, local $j4"

# Aggregates run on the workers: with coordinator aggregation disabled they must work
# (the overloads for fastjson arguments: Citus refuses polymorphic ones there)
for agg in "fastjson_agg(doc -> 'id')" "fastjson_object_agg(doc ->> 'id', doc -> 'type')" \
	"fastjson_agg_strict(doc -> 'big_id')" "fastjson_object_agg_unique(doc ->> 'id', doc -> 'user')"; do
	r=$(q 0 -c "SET citus.coordinator_aggregation_strategy = 'disabled'" \
		-c "SELECT md5(string_agg(e::text, ',' ORDER BY e::text)) FROM (SELECT jsonb_array_elements(to_jsonb(x)) e FROM (SELECT jsonb_path_query_array(($agg)::jsonb, '\$.*') x FROM events) s) t" 2>&1)
	l=$(q 0 -c "SELECT md5(string_agg(e::text, ',' ORDER BY e::text)) FROM (SELECT jsonb_array_elements(to_jsonb(x)) e FROM (SELECT jsonb_path_query_array(($agg)::jsonb, '\$.*') x FROM local_f) s) t" 2>&1)
	if [ "$r" = "$l" ]; then pass "$agg runs on the workers (coordinator aggregation disabled), same members as local"
	else fail "$agg with coordinator aggregation disabled: $r"; fi
done
plan=$(q 0 -c "SET citus.coordinator_aggregation_strategy = 'disabled'" -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT fastjson_agg(doc -> 'id') FROM events")
if echo "$plan" | grep -q 'worker_partial_agg' && echo "$plan" | grep -q 'coord_combine_agg'; then
	pass "EXPLAIN: an aggregate inside each task (worker_partial_agg), combined on the coordinator (coord_combine_agg)"
else
	fail "EXPLAIN shows no partial aggregate in the tasks"; echo "$plan" | head -n 20
fi
g1=$(q 0 -c "SET citus.coordinator_aggregation_strategy = 'disabled'" -c "SELECT doc ->> 'type', fastjson_array_length(fastjson_agg(doc -> 'id')) FROM events GROUP BY 1 ORDER BY 1")
g2=$(q 0 -c "SELECT doc ->> 'type', fastjson_array_length(fastjson_agg(doc -> 'id')) FROM local_f GROUP BY 1 ORDER BY 1")
[ "$g1" = "$g2" ] && pass "fastjson_agg grouped by doc->>'type' on the workers: same sizes as local" || fail "grouped fastjson_agg differs"
# a state that is not a fastjson tape is refused, not trusted
# a state from a node is a fastjson value (read by fastjson_in/fastjson_recv, which
# validate it); one of the wrong shape is an error, not a crash
bad=$(q 0 -c "SELECT coord_combine_agg('fastjson_agg(fastjson)'::regprocedure, '{\"a\":1}'::cstring, NULL::fastjson)" 2>&1)
echo "$bad" | grep -q 'fastjson aggregate state must be an array' && pass "a state of the wrong shape is an error, not a crash" || fail "state of the wrong shape: $bad"

# The same hashes on every node decide placement
h0=$(q 0 -c "SELECT fastjson_hash('{\"a\":[1,2.5]}')")
h1=$(q 1 -c "SELECT fastjson_hash('{\"a\":[1,2.5]}')")
[ "$h0" = "$h1" ] && pass "fastjson_hash is the same on the coordinator and a worker ($h0)" || fail "fastjson_hash differs between nodes"

# timings for the README (one machine, three servers: not a scale-out measurement)
t() { local s; s=$(date +%s%N); q 0 -c "$1" >/dev/null; echo $(( ($(date +%s%N) - s) / 1000000 )); }
echo "timings (ms, one run each, 3 servers on one 2-core machine: indicative only):"
for sql in "SELECT count(*) FROM {T} WHERE doc ->> 'type' = 'http_request'" \
	"SELECT doc ->> 'type', count(*) FROM {T} GROUP BY 1" \
	"SELECT count(*) FROM {T} WHERE doc @> '{\"type\":\"error\"}'"; do
	echo "  $(t "${sql//\{T\}/events}") distributed, $(t "${sql//\{T\}/local_f}") local fastjson, $(t "${sql//\{T\}/local_j}") local jsonb: ${sql//\{T\}/events}"
done

echo "Citus test: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
