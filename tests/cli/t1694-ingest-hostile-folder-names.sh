# t1694: folder names from a synced bucket are printed where a person
# reads them, so an ESC sequence (which recolours or rewrites the
# terminal), U+202E (which turns "exe.jpg" around) or U+0085 (a C1 line
# break) in one is shown escaped (\x1b, \u202E, \u0085), never applied:
# in ingest's messages on stderr and in `pathstat runs` text and md.
# JSON carries them as its own \u escapes and CSV keeps the bytes; both
# read back (Python's json and csv) to the names on disk.

cat > mk.py <<'PY'
import json, os
names = ["e\x1b[31mred", "r\u202egpj.exe", "n\u0085x"]
for i, nm in enumerate(names):
    d = "tree/%s/trial1" % nm
    os.makedirs(d)
    json.dump({"path": "P%d" % i, "trial": 1}, open(d + "/meta.json", "w"))
    with open(d + "/probe.csv", "w") as f:
        f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 "
                "interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z\n")
        f.write("seq,unix_ns,connect_ms,result\n")
        for s in range(3):
            f.write("%d,%d,%.3f,ok\n" % (s, 1787792400000000000 + s * 200000000
                                        + i, 1.0 + s + i))
    # not a result: ingest says so, naming the file by its path
    open(d + "/junk.txt", "w").write("hello\n")
PY
"$PY" mk.py

# raw: does the file hold ESC, U+202E or U+0085 as bytes?
cat > raw.py <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
sys.exit(0 if any(x in b for x in (b"\x1b", "\u202e".encode(), "\u0085".encode())) else 1)
PY

"$PS" ingest --db h.db tree >out 2>err
ok '[ $? = 0 ]' "the tree ingests"
ok '! "$PY" raw.py err' "ingest's messages hold no raw ESC, U+202E or U+0085"
ok 'grep -qF "tree/e\\x1b[31mred/trial1/junk.txt: skipped" err' "ESC is shown as \\x1b in the file's prefix"
ok 'grep -qF "tree/r\\u202Egpj.exe/trial1/junk.txt: skipped" err' "U+202E is shown as \\u202E"
ok 'grep -qF "tree/n\\u0085x/trial1/junk.txt: skipped" err' "U+0085 is shown as \\u0085"

"$PS" runs --db h.db --columns path,file --format text >runs.txt
ok '! "$PY" raw.py runs.txt' "runs (text) holds no raw control"
ok 'grep -qF "tree/r\\u202Egpj.exe/trial1/probe.csv" runs.txt' "runs (text) shows \\u202E"
"$PS" runs --db h.db --files --format md >files.md
ok '! "$PY" raw.py files.md' "runs --files (md) holds no raw control"
ok 'grep -qF "tree/n\\u0085x/trial1/junk.txt" files.md' "runs --files (md) shows \\u0085"

"$PS" runs --db h.db --files --format json >files.json
"$PS" runs --db h.db --files --format csv >files.csv
cat > back.py <<'PY'
import csv, json, os, sys
disk = sorted(os.path.join(r, f) for r, _, fs in os.walk("tree") for f in fs
              if f != "meta.json")
j = sorted(r["file"] for r in json.load(open("files.json", encoding="utf-8")))
c = sorted(r["file"] for r in csv.DictReader(open("files.csv", encoding="utf-8", newline="")))
sys.exit(0 if j == disk and c == disk else 1)
PY
ok '! "$PY" raw.py files.json' "JSON escapes the controls by its own rules"
ok '"$PY" back.py' "JSON and CSV read back to the names on disk"
test_done
