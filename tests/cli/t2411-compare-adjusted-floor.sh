# t2411: eight instance types measured on the same day, 5 trials each,
# one 15 % slower.  Holm over 7 rows lifted the smallest p exact
# Mann-Whitney can give at 5 vs 5 (2/252) to 0.056, so no row could
# pass and every row said so; compare's max-T sees that the rows share
# the baseline's trials, and its smallest p 2/252 adjusts below 0.05:
# the slower type is worse, and no row says none can pass
# (tests/cli/t2420 checks the values against the oracle, t2421 the
# message where max-T's floor is too high).

cat > mk.py <<'PY'
import json, os, random
random.seed(2411)
types = ["c6i.large", "c6a.large", "c7a.large", "c7g.large", "c7i.large", "m6i.large", "m7i.large", "r7i.large"]
for k, ty in enumerate(types):
    for t in range(1, 6):
        d = "cmp/%s/t%d" % (ty, t)
        os.makedirs(d, exist_ok=True)
        json.dump({"instance_type": ty, "path": "W", "trial": t}, open(d + "/meta.json", "w"))
        scale = 1.15 if ty == "r7i.large" else 1.0
        rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=200 interval_s=0.2 timeout_s=0.4 start=2026-09-01T00:00:00Z",
                "seq,unix_ns,connect_ms,result"]
        for i in range(200):
            rows.append("%d,%d,%.4f,ok" % (i, 1788220800000000000 + i * 200000000, scale * random.lognormvariate(0, 0.05)))
        open(d + "/probe.csv", "w").write("\n".join(rows) + "\n")
PY
"$PY" mk.py
"$PS" ingest -q --db c.db cmp 2>/dev/null

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline c6i.large --stats p50 --format json
expect_code 0 "compare runs"
js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r={x[\"value\"]: x for x in json.load(sys.stdin)}; $1"; }
ok "js 'assert len(r) == 7, r; s=r[\"r7i.large\"]; assert abs(s[\"p\"] - 2/252) < 1e-9 and s[\"p\"] <= s[\"p_adj\"] < 0.05, s'" "the slower type: the smallest p there is, 2/252, adjusted below 0.05"
ok "js 's=r[\"r7i.large\"]; assert s[\"verdict\"].startswith(\"worse: +\"), s'" "its row says worse"
ok "js 'assert not any(\"no row can pass\" in x[\"verdict\"] for x in r.values()), r'" "no row says none can pass"

# one type compared: no adjustment, and the floor 2/252 passes
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline c6i.large --where instance_type=c6i.large,r7i.large --stats p50 --format json
ok "js 's=r[\"r7i.large\"]; assert s[\"verdict\"].startswith(\"worse\"), s'" "one row alone: worse, as before"
test_done
