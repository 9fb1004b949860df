#!/usr/bin/env python3
"""A history store of COMMITS commits x SERIES series (schema 3, SQLite), written directly, for the history site's
scale benchmark: `perfkit history site` over it, then headless Chromium loads and draws the page.

usage: history-site-scale.py STORE [COMMITS] [SERIES]   (seeded; a 2% step in every 20th series at commit 600)
"""
import json, random, sqlite3, sys

store = sys.argv[1]
commits = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
series = int(sys.argv[3]) if len(sys.argv) > 3 else 200
random.seed(71)
db = sqlite3.connect(store)
db.execute("CREATE TABLE perfkit_schema (version INTEGER NOT NULL)")
db.execute("""CREATE TABLE perfkit_history (
    machine TEXT NOT NULL, commit_hash TEXT NOT NULL, parent_hash TEXT NOT NULL, position INTEGER NOT NULL,
    commit_date BIGINT NOT NULL, subject TEXT NOT NULL,
    test TEXT NOT NULL, measurement TEXT NOT NULL, arm TEXT NOT NULL, phase TEXT NOT NULL, metric TEXT NOT NULL,
    unit TEXT NOT NULL, kind TEXT NOT NULL, measure TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL, lower_value DOUBLE PRECISION NOT NULL, upper_value DOUBLE PRECISION NOT NULL,
    processes INTEGER NOT NULL, recorded DOUBLE PRECISION NOT NULL, case_function TEXT, case_size DOUBLE PRECISION,
    environment TEXT,
    PRIMARY KEY (machine, commit_hash, test, measurement, arm, phase, metric))""")
db.execute("INSERT INTO perfkit_schema (version) VALUES (3)")
environment = json.dumps({"allocator": "jemalloc", "cpu": "AMD EPYC", "toolchain": "Swift version 6.3.1"},
                         sort_keys=True)
hashes = ["%040x" % random.getrandbits(160) for _ in range(commits)]
rows = []
for s in range(series):
    suite, case = divmod(s, 4)
    test = f"App.Suite{suite}Benchmarks/work(n:) n = {10 ** (case % 4 + 1)}"
    metric, unit, measure = [("instructions", "instructions", "simulatedCount"), ("mallocs", "count", "exactCount"),
                             ("wallClock", "ns", "timing")][s % 3]
    base = random.uniform(1e4, 1e7)
    for c in range(commits):
        level = base * (1.02 if s % 20 == 0 and c >= 600 else 1.0)
        value = level if measure != "timing" else level * random.lognormvariate(0, 0.01)
        lower, upper = (value, value) if measure != "timing" else (value * 0.99, value * 1.01)
        rows.append(("ci", hashes[c], hashes[c - 1] if c else "", c + 1, 1_700_000_000 + c * 3600, f"commit {c + 1}",
                     test, "work", "main", "warm", metric, unit, "componentCost", measure, value, lower, upper, 3,
                     0.0, "App.Suite%dBenchmarks/work(n:)" % suite, float(10 ** (case % 4 + 1)), environment))
db.executemany("INSERT INTO perfkit_history VALUES (" + ",".join("?" * 22) + ")", rows)
db.commit()
print(f"{store}: {commits} commits x {series} series = {len(rows)} rows")
