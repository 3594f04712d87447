#!/usr/bin/env python3
"""writers-check.py DIR - the dataset several `pathstat export --writer`
runs made in DIR, checked without an engine: every writer's manifest
(DIR/manifests/NAME.json), the files on disk, and each file's row count
from its own Parquet footer (FileMetaData.num_rows, read here with a
minimal Thrift compact-protocol reader, not from the manifest).

Prints one line:

    runs=R samples=S dups=D unlisted=U missing=M rows_bad=B names_bad=N

R and S: the runs and sample rows of all writers together (from the
footers of runs/ and samples/ files); D: run ids that more than one
writer's manifest lists (each would be counted twice by an engine); U:
.parquet files on disk no manifest lists; M: listed files not on disk;
B: files whose footer's row count differs from their manifest's; N:
files not named part-WRITER-NNNNN.parquet after the manifest listing
them.  Standard library only.
"""
import glob
import json
import os
import re
import struct
import sys


class Compact:
    """Just enough of Thrift's compact protocol to skip to a field."""

    def __init__(self, buf):
        self.b = buf
        self.i = 0

    def byte(self):
        v = self.b[self.i]
        self.i += 1
        return v

    def varint(self):
        shift = v = 0
        while True:
            c = self.byte()
            v |= (c & 0x7F) << shift
            shift += 7
            if not c & 0x80:
                return v

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def skip(self, t):
        if t in (1, 2):             # bool true/false in the type nibble
            return
        if t == 3:                  # byte
            self.i += 1
        elif t in (4, 5, 6):        # i16, i32, i64
            self.varint()
        elif t == 7:                # double
            self.i += 8
        elif t == 8:                # binary
            n = self.varint()       # read before self.i is
            self.i += n
        elif t in (9, 10):          # list, set
            h = self.byte()
            n = h >> 4
            if n == 15:
                n = self.varint()
            for _ in range(n):
                if (h & 0x0F) in (1, 2):
                    self.i += 1
                else:
                    self.skip(h & 0x0F)
        elif t == 11:               # map
            n = self.varint()
            if n:
                kv = self.byte()
                for _ in range(n):
                    self.skip(kv >> 4)
                    self.skip(kv & 0x0F)
        elif t == 12:               # struct
            self.struct_fields(None)
        else:
            raise ValueError("thrift type %d" % t)

    def struct_fields(self, want):
        """Skip a struct; return the i64 value of field id want."""
        fid = 0
        found = None
        while True:
            h = self.byte()
            if h == 0:
                return found
            t = h & 0x0F
            d = h >> 4
            fid = fid + d if d else self.zigzag_i16()
            if fid == want and t == 6:
                found = self.zigzag()
            else:
                self.skip(t)

    def zigzag_i16(self):
        return self.zigzag()


def footer_rows(path):
    with open(path, "rb") as f:
        f.seek(-8, os.SEEK_END)
        n, magic = struct.unpack("<I4s", f.read(8))
        if magic != b"PAR1":
            raise ValueError("%s: no PAR1" % path)
        f.seek(-8 - n, os.SEEK_END)
        meta = f.read(n)
    return Compact(meta).struct_fields(3)


def main():
    out = sys.argv[1]
    owner = {}
    dups = set()
    listed = {}
    for m in sorted(glob.glob(os.path.join(out, "manifests", "*.json"))):
        writer = os.path.basename(m)[:-5]
        with open(m) as f:
            mf = json.load(f)
        for ds, d in mf["datasets"].items():
            for p in d["partitions"]:
                for rid in p.get("run_ids", []):
                    if rid in owner and owner[rid] != writer:
                        dups.add(rid)
                    owner[rid] = writer
                for fl in p["files"]:
                    listed[fl["path"]] = (writer, ds, fl["rows"])
    on_disk = set()
    for root, _dirs, files in os.walk(out):
        for name in files:
            if name.endswith(".parquet"):
                on_disk.add(os.path.relpath(os.path.join(root, name), out))
    totals = {"runs": 0, "samples": 0}
    rows_bad = names_bad = 0
    for rel, (writer, ds, rows) in listed.items():
        if rel not in on_disk:
            continue
        n = footer_rows(os.path.join(out, rel))
        if n != rows:
            rows_bad += 1
        if not re.fullmatch(r"part-%s-\d{5}\.parquet" % re.escape(writer),
                            os.path.basename(rel)):
            names_bad += 1
        if ds in totals:
            totals[ds] += n
    print("runs=%d samples=%d dups=%d unlisted=%d missing=%d rows_bad=%d "
          "names_bad=%d" % (totals["runs"], totals["samples"], len(dups),
                            len(on_disk - set(listed)),
                            len(set(listed) - on_disk), rows_bad, names_bad))


if __name__ == "__main__":
    main()
