#!/usr/bin/env bash
# Does the working folder's name move counts? swift-argument-parser with argument-parser-package.sh's
# benchmarks and its parse regression (a checksum of each argument), cloned into two folders whose names differ by
# 40 characters, each built and counted by a plain `perfkit run --counts-only`; then the counts paired sample by
# sample and the two test bundles' section sizes (`size -A`) side by side.
# usage: argument-parser-folders.sh BARE_REPO [PERFKIT_CHECKOUT]   (made in /tmp/apf)
set -uo pipefail
bare=$1; perfkit=${2:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/apf && mkdir -p /tmp/apf && cd /tmp/apf
git clone -q "$perfkit" perfkit
printf '#!/bin/sh\nexec swift package --allow-writing-to-package-directory perfkit "$@"\n' > /tmp/apf/pk; chmod +x /tmp/apf/pk
# the package's set-up (manifest, benchmarks, commit) and its regression, taken from argument-parser-package.sh
sed -n '/^python3 - <<.PY.$/,/^git add -A/p' "$here/argument-parser-package.sh" > setup.sh
sed -n '/^base=/,/^git commit -qam "parseIndividualArg/p' "$here/argument-parser-package.sh" | sed 1d >> setup.sh
short=sap; long=sap-in-a-folder-whose-name-is-forty-characters-longer
for d in $short $long; do
  git clone -q "$bare" $d
  (cd $d && git config user.email ap@example.invalid && git config user.name AP && bash ../setup.sh)
done
for d in $short $long; do
  (cd $d && /usr/bin/time -f "$d counts: %e s" /tmp/apf/pk run --counts-only --output /tmp/apf/$d.json)
done
python3 "$here/counts-paired.py" /tmp/apf/$short.json /tmp/apf/$long.json
for d in $short $long; do
  size -A $d/.perfkit/build/release/swift-argument-parserPackageTests.xctest | grep -E '^\.(text|rodata|data|bss) '
done
