# t1620: a file's identity (its stored name) does not depend on how the
# tree's path was typed or where ingest ran: relative, absolute, ./x/,
# x/../x, x//, "." inside the tree, a symlink to it, from another working
# folder: the same names, no new run, no "same content" notes.  The tree
# root's own name stays in the stored name, so two trees with the same
# inner layout (day1/, day2/) keep their runs apart.

mkdir -p w/x/A/trial1 w/x/A/trial2 w/x/B/trial1 elsewhere
echo '{"instance_type": "c6i.large"}' > w/x/meta.json
for p in A B; do echo "{\"path\": \"$p\"}" > w/x/$p/meta.json; done
probe() { # FILE VALUE: a 3-probe pathprobe CSV, one timeout
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,0.21,ok"
		echo "1,1787878800200000000,$2,ok"
		echo "2,1787878800400000000,,timeout"
	} > "$1"
}
v=1
for t in A/trial1 A/trial2 B/trial1; do
	echo "{\"trial\": ${t#*trial}}" > w/x/$t/meta.json
	probe w/x/$t/probe.csv 0.2$v
	v=$((v + 1))
done
cp "$SAMPLES/iperf3/3.12/tcp_P1.json" w/x/B/trial1/iperf3.json
ln -s x w/link
DB="$TMP/t.db"
want="x/A/trial1/probe.csv
x/A/trial2/probe.csv
x/B/trial1/iperf3.json
x/B/trial1/probe.csv"

run sh -c 'cd w && "$1" ingest --db "$2" x' sh "$PS" "$DB"
expect_code 0 "first ingest: exit 0"
expect_err_has "4 stored" "first ingest: four files stored"
expect_sql "$DB" "SELECT count(*) FROM runs" 4 "four runs (3 probe, 1 iperf3)"
expect_sql "$DB" "SELECT group_concat(relpath, char(10)) FROM (SELECT relpath FROM files ORDER BY relpath)" "$want" \
    "stored names: the root's name and the path below it"

# again(DESC, DIR, ARG): ingest ARG from DIR; nothing may change
again() {
	run sh -c 'cd "$1" && "$2" ingest --db "$3" "$4"' sh "$2" "$PS" "$DB" "$3"
	expect_code 0 "$1: exit 0"
	expect_err_has "4 unchanged" "$1: every file unchanged"
	expect_err_lacks "same content" "$1: no file seen as a copy of another"
	expect_sql "$DB" "SELECT count(*) FROM runs" 4 "$1: no new run"
	expect_sql "$DB" "SELECT group_concat(relpath, char(10)) FROM (SELECT relpath FROM files ORDER BY relpath)" "$want" \
	    "$1: the same stored names"
}
again "relative" w x
again "absolute" w "$TMP/w/x"
again "./x/" w ./x/
again "x/../x" w x/../x
again "x//" w x//
again "'.' inside the tree" w/x .
again "from a sub-folder, ../" w/x/A ..
again "from another folder" elsewhere ../w/x
again "absolute from /" / "$TMP/w/x"
again "through a symlink" w link

# a file named directly: its folder's name and its own, from anywhere
# (its keys come from its own meta.json here: no meta.json above it)
mkdir -p solo/trial1
echo '{"path": "S", "trial": 1}' > solo/trial1/meta.json
probe solo/trial1/probe.csv 0.99
run sh -c 'cd solo/trial1 && "$1" ingest --db "$2" probe.csv' sh "$PS" "$TMP/f.db"
expect_code 0 "one file: exit 0"
expect_err_has "1 stored" "one file: stored"
run sh -c 'cd elsewhere && "$1" ingest --db "$2" ../solo/trial1/probe.csv' sh "$PS" "$TMP/f.db"
expect_err_has "1 unchanged" "one file from another folder: unchanged"
run "$PS" ingest --db "$TMP/f.db" "$TMP/solo/trial1/probe.csv"
expect_err_has "1 unchanged" "one file by absolute path: unchanged"
run sh -c 'cd solo && "$1" ingest --db "$2" ./trial1//probe.csv' sh "$PS" "$TMP/f.db"
expect_err_has "1 unchanged" "one file as ./trial1//probe.csv: unchanged"
expect_sql "$TMP/f.db" "SELECT group_concat(relpath) FROM files" "trial1/probe.csv" \
    "one file: stored as folder/name"

# two trees with the same inner layout stay two sets of runs
mkdir -p day1 day2
cp -r w/x/A day1/ && cp -r w/x/A day2/
sed -i 's/,0.21,ok/,0.31,ok/' day2/A/trial*/probe.csv
run "$PS" ingest --db d.db --tag day=2026-08-28 day1
expect_code 0 "day1 ingested"
run "$PS" ingest --db d.db --tag day=2026-08-29 day2
expect_code 0 "day2 ingested"
expect_err_lacks "same content" "day2's changed file is not a copy"
expect_sql d.db "SELECT count(*) FROM runs" 4 "both days' runs are kept"
expect_sql d.db "SELECT count(DISTINCT value) FROM run_tags WHERE key = 'day'" 2 "under their own day"
test_done
