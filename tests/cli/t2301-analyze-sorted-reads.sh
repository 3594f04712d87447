# t2301: analyze's warm path reads a run's sorted copy (sample_values)
# and little else: checking that the copy still matches the run's series
# must not read the series themselves.  It summed every series row's
# rows, which read all the run's series pages (values and times, twice
# the copy's bytes) for each metric analyzed; now the check uses the
# series index and the last chunk.  Bytes read are counted by the
# kernel (rchar of /proc/PID/io, which a shell gains from the children
# it waits for), so the check does not depend on the machine's load.
# A series chunk inserted by hand (no trigger drops the copy then) is
# still noticed, appended or past a gap, and analyze reads the series.

[ -r /proc/self/io ] || skip_all "no /proc/PID/io to count bytes read"

cat > mk.py <<'PY'
import json, os, random
random.seed(2301)
os.makedirs("tree/A", exist_ok=True)
json.dump({"path": "A", "trial": 1}, open("tree/A/meta.json", "w"))
n, t0 = 100000, 1788220800
rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 "
        "timeout_s=2 start=2026-09-01T00:00:00Z" % n,
        "seq,unix_ns,connect_ms,result"]
for i in range(n):
    rows.append("%d,%d,%.3f,ok" % (i, t0 * 10**9 + i * 200000000,
                                   random.lognormvariate(0, 0.3)))
open("tree/A/probe.csv", "w").write("\n".join(rows) + "\n")
PY
run "$PY" mk.py
expect_code 0 "a probe run of 100,000 samples generated"
run "$PS" ingest -q --db p.db tree
expect_code 0 "ingested"
copy=$(sql p.db "SELECT sum(length(sorted)) FROM sample_values")
series=$(sql p.db "SELECT sum(length(value) + coalesce(length(t_us), 0))
    FROM series")
ok "[ \"$copy\" = 800000 ] && [ \"$series\" -ge 1600000 ]" \
    "the copy is 800,000 bytes, the series twice that"

# rchar DB METRIC: bytes analyze percentiles read (read(2), pread(2))
rchar() {
	sh -c '"$1" analyze percentiles --db "$2" --metric "$3" --format json \
	    > /dev/null && sed -n "s/^rchar: //p" /proc/$$/io' sh "$PS" "$1" "$2"
}
r=$(rchar p.db connect_ms)
ok "[ -n \"$r\" ] && [ \"$r\" -le $((copy * 3 / 2)) ]" \
    "analyze reads at most 1.5 times the sorted copy ($r bytes of $copy)"

run_id=$(sql p.db "SELECT run_id FROM sample_values")
last=$(sql p.db "SELECT max(chunk) FROM series WHERE run_id = $run_id")
cp p.db gap.db
# add DB CHUNK: one sample of 1e6 ms (binary64 little-endian) as chunk
# CHUNK of the run
add() {
	sql "$1" "INSERT INTO series (run_id, metric, chunk, rows, failed, value)
	    SELECT run_id, metric, $2, 1, 0, X'0000000080842E41' FROM series
	    WHERE run_id = $run_id AND chunk = 0"
}
add p.db $((last + 1))
add gap.db $((last + 5))
for db in p.db gap.db; do
	expect_sql $db "SELECT count(*) FROM sample_values" "1" \
	    "$db: an inserted chunk leaves the copy in place"
	run "$PS" analyze percentiles --db $db --metric connect_ms \
	    --stats n,max --format csv
	expect_out_has "100001" "$db: analyze counts the inserted sample"
	expect_out_has "1000000" "$db: and sees its value"
done
test_done
