#!/usr/bin/env python3
"""table-check.py PATHSTAT REPORT_DIR - cross-check every number of a
report's Markdown tables against the pathstat analyze command behind
the table, as provenance.json records it (its argv, with --format json).

Run it from the folder the report was made in (the argv's --db is
relative to it).  For each table of provenance.json: run its command,
parse tables/NN-*.md (and check index.md holds the same rows), and map
each cell to the JSON:

  - a cell whose text is a string of the JSON (path, stat, day, week,
    instance type, verdict, per-trial values) is a label: it selects
    the JSON rows that hold it (so does a header's leading path, as in
    a calendar's "A p50 (ms)");
  - a numeric cell's first number is the JSON field its header names
    (p50, mean, max_dev_pct, ratio, p_adj ...), the others (an
    interval's bounds) any number of the selected rows; a header
    without a field to name takes any number of the selected rows;
  - numbers are scaled by the header's unit (Gbit/s, Mbit/s, ...) and
    must equal the JSON value rounded to the digits printed.

Columns the report derives (week-over-week change) are counted, not
checked.  Prints one line per table, "checked=N derived=N", and one
line per mismatch; exits 1 on any mismatch or a table it cannot map."""
import json
import os
import re
import subprocess
import sys

UNIT = {"bit/s": 1, "kbit/s": 1e3, "Mbit/s": 1e6, "Gbit/s": 1e9,
        "Tbit/s": 1e12, "ms": 1, "count": 1, "%": 1, "s": 1, "us": 1,
        "µs": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}
# header (unit and path prefix removed, lower case) -> the JSON field
FIELD = [(r"^max dev\. from mean %$", "max_dev_pct"),
         (r"^udp loss %$", "udp_loss_pct"),
         (r"^loss %$", "loss_pct"),
         (r"^slope % of mean$", "slope_pct"),
         (r"^theil.sen slope", "slope"),
         (r"^baseline value$", "baseline_stat"),
         (r"^value$", "value_stat"),
         (r"^difference$", "diff"),
         (r"^ratio", "ratio"),
         (r"^p$", "p"),
         (r"^p \(adjusted\)$", "p_adj"),
         (r"^(p\d+(\.\d+)?|mean|median|min|max|stddev|n|trials|failures|"
          r"timeouts)$", None)]
DERIVED = re.compile(r"week-over-week")
NUM = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def clean(cell):
    """A cell as a reader reads it: no footnotes, no escapes, no marks."""
    cell = re.sub(r"\[\^\d+\]", "", cell)
    cell = cell.replace("\\", "").replace("\u2212", "-")
    return cell.strip()


def parse_md(path):
    with open(path, encoding="utf-8") as f:
        lines = [ln.rstrip("\n") for ln in f if ln.startswith("|")]
    split = [[c.strip() for c in ln.strip("|").split(" | ")] for ln in lines]
    return lines, split[0], split[2:]


def strings(row):
    """Every string of a JSON row, nested ones too."""
    out = []
    for v in row.values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    out.extend(s for s in x.values() if isinstance(s, str))
    return out


def numbers(row):
    out = []
    for v in row.values():
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    out.extend(n for n in x.values()
                               if isinstance(n, (int, float))
                               and not isinstance(n, bool))
    return out


def half_ulp(tok):
    """Half a unit of the last digit printed."""
    m = NUM.fullmatch(tok)
    mant, exp = m.group(1), int(m.group(2)[1:]) if m.group(2) else 0
    dec = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (exp - dec)


def agrees(tok, value, scale):
    """tok is value/scale rounded to its digits; at a tie (0.3015 to 3
    digits) only the side printf rounds the double to."""
    got = float(tok)
    want = value / scale
    hu = half_ulp(tok)
    d = abs(got - want)
    if d < hu * (1 - 1e-6):
        return True
    if d > hu * (1 + 1e-6) + 1e-12 * abs(want):
        return False
    m = NUM.fullmatch(tok)
    if m.group(2) or "." not in m.group(1):
        return True
    dec = len(m.group(1).split(".")[1])
    # value / scale or value * (1 / scale): either double may be the
    # one the report printed
    return got in (float("%.*f" % (dec, want)),
                   float("%.*f" % (dec, value * (1.0 / scale))))


def header_parts(h, labels):
    """(path filter, field, scale) of a column header."""
    h = clean(h)
    scale = 1
    m = re.search(r"\(([^()]*)\)$", h)
    if m and m.group(1) in UNIT:
        scale = UNIT[m.group(1)]
        h = h[:m.start()].strip()
    for unit in ("Gbit/s", "Mbit/s", "kbit/s"):
        if unit in h:
            scale = UNIT[unit]
    filt = None
    first = h.split(" ", 1)
    if len(first) == 2 and first[0] in labels:
        filt, h = first[0], first[1]
    low = h.lower()
    for rx, field in FIELD:
        if re.search(rx, low):
            return filt, field or low, scale
    return filt, None, scale


def spec_section(prov, loc):
    """The spec's section at a provenance spec_location."""
    node = prov["spec"]["document"]
    for name, i in re.findall(r"(\w+)\[(\d+)\]", loc):
        node = node[name][int(i)]
    return node


def caption_unit(lines_path):
    """A pivot's unit: its caption's, "(metric), Gbit/s;"."""
    with open(lines_path, encoding="utf-8") as f:
        m = re.search(r"^_Table \d+: .*?\), ([^;]+);", f.read(), re.M)
    return UNIT.get(m.group(1), 1) if m else 1


def selects(row, cond, keys):
    """Does a pivot column's condition "k=v,..." select the JSON row?  A
    key the command splits by (--by via) and the column leaves out
    selects the runs without it."""
    want = dict(kv.split("=", 1) for kv in cond.split(",") if kv)
    have = dict(kv.split("=", 1) for kv in row["condition"].split(",") if kv)
    for k in keys:
        have[k] = row.get(k) or ""
        want.setdefault(k, "")
    return all(have.get(k, "") == v for k, v in want.items())


def check_pivot(prov, top, t, rows, body, head):
    """A pivot: a row per path, a column per spec column (a condition's
    stat, or the difference of two columns)."""
    sec = spec_section(prov, t["spec_location"])
    argv = t["argv"]
    keys = [argv[i + 1] for i, a in enumerate(argv) if a == "--by"]
    scale = caption_unit(os.path.join(top, t["markdown"]))
    cols = {c["key"]: c for c in sec["columns"]}
    bad, checked = [], 0

    def value(path, key):
        c = cols[key]
        if "delta" in c:
            a, b = (value(path, k) for k in c["delta"])
            return None if a is None or b is None else a - b
        got = [r[sec["stat"]] for r in rows
               if r["path"] == path and selects(r, c["condition"], keys)]
        return got[0] if len(got) == 1 else None

    for cells in body:
        texts = [clean(c) for c in cells]
        for c, x in zip(sec["columns"], texts[1:]):
            want = value(texts[0], c["key"])
            checked += 1
            tok = NUM.match(x)
            if want is None and x == "not measured":
                continue
            if want is None or not tok or not agrees(tok.group(0), want, scale):
                bad.append("%s: row %s, column %r: %r, the JSON's %r" %
                           (t["markdown"], texts[0], c["label"], x, want))
    return bad, checked


def check_table(ps, top, t, index, prov):
    argv = list(t["argv"])
    argv[0] = ps
    i = argv.index("--format")
    argv[i + 1] = "json"
    res = subprocess.run(argv, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        return ["%s: %s exits %d: %s" % (t["markdown"], t["command"],
                                         res.returncode, res.stderr.strip())], 0, 0
    rows = json.loads(res.stdout)
    lines, head, body = parse_md(os.path.join(top, t["markdown"]))
    bad = ["%s: a row index.md lacks: %s" % (t["markdown"], ln)
           for ln in lines if ln not in index]  # index: a set of lines
    if t["shape"].startswith("pivot"):
        more, checked = check_pivot(prov, top, t, rows, body, head)
        return bad + more, checked, 0
    labels, holding = set(), {}  # each string -> the rows holding it
    for i, r in enumerate(rows):
        for x in strings(r):
            labels.add(x)
            holding.setdefault(x, set()).add(i)
    cols = [header_parts(h, labels) for h in head]
    checked = derived = 0
    for cells in body:
        texts = [clean(c) for c in cells]
        keep = set(range(len(rows)))
        for x in texts:
            if x in labels:
                keep &= holding[x]
        sel = [rows[i] for i in sorted(keep)]
        for (filt, field, scale), h, x in zip(cols, head, texts):
            if x in labels or x in ("–", "") or not NUM.search(x):
                continue
            if DERIVED.search(h):
                derived += 1
                continue
            cand = [r for r in sel if filt is None or filt in strings(r)]
            if any(x == s or s.startswith(x + ";")
                   for r in cand for s in strings(r)):
                checked += 1  # text the JSON holds (a verdict, values)
                continue
            checked += 1
            if h == "Outlier trials":  # "1 (p50; why)": outliers (rule)
                m = re.fullmatch(r"(.*?) \((.*)\)", x)
                if not m or not any(r.get("outliers") == m.group(1)
                                    and m.group(2).split("; ", 1)[-1]
                                    in r.get("outlier_rule", "")
                                    for r in cand):
                    bad.append("%s: row %s: outlier trials %r are not the "
                               "JSON's" % (t["markdown"], texts[0], x))
                continue
            if h.startswith("Per-trial values"):  # each trial's, in order
                toks = [m.group(0) for m in NUM.finditer(x)]
                if not any(len(vs) == len(toks) and
                           all(agrees(a, float(b), scale)
                               for a, b in zip(toks, vs))
                           for vs in (r.get("values", "").split(", ")
                                      for r in cand)):
                    bad.append("%s: row %s: per-trial values %r are not "
                               "the JSON's" % (t["markdown"], texts[0], x))
                continue
            if x.startswith("≥ timeout"):  # the stat is past the timeout
                if not field or not any(r.get(field + "_ge_timeout")
                                        for r in cand):
                    bad.append("%s: row %s, column %r: %r but no %s_ge_timeout"
                               % (t["markdown"], texts[0], h, x, field))
                continue
            toks = [m.group(0) for m in NUM.finditer(x)]
            ok = bool(cand)
            keyed = field is not None
            if x.startswith("n/a"):  # no value: the JSON's is null
                ok = ok and any(field in r and r[field] is None
                                for r in cand)
                keyed = False
            for k, tok in enumerate(toks):
                if k == 0 and keyed:
                    # compare's trials: the value's (the baseline's is
                    # the baseline column's)
                    vals = [r.get(f) for r in cand
                            for f in (field, field + "_value")]
                    vals = [v for v in vals if isinstance(v, (int, float))]
                else:
                    vals = [v for r in cand for v in numbers(r)]
                if not any(agrees(tok, v, scale) for v in vals):
                    ok = False
            if not ok:
                bad.append("%s: row %s, column %r: %r matches no %s of %d "
                           "JSON row(s)" % (t["markdown"], texts[0], h, x,
                                            field or "number", len(cand)))
    return bad, checked, derived


def main(ps, top):
    with open(os.path.join(top, "provenance.json"), encoding="utf-8") as f:
        prov = json.load(f)
    with open(os.path.join(top, "index.md"), encoding="utf-8") as f:
        index = set(f.read().replace("../index.md#", "#").splitlines())
    allbad = []
    for t in prov["tables"]:
        bad, checked, derived = check_table(ps, top, t, index, prov)
        print("%s checked=%d derived=%d" % (t["markdown"], checked, derived))
        if checked == 0 and not bad:
            bad = ["%s: no number checked" % t["markdown"]]
        allbad.extend(bad)
    for b in allbad:
        print("MISMATCH " + b)
    return 1 if allbad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
