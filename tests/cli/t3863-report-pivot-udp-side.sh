# t3863: a pivot's UDP throughput cell names which side its number is and
# puts the loss beside it, as analyze's table does (columns side and UDP
# loss %): the sample spec's throughput table (article 1, §6.3) reads
# "4.98, receiver (end of test), loss 0.037 %" for A's UDP, each side and
# loss equal to analyze's JSON for the same selection; TCP cells name
# no side.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
run "$PS" report --db s.db --spec "$TOP/samples/article.json" --out b --no-render --no-checks
expect_code 0 "the sample spec's bundle ($ERR)"
"$PS" analyze percentiles --db s.db --metric throughput_bps --where study=tokyo-osaka \
    --where day=2026-08-28 --where instance_type=c6i.large --where proto=udp \
    --stats p50 --format json > udp.json
run "$PY" - b/tables/04-throughput.md <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    c = [x.strip() for x in line.strip().strip("|").split("|")]
    if len(c) == 4 and c[0][:1] in "ABCDE" and c[0][1:2] in (" ", ""):
        rows[c[0][0]] = c
bad = []
for r in json.load(open("udp.json")):
    want = "%.3g, %s, loss %.2g %%" % (r["p50"] / 1e9, r["side"], r["udp_loss_pct"])
    got = rows[r["path"]][3]
    if got != want:
        bad.append("%s: %r, analyze %r" % (r["path"], got, want))
for p, c in rows.items():
    if "receiver" in c[1] or "receiver" in c[2] or "sender" in c[1] or "sender" in c[2]:
        bad.append("%s: a TCP cell names a side" % p)
print("; ".join(bad) or "%d UDP cells" % len(rows))
sys.exit(1 if bad or len(rows) != 5 else 0)
PY
ok '[ $RC = 0 ]' "each UDP cell: the number, its side and the loss, as analyze gives them ($OUT)"
ok 'grep -q "^| A — Same AZ (baseline) | 4.96 | 12.4 | 4.98, receiver (end of test), loss 0.037 % |" b/tables/04-throughput.md' \
    "A's row reads as analyze's"
test_done
