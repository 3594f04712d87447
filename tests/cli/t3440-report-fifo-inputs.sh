# t3440: an input a command reads by name (--spec, --db, a spec's
# from_csv) may sit in a folder others write to: a FIFO there used to
# block report (and every --db reader) forever.  Each is now opened
# without blocking and refused, with what it is, when it is not a
# regular file.  Every case runs under timeout(1): exit 124 is the hang.

T="timeout 20"
mkdir -p tree/A
{
	echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
	echo "seq,unix_ns,connect_ms,result"
	echo "0,1787878800000000000,0.21,ok"
	echo "1,1787878800200000000,0.22,ok"
} > tree/A/probe.csv
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
run "$PS" ingest -q --db t.db tree
expect_code 0 "the tree is ingested"

# ---- a spec's from_csv naming a FIFO (the reproduction)
mkdir spec
mkfifo spec/f.csv
cat > spec/s.json <<'EOF2'
{ "title": "T", "sections": [
  { "type": "percentiles", "id": "c", "metric": "connect_ms",
    "stats": "p50", "from_csv": "f.csv" } ] }
EOF2
run $T "$PS" report --db t.db --spec spec/s.json --out b1 --no-checks \
    --no-render
expect_code 1 "a from_csv FIFO is refused, not waited on"
expect_err_has "from_csv 'spec/f.csv': it is a FIFO, not a regular file" \
    "and the reason names what it is"
mkdir spec/d.csv
sed 's/f\.csv/d.csv/' spec/s.json > spec/d.json
run $T "$PS" report --db t.db --spec spec/d.json --out b2 --no-checks \
    --no-render
expect_code 1 "a from_csv folder is refused"
expect_err_has "it is a folder, not a regular file" "and named a folder"

# ---- --spec FIFO
mkfifo fifo.json
run $T "$PS" report --db t.db --spec fifo.json --out b3 --no-checks \
    --no-render
expect_code 1 "a --spec FIFO is refused, not waited on"
expect_err_has "cannot read spec 'fifo.json': it is a FIFO, not a regular file" \
    "and the reason says so"
ln -s fifo.json link.json
run $T "$PS" report --db t.db --spec link.json --out b4 --no-checks \
    --no-render
expect_code 1 "a link to a FIFO is judged by what it leads to"
expect_err_has "it is a FIFO" "and refused as one"

# ---- --db FIFO: readers, report and a writer
mkfifo f.db
for cmd in runs "analyze percentiles --metric connect_ms" "report --no-checks --no-render --out b5"; do
	run $T "$PS" $cmd --db f.db
	expect_code 1 "$cmd --db FIFO is refused, not waited on"
	expect_err_has "cannot open database 'f.db': it is a FIFO, not a regular file" \
	    "$cmd names the reason"
done
run $T "$PS" ingest -q --db f.db tree
expect_code 1 "ingest --db FIFO is refused, not waited on"
expect_err_has "it is a FIFO, not a regular file" "ingest names the reason"
ok "[ -p f.db ] && [ ! -e f.db-wal ]" "and leaves the FIFO as it was"

# ---- a link to a regular spec still works
cat > real.json <<'EOF2'
{ "title": "T", "sections": [
  { "type": "percentiles", "id": "c", "metric": "connect_ms", "stats": "p50" } ] }
EOF2
ln -s real.json ok.json
run $T "$PS" report --db t.db --spec ok.json --out b6 --no-checks --no-render
expect_code 0 "a spec kept as a link to a regular file is read"

test_done
