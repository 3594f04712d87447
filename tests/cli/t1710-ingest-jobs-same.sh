# t1710: ingest parses files on several threads (--jobs) but stores and
# reports them in walk order: on a tree with good, partial and rejected
# files of every kind (iperf3, oha JSON/CSV/SQLite, pathprobe CSV and
# --mtu, gzip good and broken, empty, cut, garbage, unreadable, broken
# meta.json above several files, the first of them large, no path ID),
# --jobs 1 and --jobs 4 give
# the same database (but for ingest times), the same stderr, stdout and
# exit status, a first ingest and a re-ingest alike.  --jobs 0 and
# --jobs x are usage errors.

mkdir tree
i=0
for d in a b c; do
	mkdir -p tree/$d
	echo "{\"path\": \"P$d\", \"trial\": 1}" > tree/$d/meta.json
	for f in "$SAMPLES"/iperf3/3.12/*.json; do
		i=$((i + 1))
		cp "$f" tree/$d/ip$i.json
	done
	cp "$SAMPLES"/oha/*.json tree/$d/
	cp "$FIX"/oha/*.csv "$FIX"/oha/*.db tree/$d/
	cp "$FIX"/pathprobe/*.csv tree/$d/
	for f in "$FIX"/pathprobe-mtu/*.txt; do
		cp "$f" tree/$d/mtu-$(basename "$f")
	done
	cp "$FIX"/iperf3-udp/*.json "$FIX"/iperf3-usage/iperf3.json tree/$d/
	gzip -c "$SAMPLES/iperf3/3.12/tcp_P4.json" > tree/$d/gz.json.gz
	head -c 300 tree/$d/gz.json.gz > tree/$d/cutgz.json.gz
	: > tree/$d/empty.json
	head -c 900 "$SAMPLES/iperf3/3.12/tcp_P4.json" > tree/$d/cut.json
	head -c 3000 "$SAMPLES/iperf3/3.12/tcp_P4.json" > tree/$d/cut3k.json
	head -c 4096 /dev/urandom > tree/$d/garbage.bin
	cp "$SAMPLES/iperf3/3.12/tcp_R.json" tree/$d/unreadable.json
	chmod 000 tree/$d/unreadable.json
	mkdir -p tree/$d/broken/deeper
	echo '{"path": ' > tree/$d/broken/meta.json
	# first in walk order and slow to read: a later file is keyed
	# first unless keying waits its turn
	head -c 16000000 /dev/zero > tree/$d/broken/a-big.bin
	cp "$SAMPLES"/iperf3/3.12/tcp_P1.json tree/$d/broken/one.json
	cp "$SAMPLES"/iperf3/3.12/tcp_O1.json tree/$d/broken/deeper/two.json
	cp "$FIX"/pathprobe/all-ok.csv tree/$d/broken/deeper/three.csv
done
mkdir -p tree/nokeys
cp "$SAMPLES/iperf3/3.12/tcp_bidir.json" tree/nokeys/bidir.json

# DB: the database minus the times of ingest, as text
dump() {
	cp "$1" dump.db
	sqlite3 -batch dump.db "UPDATE files SET ingested_at = '';
	    UPDATE roots SET first_ingested = '', last_ingested = '';" &&
	sqlite3 -batch dump.db .dump
	rm -f dump.db
}

for n in 1 4; do
	"$PS" ingest --db j$n.db --jobs $n tree >out$n 2>err$n
	echo $? >rc$n
	dump j$n.db >dump$n
	"$PS" ingest --db j$n.db --jobs $n --force tree >out$n.again 2>err$n.again
	echo $? >rc$n.again
	dump j$n.db >dump$n.again
done
ok "[ \$(cat rc1) = 1 ]" "some files are rejected: exit 1 ($(cat rc1))"
ok "grep -q 'bad meta.json' err1 && grep -q 'rejected' err1" \
    "the tree has a broken meta.json and rejected files"
ok "[ \$(grep -c 'bad meta.json' err1) = 3 ]" \
    "each broken meta.json is named once ($(grep -c 'bad meta.json' err1))"
ok "[ \$(sqlite3 j1.db 'SELECT count(DISTINCT status) FROM files') -ge 3 ]" \
    "files of several statuses are stored"
for s in "" .again; do
	ok "cmp -s rc1$s rc4$s" "exit status the same with 1 and 4 parsers$s"
	ok "cmp -s err1$s err4$s" "stderr the same with 1 and 4 parsers$s"
	if ! cmp -s err1$s err4$s; then diff err1$s err4$s | head -20 | sed 's/^/#   /'; fi
	ok "cmp -s out1$s out4$s" "stdout the same with 1 and 4 parsers$s"
	ok "cmp -s dump1$s dump4$s" "database the same with 1 and 4 parsers$s"
	if ! cmp -s dump1$s dump4$s; then diff dump1$s dump4$s | head -20 | sed 's/^/#   /'; fi
done

for bad in 0 x 65; do
	run "$PS" ingest --db u.db --jobs $bad tree
	expect_code 2 "--jobs $bad is a usage error"
	ok "[ ! -e u.db ]" "--jobs $bad: no database made"
done

test_done
