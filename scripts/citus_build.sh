#!/usr/bin/env bash
# Build Citus once against Debian's PostgreSQL 15 into a cache outside the
# clone, then install it from there (a copy, seconds) into that PostgreSQL.
#
# usage: scripts/citus_build.sh CITUS_DIR        (../shared/citus: the tarball and its patch)
#
# The cache entry is named by the sha256 of the tarball and the patch:
# FJ_CACHE/citus-<sha256 first 16>/ holds the files `make install` writes
# (DESTDIR), so a filled cache costs only the copy. A lock keeps two runs from
# building at once; an entry is complete only when its .complete file exists.
set -euo pipefail
cd "$(dirname "$0")/.."

src=$(realpath "${1:?usage: citus_build.sh CITUS_DIR}")
tarball=$(ls "$src"/citus-*.tar.gz | head -n 1)
patches=$(ls "$src"/*.patch 2>/dev/null || true)
[ -f "$tarball" ] || { echo "citus_build.sh: no citus-*.tar.gz in $src" >&2; exit 1; }
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}

# shellcheck source=scripts/cache_dir.sh
. scripts/cache_dir.sh

# shellcheck disable=SC2086
sha=$(cat "$tarball" $patches | sha256sum | cut -c1-16)
name=$(basename "$tarball" .tar.gz)
entry=$FJ_CACHE/$name-pg15-$sha

exec 9>"$entry.lock"
flock 9
if [ ! -f "$entry/.complete" ]; then
	echo "citus_build.sh: building $name into $entry (about a minute on 2 cores)" >&2
	bash scripts/deps.sh citus >&2
	rm -rf "$entry" "$entry.src"
	mkdir -p "$entry.src"
	tar -xzf "$tarball" -C "$entry.src"
	t0=$SECONDS
	(
		cd "$entry.src"
		for p in $patches; do
			patch -s -p1 <"$p"
		done
		./configure PG_CONFIG="$PG_CONFIG" >"$entry.configure.log" 2>&1 ||
			{ tail -n 40 "$entry.configure.log"; exit 1; }
		make -j"${JOBS:-2}" -s >"$entry.build.log" 2>&1 || { tail -n 40 "$entry.build.log"; exit 1; }
		make -s install DESTDIR="$entry" >>"$entry.build.log" 2>&1 || { tail -n 40 "$entry.build.log"; exit 1; }
	) >&2
	rm -rf "$entry.src"
	touch "$entry/.complete"
	echo "citus_build.sh: built $name in $((SECONDS - t0)) s" >&2
fi
# install: copy the cached files into place
tar -C "$entry" --exclude=./.complete -cf - . | tar -C / -xf - --no-overwrite-dir
echo "citus_build.sh: $name installed from $entry" >&2
