#!/usr/bin/env python3
"""types-tree.py - a pathprobe tree of instance types measured on one day.

    types-tree.py DIR NTYPES NTRIALS SLOW SEED

NTYPES types (t00 .. t(N-1)), NTRIALS trials each, 200 connects a trial
of lognormal(0, 0.05) ms; the last type's scaled by SLOW (1: none).
Plain Python (random, seeded): tests/fixtures/compare/gen_maxt.py reads
the same values for its oracle, by calling values().
"""
import json
import os
import random
import sys


def values(ntypes, ntrials, slow, seed):
    """{type: [[connect ms of each probe] per trial]}, in creation order."""
    rng = random.Random(seed)
    out = {}
    for k in range(ntypes):
        ty = "t%02d" % k
        scale = slow if k == ntypes - 1 else 1.0
        out[ty] = [[scale * rng.lognormvariate(0, 0.05) for _ in range(200)]
                   for _ in range(ntrials)]
    return out


def main():
    top, ntypes, ntrials, slow, seed = sys.argv[1], int(sys.argv[2]), \
        int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    for ty, trials in values(ntypes, ntrials, slow, seed).items():
        for t, v in enumerate(trials, 1):
            d = os.path.join(top, ty, "t%d" % t)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "meta.json"), "w") as f:
                json.dump({"instance_type": ty, "path": "W", "trial": t}, f)
            rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=200 "
                    "interval_s=0.2 timeout_s=0.4 start=2026-09-01T00:00:00Z",
                    "seq,unix_ns,connect_ms,result"]
            for i, x in enumerate(v):
                rows.append("%d,%d,%.4f,ok" % (
                    i, 1788220800000000000 + i * 200000000, x))
            with open(os.path.join(d, "probe.csv"), "w") as f:
                f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
