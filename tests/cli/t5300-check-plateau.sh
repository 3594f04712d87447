# t5300: instance-cap and udp-sender-limited.  Three paths within 1.5 %
# at the top are the instance's limit; two (article 1's A and B at 12.41)
# are not enough to tell; UDP at one rate on 3+ paths is the sender's;
# UDP rates that differ (a clean campaign) are no finding.

gen() { "$PY" "$FIX/check/gen_check.py" plant "$1" --out "$1" &&
	"$PS" ingest -q --db "$1.db" "$1" 2>/dev/null; }

gen cap3
run "$PS" check --db cap3.db --format json
expect_code 1 "three paths at ~12.4 Gbit/s: a finding"
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
expect_code 0 "counter-example: two paths at 12.4 Gbit/s and two slower ones"

# UDP: the sample tree's A-D at 4.98 against a clean campaign's rates
cp -r "$TOP/samples/tree/tokyo-osaka" t
"$PS" ingest -q --db t.db t 2>/dev/null
run "$PS" check --db t.db --where day=2026-08-28 --only udp-sender-limited --format json
expect_code 1 "UDP -b 0 at 4.98 Gbit/s on A-D: a finding"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert [x[\"path\"] for x in r] == [\"A\", \"B\", \"C\", \"D\"], r'" "one finding per UDP cell, A-D"
"$PY" "$FIX/check/gen_check.py" clean --seed 4242 --out clean --jobs 1
"$PS" ingest -q --db clean.db clean 2>/dev/null
run "$PS" check --db clean.db --only udp-sender-limited,instance-cap
expect_code 0 "counter-example: UDP and TCP rates that differ by path"
test_done
