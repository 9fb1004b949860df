#!/usr/bin/env bash
# Prints the URL of a PostgreSQL database on loopback for the history store's tests, starting a
# server when it can: installs Debian's postgresql with apt when running as root, starts its
# cluster, creates the role and database `perfkit_test`. Prints nothing (and the reason on
# standard error) when no server can be had; the PostgreSQL tests then skip with that reason.
# A URL already in PERFKIT_TEST_POSTGRES is used as it is.
set -uo pipefail
if [ -n "${PERFKIT_TEST_POSTGRES:-}" ]; then echo "$PERFKIT_TEST_POSTGRES"; exit 0; fi
url="postgresql://perfkit_test:perfkit_test@127.0.0.1:5432/perfkit_test"
reason() { echo "test-postgres: $*; the PostgreSQL history tests will skip" >&2; exit 0; }
if ! command -v pg_lsclusters >/dev/null; then
  [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null || reason "no PostgreSQL server installed and not root to install one (apt-get install postgresql)"
  echo "test-postgres: installing postgresql with apt" >&2
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq postgresql; } >&2 || reason "apt-get install postgresql failed"
fi
cluster=$(pg_lsclusters -h 2>/dev/null | head -1)
[ -n "$cluster" ] || reason "no PostgreSQL cluster (pg_createcluster)"
read -r version name port status _ <<<"$cluster"
url="postgresql://perfkit_test:perfkit_test@127.0.0.1:$port/perfkit_test"
if [ "$status" != "online" ]; then
  [ "$(id -u)" = "0" ] || reason "cluster $version/$name is $status and starting it needs root"
  pg_ctlcluster "$version" "$name" start >&2 || reason "pg_ctlcluster $version $name start failed"
fi
as_postgres() { if [ "$(id -u)" = "0" ]; then su postgres -c "$1"; else sh -c "$1"; fi; }
as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'perfkit_test'\"" 2>/dev/null | grep -q 1 \
  || as_postgres "psql -p $port -qc \"CREATE ROLE perfkit_test LOGIN PASSWORD 'perfkit_test'\"" >&2 || reason "cannot create role perfkit_test"
as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = 'perfkit_test'\"" 2>/dev/null | grep -q 1 \
  || as_postgres "createdb -p $port -O perfkit_test perfkit_test" >&2 || reason "cannot create database perfkit_test"
echo "$url"
