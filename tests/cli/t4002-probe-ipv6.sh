# t4002: pathprobe against a listener on ::1.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

have_ipv6_lo || skip_all "no IPv6 on loopback"
start_peer accept ::1 10 || skip_all "cannot start a listener on ::1"
P=$PEER_PORT

run "$PROBE" -n 10 -i 0.02 ::1 "$P"
expect_code 0 "::1: exit 0"
printf '%s\n' "$OUT" > out.csv
ok '[ "$(csv_rows out.csv | grep -c ",ok$")" -eq 10 ]' "::1: ten ok rows"
expect_out_has "target=[::1]:$P addr=::1 count=10 " "::1: target in brackets, addr bare"
run "$PROBE" -n 2 -i 0.02 "[::1]" "$P"
expect_code 0 "[::1] accepted as host"
run "$PROBE" -6 -n 2 -i 0.02 -b ::1 ::1 "$P"
expect_code 0 "-6 -b ::1: exit 0"
run "$PROBE" -n 1 -b 127.0.0.1 ::1 "$P"
expect_code 1 "IPv4 -b with an IPv6 target: exit 1"
closed=$(closed_port ::1)
run "$PROBE" -n 3 -i 0.02 ::1 "$closed"
expect_code 3 "::1 closed port: exit 3"
ok '[ "$(printf "%s\n" "$OUT" | grep -c ",refused$")" -eq 3 ]' "::1 closed port: refused"

test_done
