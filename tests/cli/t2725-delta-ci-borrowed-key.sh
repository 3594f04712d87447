# t2725: delta's JSON says, per statistic, how many cells of their
# design its interval borrowed the spread of (<stat>_ci_borrowed, the
# fewer side's; 0: the pair's own Welch interval), as percentiles'
# does, and the note names the key.  8 paths x 5 trials x 300 probes,
# one design: P1-P4 and P2-P7 borrow from the 8 cells; P1 and P4
# selected alone (two cells) from none.  A statistic with no interval
# (n) says 0.  Before, delta's JSON had no such key.

cat > mk.py <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
from probe_campaign import Campaign
random.seed(2725)
c = Campaign(600)
for p in range(1, 9):
    for t in range(1, 6):
        b = random.gauss(0, 0.08)
        c.probe("c/P%d/t%d" % (p, t), {"path": "P%d" % p, "trial": t},
                [10 * random.lognormvariate(b, 0.3) for _ in range(300)])
PY
"$PY" mk.py "$TOP/tests/cli/helper"
"$PS" ingest -q --db c.db c 2>/dev/null

run "$PS" analyze delta --db c.db --metric connect_ms --ci --stats p50,p75,n \
    P1-P4 P2-P7 --format json
expect_code 0 "delta --ci, the campaign: exit 0"
ok "\"\$PY\" -c 'import json, sys
rows = json.load(open(\".out\"))
assert len(rows) == 2, rows
for r in rows:
    assert r[\"p50_ci_borrowed\"] == 8 and r[\"p75_ci_borrowed\"] == 8, r
    assert r[\"p50_ci_covers\"] == \"trials\", r
    assert r[\"n_ci_borrowed\"] == 0, r'" \
    "the campaign: p50_ci_borrowed = p75_ci_borrowed = 8, n 0"
run "$PS" analyze delta --db c.db --metric connect_ms --ci --stats p50 \
    P1-P4 --where path=P1,P4 --format json
expect_code 0 "delta --ci, P1 and P4 alone: exit 0"
ok "\"\$PY\" -c 'import json
r = json.load(open(\".out\"))[0]
assert r[\"p50_ci_borrowed\"] == 0 and r[\"p50_ci_covers\"] == \"trials\", r'" \
    "alone: p50_ci_borrowed = 0, the pair's own interval"
run "$PS" analyze delta --db c.db --metric connect_ms --ci --stats p50 P1-P4
expect_out_has 'up to 8 cells, \<stat\>\_ci\_borrowed = cells)' \
    "the note names the key"
run "$PS" analyze delta --db c.db --metric connect_ms --stats p50 P1-P4 \
    --format json
ok "\"\$PY\" -c 'import json
r = json.load(open(\".out\"))[0]
assert \"p50_ci_borrowed\" not in r, r'" \
    "without --ci: no such key"

test_done
