# t1913: pathstat-collect's oha conditions with a REAL oha (opt-in: runs
# only when one is found: $PATHSTAT_REAL_OHA, else the newest
# ~/.cache/pathstat-oha/VERSION/bin/oha that tests/fixtures/oha-real/make.sh
# uses, else oha in PATH; CI builds none and skips).  Against a small HTTP
# server on 127.0.0.1 (keep-alive on and off, c=1 and 4, 1 KiB and 1 MiB,
# 2 trials, 60 requests): the collector exits 0, writes oha's files, and
# ingest gives every run its requests as samples, no failures, and
# --quantile oha percentiles equal to the JSON oha wrote in the same run.
COLLECT="$TOP/collect/pathstat-collect"
have_prereq NUMPY || skip_all "python3 with numpy not available"
oha=${PATHSTAT_REAL_OHA:-}
if [ -z "$oha" ]; then
	for b in $(ls -d "$HOME"/.cache/pathstat-oha/*/bin/oha 2>/dev/null | sort -V); do
		[ -x "$b" ] && oha=$b
	done
fi
[ -n "$oha" ] || oha=$(command -v oha 2>/dev/null) || true
[ -n "$oha" ] && [ -x "$oha" ] || skip_all "no real oha (opt-in: build one as tests/fixtures/oha-real/make.sh says, or set PATHSTAT_REAL_OHA)"
trap '[ -n "${spid:-}" ] && kill $spid 2>/dev/null' EXIT
"$PY" "$FIX/oha-real/server.py" port 120 &
spid=$!
i=0
while [ ! -s port ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s port ] || skip_all "the loopback HTTP server did not start"
P=$(cat port)
ver=$("$oha" --version | head -1)

run env OHA="$oha" sh "$COLLECT" --path L --host 127.0.0.1 --no-probe --no-iperf3 \
    --no-imds --instance-type local.test --out res --trials 2 --cooldown 0 \
    --url 1k=http://127.0.0.1:$P/bytes/1024 --url 1m=http://127.0.0.1:$P/bytes/1048576 \
    --keepalive on,off --concurrency 1,4 --requests 60
expect_code 0 "$ver: every oha condition ran"
nrun=$(find res -name exit_status -path '*/oha/*' | wc -l)
ok '[ "$nrun" -eq 16 ]' "16 oha runs (2 sizes x 2 keep-alive x 2 c x 2 trials): $nrun"
ok '[ -z "$(find res -path "*/oha/*" -name exit_status -exec grep -lv "^0$" {} +)" ]' "each exit status 0"
run "$PS" ingest --quiet --db c.db res
expect_code 0 "the collector's real oha tree ingested"
expect_sql c.db "SELECT count(*) FROM run_view WHERE tool = 'oha' AND failures = 0" 16 "16 oha runs, none with failures"
for t in 1 2; do
	run "$PS" analyze percentiles --db c.db --metric http_ms --quantile oha \
	    --where trial=$t --stats p10,p50,p90,p99,p99.9,min,max --format json
	printf '%s' "$OUT" > pct$t.json
done
cat > oracle.py <<'PY'
import json, os, sqlite3, sys
db = sqlite3.connect("c.db")
pct = {}
for t in (1, 2):
    for r in json.load(open("pct%d.json" % t)):
        pct[(r["path"], r["condition"], t)] = r
bad, n = [], 0
for rid, path, cond, trial, f, sf, att in db.execute(
        "SELECT run_id, path, condition, trial, file, summary_file, attempts"
        " FROM run_view WHERE tool = 'oha'"):
    ns = db.execute("SELECT count(*) FROM samples WHERE run_id = ?", (rid,)).fetchone()[0]
    n += 1
    if ns != 60 or att != 60:
        bad.append("%s: %d samples, %s attempts, want 60" % (f, ns, att))
    if not sf:
        continue            # a per-request CSV alone (oha without --db-url)
    doc = json.load(open(sf))
    r = pct[(path, cond, trial)]
    for k in ("p10", "p50", "p90", "p99", "p99.9"):
        n += 1
        if r[k] != doc["latencyPercentiles"][k] * 1000:
            bad.append("%s %s: pathstat %r, oha %r" % (sf, k, r[k], doc["latencyPercentiles"][k] * 1000))
    for k, st in (("fastest", "min"), ("slowest", "max")):
        n += 1
        if r[st] != doc["summary"][k] * 1000:
            bad.append("%s %s: pathstat %r, oha %r" % (sf, st, r[st], doc["summary"][k] * 1000))
print("%d checks" % n)
print("\n".join(bad[:10]))
sys.exit(1 if bad or n < 16 else 0)
PY
run "$PY" oracle.py
ok '[ $RC = 0 ]' "$ver: 60 samples a run; --quantile oha = the JSON oha wrote in the same run ($OUT)"
test_done
