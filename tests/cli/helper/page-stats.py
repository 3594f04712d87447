#!/usr/bin/env python3
"""page-stats.py JARS FILE... - check the statistics in every data
page's header of the Parquet files against the page's values (t7605).

parquet-mr (Apache Parquet's Java reader, pyspark's jars in JARS) reads
each page's header statistics (PageStats.java, beside this script);
pyarrow, another reader, reads the column values, which are cut into
the pages in order by the value counts parquet-mr reports.  A page's
null count, min and max must be those of its values: NaN left out of
min and max, a zero min written -0.0 and a zero max +0.0, strings
compared as unsigned bytes and left out (no min/max) when either is
longer than 512 bytes.  The row group's (chunk's) statistics, read by
pyarrow, must be its pages' merged.  Prints "ok - " / "not ok - "
lines, one per file, and one about the chunks of many pages seen
(--multipage: at least one is required); exit 1 if any failed."""
import math
import os
import struct
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq

STAT_MAX = 512


def hexval(kind, v):
    if kind == "s":
        return v.hex()
    if kind == "d":
        return struct.pack(">d", v).hex()
    return struct.pack(">q", v).hex()


def expect(kind, vals):
    """(nulls, min, max) of a page's values; min/max None if none."""
    nn = [v for v in vals if v is not None]
    nulls = len(vals) - len(nn)
    if kind == "d":
        nn = [v for v in nn if not math.isnan(v)]
    if not nn:
        return nulls, None, None
    lo, hi = min(nn), max(nn)
    if kind == "d":
        lo = -0.0 if lo == 0 else lo
        hi = 0.0 if hi == 0 else hi
    if kind == "s" and (len(lo) > STAT_MAX or len(hi) > STAT_MAX):
        return nulls, None, None
    return nulls, hexval(kind, lo), hexval(kind, hi)


def values(col):
    t = col.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "s", [None if v is None else v.encode() for v in
                     col.to_pylist()]
    if pa.types.is_floating(t):
        return "d", col.to_pylist()
    if pa.types.is_timestamp(t):
        col = col.cast(pa.int64())
    return "i", col.to_pylist()


def main():
    args = sys.argv[1:]
    multipage = "--multipage" in args
    args = [a for a in args if a != "--multipage"]
    jars, files = args[0], args[1:]
    helper = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "PageStats.java")
    out = subprocess.run(["java", "-cp", jars + "/*", helper] + files,
                         check=True, capture_output=True, text=True).stdout
    pages = {}
    for line in out.splitlines():
        f, rg, col, _, n, nulls, mm, lo, hi = line.split("\t")
        pages.setdefault((f, int(rg), col), []).append(
            (int(n), nulls, mm == "1", lo, hi))
    multi = npages = failed = 0
    for f in files:
        bad = []
        pf = pq.ParquetFile(f)
        names = pf.schema_arrow.names
        for rg in range(pf.num_row_groups):
            tab = pf.read_row_group(rg)
            meta = pf.metadata.row_group(rg)
            for ci, name in enumerate(names):
                where = "%s rg %d %s" % (f, rg, name)
                got = pages.get((f, rg, name))
                if not got:
                    bad.append(where + ": parquet-mr read no page")
                    continue
                kind, vals = values(tab.column(ci).combine_chunks())
                if sum(p[0] for p in got) != len(vals):
                    bad.append("%s: pages hold %d values, the chunk %d"
                               % (where, sum(p[0] for p in got), len(vals)))
                    continue
                npages += len(got)
                multi += len(got) > 1
                at, mins, maxs, nulls = 0, [], [], 0
                for i, (n, pn, mm, lo, hi) in enumerate(got):
                    en, elo, ehi = expect(kind, vals[at:at + n])
                    at += n
                    want = (str(en), elo is not None,
                            "-" if elo is None else elo,
                            "-" if ehi is None else ehi)
                    have = (pn, mm, lo, hi)
                    if have != want:
                        bad.append("%s page %d: statistics %s, its values %s"
                                   % (where, i, have, want))
                    nulls += en
                    if elo is not None:
                        mins.append(elo)
                        maxs.append(ehi)
                # the chunk's statistics are its pages' merged
                st = meta.column(ci).statistics
                if st is None or st.null_count != nulls:
                    bad.append("%s: chunk null count %s, pages' %d"
                               % (where, st and st.null_count, nulls))
                cen, celo, cehi = expect(kind, vals)
                if st is not None and st.has_min_max != (celo is not None):
                    bad.append("%s: chunk min/max %s, values' %s"
                               % (where, st.has_min_max, celo is not None))
        if bad:
            failed += 1
            for b in bad[:5]:
                print("not ok - page statistics: " + b)
        else:
            print("ok - page statistics of %s" % f)
    print("# %d pages, %d chunks of more than one page" % (npages, multi))
    if multipage:
        print(("ok - " if multi else "not ok - ") +
              "%d chunks of more than one page" % multi)
        failed += not multi
    return 1 if failed else 0


sys.exit(main())
