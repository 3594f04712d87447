# t2731: analyze ratio --attempts all: c=16 over c=1 per path, each
# side's percentiles over all its attempts (timeouts at the timeout
# above every success), against numpy's (tests/fixtures/attempts/
# golden.json); a censored side gives no number.
"$PY" "$FIX/attempts/gen_attempts.py" tree tree
"$PS" ingest -q --db s.db tree 2>/dev/null
export GOLD="$FIX/attempts/golden.json"

run "$PS" analyze ratio --db s.db --metric connect_ms \
    --stats p50,p90,p95,p99 --attempts all --across c --format json 16/1
expect_code 0 "ratio --attempts all: exit 0"
ok 'printf "%s" "$OUT" | "$PY" -c "
import json, os, sys
rows = json.load(sys.stdin)
gold = json.load(open(os.environ[\"GOLD\"]))[\"ratio\"]
seen = 0
for r in rows:
    for s, want in gold[r[\"path\"]].items():
        got = r[s]
        if want is None:
            assert got is None and r[s + \"_ge_timeout\"] == 1, (r[\"path\"], s, got)
        else:
            assert abs(got - want) <= 1e-9 * max(1, abs(want)), (r[\"path\"], s, got, want)
        seen += 1
assert seen == 12, seen
"' "every ratio of all attempts matches numpy's (golden), censored ones null with the flag"
run "$PS" analyze ratio --db s.db --metric connect_ms \
    --stats p50,p95,p99 --attempts all --across c 16/1
expect_out_has "| A | – | 1.18 | 1.21 | ≥ timeout |" \
    "A: 4 % over 1 % timeouts: p95 ratio of all attempts 1.21; p99 censored on both sides, no number"
test_done
