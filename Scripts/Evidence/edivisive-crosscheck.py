#!/usr/bin/env python3
"""PerfKit's timing change points against an outside implementation of E-divisive means: MongoDB's
signal_processing_algorithms (`pip install signal-processing-algorithms`, the implementation Apache
Otava's predecessor Hunter builds on), on the log values of every timing series of a history store
(SQLite), at PerfKit's settings (p = 0.01, 499 permutations). Prints each series' change points
(commit positions); compare with `perfkit history show --store STORE`.
usage: Scripts/Evidence/edivisive-crosscheck.py STORE.sqlite"""
import math
import sqlite3
import sys

import numpy as np
from signal_processing_algorithms.energy_statistics.energy_statistics import e_divisive

np.random.seed(1)
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT machine, test, measurement, arm, phase, metric, position, value FROM perfkit_history "
    "WHERE measure = 'timing' ORDER BY machine, test, measurement, metric, arm, phase, position").fetchall()
series = {}
for machine, test, measurement, arm, phase, metric, position, value in rows:
    series.setdefault((machine, test.split(".")[-1], measurement, arm, phase, metric), []).append((position, value))
for key, values in series.items():
    points = e_divisive([math.log(v) for _, v in values], pvalue=0.01, permutations=499)
    print(f"{key[0]} {key[1]} {key[2]} [{key[3]}, {key[4]}] {key[5]}: change points at commits {[values[i][0] for i in sorted(points)]}")
