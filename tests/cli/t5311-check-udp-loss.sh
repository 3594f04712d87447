# t5311: UDP throughput is what arrived, says whose rate it is, puts the
# loss beside it, and check flags a large loss.  The files are real
# iperf 3.12 runs on loopback (tests/fixtures/iperf3-udp/make.sh) plus
# iperf 3.0.11's udp_b0.json: with -b 0 the sender's intervals read
# 19-34 Gbit/s while the receiver got 6 (72-82 % of datagrams lost),
# and main published the sender's rate with "No findings".  The oracle
# reads the files with numpy: the receiver's intervals (server_output_
# json) where the file has them, else end.sum_received (3.11+), else
# end.sum's rate less its lost_percent; loss = lost / sent datagrams.

have_prereq NUMPY || skip_all "numpy missing"
U="$FIX/iperf3-udp"
for p in L:rx-intervals E:rx-end O:pre311 N:rx-low; do
	mkdir -p "tree/${p%%:*}/t1"
	cp "$U/${p#*:}.json" "tree/${p%%:*}/t1/iperf3.json"
	echo "{\"path\": \"${p%%:*}\", \"trial\": 1}" > "tree/${p%%:*}/t1/meta.json"
done
run "$PS" ingest --db u.db tree
expect_code 0 "four UDP files ingested"

run "$PS" analyze percentiles --db u.db --metric throughput_bps \
    --stats p50,min --format json
expect_code 0 "percentiles of UDP throughput: exit 0"
printf '%s' "$OUT" > p.json
ok "\"\$PY\" - <<'PYEOF'
import json
import numpy as np
rows = {r['path']: r for r in json.load(open('p.json'))}
def rx(path):
    d = json.load(open('tree/%s/t1/iperf3.json' % path))
    e = d['end']
    so = d.get('server_output_json')
    if so:
        v = [i['sum']['bits_per_second'] for i in so['intervals']
             if not i['sum']['omitted']]
        side = 'receiver'
    elif 'sum_received' in e:
        v = [e['sum_received']['bits_per_second']]
        side = 'receiver (end of test)'
    else:
        v = [e['sum']['bits_per_second'] * (1 - e['sum']['lost_percent'] / 100)]
        side = 'receiver (end of test)'
    b = e.get('sum_received', e['sum'])
    return np.array(v), side, 100.0 * b['lost_packets'] / b['packets']
for p in 'LEON':
    v, side, loss = rx(p)
    r = rows[p]
    assert r['n'] == len(v), (p, r['n'], len(v))
    for k, want in (('p50', np.percentile(v, 50)), ('min', v.min())):
        assert abs(r[k] - want) <= 1e-9 * want, (p, k, r[k], want)
    assert r['side'] == side, (p, r['side'], side)
    assert abs(r['udp_loss_pct'] - loss) < 1e-9, (p, r['udp_loss_pct'], loss)
PYEOF" "p50, min, n, side and loss of each row equal numpy's reading of the files"
run "$PS" analyze percentiles --db u.db --metric throughput_bps --stats p50
expect_out_has "| side | UDP loss % |" "Markdown names the side and the loss"
expect_out_has "what arrived" "and says what the side means"

run "$PS" check --db u.db --only udp-loss --format json
expect_code 3 "check --only udp-loss: findings, exit 3"
printf '%s' "$OUT" > c.json
ok "\"\$PY\" - <<'PYEOF'
import json
r = json.load(open('c.json'))
assert sorted(x['path'] for x in r) == ['E', 'L', 'O'], r
for x in r:
    assert x['check'] == 'udp-loss' and 'lost' in x['evidence'], x
PYEOF" "the three lossy runs are flagged, the 100 Mbit/s one (0 lost) is not"
run "$PS" check --db u.db
expect_out_lacks "No findings" "a plain check no longer says no findings"
test_done
