#!/usr/bin/env bash
# Makes sure the system packages PerfKit builds and tests with are present: jemalloc and pkg-config
# (the allocator and its counters), valgrind and binutils (simulated counts: `perfkit run --counts`, its
# client-request headers), SQLite and libpq (the history store, embedded and shared). Installs them with apt when running as root; otherwise prints the exact
# command and stops.
set -euo pipefail
have() {
  pkg-config --exists jemalloc sqlite3 libpq 2>/dev/null && command -v valgrind >/dev/null && command -v objcopy >/dev/null && [ -f /usr/include/valgrind/callgrind.h ]
}
if have; then exit 0; fi
packages="libjemalloc-dev pkg-config valgrind binutils libsqlite3-dev libpq-dev"
install="apt-get update && apt-get install -y $packages"
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "perfkit: installing $packages with apt" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq $packages >&2
  have
else
  echo "perfkit: missing system packages; install them with: sudo sh -c '$install'" >&2
  exit 1
fi
