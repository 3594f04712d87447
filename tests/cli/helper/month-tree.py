#!/usr/bin/env python3
"""month-tree.py ROOT [DAYS] [PROBES] [FIRST_DAY] - write the hourly
monitoring tree of a month, as a collector on cron makes it:

    ROOT/DAY/PATH/meta.json          {"instance_type": ...}
    ROOT/DAY/PATH/probe-HH.csv       pathprobe format 1, PROBES probes

five paths A-E, 24 hours a day, DAYS days (default 30) from FIRST_DAY
(default 2026-11-01), PROBES probes an hour (default 20), each
connect time base * (1 + sigma * z).  The layout has no {trial}, so
every hour of a path and day shares its keys (the conflict ingest
reports once per path).  What changes, for the tests to find:

    A, B  instance type alternates weekly by ISO week: odd weeks
          c6i.large, even weeks c7i.large, 4 % faster
    C     drifts +0.5 % a day
    D     steps +1.5 ms on day 18 (and after)
    E     loses 30 % of its probes (timeouts) 10:00-13:59 on day 22

Deterministic (seeded by the day, path and hour) and fast: the bench
writes a year of it (43,800 files) with this script.  Prints the
number of files and of probes written.  With --days-only N, only day N
(1-based) is written: the bench's incremental ingest of one new day."""
import datetime
import os
import random
import sys

BASE = {"A": 1.0, "B": 2.0, "C": 5.0, "D": 8.0, "E": 10.0}
SIGMA = 0.05
INTERVAL_S = 0.2
TIMEOUT_S = 0.4


def itype(path, day):
    if path not in ("A", "B"):
        return "c6i.large"
    return "c7i.large" if day.isocalendar()[1] % 2 == 0 else "c6i.large"


def level(path, k, day):
    """The path's typical connect time on day index k (0-based)."""
    b = BASE[path]
    if path == "C":
        b *= 1.0 + 0.005 * k
    if path == "D" and k >= 17:
        b += 1.5
    if itype(path, day) == "c7i.large":
        b *= 0.96
    return b


def write_hour(fname, start, vals):
    head = ("# pathprobe 1 target=10.9.0.10:5201 addr=10.9.0.10 count=%d "
            "interval_s=%s timeout_s=%s start=%s\n" %
            (len(vals), INTERVAL_S, TIMEOUT_S,
             datetime.datetime.fromtimestamp(start, datetime.timezone.utc)
             .strftime("%Y-%m-%dT%H:%M:%SZ")))
    out = [head, "seq,unix_ns,connect_ms,result\n"]
    base = start * 1000000000
    step = int(INTERVAL_S * 1e9)
    for i, v in enumerate(vals):
        if v is None:
            out.append("%d,%d,,timeout\n" % (i, base + i * step))
        else:
            out.append("%d,%d,%.3f,ok\n" % (i, base + i * step, v))
    with open(fname, "w") as f:
        f.write("".join(out))


def main(argv):
    root = argv[1]
    ndays = int(argv[2]) if len(argv) > 2 else 30
    probes = int(argv[3]) if len(argv) > 3 else 20
    first = datetime.date.fromisoformat(argv[4] if len(argv) > 4 else
                                        "2026-11-01")
    only = int(argv[6]) if len(argv) > 6 and argv[5] == "--days-only" \
        else 0
    nfiles = nprobes = 0
    for k in range(ndays):
        if only and k + 1 != only:
            continue
        day = first + datetime.timedelta(days=k)
        ds = day.isoformat()
        epoch0 = int(datetime.datetime(day.year, day.month, day.day,
                                       tzinfo=datetime.timezone.utc)
                     .timestamp())
        for path in BASE:
            d = os.path.join(root, ds, path)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "meta.json"), "w") as f:
                f.write('{"instance_type": "%s"}\n' % itype(path, day))
            lv = level(path, k, day)
            for h in range(24):
                rng = random.Random("%s/%s/%d" % (ds, path, h))
                g = rng.gauss
                vals = [lv * (1.0 + SIGMA * g(0.0, 1.0)) for _ in
                        range(probes)]
                vals = [max(v, 0.001) for v in vals]
                if path == "E" and k == 21 and 10 <= h <= 13:
                    for i in rng.sample(range(probes),
                                        int(round(0.3 * probes))):
                        vals[i] = None
                write_hour(os.path.join(d, "probe-%02d.csv" % h),
                           epoch0 + 3600 * h + 5, vals)
                nfiles += 1
                nprobes += probes
    print(nfiles, nprobes)


if __name__ == "__main__":
    main(sys.argv)
