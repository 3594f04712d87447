#!/usr/bin/env python3
"""burst-tree.py ROOT [DAYS] [PATHS] [ITYPES] [TAGGED] - write a campaign of
iperf3 -P 1 runs, 30 one-second intervals each, one run a day per path
and instance type:

    ROOT/<instance type>/<day>/<path>/run.json            (untagged)
    ROOT/<instance type>/<day>/<path>/nlb/run.json        (TAGGED paths)

from 2026-11-01 for DAYS days (default 14), PATHS A..E (default
A,B,C,D,E), ITYPES c6i.large (default; a comma list).  Each interval is
9.5 Gbit/s plus a little per-file noise; path E on 2026-11-02 (every
instance type) is a burst-credit run: 0.77 Gbit/s for its last 14 of 30
seconds.  TAGGED (a comma list of paths, default none) also writes, for
each of those paths, a second run per day behind an NLB, 0.5 Gbit/s
slower, in a folder nlb/ beside the direct run (the layout
{path}/{tag:via}/{*} tags it via=nlb; the direct run stays untagged).  Each instance type after the first runs 5 % slower per
place in the list.  STEP (a comma list of paths, default none) steps
those paths up 10 % from 2026-11-16 (a Monday, ISO week 47) on.  Each <instance type>/<day> folder holds the
meta.json pathstat-collect writes, its provenance: the instance's
hostname, the day's session and the collector's command line.  Prints the number of files written.  The contents are the
real iperf3 3.12 fixture (tests/fixtures/reference/iperf3/3.12/
tcp_P1.json) with its intervals, sums and timestamps rewritten."""
import copy
import datetime
import json
import os
import random
import sys

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "fixtures", "reference", "iperf3", "3.12", "tcp_P1.json")


def run(template, when, rates):
    d = copy.deepcopy(template)
    secs = int(when.timestamp())
    d["start"]["timestamp"] = {
        "time": when.strftime("%a, %d %b %Y %H:%M:%S GMT"),
        "timesecs": secs}
    d["start"]["test_start"]["duration"] = len(rates)
    d["start"]["cookie"] = "c%035d" % (secs * 97 + int(rates[0]) % 1000)
    ivs = []
    total = 0
    for i, bps in enumerate(rates):
        b = int(bps / 8)
        total += b
        iv = {"socket": 5, "start": i, "end": i + 1, "seconds": 1.0,
              "bytes": b, "bits_per_second": float(bps), "retransmits": 0,
              "snd_cwnd": 1833524, "snd_wnd": 30571520, "rtt": 296,
              "rttvar": 275, "pmtu": 9001, "omitted": False, "sender": True}
        s = {k: iv[k] for k in ("start", "end", "seconds", "bytes",
                                "bits_per_second", "retransmits",
                                "omitted", "sender")}
        ivs.append({"streams": [iv], "sum": s})
    d["intervals"] = ivs
    n = len(rates)
    mean = total * 8.0 / n
    for side in ("sender", "receiver"):
        st = d["end"]["streams"][0][side]
        st.update(end=float(n), seconds=float(n), bytes=total,
                  bits_per_second=mean)
        if side == "sender":
            st["retransmits"] = 0
    for k in ("sum_sent", "sum_received"):
        d["end"][k].update(end=float(n), seconds=float(n), bytes=total,
                           bits_per_second=mean)
    d["end"]["sum_sent"]["retransmits"] = 0
    return d


def main(root, days="14", paths="A,B,C,D,E", itypes="c6i.large",
         tagged="", step=""):
    template = json.load(open(FIX))
    tagged = set(t for t in tagged.split(",") if t)
    step = set(t for t in step.split(",") if t)
    rnd = random.Random(7)
    n = 0
    start = datetime.datetime(2026, 11, 1, 1, 0, 0,
                              tzinfo=datetime.timezone.utc)
    for ix, it in enumerate(itypes.split(",")):
        for k in range(int(days)):
            when = start + datetime.timedelta(days=k)
            day = when.date().isoformat()
            os.makedirs(os.path.join(root, it, day), exist_ok=True)
            with open(os.path.join(root, it, day, "meta.json"), "w") as f:
                json.dump({"hostname": "ip-10-0-%d-7" % ix,
                           "session": when.strftime("%Y%m%dT%H%M%SZ"),
                           "collector_command": "pathstat-collect --out "
                           "results --path-id P --host 10.0.0.%d" % ix}, f)
            for p in paths.split(","):
                base = 9.5e9 * (1 - 0.05 * ix)
                if p in step and day >= "2026-11-16":
                    base *= 1.10
                rates = [base + rnd.uniform(-5e7, 5e7) for _ in range(30)]
                if p == "E" and day == "2026-11-02":
                    rates[16:] = [0.77e9 + rnd.uniform(-5e6, 5e6)
                                  for _ in range(14)]
                runs = [("", rates)]
                if p in tagged:
                    nlb = [base - 5e8 + rnd.uniform(-5e7, 5e7) for _ in range(30)]
                    runs.append(("nlb", nlb))
                for sub, r in runs:
                    folder = os.path.join(root, it, day, p, sub)
                    os.makedirs(folder, exist_ok=True)
                    with open(os.path.join(folder, "run.json"), "w") as f:
                        json.dump(run(template, when, r), f)
                    n += 1
    print(n)


if __name__ == "__main__":
    main(*sys.argv[1:])
