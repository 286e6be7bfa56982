#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests and benchmarks: Debian's `postgresql`, a fresh cluster in a
# temp directory, listening only on 127.0.0.1 and a unix socket there, password (SCRAM) authentication.
#
#   eval "$(scripts/postgres-server.sh start)"   # prints the exports: SHELFSCAN_TEST_POSTGRES_URL, PGPASSWORD,
#                                                 # SHELFSCAN_TEST_POSTGRES_DIR
#   scripts/postgres-server.sh stop "$SHELFSCAN_TEST_POSTGRES_DIR"
#
# As root the cluster runs as the `postgres` user (the server refuses to run as root). Everything it prints
# for people goes to stderr; stdout is only the exports.
set -euo pipefail

as_owner() {  # runs a command as the cluster's owner
  if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

case "${1:-}" in
start)
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "postgres-server: installing postgresql" >&2
    sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends postgresql >&2
  fi
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/shelfscan-pg.XXXXXX")
  chmod 755 "$dir"
  password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf '%s\n' "$password" > "$dir/pwfile"
  mkdir -p "$dir/data"
  [ "$(id -u)" -eq 0 ] && chown -R postgres "$dir"
  as_owner "'$bin/initdb' -D '$dir/data' -U shelfscan --pwfile='$dir/pwfile' -A scram-sha-256 -E UTF8 --no-sync" >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  rm -f "$dir/pwfile"
  as_owner "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -t 60 -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200\" start" >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }
  PGPASSWORD="$password" "$bin/psql" -h 127.0.0.1 -p "$port" -U shelfscan -d postgres -qc "CREATE DATABASE shelfscan_test" >&2
  echo "postgres-server: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)" >&2
  echo "export SHELFSCAN_TEST_POSTGRES_URL=postgres://shelfscan@127.0.0.1:$port/shelfscan_test"
  echo "export PGPASSWORD=$password"
  echo "export SHELFSCAN_TEST_POSTGRES_DIR=$dir"
  ;;
stop)
  dir="${2:?usage: postgres-server.sh stop DIR}"
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" >&2 || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
