# t1670: a run start no clock could have given (before 2000, from 2100
# on, or beyond int64_t in microseconds) is refused at ingest, with the
# reason, instead of stored as a start that `runs` cannot show and
# export multiplies into an overflow.  oha's `--db-url` file gives the
# start in its `run` column, iperf3 in start.timestamp.timesecs.

oha_db() { # FILE RUN
	sqlite3 "$1" "CREATE TABLE oha (url TEXT NOT NULL, start REAL NOT NULL,
	    start_latency_correction REAL, end REAL NOT NULL,
	    duration REAL NOT NULL, status INTEGER NOT NULL,
	    len_bytes INTEGER NOT NULL, run INTEGER NOT NULL);
	    INSERT INTO oha VALUES ('/', 0.0002, NULL, 0.0014, 0.0012, 200, 11, $2);
	    INSERT INTO oha VALUES ('/', 0.0012, NULL, 0.0022, 0.0010, 200, 11, $2);"
}

i=0
for t in 9223372036854775807 4611686018427387904 10000000000000 \
    253402300800 4102444800 946684799 -1000 0; do
	i=$((i + 1))
	mkdir -p bad$i/A/trial1
	echo '{"path": "A", "trial": 1}' > bad$i/A/trial1/meta.json
	oha_db bad$i/A/trial1/http_c1.db "$t"
	run "$PS" ingest --db bad$i.db bad$i
	expect_code 1 "oha run=$t: ingest exits 1"
	expect_err_has "http_c1.db: run start $t (Unix seconds) is outside 2000-01-01..2100-01-01 UTC" \
	    "oha run=$t: refused with the reason"
	expect_sql bad$i.db "SELECT count(*) FROM runs" 0 "oha run=$t: no run stored"
done

# the edges of the range that are in it are taken
for t in 946684800 4102444799 1787876523; do
	mkdir -p good$t/A/trial1
	echo '{"path": "A", "trial": 1}' > good$t/A/trial1/meta.json
	oha_db good$t/A/trial1/http_c1.db "$t"
	run "$PS" ingest --db good$t.db good$t
	expect_code 0 "oha run=$t: stored"
	expect_sql good$t.db "SELECT started_at FROM runs" "$t" "oha run=$t: its start kept"
done

# iperf3: a timesecs of 1e13, and one beyond int64_t
for t in 10000000000000 1e30; do
	mkdir -p ip$t/A/trial1
	echo '{"path": "A", "trial": 1}' > ip$t/A/trial1/meta.json
	sed "s/\"timesecs\":[[:space:]]*[0-9]*/\"timesecs\": $t/" \
	    "$SAMPLES/iperf3/3.12/tcp_P1.json" > ip$t/A/trial1/tcp_P1.json
	ok "grep -q '\"timesecs\": $t' ip$t/A/trial1/tcp_P1.json" "iperf3 timesecs=$t: the file says so"
	run "$PS" ingest --db ip$t.db ip$t
	expect_code 1 "iperf3 timesecs=$t: ingest exits 1"
	expect_err_has "tcp_P1.json: run start " "iperf3 timesecs=$t: refused"
	expect_err_has "is outside 2000-01-01..2100-01-01 UTC: not a plausible time" "iperf3 timesecs=$t: with the reason"
	expect_sql ip$t.db "SELECT count(*) FROM runs" 0 "iperf3 timesecs=$t: no run stored"
done
test_done
