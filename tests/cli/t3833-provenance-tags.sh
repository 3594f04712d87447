# t3833: the tags that say how a run was made (pathstat-collect's
# command lines, session, kernel, host, tool versions) do not flood the
# views that tell runs apart.  A two-day tree whose every run
# has its own session and collector_command: `keys` counts those
# values in text and Markdown (CSV and JSON list them); `runs`' compact Markdown leaves them
# out and says so (--columns all shows them); the pooling caption of a
# table over both days names day, the key that matters, with its values,
# and the provenance keys only by name, last, no command line in it.

cat > mk.py <<'PY'
import json, os
json.dump({"study": "s1", "region": "r1"}, open("meta.json", "w"))
for day_i, day in enumerate(("2026-08-28", "2026-08-29")):
    for path in ("A", "B"):
        for trial in (1, 2):
            t = trial + 2 * day_i
            d = "tree/%s/%s/trial%d" % (day, path, t)
            os.makedirs(d)
            json.dump({"path": path, "trial": t, "day": day,
                       "session": "sess-%s-%s-%d" % (day, path, t),
                       "kernel": "Linux 6.1.0-%d" % day_i,
                       "collector_command": "pathstat-collect --path %s --target 10.0.0.%d --count 30 --tag run=%d" % (path, t, t)},
                      open(d + "/meta.json", "w"))
            with open(d + "/probe.csv", "w") as f:
                f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=30 "
                        "interval_s=0.2 timeout_s=0.4 start=%sT01:00:00Z\n" % day)
                f.write("seq,unix_ns,connect_ms,result\n")
                for s in range(30):
                    v = (1.0 + (path == "B")) * (1 + 0.01 * ((s * 7 + t) % 13))
                    f.write("%d,%d,%.3f,ok\n" % (s, 1787878800000000000 + day_i * 86400 * 10**9 + s * 200000000, v))
PY
"$REAL_PY" mk.py
run "$PS" ingest --quiet --db s.db tree
expect_code 0 "a two-day tree with collector provenance ingested ($ERR)"

run "$PS" keys --db s.db --format md
expect_code 0 "keys exits 0"
expect_out_has "| collector\\_command | provenance tag | 8 values | 8 |" "keys counts the 8 command lines of collector_command"
expect_out_lacks "pathstat-collect --path" "no command line is listed as a value"
expect_out_has "| session | provenance tag | 8 values | 8 |" "sessions are counted too"
expect_out_has "| day | " "day is listed with its values"
expect_out_has "--format csv or json lists each value" "the note says how to list them"
run "$PS" keys --db s.db --format csv
expect_out_has "pathstat-collect --path A --target 10.0.0.1" "keys --format csv lists each command line"

run "$PS" runs --db s.db --format md
expect_code 0 "runs exits 0"
expect_out_lacks "pathstat-collect --path" "runs' compact view shows no command line"
expect_out_lacks "sess-2026" "nor sessions"
expect_out_has "Not shown: how the runs were made (" "it names what it leaves out"
width=$(printf '%s\n' "$OUT" | grep '^| ' | awk '{ if (length($0) > m) m = length($0) } END { print m }')
ok '[ "${width:-999}" -lt 160 ]' "a runs row is under 160 characters ($width)"
run "$PS" runs --db s.db --format md --columns all
expect_out_has "pathstat-collect --path A" "--columns all shows the command lines"

run "$PS" analyze percentiles --db s.db --metric connect_ms --format md
expect_code 0 "percentiles over both days exits 0 ($ERR)"
cap=$(printf '%s\n' "$OUT" | grep '^_Pooled:')
ok '[ -n "$cap" ]' "the table has a pooling caption"
case "$cap" in *"differ in day (2026-08-28, 2026-08-29)"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "the caption names day first, with its values: $(printf '%s' "$cap" | cut -c1-120)"
case "$cap" in *"pathstat-collect"*|*"sess-"*|*"Linux 6"*) r=1 ;; *) r=0 ;; esac
ok '[ $r = 0 ]' "no provenance value in the caption"
case "$cap" in *"--by day splits"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "--by names day only"
case "$cap" in *"how they were made (collector"*"_command, kernel, session)._") r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "the provenance keys are named last, by name only"
ok '[ "${#cap}" -lt 600 ]' "the caption is ${#cap} characters"
test_done
