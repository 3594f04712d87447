# t2974: memory of `analyze --by trial` per cell.  It took 3.9 KB of RSS
# a cell (200 k cells: 786 MB): each cell's trial array started at 16
# trials and each run's tool statistics at 16 (most cells of a fine --by
# have one), and a table cell took 40 bytes.  Now the arrays grow from
# 1 and a table cell is 32 bytes: 1.6 KB a cell between 10 k and 40 k
# cells.  Here the peak RSS (getrusage of the child) of 2,000 and 10,000
# cells, per cell of the difference: 4.8 KB before, 2.3 KB then (SQLite's
# cache still grew at these sizes: 8 MiB for a reader).  A reader's cache
# of 2 MiB (it scans once) and the table allocated once for its rows
# brought CSV and JSON to 1.67 KB, text to 2.7 KB (the text renderer
# kept every cell's shown text).  Interned cell strings, tool statistics
# of 16 bytes to size, no file name or outlier verdicts kept for
# nothing, strings repeated down a table column kept once, rows written
# as rendered and text aligned in two passes: 1.3 KB in each format
# (1.18 KB between 10 k and 40 k).  A table cell of 16 bytes, not 32
# (its display text kept by the table, the cell holding its index):
# 0.88 KB here, 1.27 KB before; the bound is 1,000 bytes, in each.
# The child's peak counts the Python that forked it (Linux keeps the
# larger of the image before exec and after): about 10 MB, more than
# pathstat's own at 2,000 cells, so the slope here is a lower bound.
mk() { # ROOT N: N probe runs of 10 samples, 10 paths, N/10 trials each
	"$PY" - "$1" "$2" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    p, t = "P%d" % (i % 10), i // 10 + 1
    d = os.path.join(root, p, "t%d" % t)
    os.makedirs(d)
    with open(os.path.join(d, "probe.csv"), "w") as f:
        f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=10 "
                "interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z\n"
                "seq,unix_ns,connect_ms,result\n")
        for s in range(10):
            f.write("%d,%d,%.4f,ok\n" % (s, 1787878800000000000 + s * 200000000
                    + i, 0.2 + ((i * 7 + s * 13) % 97) / 1000))
    with open(os.path.join(d, "meta.json"), "w") as f:
        f.write('{"path": "%s", "trial": %d}\n' % (p, t))
PY
}
rss() { # DB FORMAT: peak RSS in KB of analyze --by trial over DB
	"$REAL_PY" - "$PS" "$1" "$2" <<'PY'
import os, subprocess, sys
p = subprocess.Popen([sys.argv[1], "analyze", "percentiles", "--db",
                      sys.argv[2], "--metric", "connect_ms", "--by", "trial",
                      "--format", sys.argv[3]], stdout=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
print(ru.ru_maxrss if status == 0 else -1)
PY
}
mk s 2000
mk b 10000
"$PS" ingest -q --db s.db s 2>/dev/null
"$PS" ingest -q --db b.db b 2>/dev/null
ok "[ \"\$(\"$PS\" analyze percentiles --db b.db --metric connect_ms --by trial --format csv | wc -l)\" = 10001 ]" \
    "10,000 cells, one a row"
# Under ASan every allocation carries redzones and a quarantine, and
# make gcov's -O0 build with its counters reads ~1.5 KB a cell: the
# bound is about our allocations, so it holds for the plain build only.
case "$PS" in
*asan*|*gcov*)
	ok true "(RSS per cell not judged under ASan or gcov)"
	;;
*)
	for f in csv json text; do
		a=$(rss s.db $f)
		b=$(rss b.db $f)
		per=$(( (b - a) * 1024 / 8000 ))
		ok "[ $a -gt 0 ] && [ $b -gt 0 ] && [ $per -le 1000 ]" \
		    "--format $f: at most 1,000 bytes of RSS a cell ($per bytes: $a KB for 2,000 cells, $b KB for 10,000)"
	done
	;;
esac

test_done
