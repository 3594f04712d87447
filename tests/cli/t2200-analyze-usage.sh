# t2200: analyze's command line: verbs, bad arguments (exit 2), a missing
# database (exit 1), reproducible bootstrap intervals, md/csv/json.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db u.db tree 2>/dev/null
W="--db u.db --metric http_ms --where study=ecs-conn --where day=2026-08-30 --where instance_type=c7g.xlarge --where size=1k"

run "$PS" analyze --help
expect_code 0 "analyze --help exits 0"
for v in percentiles delta ratio trials relative compare trend variance; do
	expect_out_has "$v" "help lists $v"
done
run "$PS" analyze
expect_code 2 "no verb: exit 2"
run "$PS" analyze percentiles --db u.db
expect_code 2 "no --metric: exit 2"
run "$PS" analyze bogus --db u.db --metric http_ms
expect_code 2 "unknown verb: exit 2"
expect_err_has "unknown verb 'bogus'" "unknown verb named"
run "$PS" analyze percentiles --db u.db --metric bogus_ms
expect_code 2 "unknown metric: exit 2 (a usage error like the others)"
expect_err_has "unknown metric 'bogus_ms'" "unknown metric named"
for bad in "--stats p101" "--stats pabc" "--stats p-1" "--quantile type9" "--pool some" \
    "--format yaml" "--level 2" "--boot-reps 5" "--seed x" "--threshold abc"; do
	run "$PS" analyze percentiles $W $bad
	expect_code 2 "bad option '$bad': exit 2"
done
run "$PS" analyze delta $W
expect_code 2 "delta without a pair: exit 2"
run "$PS" analyze delta $W "GG"
expect_code 2 "malformed pair: exit 2"
run "$PS" analyze ratio $W 16/1
expect_code 2 "ratio without --across: exit 2"
run "$PS" analyze ratio $W --across c 16
expect_code 2 "ratio without NUM/DEN: exit 2"
run "$PS" analyze compare $W
expect_code 2 "compare without --by: exit 2"
run "$PS" analyze percentiles --db nowhere.db --metric http_ms
expect_code 1 "missing database: exit 1"
expect_err_has "nowhere.db" "missing database named"

# A path no run has is a usage error; a path that exists but has no
# data under these filters (C: iperf3 only) is a row without numbers.
run "$PS" analyze delta $W --where ka=on --where c=1 "G-G'" "X-A" --format json
expect_code 2 "delta with an unknown path: usage error"
expect_err_has "bad pair 'X-A': no run has the path 'X' (paths: A, B, C, D, E, F, G, G', H, L1, L2)" \
    "... naming the paths"
run "$PS" analyze delta $W --where ka=on --where c=1 "G-G'" "C-A" --format json
expect_code 0 "delta with a path not measured here still answers"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); x=[a for a in r if a[\"pair\"]==\"C-A\"]; assert x and x[0][\"p50\"] is None'" "the missing pair is a row with no numbers"
run "$PS" analyze delta $W --where ka=on --where c=1 "C-A"
expect_out_has "minuend not measured" "Markdown says which side is not measured"

run "$PS" analyze delta $W --where ka=on --where c=1 --ci "G-G'" --format json
a=$OUT
run "$PS" analyze delta $W --where ka=on --where c=1 --ci --seed 43 "G-G'" --format json
ok "[ \"\$a\" = \"\$OUT\" ]" "the trial-level interval draws nothing: no seed changes it"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin)[0]; assert r[\"p50_lo\"] < r[\"p50\"] < r[\"p50_hi\"]'" "the interval brackets the estimate, with _lo/_hi keys"

run "$PS" analyze percentiles $W --where ka=on --where c=1 --format csv
expect_out_has "path,condition,metric,estimator,pool,n,trials,failures,p50,p95,p99,max" "CSV header in contract order"
run "$PS" analyze percentiles $W --where ka=on --where c=1 --ci --stats p50,p99.9
expect_out_has "† no pooled interval beyond p25–p75: use --pool trials." "pooled p99.9: no interval, and why"
expect_out_has "trial-level values" "the caption names the interval method"
run "$PS" analyze percentiles $W --where ka=on --where c=1 --quantile hd --stats p50 --format json
expect_code 0 "Harrell-Davis estimator"
expect_out_has '"estimator": "hd"' "the estimator is named in JSON"
run "$PS" analyze percentiles --db u.db --metric throughput_bps --where path=A --where study=tokyo-osaka --where day=2026-08-28 --stats p50
expect_out_has "p50 (Gbit/s)" "throughput shown in Gbit/s in Markdown"
run "$PS" analyze percentiles --db u.db --metric throughput_bps --where path=A --where study=tokyo-osaka --where day=2026-08-28 --where P=4 --stats p50 --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert r[0][\"p50\"] > 1e10'" "JSON keeps bit/s"
run "$PS" analyze percentiles $W --by instance_type --where path=A --where ka=on --where c=1 --stats p50 --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert all(\"instance_type\" in x for x in r)'" "--by adds a key per dimension"
run "$PS" analyze percentiles --db u.db --metric connect_ms --where study=tokyo-osaka --paths E,C,A --stats p50 --format csv
ok "[ \"\$(printf '%s\n' \"\$OUT\" | sed 1d | cut -d, -f1 | uniq | tr '\n' ' ')\" = 'E C A ' ]" "--paths orders and filters rows"
test_done
