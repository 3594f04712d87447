# t5400: the table checks on edited copies of samples/tree: missing-cells
# (a run folder removed), unbalanced-trials (a trial removed; 3,000 vs 250
# requests), mixed-estimators (per-request files removed), few-samples
# with --stats; each against the untouched counter-example.

cp -r "$TOP/samples/tree/ecs-conn/2026-08-30" base
rm -rf base/connect
W="--where ka=on --where c=1"

# counter-example: the untouched keep-alive-on c=1 table
"$PS" ingest -q --db base.db base 2>/dev/null
run "$PS" check --db base.db $W --only missing-cells,unbalanced-trials,mixed-estimators
expect_code 0 "untouched table: no missing, unbalanced or mixed cells"

# missing-cells: D has no ka-on c=1 run at all
cp -r base miss
rm -rf miss/trial*/D_ka-on_c1_1k
"$PS" ingest -q --db miss.db miss 2>/dev/null
run "$PS" check --db miss.db --where c=1 --only missing-cells --format json
expect_code 3 "a hole in the path x condition matrix"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert len(r) == 1, r
x = r[0]
assert (x[\"path\"], x[\"condition\"], x[\"severity\"]) == (\"D\", \"c=1,ka=on,size=1k\", \"notice\"), x
assert \"(6 of 7 paths) but not on D\" in x[\"evidence\"] and x[\"runs\"] == \"\"
'" "missing-cells names D at c=1,ka=on,size=1k"

# unbalanced-trials: G lacks trial 3
cp -r base hole
rm -rf hole/trial3/G_ka-on_c1_1k
"$PS" ingest -q --db hole.db hole 2>/dev/null
run "$PS" check --db hole.db $W --only unbalanced-trials,missing-cells --format json
expect_code 3 "a trial missing in one cell"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert [(x[\"check\"], x[\"path\"]) for x in r] == [(\"unbalanced-trials\", \"G\")], r
assert \"trials 1, 2 where 6 other cells of this table have trials 1, 2, 3\" in r[0][\"evidence\"], r
'" "unbalanced-trials: G has trials 1, 2; the others 1, 2, 3"

# unbalanced-trials: two runs of G claim trial 1 (a copy synced twice)
cp -r base dup
cp -r dup/trial1/G_ka-on_c1_1k dup/trial1/G_ka-on_c1_1k.copy
# (changed a little: ingest skips content it has already stored)
sqlite3 dup/trial1/G_ka-on_c1_1k.copy/G_ka-on_c1_1k.db "DELETE FROM oha WHERE rowid = 1"
printf '\n' >> dup/trial1/G_ka-on_c1_1k.copy/G_ka-on_c1_1k.json
"$PS" ingest -q --db dup.db dup 2>/dev/null
run "$PS" check --db dup.db $W --only unbalanced-trials --format json
expect_code 3 "two runs with one trial number"
ok "printf '%s' \"\$OUT\" | grep -q 'trials 1 (×2), 2, 3 where 6 other cells of this table have trials 1, 2, 3'" "unbalanced-trials names the trial claimed twice"

# unbalanced-trials and few-samples: 3,000 requests per run on A and B,
# 250 on C (generated)
"$PY" "$FIX/check/gen_check.py" plant unbalanced --out unbal
"$PS" ingest -q --db unbal.db unbal 2>/dev/null
run "$PS" check --db unbal.db --format json
expect_code 3 "250 next to 3,000 requests"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert sorted((x[\"check\"], x[\"path\"]) for x in r) == [(\"few-samples\", \"A\"), (\"few-samples\", \"B\"), (\"few-samples\", \"C\"), (\"unbalanced-trials\", \"C\")], r
u = [x for x in r if x[\"check\"] == \"unbalanced-trials\"][0]
assert \"250 successful samples each\" in u[\"evidence\"] and \"3,000 (12×)\" in u[\"evidence\"], u
a = [x for x in r if x[\"check\"] == \"few-samples\"][0]
assert \"p99.9 of 3,000 is the 3rd-slowest, within the last 3 samples\" in a[\"evidence\"] and \"p99 \" not in a[\"evidence\"], a
f = [x for x in r if x[\"check\"] == \"few-samples\"][2]
assert \"p99 needs ≥ 299\" in f[\"evidence\"] and \"3rd-slowest\" in f[\"evidence\"], f
assert \"publish the pooled p99 of all 750 requests\" in f[\"action\"], f
assert \"for the rest collect ≥ 2,995 requests per run (oha -n)\" in f[\"action\"], f
'" "C: few samples for p99 per run (pooled 750 would do) and 12x fewer than A, B; A, B: p99.9 of 3,000 is the 3rd-slowest"
run "$PS" check --db unbal.db --where path=A,B --stats p50,p99
expect_code 0 "counter-example: 3,000 requests per run pass p99 (the 30th-slowest)"

# mixed-estimators: trial 2 of B without its per-request file, and H
# with only oha's JSON in every trial
cp -r base mixed
rm -f mixed/trial2/B_ka-on_c1_1k/*.db mixed/trial*/H_ka-on_c1_1k/*.db
"$PS" ingest -q --db mixed.db mixed 2>/dev/null
run "$PS" check --db mixed.db $W --only mixed-estimators --format json
expect_code 3 "summary-only runs next to raw ones"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert [x[\"path\"] for x in r] == [\"B\", \"H\"], r
b, h = r
assert \"trials 2 of 3 have only the tool\" in b[\"evidence\"] and \"oha\" in b[\"evidence\"], b
assert \"only the tool\" in h[\"evidence\"] and \"5 other cells\" in h[\"evidence\"], h
'" "mixed-estimators: B mixes raw and summary trials, H is summary-only next to 5 raw cells (B, mixed, not counted)"
run "$PS" check --db mixed.db $W --where path=H --only mixed-estimators
expect_code 0 "counter-example: a table of summary-only cells alone is consistent"
run "$PS" check --db mixed.db $W --where path=H --only few-samples --format json
ok "printf '%s' \"\$OUT\" | grep -q '500 successful requests'" "few-samples counts a summary-only run from oha's request count"

# outlier-trial counter-example: F keep-alive on, three clean trials
run "$PS" check --db base.db --where path=F --where ka=on --only outlier-trial
expect_code 0 "counter-example: F's three clean keep-alive-on trials"
test_done
