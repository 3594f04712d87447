# t7640: export reads a run's samples in the order the series table
# stores them and decodes the chunks itself.  It asked SQLite for
# "series_rows(...) ORDER BY metric, seq", and SQLite sorted every
# sample of the run (most of export's CPU at 20 M samples); a run past
# the sort's memory (16 MiB, common/db.c) also wrote the sort to a
# temporary file and read it back.  Bytes written are counted by the
# kernel (wchar of /proc/PID/io, which a shell gains from the children
# it waits for): with no sort they are about the files export writes.

[ -r /proc/self/io ] || skip_all "no /proc/PID/io to count bytes written"

cat > mk.py <<'PY'
import os, random
random.seed(7640)
os.makedirs("tree/A", exist_ok=True)
n, t0 = 600000, 1788220800
rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 "
        "timeout_s=2 start=2026-09-01T00:00:00Z" % n,
        "seq,unix_ns,connect_ms,result"]
for i in range(n):
    rows.append("%d,%d,%.3f,%s" % (i, t0 * 10**9 + i * 200000000,
                                   random.lognormvariate(0, 0.3),
                                   "timeout" if i % 1000 == 7 else "ok"))
open("tree/A/probe.csv", "w").write("\n".join(rows) + "\n")
PY
run "$PY" mk.py
expect_code 0 "a probe run of 600,000 samples generated"
run "$PS" ingest -q --db p.db --tag path=A --tag trial=1 tree
expect_code 0 "ingested"

w=$(sh -c '"$1" export -q --db "$2" --out out > /dev/null &&
    sed -n "s/^wchar: //p" /proc/$$/io' sh "$PS" p.db)
files=$(find out -type f -exec cat {} + | wc -c)
ok "[ -n \"$w\" ] && [ \"$files\" -gt 0 ] && [ \"$w\" -le $((files * 2)) ]" \
    "export writes about its files ($w bytes for $files)"
test_done
