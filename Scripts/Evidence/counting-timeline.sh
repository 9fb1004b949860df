#!/usr/bin/env bash
# Where a counting run's time goes (fifth session): runs COMMAND (a `perfkit run --counts-only`, say) while
# sampling the valgrind processes' lifetimes once a second (`ps -eo etimes,args`), then prints each counting
# process's start and duration (seconds, to the second) by its test filter, the span and the core-seconds.
# usage: Scripts/Evidence/counting-timeline.sh COMMAND [ARGS…]
#   e.g. Scripts/Evidence/counting-timeline.sh .build/release/perfkit run --counts-only --output /tmp/c.json
set -uo pipefail
log=$(mktemp)
( while true; do
    ps -eo etimes=,args= | grep "[v]algrind.*--filter" \
        | sed -E 's/^ *([0-9]+) .*--filter (.*)$/\1 \2/' | while read -r e f; do echo "$(date +%s) $e $f"; done
    sleep 1
  done ) > "$log" &
poller=$!
/usr/bin/time -o "$log.time" -f "command: %e s" "$@" > /dev/null 2> "$log.err"
kill "$poller"
cat "$log.time"
python3 - "$log" <<'PY'
import sys
first, last = {}, {}
for line in open(sys.argv[1]):
    t, e, f = line.split(" ", 2)
    t, start, f = int(t), int(t) - int(e), f.strip()
    # one process seen with starts a second apart (etimes rounds): one key
    key = next((k for k in first if k[0] == f and abs(k[1] - start) <= 1), (f, start))
    first.setdefault(key, start)
    last[key] = t
rows = sorted((first[k], last[k] - first[k], k[0]) for k in first)
if not rows: sys.exit("no counting process seen")
t0 = rows[0][0]
for s, d, f in rows: print(f"{s - t0:5d} s  {d:4d} s  {f[:110]}")
print(f"span {max(s + d for s, d, _ in rows) - t0} s, {sum(d for _, d, _ in rows)} core-seconds")
PY
rm -f "$log" "$log.time" "$log.err"
