#!/usr/bin/env python3
"""shape-tree.py ROOT SHAPE [N] - write a tree of one degenerate or
unusual campaign shape, as small as the shape allows, for the report's
chart tests (every chart of every shape must draw its data):

    ROOT/DAY/INSTANCE_TYPE/<path>_<cond>_run<trial>.json|.csv

(ingest with --layout '{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}.json'
and the same with .csv).  iperf3 runs are TCP -P 1 (or UDP) JSON of a
few one-second intervals; probes are pathprobe format 1 CSV.  Shapes:

    zero-retr    2 paths, 3 trials, every interval 0 retransmits, plus probes
    constant     2 paths, 3 trials, every value of every metric the same
    one-sample   1 path, 1 run of 1 interval, 1 probe
    one-path     1 path, 3 trials of 5 intervals, probes
    many-paths   N paths (default 10000), 1 run of 2 intervals each
    cron         8 instance types x 5 paths x 21 days, one run hour a
                 day (03:00 UTC); r7i.large misses the second week
    timeouts     2 paths, 3 trials of probes, a third of them timed out
    udp          2 paths, 3 trials of iperf3 -u with 5-40 % lost
    nlb          3 paths, 3 trials each direct and A and B also through
                 an NLB (a folder nlb under the instance type: ingest
                 with '{tag:day}/{tag:instance_type}/{tag:via}/...'
                 first), the NLB 10 % slower and 0.2 ms later

Deterministic (seeded by the shape).  Prints the number of files."""
import datetime
import json
import os
import random
import sys

T0 = datetime.datetime(2026, 11, 2, 3, 0, 0, tzinfo=datetime.timezone.utc)


def iperf3(when, bps, retr, udp=False, lost=0.0):
    """One iperf3 run: bps and retr are per-interval lists."""
    n = len(bps)
    ts = int(when.timestamp())
    ivs, tot, totr = [], 0, 0
    for i, (b, r) in enumerate(zip(bps, retr)):
        nb = int(b / 8)
        tot += nb
        totr += r
        s = {"socket": 5, "start": i, "end": i + 1, "seconds": 1.0,
             "bytes": nb, "bits_per_second": float(b), "omitted": False,
             "sender": True}
        if udp:
            s["packets"] = max(1, nb // 1448)
        else:
            s.update({"retransmits": r, "snd_cwnd": 65536, "rtt": 100,
                      "rttvar": 10, "pmtu": 9001})
        ivs.append({"streams": [s], "sum": dict(s)})
    start = {"connected": [{"socket": 5, "local_host": "10.0.0.1",
                            "local_port": 40000, "remote_host": "10.0.0.9",
                            "remote_port": 5201}],
             "version": "iperf 3.12", "system_info": "Linux",
             "timestamp": {"time": when.strftime("%a, %d %b %Y %H:%M:%S GMT"),
                           "timesecs": ts},
             "connecting_to": {"host": "10.0.0.9", "port": 5201},
             "cookie": "x" * 36, "tcp_mss_default": 8949,
             "test_start": {"protocol": "UDP" if udp else "TCP",
                            "num_streams": 1, "blksize": 131072, "omit": 0,
                            "duration": n, "bytes": 0, "blocks": 0,
                            "reverse": 0, "tos": 0,
                            "target_bitrate": 0}}
    rate = tot * 8.0 / n
    if udp:
        pk = max(1, tot // 1448)
        lp = int(pk * lost)
        snd = {"start": 0, "end": n, "seconds": float(n), "bytes": tot,
               "bits_per_second": rate, "jitter_ms": 0, "lost_packets": 0,
               "packets": pk, "lost_percent": 0, "sender": True}
        rcv = {"start": 0, "end": n, "seconds": float(n),
               "bytes": tot - lp * 1448,
               "bits_per_second": rate * (1 - lost), "jitter_ms": 0.01,
               "lost_packets": lp, "packets": pk,
               "lost_percent": 100.0 * lp / pk, "sender": False}
        end = {"streams": [{"udp": dict(rcv, socket=5)}], "sum": rcv,
               "sum_sent": snd, "sum_received": rcv}
    else:
        snd = {"start": 0, "end": n, "seconds": float(n), "bytes": tot,
               "bits_per_second": rate, "retransmits": totr, "sender": True}
        rcv = {"start": 0, "end": n, "seconds": float(n), "bytes": tot,
               "bits_per_second": rate, "sender": True}
        end = {"streams": [{"sender": dict(snd, socket=5),
                            "receiver": dict(rcv, socket=5)}],
               "sum_sent": snd, "sum_received": rcv}
    return {"start": start, "intervals": ivs, "end": end}


def probe(when, values):
    """pathprobe CSV: values are ms, None for a timeout."""
    ns = int(when.timestamp()) * 10**9
    out = ["# pathprobe 1 target=10.0.0.9:5201 addr=10.0.0.9 count=%d "
           "interval_s=0.2 timeout_s=0.4 start=%s" %
           (len(values), when.strftime("%Y-%m-%dT%H:%M:%SZ")),
           "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        t = ns + i * 200000000
        out.append("%d,%d,,timeout" % (i, t) if v is None else
                   "%d,%d,%.3f,ok" % (i, t, v))
    return "\n".join(out) + "\n"


class Tree:
    def __init__(self, root):
        self.root, self.n = root, 0

    def put(self, day, itype, name, text):
        d = os.path.join(self.root, day, itype)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        self.n += 1

    def run(self, when, itype, path, cond, trial, doc):
        self.put(when.strftime("%Y-%m-%d"), itype,
                 "%s_%s_run%d.json" % (path, cond, trial),
                 json.dumps(doc))

    def probes(self, when, itype, path, trial, values):
        self.put(when.strftime("%Y-%m-%d"), itype,
                 "%s_probe_run%d.csv" % (path, trial), probe(when, values))


def main(root, shape, n="10000"):
    rng = random.Random(shape)
    t = Tree(root)
    it = "c6i.large"
    if shape in ("zero-retr", "constant", "one-path", "timeouts", "udp"):
        paths = ["A"] if shape == "one-path" else ["A", "B"]
        for k, p in enumerate(paths):
            base = 5e9 * (k + 1)
            for tr in range(1, 4):
                w = T0 + datetime.timedelta(minutes=10 * tr + k)
                if shape == "constant":
                    bps, retr = [base] * 5, [3] * 5
                    pv = [0.5] * 10
                else:
                    bps = [base * rng.uniform(0.9, 1.1) for _ in range(5)]
                    retr = [0] * 5
                    pv = [0.3 * (k + 1) * rng.uniform(0.8, 1.2)
                          for _ in range(10)]
                if shape == "timeouts":
                    pv = [None if i % 3 == 0 else v for i, v in enumerate(pv)]
                if shape == "udp":
                    t.run(w, it, p, "udp", tr,
                          iperf3(w, [1e9] * 5, [0] * 5, udp=True,
                                 lost=[0.05, 0.2, 0.4][tr - 1]))
                elif shape != "timeouts":
                    t.run(w, it, p, "tcp", tr, iperf3(w, bps, retr))
                t.probes(w + datetime.timedelta(seconds=30), it, p, tr, pv)
    elif shape == "nlb":
        for k, p in enumerate("ABC"):
            for via in ("", "nlb") if p != "C" else ("",):
                slow = 0.9 if via else 1.0
                for tr in range(1, 4):
                    w = T0 + datetime.timedelta(minutes=10 * tr + k,
                                                seconds=5 if via else 0)
                    d = it + "/" + via if via else it
                    bps = [slow * 4e9 * (k + 1) * rng.uniform(0.95, 1.05)
                           for _ in range(5)]
                    t.run(w, d, p, "tcp", tr,
                          iperf3(w, bps, [rng.randint(0, 3)
                                          for _ in range(5)]))
                    t.probes(w + datetime.timedelta(seconds=30), d, p, tr,
                             [(0.2 if via else 0) + 0.3 * (k + 1)
                              * rng.uniform(0.9, 1.1) for _ in range(10)])
    elif shape == "one-sample":
        t.run(T0, it, "A", "tcp", 1, iperf3(T0, [9e9], [0]))
        t.probes(T0 + datetime.timedelta(seconds=30), it, "A", 1, [0.4])
    elif shape == "many-paths":
        for k in range(int(n)):
            p = "p%05d" % k
            b = 1e9 * (1 + k % 97) + k  # unique: no file a copy
            t.run(T0, it, p, "tcp", 1, iperf3(T0, [b, b * 1.01], [k % 3, 0]))
    elif shape == "cron":
        types = ["c6i.large", "c6i.xlarge", "c7i.large", "c7i.xlarge",
                 "m6i.large", "m7i.large", "r6i.large", "r7i.large"]
        for d in range(21):
            day = T0 + datetime.timedelta(days=d)
            for ti, ty in enumerate(types):
                if ty == "r7i.large" and 7 <= d < 14:
                    continue
                for k, p in enumerate("ABCDE"):
                    w = day + datetime.timedelta(minutes=ti)
                    b = 2e9 * (k + 1) * (1 + 0.02 * ti)
                    t.run(w, ty, p, "tcp", 1,
                          iperf3(w, [b * rng.uniform(0.95, 1.05)
                                     for _ in range(3)], [rng.randint(0, 2)
                                                          for _ in range(3)]))
                    t.probes(w + datetime.timedelta(seconds=30), ty, p, 1,
                             [(k + 1) * 0.2 * rng.uniform(0.9, 1.1)
                              for _ in range(5)])
    else:
        sys.exit("shape-tree.py: unknown shape %r" % shape)
    print(t.n)


if __name__ == "__main__":
    main(*sys.argv[1:])
