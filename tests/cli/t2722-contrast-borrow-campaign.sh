# t2722: a delta borrows what its sides' percentile intervals borrow
# (a ratio, across conditions, calls the same function).  The campaign of t2720 (8 paths x 5 trials x 300 probes, 6 of
# the 40 trials 1.5x slower, none of P1's or P4's).  Selected together,
# each side of P1-P4 takes the spread of the 8 cells' trials
# (stats_tl_contrast_borrow(), Welch-Satterthwaite over the borrowed
# spreads): the harness's slow campaign then holds 95.1-97.2 % where its
# own Welch interval held up to 98.7 %, and the clean and noisy
# campaigns stay at 93.9-97.2 % (docs/research/coverage.md).  The interval
# differs from the one of P1 and P4 selected alone (their own trials),
# and the table says it borrowed; alone it says the selection cannot see
# slow runs that come and go.  Before, both selections printed the same
# interval with no note.

cat > mk.py <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
from probe_campaign import Campaign
random.seed(2720)
c = Campaign(600)
slow = {("P2", 3), ("P3", 1), ("P3", 4), ("P5", 2), ("P7", 5), ("P8", 2)}
for p in range(1, 9):
    path = "P%d" % p
    for t in range(1, 6):
        b = random.gauss(0, 0.05)
        f = 1.5 if (path, t) in slow else 1.0
        c.probe("c/%s/t%d" % (path, t), {"path": path, "trial": t},
                [10 * f * random.lognormvariate(b, 0.3) for _ in range(300)])
PY
"$PY" mk.py "$TOP/tests/cli/helper"
"$PS" ingest -q --db c.db c 2>/dev/null

for verb in delta; do
	run "$PS" analyze $verb --db c.db --metric connect_ms --ci \
	    --stats p50 P1-P4 --format json
	expect_code 0 "$verb --ci P1-P4, the campaign: exit 0"
	cp .out all.json
	run "$PS" analyze $verb --db c.db --metric connect_ms --ci \
	    --stats p50 P1-P4 --where path=P1,P4 --format json
	expect_code 0 "$verb --ci P1-P4, alone: exit 0"
	cp .out one.json
	ok "\"\$PY\" -c 'import json
a = json.load(open(\"all.json\"))[0]
o = json.load(open(\"one.json\"))[0]
assert a[\"p50\"] == o[\"p50\"], (a, o)
assert a[\"p50_ci_covers\"] == o[\"p50_ci_covers\"] == \"trials\"
wa = a[\"p50_hi\"] - a[\"p50_lo\"]
wo = o[\"p50_hi\"] - o[\"p50_lo\"]
assert abs(wa - wo) > 0.05 * wo, (wa, wo)
assert a[\"p50_lo\"] < a[\"p50\"] < a[\"p50_hi\"]'" \
	    "$verb P1-P4: the campaign's interval is not the pair's own"
	run "$PS" analyze $verb --db c.db --metric connect_ms --ci \
	    --stats p50 P1-P4
	expect_out_has "interval(s) borrowed the spread of the trials of the selection's cells of their design" \
	    "$verb, the campaign: the note says the sides borrowed"
	run "$PS" analyze $verb --db c.db --metric connect_ms --ci \
	    --stats p50 P1-P4 --where path=P1,P4
	expect_out_has "a selection this small cannot see slow runs that come and go" \
	    "$verb, P1 and P4 alone: it says it cannot see them"
done

test_done
