#!/bin/bash
# bench/core_ab.sh — two revisions of the core timed against each other in one
# process (bench/core_ab.c): each revision's core is built in a temporary git
# worktree (core.mk, release flags) and linked into a shared object; the driver
# alternates their calls round by round, so both meet the same machine load.
#
#   bash bench/core_ab.sh REV_A REV_B [decode|encode|out|in] [ROUNDS] [FILE.json ...]
#
# REV is anything git names (a commit, a branch, HEAD~1), or WORKTREE for the
# files as they are now. Defaults: decode, 300 rounds, every corpus file.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,11p "$0" >&2; exit 2; }
rev_a=$1
rev_b=$2
op=${3:-decode}
rounds=${4:-300}
shift $(($# < 4 ? $# : 4))
if [ $# -eq 0 ]; then
	[ -d ../shared/data/corpus ] || { echo "core_ab: no files given and ../shared/data/corpus is absent" >&2; exit 2; }
	set -- ../shared/data/corpus/*.json
fi
tmp=$(mktemp -d)
worktrees=()
cleanup() {
	for w in "${worktrees[@]}"; do git worktree remove --force "$w" >/dev/null 2>&1 || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# build_so REV NAME: $tmp/NAME.so from REV's core
build_so() {
	local lib
	if [ "$1" = WORKTREE ]; then
		make -s -f core.mk build/release/libfjcore.a
		lib=build/release/libfjcore.a
	else
		git worktree add -q --detach "$tmp/$2" "$1"
		worktrees+=("$tmp/$2")
		make -s -C "$tmp/$2" -f core.mk build/release/libfjcore.a
		lib=$tmp/$2/build/release/libfjcore.a
	fi
	cc -shared -o "$tmp/$2.so" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive -lcbor -llz4 -lm
}

build_so "$rev_a" A
build_so "$rev_b" B
make -s -f bench/bench.mk build/release/core_ab
describe() { if [ "$1" = WORKTREE ]; then echo "the working tree"; else git rev-parse --short "$1"; fi; }
echo "A = $(describe "$rev_a"), B = $(describe "$rev_b"): $op, $rounds rounds each, alternating"
# glibc would give the top of its heap back at each free of a large buffer and
# take it again at the next malloc; both builds are spared that alike
GLIBC_TUNABLES=glibc.malloc.trim_threshold=67108864:glibc.malloc.mmap_threshold=67108864 \
	build/release/core_ab "$tmp/A.so" "$tmp/B.so" "$op" "$rounds" "$@"
