# t2724: where days are a compare row's unit (the sides measured on
# different days, or on the same two or more days), its interval is the
# days' (a t on each day's mean log statistic, t2413): it borrows no
# trial spread from the campaign, and the note counts only the rows of
# trials that did.  8 paths x 2 values of a tag x 5 trials x 300 probes:
# P1-P6 both on one day (trials the unit: they borrow the 16 cells'
# spread), P7 each value on three days of its own (t-days), P8 both on
# the same three days (paired-t-days).  P7's and P8's intervals are
# those of each alone, which borrows nothing; the note says 6 rows
# borrowed.  Before, no row borrowed and no note said so.

cat > mk.py <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
from probe_campaign import Campaign, T0, iso
random.seed(2724)
c = Campaign(600)
eff = {d: random.gauss(0, 0.1) for d in range(8)}
k = 0
for p in range(1, 9):
    path = "P%d" % p
    for it, sc in (("x", 1.0), ("y", 1.2)):
        for t in range(1, 6):
            # P7: x on days 1-3, y on days 4-6; P8: both on days 1-3
            day = 0 if p <= 6 else 1 + (t - 1) // 2 + (3 if p == 7 and it == "y" else 0)
            b = random.gauss(0, 0.08) + (eff[day] if day else 0)
            k += 1
            t0 = T0 + 86400 * day + 600 * k
            c.probe("c/%s/%s/t%d" % (path, it, t), {"cc": it, "path": path, "trial": t},
                    [10 * sc * random.lognormvariate(b, 0.3) for _ in range(300)],
                    t0=t0, start=iso(t0))
PY
"$PY" mk.py "$TOP/tests/cli/helper"
"$PS" ingest -q --db c.db c 2>/dev/null

run "$PS" analyze compare --db c.db --metric connect_ms --by cc --pool trials \
    --stats p50 --format json
expect_code 0 "compare, the campaign: exit 0"
cp .out all.json
for p in P7 P8; do
	run "$PS" analyze compare --db c.db --metric connect_ms --by cc \
	    --pool trials --stats p50 --where path=$p --format json
	expect_code 0 "compare, $p alone: exit 0"
	cp .out $p.json
done
ok "\"\$PY\" -c 'import json
r = {x[\"path\"]: x for x in json.load(open(\"all.json\"))}
assert [r[\"P%d\" % i][\"unit\"] for i in range(1, 9)] == [\"trials\"] * 6 + [\"days\", \"shared days\"], r
for p, test in ((\"P7\", \"t-days\"), (\"P8\", \"paired-t-days\")):
    o = json.load(open(p + \".json\"))[0]
    assert r[p][\"test\"] == o[\"test\"] == test, (r[p], o)
    for k in (\"ratio\", \"ratio_lo\", \"ratio_hi\", \"p\"):
        assert r[p][k] == o[k] and r[p][k] is not None, (p, k, r[p], o)
    assert r[p][\"diff_lo\"] is None, r[p]'" \
    "days as the unit: the days' interval, the same as alone"
run "$PS" analyze compare --db c.db --metric connect_ms --by cc --pool trials \
    --stats p50
expect_out_has "6 interval(s) borrowed the spread of the trials of the selection's cells of their design" \
    "the note counts the 6 rows of trials, not the rows over days"
expect_out_lacks "a selection this small cannot see" \
    "rows over days are not said to lack a campaign"

test_done
