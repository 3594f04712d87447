# t5300: instance-cap and udp-sender-limited.  Three paths within 1.5 %
# at the top are the instance's limit; two in one condition are not
# enough to tell, two in every TCP condition, flat (article 1's A and B
# at 4.96 and 12.41), are; UDP at one rate on 3+ paths is the sender's;
# UDP rates that differ (a clean campaign) are no finding.
# tier: sim

gen() { "$PY" "$FIX/check/gen_check.py" plant "$1" --out "$1" &&
	"$PS" ingest -q --db "$1.db" "$1" 2>/dev/null; }

gen cap3
run "$PS" check --db cap3.db --format json
expect_code 3 "three paths at ~12.4 Gbit/s: a finding"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert sorted(x[\"path\"] for x in r if x[\"check\"] == \"instance-cap\") == [\"A\", \"B\", \"C\"], r
x = r[0]
assert \"3 of 4 paths sit on one plateau at 12.43 Gbit/s\" in x[\"evidence\"], x
assert \"1 other path is slower\" in x[\"evidence\"] and \"c7g.xlarge\" in x[\"cause\"]
assert x[\"condition\"] == \"P=4,proto=tcp\" and x[\"trial\"] is None
assert x[\"files\"].count(\"tcp_P4.json\") == 3
'" "instance-cap on A, B, C (not the slower D), with the plateau's numbers"

gen cap2
run "$PS" check --db cap2.db
expect_code 0 "counter-example: two paths at 12.4 Gbit/s and two slower ones, in one condition only"

# Two paths on one plateau in every TCP condition, flat, at the top of
# the table: article 1's A and B (4.96 with one flow, 12.41 with four)
cp -r "$TOP/samples/tree/tokyo-osaka" t
"$PS" ingest -q --db t.db t 2>/dev/null
run "$PS" check --db t.db --where day=2026-08-28 --only instance-cap --format json
expect_code 3 "A and B at 4.96 and 12.41: a cap"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert [(x[\"path\"], x[\"condition\"]) for x in r] == [(\"A\", \"P=1,proto=tcp\"), (\"B\", \"P=1,proto=tcp\"), (\"A\", \"P=4,proto=tcp\"), (\"B\", \"P=4,proto=tcp\")], r
e = r[0][\"evidence\"]
assert e.startswith(\"A and B, the two fastest of 5 paths, sit together in every TCP condition measured on both: P=1,proto=tcp 4.96 and 4.96 Gbit/s\"), e
assert \"P=4,proto=tcp 12.41 and 12.41 Gbit/s\" in e and \"the next path is at least 15 % slower\" in e, e
'" "instance-cap names A and B in P=1 and P=4 with the numbers"
# and not on five near-tie campaigns (tslow-check-clean.sh: 100)
"$PY" "$FIX/check/gen_check.py" clean --ties --seed 7 --campaigns 5 --out ties --jobs 1
"$PS" ingest -q --db ties.db ties 2>/dev/null
run "$PS" check --db ties.db --only instance-cap
expect_code 0 "counter-example: two fastest paths 0-3 % apart by chance, no cap"

# UDP: the sample tree's A-D at 4.98 against a clean campaign's rates
run "$PS" check --db t.db --where day=2026-08-28 --only udp-sender-limited --format json
expect_code 3 "UDP -b 0 at 4.98 Gbit/s on A-D: a finding"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert [x[\"path\"] for x in r] == [\"A\", \"B\", \"C\", \"D\"], r'" "one finding per UDP cell, A-D"
"$PY" "$FIX/check/gen_check.py" clean --seed 4242 --out clean --jobs 1
"$PS" ingest -q --db clean.db clean 2>/dev/null
run "$PS" check --db clean.db --only udp-sender-limited,instance-cap
expect_code 0 "counter-example: UDP and TCP rates that differ by path"
test_done
