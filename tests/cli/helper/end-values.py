#!/usr/bin/env python3
"""end-values.py - the oracle for t2220: one end-of-test value per run,
read straight from a sample tree's raw files (no pathstat code), and
numpy's median and mean per path.

Usage: end-values.py TREE METRIC
  METRIC rps       oha JSON summary.requestsPerSec, runs at c=16, 1 MB
         http_bps  oha JSON summary.sizePerSec x 8, the same runs
         jitter_ms iperf3 UDP end.sum_received (else end.sum) jitter_ms
         loss_pct  ... lost_percent
Prints one line per path in path order: PATH N MEDIAN MEAN (repr).
"""
import json
import os
import sys

import numpy as np


def meta_path(folder):
    """The path ID from the nearest meta.json that names one."""
    while True:
        m = os.path.join(folder, "meta.json")
        if os.path.exists(m):
            d = json.load(open(m))
            if "path" in d:
                return d, d["path"]
        up = os.path.dirname(folder)
        if up == folder:
            return {}, None
        folder = up


def main():
    tree, metric = sys.argv[1], sys.argv[2]
    values = {}
    for folder, _, files in os.walk(tree):
        for f in sorted(files):
            if not f.endswith(".json") or f == "meta.json":
                continue
            full = os.path.join(folder, f)
            try:
                d = json.load(open(full))
            except ValueError:
                continue
            meta, path = meta_path(folder)
            v = None
            if metric in ("rps", "http_bps") and "summary" in d:
                cond = meta.get("condition", "")
                toks = cond.replace(",", "_").split("_")
                if "c16" not in toks or "1m" not in toks:
                    continue
                s = d["summary"]
                v = s["requestsPerSec"] if metric == "rps" else \
                    s["sizePerSec"] * 8
            elif metric in ("jitter_ms", "loss_pct") and "end" in d and \
                    d.get("start", {}).get("test_start", {}).get(
                        "protocol") == "UDP":
                e = d["end"]
                b = e.get("sum_received") or e.get("sum")
                v = b["jitter_ms"] if metric == "jitter_ms" else \
                    b["lost_percent"]
            if v is not None:
                values.setdefault(path, []).append(v)
    for p in sorted(values):
        x = np.array(values[p], dtype=float)
        print(p, len(x), repr(float(np.median(x))), repr(float(np.mean(x))))


if __name__ == "__main__":
    main()
