# t1950: an ingest that creates its database syncs it once, at the end,
# not at every batch's commit: with synchronous = FULL each commit
# waited for three or four syncs (the journal, its folder, the journal
# again, the database), which on a busy disk took longer than the
# batch's parsing and storing.  The syncs counted with strace are as
# many for 600 files (three batches) as for 20 (one); the database is
# whole, ends in WAL mode, and a second ingest finds every file
# unchanged.

command -v strace >/dev/null 2>&1 || skip_all "no strace"
strace -o /dev/null true >/dev/null 2>&1 || skip_all "strace cannot trace here"

"$PY" - <<'PY'
import json, os
def tree(name, n):
    for i in range(n):
        d = "%s/P%d/t%d" % (name, i % 6, i // 6 + 1)
        os.makedirs(d)
        json.dump({"path": "P%d" % (i % 6), "trial": i // 6 + 1},
                  open(d + "/meta.json", "w"))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=5 "
                    "interval_s=0.2 timeout_s=0.4 "
                    "start=2026-08-28T01:00:00Z\n")
            f.write("seq,unix_ns,connect_ms,result\n")
            for s in range(5):
                f.write("%d,%d,%.3f,ok\n" % (s, 1787878800000000000 +
                        s * 200000000, 1 + (s * 7 + i) % 13 / 10))
tree("small", 20)
tree("big", 600)
PY

# ingest_traced DB TREE: ingest TREE into DB under strace, its fsync(2)
# and fdatasync(2) calls in trace.txt
ingest_traced() {
	# LeakSanitizer cannot run under ptrace (see t1941)
	asan_was=${ASAN_OPTIONS-}
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
	run strace -f -e trace=fsync,fdatasync -o trace.txt \
	    "$PS" ingest -q --db "$1" "$2"
	ASAN_OPTIONS=$asan_was
}

ingest_traced small.db small
expect_code 0 "a new database of 20 files"
n_small=$(grep -c 'sync(' trace.txt)
ingest_traced big.db big
expect_code 0 "a new database of 600 files"
n_big=$(grep -c 'sync(' trace.txt)
ok "[ \"$n_big\" -eq \"$n_small\" ]" \
    "as many syncs for 600 files as for 20 ($n_big, $n_small)"
expect_sql big.db "SELECT count(*) FROM files WHERE status = 'ok'" 600 \
    "every file stored"
expect_sql big.db "PRAGMA integrity_check" ok "it is consistent"
expect_sql big.db "PRAGMA journal_mode" wal "it ends in WAL mode"
ok "[ ! -e big.db-journal ]" "no journal left beside it"
run "$PS" ingest --db big.db big
expect_code 0 "a second ingest"
expect_err_has "600 unchanged" "it finds every file unchanged"

test_done
