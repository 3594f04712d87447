# t3400: report writes and removes only inside --out, and only what a
# bundle provably wrote.  A symlinked charts/ used to let a
# forged provenance.json delete a file outside and fill the folder it
# pointed to; a FIFO named provenance.json or index.md blocked report.
# Now: a symlinked folder is refused (even with --force); a file is
# replaced or removed only when its bytes are what the previous bundle
# recorded (file_hashes), else --force is needed to replace it and it is
# never removed; planted links, FIFOs and hard links are replaced, never
# written through; nothing is left of the private folder.  FIFO cases
# run under timeout(1).

T="timeout 60"
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
		echo "2,1787878800400000000,$2,ok"
	} > "$1"
}
mkdir -p tree/A tree/B
probe tree/A/probe.csv 0.21
probe tree/B/probe.csv 1.65
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
echo '{"path": "B", "trial": 1}' > tree/B/meta.json
run "$PS" ingest -q --db t.db tree
cat > one.json <<'EOF'
{ "title": "One", "sections": [
  { "type": "percentiles", "id": "connect", "metric": "connect_ms", "chart": "bars" } ] }
EOF
cat > two.json <<'EOF'
{ "title": "Two", "sections": [
  { "type": "percentiles", "id": "connect", "metric": "connect_ms", "chart": "bars" },
  { "type": "percentiles", "id": "again", "metric": "connect_ms", "stats": "p50" } ] }
EOF
R="$PS report --db t.db --no-checks --no-render"
leftover() { find . -name '.pathstat-report-*' | head -1; }

# ---- the reported reproduction: symlinked charts/ and a forged list
mkdir out1 victim
echo precious > victim/keep.txt
ln -s ../victim out1/charts
echo '{"generator":"pathstat report","files":["charts/keep.txt","index.md"]}' > out1/provenance.json
run $R --spec one.json --out out1
expect_code 1 "a symlinked charts/ is refused"
expect_err_has "refusing to write into 'out1/charts': it is a symbolic link" "and named"
ok "[ \"\$(cat victim/keep.txt)\" = precious ]" "the file outside is not deleted"
ok "[ \"\$(ls victim)\" = keep.txt ]" "nothing is written outside"
run $R --spec one.json --out out1 --force
expect_code 1 "--force does not lift it"
ok "[ \"\$(ls victim)\" = keep.txt ] && [ ! -e out1/index.md ]" "still nothing written"

# ---- a forged list names a file in the bundle that the bundle did not write
rm out1/charts
mkdir out1/charts
echo mine > out1/charts/keep.txt
run $R --spec one.json --out out1
expect_code 0 "a forged provenance.json lets report write its own files"
ok "[ \"\$(cat out1/charts/keep.txt)\" = mine ]" "but removes no file it cannot prove it wrote"
expect_err_has "left 'out1/charts/keep.txt' in place: the previous bundle recorded no content hashes" "and says so"
ok "[ -z \"\$(leftover)\" ]" "no private folder is left"

# ---- a forged list does not stand in for --force: a user's index.md
mkdir out2
echo "my notes" > out2/index.md
echo '{"generator":"pathstat report","files":["index.md"],"file_hashes":{"index.md":"xxh3-128:00000000000000000000000000000000"}}' > out2/provenance.json
run $R --spec one.json --out out2
expect_code 1 "a file whose bytes are not the recorded ones is not replaced"
expect_err_has "refusing to replace 'out2/index.md': it changed since the previous bundle wrote it; use --force" "it is named"
ok "[ \"\$(cat out2/index.md)\" = 'my notes' ] && [ ! -e out2/tables ]" "and nothing at all is written"
ok "[ -z \"\$(leftover)\" ]" "no private folder is left after a refusal"
run $R --spec one.json --out out2 --force
expect_code 0 "--force replaces it"

# ---- a genuine bundle: re-runs, edits, stale files
run $R --spec two.json --out b
expect_code 0 "a bundle"
ok "grep -q '\"file_hashes\"' b/provenance.json" "provenance.json records each file's hash"
run $R --spec two.json --out b
expect_code 0 "it is rewritten in place"
echo "edited" >> b/tables/02-again.md
run $R --spec one.json --out b
expect_code 0 "back to one table"
ok "[ ! -e b/tables/02-again.csv ]" "the stale file it wrote is removed"
ok "grep -q edited b/tables/02-again.md" "the stale file edited since is kept"
expect_err_has "left 'b/tables/02-again.md' in place: it changed since the previous bundle wrote it" "and named"
echo "# my tweak" >> b/charts/01-connect.gp
run $R --spec one.json --out b
expect_code 1 "an edited chart script is not overwritten"
ok "grep -q 'my tweak' b/charts/01-connect.gp" "the edit survives"
run $R --spec one.json --out b --force
expect_code 0 "--force overwrites it"
ok "! grep -q 'my tweak' b/charts/01-connect.gp" "with the bundle's own"

# the kept file is no bundle's now: a bundle that writes it again asks
run $R --spec two.json --out b
expect_code 1 "a kept file blocks a bundle that would replace it"
expect_err_has "refusing to replace 'b/tables/02-again.md': the previous bundle did not write it" "it is named"
rm b/tables/02-again.md

# ---- planted links and hard links are replaced, never written through
echo outside > victim/target.txt
rm b/tables/01-connect.csv
ln -s "$TMP/victim/target.txt" b/tables/01-connect.csv
run $R --spec one.json --out b
expect_code 1 "a planted symlink is not a bundle file: refused"
run $R --spec one.json --out b --force
expect_code 0 "--force replaces the link"
ok "[ \"\$(cat victim/target.txt)\" = outside ] && [ ! -L b/tables/01-connect.csv ]" "the link's target is untouched"
cp b/index.md victim/hard.md
rm b/index.md
ln victim/hard.md b/index.md
cp victim/hard.md hard.before
run $R --spec two.json --out b
expect_code 0 "a hard link with the recorded bytes counts as the bundle's"
ok "cmp -s victim/hard.md hard.before" "but its other name outside is not written through"
ok "grep -q '^# Two' b/index.md" "the bundle's index.md is the new one"

# ---- a bundle of an older pathstat (no file_hashes) is rewritten with --force
run $R --spec one.json --out old
"$PY" -c 'import json; p = json.load(open("old/provenance.json")); del p["file_hashes"]; json.dump(p, open("old/provenance.json", "w"))'
run $R --spec one.json --out old
expect_code 1 "a bundle without file hashes is not replaced"
expect_err_has "the previous bundle recorded no content hashes (an older pathstat made it); use --force" "the message says why"
run $R --spec one.json --out old --force
expect_code 0 "--force rewrites it once"
run $R --spec one.json --out old
expect_code 0 "and then it is a bundle like any"

# ---- FIFOs never block
mkdir out3
mkfifo out3/provenance.json
run $T $R --spec one.json --out out3
ok "[ $RC != 124 ]" "a FIFO named provenance.json does not block"
expect_code 1 "and is no previous bundle"
expect_err_has "its provenance.json is no previous bundle's (it is a FIFO)" "it says why"
run $T $R --spec one.json --out b
expect_code 0 "a bundle to plant a FIFO in"
rm b/index.md && mkfifo b/index.md
run $T $R --spec one.json --out b
ok "[ $RC != 124 ]" "a FIFO named index.md does not block"
expect_code 1 "and is not replaced without --force"
run $T $R --spec one.json --out b --force
ok "[ $RC = 0 ] && [ -f b/index.md ] && [ ! -p b/index.md ]" "--force replaces the FIFO with the file"

# ---- gnuplot writes its images in the private folder only
if have_prereq GNUPLOT; then
	run $T "$PS" report --db t.db --no-checks --spec one.json --out g
	expect_code 0 "a rendered bundle"
	rm g/charts/01-connect.png
	ln -s "$TMP/victim/png" g/charts/01-connect.png
	run $T "$PS" report --db t.db --no-checks --spec one.json --out g --force
	expect_code 0 "rendered again over a planted link"
	ok "[ ! -e victim/png ] && [ -f g/charts/01-connect.png ] && [ ! -L g/charts/01-connect.png ]" "gnuplot did not write through the link"
fi
ok "[ -z \"\$(leftover)\" ]" "no private folder is left behind"
test_done
