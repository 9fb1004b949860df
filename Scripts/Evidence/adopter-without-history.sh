#!/usr/bin/env bash
# An adopter's package (README's parser) on a machine without libpq-dev and libsqlite3-dev: removes them
# for the test and installs them again at the end (needs root and Debian's registry). Issue 39's evidence:
# swift test and perfkit run through the plugin work, no object file of the example or of PerfKitHistory
# is built, perfkit history says in one line what to install; the cold path timed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=/tmp/adopter; rm -rf $root; mkdir -p $root; cd $root
git clone -q "${1:-/work/main}" perfkit   # usage: adopter-without-history.sh [PERFKIT_CLONE_SOURCE]
apt-get remove -y -q libpq-dev libsqlite3-dev > /tmp/adopter-apt.log 2>&1
echo "== without: $(dpkg -l libpq-dev libsqlite3-dev 2>/dev/null | grep -c '^ii') of libpq-dev, libsqlite3-dev installed; $(ls /usr/include/sqlite3.h /usr/include/postgresql/libpq-fe.h 2>&1 | grep -c 'No such')/2 headers absent"
. "$here/parser-package.sh"   # README's parser package, committed; defines pk
echo "== swift test"; /usr/bin/time -f "swift test %e s" swift test > /tmp/adopter-test.log 2>&1; echo "status $?"; tail -3 /tmp/adopter-test.log
echo "== pk run (cold: the tool's build, then the first run)"; /usr/bin/time -f "pk run %e s" bash -c 'swift package --allow-writing-to-package-directory perfkit run' > /tmp/adopter-run.log 2>&1; echo "status $?"; tail -4 /tmp/adopter-run.log
echo "== the example and the history store in the build logs and build folders:"; grep -c "CalendarSubjects\|calendar-demo\|CalendarDemoTool\|PerfKitHistory" /tmp/adopter-test.log /tmp/adopter-run.log
# the tool's modules build as NAME-tool.build (the plugin's host build), the tests' as NAME.build
for t in CalendarSubjects CalendarDemoTool PerfKitHistory PerfKit; do
    echo "$t: $(find .build .perfkit -name "*.o" \( -path "*/$t.build/*" -o -path "*/$t-tool.build/*" \) | wc -l) object files"
done
echo "== pk history record"; swift package --allow-writing-to-package-directory perfkit history record 2>&1 | tail -2; echo "status ${PIPESTATUS[0]}"
apt-get install -y -q libpq-dev libsqlite3-dev > /tmp/adopter-apt2.log 2>&1; echo "== reinstalled: $(dpkg -l libpq-dev libsqlite3-dev | grep -c '^ii')"
