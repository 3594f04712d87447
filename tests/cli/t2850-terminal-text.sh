# t2850: output for a person is clean text.
# On a terminal (a pty from script(1)), or with --format
# text, analyze, runs, keys and check print aligned columns without
# Markdown escapes (connect_ms, not connect\_ms; p < 0.05, not p \<
# 0.05), with the notes wrapped at word boundaries; piped, the default
# stays Markdown; --format md still escapes.  Every command's --help
# fits 80 columns.

"$PY" "$FIX/units/gen_units.py" tree
"$PS" ingest -q --db t.db tree 2>/dev/null

run "$PS" analyze compare --db t.db --metric throughput_bps --by day --format text
expect_code 0 "compare --format text"
expect_out_has "p < 0.05" "no Markdown escape in the notes (p < 0.05)"
expect_out_lacks '\' "no backslash anywhere"
expect_out_lacks "| --- |" "no Markdown table rule"
expect_out_has "throughput_bps by day" "metric names are not escaped"
printf '%s\n' "$OUT" > text.out
ok "\"\$PY\" -c 'import sys,re; sys.exit(any(len(l.rstrip(\"\\n\")) > 78 and not re.match(\"(Path|----|S |T )\", l) for l in open(\"text.out\", encoding=\"utf-8\")))'" \
    "notes are wrapped at 78 columns (characters)"
# columns align: every row's "P=4,proto=tcp" starts where the header's
# Condition does
ok "printf '%s\n' \"\$OUT\" | awk 'NR == 1 { c = index(\$0, \"Condition\") } NR > 2 && /proto=tcp/ && index(\$0, \"P=4\") != c { bad = 1 } END { exit bad }'" \
    "columns are aligned under their headers"
ok "printf '%s\n' \"\$OUT\" | sed -n 2p | grep -q '^----  ---------'" "a rule of dashes under the headers"

run "$PS" analyze compare --db t.db --metric throughput_bps --by day
expect_out_has "| Path |" "piped, the default is Markdown"
expect_out_has 'p \< 0.05' "Markdown keeps its escapes"
run "$PS" analyze compare --db t.db --metric throughput_bps --by day --format md
expect_out_has 'throughput\_bps by day' "--format md escapes"

if command -v script >/dev/null 2>&1; then
	script -qc "\"$PS\" analyze percentiles --db t.db --metric throughput_bps" /dev/null > tty.out 2>&1
	OUT=$(tr -d '\r' < tty.out)
	expect_out_has "Path  Condition" "on a terminal the default is text"
	expect_out_has "throughput_bps in Mbit/s" "on a terminal, no Markdown escapes"
	expect_out_lacks "| Path |" "on a terminal, no Markdown table"
	script -qc "\"$PS\" runs --db t.db" /dev/null > tty.out 2>&1
	OUT=$(tr -d '\r' < tty.out)
	expect_out_lacks "| path |" "runs on a terminal: text"
	expect_out_lacks 'throughput\_bps' "runs on a terminal: no escapes"
else
	echo "# SKIP terminal default: script(1) is not installed"
fi

run "$PS" runs --db t.db --format text
expect_code 0 "runs --format text"
expect_out_has "throughput_bps" "runs text: metric unescaped"
run "$PS" keys --db t.db --format text
expect_code 0 "keys --format text"
expect_out_lacks '\' "keys text: no escapes"
run "$PS" check --db t.db --format text
expect_out_lacks '**' "check text: no Markdown emphasis"
expect_out_lacks '\_' "check text: no escapes"
run "$PS" analyze percentiles --db t.db --metric throughput_bps --format xml
expect_code 2 "an unknown format is a usage error"
expect_err_has "want text, md, csv or json" "it names the formats"

# an empty table says so
run "$PS" analyze percentiles --db t.db --metric connect_ms --format text
expect_out_has "(no rows)" "an empty text table says (no rows)"

# every --help within 80 columns
for c in "" analyze check export ingest keys report runs; do
	"$PS" $c --help > help.txt 2>&1
	ok "awk 'length(\$0) > 80 { bad = 1 } END { exit bad }' help.txt" \
	    "pathstat $c --help fits 80 columns"
done
"$PROBE" --help > help.txt 2>&1
ok "awk 'length(\$0) > 80 { bad = 1 } END { exit bad }' help.txt" "pathprobe --help fits 80 columns"
# the sentences that broke mid-line before
"$PS" runs --help > help.txt 2>&1
ok "grep -q 'source file).  Runs that claim the same path' help.txt" "runs --help: no mid-sentence break"
"$PS" report --help > help.txt 2>&1
ok "grep -q 'Without gnuplot the command still succeeds' help.txt" "report --help: no mid-sentence break"

test_done
