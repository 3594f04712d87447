# t0110: the command-line contract users' scripts rely on (docs/design.md,
# pathstat(1)): exit codes, --help and --version, the keys of
# `runs --format json`, `analyze percentiles` and `analyze delta`, the
# meta.json tags and the condition grammar, --pool trials' keys, and a
# few numbers small enough to check by hand, on a tiny tree: a real
# iperf3 3.12 output, a pathprobe CSV with two timeouts, oha per-request
# CSVs, an unknown file and a broken one.  A change that breaks this
# breaks users' scripts: change the contract on purpose, here and in the
# docs, or not at all.

# js CODE: run Python on the JSON in $OUT (as r); CODE must exit 0.
js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = json.load(sys.stdin)
$1"; }

# the tree
mkdir -p tree
echo '{"instance_type": "c6i.large", "region": "ap-northeast-1"}' > tree/meta.json
# iperf3: path C, trial 1 the P1 run, trial 2 the P4 run (the same file
# twice would be one content)
for t in 1 2; do
	mkdir -p tree/C/trial$t
	echo "{\"path\": \"C\", \"trial\": $t}" > tree/C/trial$t/meta.json
done
cp "$SAMPLES/iperf3/3.12/tcp_P1.json" tree/C/trial1/iperf3.json
cp "$SAMPLES/iperf3/3.12/tcp_P4.json" tree/C/trial2/iperf3.json
# pathprobe: path A, 10 probes, timeouts at seq 3 and 7
mkdir -p tree/A/trial1
echo '{"path": "A", "trial": 1}' > tree/A/trial1/meta.json
{
	echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=10 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
	echo "seq,unix_ns,connect_ms,result"
	i=0
	for v in 0.201 0.215 0.199 t 0.230 0.208 0.250 t 0.212 0.205; do
		ns=$((1787878800000000000 + i * 200000000))
		if [ "$v" = t ]; then echo "$i,$ns,,timeout"; else echo "$i,$ns,$v,ok"; fi
		i=$((i + 1))
	done
} > tree/A/trial1/probe.csv
# oha per-request CSV: paths G and G' under ka-on_c1_1k, 2 trials of 20
# requests each; request i of trial t lasts base + 0.01 * ((7i + 3t) mod 20) ms
cat > oha.py <<'PY'
import json, os
for p, d, base in (("G", "G", 0.50), ("G'", "Gp", 0.40)):
    for t in (1, 2):
        dd = "tree/ecs/%s/trial%d" % (d, t)
        os.makedirs(dd)
        json.dump({"path": p, "trial": t, "condition": "ka-on_c1_1k"},
                  open(dd + "/meta.json", "w"))
        with open(dd + "/oha.csv", "w") as f:
            f.write("request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status\n")
            for i in range(20):
                dur = (base + 0.01 * ((i * 7 + t * 3) % 20)) / 1000.0
                f.write("%.9f,0.000000000,0.000000000,%.9f,%.9f,1024,200\n"
                        % (i * 0.001, dur - 0.000001, dur))
PY
"$PY" oha.py
echo "not a result" > tree/notes.txt
mkdir -p tree/bad
echo '{"path": "X", "trial": 1}' > tree/bad/meta.json
head -c 900 "$SAMPLES/iperf3/3.12/tcp_P4.json" > tree/bad/cut.json

# exit codes, help, version
run "$PS" --version
expect_code 0 "--version exits 0"
ok '[ -n "$OUT" ]' "--version prints a version"
run "$PS" ingest --help
expect_code 0 "ingest --help exits 0"
expect_out_has "ingest" "ingest --help writes its usage to stdout"
run "$PS" ingest --no-such-flag
expect_code 2 "an unknown flag exits 2"

# ingest: one broken file, the rest still stored
run "$PS" ingest --db c.db tree
expect_code 1 "ingest with one broken file exits 1"
ok '[ -f c.db ]' "and still writes the database"
expect_err_has "bad/cut.json" "the broken file is named on stderr"
expect_err_has "notes.txt" "the unknown file is named as skipped"

# runs
run "$PS" runs --db c.db --format json
expect_code 0 "runs --format json exits 0"
ok "js 'assert isinstance(r, list) and r'" "runs --format json is a non-empty JSON array"
ok "js 'assert all(k in x for x in r for k in (\"path\", \"condition\", \"trial\", \"tool\", \"samples\", \"status\", \"file\"))'" \
    "runs rows carry path, condition, trial, tool, samples, status, file"
ok "js 'assert {\"A\", \"C\", \"G\", \"G\\x27\"} <= {x[\"path\"] for x in r}'" "runs lists paths A, C, G, G'"
ok "js 'assert all(x[\"instance_type\"] == \"c6i.large\" for x in r)'" \
    "each run carries the meta.json tag instance_type as a key of its own"
ok "js 'assert all(not x[\"file\"].startswith(\"/\") for x in r)'" "file is a relative path"
ok "js 'assert all(k in x for x in r for k in (\"metric\", \"failures\", \"reason\", \"started_utc\", \"summary_file\", \"conflict\", \"region\"))'" \
    "runs --format json keeps every key, whatever the Markdown view shows"
nruns=$(printf '%s' "$OUT" | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
run "$PS" ingest --db c.db tree
run "$PS" runs --db c.db --format json
ok "js 'assert len(r) == $nruns'" "re-ingest adds no run ($nruns runs)"
run "$PS" runs --db c.db --format json --columns path,trial,samples
ok "js 'assert len(r) == $nruns and all(list(x) == [\"path\", \"trial\", \"samples\"] for x in r)'" \
    "runs --columns narrows the JSON to the keys named, in that order"

# analyze percentiles: keys and hand-checked numbers
pct() { run "$PS" analyze percentiles --db c.db --metric "$1" \
    --stats p50,p95,p99,max --quantile type7 --pool pooled --format json; }
pct connect_ms
expect_code 0 "analyze percentiles exits 0"
ok "js 'assert r and all(k in x for x in r for k in (\"path\", \"condition\", \"metric\", \"estimator\", \"pool\", \"n\", \"trials\", \"failures\", \"p50\", \"p95\", \"p99\", \"max\"))'" \
    "percentiles rows carry path, condition, metric, estimator, pool, n, trials, failures, p50, p95, p99, max"
ok "js 'a = [x for x in r if x[\"path\"] == \"A\"]; assert len(a) == 1 and a[0][\"n\"] == 8 and a[0][\"failures\"] == 2'" \
    "connect_ms A: n = 8 successful probes, failures = 2"
# By hand, type 7 over the 8 sorted successes 0.199 0.201 0.205 0.208
# 0.212 0.215 0.230 0.250: p50 at h = 7 * 0.50 = 3.5 -> (0.208 + 0.212) / 2
# = 0.210; p95 at h = 7 * 0.95 = 6.65 -> 0.230 + 0.65 * 0.020 = 0.243.
ok "js 'a = [x for x in r if x[\"path\"] == \"A\"][0]; assert abs(a[\"p50\"] - 0.210) < 1e-9 and abs(a[\"p95\"] - 0.243) < 1e-9 and abs(a[\"max\"] - 0.250) < 1e-9'" \
    "connect_ms A: p50 0.210, p95 0.243, max 0.250 (type 7 by hand)"
pct throughput_bps
ok "js 'c = [x for x in r if x[\"path\"] == \"C\" and \"P=1\" in x[\"condition\"] and \"proto=tcp\" in x[\"condition\"]]; assert len(c) == 1 and c[0][\"n\"] == 2'" \
    "throughput_bps C P=1 tcp: one row, n = 2 intervals (the file's own keys)"
# http_ms: the same type 7 by its textbook definition over the requests
cat > t7.py <<'PY'
def type7(v, p):
    s = sorted(v)
    h = (len(s) - 1) * p / 100.0
    lo = int(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])
def http(base):
    return [float("%.9f" % ((base + 0.01 * ((i * 7 + t * 3) % 20)) / 1000.0)) * 1000.0
            for t in (1, 2) for i in range(20)]
G, Gp = http(0.50), http(0.40)
PY
pct http_ms
ok "js 'g = [x for x in r if x[\"path\"] == \"G\"]; assert len(g) == 1 and all(k in g[0][\"condition\"] for k in (\"ka=on\", \"c=1\", \"size=1k\"))'" \
    "http_ms G: the condition parsed from 'ka-on_c1_1k'"
ok "js 'from t7 import type7, G; g = [x for x in r if x[\"path\"] == \"G\"][0]; assert g[\"n\"] == 40 and g[\"trials\"] == 2 and abs(g[\"p50\"] - type7(G, 50)) < 1e-9 and abs(g[\"p99\"] - type7(G, 99)) < 1e-9'" \
    "http_ms G: pooled over 2 trials, n = 40, type 7 p50 and p99"

# analyze delta
run "$PS" analyze delta --db c.db --metric http_ms --stats p50,p95,p99 \
    --quantile type7 --pool pooled --format json "G-G'"
expect_code 0 "analyze delta exits 0"
ok "js 'assert r and all(k in x for x in r for k in (\"pair\", \"minuend\", \"subtrahend\", \"condition\", \"metric\", \"p50\", \"p95\", \"p99\", \"growth\"))'" \
    "delta rows carry pair, minuend, subtrahend, condition, metric, p50, p95, p99, growth"
ok "js 'from t7 import type7, G, Gp; assert abs(r[0][\"p50\"] - (type7(G, 50) - type7(Gp, 50))) < 1e-9'" \
    "delta G-G' p50 = type 7 p50 of G minus that of G'"

# --pool trials, Markdown
run "$PS" analyze percentiles --db c.db --metric http_ms --stats p50 --pool trials --format json
ok "js 'g = [x for x in r if x[\"path\"] == \"G\"]; assert len(g) == 1 and all(k in g[0] for k in (\"p50\", \"p50_median\", \"p50_min\", \"p50_max\"))'" \
    "--pool trials gives p50 (the mean of trials) and p50_median, _min, _max"
run "$PS" analyze percentiles --db c.db --metric connect_ms --format md
expect_code 0 "--format md exits 0"
ok 'printf "%s\n" "$OUT" | grep -q "^|.*|$" && printf "%s\n" "$OUT" | grep -q "^| *---"' \
    "--format md prints a Markdown table"
test_done
