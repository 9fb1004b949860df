#!/usr/bin/env bash
# Makes sure the system packages PerfKit builds with are present: jemalloc and pkg-config.
# Installs them with apt when running as root; otherwise prints the exact command and stops.
set -euo pipefail
if pkg-config --exists jemalloc 2>/dev/null; then exit 0; fi
install="apt-get update && apt-get install -y libjemalloc-dev pkg-config"
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "perfkit: installing libjemalloc-dev and pkg-config with apt" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq libjemalloc-dev pkg-config >&2
  pkg-config --exists jemalloc
else
  echo "perfkit: jemalloc is missing; install it with: sudo sh -c '$install'" >&2
  exit 1
fi
