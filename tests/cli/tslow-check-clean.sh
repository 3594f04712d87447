# tslow-check-clean: the false-positive rate of `pathstat check` on 100
# seeded clean synthetic campaigns must be 0 (make test-slow; about 3
# minutes on 2 CPUs).  Each campaign is one study: the rate is the share
# of studies with any finding.

"$PY" "$FIX/check/gen_check.py" clean --seed 1 --campaigns 100 --out clean
"$PS" ingest -q --db c.db clean 2>/dev/null
expect_sql c.db "SELECT count(DISTINCT value) FROM run_tags WHERE key = 'study'" 100 "100 campaigns ingested"
# pooled-groups is judged per campaign in t5700: these campaigns reuse
# path names for different paths, which a table over all of them pools
others=burst-cliff,run-order,instance-cap,udp-sender-limited,outlier-trial
others=$others,hidden-failures,syn-retransmit,busy-client,few-samples
others=$others,mixed-estimators,missing-cells,unbalanced-trials
run "$PS" check --db c.db --format json --only "$others"
expect_code 0 "100 clean campaigns: exit 0"
printf '%s' "$OUT" > f.json
rate=$("$PY" -c '
import json
r = json.load(open("f.json"))
studies = {kv for x in r for kv in x["scope"].split(",") if kv.startswith("study=")}
print("%d/100" % len(studies))')
echo "# false-positive rate: $rate campaigns with a finding"
# busy-client judges each pathprobe run (format 2, client time drawn from
# the measured clean clients of prober-gaps.json): runs flagged of runs.
nprobe=$(sql c.db "SELECT count(*) FROM runs WHERE tool = 'pathprobe'")
nbusy=$("$PY" -c 'import json; print(sum(x["check"] == "busy-client" for x in json.load(open("f.json"))))')
echo "# busy-client: $nbusy of $nprobe probe runs flagged"
ok "[ '$nprobe' -gt 300 ] && [ '$nbusy' = 0 ]" "busy-client: no clean probe run flagged ($nbusy of $nprobe)"
ok "[ '$rate' = '0/100' ]" "false-positive rate 0 on 100 clean campaigns ($rate)"

# The two-path instance-cap rule against its own null: the two fastest
# paths genuinely near-equal (0-3 % apart in P=1 and P=4, some as flat
# as a capped link), no cap.  At most 5 % of campaigns may be flagged.
"$PY" "$FIX/check/gen_check.py" clean --ties --seed 1 --campaigns 100 --out ties
"$PS" ingest -q --db t.db ties 2>/dev/null
run "$PS" check --db t.db --only instance-cap --format json
printf '%s' "$OUT" > t.json
n=$("$PY" -c '
import json
r = json.load(open("t.json"))
print(len({kv for x in r for kv in x["scope"].split(",") if kv.startswith("study=")}))')
echo "# two-path instance-cap on near-tie campaigns: $n/100 flagged"
ok "[ $n -le 5 ]" "instance-cap false-positive rate on 100 near-tie campaigns <= 5 % ($n/100)"
test_done
