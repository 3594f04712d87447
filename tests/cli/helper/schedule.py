#!/usr/bin/env python3
"""schedule.py - how a pathprobe CSV kept its absolute schedule.

  schedule.py CSV INTERVAL_NS

pathprobe stamps each probe's start on the monotonic clock its schedule
runs on, with probe 0's start as the origin, so for probe i

    late_i = unix_ns_i - unix_ns_0 - i * INTERVAL_NS

is exactly how late it started (integer arithmetic; no clock reading
here).  Prints one line

    n=N early=E catchups=C late_p50_us=.. late_max_us=..

early: probes with late_i < 0 (started before they were due: always 0
for a correct prober, whatever the load);
catchups: probes with late_i < late_(i-1), i.e. that started less than
one interval after the previous one.  Any prober that waits a full
interval after the previous probe started or ended (sleep after probe,
a relative schedule) has late_i >= late_(i-1) at every step, so
catchups = 0; an absolute schedule catches up after every probe that
woke late, so over a run of some length catchups > 0 however loaded
the machine is.  The lateness figures are for the record, not a check.
Exits 1 on a malformed file.
"""
import sys


def main():
    path, iv = sys.argv[1], int(sys.argv[2])
    stamps = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("seq,"):
                continue
            fields = line.rstrip("\n").split(",")
            if int(fields[0]) != len(stamps):
                print("row %d out of order" % len(stamps))
                return 1
            stamps.append(int(fields[1]))
    if not stamps:
        print("no rows")
        return 1
    late = [u - stamps[0] - i * iv for i, u in enumerate(stamps)]
    early = sum(1 for x in late if x < 0)
    catchups = sum(1 for a, b in zip(late, late[1:]) if b < a)
    s = sorted(late)
    m = len(s) // 2
    p50 = s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2
    print("n=%d early=%d catchups=%d late_p50_us=%.0f late_max_us=%.0f"
          % (len(late), early, catchups, p50 / 1e3, s[-1] / 1e3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
