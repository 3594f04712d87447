#!/usr/bin/env python3
"""check-tree.py RUNDIR - check a pathstat-collect run tree against the
meta.json rules pathstat ingest relies on (docs/design.md "Layouts"),
then print one line per run folder:

    <folder> tool=<tool> condition=<cond> trial=<n> exit=<status> files=<a,b>

Rules: every meta.json is one flat JSON object; "path" a string,
"trial" an integer, "condition" a string in the {cond} grammar; every
other value a string without ',', ';' or control characters and without
surrounding blanks.  The session folder's meta.json has "path"; each run
folder has "trial" and "tool".  Exit 1 (with messages) on a violation."""
import json
import os
import re
import sys

TOKEN = re.compile(r"^(?:[^=_,]+=[^=_,]+|c\d+|P\d+|\d+(?:[kmgbKMGB]|kb|mb|gb|KB|MB|GB)"
                   r"|tcp|udp|TCP|UDP|R|reverse|bidir|[^-_,=]+-[^_,=]+)$")
bad = []


def check_meta(path):
    try:
        with open(path) as f:
            m = json.load(f)
    except ValueError as e:
        bad.append("%s: not JSON: %s" % (path, e))
        return {}
    if not isinstance(m, dict):
        bad.append("%s: not an object" % path)
        return {}
    for k, v in m.items():
        if k == "trial":
            if not isinstance(v, int) or isinstance(v, bool):
                bad.append("%s: trial is not an integer" % path)
            continue
        if not isinstance(v, str):
            bad.append("%s: %s is not a string" % (path, k))
            continue
        if re.search(r"[,;\x00-\x1f]", v) or v != v.strip() or not v:
            bad.append("%s: %s=%r is not tag-safe" % (path, k, v))
        if k == "condition":
            for tok in re.split(r"[_,]", v):
                if tok and not TOKEN.match(tok):
                    bad.append("%s: condition token %r" % (path, tok))
    return m


def main():
    root = sys.argv[1]
    top = check_meta(os.path.join(root, "meta.json"))
    if "path" not in top:
        bad.append("session meta.json has no path")
    lines = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        if d == root or "meta.json" not in files:
            continue
        m = check_meta(os.path.join(d, "meta.json"))
        for k in ("trial", "tool"):
            if k not in m:
                bad.append("%s: no %s" % (d, k))
        st = ""
        if "exit_status" in files:
            st = open(os.path.join(d, "exit_status")).read().strip()
        lines.append("%s tool=%s condition=%s trial=%s exit=%s files=%s" % (
            os.path.relpath(d, root), m.get("tool", ""),
            m.get("condition", ""), m.get("trial", ""), st,
            ",".join(sorted(f for f in files if f != "meta.json"))))
    for l in sorted(lines):
        print(l)
    for b in bad:
        print("violation: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
