# t5321: a merged finding counts its scope's units, not findings
# (busy-client "on 3 of 3 days" with 2 days): the busy client of
# gen_check.py busy-client in 2 trials on each of 2 days is "on 2 of 2
# days", each day's findings folded into one.

"$PY" "$FIX/check/gen_check.py" plant busy-client --out b
top=b/busy-client
cp -r "$top/C/trial1" "$top/C/trial2"
printf '{"path": "C", "trial": 2}\n' > "$top/C/trial2/meta.json"
# (one byte more: ingest stores a file's content once)
printf '\n' >> "$top/C/trial2/probe.csv"
mkdir -p b2 && cp -r "$top" b2/ && \
    sed -i 's/2026-09-07/2026-09-08/' b2/busy-client/meta.json
printf '\n\n' >> b2/busy-client/C/trial1/probe.csv
printf '\n\n\n' >> b2/busy-client/C/trial2/probe.csv
"$PS" ingest -q --db b.db b b2 2>/dev/null
expect_sql b.db "SELECT count(*) FROM runs" 4 "2 trials on each of 2 days"
run "$PS" check --db b.db --only busy-client --format json
expect_code 3 "busy client on both days"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert len(r) == 1, r
assert r[0][\"evidence\"].startswith(\"on 2 of 2 days: \"), r[0][\"evidence\"][:80]
assert r[0][\"runs\"].count(\",\") == 3, r
'" "one finding, on 2 of 2 days (not 4), naming the 4 runs"
test_done
