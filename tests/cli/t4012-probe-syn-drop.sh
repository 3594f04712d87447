# t4012: what Linux reports when the first SYN is lost, and what
# pathprobe writes then.  An nftables rule in the server's namespace
# (made here) drops the first SYN from each source port; the client
# retransmits it after the initial RTO (1 s).  Karn's rule leaves the
# kernel no SYN->SYN/ACK sample: with TCP timestamps it reports the
# timestamp option's RTT in whole milliseconds (1000 us at least), without
# them 0.  Neither is the handshake's RTT, so rtt_us stays empty while
# connect_ms (over 1 s) is kept, and the summary counts such probes
# (pathprobe(1), CAVEATS).  With the default -t 0.4 the probe is loss.
# Needs root, ip netns and nft; skipped with a reason elsewhere.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap 'stop_peers; netns_cleanup' EXIT
trap 'exit 1' INT TERM

have_prereq NETNS || skip_all "network namespaces not available (needs root and 'ip netns')"
command -v nft >/dev/null 2>&1 || skip_all "nft (nftables) not installed"
A=psda$$ B=psdb$$
netns_pair $A $B 10.82.0.1 10.82.0.2 || skip_all "cannot make a veth pair"
start_peer accept 10.82.0.2 40 ip netns exec $B || skip_all "no listener in $B"
P=$PEER_PORT
ip netns exec $B nft -f - <<EOF || skip_all "nft cannot load a ruleset in a namespace"
table inet pathstat_t4012 {
	set seen {
		type inet_service
		flags dynamic,timeout
		timeout 60s
	}
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport $P tcp flags & (syn | ack) == syn tcp sport @seen accept
		tcp dport $P tcp flags & (syn | ack) == syn add @seen { tcp sport } counter drop
	}
}
EOF

# What the kernel itself says right after such a connect (TCP_INFO:
# tcpi_rtt at byte 68, tcpi_total_retrans at 100).
kernel_says() {
	ip netns exec $A "$PY" -c '
import socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), 3)
ti = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
print(struct.unpack_from("I", ti, 68)[0], struct.unpack_from("I", ti, 100)[0])
s.close()' 10.82.0.2 "$P"
}

for ts in 1 0; do
	ip netns exec $A sysctl -qw net.ipv4.tcp_timestamps=$ts ||
	    skip_all "cannot set net.ipv4.tcp_timestamps in $A"
	k=$(kernel_says)
	krtt=${k%% *} kre=${k#* }
	echo "# tcp_timestamps=$ts: tcpi_rtt $krtt us, tcpi_total_retrans $kre"
	ok '[ "$kre" = 1 ]' "timestamps $ts: the kernel counts one retransmitted SYN"
	if [ $ts = 1 ]; then
		ok '[ "$krtt" -ge 1000 ] && [ $((krtt % 1000)) = 0 ]' \
		    "timestamps on: tcpi_rtt is whole ms from the timestamp echo ($krtt us)"
	else
		ok '[ "$krtt" = 0 ]' "timestamps off: no RTT sample at all (tcpi_rtt $krtt)"
	fi
	run ip netns exec $A "$PROBE" -n 2 -i 1.2 -t 3 -o ts$ts.csv 10.82.0.2 "$P"
	expect_code 0 "timestamps $ts, -t 3: the retransmitted SYN connects, exit 0"
	ok 'csv_rows ts$ts.csv | awk -F, "\$5!=\"ok\"||\$3<1000||\$4!=\"\"{e=1} END{exit e}"' \
	    "timestamps $ts: connect_ms over 1 s, rtt_us empty: $(csv_rows ts$ts.csv | tr '\n' ' ')"
	expect_err_has "; 2 ok after a SYN retransmit (no rtt_us)" \
	    "timestamps $ts: the summary counts them"
	expect_err_lacks "kernel rtt_us" "timestamps $ts: no rtt_us figures"
done

run ip netns exec $A "$PROBE" -n 1 -o t.csv 10.82.0.2 "$P"
expect_code 3 "default -t 0.4: the first SYN's loss is a timeout, exit 3"
ok '[ "$(csv_rows t.csv)" = "$(csv_rows t.csv | cut -d, -f1,2),,,timeout" ]' \
    "default -t 0.4: a timeout row, no connect_ms, no rtt_us"

test_done
