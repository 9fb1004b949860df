"""The simulated-count series of a run file, shared by the counts-*.py evidence scripts."""
import json


def count_series(path):
    """Every series of metric `instructions` in the run file at `path`, keyed by (test ID, measurement, arm, phase)."""
    out = {}
    for t in json.load(open(path))["tests"]:
        for m in t["measurements"]:
            for s in m["series"]:
                if s["metric"]["name"] == "instructions":
                    out[(t["id"], m["name"], s["arm"], json.dumps(s["phase"], sort_keys=True))] = s
    return out
