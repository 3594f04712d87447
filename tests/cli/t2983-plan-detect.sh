# t2983: the interface of `pathstat plan --detect X%`: the trials a side
# (or days, where the day is the unit) that let compare detect a
# difference of X % with 80 % power, under compare's own test and its
# multiplicity adjustment over the k - 1 rows of k groups.  Usage errors;
# JSON rows with trials, days, per_trial, power, minutes and the
# assumptions with their sources; the groups counted from the pilot's
# values of --between; the day as the unit (--between day), with a range
# when no day-to-day spread is known; a one-trial pilot gives a range.

M="--metric connect_ms --format json"
MOD="--model within=0.3,trial=0.05"

run "$PS" plan --help
expect_code 0 "--help exits 0"
expect_out_has "--detect X%" "... and lists --detect"
expect_out_has "--between KEY" "... and --between"

run "$PS" plan $M --stat p95 $MOD
expect_code 2 "neither --width nor --detect: a usage error"
expect_err_has "one of --width or --detect" "... saying so"

run "$PS" plan $M --stat p95 --width 5% --detect 10% $MOD
expect_code 2 "both --width and --detect: a usage error"

run "$PS" plan $M --stat p95 --detect 10 $MOD
expect_code 2 "--detect without a percent sign is a usage error"
expect_err_has "a difference in percent" "... saying what it takes"

run "$PS" plan $M --stat p95 --detect 10% --unit weeks $MOD
expect_code 2 "an unknown --unit is a usage error"

run "$PS" plan $M --stat p95 --detect 10% --groups 4 --per-trial 300 $MOD --db /nonexistent/x.db
expect_code 0 "--detect from a model reads no database"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
r=json.load(sys.stdin); assert len(r)==1, r; x=r[0]
for k in (\"path\",\"condition\",\"stat\",\"trials\",\"days\",\"per_trial\",\"power\",\"minutes\",\"groups\",\"unit\",\"adjustment\",\"within\",\"within_from\",\"between\",\"between_from\",\"day_from\",\"loss\",\"loss_from\"): assert k in x, k
assert x[\"unit\"]==\"trials\" and x[\"days\"] is None and x[\"groups\"]==4, x
assert x[\"adjustment\"]==\"Holm\" and x[\"per_trial\"]==300, x
assert x[\"power\"]>=0.8 and x[\"trials\"]>=2, x
assert abs(x[\"minutes\"]-4*x[\"trials\"]*300*0.2/60)<1e-9, x
assert \"3 rows against one baseline\" in x[\"note\"], x
'" "JSON row: trials a side, power, minutes for all groups, the adjustment named"

run "$PS" plan $M --stat p50 --detect 10% --between day --per-trial 1000 $MOD
expect_code 0 "--between day: planned"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
x=json.load(sys.stdin)[0]
assert x[\"unit\"]==\"days\" and x[\"trials_per_day\"]==3, x
assert x[\"days\"] is None and 2 <= x[\"days_lo\"] < x[\"days_hi\"], x
assert x[\"trials_hi\"]==3*x[\"days_hi\"], x
assert \"give --model day=\" in x[\"day_from\"] and \"give --model day=\" in x[\"note\"], x
'" "... the day is the unit; no day spread known: a range of days"

run "$PS" plan $M --stat p50 --detect 10% --between day --per-trial 1000 --model within=0.3,trial=0.05,day=0.05
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
x=json.load(sys.stdin)[0]
assert x[\"days\"]>=2 and x[\"trials\"]==3*x[\"days\"] and x[\"day_from\"]==\"command line\", x
'" "... with --model day=: a number of days"

have_prereq NUMPY || { test_done; exit 0; }

cat > mk.py <<'PY'
import json, os
import numpy as np
def probe(d, path, trial, values):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(path=path, trial=trial), open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(values),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, v))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
rng = np.random.default_rng(2983)
for path, trials in (("A", 3), ("B", 3), ("C", 3), ("S", 1)):
    for t in range(1, trials + 1):
        v = 10 * np.exp(0.05 * rng.normal() + 0.3 * rng.normal(size=400))
        probe("u/%s/t%d" % (path, t), path, t, list(v))
PY
"$PY" mk.py
"$PS" ingest -q --db t.db u 2>/dev/null

run "$PS" plan --db t.db $M --stat p95 --detect 10% --between path --where path=A,B,C
expect_code 0 "--detect from a pilot"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
r=json.load(sys.stdin); assert [x[\"path\"] for x in r]==[\"A\",\"B\",\"C\"], r
for x in r:
    assert x[\"groups\"]==3 and x[\"per_trial\"]==400, x
    assert x[\"within_from\"]==\"pilot\", x
    assert x[\"between_from\"].startswith(\"pilot, \") and x[\"between_from\"].endswith(\" trials, 50 % upper bound\"), x
    assert x[\"trials\"]>=2 and x[\"power\"]>=0.8, x
'" "... 3 paths: 3 groups, the pilot's 400 attempts a trial, its spreads"

run "$PS" plan --db t.db $M --stat p95 --detect 10% --where path=S
expect_code 0 "--detect from a one-trial pilot"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
x=json.load(sys.stdin)[0]
assert x[\"trials\"] is None and 2 <= x[\"trials_lo\"] < x[\"trials_hi\"], x
assert \"add 2 runs of each path\" in x[\"note\"], x
'" "... a range of trials, and the runs to add"

test_done
