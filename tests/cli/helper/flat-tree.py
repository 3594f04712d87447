#!/usr/bin/env python3
"""flat-tree.py ROOT DAY [INSTANCE_TYPE] [PATHS] [TRIALS] - write one day of
the flat-named tree an SRE's own scripts make:

    ROOT/DAY/INSTANCE_TYPE/<path>_<cond>_run<trial>.json|.csv

one file per path, trial and kind: iperf3 -P 4 (tcp_P4), -R (tcp_R),
--bidir (tcp_bidir, two runs), -u -b 500M (udp_b500M), oha JSON (oha)
and pathprobe CSV (probe).  The contents are the real fixtures in
$FIX/reference, each file made unique (iperf3 and oha: trailing blanks,
which JSON allows; pathprobe: its values), so none is taken for a copy
of another.  INSTANCE_TYPE defaults to c6i.large, PATHS to A,B, TRIALS
to 3.  Prints the number of files and of runs they hold."""
import os
import sys
import zlib

FIX = os.environ["FIX"] + "/reference"
KINDS = [  # (cond in the name, fixture, extension, runs in the file)
    ("tcp_P4", "iperf3/3.12/tcp_P4.json", "json", 1),
    ("tcp_R", "iperf3/3.12/tcp_R.json", "json", 1),
    ("tcp_bidir", "iperf3/3.12/tcp_bidir.json", "json", 2),
    ("udp_b500M", "iperf3/3.12/udp_b500M.json", "json", 1),
    ("oha", "oha/synthetic-v1.15.0-normal.json", "json", 1),
    ("probe", None, "csv", 1),
]


def main(root, day, itype="c6i.large", paths="A,B", trials="3"):
    folder = os.path.join(root, day, itype)
    os.makedirs(folder, exist_ok=True)
    nfiles = nruns = 0
    for p in paths.split(","):
        for t in range(1, int(trials) + 1):
            for cond, fix, ext, runs in KINDS:
                name = os.path.join(folder, "%s_%s_run%d.%s" % (p, cond, t, ext))
                # a number for this file alone: its name's CRC-32
                serial = zlib.crc32(os.path.relpath(name, root).encode())
                if fix:
                    data = open(os.path.join(FIX, fix), "rb").read()
                    # serial's 32 bits as blanks and tabs after the JSON
                    data = data.rstrip() + b"".join(
                        b"\t" if serial >> i & 1 else b" "
                        for i in range(32)) + b"\n"
                    open(name, "wb").write(data)
                else:
                    with open(name, "w") as f:
                        f.write("# pathprobe 1 target=10.0.0.9:5201 "
                                "addr=10.0.0.9 count=3 interval_s=0.2 "
                                "timeout_s=0.4 start=%sT01:00:00Z\n" % day)
                        f.write("seq,unix_ns,connect_ms,result\n")
                        for s in range(3):
                            f.write("%d,%d,0.%03d,ok\n" % (
                                s, 1788220800000000000 + s * 200000000 +
                                serial, 200 + (serial + s) % 100))
                nfiles += 1
                nruns += runs
    print(nfiles, nruns)


if __name__ == "__main__":
    main(*sys.argv[1:])
