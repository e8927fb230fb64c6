#!/usr/bin/env bash
# Build a PostgreSQL source tree once into a cache outside the clone, and print
# its prefix (the folder holding bin/pg_config) on stdout.
#
# usage: scripts/pg_build.sh TARBALL
#
# TARBALL is one of ../shared/postgres/postgresql-<version>.tar.gz (a git tree
# with no top-level folder). The cache entry is named by the version and the
# tarball's sha256, so a changed tree is built again and an unchanged one is
# reused: FJ_CACHE (default /var/cache/fastjson when writable, else
# ~/.cache/fastjson)/postgresql-<version>-<sha256 first 16>/.
# An entry is complete only when its .complete file exists; a build that was
# interrupted is thrown away and done again. A lock keeps two runs from
# building the same entry at once.
set -euo pipefail
cd "$(dirname "$0")/.."

tarball=${1:?usage: pg_build.sh TARBALL}
[ -f "$tarball" ] || { echo "pg_build.sh: no such file: $tarball" >&2; exit 1; }

# shellcheck source=scripts/cache_dir.sh
. scripts/cache_dir.sh

name=$(basename "$tarball" .tar.gz)		# postgresql-17.10
sha=$(sha256sum "$tarball" | cut -c1-16)
prefix=$FJ_CACHE/$name-$sha

exec 9>"$prefix.lock"
flock 9
if [ -f "$prefix/.complete" ]; then
	echo "$prefix"
	exit 0
fi

echo "pg_build.sh: building $name into $prefix (about 5-6 minutes on 2 cores)" >&2
bash scripts/deps.sh pgsource >&2
rm -rf "$prefix" "$prefix.src"
mkdir -p "$prefix.src"
tar -xzf "$tarball" -C "$prefix.src"
t0=$SECONDS
(
	cd "$prefix.src"
	# --with-lz4: the stored regression test compresses with lz4.
	./configure --prefix="$prefix" --with-lz4 --without-llvm >"$prefix.configure.log" 2>&1 ||
		{ tail -n 40 "$prefix.configure.log"; exit 1; }
	# PostgreSQL makes its generated headers (utils/errcodes.h) only when its
	# make is at MAKELEVEL 0; under `make test` it is not, so the build failed
	# on an empty cache: run it as a top-level make
	unset MAKELEVEL MAKEFLAGS MFLAGS
	make -j"${JOBS:-2}" -s >"$prefix.build.log" 2>&1 || { tail -n 40 "$prefix.build.log"; exit 1; }
	make -s install >>"$prefix.build.log" 2>&1 || { tail -n 40 "$prefix.build.log"; exit 1; }
) >&2
rm -rf "$prefix.src"
# The cluster runs as postgres and reads the installation; it must be readable.
chmod -R a+rX "$prefix"
touch "$prefix/.complete"
echo "pg_build.sh: built $name in $((SECONDS - t0)) s" >&2
echo "$prefix"
