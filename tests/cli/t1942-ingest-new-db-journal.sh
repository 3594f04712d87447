# t1942: an ingest that creates its database writes each page about
# once.  Through the write-ahead log every page was written twice (to
# the log, then by the checkpoint into the database, which read it back
# first): 2.04 times the database's size on this tree.  A new database
# is written through a rollback journal instead, which keeps only the
# old content of pages that existed before each transaction; it ends in
# WAL mode like any other, with no journal left beside it, and is the
# database the write-ahead log gave.  An existing database keeps the
# log while it is written (another program may be reading it).

command -v strace >/dev/null 2>&1 || skip_all "no strace"
strace -o /dev/null true >/dev/null 2>&1 || skip_all "strace cannot trace here"

"$PY" - <<'PY'
import os, random
random.seed(42)
for p in range(20):
    for t in range(1, 4):
        d = "tree/P%02d/t%d" % (p, t)
        os.makedirs(d)
        open(d + "/meta.json", "w").write('{"path": "P%02d", "trial": %d}'
                                          % (p, t))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3000 "
                    "interval_s=0.2 timeout_s=0.4 "
                    "start=2026-08-28T01:00:00Z\n")
            f.write("seq,unix_ns,connect_ms,result\n")
            for s in range(3000):
                f.write("%d,%d,%.3f,ok\n" % (s, 1787878800000000000 +
                        s * 200000000, random.lognormvariate(0, 0.3)))
PY

# the bytes pwrite(2) wrote to the database and its log or journal,
# over the database's size
ratio() {
	"$PY" - "$1" <<'PY'
import os, re, sys
total = 0
for line in open("trace.txt"):
    m = re.search(r"pwrite64\(.*\) = (\d+)$", line.rstrip())
    if m:
        total += int(m.group(1))
print("%.2f" % (total / os.path.getsize(sys.argv[1])))
PY
}
# traced_ingest DB WHAT: ingest tree into DB under strace, its pwrite(2)s
# in trace.txt (LeakSanitizer cannot run under ptrace, see t1941); one
# check, that it exits 0; $r: the ratio above
traced_ingest() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    run strace -f -e trace=pwrite64 -o trace.txt "$PS" ingest -q \
	    --db "$1" tree
	expect_code 0 "ingest into $2 under strace"
	r=$(ratio "$1")
}

traced_ingest new.db "a new database"
ok "\"\$PY\" -c 'import sys; sys.exit(not float(sys.argv[1]) <= 1.4)' $r" \
    "a new database: bytes written at most 1.4 times its size (wrote $r times)"
expect_sql new.db "PRAGMA journal_mode" wal "it ends in WAL mode"
ok "[ ! -e new.db-journal ] && [ ! -e new.db-wal ]" \
    "no journal or log left beside it"
expect_sql new.db "PRAGMA integrity_check" ok "it is consistent"

# the same files through the log: the same database
"$PS" ingest -q --db old.db tree/P00 >/dev/null 2>&1
traced_ingest old.db "an existing database"
ok "\"\$PY\" -c 'import sys; sys.exit(not float(sys.argv[1]) >= 1.6)' $r" \
    "an existing database is written through the log (wrote $r times)"
dump() {
	sqlite3 "$1" "SELECT r.trial, p.name, s.chunk, s.rows, s.failed,
	    hex(s.value), hex(s.t_us) FROM series s JOIN runs r ON
	    r.id = s.run_id JOIN paths p ON p.id = r.path_id
	    ORDER BY p.name, r.trial, s.metric, s.chunk;
	    SELECT p.name, r.trial, v.rows, v.failures, hex(v.sorted) FROM
	    sample_values v JOIN runs r ON r.id = v.run_id JOIN paths p ON
	    p.id = r.path_id ORDER BY p.name, r.trial, v.metric"
}
dump new.db > new.txt
dump old.db > old.txt
ok "[ -s new.txt ] && cmp -s new.txt old.txt" \
    "both hold the same samples and sorted values"
test_done
