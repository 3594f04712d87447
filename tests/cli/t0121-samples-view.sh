# t0121: the samples view decodes the series blobs in plain SQL, exactly:
# every binary64 (subnormals, extremes, signs), times of both signs, the
# no-time mark and every status byte come back as stored (an independent
# decoder in Python writes them), NULL where the blob says so, and a
# filter on run_id reads only that run's series.

mkdir -p tree/A
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
cp "$FIX/pathprobe/all-ok.csv" tree/A/probe.csv
run "$PS" ingest -q --db v.db tree
expect_code 0 "a database at the newest schema"
run "$PY" "$TOP/tests/cli/helper/view-check.py" v.db
expect_code 0 "the view decodes every planted row: $(echo "$OUT" | head -5)"
expect_out_has "checked 6015 rows" "all of them"
test_done
