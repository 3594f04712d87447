# t4006: --mtu on loopback: the largest DF packet that gets an answer
# (ICMP port unreachable) is the route MTU; with a UDP peer that never
# answers the result is "unknown", best effort, exit 3.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

[ "$(uname -s)" = Linux ] || skip_all "--mtu needs Linux"
run "$PROBE" --mtu -t 0.2 127.0.0.1
expect_code 0 "--mtu 127.0.0.1: exit 0"
expect_out_has "mtu=65535 target=127.0.0.1:33434 addr=127.0.0.1 route_mtu=65535" \
    "--mtu 127.0.0.1: loopback MTU, capped at the IPv4 maximum"
ok 'printf "%s\n" "$OUT" | grep -Eq " method=udp-df start=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"' \
    "--mtu: method and start= (UTC) end the line"
expect_err_has "best effort" "--mtu: says best effort"
if have_ipv6_lo; then
	run "$PROBE" --mtu -t 0.2 ::1
	expect_code 0 "--mtu ::1: exit 0"
	expect_out_has "mtu=65535 target=[::1]:33434 addr=::1" "--mtu ::1"
fi

start_peer udpsink 127.0.0.1 10 || skip_all "cannot start a UDP peer"
run "$PROBE" --mtu -t 0.1 127.0.0.1 "$PEER_PORT"
expect_code 3 "--mtu with no answers: exit 3"
expect_out_has "mtu=unknown" "--mtu with no answers: mtu=unknown"
expect_out_has " reason=no-answer" "--mtu with no answers: reason=no-answer on the line"
expect_err_has "no answer to UDP probes" "--mtu with no answers: explains"
expect_err_has "PrivateLink" "--mtu with no answers: names the PrivateLink case"
run "$PROBE" --mtu 127.0.0.1 abc
expect_code 2 "--mtu bad port: exit 2"

test_done
