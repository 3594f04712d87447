# t3600: one grammar for path IDs everywhere, and every command a
# bundle's provenance.json records runs as written (IDs with ';'
# were accepted by ingest but refused by --paths, so 7 of the 8
# reproduction commands of such a bundle exited 2).  IDs with ';', '=',
# quotes, '$(...)', '|', inner blanks and CJK go through ingest, analyze
# --paths, delta pairs and report; then each command of provenance.json
# (commands, tables, charts) runs with sh and exits 0, running nothing
# it should not.  An ID that breaks the grammar is refused the same way
# by ingest and by --paths.

cat > mk.py <<'PY'
import json, os
ids = ["A;B", "it's", "x y", "a=b", "G-G'", "$(touch pwned-id)", "p|q", "東京"]
for i, pid in enumerate(ids):
    for trial in (1, 2):
        d = "tree/p%d/t%d" % (i, trial)
        os.makedirs(d)
        json.dump({"path": pid, "trial": trial}, open(d + "/meta.json", "w"),
                  ensure_ascii=False)
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h%d:%d addr=10.0.0.2 count=20 "
                    "interval_s=0.2 timeout_s=0.4 start=2026-08-2%dT01:00:00Z\n"
                    % (i, trial, 7 + trial))
            f.write("seq,unix_ns,connect_ms,result\n")
            base = 1787792400000000000 + (trial - 1) * 86400 * 10**9
            for s in range(20):
                f.write("%d,%d,%.3f,ok\n" % (s, base + s * 200000000,
                        (i + 1) * (1 + 0.01 * ((s * 7) % 11))))
spec = {
    "title": "IDs",
    "paths": ids,
    "metric": "connect_ms",
    "sections": [
        {"type": "percentiles", "id": "p", "stats": "p50,p99", "chart": "bars"},
        {"type": "delta", "id": "d", "pairs": ["A;B-it's", "G-G'-x y"], "stats": "p50"},
        {"type": "relative", "id": "r", "stats": "p50,p90"},
        {"type": "trials", "id": "t", "chart": {"kind": "box", "stat": "p50"}},
        {"type": "chart", "id": "e", "chart": {"kind": "ecdf"}},
    ],
}
json.dump(spec, open("spec.json", "w"), ensure_ascii=False, indent=1)
PY
"$PY" mk.py
run "$PS" ingest -q --db t.db tree
expect_code 0 "IDs with ; = quotes \$() | blanks and CJK are ingested"
expect_sql t.db "SELECT count(*) FROM paths" 8 "all eight"
run "$PS" analyze percentiles --db t.db --metric connect_ms --paths "A;B,it's,x y,a=b,G-G',\$(touch pwned-id),p|q,東京" --format csv
expect_code 0 "--paths takes every ID ingest took"
ok "[ \"\$(printf '%s\n' \"\$OUT\" | wc -l)\" = 9 ]" "one row per path"
run "$PS" report --db t.db --spec spec.json --out b --no-checks --no-render
expect_code 0 "the report is made"

# every recorded command, through sh, with 'pathstat' on PATH
mkdir bin
ln -s "$PS" bin/pathstat
cat > cmds.py <<'PY'
import json
p = json.load(open("b/provenance.json"))
cmds = list(p["commands"])
cmds += [t["command"] for t in p["tables"]]
cmds += [c["command"] for c in p["charts"] if "command" in c]
for c in cmds:
    print(c.replace("\n", " "))
PY
"$PY" cmds.py > cmds.txt
ok "[ \"\$(wc -l < cmds.txt)\" -ge 8 ]" "provenance.json lists the commands ($(wc -l < cmds.txt))"
n=0
while IFS= read -r c; do
	n=$((n + 1))
	case "$c" in
	*gnuplot*) have_prereq GNUPLOT || continue ;;
	esac
	PATH="$TMP/bin:$PATH" run sh -c "$c"
	expect_code 0 "command $n runs as recorded: $c"
done < cmds.txt
ok "[ -z \"\$(find . -name 'pwned*')\" ]" "no ID ran a command"

# outside the grammar: the same refusal from ingest and from --paths
mkdir -p bad/A
echo '{"path": "x,y", "trial": 1}' > bad/A/meta.json
cp tree/p0/t1/probe.csv bad/A/probe.csv
run "$PS" ingest -q --db bad.db bad
expect_code 1 "ingest refuses an ID with ','"
expect_err_has "path ID 'x,y' is not 1 to 256 bytes of UTF-8 text with no ','" "naming the rule"
run "$PS" analyze percentiles --db t.db --metric connect_ms --paths " lead"
expect_code 2 "--paths refuses an ID with a leading blank"
expect_err_has "bad path ID ' lead': want 1 to 256 bytes of UTF-8 text with no ','" "naming the same rule"
long=$(printf 'x%.0s' $(seq 257))
run "$PS" analyze percentiles --db t.db --metric connect_ms --paths "$long"
expect_code 2 "--paths refuses a 257-byte ID"
run "$PS" ingest -q --db bad.db --tag "path=$long" tree/p0
expect_code 2 "and so does ingest"
test_done
