#!/usr/bin/env bash
# Makes sure headless Chromium (Debian's `chromium`) is present for the history site's test in a real browser
# (HistorySiteTests). Installs it with apt when running as root; otherwise says the test will be skipped.
set -euo pipefail
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "perfkit: installing chromium with apt (the history site is tested in a real browser)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq chromium >&2
else
  echo "perfkit: no chromium (sudo apt-get install chromium): the history site's browser test will be skipped" >&2
fi
