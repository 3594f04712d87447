# t5700: no finding on 10 seeded clean synthetic campaigns (iperf3 and
# pathprobe on one instance with paths in random order, oha keep-alive on
# and off, 3 trials each; tests/fixtures/check/gen_check.py clean).  The
# 100-campaign version is tslow-check-clean.sh (make test-slow).
# tier: sim

"$PY" "$FIX/check/gen_check.py" clean --seed 1 --campaigns 10 --out clean
"$PS" ingest -q --db c.db clean 2>/dev/null
expect_sql c.db "SELECT count(DISTINCT value) FROM run_tags WHERE key = 'study'" 10 "10 campaigns ingested"
# Every rule but pooled-groups judges each campaign on its own; the
# campaigns reuse path names (H1, A, ...) for different paths, so a
# table over all of them pools different measurements, and pooled-groups
# rightly says so: it is checked on each campaign alone.
others=burst-cliff,run-order,instance-cap,udp-sender-limited,outlier-trial
others=$others,hidden-failures,syn-retransmit,busy-client,few-samples
others=$others,mixed-estimators,missing-cells,unbalanced-trials
run "$PS" check --db c.db --format json --only "$others"
expect_code 0 "10 clean campaigns: exit 0"
ok "[ \"\$OUT\" = '[]' ]" "10 clean campaigns: no finding"
[ "$RC" = 0 ] || printf '%s\n' "$OUT" | head -40
n=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$PS" check --db c.db --where study=clean-$i --only pooled-groups \
	    --format json > pg.json 2>/dev/null && [ "$(cat pg.json)" = '[]' ] ||
	    n=$((n + 1))
done
ok "[ $n = 0 ]" "pooled-groups: no finding within any one campaign ($n of 10)"
run "$PS" check --db c.db --only pooled-groups --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert r and all(len({f.split(\"/\")[1] for f in x[\"files\"].split(\", \")}) >= 2 for x in r), r'" \
    "pooled-groups over all campaigns: each finding pools runs of several campaigns"
test_done
