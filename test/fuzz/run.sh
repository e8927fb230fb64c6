#!/bin/sh
# run.sh — run one libFuzzer target (called by fuzz.mk, once per target).
#
#   B=build/fuzz sh test/fuzz/run.sh MODE TARGET MAX_LEN DICT SEEDS SECONDS LOG_TAG
#
# MODE smoke: fuzz SECONDS from a fresh corpus build/fuzz/smoke-corpus-TARGET/
#      fuzz:  fuzz SECONDS, corpus kept in build/fuzz/corpus-TARGET/
#      regress: run the target once on each file of test/fuzz/regressions/TARGET/
# The log is build/fuzz/TARGET-LOG_TAG.log; crash files go to
# build/fuzz/crashes/TARGET-*. One line per run is appended to
# build/fuzz/summary-MODE.txt. Exit status 1 if the target crashed.

LC_ALL=C
export LC_ALL
mode=$1 t=$2 max_len=$3 dict=$4 seeds=$5 secs=$6 tag=$7
B=${B:-build/fuzz}
bin=$B/$t
log=$B/$t-$tag.log
crashes=$B/crashes
regress=test/fuzz/regressions/$t
summary=$B/summary-$mode.txt

: "${ASAN_OPTIONS:=detect_leaks=1:check_initialization_order=1:strict_string_checks=1}"
: "${UBSAN_OPTIONS:=print_stacktrace=1:halt_on_error=1}"
export ASAN_OPTIONS UBSAN_OPTIONS

mkdir -p "$crashes"

if [ "$mode" = regress ]; then
	files=$(find "$regress" -type f ! -name '*.md' ! -name '.*' 2>/dev/null | sort)
	if [ -z "$files" ]; then
		line="$t: no regression inputs in $regress"
		echo "$line"; echo "$line" >>"$summary"
		exit 0
	fi
	n=0 failed=0
	: >"$log"
	for f in $files; do
		n=$((n + 1))
		if "$bin" "$f" >>"$log" 2>&1; then
			echo "  pass  $f"
		else
			failed=$((failed + 1))
			echo "  FAIL  $f"
			grep -a -E 'fuzz check failed|ERROR: (AddressSanitizer|LeakSanitizer)|runtime error' "$log" | tail -1 | cut -c1-300 | sed 's/^/        /'
		fi
	done
	rc=0
	if [ $failed -eq 0 ]; then
		line="$t: $n regression inputs pass"
	else
		line="$t: $failed of $n regression inputs FAIL, see $log"
		rc=1
	fi
	echo "$line"; echo "$line" >>"$summary"
	[ $rc -eq 0 ]
	exit $?
fi

if [ "$mode" = smoke ]; then
	corpus=$B/smoke-corpus-$t
	rm -rf "$corpus"
else
	corpus=$B/corpus-$t
fi
mkdir -p "$corpus"

set -- -max_total_time="$secs" -max_len="$max_len" -timeout=30 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$crashes/$t-"
[ -n "$dict" ] && set -- "$@" -dict="$dict"
set -- "$@" "$corpus"
for s in $seeds; do
	[ -d "$s" ] && set -- "$@" "$s"
done
# (the regression inputs are not seeds: a known open bug would stop the run at
# once; `make -f fuzz.mk regress` runs them)

echo "---- $t: $mode for ${secs}s, log $log${FJ_FUZZ_KNOWN:+ (FJ_FUZZ_KNOWN=$FJ_FUZZ_KNOWN)}"
{ [ -n "$FJ_FUZZ_KNOWN" ] && echo "FJ_FUZZ_KNOWN=$FJ_FUZZ_KNOWN"; echo "$bin $*"; } >"$log"
"$bin" "$@" >>"$log" 2>&1
rc=$?

last=$(grep -a -E '^#[0-9]+' "$log" | tail -1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p')
[ -n "$execs" ] || execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
line="$t ($mode ${secs}s): execs ${execs:-?} (${rate:-?}/s), cov: ${cov:-?}, ft: ${ft:-?}, corpus ${corp:-?}"
if [ $rc -ne 0 ]; then
	art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
	line="$line, CRASH (exit $rc): ${art:-see log} ($log)"
	grep -a -E 'fuzz check failed|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -5
else
	line="$line, crashes: 0"
fi
echo "$line"; echo "$line" >>"$summary"
[ $rc -eq 0 ]
