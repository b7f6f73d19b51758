#!/bin/sh
# Starts or stops the PostgreSQL 15 that the store's PostgreSQL tests share
# in one ctest run (a ctest fixture, tests/CMakeLists.txt; docs/adr/0052):
# every test case is a process of its own, and an initdb per case would
# cost seconds each. The server listens on a Unix socket in DIR only.
# postgres refuses root: as root, it runs as nobody, DIR owned by it.
#   postgresql_fixture.sh start DIR | stop DIR
set -eu
action=${1:?usage: postgresql_fixture.sh start|stop DIR}
dir=${2:?usage: postgresql_fixture.sh start|stop DIR}
bin=${MISSION_TEST_POSTGRESQL_BIN:-/usr/lib/postgresql/15/bin}

as_server() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
  else
    "$@"
  fi
}

stop() {
  if [ -e "$dir/data/postmaster.pid" ]; then
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case $action in
  start)
    if [ ! -x "$bin/postgres" ]; then
      echo "no $bin/postgres: install postgresql-15 (scripts/install-deps.sh) or set MISSION_TEST_POSTGRESQL_BIN" >&2
      exit 1
    fi
    stop  # a server left by an interrupted run
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown nobody "$dir"
    # No fsync: the databases die with the run.
    as_server "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C \
      --no-sync --no-instructions >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 \
      -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "PostgreSQL for the store's tests is up in $dir"
    ;;
  stop)
    stop
    ;;
  *)
    echo "usage: postgresql_fixture.sh start|stop DIR" >&2
    exit 2
    ;;
esac
