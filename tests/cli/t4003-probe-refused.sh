# t4003: a port just closed: every probe refused, reported as loss, exit 3.
. "$TOP/tests/cli/helper/probe-lib.sh"

P=$(closed_port 127.0.0.1)
[ -n "$P" ] || skip_all "cannot find a closed port"
run "$PROBE" -n 5 -i 0.02 127.0.0.1 "$P"
expect_code 3 "refused: exit 3"
printf '%s\n' "$OUT" > out.csv
ok '[ "$(csv_rows out.csv | grep -c "^[0-9]*,[0-9]*,,,refused$")" -eq 5 ]' \
    "five refused rows with an empty connect_ms"
expect_err_has "5 sent, 0 ok, 100.0% loss (5 refused)" "summary: loss and cause"
expect_err_lacks "connect_ms p50" "summary: no connect percentiles without ok probes"

test_done
