#!/usr/bin/env python3
"""team-tree.py ROOT DAYS [PROBES] [INTERVALS] - write a team's campaign:
8 instance types x 5 paths x 3 trials a day, each trial one iperf3 TCP
run (INTERVALS one-second intervals, default 10) and one pathprobe run
(PROBES probes, default 60), DAYS days from 2026-11-02:

    ROOT/DAY/INSTANCE_TYPE/<path>_tcp_run<trial>.json
    ROOT/DAY/INSTANCE_TYPE/<path>_probe_run<trial>.csv

Ingest with --layout '{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}.json'
and the same with .csv.  The iperf3 and probe writers are those of
tests/cli/helper/shape-tree.py.  Deterministic (seeded by the day, so
the first 21 days of an 84-day tree are the 21-day tree).  Prints the
number of files."""
import datetime
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "shape_tree", os.path.join(HERE, "..", "tests", "cli", "helper",
                               "shape-tree.py"))
shape = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape)

TYPES = ["c6i.large", "c6i.xlarge", "c7i.large", "c7i.xlarge",
         "m6i.large", "m7i.large", "r6i.large", "r7i.large"]


def main(argv):
    root, ndays = argv[1], int(argv[2])
    probes = int(argv[3]) if len(argv) > 3 else 60
    nint = int(argv[4]) if len(argv) > 4 else 10
    t = shape.Tree(root)
    for d in range(ndays):
        rng = random.Random(d)
        day = shape.T0 + datetime.timedelta(days=d)
        for ti, ty in enumerate(TYPES):
            for k, p in enumerate("ABCDE"):
                for tr in range(1, 4):
                    w = day + datetime.timedelta(minutes=10 * ti + 2 * tr)
                    b = 2e9 * (k + 1) * (1 + 0.02 * ti)
                    t.run(w, ty, p, "tcp", tr, shape.iperf3(
                        w, [b * rng.uniform(0.95, 1.05) for _ in range(nint)],
                        [rng.randint(0, 2) for _ in range(nint)]))
                    t.probes(w + datetime.timedelta(seconds=30), ty, p, tr,
                             [(k + 1) * 0.2 * rng.uniform(0.9, 1.1)
                              for _ in range(probes)])
    print(t.n)


if __name__ == "__main__":
    main(sys.argv)
