#!/bin/bash
# bench/cbor_callgrind.sh — instructions per conversion of the core's CBOR
# encoder and decoder and of its text path (fj_write_json, fj_parse), counted
# by valgrind's callgrind on build/release/cbor_bench (repeatable whatever the
# machine's load). Prints a markdown table: instructions per input byte of each
# conversion and the CBOR/text ratios of those counts.
#
#   bash bench/cbor_callgrind.sh [FILE.json ...]    (default: the corpus's *.json)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/release/cbor_bench
[ -x "$BIN" ] || { echo "build $BIN first: make -f bench/bench.mk cbor-bench" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then set -- ../shared/data/corpus/*.json; fi

# instructions of one run of op on file, only inside run_op (setup excluded)
count() {
	valgrind --tool=callgrind --toggle-collect=run_op --callgrind-out-file="$tmp/out" \
		"$BIN" --op "$1" --iters 1 "$2" >/dev/null 2>"$tmp/log"
	sed -n 's/^summary: //p' "$tmp/out"
}

echo "| file | size B | encode Ir | out Ir | encode/out Ir | decode Ir | in Ir | decode/in Ir |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|"
for f in "$@"; do
	e=$(count e "$f"); o=$(count o "$f"); d=$(count d "$f"); i=$(count i "$f")
	size=$(stat -c %s "$f")
	# ratio of speeds: text instructions / CBOR instructions
	awk -v n="$(basename "$f")" -v s="$size" -v e="$e" -v o="$o" -v d="$d" -v i="$i" 'BEGIN {
		printf "| %s | %d | %d | %d | %.2f | %d | %d | %.2f |\n", n, s, e, o, o / e, d, i, i / d }'
done
