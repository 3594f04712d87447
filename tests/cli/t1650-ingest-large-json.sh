# t1650: memory bounded by the input.  cJSON costs about 41
# times the JSON it parses, so a few hundred MB of iperf3 JSON filled the
# machine, and under a memory limit the failure read "invalid JSON".  A
# document above 8 MiB is now read member by member and interval by
# interval (the same samples as a whole parse), a member above 16 MiB is
# refused as too large, and an allocation that fails is "out of memory".
# (make bench measures a 200 MB file: peak RSS within 4x its size.)
gen() { "$PY" "$TOP/bench/big_iperf3.py" "$@"; }
gen small.json 0.2
gen big.json 12
n_small=$("$PY" -c 'import json; print(len(json.load(open("small.json"))["intervals"]))')
n_big=$("$PY" -c 'import json; print(len(json.load(open("big.json"))["intervals"]))')
run "$PS" ingest -q --db s.db --tag path=S --tag trial=1 small.json
expect_code 0 "a small document, parsed whole"
run "$PS" ingest -q --db b.db --tag path=B --tag trial=1 big.json
expect_code 0 "a 12 MB document, read piece by piece"
expect_sql b.db "SELECT count(*) FROM samples WHERE metric = (SELECT id FROM metrics WHERE name = 'throughput_bps')" "$n_big" "every interval is a sample"
expect_sql b.db "SELECT status FROM runs" ok "the run is ok"
ok "[ \"\$(sqlite3 s.db 'SELECT group_concat(stat || \"=\" || value) FROM (SELECT stat, value FROM summaries ORDER BY metric, stat)')\" = \
    \"\$(sqlite3 b.db 'SELECT group_concat(stat || \"=\" || value) FROM (SELECT stat, value FROM summaries ORDER BY metric, stat)')\" ]" \
    "the same end-of-test summaries as a whole parse"
if [ -x /usr/bin/time ] && ! case "$PS" in *asan*) true;; *) false;; esac; then
	rm -f b.db*
	/usr/bin/time -f %M "$PS" ingest -q --db b.db --tag path=B --tag trial=1 big.json 2> rss.txt
	ok "[ \$(tail -1 rss.txt) -lt \$((4 * \$(stat -c %s big.json) / 1024)) ]" "peak RSS within 4x the file"
fi

# one member larger than 16 MiB
"$PY" -c '
import json
pad = "x" * (17 << 20)
open("huge.json", "w").write(json.dumps({"start": {"pad": pad}, "intervals": [], "end": {}}))'
run "$PS" ingest --db h.db --tag path=H --tag trial=1 huge.json
expect_code 1 "a 17 MiB member is refused"
expect_err_has "'start' is larger than 16 MiB: too large to read" "as too large, named"

# under a memory limit: out of memory, not invalid JSON
case "$PS" in
*asan*) ;;	# ASan reserves terabytes of address space: no limit there
*)
	gen mid.json 7
	n_mid=$("$PY" -c 'import json; print(len(json.load(open("mid.json"))["intervals"]))')
	run sh -c "ulimit -v 90000; exec \"\$0\" ingest --db m.db --tag path=M --tag trial=1 mid.json" "$PS"
	# Under the limit the whole parse runs out of memory and says so.
	# On a loaded machine the same command was seen, in 2 of about 8
	# suite runs, to store the whole file instead (every interval, exit
	# 0), which is no wrong answer; what must never happen is a failure
	# read as "invalid JSON" or a run stored short.
	if [ "$RC" -ne 0 ]; then
		ok true "a whole parse that cannot get its memory fails"
		expect_err_has "out of memory" "and says out of memory"
	else
		expect_sql m.db "SELECT count(*) FROM samples WHERE metric = (SELECT id FROM metrics WHERE name = 'throughput_bps')" "$n_mid" \
		    "or it stored every interval (the parse fitted)"
		ok true "(no out-of-memory message to check)"
	fi
	expect_err_lacks "invalid JSON" "not invalid JSON"
	;;
esac
test_done
