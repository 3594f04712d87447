# t5330: instance-cap when every path sits at the instance's rate:
# 7 paths at 12.17-12.55 Gbit/s in P=4 are one cap, filed on
# throughput, worded "all 7 paths at the instance's 12.2-12.6 Gbit/s",
# not "4 of 7 paths on plateau, 3 slower" (which invites ranking paths
# 3 % apart).  Counter-example: plant cap3 (3 paths capped, one 20 %
# slower) keeps "3 of 4 paths".

"$PY" "$FIX/check/gen_check.py" plant cap7 --out cap7
"$PS" ingest -q --db cap7.db cap7 2>/dev/null
run "$PS" check --db cap7.db --only instance-cap --format json
expect_code 3 "7 paths 3 % apart: instance-cap"
printf '%s' "$OUT" > c7.json
ok "\"\$PY\" -c '
import json
r = json.load(open(\"c7.json\"))
assert len(r) == 7 and all(x[\"metric\"] == \"throughput_bps\" for x in r), r
e = r[0][\"evidence\"]
assert e.startswith(\"all 7 paths at the instance\\x27s 12.2–12.6 Gbit/s\"), e
assert \"slower\" not in e, e
'" "all 7 paths, on throughput, 12.2-12.6 Gbit/s"
"$PY" "$FIX/check/gen_check.py" plant cap3 --out cap3
"$PS" ingest -q --db cap3.db cap3 2>/dev/null
run "$PS" check --db cap3.db --only instance-cap --format json
ok "printf '%s' \"\$OUT\" | grep -q '3 of 4 paths sit on one plateau'" "counter-example: 3 of 4 paths, one slower"
test_done
