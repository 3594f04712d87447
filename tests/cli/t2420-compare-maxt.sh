# t2420: compare adjusts its rows' p with a step-down permutation max-T,
# not Holm: the rows share the baseline's trials, so their tests are
# correlated, and the permutations see it.  Eight instance types on one
# day, 5 trials each, the last 15 % slower: Holm over 7 rows could never
# pass it (2/252 × 7 = 0.056); max-T can, and says worse.  Each p_adj is
# checked against the oracle (numpy/scipy, 50,000 permutations a step:
# tests/fixtures/compare/gen_maxt.py) within the Monte-Carlo error of
# pathstat's 1,999 permutations.

"$PY" "$TOP/tests/cli/helper/types-tree.py" cmp 8 5 1.15 2420
"$PS" ingest -q --db c.db cmp 2>/dev/null

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline t00 --stats p50 --format json
expect_code 0 "compare runs"
printf '%s' "$OUT" > got.json
cat > chk.py <<'PY'
import json, math, sys
got = {x["value"]: x for x in json.load(open("got.json"))}
want = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "row" and f[1] == "eight":
        want[f[2]] = (float(f[3]), float(f[4]))
assert len(want) == 7 and set(want) == set(got), (want, got)
for ty, (p, adj) in want.items():
    g = got[ty]
    assert abs(g["p"] - p) < 1e-9, (ty, g["p"], p)
    # Monte-Carlo p of 1,999 permutations: 4 standard errors
    tol = 4 * math.sqrt(max(adj * (1 - adj), 0.01) / 2000) + 1 / 2000
    assert abs(g["p_adj"] - adj) <= tol, (ty, g["p_adj"], adj, tol)
    assert g["p_adj"] >= g["p"] - 1e-12, g
PY
ok '"$PY" chk.py "$FIX/compare/maxt.txt"' "every p as the oracle's, every p_adj within the Monte-Carlo error of the oracle's"
js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r={x[\"value\"]: x for x in json.load(sys.stdin)}; $1"; }
ok "js 's=r[\"t07\"]; assert s[\"verdict\"] == \"worse: +14.8 %\", s; assert s[\"p_adj\"] < 0.05, s'" "the slower type: worse, where Holm could never say so"
ok "js 'assert \"p_holm\" not in r[\"t07\"], r'" "the column is p_adj now"
ok "js 'assert all(x[\"verdict\"].startswith(\"same\") for k, x in r.items() if k != \"t07\"), r'" "the others: same"

# the same table twice: the same p_adj (a fixed seed)
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline t00 --stats p50 --format json
ok '[ "$OUT" = "$(cat got.json)" ]' "deterministic: the same output twice"

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline t00 --stats p50
expect_out_has "p (adjusted)" "the table's header says adjusted"
expect_out_has "step-down permutation max-T" "the note names the procedure"
expect_out_lacks "Holm" "and not Holm"
test_done
