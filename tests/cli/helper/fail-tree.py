#!/usr/bin/env python3
"""fail-tree.py - one day of pathprobe runs, 3 trials of 300 probes per
path, with timeouts planted: A none, C 3, 6 and 12 (per trial), D 9 in
each.  Writes tree/2026-11-02/<path>/trial<n>/probe.csv (layout
{tag:day}/{path}/trial{trial}/{*})."""
import os, random
rnd = random.Random(3)
fails = {"A": [0, 0, 0], "C": [3, 6, 12], "D": [9, 9, 9]}
for p, fl in fails.items():
    for t in range(3):
        d = "tree/2026-11-02/%s/trial%d" % (p, t + 1)
        os.makedirs(d, exist_ok=True)
        bad = set(rnd.sample(range(300), fl[t]))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=10.0.0.9:5201 addr=10.0.0.9 count=300 interval_s=0.2 timeout_s=0.4 start=2026-11-02T0%d:00:00Z\n" % (t + 1))
            f.write("seq,unix_ns,connect_ms,result\n")
            base = 1793581200000000000 + t * 3600 * 10**9
            for s in range(300):
                if s in bad:
                    f.write("%d,%d,400.000,timeout\n" % (s, base + s * 200000000))
                else:
                    f.write("%d,%d,%.3f,ok\n" % (s, base + s * 200000000, 0.3 + rnd.random() * 0.05))
