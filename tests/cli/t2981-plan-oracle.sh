# t2981: the numbers `pathstat plan` gives, against scipy written from
# docs/plan.md: the predicted half-width of the log-scale trial-level t
# interval's median over campaigns, exp(t_{T-1} sqrt(c_{T-1} (between^2 + within^2 p (1 - p) /
# (n (1 - loss)^2 phi(z_s)^2)) / T)) - 1 with z_s = Phi^-1(p / (1 -
# loss)) and c_k = (1 - 2/(9k))^3, Wilson-Hilferty's median of a sample
# variance over the variance (checked within 1.5 % of scipy's chi2); the design is the fewest trials (at least 3) whose fewest
# attempts reaching the width number at most 10,000, and those
# attempts (no fewer than the order-statistic interval and the timeouts
# need); with --per-trial, the fewest trials; the attempts that keep a
# tail percentile clear of the timeouts in 95 % of trials
# (Binomial(n, loss) timeouts below n minus numpy's last rank read);
# minutes = trials x attempts x spacing / 60.

have_prereq NUMPY && have_prereq SCIPY ||
    skip_all "numpy or scipy missing (the oracle needs them)"

cat > oracle.py <<'PY'
import json, math, subprocess, sys, os
from scipy import stats
PS = os.environ["PS"]

def width(w, b, loss, p, n, T, level=0.95):
    ps = p / (1 - loss)
    dens = (1 - loss) * stats.norm.pdf(stats.norm.ppf(ps))
    v = b * b + w * w * p * (1 - p) / (n * dens * dens)
    c = (1 - 2 / (9 * (T - 1))) ** 3
    return math.expm1(stats.t.ppf(0.5 + level / 2, T - 1) * math.sqrt(c * v / T))

def last_rank(p, n):  # type 7: ceil((n - 1) p), 0-based
    return math.ceil(round((n - 1) * p, 9))

def holds(loss, p, n):
    r = last_rank(p, n)
    return n - r - 1 >= 0 and stats.binom.cdf(n - r - 1, n, loss) >= 0.95

def uncensored(loss, p):
    # the fewest n >= 1 / (1 - p) from which on, up to 4n, every size holds
    if loss == 0:
        return 1
    s = math.ceil(1 / (1 - p))
    while True:
        bad = [m for m in range(s, 4 * s + 1) if not holds(loss, p, m)]
        if not bad:
            return s
        s = bad[-1] + 1

def plan(stat, W, model, extra=()):
    out = subprocess.run([PS, "plan", "--metric", "connect_ms", "--stat",
        stat, "--width", W, "--model", model, "--format", "json",
        *extra], capture_output=True, text=True, check=True).stdout
    return json.loads(out)[0]

bad = []
for k in range(2, 200):
    if abs((1 - 2 / (9 * k)) ** 3 / (stats.chi2.median(k) / k) - 1) > 0.015:
        bad.append(("wilson-hilferty", k))
cases = [("p50", "5%", 0.3, 0.05, 0.0), ("p50", "2%", 0.15, 0.0, 0.0),
         ("p95", "5%", 0.3, 0.05, 0.003), ("p99", "10%", 0.4, 0.08, 0.0),
         ("p90", "3%", 0.25, 0.02, 0.02), ("p75", "4%", 0.5, 0.1, 0.0)]
for stat, W, w, b, loss in cases:
    p = float(stat[1:]) / 100
    x = plan(stat, W, "within=%g,trial=%g,loss=%g" % (w, b, loss))
    T, n, target = x["trials"], x["per_trial"], float(W[:-1]) / 100
    want = width(w, b, loss, p, n, T)
    if abs(want - x["width_pct"] / 100) > 1e-6 * max(1, want):
        bad.append(("width", stat, want, x["width_pct"]))
    if want > target * (1 + 1e-9):
        bad.append(("not reached", stat, want, target))
    floor = uncensored(loss, p)
    # fewer trials cannot reach it with at most 10,000 attempts
    if T > 3 and width(w, b, loss, p, 10000, T - 1) <= target:
        bad.append(("fewer trials would do", stat, T))
    # at T, one attempt fewer misses it (unless a floor holds n up)
    if n > floor and n - 1 > 0 and width(w, b, loss, p, n - 1, T) <= target \
            and n - 1 >= x.get("min_n", 0) and x["pool"] == "pooled":
        bad.append(("fewer attempts would do", stat, n))
    if abs(x["minutes"] - T * n * 0.2 / 60) > 1e-9:
        bad.append(("minutes", stat, x["minutes"], T * n * 0.2 / 60))
    if loss > 0 and n < uncensored(loss, p):
        bad.append(("censored", stat, n, uncensored(loss, p)))

# --per-trial fixes n: the fewest trials reaching the width
x = plan("p99", "10%", "within=0.2,trial=0.05", ["--per-trial", "400"])
T = x["trials"]
if x["per_trial"] != 400 or width(0.2, 0.05, 0, 0.99, 400, T) > 0.1 or \
        (T > 3 and width(0.2, 0.05, 0, 0.99, 400, T - 1) <= 0.1):
    bad.append(("per-trial", x))
if abs(x["minutes"] - T * 400 * 0.2 / 60) > 1e-9:
    bad.append(("per-trial minutes", x))

# tails and loss: a p99 at 0.5 % timeouts needs n clear of them
x = plan("p99", "20%", "within=0.2,trial=0.02,loss=0.5%", ["--per-trial", "300"])
u = uncensored(0.005, 0.99)
if x["per_trial"] != max(300, u):
    bad.append(("uncensored", x["per_trial"], u))
if ("≥ %d probes a trial" % u) not in (x["note"] or ""):
    bad.append(("uncensored note", x["note"], u))
print(json.dumps(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" oracle.py
ok '[ "$RC" = 0 ]' "widths, designs, censoring and minutes match scipy ($OUT $ERR)"
test_done
