# t5700: no finding on 10 seeded clean synthetic campaigns (iperf3 and
# pathprobe on one instance with paths in random order, oha keep-alive on
# and off, 3 trials each; tests/fixtures/check/gen_check.py clean).  The
# 100-campaign version is tslow-check-clean.sh (make test-slow).

"$PY" "$FIX/check/gen_check.py" clean --seed 1 --campaigns 10 --out clean
"$PS" ingest -q --db c.db clean 2>/dev/null
expect_sql c.db "SELECT count(DISTINCT value) FROM run_tags WHERE key = 'study'" 10 "10 campaigns ingested"
run "$PS" check --db c.db --format json
expect_code 0 "10 clean campaigns: exit 0"
ok "[ \"\$OUT\" = '[]' ]" "10 clean campaigns: no finding"
[ "$RC" = 0 ] || printf '%s\n' "$OUT" | head -40
test_done
