#!/usr/bin/env bash
# Runs Scripts/crosscheck_stats.py against the debug perfkit when Python with numpy and scipy is
# available or can be installed with pip; otherwise says why it is skipped and succeeds.
set -uo pipefail
cd "$(dirname "$0")/.."
perfkit="${1:-.build/debug/perfkit}"
if ! command -v python3 >/dev/null; then echo "crosscheck skipped: python3 is not installed"; exit 0; fi
if ! python3 -c 'import numpy, scipy' 2>/dev/null; then
  if ! python3 -m pip install -q numpy scipy >/dev/null 2>&1; then
    echo "crosscheck skipped: numpy and scipy are not installed and pip could not install them"; exit 0
  fi
fi
[ -x "$perfkit" ] || { echo "crosscheck: $perfkit is missing (build first)"; exit 1; }
python3 Scripts/crosscheck_stats.py "$perfkit"
