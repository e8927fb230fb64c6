#!/usr/bin/env bash
# The version matrix: fastjson on every PostgreSQL source tree in
# ../shared/postgres (16, 17, 18, 19), beside the full suite on Debian's 15.
#
# usage: scripts/test_matrix.sh [MAJOR]      (MAJOR: only that version, e.g. 17)
#
# For each tree: build PostgreSQL once into a cache outside the clone
# (scripts/pg_build.sh, keyed by the tree's sha256), build fastjson against it
# with -Wall -Wextra -Werror in a copy of the sources, install it there,
# start a throwaway cluster as the postgres user, run pg_regress (sql/,
# expected/, with the version's alternative outputs), the SQL conformance
# checks over ../shared/data and a shorter jsonpath differential against jsonb
# (test/jsonpath_differential.py --paths 600: about 3,700 expressions over
# every version's own jsonpath language; the full 5,874 run on 15 in test_sql.sh), and stop the
# cluster. FJ_MATRIX_JOBS versions (default 2) run at a time, each in its own
# folder, cluster and port; their output is printed in version order. Then
# pg_upgrade to the newest version built, from Debian's 15 and from the oldest
# version built (test/pg_upgrade.sh).
# Prints one line per version, and fails if any step of any version fails.
# Skipped with a message when ../shared/postgres is absent.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SRC=${FJ_POSTGRES:-$ROOT/../shared/postgres}
DATA=${FJ_DATA:-$ROOT/../shared/data}
ONLY=${1:-}
JOBS=${JOBS:-2}
MATRIX_JOBS=${FJ_MATRIX_JOBS:-2}

if [ ! -d "$SRC" ] || ! ls "$SRC"/postgresql-*.tar.gz >/dev/null 2>&1; then
	echo "SKIP: $SRC is absent: the version matrix (PostgreSQL 16 and later) is skipped"
	exit 0
fi
bash scripts/deps.sh pgsource || exit 1

WORK=$(mktemp -d /tmp/fastjson-matrix.XXXXXX)
chmod 755 "$WORK"
trap 'for d in "$WORK"/*/pg; do [ -d "$d" ] && FJ_PGBIN=$(cat "$d/../pgbin" 2>/dev/null) bash scripts/cluster.sh stop "$d" >/dev/null 2>&1; done; rm -rf "$WORK"' EXIT

rc=0
lines=()

# The tests' verdict for one regress file, from pg_regress's output.
verdict() {
	local out=$1 name=$2
	if grep -Eq "^ok [0-9]+ +- +$name( |\$)|^test $name +\.\.\. ok" "$out"; then
		echo ok
	elif grep -Eq "^not ok [0-9]+ +- +$name( |\$)|^test $name +\.\.\. FAILED" "$out"; then
		echo FAILED
	else
		echo -
	fi
}

run_version() {
	local tarball=$1 ver=$2 major=$3
	local prefix w=$WORK/$major port=$((56000 + major * 10 + RANDOM % 10)) t0=$SECONDS
	local build=FAILED regress=- conf=- soft=- onerr=- sqljson=- jsonpath=- passed=0 total=0

	echo "=== PostgreSQL $ver"
	if ! prefix=$(bash scripts/pg_build.sh "$tarball"); then
		echo "$ver: PostgreSQL did not build" >"$w.line"
		return 1
	fi
	mkdir -p "$w/src"
	echo "$prefix/bin" >"$w/pgbin"
	# a copy of the sources: the work tree's objects belong to Debian's 15
	tar --exclude=./build --exclude=./.git --exclude='*.o' --exclude='*.so' --exclude=./results \
		-cf - . | tar -C "$w/src" -xf -
	if (cd "$w/src" && make -s -j"$JOBS" PG_CONFIG="$prefix/bin/pg_config" && make -s install PG_CONFIG="$prefix/bin/pg_config") \
		>"$w/build.log" 2>&1; then
		build=ok
	else
		cat "$w/build.log"
		echo "$ver: fastjson did not build" >"$w.line"
		return 1
	fi

	eval "export $(FJ_PGBIN=$prefix/bin bash scripts/cluster.sh start "$w/pg" "$port")"
	export PGDATABASE=postgres
	(cd "$w/src" && make -s installcheck PG_CONFIG="$prefix/bin/pg_config") >"$w/regress.out" 2>&1
	local regress_rc=$?
	cat "$w/regress.out"
	[ $regress_rc -ne 0 ] && [ -f "$w/src/regression.diffs" ] && head -n 150 "$w/src/regression.diffs"
	total=$(grep -Ec '^(not )?ok [0-9]+ |^test .* \.\.\. ' "$w/regress.out")
	passed=$(grep -Ec '^ok [0-9]+ |^test .* \.\.\. ok' "$w/regress.out")
	regress="$passed/$total"
	[ $regress_rc -eq 0 ] || rc=1
	soft=$(verdict "$w/regress.out" soft_errors)
	onerr=$(verdict "$w/regress.out" on_error)
	sqljson=$(verdict "$w/regress.out" sqljson)

	if [ -d "$DATA" ]; then
		mkdir -p "$w/pg/data-copy"
		cp -r "$DATA/jsontestsuite" "$DATA/corpus" "$w/pg/data-copy/"
		chown -R postgres "$w/pg/data-copy" 2>/dev/null || true
		if "$prefix/bin/psql" -X -q -v ON_ERROR_STOP=1 -v data="$w/pg/data-copy" -f test/sql_conformance.sql >"$w/conf.out" 2>&1; then
			conf=ok
			grep -E 'all checks passed|all agree|soft input errors' "$w/conf.out"
		else
			conf=FAILED
			tail -n 40 "$w/conf.out"
			rc=1
		fi
	else
		conf="skipped (no $DATA)"
	fi
	# SQL/JSON path against jsonb (the corpus part skipped with a message when absent)
	if /usr/bin/python3 test/jsonpath_differential.py "$DATA/corpus" --paths 600 --index-paths 200 >"$w/jsonpath.out" 2>&1; then
		jsonpath=ok
	else
		jsonpath=FAILED
		rc=1
	fi
	grep -E 'expressions|comparisons|index against|jsonpath differential' "$w/jsonpath.out"
	[ "$jsonpath" = ok ] || tail -n 60 "$w/jsonpath.out"
	FJ_PGBIN=$prefix/bin bash scripts/cluster.sh stop "$w/pg" >/dev/null 2>&1
	echo "$prefix" >"$w.prefix"
	echo "$ver: build $build, regress $regress, conformance $conf, soft errors $soft, ON_ERROR $onerr, SQL/JSON $sqljson, jsonpath differential $jsonpath ($((SECONDS - t0)) s)" >"$w.line"
	return $rc
}

# Each version in a background job, MATRIX_JOBS at a time; its output goes to
# WORK/MAJOR.log, its summary line to WORK/MAJOR.line, its prefix (when it
# passed its build) to WORK/MAJOR.prefix.
majors=()
pids=()
for tarball in $(ls "$SRC"/postgresql-*.tar.gz | sort -V); do
	ver=$(basename "$tarball" .tar.gz)
	ver=${ver#postgresql-}
	major=${ver%%[.a-z]*}
	[ -n "$ONLY" ] && [ "$ONLY" != "$major" ] && continue
	while [ "$(jobs -rp | wc -l)" -ge "$MATRIX_JOBS" ]; do
		wait -n || true
	done
	run_version "$tarball" "$ver" "$major" >"$WORK/$major.log" 2>&1 &
	majors+=("$major")
	pids+=($!)
done
newest=
oldest=
for i in "${!majors[@]}"; do
	major=${majors[$i]}
	wait "${pids[$i]}" || rc=1
	cat "$WORK/$major.log"
	lines+=("$(cat "$WORK/$major.line" 2>/dev/null || echo "$major: no result")")
	if [ -f "$WORK/$major.prefix" ]; then
		newest=$(cat "$WORK/$major.prefix")
		[ -n "$oldest" ] || oldest=$newest
	fi
done

# pg_upgrade to the newest version: from Debian's 15, and from the oldest version built here
if [ -n "$newest" ] && [ -z "$ONLY" ]; then
	for old in /usr/lib/postgresql/15/bin "$oldest/bin"; do
		[ "$old/" = "$newest/bin/" ] && continue
		from=$("$old/postgres" -V | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
		to=$("$newest/bin/postgres" -V | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
		echo "=== pg_upgrade from PostgreSQL $from to $to"
		if bash test/pg_upgrade.sh "$old" "$newest/bin"; then
			lines+=("pg_upgrade $from -> $to: ok")
		else
			lines+=("pg_upgrade $from -> $to: FAILED")
			rc=1
		fi
	done
fi

echo
echo "version matrix:"
printf '  %s\n' "${lines[@]}"
exit $rc
