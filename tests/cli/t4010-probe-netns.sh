# t4010: pathprobe across a veth pair between two network namespaces the
# test makes (tbf rate limit each way), and --mtu through a router
# namespace whose far link has a smaller MTU (ICMP fragmentation needed).
# Skipped where namespaces are not available (needs root and ip netns).
. "$TOP/tests/cli/helper/probe-lib.sh"

have_prereq NETNS || skip_all "network namespaces not available (needs root and 'ip netns')"
command -v tc >/dev/null 2>&1 || skip_all "tc (iproute2) not installed"
trap 'stop_peers; netns_cleanup' EXIT
trap 'exit 1' INT TERM
A=psa$$ B=psb$$ R=psr$$
netns_pair $A $B 10.77.0.1 10.77.0.2 100mbit || skip_all "cannot make a veth pair"

start_peer accept 10.77.0.2 15 ip netns exec $B || skip_all "no listener in $B"
P=$PEER_PORT
run ip netns exec $A "$PROBE" -n 20 -i 0.02 -t 0.4 -o probe.csv 10.77.0.2 "$P"
expect_code 0 "veth: exit 0"
ok '[ "$(csv_rows probe.csv | grep -c ",ok$")" -eq 20 ]' "veth: twenty ok rows"
ok 'head -1 probe.csv | grep -q "target=10.77.0.2:$P addr=10.77.0.2 count=20 "' "veth: header"
run ip netns exec $A "$PROBE" -n 3 -i 0.02 -b 10.77.0.1 10.77.0.2 "$P"
expect_code 0 "veth: -b with the namespace's own address"
run ip netns exec $A "$PROBE" -n 3 -i 0.02 -t 0.2 10.77.0.99 "$P"
expect_code 3 "veth: an absent host on the link: exit 3"
ok '[ "$(printf "%s\n" "$OUT" | grep -c ",\(timeout\|unreachable\)$")" -eq 3 ]' \
    "veth: absent host gives timeout or unreachable, never an RTT"

# Path MTU on the link itself: the route MTU, answered at once.
ip -n $A link set "v$$a" mtu 1400 && ip -n $B link set "v$$b" mtu 1400
run ip netns exec $A "$PROBE" --mtu -t 0.3 10.77.0.2
expect_code 0 "--mtu veth: exit 0"
expect_out_has "mtu=1400 target=10.77.0.2:33434" "--mtu veth: the link MTU"

# Through a router: A --1400-- B(router) --1300-- R.  The router answers
# the 1400-byte probe with "fragmentation needed, mtu 1300".
netns_new $R && netns_link $B $R "w$$b" "w$$r" 10.78.0.1 10.78.0.2 &&
    ip -n $B link set "w$$b" mtu 1300 && ip -n $R link set "w$$r" mtu 1300 &&
    ip netns exec $B sysctl -qw net.ipv4.ip_forward=1 &&
    ip -n $A route add 10.78.0.0/24 via 10.77.0.2 &&
    ip -n $R route add 10.77.0.0/24 via 10.78.0.1
ok '[ $? -eq 0 ]' "router namespace set up"
run ip netns exec $A "$PROBE" --mtu -t 0.3 10.78.0.2
expect_code 0 "--mtu through the router: exit 0"
expect_out_has "mtu=1300 target=10.78.0.2:33434 addr=10.78.0.2 route_mtu=1400" \
    "--mtu through the router: the smaller hop's MTU"
expect_err_has "ping -M do -s 1272" "--mtu: the ping -s equivalent"

test_done
