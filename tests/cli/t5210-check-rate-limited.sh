# t5210: run-order does not blame burst credits on a clean campaign of
# rate-limited paths: two days, A and B at ~200 Mbit/s, C, D
# and E policed at 90-100 Mbit/s each (half of A and B, within 20 % of
# each other), measured A to E in order.  A slower path is no finding;
# the planted credit floor (t5200: B-E at one 0.77 Gbit/s after A) is.

"$PY" "$FIX/check/gen_check.py" plant rate-limited --out lim
"$PS" ingest -q --db lim.db lim 2>/dev/null
expect_sql lim.db "SELECT count(*) FROM runs" 90 "5 paths x 3 conditions x 3 trials x 2 days"
run "$PS" check --db lim.db --only run-order
expect_code 0 "rate-limited paths of different speeds: no run-order finding"
expect_out_has "No findings" "run-order: clean"
run "$PS" check --db lim.db --only run-order --per-campaign --format json
ok "[ \"\$OUT\" = '[]' ]" "--per-campaign: no run-order finding on either day"

# power kept: the same campaign with the credits running out after B on
# day 2 (C, D and E at one 0.05 Gbit/s floor in every condition)
"$PY" - <<'PYEOF' || echo "# could not plant the floor"
import glob, json, os
for f in glob.glob("lim/limited/2026-09-10/[CDE]/trial*/*.json"):
    if os.path.basename(f) == "meta.json":
        continue
    d = json.load(open(f))
    # the intervals and the end sums: a UDP run's throughput is what
    # the receiver got at the end (end.sum_received)
    for iv in d["intervals"] + [d["end"]]:
        for k in ("sum", "sum_received", "sum_sent"):
            if k in iv:
                iv[k]["bits_per_second"] = 5.0e7 * (1 + 0.001 * (hash(f) % 3))
    json.dump(d, open(f, "w"))
PYEOF
"$PS" ingest -q --db floor.db lim 2>/dev/null
run "$PS" check --db floor.db --only run-order --per-campaign --format json
expect_code 3 "a floor after B on day 2: run-order"
printf '%s' "$OUT" > floor.json
ok "\"\$PY\" -c '
import json
r = json.load(open(\"floor.json\"))
assert r and all(x[\"scope\"].startswith(\"day=2026-09-10\") for x in r), r
assert sorted({x[\"path\"] for x in r}) == [\"C\", \"D\", \"E\"], r
assert all(\"one floor\" in x[\"evidence\"] for x in r), r
'" "run-order: C, D and E on day 2 only, on the common floor"
test_done
