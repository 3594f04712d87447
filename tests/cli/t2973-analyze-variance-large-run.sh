# t2973: `analyze variance` over one long oha run.  Each trial's
# sampling error was 200 bootstrap resamples of the whole trial: 22 s
# for a run of 2 M requests (15 s for 500 k).  The mean's and a type 7
# percentile's are now the bootstrap's own in closed form (the limit of
# ever more resamples): the plug-in standard deviation over sqrt(n), and
# Maritz and Jarrett's weights over the order statistics.  Checked
# against numpy and scipy (every rank weighted, no cut-off), then timed
# on 300 k requests.
have_prereq NUMPY || skip_all "numpy is not installed (the oracle)"
have_prereq SCIPY || skip_all "scipy is not installed (the oracle)"

mkrun() { # DIR N: an oha --db-url file of N requests and its meta.json
	mkdir -p "$1"
	"$PY" - "$1/G.db" "$2" <<'PY'
import sqlite3, sys
import numpy as np
db, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(7)
d = rng.lognormal(np.log(0.0008), 0.3, n)
c = sqlite3.connect(db)
c.execute("CREATE TABLE oha (url TEXT NOT NULL, start REAL NOT NULL, "
          "start_latency_correction REAL, end REAL NOT NULL, duration REAL "
          "NOT NULL, status INTEGER NOT NULL, len_bytes INTEGER NOT NULL, "
          "run INTEGER NOT NULL)")
c.executemany("INSERT INTO oha VALUES ('/', ?, NULL, ?, ?, 200, 1024, "
              "1787878800)", ((i * 1e-4, i * 1e-4 + float(x), float(x))
                              for i, x in enumerate(d)))
c.commit()
PY
	echo '{"path": "G", "trial": 1, "condition": "ka-on_c1_1k", "tool": "oha"}' \
	    > "$1/meta.json"
}

# ---- the numbers: a run of 2,000 requests against the oracle
mkrun small/G 2000
"$PS" ingest -q --db s.db small 2>/dev/null
run "$PS" analyze variance --db s.db --metric http_ms --stats mean,p50,p99 \
    --format json
expect_code 0 "variance of one run"
printf '%s' "$OUT" > got.json
ok "\"$PY\" - small/G/G.db got.json <<'PY'
import json, sqlite3, sys
import numpy as np
from scipy.special import betainc
x = np.sort(np.array([r[0] for r in sqlite3.connect(sys.argv[1]).execute(
    'SELECT duration FROM oha')]) * 1000)
n = len(x)
got = json.load(open(sys.argv[2]))
rows = got['rows'] if isinstance(got, dict) else got
def mj(k):  # the bootstrap variance of the k-th order statistic (1-based)
    j = np.arange(0, n + 1) / n
    w = np.diff(betainc(k, n - k + 1, j))
    m1 = (w * x).sum()
    return (w * x * x).sum() - m1 * m1
def se(stat):
    if stat == 'mean':
        return x.std() / np.sqrt(n)
    p = float(stat[1:]) / 100
    h = (n - 1) * p + 1
    k = int(np.floor(h)); g = h - k
    s = np.sqrt(mj(k))
    return (1 - g) * s + g * np.sqrt(mj(k + 1)) if g > 0 else s
bad = []
for r in rows:
    st = r['stat']
    val = np.mean(x) if st == 'mean' else np.percentile(x, float(st[1:]))
    want = 100 * se(st) / val
    if abs(r['cv_within_trial_pct'] - want) > 1e-6 * want:
        bad.append((st, r['cv_within_trial_pct'], want))
print(bad)
sys.exit(1 if bad or len(rows) != 3 else 0)
PY" "each statistic's within-trial error is the bootstrap's in closed form"

# ---- the time: 300 k requests (8.5 s with 200 resamples)
mkrun big/G 300000
"$PS" ingest -q --db b.db big 2>/dev/null
start=$(date +%s.%N)
run "$PS" analyze variance --db b.db --metric http_ms
end=$(date +%s.%N)
expect_code 0 "variance of a run of 300 k requests"
secs=$("$PY" -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 2))" "$start" "$end")
ok "\"$PY\" -c 'import sys; sys.exit(not float(sys.argv[1]) < 4)' $secs" \
    "in under 4 s ($secs s)"

test_done
