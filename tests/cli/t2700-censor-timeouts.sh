# t2700: "≥ timeout" is the estimator's own rule in integer ranks:
# at each boundary the censoring design lists, for type 7, oha and
# Harrell-Davis, pooled and per trial; refusals are failures beside the
# numbers (a timeouts column), never "≥ timeout".  The rule itself is
# unit-tested against an independent oracle in tests/unit/t-censor.c.
. "$TOP/tests/cli/helper/censor-tree.sh"
censor_tree
"$PS" ingest -q --db s.db tree 2>/dev/null

# ge EST POOL PATH STAT: the <STAT>_ge_timeout flag of PATH's row
ge() {
	"$PS" analyze percentiles --db s.db --metric connect_ms --quantile "$1" \
	    --pool "$2" --where path="$3" --stats "$4" --format csv |
	    awk -F, -v col="$4_ge_timeout" 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == col) c = i; next } { print $c }'
}
for est in type7 oha hd; do
	ok "[ \"$(ge $est pooled P300 p99)\" = 1 ]" "$est: 3 timeouts in 300: p99 ≥ timeout"
	ok "[ \"$(ge $est pooled P100 p99)\" = 1 ]" "$est: 1 timeout in 100: p99 ≥ timeout"
	ok "[ \"$(ge $est pooled P20 p95)\" = 1 ]" "$est: 1 timeout in 20: p95 ≥ timeout"
	ok "[ \"$(ge $est pooled P2000 p99)\" = 1 ]" "$est: 20 timeouts in 2000: p99 ≥ timeout"
	ok "[ \"$(ge $est pooled P90 p90)\" = 1 ]" "$est: 10 timeouts in 100: p90 ≥ timeout"
	ok "[ \"$(ge $est pooled R300 p95)\" = 0 ] && [ \"$(ge $est pooled R300 p99)\" = 0 ]" \
	    "$est: 30 refusals in 300: nothing ≥ timeout"
done
for est in type7 oha; do
	ok "[ \"$(ge $est pooled Q300 p99)\" = 0 ]" "$est: 2 timeouts in 300: p99 measured"
	ok "[ \"$(ge $est pooled Q2000 p99)\" = 0 ]" "$est: 19 timeouts in 2000: p99 measured"
	ok "[ \"$(ge $est pooled Q90 p90)\" = 0 ]" "$est: 9 timeouts in 100: p90 measured"
done
# Harrell-Davis weighs every rank near p99: its window reaches rank 298
ok "[ \"$(ge hd pooled Q300 p99)\" = 1 ]" "hd: 2 timeouts in 300: p99 ≥ timeout (HD weighs them)"
# where type 7 and oha part: 5 probes, 3 timeouts, p30: h = 1.2 reads
# rank 2 (a timeout), oha's floor(1.5) = 1 does not
ok "[ \"$(ge type7 pooled K5 p30)\" = 1 ] && [ \"$(ge oha pooled K5 p30)\" = 0 ]" \
    "p30 of 2 successes + 3 timeouts: type 7 ≥ timeout, oha measured"
# per trial: 2 timeouts in trial 2 (of 100) censor its p99, so the mean
# across trials is ≥ timeout; pooled (2 in 300) it is not
ok "[ \"$(ge type7 pooled T p99)\" = 0 ]" "pooled: 2 timeouts in 300: p99 measured"
ok "[ \"$(ge type7 trials T p99)\" = 1 ]" "--pool trials: a trial with 2 % timeouts censors p99"
ok "[ \"$(ge oha trials T p99)\" = 1 ]" "--pool trials, oha: the same"
ok "[ \"$(ge type7 trials T p95)\" = 0 ]" "--pool trials: p95 measured in every trial"

run "$PS" analyze percentiles --db s.db --metric connect_ms --stats p50,p95,p99 \
    --where path=R300,P300
expect_code 0 "percentiles with refusals and timeouts: exit 0"
expect_out_has "| Path | Condition | n | trials | failures | timeouts | loss % |" \
    "timeouts shown beside failures"
expect_out_has "| R300 | – | 270 | 1 | 30 | 0 | 10.0 | 9.672 | 10.278 | 10.332 |" \
    "30 refusals in 300: failures 30, timeouts 0, p95 and p99 are numbers"
expect_out_has "| P300 | – | 297 | 1 | 3 | 3 | 1.0 | 9.740 | 10.406 | ≥ timeout (400 ms) |" \
    "3 timeouts in 300: p99 ≥ timeout (400 ms), the case once left unflagged"
expect_out_has "ceil((N − 1)·p) ≥ successes" "the caption states type 7's rule"
expect_out_has "refusals and errors censor nothing" "the caption says refusals do not censor"
run "$PS" analyze percentiles --db s.db --metric connect_ms --stats p99 \
    --where path=P300 --quantile oha
expect_out_has "oha's index floor(p·N) ≥ successes" "the caption states oha's rule"
run "$PS" analyze percentiles --db s.db --metric connect_ms --stats p99 \
    --where path=T --pool trials
expect_out_has "judged in each trial" "--pool trials: the caption says each trial is judged"
expect_out_has "≥ timeout (400 ms)" "--pool trials: p99 shown ≥ timeout"
run "$PS" analyze percentiles --db s.db --metric connect_ms --stats p99 \
    --where path=R300 --format json
expect_out_has '"failures": 30, "timeouts": 0' "JSON: failures and timeouts apart"
# delta: a censored side has no difference
run "$PS" analyze delta --db s.db --metric connect_ms --stats p99 P300-Q300
expect_out_has "≥ timeout" "delta against a censored p99: ≥ timeout, no number"
test_done
