#!/usr/bin/env bash
# Renders every committed report chart (Reports/*.svg) to PNG beside it in .perfkit/charts/, so a
# person can look at them as a reviewer would. Needs rsvg-convert (apt: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rsvg-convert >/dev/null || { echo "render-charts: rsvg-convert is missing; install it with: apt-get install -y librsvg2-bin"; exit 1; }
mkdir -p .perfkit/charts
for svg in Reports/*.svg; do
  png=".perfkit/charts/$(basename "${svg%.svg}").png"
  rsvg-convert "$svg" -o "$png"
  echo "$png"
done
