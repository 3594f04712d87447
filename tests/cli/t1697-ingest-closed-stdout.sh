# t1697: `pathstat ingest ... 2>&1 | head -1` died of SIGPIPE between two
# files once head had left (the database stayed consistent, but the
# rest of the tree was not read).  A reader that leaves ends the
# listing, not the ingest: every file is stored and the exit status is
# the ingest's.  The trampoline runs pathstat with stdout and stderr on
# a pipe whose reader is already gone, SIGPIPE at its default, so every
# write fails; --dry-run (its listing on stdout) likewise.

closed() { # CMD...: run with stdout and stderr on a reader-less pipe
	"$REAL_PY" -c '
import os, signal, sys
r, w = os.pipe()
os.close(r)
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.dup2(w, 1)
    os.dup2(w, 2)
    os.execv(sys.argv[1], sys.argv[1:])
os.close(w)
_, st = os.waitpid(pid, 0)
print("signal %d" % os.WTERMSIG(st) if os.WIFSIGNALED(st) else "exit %d" % os.WEXITSTATUS(st))
' "$@"
}
for p in A B C D E F; do
	mkdir -p tree/$p
	echo "{\"path\": \"$p\", \"trial\": 1}" > tree/$p/meta.json
	echo "a note, not a result" > tree/$p/a-notes.txt
	cp "$FIX/pathprobe/all-ok.csv" tree/$p/probe.csv
done
run closed "$PS" ingest --db t.db tree
expect_out_has "exit 0" "ingest with its reader gone: exit 0, not SIGPIPE"
expect_sql t.db "SELECT count(*) FROM runs" 6 "every file is stored"
expect_sql t.db "SELECT count(*) FROM files WHERE status = 'skipped'" 6 "and every note file recorded"
run closed "$PS" ingest --db t.db --dry-run tree
expect_out_has "exit 0" "a dry run with its reader gone: exit 0"
echo garbage > tree/F/probe.csv
run closed "$PS" ingest --db t.db tree
expect_out_has "exit 1" "the exit status is the ingest's (a file now bad: 1)"
test_done
