# t2413: compare replicates days, not trials, where the sides were
# measured on different days: trials of one day share its day effect, so
# counting them as independent takes a day-to-day difference for one
# between the instance types.  One day a side (type X on Monday, type Y
# on Tuesday, 6 trials each): no verdict about the types, and what design
# would give one (main called it "worse").  Three days a side of their
# own: Student's t on the days' mean log p50; the same three days on both
# sides: a paired t on them; both checked against scipy.  --by day says
# its verdict is about those days.

have_prereq SCIPY || skip_all "numpy/scipy missing (the oracle of the day-level tests)"

cat > mk.py <<'PY'
import json, os, random, time
random.seed(2410)
def probe(d, path, trial, tags, scale, day, n=200):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(tags, path=path, trial=trial), open(os.path.join(d, "meta.json"), "w"))
    t0 = 1788220800 + 86400 * day + 600 * trial
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=%s"
            % (n, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0))), "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        rows.append("%d,%d,%.4f,ok" % (i, t0 * 10**9 + i * 200000000, scale * random.lognormvariate(0, 0.05)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
# day effects, sd 0.1 on the log scale
eff = {d: random.lognormvariate(0, 0.1) for d in range(12)}
# A: each type on its own day, 6 trials, the second 10 % slower
for t in range(1, 7):
    probe("A/x/t%d" % t, "A", t, {"instance_type": "c6i.large"}, 1.0 * eff[0], 0)
    probe("A/y/t%d" % t, "A", t, {"instance_type": "c7i.large"}, 1.1 * eff[1], 1)
# B: 3 days x 3 trials a side, days of their own
for k in range(3):
    for t in range(1, 4):
        probe("B/x/d%d/t%d" % (k, t), "B", t, {"instance_type": "c6i.large"}, 2.0 * eff[2 + k], 2 + k)
        probe("B/y/d%d/t%d" % (k, t), "B", t, {"instance_type": "c7i.large"}, 2.0 * eff[5 + k], 5 + k)
# C: the same 3 days on both sides, the second 10 % slower
for k in range(3):
    for t in range(1, 4):
        probe("C/x/d%d/t%d" % (k, t), "C", t, {"instance_type": "c6i.large"}, 3.0 * eff[8 + k], 8 + k)
        probe("C/y/d%d/t%d" % (k, t), "C", t, {"instance_type": "c7i.large"}, 3.3 * eff[8 + k], 8 + k)
PY
"$PY" mk.py
"$PS" ingest -q --db c.db A B C 2>/dev/null

js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r={x[\"path\"]: x for x in json.load(sys.stdin)}; $1"; }

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --stats p50 --format json
expect_code 0 "compare runs"
ok "js 'a=r[\"A\"]; assert a[\"verdict\"].startswith(\"no verdict about the instance_type: measured on different days\"), a; assert a[\"p\"] is None and a[\"test\"] == \"none\" and a[\"ratio_lo\"] is None, a'" "one day a side: no verdict about the types, no test, no interval"
ok "js 'a=r[\"A\"]; assert \"3 days a side or more would separate them\" in a[\"verdict\"] and \"2026-09-01\" in a[\"verdict\"] and \"2026-09-02\" in a[\"verdict\"], a; assert a[\"unit\"] == \"days\" and a[\"days_baseline\"] == 1 and a[\"days_value\"] == 1, a'" "it names the days and the design that would separate the types"
ok "js 'b=r[\"B\"]; assert b[\"test\"] == \"t-days\" and b[\"unit\"] == \"days\" and b[\"days_baseline\"] == 3, b; c=r[\"C\"]; assert c[\"test\"] == \"paired-t-days\" and c[\"unit\"] == \"shared days\", c'" "3 days a side: t on days; the same days: paired"
cat > oracle.py <<'PY'
import csv, glob, json, sys
import numpy as np
from scipy import stats
def day_means(pattern):
    days = {}
    for d in sorted(glob.glob(pattern)):
        v = [float(x[2]) for x in csv.reader(l for l in open(d + "/probe.csv") if not l.startswith("#")) if x[3] == "ok"]
        day = open(d + "/probe.csv").readline().split("start=")[1][:10]
        days.setdefault(day, []).append(np.log(np.percentile(v, 50)))
    return [np.mean(days[k]) for k in sorted(days)]
r = {x["path"]: x for x in json.load(sys.stdin)}
xb, yb = day_means("B/x/*/t*"), day_means("B/y/*/t*")
w = stats.ttest_ind(yb, xb, equal_var=True)
qa, qb = np.var(yb, ddof=1) / 3, np.var(xb, ddof=1) / 3
df = 4
d, se = np.mean(yb) - np.mean(xb), np.sqrt(qa + qb)
tq = stats.t.ppf(0.975, df)
b = r["B"]
assert abs(b["p"] - w.pvalue) < 1e-6, (b, w)
assert abs(b["ratio_lo"] - np.exp(d - tq * se)) < 1e-6 and abs(b["ratio_hi"] - np.exp(d + tq * se)) < 1e-6, b
xc, yc = day_means("C/x/*/t*"), day_means("C/y/*/t*")
pr = stats.ttest_rel(yc, xc)
dd = np.array(yc) - np.array(xc)
tq = stats.t.ppf(0.975, 2)
c = r["C"]
assert abs(c["p"] - pr.pvalue) < 1e-6, (c, pr)
assert abs(c["ratio_lo"] - np.exp(dd.mean() - tq * dd.std(ddof=1) / np.sqrt(3))) < 1e-6, c
assert c["verdict"].startswith("worse"), c
PY
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py" "day-level p and interval match scipy's Student and paired t on the days' mean log p50"

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --stats p50
expect_out_has "Days are the unit where the sides were measured on different days" "the caption says the days are the unit"

run "$PS" analyze compare --db c.db --metric connect_ms --by day --where path=A --stats p50
expect_code 0 "compare by day runs"
expect_out_has "The verdicts are about the days compared, as measured" "--by day: the verdict is about those days"
expect_out_has "worse" "--by day may call two days different"
test_done
