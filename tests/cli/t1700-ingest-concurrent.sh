# t1700: two users at once.  Two ingests into a new database
# (one used to fail: "001-initial.sql: table metrics already exists" or
# "database is locked"), and two --force ingests into an existing one
# (one used to stop half-way: "begin transaction: database is locked"),
# five times each: both succeed every time and every run is there.  An
# ingest that waits for another writer for over a second says so.

"$PY" - <<'PY'
import json, os
for p in range(6):
    for t in range(1, 41):
        d = "tree/P%d/t%d" % (p, t)
        os.makedirs(d)
        json.dump({"path": "P%d" % p, "trial": t}, open(d + "/meta.json", "w"))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h%d:%d addr=10.0.0.2 count=30 "
                    "interval_s=0.2 timeout_s=0.4 "
                    "start=2026-08-28T01:00:00Z\n" % (p, t))
            f.write("seq,unix_ns,connect_ms,result\n")
            for s in range(30):
                f.write("%d,%d,%.3f,ok\n" % (s, 1787878800000000000 +
                        s * 200000000, 1 + (s * 7 + p + t) % 13 / 10))
PY
nfiles=240

both() { # DB ARGS...: two ingests at once; sets rc1 rc2, err1 err2
	db=$1
	shift
	"$PS" ingest --db "$db" "$@" tree >o1 2>e1 &
	pid=$!
	"$PS" ingest --db "$db" "$@" tree >o2 2>e2
	rc2=$?
	wait $pid
	rc1=$?
	err1=$(cat e1)
	err2=$(cat e2)
	if grep -qE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' e1 e2; then
		t_n=$((t_n + 1)); t_fail=$((t_fail + 1))
		echo "not ok $t_n - sanitizer report"
		sed 's/^/#   /' e1 e2 | head -30
	fi
}

for i in 1 2 3 4 5; do
	rm -f new.db new.db-wal new.db-shm
	both new.db
	ok "[ $rc1 = 0 ] && [ $rc2 = 0 ]" "new database, round $i: both ingests succeed ($err1 | $err2)"
	expect_sql new.db "SELECT count(*) FROM runs" $nfiles "new database, round $i: every run is there"
	expect_sql new.db "SELECT count(*) FROM files WHERE status = 'ok'" $nfiles "new database, round $i: every file once"
done
nmig=$(schema_newest)
expect_sql new.db "PRAGMA user_version" $nmig "the schema was made once, whole"
for i in 1 2 3 4 5; do
	both new.db --force
	ok "[ $rc1 = 0 ] && [ $rc2 = 0 ]" "--force into an existing database, round $i: both succeed ($err1 | $err2)"
	ok "grep -q '^pathstat ingest: $nfiles files: $nfiles stored' e1 && grep -q '^pathstat ingest: $nfiles files: $nfiles stored' e2" "--force, round $i: each stored all $nfiles files"
	expect_sql new.db "SELECT count(*) FROM runs" $nfiles "--force, round $i: every run is there, once"
done

# another program holds the write lock for 2.5 s: ingest waits, says so
# once it has waited a second, and then does its work
"$PY" - <<'PY' &
import os, sqlite3, time
db = sqlite3.connect("new.db", isolation_level=None)
db.execute("BEGIN IMMEDIATE")
open("locked", "w").close()
time.sleep(2.5)
db.execute("COMMIT")
PY
lockpid=$!
while [ ! -e locked ]; do sleep 0.05; done
run "$PS" ingest --force --db new.db tree/P0
wait $lockpid
expect_code 0 "an ingest that had to wait succeeds"
expect_err_has "/new.db': another program is writing to it" "and said what it was waiting for"
test_done
