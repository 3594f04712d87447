# t2711: docs/research/intervals.md, the page a reader of a published table
# follows ("when pathstat withholds"), names every reason the
# program gives for an absent interval.  Small trees make each reason
# the articles' designs run into: a censored p99 (3 x 300 probes, 1 %
# timeouts), one run (p99 of 300 samples, serially correlated probes, an
# iperf3 run), 2 trials, pooled tails, a plateau at a rate cap, p95 of 8
# samples a trial, a max, identical paths (growth), an outlier trial
# and a cause shared by two cells; every <stat>_ci_reason (and
# diff_/ratio_/growth_ci_reason) that percentiles, delta, ratio and
# compare print in JSON is looked up on the page, numbers matched as
# numbers or as the page's placeholders (N, M).  Before, "censored: ≥
# timeout", "n too small for an order-statistic interval", "no interval
# for this statistic" and "2 trials: collect ≥ 3 trials for a
# trial-level interval" (abbreviated there) were printed but not on the
# page.

. "$TOP/tests/cli/helper/censor-trials.sh"
censor_trials_tree
"$PS" ingest -q --db c.db tree 2>/dev/null

cat > mk.py <<'PY'
import json, math, os, random, sys
sys.path.insert(0, os.path.join(os.environ["FIX"], "check"))
import gen_check as gc
import gen_samples as gs
random.seed(2711)
t0 = [1788220800]
def probe(d, path, trial, vals, cond=None):
    os.makedirs(d, exist_ok=True)
    meta = {"path": path, "trial": trial}
    if cond:
        meta["condition"] = cond
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(vals),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(vals):
        rows.append("%d,%d,%.3f,ok" % (i, t0[0] * 10**9 + i * 200000000, v))
    t0[0] += 600
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
ln = lambda m, n: [m * random.lognormvariate(0, 0.3) for _ in range(n)]
# one run of 300 independent probes; one of 300 AR(1) rho 0.9 probes
probe("a/ONE/t1", "ONE", 1, ln(10, 300))
z, ar = 0.0, []
for i in range(300):
    z = 0.9 * z + math.sqrt(1 - 0.81) * random.gauss(0, 1)
    ar.append(10 * math.exp(0.3 * z))
probe("a/AR/t1", "AR", 1, ar)
# 2 trials; identical paths X and Y of 3 x 300 (growth)
for t in (1, 2):
    probe("a/TWO/t%d" % t, "TWO", t, ln(10, 300))
for p in ("X", "Y"):
    for t in (1, 2, 3):
        probe("a/%s/t%d" % (p, t), p, t, ln(10, 300))
# rate-capped trials, 8 values each, two sharing the cap 183
cap = lambda c, low: sorted(low + [c] * (8 - len(low)))
for t, v in enumerate([cap(183, [150]), cap(183, [152]), cap(179, [140, 160, 170])], 1):
    probe("p/CAP/t%d" % t, "CAP", t, v)
for t, v in enumerate([cap(178, [120, 150, 160]), cap(199, []), cap(189, [130])], 1):
    probe("p/CAPB/t%d" % t, "CAPB", t, v)
# one iperf3 run
d = "i/P/trial1"
gs.write_meta(d, {"path": "P", "trial": 1})
gc.iperf_run(d, "P", 1, "P1", gs.epoch("2026-09-01", 1, 0), [0.9 + 0.01 * random.random() for _ in range(10)], 5)
PY
"$PY" mk.py
"$PS" ingest -q --db a.db a 2>/dev/null
"$PS" ingest -q --db p.db p 2>/dev/null
"$PS" ingest -q --db i.db i 2>/dev/null
# two cells of eight with an outlier trial (a TIME_WAIT trial, a 2x one)
"$PY" "$FIX/check/gen_check.py" plant trial-outliers --out o
"$PS" ingest -q --db o.db o 2>/dev/null
# and one alone
"$PY" "$FIX/check/gen_check.py" plant trial-timewait --out w
"$PS" ingest -q --db w.db w 2>/dev/null

: > reasons.txt
# keep ARGS...: the JSON's non-null *_ci_reason values into reasons.txt
keep() {
	run "$PS" analyze "$@" --format json
	expect_code 0 "analyze $*"
	printf '%s' "$OUT" | "$PY" -c "import json, sys
for x in json.load(sys.stdin):
    for k, v in x.items():
        if k.endswith('_ci_reason') and v:
            print(v)" >> reasons.txt
}
S="--stats p50,p95,p99,max --ci"
for pool in pooled trials; do
	keep percentiles --db c.db --metric connect_ms --by instance_type $S --pool $pool
	keep delta --db c.db --metric connect_ms --where instance_type=m5 $S --pool $pool A-B
	keep percentiles --db a.db --metric connect_ms $S --pool $pool
	keep delta --db a.db --metric connect_ms $S --pool $pool X-Y
	keep percentiles --db p.db --metric connect_ms $S --pool $pool
	keep delta --db p.db --metric connect_ms $S --pool $pool CAPB-CAP
	keep percentiles --db i.db --metric throughput_bps --stats p50 --ci --pool $pool
	keep percentiles --db o.db --metric http_ms $S --pool $pool
	keep percentiles --db w.db --metric http_ms $S --pool $pool
done
keep compare --db c.db --metric connect_ms --by instance_type --where c=1 --stats p50,p99 --ci
sort -u reasons.txt > seen.txt

cat > look.py <<'PY'
import re, sys
doc = open(sys.argv[1]).read().replace("`", "").replace("\\", "")
doc = re.sub(r"\s+", " ", doc)
missing = []
for why in open(sys.argv[2]).read().splitlines():
    # a number in the program's text is a number or a placeholder here
    pat = "".join(r"(?:\d+|[A-Z])" if re.fullmatch(r"\d+", part) else re.escape(part)
                  for part in re.split(r"(\d+)", why))
    if not re.search(pat, doc):
        missing.append(why)
for m in missing:
    print("not in docs/research/intervals.md: " + m)
sys.exit(1 if missing else 0)
PY
for want in "censored: ≥ timeout" "n too small for an order-statistic interval" \
    "2 trials: collect ≥ 3 trials for a trial-level interval; pathstat plan --width W% says how many" \
    "no pooled interval beyond p25–p75: use --pool trials" \
    "too few samples for an interval on this percentile (see check few-samples); pathstat plan --width W% says how many a trial" \
    "the percentile sits on a plateau of equal values (a cap) shared by trials: no interval" \
    "a run's samples are a time series (serially correlated): no within-run interval; use ≥ 3 runs" \
    "the run's samples are serially correlated (lag-1 rank autocorrelation): too few independent samples for a within-run interval on this percentile; use ≥ 3 runs" \
    "no interval for this statistic" "Δp50 not distinguishable from 0" \
    "trial 2 is an outlier (check outlier-trial): no interval"; do
	ok 'grep -qxF "$want" seen.txt' "the trees make: $want"
done
ok 'grep -q "cells of 3 trials have an outlier trial" seen.txt' "the trees make: a cause shared by two cells"
run "$PY" look.py "$TOP/docs/research/intervals.md" seen.txt
ok '[ $RC = 0 ]' "docs/research/intervals.md names every reason printed ($OUT)"
test_done
