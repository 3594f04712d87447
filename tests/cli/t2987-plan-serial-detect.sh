# t2987: `pathstat plan --detect` counts a series' samples as n_eff =
# n (1 - rho) / (1 + rho) too (docs/plan.md): a trial of 30 intervals at
# rho 0.8 is worth 30 / 9 independent ones, so its value varies more and
# compare needs more trials a side to see the same difference; the row
# names rho and where it came from.  The trials a side at rho 0.8 equal
# those planned at rho 0 for the trial of n_eff samples it is worth
# (the model's only use of rho), which ties the two without an oracle
# of its own (t2986 checks n_eff's arithmetic against scipy).

jd() { printf '%s' "$OUT" | "$PY" -c "import json,sys; x=json.load(sys.stdin)[0]; $1"; }
M="--metric throughput_bps --stat p50 --detect 10%"

run "$PS" plan $M --per-trial 30 --model within=0.15,trial=0.02,rho=0.8 --format json
expect_code 0 "plan --detect with rho"
T8=$(jd 'print(x["trials"])')
ok "jd 'assert x[\"rho\"] == 0.8 and x[\"rho_from\"] == \"command line\", x'" \
    "the --detect row names rho and its source"

run "$PS" plan $M --per-trial 30 --model within=0.15,trial=0.02,rho=0 --format json
T0=$(jd 'print(x["trials"])')
ok "[ \"$T8\" -gt \"$T0\" ]" \
    "rho 0.8 needs more trials a side than independent samples ($T8 > $T0)"

# 30 (1 - 0.8) / (1 + 0.8) = 3.33: between 3 and 4 independent samples
run "$PS" plan $M --per-trial 3 --model within=0.15,trial=0.02,rho=0 --format json
T3=$(jd 'print(x["trials"])')
run "$PS" plan $M --per-trial 4 --model within=0.15,trial=0.02,rho=0 --format json
T4=$(jd 'print(x["trials"])')
ok "[ \"$T4\" -le \"$T8\" ] && [ \"$T8\" -le \"$T3\" ]" \
    "... as many as a trial of 3-4 independent samples ($T4 <= $T8 <= $T3)"

test_done
