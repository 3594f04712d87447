# t4024: the path MTU from the wire to the table.  Three namespaces the
# test makes: a client, a router and a host, the router's far link at
# MTU 8500 (the first article's cross-region peering) behind a 9001
# near one, and a blackhole route on the router for an address that
# never answers (the PrivateLink NLB, which forwards no ICMP).
# pathstat-collect --mtu runs pathprobe --mtu toward each; ingest reads
# both mtu.txt files; analyze mtu says 8500 and "could not measure".
# Skipped where namespaces are not available (needs root and ip netns).
. "$TOP/tests/cli/helper/probe-lib.sh"
COLLECT="$TOP/collect/pathstat-collect"

have_prereq NETNS || skip_all "network namespaces not available (needs root and 'ip netns')"
trap 'stop_peers; netns_cleanup' EXIT
trap 'exit 1' INT TERM
A=pma$$ R=pmr$$ B=pmb$$
netns_new $A && netns_new $R && netns_new $B &&
    netns_link $A $R "m$$a" "m$$r" 10.85.0.1 10.85.0.2 &&
    netns_link $R $B "n$$r" "n$$b" 10.86.0.1 10.86.0.2 &&
    ip -n $A link set "m$$a" mtu 9001 && ip -n $R link set "m$$r" mtu 9001 &&
    ip -n $R link set "n$$r" mtu 8500 && ip -n $B link set "n$$b" mtu 8500 &&
    ip netns exec $R sysctl -qw net.ipv4.ip_forward=1 &&
    ip -n $A route add default via 10.85.0.2 &&
    ip -n $B route add default via 10.86.0.1 &&
    ip -n $R route add blackhole 10.86.0.99/32 ||
    skip_all "cannot make the client, router and host namespaces"
start_peer accept 10.86.0.2 30 ip netns exec $B || skip_all "no listener in $B"
P=$PEER_PORT

collect() { # PATH HOST
	run ip netns exec $A env PATHPROBE="$PROBE" sh "$COLLECT" --path "$1" \
	    --host "$2" --port "$P" --out res --no-imds --instance-type c6i.large \
	    --az ap-northeast-1a --probe-count 5 --probe-interval 0.02 \
	    --no-iperf3 --cooldown 0 --mtu
}
collect D 10.86.0.2
expect_code 0 "collector to the host behind the 8500 link: exit 0"
ok 'grep -q "^mtu=8500 target=10.86.0.2:33434 addr=10.86.0.2 route_mtu=9001 " res/D/*/mtu/mtu.txt' \
    "D: mtu.txt says 8500 through a 9001 route: $(cat res/D/*/mtu/mtu.txt)"
collect E 10.86.0.99
expect_code 0 "collector to the blackholed address: exit 0 (loss is a result)"
ok 'grep -q "^mtu=unknown target=10.86.0.99:33434 .* reason=no-answer$" res/E/*/mtu/mtu.txt' \
    "E: mtu.txt says unknown, no answer: $(cat res/E/*/mtu/mtu.txt)"

run "$PS" ingest --db t.db res
expect_code 0 "the collector's tree ingests"
run "$PS" analyze mtu --db t.db
expect_code 0 "analyze mtu: exit 0"
expect_out_has "| D | – | 8500 | 9001 | 1 | udp-df | – |" "the MTU table says 8500 for D"
expect_out_has "| E | – | could not measure | 9001 | 1 | udp-df | no answer to UDP probes with the DF bit set" \
    "... and could not measure for E, with the reason"
echo "$OUT" | sed 's/^/# /'
expect_sql t.db "SELECT path, status, coalesce(mtu, 'NULL') FROM mtu_view ORDER BY path" \
    "D|found|8500
E|unknown|NULL" "mtu_view: 8500, and unknown kept as NULL"
test_done
