#!/usr/bin/env bash
# The demo (`make demo`): on a fresh Debian 12 machine as root, install what is
# missing, build and install fastjson, start a throwaway cluster run by the
# postgres user, generate a realistic event log, load it into fastjson and
# jsonb columns, and run the README's example queries on both, printing the
# results and the times side by side. The cluster is stopped at the end.
#   DEMO_ROWS=N   rows of the event log (default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${DEMO_ROWS:-100000}
bash scripts/deps.sh build
make -s -j2
make -s install
DIR=$(mktemp -d /tmp/fastjson-demo.XXXXXX)
chmod 755 "$DIR"
PORT=${FJ_DEMO_PORT:-$((56000 + RANDOM % 1000))}
cleanup() {
	bash scripts/cluster.sh stop "$DIR/pg" >/dev/null 2>&1 || true
	rm -rf "$DIR"
}
trap cleanup EXIT
eval "export $(bash scripts/cluster.sh start "$DIR/pg" "$PORT")"
echo "generating $ROWS events ..."
/usr/bin/python3 scripts/gen_events.py --rows "$ROWS" --seed 42 --out "$DIR/events.ndjson"
/usr/bin/python3 scripts/demo.py "$DIR/events.ndjson"
