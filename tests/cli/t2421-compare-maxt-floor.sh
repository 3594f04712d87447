# t2421: when no row of a compare table can pass max-T, the rows say so
# and from how many trials a side one could, computed for max-T (the
# first step's permutation p of the smallest p the exact test can give).
# Fourteen instance types on one day, 5 trials each, one 15 % slower:
# over 13 rows even 2/252 is not rare enough among the permutations'
# smallest p's; the oracle (tests/fixtures/compare/gen_maxt.py) gives
# that floor and the trials a side that would let one pass.

"$PY" "$TOP/tests/cli/helper/types-tree.py" cmp 14 5 1.15 2421
"$PS" ingest -q --db c.db cmp 2>/dev/null

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline t00 --stats p50 --format json
expect_code 0 "compare runs"
printf '%s' "$OUT" > got.json
cat > chk.py <<'PY'
import json, math, re, sys
got = {x["value"]: x for x in json.load(open("got.json"))}
floor = letk = None
for line in open(sys.argv[1]):
    f = line.split()
    if f[:2] == ["floor", "fourteen"]:
        floor = float(f[2])
    if f[:2] == ["letk", "fourteen"]:
        letk = int(f[2])
assert floor is not None and floor >= 0.05 and letk, (floor, letk)
s = got["t13"]
m = re.match(r"inconclusive: no row can pass max-T over 13 rows with 5 vs 5 "
             r"trials \(smallest p 0\.0079, adjusted ([0-9.]+)\); (\d+) "
             r"trials a side would let one \(\+", s["verdict"])
assert m, s["verdict"]
tol = 4 * math.sqrt(floor * (1 - floor) / 2000) + 1 / 2000
assert abs(float(m.group(1)) - floor) <= tol + 0.0005, (m.group(1), floor)
assert int(m.group(2)) == letk, (m.group(2), letk)
assert abs(s["p_adj"] - floor) <= tol, (s["p_adj"], floor)
PY
ok '"$PY" chk.py "$FIX/compare/maxt.txt"' "the slower type's row: no row can pass max-T, its floor and trials a side as the oracle's"
js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r={x[\"value\"]: x for x in json.load(sys.stdin)}; $1"; }
ok "js 'assert all(\"no row can pass max-T over 13 rows\" in x[\"verdict\"] or x[\"verdict\"].startswith(\"same\") for x in r.values()), r'" "every row that is not same says it"

# one type compared: no adjustment, and the floor 2/252 passes
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline t00 --where instance_type=t00,t13 --stats p50 --format json
ok "js 's=r[\"t13\"]; assert s[\"verdict\"].startswith(\"worse\"), s; assert s[\"p_adj\"] == s[\"p\"], s'" "one row alone: worse, p_adj is its p"
test_done
