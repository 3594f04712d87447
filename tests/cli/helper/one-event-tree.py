#!/usr/bin/env python3
"""one-event-tree.py ROOT - write one campaign where one run is one event
three checks see: paths A (12.4 Gbit/s) and B (10.2 Gbit/s), iperf3 -P 4,
5 trials each, run one after another on one c6i.large; B's trial 5
holds 10.2 for 8 s, then falls to 0.77 Gbit/s (burst credits running
out) and stays there.  check names it three times: burst-cliff (the fall
within the run), run-order (the same path gave twice as much earlier)
and outlier-trial (its p50 is 0.1x the median trial's).  The files come
from tests/fixtures/check/gen_check.py's iperf3 writer."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "fixtures", "check"))
import gen_check as gc  # noqa: E402

gs = gc.gs
top = os.path.join(sys.argv[1], "one")
gs.write_meta(top, {"study": "one", "instance_type": "c6i.large",
                    "day": "2026-09-05"})
rng = random.Random(11)
now = gs.epoch("2026-09-05", 3, 0)
for path, level in (("A", 12.4), ("B", 10.2)):
    for trial in range(1, 6):
        d = os.path.join(top, path, "trial%d" % trial)
        gs.write_meta(d, {"path": path, "trial": trial})
        r = gc.series(rng, level, sigma=0.005)
        if path == "B" and trial == 5:
            r = r[:8] + [0.77 * (1 + rng.gauss(0, 0.004)) for _ in range(22)]
        now = gc.iperf_run(d, path, trial, "P4", now, r, 5) + 60
