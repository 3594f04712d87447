# t1300: an ingest killed with SIGKILL part way leaves a consistent
# database, and running it again gives the same database as one clean run.

"$PY" - <<'PY'
import os, random
random.seed(7)
for p in range(40):
    for t in range(1, 6):
        d = "tree/P%02d/trial%d" % (p, t)
        os.makedirs(d)
        open(d + "/meta.json", "w").write('{"path": "P%02d", "trial": %d}' % (p, t))
        rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2000 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z",
                "seq,unix_ns,connect_ms,result"]
        for i in range(2000):
            ns = 1787878800000000000 + i * 200000000
            if random.random() < 0.01:
                rows.append("%d,%d,,timeout" % (i, ns))
            else:
                rows.append("%d,%d,%.3f,ok" % (i, ns, random.lognormvariate(0, 0.3)))
        open(d + "/probe.csv", "w").write("\n".join(rows) + "\n")
PY
"$PS" ingest --db clean.db tree >/dev/null 2>&1

"$PS" ingest --db killed.db tree >/dev/null 2>&1 &
pid=$!
# let it store some files, then kill it mid-way
i=0
while [ $i -lt 200 ]; do
	n=$(sqlite3 killed.db "SELECT count(*) FROM files" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 20 ] && break
	sleep 0.02
	i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
partial=$(sqlite3 killed.db "SELECT count(*) FROM files" 2>/dev/null)
ok "[ \"\${partial:-0}\" -lt 200 ]" "the kill landed part way (stored $partial of 200 files)"
expect_sql killed.db "PRAGMA integrity_check" ok "the killed database is consistent"
expect_sql killed.db "SELECT count(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM samples s WHERE s.run_id = r.id)" 0 "no run without its samples (one transaction per file)"
run "$PS" ingest --db killed.db tree
expect_code 0 "the second ingest finishes the job"
dump() { sqlite3 "$1" "SELECT path, condition, trial, tool, seq, t_us, value, status FROM sample_view ORDER BY 1,2,3,4,5"; }
dump clean.db > clean.txt
dump killed.db > killed.txt
ok "cmp -s clean.txt killed.txt" "killed + re-run gives the same samples as one clean run"
expect_sql killed.db "SELECT count(*) FROM runs" 200 "200 runs, none doubled"
test_done
