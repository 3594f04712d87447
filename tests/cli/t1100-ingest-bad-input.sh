# t1100: bad input never stops the rest: empty, truncated JSON at several
# offsets, garbage, wrong kind, huge and negative numbers, a file that
# vanishes after the walk, an unreadable file, a symlink loop, symlinks
# out of the tree, broken meta.json, a file without a path ID.

mkdir -p tree/A tree/bad tree/nokeys
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
echo '{"path": "X", "trial": 1}' > tree/bad/meta.json
cp "$SAMPLES/iperf3/3.12/tcp_P1.json" tree/A/good.json
good_bytes=$(wc -c < tree/A/good.json)
: > tree/bad/empty.json
for off in 20 100 900 2000 3000; do
	head -c $off "$SAMPLES/iperf3/3.12/tcp_P4.json" > tree/bad/cut$off.json
done
head -c 4096 /dev/urandom > tree/bad/garbage.bin
{ printf '{"start": {"connected": ['; head -c 2000 /dev/urandom; } > tree/bad/json_then_garbage.json
cp "$SAMPLES/oha/synthetic-v1.15.0-normal.json" tree/bad/probe.csv   # wrong name, right content
sed 's/"bits_per_second":\t[0-9.e+]*/"bits_per_second":\t1e999/' "$SAMPLES/iperf3/3.12/tcp_P1.json" > tree/bad/huge.json
sed 's/"seconds":\t[0-9.e+]*/"seconds":\t-5/' "$SAMPLES/iperf3/3.12/tcp_R.json" > tree/bad/negative.json
printf '# pathprobe 1 target=h:1 addr=1.2.3.4 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z\nseq,unix_ns,connect_ms,result\n0,1,-3.5,ok\n1,2,1e400,ok\n' > tree/bad/negative_probe.csv
cp "$SAMPLES/iperf3/3.12/tcp_R.json" tree/bad/vanishing.json
cp "$SAMPLES/iperf3/3.12/udp_b0.json" tree/bad/unreadable.json
chmod 000 tree/bad/unreadable.json
ln -s .. tree/bad/loop
ln -s /etc tree/bad/outside
cp "$SAMPLES/iperf3/3.12/tcp_bidir.json" tree/nokeys/bidir.json
mkdir -p tree/brokenmeta && echo '{"path": ' > tree/brokenmeta/meta.json
cp "$SAMPLES/iperf3/3.12/tcp_O1.json" tree/brokenmeta/o1.json

# The vanishing file is removed between the walk and its read.
chmod 777 "$TMP" tree tree/*
AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    $AS test -w "$TMP"; then
	# root reads mode-000 files: drop to nobody so the check is real
	# (when nobody can reach $TMP: a TMPDIR of mode 700 hides it)
	:
else
	AS=""
fi
PATHSTAT_TEST_UNLINK_AFTER_WALK=tree/bad/vanishing.json run $AS "$PS" ingest --db "$TMP/b.db" tree
expect_code 1 "bad input: exit 1"
expect_sql b.db "SELECT count(*) FROM runs r JOIN paths p ON p.id = r.path_id WHERE p.name = 'A'" 1 "the good file is still ingested"
expect_err_has "tree/bad/empty.json: empty file" "empty file rejected with a reason"
for off in 20 100 900; do
	expect_err_has "tree/bad/cut$off.json:" "truncated at $off bytes is named"
done
expect_sql b.db "SELECT count(*) FROM files WHERE relpath LIKE 'tree/bad/cut%' AND status IN ('partial','rejected')" 5 "every truncated file is partial or rejected"
expect_sql b.db "SELECT count(*) FROM files WHERE relpath LIKE 'tree/bad/cut%' AND status = 'ok'" 0 "no truncated file is ok"
expect_err_has "tree/bad/garbage.bin: skipped" "random bytes are skipped as unknown"
expect_err_has "tree/bad/json_then_garbage.json:" "JSON-looking garbage is rejected with its name"
expect_sql b.db "SELECT kind FROM files WHERE relpath = 'tree/bad/probe.csv'" "oha-json" "kind comes from content, not the name"
expect_sql b.db "SELECT status FROM files WHERE relpath = 'tree/bad/huge.json'" "partial" "non-finite throughput makes the run partial"
expect_sql b.db "SELECT status FROM files WHERE relpath = 'tree/bad/negative_probe.csv'" "rejected" "negative and infinite connect times are refused"
expect_err_has "tree/bad/vanishing.json: vanished" "a file gone after the walk is named"
if [ -n "$AS" ]; then
	expect_err_has "unreadable.json: cannot read: Permission denied" "an unreadable file is named with the reason"
fi
expect_err_has "symlink loop" "a symlink loop is reported"
expect_err_has "symlink leads out of the tree" "a symlink out of the tree is not followed"
expect_err_has "tree/nokeys/bidir.json: no path ID" "a file without a path ID is rejected"
expect_err_has "brokenmeta/meta.json: bad meta.json" "a broken meta.json is named"
expect_err_has "tree/brokenmeta/o1.json: a meta.json above it is broken" "files below a broken meta.json say why"

run "$PS" runs --db b.db --files --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert all(x[\"reason\"] for x in r if x[\"status\"] in (\"rejected\",\"partial\",\"skipped\"))'" "every rejected, partial or skipped file has a reason in the DB"

# fix the keys and run again: the rejected file is retried and stored
echo '{"path": "Z", "trial": 1}' > tree/nokeys/meta.json
run "$PS" ingest --db b.db tree/nokeys
expect_code 0 "after the fix the file ingests"
expect_sql b.db "SELECT count(*) FROM runs r JOIN paths p ON p.id = r.path_id WHERE p.name = 'Z'" 2 "bidir file gives two runs once keyed"
test_done
