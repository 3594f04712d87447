# t2610: the intervals analyze prints.  Campaigns built so the
# answer is known: one trial (a within-run interval that covers sampling
# only), two (no interval, and how many trials to collect), three and
# five with trials that drift (a trial-level interval, at least as wide as
# the trials' own spread; a pooled p99 gets none and says why), a pair of
# identical paths (growth withheld: Δp50 not distinguishable from 0), a
# pair that differs (growth with an interval), and 10 against 11 trials
# that do not overlap (compare names the test whose p it shows: the exact
# Mann–Whitney p = 2 / C(21, 10), not "brunner-munzel").
# The numbers behind the intervals are checked against scipy in
# tests/unit/t-interval.c; their coverage is in docs/research/coverage.md.

cat > mk.py <<'PY'
import json, os, random
random.seed(2610)
def probe(d, path, trial, tags, scale, n=300, sb=0.0):
    os.makedirs(d, exist_ok=True)
    meta = dict(tags, path=path, trial=trial)
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"))
    b = random.gauss(0, sb)
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=2026-09-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        rows.append("%d,%d,%.5f,ok" % (i, 1788220800000000000 + i * 200000000,
                                       scale * random.lognormvariate(b, 0.3)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
probe("iv/A/t1", "A", 1, {}, 1.0)
for t in (1, 2):
    probe("iv/B/t%d" % t, "B", t, {}, 1.0)
for t in (1, 2, 3):
    probe("iv/C/t%d" % t, "C", t, {}, 1.0, sb=0.1)
for t in range(1, 6):
    probe("iv/D/t%d" % t, "D", t, {}, 1.0, sb=0.1)
    probe("iv/E/t%d" % t, "E", t, {}, 1.0, sb=0.1)
    probe("iv/F/t%d" % t, "F", t, {}, 1.5, sb=0.02)
    probe("iv/G/t%d" % t, "G", t, {}, 1.0, sb=0.02)
# compare: 10 trials against 11, far apart
for t in range(1, 11):
    probe("cmp/x/M/t%d" % t, "M", t, {"instance_type": "x"}, 1.0, n=50)
for t in range(1, 12):
    probe("cmp/y/M/t%d" % t, "M", t, {"instance_type": "y"}, 2.0, n=50)
PY
"$PY" mk.py
"$PS" ingest -q --db i.db iv cmp 2>/dev/null

js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r={x['path']: x for x in json.load(sys.stdin)}; $1"; }
jl() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }
P="--db i.db --metric connect_ms"

run "$PS" analyze percentiles $P --where path=A,B,C,D --stats p50,p99 --ci --format json
expect_code 0 "percentiles --ci runs"
ok "js 'a=r[\"A\"]; assert a[\"p50_ci_covers\"] == \"samples\" and a[\"p50_lo\"] < a[\"p50\"] < a[\"p50_hi\"], a'" "one trial: a within-run interval, and JSON says it covers samples"
ok "js 'a=r[\"A\"]; assert a[\"p99_lo\"] is None and a[\"p99_ci_covers\"] is None, a'" "one trial of 300: no equal-tailed p99 interval (needs 367)"
ok "js 'b=r[\"B\"]; assert b[\"p50_lo\"] is None and b[\"p50_ci_covers\"] is None, b'" "two trials: no interval"
ok "js 'c=r[\"C\"]; assert c[\"p50_ci_covers\"] == \"trials\" and c[\"p50_lo\"] < c[\"p50\"] < c[\"p50_hi\"], c'" "three trials: a trial-level interval"
ok "js 'c=r[\"C\"]; assert c[\"p99_lo\"] is None and c[\"p99_ci_covers\"] is None, c'" "pooled p99: no interval"
# finding 1: the pooled order-statistic interval treated 1500 requests as
# independent and was narrower than the drift between the trials
cat > spread.py <<'PY'
import json, sqlite3, statistics, sys
db = sqlite3.connect("i.db")
r = {x["path"]: x for x in json.load(sys.stdin)}
d = r["D"]
meds = []
for (rid,) in db.execute("select r.id from runs r join paths p on p.id = r.path_id where p.name = 'D'"):
    v = sorted(x for (x,) in db.execute("select value from samples where run_id = ? and value is not null", (rid,)))
    meds.append(statistics.median(v))
assert len(meds) == 5, meds
# t(0.975, 4) = 2.776: the half-width the trials' own p50s alone ask for
half = 2.776 * statistics.stdev(meds) / 5 ** 0.5
assert d["p50_hi"] - d["p50_lo"] >= 0.8 * 2 * half, (d, half)
PY
ok "printf '%s' \"\$OUT\" | \"\$PY\" spread.py" "five drifting trials: the pooled p50 interval is as wide as the trials' spread asks"
run "$PS" analyze percentiles $P --where path=A,B,C --stats p50,p99 --ci
expect_out_has "2 trials: collect ≥ 3 trials for a trial-level interval" "Markdown says how many trials to collect"
expect_out_has "no pooled interval beyond p25–p75: use --pool trials." "Markdown says why pooled p99 has none"
expect_out_lacks "(no pooled interval" "the reason is a footnote said once, not a text in every cell"
ok "[ \"\$(printf %s \"\$OUT\" | grep -c 'no pooled interval beyond')\" = 1 ]" "one footnote line for a reason many cells share"
expect_out_has "covering within-run sampling only" "the caption says the single trial's interval covers sampling only"
expect_out_has "covering trial-to-trial variation and sampling" "the caption says the trial-level interval covers trials"
run "$PS" analyze percentiles $P --where path=C,D --stats p50,p99 --ci --pool trials --format json
ok "js 'd=r[\"D\"]; assert d[\"p99_ci_covers\"] == \"trials\" and d[\"p99_lo\"] < d[\"p99\"] < d[\"p99_hi\"], d'" "--pool trials p99: a trial-level interval"

# growth: withheld between identical paths, with an interval otherwise
run "$PS" analyze delta $P D-E F-G --ci --pool trials --format json
expect_code 0 "delta --ci runs"
ok "jl 'd=[x for x in r if x[\"pair\"]==\"D-E\"][0]; assert d[\"growth\"] is None and d[\"p50_lo\"] < 0 < d[\"p50_hi\"], d'" "identical paths: Δp50's interval holds 0, growth withheld"
ok "jl 'd=[x for x in r if x[\"pair\"]==\"F-G\"][0]; assert d[\"growth_lo\"] < d[\"growth\"] < d[\"growth_hi\"] and d[\"growth_ci_covers\"] == \"trials\" and d[\"p50_ci_covers\"] == \"trials\", d'" "a real difference: growth with a trial-level interval"
run "$PS" analyze delta $P D-E F-G --ci --pool trials
expect_out_has "–, Δp50 not distinguishable from 0" "Markdown says why growth is withheld"
run "$PS" analyze delta $P D-E
expect_out_has "–, Δp50 not distinguishable from 0" "growth is withheld without --ci too"
run "$PS" analyze delta $P F-G --ci --format json
ok "jl 'd=r[0]; assert d[\"p50_ci_covers\"] == \"trials\" and d[\"p99_lo\"] is None and d[\"growth_lo\"] is None and d[\"growth\"] > 0, d'" "pooled delta: p50 interval, none for p99 or growth (growth still shown)"

# compare: the test column names the test whose p is shown
run "$PS" analyze compare $P --where path=M --by instance_type --baseline x --stats p50 --ci --format json
expect_code 0 "compare runs"
ok "jl 'm=r[0]; assert m[\"test\"] == \"mann-whitney\", m; assert abs(m[\"p\"] - 2 / 352716) < 1e-12, m'" "10 vs 11 trials apart: exact Mann–Whitney's p, named mann-whitney"
ok "jl 'm=r[0]; assert m[\"ratio_ci_covers\"] == \"trials\" and m[\"ratio_lo\"] < m[\"ratio\"] < m[\"ratio_hi\"], m'" "compare's ratio interval covers trials"

# --boot-reps is gone with the bootstrap
run "$PS" analyze delta $P F-G --ci --boot-reps 500
expect_code 2 "--boot-reps: a usage error"
expect_err_has "boot-reps" "the error names the option"
run "$PS" analyze --help
expect_out_lacks "boot-reps" "--help no longer offers --boot-reps"
ok "! grep -q 'boot-reps' \"$TOP/docs/pathstat.1\" \"$TOP/completion/pathstat.bash\" \"$TOP/README.md\" \"$TOP/docs/analyze.md\"" "man page, completion, README and docs/analyze.md drop --boot-reps"
test_done
