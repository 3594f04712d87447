# t2986: `pathstat plan` on iperf3's interval series.  A run's intervals
# are serially correlated (AR(1)-like, often at a cap): n of them are
# worth n_eff = n (1 - rho) / (1 + rho) independent samples, rho the
# lag-1 autocorrelation of each run's series in time order, the median
# over the pilot's runs (docs/plan.md).  Golden values from numpy and
# scipy (tests/fixtures/stats/gen_plan_rho.py, which also writes the
# pilot: 3 runs x 60 intervals AR(1) rho 0.8 capped at 0.95 Gbit/s, and
# the same runs shuffled): the fitted rho of each path, and the designs
# for a stated model with rho=.  The correlated pilot is worth fewer
# samples than the shuffled one and needs more trials (at a stated trial
# spread) or more intervals a trial.

G="$FIX/stats/plan_rho.json"
"$PY" -c "
import sys; sys.path.insert(0, '$FIX/stats')
import gen_plan_rho as g; g.make_pilot('$FIX')"
"$PS" ingest -q --db t.db pilot 2>/dev/null
expect_sql t.db "SELECT count(*) FROM runs" 6 "6 iperf3 runs ingested"

jl() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r={x.get('path') or '(model)': x for x in json.load(sys.stdin)}; g=json.load(open('$G')); $1"; }

run "$PS" plan --db t.db --metric throughput_bps --stat p50 --width 5% --per-trial 60 --model trial=0.02 --format json
expect_code 0 "plan from an iperf3 pilot"
ok "jl 'assert abs(r[\"A\"][\"rho\"] - g[\"pilot\"][\"A\"][\"rho\"]) < 1e-9, (r[\"A\"], g[\"pilot\"][\"A\"])'" \
    "the correlated runs' rho is numpy's lag-1 acf, the median over runs"
ok "jl 'assert r[\"B\"][\"rho\"] == g[\"pilot\"][\"B\"][\"rho\"] == 0, r[\"B\"]'" \
    "the shuffled runs' rho (negative median) is clamped to 0"
ok "jl 'assert r[\"A\"][\"rho_from\"].startswith(\"pilot\") and r[\"B\"][\"rho_from\"].startswith(\"pilot\"), r'" \
    "... each row says rho came from the pilot"
ok "jl 'assert r[\"A\"][\"trials\"] > r[\"B\"][\"trials\"], (r[\"A\"][\"trials\"], r[\"B\"][\"trials\"])'" \
    "the correlated pilot needs more trials of 60 intervals than the shuffled one"
ok "jl 'import re; n = int(re.search(r\"60 count as (\\d+) independent\", r[\"A\"][\"note\"]).group(1)); rho = g[\"pilot\"][\"A\"][\"rho\"]; assert n == round(60 * (1 - rho) / (1 + rho)), r[\"A\"][\"note\"]'" \
    "the note gives the effective samples n (1 - rho) / (1 + rho)"

run "$PS" plan --db t.db --metric throughput_bps --stat p50 --width 5% --model trial=0.02 --format json
ok "jl 'assert r[\"A\"][\"per_trial\"] > 4 * r[\"B\"][\"per_trial\"], (r[\"A\"], r[\"B\"])'" \
    "without --per-trial: the correlated runs need several times the intervals"

for i in 0 1 2; do
	args=$("$PY" -c "import json; m=json.load(open('$G'))['model'][$i]; print('--stat %s --width %g%% --per-trial %d --model within=%g,trial=%g,rho=%g' % (m['stat'], m['width'], m['per_trial'], m['within'], m['trial'], m['rho']))")
	run "$PS" plan --metric throughput_bps $args --format json
	expect_code 0 "plan $args"
	ok "jl 'm = g[\"model\"][$i]; x = r[\"(model)\"]; assert x[\"trials\"] == m[\"trials\"] and abs(x[\"width_pct\"] - m[\"width_pct\"]) < 1e-6 * m[\"width_pct\"], (x, m)'" \
	    "... trials and half-width match scipy with n_eff ($args)"
done
ok "jl 'x = r[\"(model)\"]; assert x[\"rho\"] == 0.8 and x[\"rho_from\"] == \"command line\", x'" \
    "--model rho= is named as from the command line"

run "$PS" plan --metric connect_ms --stat p50 --width 5% --model within=0.3,trial=0.05 --format json
ok "jl 'x = r[\"(model)\"]; assert x[\"rho\"] == 0 and x[\"rho_from\"].startswith(\"assumed 0\"), x'" \
    "without rho=, a stated model assumes independent samples"

run "$PS" plan --metric throughput_bps --stat p50 --width 5% --model within=0.1,trial=0.02,rho=1
expect_code 2 "rho=1 is a usage error (no independent samples at all)"
expect_err_has "rho: bad value" "... naming the key"

test_done
