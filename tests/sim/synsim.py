#!/usr/bin/python3
"""synsim.py - how often check syn-retransmit fires, through the CLI
(docs/checks.md, syn-retransmit).  Dev-time only (numpy):

    /usr/bin/python3 tests/sim/synsim.py PATHSTAT [CAMPAIGNS] [SEED]

Each campaign is one path of 3 oha runs of 2,000 requests (per-request
CSV); a campaign counts as flagged when check --only syn-retransmit
names its path.  Designs (seeded; 300 campaigns each by default):

  heavy      no SYN loss: lognormal median 20 ms, sigma 1, plus 2 % of
             requests from a mode 10x slower (sigma 1): HTTP with a slow
             backend path; every value is a real request time
  heavy5     the same with a 5 ms median
  syn1       SYN loss: lognormal median 10 ms, sigma 0.3, and one
             request of the campaign (in a random run) 1 s + its time
  syn3       the same with one request 3 s + its time (two retransmits)
  synrate    each request independently retransmits its SYN with
             probability 0.001 (then again with 0.001): +1 s, +3 s
  heavysyn   heavy, plus synrate's SYN loss on top

Prints, per design, the share of campaigns flagged.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

RUNS, REQ = 3, 2000


def durations(rng, design):
    """request durations (ms) of one run"""
    if design.startswith("heavy"):
        med = 5.0 if design == "heavy5" else 20.0
        x = med * np.exp(rng.normal(size=REQ))
        slow = rng.random(REQ) < 0.02
        x[slow] *= 10.0
    else:
        x = 10.0 * np.exp(0.3 * rng.normal(size=REQ))
    if design in ("synrate", "heavysyn"):
        one = rng.random(REQ) < 0.001
        two = one & (rng.random(REQ) < 0.001)
        x[one] += 1000.0
        x[two] += 2000.0
    return x


def write_run(d, x, path, trial):
    os.makedirs(d)
    json.dump({"path": path, "trial": trial, "tool": "oha"},
              open(os.path.join(d, "meta.json"), "w"))
    with open(os.path.join(d, "oha.csv"), "w") as f:
        f.write("request-start,DNS,DNS+dialup,request-duration,bytes,status\n")
        t = 0.0
        for v in x:
            f.write("%.6f,0.000005,0.000300,%.6f,1024,200\n" % (t, v / 1000))
            t += 0.001


def flagged_share(ps, design, n, seed, top):
    rng = np.random.default_rng(seed)
    tree = os.path.join(top, design)
    for c in range(n):
        runs = [durations(rng, design) for _ in range(RUNS)]
        if design in ("syn1", "syn3"):
            r, i = rng.integers(RUNS), rng.integers(REQ)
            runs[r][i] += 1000.0 if design == "syn1" else 3000.0
        for t in range(RUNS):
            write_run(os.path.join(tree, "c%04d" % c, "t%d" % (t + 1)),
                      runs[t], "c%04d" % c, t + 1)
    db = os.path.join(top, design + ".db")
    subprocess.run([ps, "ingest", "-q", "--db", db, tree], check=True,
                   stderr=subprocess.DEVNULL)
    p = subprocess.run([ps, "check", "--db", db, "--only", "syn-retransmit",
                        "--format", "json"], capture_output=True, text=True)
    paths = {x["path"] for x in json.loads(p.stdout or "[]")}
    shutil.rmtree(tree)
    os.remove(db)
    return len(paths) / n


def main():
    ps = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 33
    top = tempfile.mkdtemp(prefix="synsim.")
    try:
        for k, design in enumerate(("heavy", "heavy5", "syn1", "syn3",
                                    "synrate", "heavysyn")):
            share = flagged_share(ps, design, n, seed + k, top)
            print("%-9s %4d campaigns: flagged %.1f %%" %
                  (design, n, 100 * share))
            sys.stdout.flush()
    finally:
        shutil.rmtree(top)


if __name__ == "__main__":
    main()
