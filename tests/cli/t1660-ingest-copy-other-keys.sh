# t1660: a byte-identical copy filed under other keys does not take the
# run of the file it copies.  Content dedup merges only copies whose
# keys agree; a copy under other keys is stored as its own run, with a
# warning naming both files and how the keys differ, whichever of the
# two the walk meets first.  A copy under the same keys is still
# skipped as before.

mk() { # TREE FOLDER PATH-ID
	mkdir -p "$1/$2/trial1"
	printf '{"path": "%s", "trial": 1}\n' "$3" > "$1/$2/trial1/meta.json"
	cp "$SAMPLES/iperf3/3.12/tcp_P1.json" "$1/$2/trial1/tcp_P1.json"
}

for order in evil-first evil-last; do
	if [ $order = evil-first ]; then e=0-evil; else e=z-evil; fi
	mk $order B B
	mk $order $e EVIL
	run "$PS" ingest --quiet --db $order.db $order
	expect_code 0 "$order: ingest exits 0"
	expect_sql $order.db "SELECT group_concat(path, ',') FROM (SELECT DISTINCT path FROM run_view ORDER BY path)" "B,EVIL" \
	    "$order: both paths have their run"
	run "$PS" ingest --db $order.db $order --force
	expect_code 0 "$order: a forced re-ingest exits 0"
	expect_err_has "same content as '$order/" "$order: the copy is named"
	expect_err_has "which has other keys (path: " "$order: with how its keys differ"
	expect_sql $order.db "SELECT count(*) FROM files WHERE status = 'skipped'" 0 \
	    "$order: neither file is skipped"
	run "$PS" runs --db $order.db
	expect_out_has "EVIL" "$order: runs lists EVIL"
	expect_out_has " B " "$order: runs lists B"
done

# a copy under the same keys is still a copy: skipped, naming the other
mk same B B
mk same C B
run "$PS" ingest --db same.db same
expect_code 0 "same keys: exit 0"
expect_err_has "same/C/trial1/tcp_P1.json: skipped: same content as 'same/B/trial1/tcp_P1.json', already ingested" \
    "same keys: the copy is skipped, naming the other"
expect_sql same.db "SELECT count(*) FROM runs" 1 "same keys: one run"

# the dry run says what the real one will do
mk dry B B
mk dry 0-evil EVIL
run "$PS" ingest --db dry.db dry/0-evil
run "$PS" ingest --db dry.db --dry-run dry
expect_out_has "which has other keys (path: EVIL -> B): stored as its own runs" \
    "dry run: the copy under other keys is said to be stored"
test_done
