#!/usr/bin/env python3
"""merge-tables.py - join the Markdown of several coverage runs that split
the grid by trials (tests/sim/coverage.c --trials 3,5,10 and --trials 20):
the first file's text, each table's rows followed by the rows of the table
of the same heading in the other files (except the single-trial table,
which has one row per run: the first file's is kept).  Every grid point
has its own PRNG stream, so the merged tables are what one run of the
whole grid prints.  A line "Bold: ..." of any file is kept from the first.

  merge-tables.py FIRST.md OTHER.md... > MERGED.md

Standard library only (`make coverage` runs it).
"""
import sys


def is_row(line):
    return line.startswith("| ") and not line.startswith("| trials")


def tables(path):
    """heading -> rows of its table (past the two header lines)."""
    out, head = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("### "):
            head = line
            out[head] = []
        elif head and is_row(line):
            out[head].append(line)
    return out


def main():
    extra = [tables(p) for p in sys.argv[2:]]
    lines = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
    head = None
    for i, line in enumerate(lines):
        if line.startswith("### "):
            head = line
        print(line)
        last = i + 1 == len(lines) or not is_row(lines[i + 1])
        if head and is_row(line) and last and "single trial" not in head:
            for t in extra:
                for row in t.get(head, []):
                    print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
