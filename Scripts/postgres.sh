#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the PostgreSQL backend's tests, its
# benchmarks and local work. The cluster lives in DIR (data in DIR/data, the
# server log in DIR/log, the Unix socket in DIR itself), listens on 127.0.0.1
# only and trusts every local connection: it is never meant to hold anything
# that matters.
#
#   bash Scripts/postgres.sh start DIR [PORT]      # prints postgres://postgres@127.0.0.1:PORT/postgres
#   bash Scripts/postgres.sh stop DIR
#   bash Scripts/postgres.sh url DIR
#   bash Scripts/postgres.sh replica PRIMARY_DIR REPLICA_DIR [PORT]
#   bash Scripts/postgres.sh install
#   bash Scripts/postgres.sh installed
#
# start     initdb into DIR/data when it holds no cluster, then start it (on
#           PORT, else on its previous port when free, else on a free port in
#           20000-32767, below Linux's ephemeral range). A cluster already
#           running in DIR is reused. Durable by default (the benchmarks'
#           setting); TESSERA_PG_FAST=1 turns off fsync, synchronous_commit
#           and full_page_writes (the tests' setting).
# stop      pg_ctl stop -m fast; not an error when nothing runs.
# url       the URL of the cluster running in DIR; exits 1 when none runs.
# replica   a hot standby of the cluster running in PRIMARY_DIR, streaming
#           from it (pg_basebackup -R -X stream), in REPLICA_DIR.
# install   apt-get install postgresql postgresql-contrib when no initdb is
#           found; nothing when one is.
# installed prints the directory of initdb and pg_ctl; exits 1 when none is
#           found (what install would install).
#
# The only stdout is the URL (start, url, replica); everything else goes to
# stderr. PostgreSQL refuses to run as root, so when run by root the server
# and its tools run as TESSERA_PG_USER (default postgres, the user Debian's
# package creates) through runuser (or su); run by anyone else, they run as
# whoever runs it. TESSERA_PG_BIN names the directory of initdb and pg_ctl when the
# default search (/usr/lib/postgresql/*/bin, pg_config --bindir, PATH) is wrong.
set -euo pipefail
shopt -s inherit_errexit

# Descriptors this script inherits beyond 0-2 are closed first, so that a
# server it starts holds none of them. A test process starts it through
# system(3) while other tests read their children's pipes; a server that
# inherits the write end of such a pipe keeps it open for its whole life,
# and the read never ends (a full test run hung on one). The descriptor
# bash reads this script through stays open.
close_inherited_descriptors() {
    local script fd
    script=$(readlink -f "${BASH_SOURCE[0]}")
    for fd in $(ls /proc/$$/fd 2>/dev/null); do
        [ "$fd" -gt 2 ] || continue
        [ "$(readlink "/proc/$$/fd/$fd" 2>/dev/null || true)" = "$script" ] && continue
        eval "exec $fd>&-" 2>/dev/null || true
    done
}
close_inherited_descriptors

PROG=postgres.sh
TIMEOUT=60          # seconds for a start, a stop, a standby to come up
PG_USER=${TESSERA_PG_USER:-postgres}

say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { say "$*"; exit 1; }

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# The directory of initdb, pg_ctl, postgres, psql, pg_basebackup, pg_isready.
find_bindir() {
    local dir
    if [ -n "${TESSERA_PG_BIN:-}" ]; then
        [ -x "$TESSERA_PG_BIN/initdb" ] || die "TESSERA_PG_BIN=$TESSERA_PG_BIN holds no initdb."
        echo "$TESSERA_PG_BIN"; return 0
    fi
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
    if command -v pg_config >/dev/null 2>&1; then
        dir=$(pg_config --bindir 2>/dev/null || true)
        if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
    fi
    if command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"; return 0
    fi
    return 1
}

need_bindir() {
    BIN=$(find_bindir) || die "PostgreSQL is not installed (no initdb found); run: bash Scripts/postgres.sh install"
}

# Runs a command as the unprivileged user when we are root, as ourselves
# otherwise; from / so that the server never starts in a directory it cannot
# read, with HOME pointing somewhere the user can read (psql reads ~/.psqlrc),
# and without the lock's descriptor (a server that inherited it would hold
# the lock for as long as it runs).
as_pg() {
    if [ "$(id -u)" -ne 0 ]; then
        (cd / && "$@") 9>&-
    elif command -v runuser >/dev/null 2>&1; then
        (cd / && runuser -u "$PG_USER" -- env HOME="$PG_HOME" "$@") 9>&-
    else
        local cmd
        cmd=$(printf '%q ' "$@")
        (cd / && su "$PG_USER" -s /bin/sh -c "HOME=$(printf '%q' "$PG_HOME") exec $cmd") 9>&-
    fi
}

check_user() {
    [ "$(id -u)" -eq 0 ] || return 0
    if ! getent passwd "$PG_USER" >/dev/null 2>&1; then
        die "PostgreSQL refuses to run as root, and there is no '$PG_USER' user to run it as (Debian's postgresql package creates it: bash Scripts/postgres.sh install; or set TESSERA_PG_USER to an existing unprivileged user)."
    fi
    [ "$(id -u "$PG_USER")" -ne 0 ] || die "TESSERA_PG_USER=$PG_USER is root; PostgreSQL needs an unprivileged user."
    PG_HOME=$(getent passwd "$PG_USER" | cut -d: -f6)
    [ -n "$PG_HOME" ] && [ -d "$PG_HOME" ] || PG_HOME=/
}

# DIR made absolute, created, and writable by the user that runs the server
# (it holds the log and the Unix socket).
prepare_dir() {
    local dir=$1 d
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd -P)
    if [ "$(id -u)" -eq 0 ]; then
        chown "$PG_USER:" "$dir"
        chmod 700 "$dir"
        # Every directory above it must let that user through. A private
        # temporary directory of ours (mktemp -d makes them 0700) gets o+x,
        # which lets others pass through it but not list it.
        d=$dir
        while [ "$d" != / ]; do
            d=$(dirname "$d")
            as_pg test -x "$d" && continue
            case $d in
                /tmp/?*|"${TMPDIR:-/tmp}"/?*)
                    if [ -O "$d" ]; then
                        say "letting $PG_USER through $d (chmod o+x)"
                        chmod o+x "$d"
                        continue
                    fi ;;
            esac
            die "$PG_USER cannot enter $d (above $dir): chmod o+x $d, or pick a DIR whose parents it can enter (/tmp/NAME does)."
        done
    fi
    # A Unix socket path holds at most 107 bytes: DIR/.s.PGSQL.PORT.lock must fit.
    [ $(( ${#dir} + 20 )) -le 107 ] || die "$dir is too long for a Unix socket directory (at most 87 characters); pick a shorter DIR."
    echo "$dir"
}

# Serialises start and replica on one DIR (parallel tests may share one).
lock_dir() {
    command -v flock >/dev/null 2>&1 || return 0
    exec 9>"$1/.postgres.sh.lock"
    flock -w $((TIMEOUT * 3)) 9 || die "another postgres.sh holds $1 for too long."
}

url_for() { echo "postgres://postgres@127.0.0.1:$1/postgres"; }

# Exit status 0 when a server runs on DIR/data.
is_running() {
    [ -f "$1/data/postmaster.pid" ] || return 1
    as_pg "$BIN/pg_ctl" -D "$1/data" status >/dev/null 2>&1
}

# The port of the server running on DIR/data (line 4 of postmaster.pid).
running_port() { sed -n 4p "$1/data/postmaster.pid"; }

port_busy() {
    # Something accepts connections on it.
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null && return 0
    return 1
}

free_port() {
    local i p
    for i in $(seq 1 200); do
        p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 12768 ))
        port_busy "$p" || { echo "$p"; return 0; }
    done
    die "found no free port in 20000-32767."
}

log_tail() {
    if [ -f "$1/log" ]; then
        say "last lines of $1/log:"
        tail -n 30 "$1/log" >&2 || true
    fi
}

# The settings postgres.sh owns, rewritten at every start: DIR/data/tessera.conf,
# included from postgresql.conf.
write_settings() {
    local dir=$1 port=$2
    {
        echo "# Written by Scripts/postgres.sh at every start; edits are lost."
        echo "listen_addresses = '127.0.0.1'"
        echo "port = $port"
        echo "unix_socket_directories = '$dir'"
        echo "max_connections = 1000"
        echo "shared_buffers = 256MB"
        echo "wal_level = replica"
        echo "max_wal_senders = 4"
        echo "hot_standby = on"
        echo "logging_collector = off"
        if [ "${TESSERA_PG_FAST:-0}" = 1 ]; then
            echo "# TESSERA_PG_FAST=1: no durability, for tests."
            echo "fsync = off"
            echo "synchronous_commit = off"
            echo "full_page_writes = off"
        fi
    } > "$dir/tessera.conf.new"
    as_pg tee "$dir/data/tessera.conf" < "$dir/tessera.conf.new" >/dev/null
    rm -f "$dir/tessera.conf.new"
}

write_hba() {
    local dir=$1
    printf '%s\n' \
        "# Written by Scripts/postgres.sh: a throwaway cluster trusts every local connection." \
        "local   all          all                trust" \
        "local   replication  all                trust" \
        "host    all          all  127.0.0.1/32  trust" \
        "host    replication  all  127.0.0.1/32  trust" \
        | as_pg tee "$dir/data/pg_hba.conf" >/dev/null
}

# The port a stopped cluster in DIR last used, when it is free now.
previous_port() {
    local p
    p=$(sed -n 's/^port = \([0-9][0-9]*\)$/\1/p' "$1/data/tessera.conf" 2>/dev/null | tail -1 || true)
    [ -n "$p" ] && ! port_busy "$p" && echo "$p"
    return 0
}

# Starts the server on DIR/data (not running) on a port: PORT when given
# (once), else the previous or a free one, trying other free ports when
# another process takes it first.
start_server() {
    local dir=$1 port=$2 attempt p started
    for attempt in 1 2 3 4 5; do
        if [ -n "$port" ]; then p=$port
        elif [ "$attempt" -eq 1 ]; then p=$(previous_port "$dir"); [ -n "$p" ] || p=$(free_port)
        else p=$(free_port)
        fi
        write_settings "$dir" "$p"
        started=$(date +%s)
        if as_pg "$BIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t "$TIMEOUT" start >&2; then
            say "started in $(( $(date +%s) - started )) s on port $p ($dir)"
            echo "$p"
            return 0
        fi
        # Another process took the port between the probe and the bind: try another.
        if [ -z "$port" ] && [ "$attempt" -lt 5 ] && tail -n 20 "$dir/log" 2>/dev/null | grep -q 'Address already in use'; then
            say "port $p was taken; trying another"
            as_pg "$BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
            continue
        fi
        break
    done
    log_tail "$dir"
    as_pg "$BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    die "the PostgreSQL server in $dir/data did not start (its log is above)."
}

check_port_arg() {
    [ -z "$1" ] && return 0
    [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1024 ] && [ "$1" -le 65535 ] || die "PORT must be a number in 1024-65535, not '$1'."
}

# Waits until the server on PORT accepts connections (and, for a standby,
# reports pg_is_in_recovery()); the second argument is the value wanted.
wait_ready() {
    local port=$1 recovery=${2:-} deadline v
    deadline=$(( $(date +%s) + TIMEOUT ))
    while :; do
        if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -t 5 2>/dev/null; then
            [ -z "$recovery" ] && return 0
            v=$(PGCONNECT_TIMEOUT=5 "$BIN/psql" -X -At -h 127.0.0.1 -p "$port" -U postgres -d postgres \
                    -c 'select pg_is_in_recovery()' 2>/dev/null || true)
            [ "$v" = "$recovery" ] && return 0
        fi
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

cmd_start() {
    [ $# -ge 1 ] && [ $# -le 2 ] || usage
    local dir port=${2:-} t0 p
    check_port_arg "$port"
    need_bindir; check_user
    dir=$(prepare_dir "$1")
    lock_dir "$dir"

    if is_running "$dir"; then
        p=$(running_port "$dir")
        [ -n "$port" ] && [ "$port" != "$p" ] && say "a cluster already runs in $dir on port $p (not $port); reusing it"
        wait_ready "$p" || { log_tail "$dir"; die "the cluster running in $dir does not accept connections on port $p."; }
        say "reusing the cluster running in $dir"
        url_for "$p"
        return 0
    fi

    if [ -d "$dir/data" ] && [ ! -f "$dir/data/PG_VERSION" ]; then
        say "$dir/data holds no cluster (an initdb that did not finish?); removing it"
        rm -rf "$dir/data"
    fi
    if [ ! -d "$dir/data" ]; then
        t0=$(date +%s)
        if ! as_pg "$BIN/initdb" -D "$dir/data" --auth=trust -U postgres --encoding=UTF8 --locale=C \
                >"$dir/initdb.log" 2>&1; then
            tail -n 30 "$dir/initdb.log" >&2 || true
            die "initdb into $dir/data failed (its output is above)."
        fi
        echo "include 'tessera.conf'" | as_pg tee -a "$dir/data/postgresql.conf" >/dev/null
        write_hba "$dir"
        say "initdb took $(( $(date +%s) - t0 )) s ($BIN, as $(as_pg id -un))"
    fi

    p=$(start_server "$dir" "$port")
    wait_ready "$p" || { log_tail "$dir"; die "the cluster in $dir started but does not accept connections on port $p."; }
    url_for "$p"
}

cmd_stop() {
    [ $# -eq 1 ] || usage
    local dir=$1
    [ -d "$dir/data" ] || { say "no cluster in $dir"; return 0; }
    need_bindir; check_user
    dir=$(cd "$dir" && pwd -P)
    if ! is_running "$dir"; then
        say "no server runs in $dir"
        return 0
    fi
    as_pg "$BIN/pg_ctl" -D "$dir/data" -m fast -w -t "$TIMEOUT" stop >&2 || {
        is_running "$dir" || return 0
        log_tail "$dir"
        die "the server in $dir did not stop within $TIMEOUT s."
    }
}

cmd_url() {
    [ $# -eq 1 ] || usage
    local dir=$1
    need_bindir; check_user
    [ -d "$dir/data" ] || die "no cluster in $dir."
    dir=$(cd "$dir" && pwd -P)
    is_running "$dir" || die "no server runs in $dir."
    url_for "$(running_port "$dir")"
}

cmd_replica() {
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    local pdir=$1 rdir port=${3:-} pport p t0
    check_port_arg "$port"
    need_bindir; check_user
    [ -d "$pdir/data" ] || die "no cluster in $pdir (start it first: bash Scripts/postgres.sh start $pdir)."
    pdir=$(cd "$pdir" && pwd -P)
    is_running "$pdir" || die "no server runs in $pdir (start it first: bash Scripts/postgres.sh start $pdir)."
    pport=$(running_port "$pdir")
    rdir=$(prepare_dir "$2")
    [ "$pdir" != "$rdir" ] || die "the replica needs a DIR of its own, not the primary's."
    lock_dir "$rdir"

    if is_running "$rdir"; then
        p=$(running_port "$rdir")
        wait_ready "$p" t || die "the server running in $rdir is not a hot standby accepting connections."
        say "reusing the standby running in $rdir"
        url_for "$p"
        return 0
    fi
    if [ -f "$rdir/data/PG_VERSION" ] && [ ! -f "$rdir/data/standby.signal" ]; then
        die "$rdir/data holds a cluster that is not a standby; remove it or pick another REPLICA_DIR."
    fi
    if [ ! -f "$rdir/data/PG_VERSION" ]; then
        rm -rf "$rdir/data"
        t0=$(date +%s)
        # --checkpoint=fast: the default spread checkpoint can keep it waiting for minutes.
        if ! as_pg timeout $((TIMEOUT * 5)) "$BIN/pg_basebackup" -R -X stream --checkpoint=fast \
                -D "$rdir/data" -h 127.0.0.1 -p "$pport" -U postgres >"$rdir/basebackup.log" 2>&1; then
            tail -n 30 "$rdir/basebackup.log" >&2 || true
            rm -rf "$rdir/data"
            die "pg_basebackup from the primary on port $pport failed (its output is above)."
        fi
        say "pg_basebackup took $(( $(date +%s) - t0 )) s"
    fi

    p=$(start_server "$rdir" "$port")
    wait_ready "$p" t || { log_tail "$rdir"; die "the replica in $rdir started but is not a hot standby accepting connections on port $p."; }
    url_for "$p"
}

cmd_installed() {
    [ $# -eq 0 ] || usage
    find_bindir
}

cmd_install() {
    [ $# -eq 0 ] || usage
    if find_bindir >/dev/null; then
        return 0
    fi
    say "installing PostgreSQL (postgresql, postgresql-contrib)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q postgresql postgresql-contrib >&2
    find_bindir >/dev/null || die "apt-get installed postgresql, yet no initdb is found."
    # Debian's package creates a cluster (15/main on 5432) and may start it;
    # ours never use 5432, but nothing needs that one running.
    if command -v pg_lsclusters >/dev/null 2>&1; then
        pg_lsclusters -h 2>/dev/null | while read -r ver name _port status _rest; do
            case $status in
                online*)
                    say "stopping Debian's cluster $ver/$name"
                    pg_ctlcluster "$ver" "$name" stop >&2 || say "could not stop $ver/$name (left running)" ;;
            esac
        done
    fi
    return 0
}

[ $# -ge 1 ] || usage
sub=$1; shift
case $sub in
    start)   cmd_start "$@" ;;
    stop)    cmd_stop "$@" ;;
    url)     cmd_url "$@" ;;
    replica) cmd_replica "$@" ;;
    install) cmd_install "$@" ;;
    installed) cmd_installed "$@" ;;
    -h|--help|help) usage ;;
    *) usage ;;
esac
