"""benchtree.py - what the bench's peers (pandas_percentiles.py,
duckdb_raw.py) read the same way from a bench tree: the {cond} grammar
of a file or folder name, the canonical condition text ingest stores,
which input a file is from its first bytes, and how the cells are
written out."""
import json
import os
import sys

SIZE_UNITS = {"k", "m", "g", "b", "kb", "mb", "gb"}


def cond_keys(text):
    """The {cond} grammar of docs/design.md: k=v, ka-on, c16, P4, 1k, tcp."""
    keys = {}
    for tok in text.replace(",", "_").split("_"):
        if not tok:
            continue
        if "=" in tok:
            k, v = tok.split("=", 1)
        elif tok[0] in "cP" and tok[1:].isdigit():
            k, v = tok[0], tok[1:]
        elif tok.lower() in ("tcp", "udp"):
            k, v = "proto", tok.lower()
        elif tok in ("R", "reverse"):
            k, v = "dir", "reverse"
        elif tok == "bidir":
            k, v = "dir", "bidir"
        elif tok.rstrip("kmgbKMGB").isdigit() and \
                tok[len(tok.rstrip("kmgbKMGB")):].lower() in SIZE_UNITS:
            k, v = "size", tok.lower()
            if len(v) > 2 and v.endswith("b") and not v[-2].isdigit():
                v = v[:-1]
        elif "-" in tok[1:]:
            k, v = tok.split("-", 1)
        else:
            raise ValueError("bad condition token %r" % tok)
        keys[k] = v
    return keys


def canon(keys):
    return ",".join("%s=%s" % (k, keys[k]) for k in sorted(keys))


def kind_of(path):
    name = os.path.basename(path)
    if name in ("meta.json", "manifest.json"):
        return None
    with open(path, "rb") as f:
        head = f.read(64)
    if head.startswith(b"SQLite format 3\0"):
        return "oha-sqlite"
    if head.startswith(b"request-start,"):
        return "oha-csv"
    if head.startswith(b"# pathprobe"):
        return "pathprobe"
    if name.endswith(".json") and b'"start"' in head:
        return "iperf3"
    return None     # oha JSON summaries and anything else


def write_json(cells, out=None):
    """The cells as compare.py reads them: a JSON array, one key a line,
    into the file out, or on stdout without one."""
    text = json.dumps(cells, indent=1) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
