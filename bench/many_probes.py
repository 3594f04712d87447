#!/usr/bin/python3
"""many_probes.py - a tree of many small pathprobe CSV files, the shape
a campaign of short probe runs leaves (thousands of files of a few
hundred samples), where ingest's cost per file and per commit shows.

  many_probes.py OUT NFILES NROWS

Writes OUT/Pnn/tK/probe.csv (40 paths, trials numbered on) with a
meta.json beside each; 1 % of probes time out, the rest are lognormal
connect times.  Seeded: the same arguments give the same tree.
"""
import json
import os
import random
import sys


def main():
    out, nfiles, nrows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    random.seed(1)
    for k in range(nfiles):
        p, t = k % 40, k // 40 + 1
        d = "%s/P%02d/t%d" % (out, p, t)
        os.makedirs(d)
        with open(d + "/meta.json", "w") as f:
            json.dump({"path": "P%02d" % p, "trial": t}, f)
        rows = ["# pathprobe 1 target=h:1 addr=10.0.0.2 count=%d "
                "interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
                % nrows, "seq,unix_ns,connect_ms,result"]
        for i in range(nrows):
            ns = 1787878800000000000 + i * 200000000
            if random.random() < 0.01:
                rows.append("%d,%d,,timeout" % (i, ns))
            else:
                rows.append("%d,%d,%.3f,ok" %
                            (i, ns, random.lognormvariate(0, 0.3)))
        with open(d + "/probe.csv", "w") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
