"""probe_campaign - the probe folders of the borrow tests (t2720-t2726):
each run a folder DIR with meta.json (its tags) and probe.csv (pathprobe
format 1, one probe every 200 ms, every one ok, connect_ms as given).
A test's generator keeps its own seed, loops and values and imports
this (the helper folder is its first argument):

    import sys; sys.path.insert(0, sys.argv[1])
    from probe_campaign import Campaign
    c = Campaign(600)        # each run starts 600 s after the last
    c.probe("c/P1/t1", {"path": "P1", "trial": 1}, values)

Runs start at 2026-09-01 00:00 UTC and follow each other by the step;
the header's start= stays that first time unless a run gives its own
(t0= and start=, as t2724 does to put runs on days).  Deterministic:
nothing here draws a random number."""
import json
import os
import time

T0 = 1788220800  # 2026-09-01T00:00:00Z
START = "2026-09-01T00:00:00Z"


def iso(t):
    """The header's start= of unix time t."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Campaign:
    def __init__(self, step):
        self.step = step
        self.t0 = T0

    def probe(self, d, meta, vals, t0=None, start=START):
        """Write run folder d: meta.json (meta) and probe.csv (vals)."""
        if t0 is None:
            t0 = self.t0
            self.t0 += self.step
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump(meta, f)
        rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=%s"
                % (len(vals), start), "seq,unix_ns,connect_ms,result"]
        for i, v in enumerate(vals):
            rows.append("%d,%d,%.3f,ok" % (i, t0 * 10**9 + i * 200000000, v))
        with open(os.path.join(d, "probe.csv"), "w") as f:
            f.write("\n".join(rows) + "\n")
