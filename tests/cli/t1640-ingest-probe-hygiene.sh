# t1640: probe CSV hygiene.  Repeated rows (a file appended
# to itself) were stored as ok with no note and counted twice; a clock
# stepping back gave negative times with no note; a hex float (0x1p3)
# was read as 8.0 ms.  Now a row whose seq repeats or goes back is
# skipped and counted once, a backwards unix_ns is noted, and a hex
# float is a bad value (common/parse.c refuses it for every input).
hdr() {
	echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
	echo "seq,unix_ns,connect_ms,result"
}
mkdir -p tree/D tree/B tree/H
{ hdr
  echo "0,1787878800000000000,0.5,ok"
  echo "1,1787878800200000000,0.7,ok"
  echo "2,1787878800400000000,0.9,ok"
  echo "0,1787878800000000000,0.5,ok"
  echo "1,1787878800200000000,0.7,ok"
  echo "2,1787878800400000000,0.9,ok"; } > tree/D/probe.csv
{ hdr
  echo "0,1787878800000000000,0.5,ok"
  echo "1,1787878799000000000,0.7,ok"
  echo "2,1787878799200000000,0.9,ok"; } > tree/B/probe.csv
{ hdr
  echo "0,1787878800000000000,0.5,ok"
  echo "1,1787878800200000000,0x1p3,ok"
  echo "2,1787878800400000000,0.9,ok"; } > tree/H/probe.csv
for p in D B H; do echo "{\"path\": \"$p\", \"trial\": 1}" > tree/$p/meta.json; done
run "$PS" ingest --db t.db tree
expect_err_has "tree/D/probe.csv: partial: skipped 3 rows whose seq repeats or goes back (first at line 6): counted once" "repeated rows are named"
expect_err_has "tree/B/probe.csv: partial: unix_ns goes back at 1 row (first at line 4)" "a clock stepping back is named"
expect_err_has "tree/H/probe.csv: partial: skipped 1 bad row of 3 (first at line 4: ok without a valid connect_ms)" "a hex float is a bad value"
expect_sql t.db "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id JOIN paths p ON p.id = r.path_id WHERE p.name = 'D'" 3 "repeated rows are stored once"
expect_sql t.db "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id JOIN paths p ON p.id = r.path_id WHERE p.name = 'H' AND s.value = 8" 0 "no 8 ms from 0x1p3"
run "$PS" analyze percentiles --db t.db --metric connect_ms --paths D --stats n --format csv
expect_out_has 'D,"",connect_ms,type7,pooled,3,' "analyze counts 3 probes"
test_done
