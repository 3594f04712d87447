#!/usr/bin/env python3
"""gen-doc.py - write docs/schema.md from the schema itself.

Usage: schema/gen-doc.py schema/NNN-*.sql > docs/schema.md

The migrations are run, in order, into an in-memory SQLite database, as
pathstat runs them; every table and view is then listed with its columns
as SQLite reports them (PRAGMA table_xinfo).  The words come from the
SQL files: a "-- ..." comment block just above a CREATE describes the
table or view (the last migration to create it wins), and a "-- ..."
comment on a column's line (continued on "--" lines below it) describes
the column.  tests/cli/t0300 checks that docs/schema.md is what this
script writes, so the two cannot drift apart.
"""
import os
import re
import sqlite3
import struct
import sys

CREATE = re.compile(r"^CREATE\s+(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?"
                    r"(\w+)", re.I)


def read_comments(paths):
    """Descriptions of tables and views, and of table columns, from the
    SQL text: {name: text}, {(table, column): text}."""
    about, cols, checks = {}, {}, {}
    for path in paths:
        lines = open(path, encoding="utf-8").read().split("\n")
        block = []
        table = None
        last_col = None
        for line in lines:
            m = CREATE.match(line)
            if m:
                name = m.group(1)
                if block:
                    about[name] = " ".join(block)
                block = []
                table = name if re.match(r"^CREATE\s+TABLE", line, re.I) \
                    else None
                last_col = None
                continue
            stripped = line.strip()
            if table:
                if stripped.startswith(")"):
                    table = None
                    continue
                cm = re.match(r"^(\w+)\s+[^-]*?(?:--\s*(.*))?$", stripped)
                if stripped.startswith("--") and last_col:
                    cols[(table, last_col)] = (cols.get((table, last_col),
                                                        "") + " " +
                                               stripped[2:].strip()).strip()
                elif cm and not stripped.upper().startswith(
                        ("PRIMARY", "UNIQUE", "CHECK", "FOREIGN")):
                    last_col = cm.group(1)
                    if cm.group(2):
                        cols[(table, last_col)] = cm.group(2).strip()
                    ck = re.search(r"CHECK\s*\((.*)\)", stripped.split("--")[0])
                    if ck:
                        checks[(table, last_col)] = ck.group(1).strip()
                continue
            if stripped.startswith("--"):
                block.append(stripped[2:].strip())
            else:
                block = []
    return about, cols, checks


def cell(text):
    """Text for a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


class SeriesPack:
    """pathstat_series_pack(kind, seq, x), the aggregate pathstat registers
    for migration 009 (common/series.c): the values in seq order as
    little-endian binary64 ('v', NaN for NULL), int64 ('t', INT64_MIN for
    NULL; NULL when all are) or bytes ('s'; NULL when all are 0)."""

    def __init__(self):
        self.kind, self.items = "v", []

    def step(self, kind, seq, x):
        self.kind = kind
        self.items.append((seq, x))

    def finalize(self):
        xs = [x for _, x in sorted(self.items, key=lambda i: i[0])]
        if self.kind == "t":
            if all(x is None for x in xs):
                return None
            return b"".join(struct.pack("<q", -2**63 if x is None else x)
                            for x in xs)
        if self.kind == "s":
            return bytes(xs) if any(xs) else None
        return b"".join(struct.pack("<d", float("nan") if x is None
                                    else float(x) + 0.0) for x in xs)


def main(paths):
    db = sqlite3.connect(":memory:")
    db.create_aggregate("pathstat_series_pack", 3, SeriesPack)
    version = 0
    for path in paths:
        db.executescript(open(path, encoding="utf-8").read())
        version = int(re.match(r"0*(\d+)-", os.path.basename(path)).group(1))
    about, cols, checks = read_comments(paths)
    out = []
    out.append("# The pathstat database\n")
    out.append("Made by `schema/gen-doc.py` from `schema/NNN-*.sql` "
               "(schema version %d, `PRAGMA user_version`): do not edit it; "
               "`make schema-doc` writes it again and `tests/cli/t0300` "
               "checks that it is current.  Times are ISO 8601 UTC "
               "(`2026-08-28T01:05:00Z`) except `runs.started_at` (Unix "
               "seconds); an empty condition is the empty string.\n"
               % version)
    for kind, title in (("table", "Tables"), ("view", "Views")):
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_schema WHERE type = ? AND name NOT "
            "LIKE 'sqlite_%' ORDER BY name", (kind,))]
        out.append("## %s\n" % title)
        out.append(", ".join("[`%s`](#%s)" % (n, n) for n in names) + "\n")
        for name in names:
            out.append("### %s\n" % name)
            if name in about:
                out.append(about[name] + "\n")
            if kind == "table":
                out.append("| column | type | constraints | meaning |")
                out.append("| --- | --- | --- | --- |")
            else:
                out.append("| column | type |")
                out.append("| --- | --- |")
            unique = set()
            fkeys = {}
            if kind == "table":
                for _, iname, uniq, origin, _partial in db.execute(
                        "PRAGMA index_list(%s)" % name).fetchall():
                    icols = [r[2] for r in db.execute(
                        "PRAGMA index_info(%s)" % iname)]
                    if uniq and origin == "u" and len(icols) == 1:
                        unique.add(icols[0])
                for r in db.execute("PRAGMA foreign_key_list(%s)" % name):
                    fkeys[r[3]] = "%s (%s)" % (r[2], r[4])
            info = db.execute("PRAGMA table_xinfo(%s)" % name).fetchall()
            multi_pk = sum(1 for r in info if r[5]) > 1
            for _, col, ctype, notnull, dflt, pk, _hidden in info:
                if kind == "view":
                    out.append("| `%s` | %s |" % (col, ctype or "any"))
                    continue
                cons = []
                if pk:
                    cons.append("key part %d" % pk if multi_pk
                                else "primary key")
                if notnull and not (pk and not multi_pk):
                    cons.append("not null")
                if col in unique:
                    cons.append("unique")
                if dflt is not None:
                    cons.append("default %s" % dflt)
                if col in fkeys:
                    cons.append("references %s" % fkeys[col])
                if (name, col) in checks:
                    cons.append("check %s" % checks[(name, col)])
                out.append("| `%s` | %s | %s | %s |" % (
                    col, ctype or "any", cell(", ".join(cons)),
                    cell(cols.get((name, col), ""))))
            out.append("")
    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
