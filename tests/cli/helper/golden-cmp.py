#!/usr/bin/env python3
"""golden-cmp.py - run the analyze invocations of a golden file and compare.

  golden-cmp.py GOLDEN.json PATHSTAT DB

GOLDEN.json: {"queries": [{"args": [...], "key": [cols], "rows": [...]}]}
as the fixture generators write them (numpy computed, no pathstat code).
Each query runs as `PATHSTAT args[0] args[1] --db DB --format json
args[2:]`; every golden row must be there (matched on its key columns)
with each number within 1e-9 relative and every other value equal.
Prints "ok - ..." or "not ok - ..." per query; exits 1 if any failed.
"""
import json
import subprocess
import sys


def main():
    golden = json.load(open(sys.argv[1]))
    ps, db = sys.argv[2], sys.argv[3]
    fails = 0
    for q in golden["queries"]:
        args = [ps] + q["args"][:2] + ["--db", db, "--format", "json"] + \
            q["args"][2:]
        p = subprocess.run(args, capture_output=True, text=True)
        name = " ".join(q["args"])
        if p.returncode != 0:
            print("not ok - %s: exit %d %s" % (name, p.returncode,
                                               p.stderr[-300:]))
            fails += 1
            continue
        got = json.loads(p.stdout)
        index = {tuple(str(r.get(k)) for k in q["key"]): r for r in got}
        bad = []
        for want in q["rows"]:
            k = tuple(str(want[x]) for x in q["key"])
            r = index.get(k)
            if r is None:
                bad.append("missing row %s" % (k,))
                continue
            for f, v in want.items():
                if f in q["key"]:
                    continue
                g = r.get(f)
                if isinstance(v, float):
                    if g is None or abs(g - v) > 1e-9 * max(1.0, abs(v)):
                        bad.append("%s %s: got %r want %r" % (k, f, g, v))
                elif g != v:
                    bad.append("%s %s: got %r want %r" % (k, f, g, v))
        if len(got) != len(q["rows"]):
            bad.append("%d rows, want %d" % (len(got), len(q["rows"])))
        if bad:
            fails += 1
            print("not ok - %s" % name)
            for b in bad[:8]:
                print("#   " + b)
        else:
            print("ok - %s (%d rows)" % (name, len(q["rows"])))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
