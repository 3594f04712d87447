# t2980: the interface of `pathstat plan` (how many trials and attempts
# per trial a campaign needs, before it runs): --help, the usage errors
# naming what exists, JSON rows with the design, the rank the
# percentile is read at and the assumptions with where each came from,
# a percentile among the timeouts, and the flag on a p99 of fewer than
# 1,000 samples.  A model on the command line needs no database.

M="--metric connect_ms --format json"

run "$PS" plan --help
expect_code 0 "--help exits 0"
expect_out_has "--width W%" "... and lists --width"
expect_out_has "--model K=V,..." "... and --model"

run "$PS" plan --metric nope --stat p99 --width 5% --model within=0.3,trial=0.05
expect_code 2 "an unknown metric is a usage error"
expect_err_has "known: connect_ms" "... naming the metrics"

run "$PS" plan $M --stat q99 --width 5% --model within=0.3,trial=0.05
expect_code 2 "an unknown statistic is a usage error"
expect_err_has "plan takes a percentile" "... saying what it takes"

run "$PS" plan $M --stat mean --width 5% --model within=0.3,trial=0.05
expect_code 2 "the mean is not planned (yet)"

run "$PS" plan $M --stat p99 --width 5% --model within=0.3,tril=0.05
expect_code 2 "an unknown --model key is a usage error"
expect_err_has "known: median, within, trial, day, loss" "... naming the keys"

run "$PS" plan $M --stat p99 --width 5% --model within=0.3,trial=-1
expect_code 2 "a negative spread is a usage error"

run "$PS" plan $M --stat p99 --model within=0.3,trial=0.05
expect_code 2 "--width is required"

run "$PS" plan $M --stat p99 --width 5% --pool sometimes --model within=0.3,trial=0.05
expect_code 2 "an unknown --pool is a usage error"

run "$PS" plan $M --stat p95 --width 5% --model within=0.3,trial=0.05,loss=0.5% --db /nonexistent/x.db
expect_code 0 "a model with within and trial reads no database"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
r=json.load(sys.stdin); assert len(r)==1, r; x=r[0]
for k in (\"path\",\"condition\",\"stat\",\"trials\",\"per_trial\",\"width_pct\",\"minutes\",\"within\",\"within_from\",\"between\",\"between_from\",\"loss\",\"loss_from\",\"rank\"): assert k in x, k
assert x[\"path\"]==\"(model)\" and x[\"stat\"]==\"p95\" and x[\"pool\"]==\"trials\", x
assert x[\"within_from\"]==x[\"between_from\"]==x[\"loss_from\"]==\"command line\", x
assert x[\"trials\"]>=3 and x[\"per_trial\"]>0 and x[\"width_pct\"]<=5, x
'" "JSON row: the design, the predicted width and the assumptions' sources"

run "$PS" plan $M --stat p99 --width 10% --model within=0.3,trial=0.05,loss=1%
expect_code 0 "p99 at 1 % timeouts: planned"
expect_out_has "lies among the timeouts" "... and no number of probes measures it"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; x=json.load(sys.stdin)[0]; assert x[\"trials\"] is None and x[\"minutes\"] is None, x'" \
    "... so no trials and no minutes"

run "$PS" plan $M --stat p99 --width 10% --per-trial 300 --model within=0.2,trial=0.02
expect_out_has '"rank": "the 3rd slowest of 300"' "p99 of 300 is the third-slowest"
expect_out_has "a p99 from fewer than 1000 samples" "... flagged: fewer than 1,000 samples"

run "$PS" plan $M --stat p99 --width 10% --per-trial 2000 --model within=0.2,trial=0.02
expect_out_lacks "fewer than 1000" "p99 of 2,000: not flagged"

run "$PS" plan --metric connect_ms --stat p50 --width 5% --model within=0.3,trial=0.05 --format md
expect_out_has "| (model) |" "Markdown shows the row"
expect_out_has "_Trials and attempts per trial for a 95 % interval of ±5 % on p50 (pooled)" \
    "... and says what it planned"

test_done
