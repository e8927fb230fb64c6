#!/usr/bin/env bash
# Manage a private, throwaway PostgreSQL cluster for fastjson tests and benchmarks
# (Debian's PostgreSQL 15 unless FJ_PGBIN names another installation's bin folder).
#
# Usage:
#   scripts/cluster.sh start DIR PORT [name=value ...]
#       Create DIR (mode 700) and DIR/data (initdb, UTF8, C.UTF-8, trust auth) if needed,
#       (re)write its settings, stop any server already running on DIR/data, start it,
#       and print one line on stdout:  PGHOST=DIR PGPORT=PORT PGUSER=postgres
#       Extra name=value arguments are added as server settings
#       (e.g. shared_preload_libraries=fastjson).
#       The server listens only on a unix socket in DIR (no TCP), logs to DIR/server.log,
#       and runs with fsync=off: never keep data you care about in it.
#   scripts/cluster.sh stop DIR
#       Stop the server (pg_ctl stop -m fast); does nothing if it is not running.
#   scripts/cluster.sh psql DIR PORT [psql args...]
#       Run psql -X -v ON_ERROR_STOP=1 against the cluster as role postgres
#       (database postgres unless the args name another, e.g. -d mydb).
#
# When run as root, the cluster files belong to and the server runs as the `postgres`
# system user (via runuser); otherwise everything runs as the current user.
# An existing DIR/data is reused (not re-initialised); delete DIR for a fresh cluster.
set -euo pipefail

PGBIN=${FJ_PGBIN:-/usr/lib/postgresql/15/bin}	# FJ_PGBIN: another installation (a version of the matrix)
PROG=$(basename "$0")

die() {
    echo "$PROG: error: $*" >&2
    exit 1
}

usage() {
    cat >&2 <<EOF
usage: $PROG start DIR PORT [name=value ...]
       $PROG stop DIR
       $PROG psql DIR PORT [psql args...]
EOF
    exit 2
}

# Run a command as the cluster owner: postgres when we are root, ourselves otherwise.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Absolute, normalised path (DIR need not exist yet).
abspath() {
    realpath -m -- "$1"
}

check_port() {
    case "$1" in
        ''|*[!0-9]*) die "PORT must be a number, got '$1'" ;;
    esac
    if [ "$1" -lt 1 ] || [ "$1" -gt 65535 ]; then
        die "PORT must be between 1 and 65535, got '$1'"
    fi
}

check_dir() {
    case "$1" in
        *$'\n'*|*"'"*|*\\*) die "DIR must not contain newlines, quotes or backslashes: '$1'" ;;
    esac
}

server_running() {
    # pg_ctl status: 0 running, 3 not running, 4 no/invalid data directory.
    [ -f "$1/postmaster.pid" ] || return 1
    as_owner "$PGBIN/pg_ctl" status -D "$1" >/dev/null 2>&1
}

show_log() {
    local log=$1
    if [ -f "$log" ]; then
        echo "---- last 30 lines of $log ----" >&2
        tail -n 30 "$log" >&2 || true
        echo "---- end of $log ----" >&2
    else
        echo "($log does not exist)" >&2
    fi
}

cmd_start() {
    [ $# -ge 2 ] || usage
    local dir port data log conf
    dir=$(abspath "$1"); port=$2; shift 2
    check_dir "$dir"
    check_port "$port"
    data=$dir/data
    log=$dir/server.log
    conf=$data/fastjson_cluster.conf

    local extra
    for extra in "$@"; do
        case "$extra" in
            [A-Za-z_]*=*) ;;
            *) die "extra setting must look like name=value, got '$extra'" ;;
        esac
    done

    [ -x "$PGBIN/initdb" ] || die "$PGBIN/initdb not found (install postgresql-15: scripts/deps.sh build)"

    # The unix socket path has a hard length limit (sun_path, 108 bytes with the NUL).
    local sock="$dir/.s.PGSQL.$port"
    if [ ${#sock} -gt 107 ]; then
        die "socket path '$sock' is ${#sock} bytes, longer than the 107-byte limit; use a shorter DIR"
    fi

    local owner_name
    if [ "$(id -u)" -eq 0 ]; then owner_name=postgres; else owner_name=$(id -un); fi
    if [ -e "$dir" ]; then
        [ -d "$dir" ] || die "$dir exists and is not a directory"
        if [ "$(id -u)" -ne 0 ] && [ "$(stat -c %U -- "$dir")" != "$owner_name" ]; then
            die "$dir belongs to '$(stat -c %U -- "$dir")', not to you ('$owner_name'); use another DIR or run as root"
        fi
    fi

    # Create DIR owned by the cluster owner, mode 700.
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || die "system user 'postgres' does not exist (install postgresql-15)"
        mkdir -p -- "$dir"
        chown postgres:postgres -- "$dir"
    else
        mkdir -p -- "$dir"
    fi
    chmod 700 -- "$dir"
    { as_owner test -w "$dir" && as_owner test -x "$dir"; } ||
        die "$dir is not usable by the cluster owner ($owner_name); is a parent directory private to another user?"

    # Run server tools from a directory the owner can enter (root's cwd may be /root).
    cd -- "$dir"

    # Stop a server that is already running there.
    if server_running "$data"; then
        echo "$PROG: a server is already running on $data; stopping it" >&2
        as_owner "$PGBIN/pg_ctl" stop -D "$data" -m fast -w >/dev/null ||
            die "could not stop the running server on $data"
    fi

    # initdb if needed.
    if [ ! -f "$data/PG_VERSION" ]; then
        if [ -e "$data" ] && [ -n "$(ls -A -- "$data" 2>/dev/null)" ]; then
            die "$data exists, is not empty and is not a cluster; remove it first"
        fi
        echo "$PROG: initdb $data" >&2
        if ! as_owner "$PGBIN/initdb" -D "$data" -E UTF8 --locale=C.UTF-8 -U postgres \
                --auth=trust >"$dir/initdb.log" 2>&1; then
            echo "---- $dir/initdb.log ----" >&2
            cat "$dir/initdb.log" >&2 || true
            die "initdb failed"
        fi
    else
        local ver
        ver=$(cat "$data/PG_VERSION")
        local want
        want=$("$PGBIN/postgres" -V | sed -E 's/^[^0-9]*([0-9]+).*/\1/')
        [ "$ver" = "$want" ] || die "$data is a PostgreSQL $ver cluster, not $want; remove $dir first"
        # The data directory must belong to whoever will run the server.
        local owner
        owner=$(stat -c %U -- "$data")
        [ "$owner" = "$owner_name" ] ||
            die "$data belongs to '$owner' but the server would run as '$owner_name'; remove $dir or run as $owner"
    fi

    # Our settings live in an included file that is rewritten on every start.
    if ! grep -q "^include_if_exists = 'fastjson_cluster.conf'" "$data/postgresql.conf"; then
        printf "\n# added by scripts/cluster.sh\ninclude_if_exists = 'fastjson_cluster.conf'\n" |
            as_owner tee -a "$data/postgresql.conf" >/dev/null
    fi
    {
        echo "# written by scripts/cluster.sh on every start; edits are lost"
        echo "listen_addresses = ''"
        echo "unix_socket_directories = '$dir'"
        echo "port = $port"
        echo "shared_buffers = 256MB"
        echo "max_parallel_workers_per_gather = 2"
        echo "fsync = off"
        echo "log_min_messages = warning"
        echo "logging_collector = off"
        echo "log_destination = 'stderr'"
        for extra in "$@"; do
            local name=${extra%%=*} value=${extra#*=}
            value=${value//\'/\'\'}
            echo "$name = '$value'"
        done
    } | as_owner tee "$conf" >/dev/null

    echo "$PROG: starting server on $data (port $port, socket in $dir, log $log)" >&2
    if ! as_owner "$PGBIN/pg_ctl" start -D "$data" -l "$log" -w -t 60 -s >/dev/null 2>"$dir/pg_ctl.err"; then
        cat "$dir/pg_ctl.err" >&2 || true
        show_log "$log"
        die "server failed to start on $data"
    fi
    rm -f -- "$dir/pg_ctl.err"

    # %q keeps the line safe for `eval` / `env` even if DIR has spaces.
    printf 'PGHOST=%q PGPORT=%s PGUSER=postgres\n' "$dir" "$port"
}

cmd_stop() {
    [ $# -eq 1 ] || usage
    local dir data
    dir=$(abspath "$1")
    data=$dir/data
    if [ ! -d "$data" ]; then
        echo "$PROG: no cluster at $data; nothing to stop" >&2
        return 0
    fi
    cd -- "$dir" 2>/dev/null || cd /
    if server_running "$data"; then
        as_owner "$PGBIN/pg_ctl" stop -D "$data" -m fast -w -s ||
            { show_log "$dir/server.log"; die "could not stop the server on $data"; }
        echo "$PROG: stopped server on $data" >&2
    else
        echo "$PROG: server on $data is not running" >&2
    fi
}

cmd_psql() {
    [ $# -ge 2 ] || usage
    local dir port
    dir=$(abspath "$1"); port=$2; shift 2
    check_port "$port"
    [ -S "$dir/.s.PGSQL.$port" ] ||
        die "no server socket at $dir/.s.PGSQL.$port (start it with: $PROG start $dir $port)"
    exec "$PGBIN/psql" -X -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres "$@"
}

[ $# -ge 1 ] || usage
sub=$1; shift
case "$sub" in
    start) cmd_start "$@" ;;
    stop)  cmd_stop "$@" ;;
    psql)  cmd_psql "$@" ;;
    -h|--help|help) usage ;;
    *) echo "$PROG: unknown subcommand '$sub'" >&2; usage ;;
esac
