# t3878: samples/check_formats.py holds expected.json's sample counts to
# what ingest stores.  A UDP test the client sent is one value a run (the
# receiver's end rate) when the file has no server output, since the
# client's own intervals are the rate it sent; the checker still counted
# the client's intervals and failed the sample tree's 12 udp_b0.json runs
# ("interval count").  Expected.json was right: ingest's own per-run
# counts (pathstat runs) are the oracle here.

cp -r "$TOP/samples/tree" tree
run "$PY" "$TOP/samples/check_formats.py" tree --expected "$TOP/samples/expected.json"
ok '[ $RC = 0 ]' "the sample tree passes its format checks ($(printf '%s' "$OUT" | grep -c FAIL) failures)"

run "$PS" ingest -q --db s.db tree
expect_code 0 "the sample tree ingests ($ERR)"
run "$PS" runs --db s.db --format json
printf '%s' "$OUT" > runs.json
run "$PY" - "$TOP/samples/expected.json" <<'PY'
import json, sys
exp = {r["file"][-1]: r for r in json.load(open(sys.argv[1]))["runs"]}
bad, udp = [], 0
for r in json.load(open("runs.json")):
    if r["tool"] != "iperf3" or r["metric"] != "throughput_bps":
        continue
    e = exp[r["file"][len("tree/"):]]
    udp += "proto=udp" in r["condition"]
    if e["samples"] != r["samples"]:
        bad.append("%s: expected %d, ingest %d" % (r["file"], e["samples"], r["samples"]))
print(udp, "; ".join(bad))
sys.exit(1 if bad else 0)
PY
ok '[ $RC = 0 ] && [ "${OUT%% *}" = 12 ]' "expected.json's iperf3 counts are ingest's, 12 UDP runs among them ($OUT)"

# the checker still catches a wrong count: one UDP run given its intervals
run "$PY" - "$TOP/samples/expected.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
r = next(r for r in e["runs"] if r["file"][0].endswith("udp_b0.json"))
r["samples"] = r["iperf3"]["intervals"]
json.dump(e, open("bad.json", "w"))
PY
run "$PY" "$TOP/samples/check_formats.py" tree --expected bad.json
ok '[ $RC != 0 ] && [ "$(printf "%s\n" "$OUT$ERR" | grep -c "udp_b0.json: samples 30, the file gives 1")" = 1 ]' \
    "a UDP run counted by its client intervals fails, once"
test_done
