#!/usr/bin/env bash
# The client recipes' tests (issue 22): psycopg 3, the Python tape decoder,
# asyncpg, SQLAlchemy 1.4, node-postgres and JDBC, each against a throwaway
# cluster, over the corpus (../shared/data/corpus; skipped with a message when
# absent) and edge documents; then the read-path speed of each recipe against
# jsonb on the same rows (a report, not a test).
#
# usage: clients/run_tests.sh [--install]
#   PG_CONFIG   the PostgreSQL to test against (default Debian's 15,
#               /usr/lib/postgresql/15/bin/pg_config); its bindir runs the cluster
#   --install   build and install the extension into it first (make clean, make
#               -j2, make install); without it the extension must be installed
#               (make test installs it before this step)
#   FJ_PORT     the cluster's port (default 58150; its unix socket and 127.0.0.1,
#               which JDBC needs)
#   FJ_DATA     the data folder (default ../shared/data)
#   FJ_BENCH=0  skip the speed report; FJ_BENCH_REPEATS (default 7) rounds each;
#   FJ_RECIPES=0  skip the recipes' tests (only the speed report)
#
# As root on Debian 12 (also under CI=true) it first installs what is missing:
# Debian packages with apt-get, node-postgres with npm ci (package-lock.json).
# The server runs as the postgres user (scripts/cluster.sh). One line per
# recipe, the speed table, then "N passed, N failed"; nonzero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PORT=${FJ_PORT:-58150}
export FJ_DATA=${FJ_DATA:-$ROOT/../shared/data}
REPEATS=${FJ_BENCH_REPEATS:-7}
PY=/usr/bin/python3          # Debian's python3, which has the python3-* packages
INSTALL=0
for arg in "$@"; do
	case "$arg" in
		--install) INSTALL=1 ;;
		*) echo "usage: $0 [--install]" >&2; exit 2 ;;
	esac
done

die() { echo "clients/run_tests.sh: $*" >&2; exit 1; }

# ---- what is missing
PKGS=(python3 python3-psycopg python3-psycopg2 python3-asyncpg python3-sqlalchemy
      libpostgresql-jdbc-java libjackson2-databind-java default-jdk)
missing=()
for p in "${PKGS[@]}"; do
	[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root to install them)"
	echo "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; } >/tmp/fj-clients-apt.log 2>&1 ||
		{ tail -20 /tmp/fj-clients-apt.log; die "apt-get failed"; }
fi
if [ ! -f clients/node/node_modules/pg/package.json ] || [ ! -f clients/node/node_modules/lossless-json/package.json ]; then
	(cd clients/node && npm ci --no-audit --no-fund >/tmp/fj-clients-npm.log 2>&1) ||
		{ tail -20 /tmp/fj-clients-npm.log; die "npm ci failed"; }
fi

[ -x "$PG_CONFIG" ] || die "PG_CONFIG $PG_CONFIG is not an executable pg_config"
export FJ_PGBIN=${FJ_PGBIN:-$("$PG_CONFIG" --bindir)}
if [ "$INSTALL" = 1 ]; then
	{ make -s clean PG_CONFIG="$PG_CONFIG" && make -s -j2 PG_CONFIG="$PG_CONFIG" &&
	  make -s install PG_CONFIG="$PG_CONFIG"; } >/tmp/fj-clients-build.log 2>&1 ||
		{ tail -30 /tmp/fj-clients-build.log; die "building the extension failed"; }
fi
[ -f "$("$PG_CONFIG" --sharedir)/extension/fastjson.control" ] ||
	die "fastjson is not installed in $("$PG_CONFIG" --sharedir) (make install PG_CONFIG=$PG_CONFIG, or --install)"

# ---- a throwaway cluster
WORK=$(mktemp -d /tmp/fj-clients.XXXXXX)
CLUSTER=$WORK/pg
chmod 755 "$WORK"
cleanup() {
	bash scripts/cluster.sh stop "$CLUSTER" >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT
conn=$(bash scripts/cluster.sh start "$CLUSTER" "$PORT" listen_addresses=127.0.0.1 2>"$WORK/cluster.log") ||
	{ cat "$WORK/cluster.log"; die "the cluster did not start"; }
eval "export $conn"
export PGDATABASE=fjclients
bash scripts/cluster.sh psql "$CLUSTER" "$PORT" -q -d postgres -c "CREATE DATABASE fjclients" >/dev/null || die "createdb failed"
bash scripts/cluster.sh psql "$CLUSTER" "$PORT" -q -d fjclients -c "CREATE EXTENSION fastjson" || die "CREATE EXTENSION failed"
JDBC_URL="jdbc:postgresql://127.0.0.1:$PORT/fjclients?user=postgres"
server=$(bash scripts/cluster.sh psql "$CLUSTER" "$PORT" -d fjclients -Atc "SELECT current_setting('server_version') || ', fastjson ' || extversion FROM pg_extension WHERE extname = 'fastjson'")
echo "server: PostgreSQL $server ($FJ_PGBIN), port $PORT"

# the documents for the Node and Java tests (the Python tests read them themselves)
export FJ_DOCS=$WORK/docs.ndjson
(cd clients/python && $PY corpus.py >"$FJ_DOCS" 2>"$WORK/corpus.msg")
if [ -s "$WORK/corpus.msg" ]; then
	cat "$WORK/corpus.msg"
else
	echo "corpus: $FJ_DATA/corpus, $(wc -l <"$FJ_DOCS") documents with the edge documents"
fi

# ---- the recipes
JAVA_CP=/usr/share/java/postgresql.jar:/usr/share/java/jackson-databind.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-annotations.jar
mkdir -p "$WORK/classes"
passed=0
failed=0
recipe() {
	local name=$1
	shift
	local log="$WORK/log.$((passed + failed))" t0=$SECONDS
	if "$@" >"$log" 2>&1; then
		passed=$((passed + 1))
		printf 'PASS  %-58s %4d s\n' "$name" $((SECONDS - t0))
		grep -h '^  dumps:' "$log" || true
	else
		failed=$((failed + 1))
		printf 'FAIL  %-58s %4d s\n' "$name" $((SECONDS - t0))
		tail -40 "$log" | sed 's/^/      /'
	fi
}
py() { (cd clients/python && $PY "$@"); }
if [ "${FJ_RECIPES:-1}" != 0 ]; then
recipe "Python tape decoder/encoder (fastjson_tape)" py test_tape.py
recipe "psycopg 3: text/binary cursors, parameters, COPY" py test_psycopg.py
recipe "asyncpg: text and binary codecs, copy_records_to_table" py test_asyncpg.py
recipe "SQLAlchemy 1.4: FastJSON type, ->, ->>, #>, #>> (psycopg2, asyncpg)" py test_sqlalchemy.py
recipe "node-postgres: exact parser, parameters" bash -c "cd clients/node && node --test test.mjs"
recipe "JDBC: getString, PGobject, setObject(Types.OTHER)" bash -c \
	"javac -d '$WORK/classes' -cp '$JAVA_CP' clients/java/*.java && java -cp '$WORK/classes:$JAVA_CP' FastjsonJdbcTest '$JDBC_URL'"
recipe "the README section's code blocks (Python, JS, Java)" \
	env FJ_JAVA_CP="$JAVA_CP" FJ_JAVA_CLASSES="$WORK/classes" FJ_JDBC_URL="$JDBC_URL" bash -c "cd clients/python && $PY test_readme.py"
fi

# ---- the read-path speed report
if [ "${FJ_BENCH:-1}" != 0 ]; then
	echo
	echo "read path: every row of a table of 3000 event documents as native values, fastjson against jsonb"
	echo "(scripts/gen_events.py --rows 3000 --seed 42; interleaved, $REPEATS rounds each; min / median s)"
	$PY scripts/gen_events.py --rows 3000 --seed 42 --out "$WORK/events.ndjson" 2>/dev/null
	chmod 644 "$WORK/events.ndjson"
	bash scripts/cluster.sh psql "$CLUSTER" "$PORT" -q -d fjclients \
		-c "CREATE TABLE bench_fj (id serial, doc fastjson)" \
		-c "\\copy bench_fj(doc) FROM '$WORK/events.ndjson' WITH (FORMAT csv, QUOTE e'\\x01', DELIMITER e'\\x02')" \
		-c "CREATE TABLE bench_jb AS SELECT id, doc::jsonb AS doc FROM bench_fj" \
		-c "VACUUM ANALYZE bench_fj, bench_jb" >/dev/null
	bash scripts/cluster.sh psql "$CLUSTER" "$PORT" -d fjclients -Atc "SELECT format('%s rows, %s of JSON text; tables %s (fastjson), %s (jsonb)', count(*), pg_size_pretty(sum(octet_length(doc::text))), pg_size_pretty(pg_total_relation_size('bench_fj')), pg_size_pretty(pg_total_relation_size('bench_jb'))) FROM bench_fj"
	[ -f "$WORK/classes/FastjsonJdbcBench.class" ] || javac -d "$WORK/classes" -cp "$JAVA_CP" clients/java/*.java
	echo "| recipe | fastjson min / median | jsonb min / median | fastjson / jsonb, min / median | how each is read |"
	echo "|---|---|---|---|---|"
	if { py bench_read.py "$REPEATS" && (cd clients/node && node bench.mjs "$REPEATS") &&
	     java -cp "$WORK/classes:$JAVA_CP" FastjsonJdbcBench "$JDBC_URL" "$REPEATS"; } >"$WORK/bench.out" 2>&1; then
		sed -n 's/^read-path \(.*\)$/\1 |/p' "$WORK/bench.out"
	else
		sed -n 's/^read-path \(.*\)$/\1 |/p' "$WORK/bench.out"
		tail -20 "$WORK/bench.out" | sed 's/^/      /'
		failed=$((failed + 1))
		echo "FAIL  the speed report did not finish"
	fi
fi

echo
echo "clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
