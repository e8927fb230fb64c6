#!/usr/bin/env bash
# Install the Debian 12 packages fastjson needs, skipping those already installed.
#
# Usage: scripts/deps.sh [GROUP...]
#   GROUP is one of:
#     build  compiler, PostgreSQL 15 server + headers, liblz4, python3 + psycopg (demo)
#     test   build + clang/libFuzzer, simdjson, libcbor (the CBOR tests' reference),
#            python cbor2/psycopg, the client drivers, aarch64 cross toolchain +
#            qemu-user, valgrind
#     bench  build + simdjson, g++, hyperfine, gnuplot, python psycopg
#     pgsource  what building PostgreSQL 16-19 from source needs (the version matrix)
#     citus  what building Citus against PostgreSQL 15 needs (the scale-out test)
#     clients  the drivers of the client recipes (clients/: psycopg, asyncpg,
#            SQLAlchemy, JDBC; node-postgres comes from npm, run_tests.sh)
#     all    everything (the default when no GROUP is given)
#   Several groups may be given; their packages are merged.
#
# Runs `apt-get update` only when something is missing. Must run as root when
# something has to be installed.
set -euo pipefail

BUILD_PKGS=(make gcc postgresql-15 postgresql-server-dev-15 liblz4-dev python3 python3-psycopg)
CLIENTS_PKGS=(python3 python3-psycopg python3-psycopg2 python3-asyncpg python3-sqlalchemy
              libpostgresql-jdbc-java libjackson2-databind-java default-jdk)
TEST_PKGS=("${BUILD_PKGS[@]}" clang-14 libclang-rt-14-dev libfuzzer-14-dev
           python3-cbor2 python3-psycopg gcc-aarch64-linux-gnu libc6-dev-arm64-cross
           qemu-user valgrind libsimdjson-dev g++ libcbor-dev "${CLIENTS_PKGS[@]}")
PGSOURCE_PKGS=(make gcc bison flex pkg-config libreadline-dev zlib1g-dev libicu-dev liblz4-dev)
CITUS_PKGS=(make gcc autoconf flex bison postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev
            libzstd-dev libkrb5-dev libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev
            libreadline-dev zlib1g-dev)
BENCH_PKGS=("${BUILD_PKGS[@]}" libsimdjson-dev g++ hyperfine gnuplot-nox python3-psycopg)
ALL_PKGS=(make gcc g++ clang-14 libclang-rt-14-dev libfuzzer-14-dev postgresql-15
          postgresql-server-dev-15 libcbor-dev libsimdjson-dev python3 python3-cbor2
          python3-psycopg gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
          hyperfine gnuplot-nox valgrind "${PGSOURCE_PKGS[@]}" "${CITUS_PKGS[@]}" "${CLIENTS_PKGS[@]}" liblz4-dev)

usage() {
    echo "usage: $0 [build|test|bench|pgsource|citus|clients|all]..." >&2
    exit 2
}

groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(all)

wanted=()
for g in "${groups[@]}"; do
    case "$g" in
        build) wanted+=("${BUILD_PKGS[@]}") ;;
        test)  wanted+=("${TEST_PKGS[@]}") ;;
        bench) wanted+=("${BENCH_PKGS[@]}") ;;
        pgsource) wanted+=("${PGSOURCE_PKGS[@]}") ;;
        citus) wanted+=("${CITUS_PKGS[@]}") ;;
        clients) wanted+=("${CLIENTS_PKGS[@]}") ;;
        all)   wanted+=("${ALL_PKGS[@]}") ;;
        -h|--help) usage ;;
        *) echo "deps.sh: unknown group '$g' (expected build, test, bench, pgsource, citus, clients or all)" >&2; usage ;;
    esac
done

# Deduplicate, keeping first-seen order.
declare -A seen=()
missing=()
for p in "${wanted[@]}"; do
    [ -n "${seen[$p]:-}" ] && continue
    seen[$p]=1
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    if [ "$status" != "install ok installed" ]; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "deps.sh: nothing is missing (groups: ${groups[*]})"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: missing packages: ${missing[*]}" >&2
    echo "deps.sh: must run as root to install them (as root: bash $0 ${groups[*]})" >&2
    exit 1
fi

echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
