# t2732: --attempts completed is the default, today's delta and ratio:
# each side's percentiles over its successes (numpy's, golden.json's
# p<X>_completed), the same table as without the option.
"$PY" "$FIX/attempts/gen_attempts.py" tree tree
"$PS" ingest -q --db s.db tree 2>/dev/null
export GOLD="$FIX/attempts/golden.json"

A="--db s.db --metric connect_ms --stats p50,p90,p95"
run "$PS" analyze delta $A --attempts completed --format json A-B
expect_code 0 "delta --attempts completed: exit 0"
ok 'printf "%s" "$OUT" | "$PY" -c "
import json, os, sys
rows = json.load(sys.stdin)
cells = json.load(open(os.environ[\"GOLD\"]))[\"cells\"]
for r in rows:
    a, b = cells[\"A \" + r[\"condition\"]], cells[\"B \" + r[\"condition\"]]
    for s in (\"p50\", \"p90\", \"p95\"):
        want = a[s + \"_completed\"] - b[s + \"_completed\"]
        assert abs(r[s] - want) <= 1e-9, (s, r[s], want)
"' "completed: each Δ is of the successes (numpy's)"
completed=$OUT
run "$PS" analyze delta $A --format json A-B
ok '[ "$OUT" = "$completed" ]' "no --attempts: the same as --attempts completed"
run "$PS" analyze ratio $A --attempts completed --across c 16/1
expect_code 0 "ratio --attempts completed: exit 0"
completed=$OUT
run "$PS" analyze ratio $A --across c 16/1
ok '[ "$OUT" = "$completed" ]' "ratio: no --attempts is --attempts completed"
expect_out_lacks "--attempts all" "completed: no all-attempts caption"
test_done
