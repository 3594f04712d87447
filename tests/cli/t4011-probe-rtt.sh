# t4011: format 2's rtt_us, the kernel's handshake RTT (TCP_INFO), and
# how it compares with the wire: tcpdump (nanosecond stamps) records
# each SYN and SYN/ACK on the client's interface, tests/cli/helper/
# wire.py pairs them with the rows (300 probes each):
#
#   - across a veth pair between two namespaces made here, with a tbf
#     queue (20 Mbit/s) that a bulk TCP flow keeps full the other way, so
#     the SYN/ACK waits milliseconds in the queue and arrives after
#     connect() returned, as over a real network: the median of
#     |rtt_us - wire| must be at most 30 us (9.7-15 us measured quiet);
#   - on loopback in a namespace, the peer's SYN/ACK is made and handed
#     back inside pathprobe's own connect() call, and Linux processes it
#     only when connect() releases the socket: rtt_us then also holds the
#     rest of that call (measured +20..36 us, pathprobe(1) CAVEATS).  So
#     here rtt_us must not be below the wire (by more than 15 us), must
#     lie within connect_ms, and must be nearer the wire than connect_ms.
#
# The rtt_us checks without a capture run anywhere on Linux; the wire
# checks need root, ip netns, tc and tcpdump and skip with a reason.
. "$TOP/tests/cli/helper/probe-lib.sh"
td=""
trap 'stop_peers; [ -z "$td" ] || kill $td 2>/dev/null; netns_cleanup' EXIT
trap 'exit 1' INT TERM

[ "$(uname -s)" = Linux ] || skip_all "rtt_us comes from Linux's TCP_INFO"
start_peer accept 127.0.0.1 60 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

run "$PROBE" -n 20 -i 0.01 -o probe.csv 127.0.0.1 "$P"
expect_code 0 "loopback: exit 0"
ok '[ "$(sed -n 2p probe.csv)" = "seq,unix_ns,connect_ms,rtt_us,result" ]' \
    "format 2 columns"
ok 'head -1 probe.csv | grep -q "^# pathprobe 2 .* spin=1 "' "format 2 header, spin=1"
# Every ok row: rtt_us a positive integer no larger than connect_ms
# (the kernel times a part of what pathprobe waits for).
ok 'csv_rows probe.csv | awk -F, "\$5!=\"ok\"||\$4!~/^[1-9][0-9]*\$/||\$4>\$3*1000+1{e=1} END{exit e}"' \
    "rtt_us: an integer > 0 and <= connect_ms on every row"
expect_err_has "; kernel rtt_us p50 " "summary: kernel rtt_us"
expect_err_has " (n=20)" "summary: n of rtt_us"
run "$PROBE" --no-spin -n 3 -i 0.01 127.0.0.1 "$P"
expect_code 0 "--no-spin: exit 0"
expect_out_has " spin=0 " "--no-spin: in the header"

wire_done() { test_done; }
have_prereq NETNS || { echo "# SKIP wire checks: network namespaces not available (needs root and 'ip netns')"; wire_done; }
command -v tcpdump >/dev/null 2>&1 || { echo "# SKIP wire checks: tcpdump not installed"; wire_done; }
command -v tc >/dev/null 2>&1 || { echo "# SKIP wire checks: tc (iproute2) not installed"; wire_done; }

# capture NS DEV PORT FILE: start tcpdump, set td; 0 once it listens.
capture() {
	ip netns exec "$1" tcpdump -i "$2" -n -s 128 -U --immediate-mode \
	    --time-stamp-precision=nano -w "$4" "tcp port $3" 2>"$4.err" &
	td=$!
	i=0
	while ! grep -q "listening on" "$4.err" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "listening on" "$4.err"
}
# uncapture: stop tcpdump once the last packets were read.
uncapture() {
	sleep 0.5
	kill -INT $td 2>/dev/null
	wait $td 2>/dev/null
	td=""
}
# field NAME FILE: one value of wire.py's summary line.
field() { sed -n "s/^summary.* $1=\([^ ]*\).*/\1/p" "$2"; }

A=pra$$ B=prb$$
# Loopback, in a namespace of its own.
netns_new $A || skip_all "cannot make a network namespace"
start_peer accept 127.0.0.1 60 ip netns exec $A || skip_all "no listener in $A"
LP=$PEER_PORT
# A capture beside other tests can miss a handshake pathprobe made (seen
# once in CI: 298 of 300 on loopback and one short on the veth, in
# the same run, never alone or beside busy loops): each capture is taken
# again once when it holds fewer handshakes than pathprobe's ok rows,
# and the second is judged.
for try in 1 2; do
	capture $A lo "$LP" lo.pcap || skip_all "tcpdump does not start: $(cat lo.pcap.err)"
	run ip netns exec $A "$PROBE" -n 300 -i 0.01 -o lo.csv 127.0.0.1 "$LP"
	uncapture
	"$PY" "$TOP/tests/cli/helper/wire.py" lo.pcap lo.csv "$LP" >lo.wire 2>&1
	if [ $RC != 0 ] || [ "$(field n lo.wire)" = 300 ] || [ $try = 2 ]; then
		break
	fi
	echo "# loopback: the capture missed handshakes ($(tail -1 lo.wire); $(tail -1 lo.pcap.err)): again"
done
expect_code 0 "loopback, 300 probes: exit 0"
ok '[ "$(field n lo.wire)" = 300 ] && [ "$(field nrtt lo.wire)" = 300 ]' \
    "loopback: 300 handshakes on the wire, 300 rtt_us: $(tail -1 lo.wire)"
echo "# loopback: $(tail -1 lo.wire)"
"$PY" - lo.wire <<'EOF' >lo.check
import sys
rows = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
d = sorted(float(r[2]) - float(r[1]) for r in rows if r[2] != "-")
c = sorted(float(r[3]) - float(r[2]) for r in rows if r[2] != "-")
a = sorted(abs(float(r[2]) - float(r[1])) for r in rows if r[2] != "-")
o = sorted(float(r[3]) - float(r[1]) for r in rows)
med = lambda v: v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
print("rtt-wire %.1f connect-rtt %.1f absdiff %.1f connect-wire %.1f"
      % (med(d), med(c), med(a), med(o)))
EOF
read -r _ d _ c _ a _ o <lo.check
ok "awk -v d=$d 'BEGIN { exit !(d >= -15) }'" \
    "loopback: rtt_us is not below the wire (median rtt_us - wire $d us)"
ok "awk -v c=$c 'BEGIN { exit !(c >= 0) }'" \
    "loopback: rtt_us lies within connect_ms (median connect - rtt_us $c us)"
ok "awk -v a=$a -v o=$o 'BEGIN { exit !(a < o) }'" \
    "loopback: rtt_us is nearer the wire than connect_ms ($a against $o us)"
stop_peers

# A veth pair with tbf each way; bulk data B -> A fills B's queue.
netns_new $B && netns_link $A $B "v$$a" "v$$b" 10.81.0.1 10.81.0.2 &&
    ip netns exec $A tc qdisc add dev "v$$a" root tbf rate 20mbit burst 32kb latency 20ms &&
    ip netns exec $B tc qdisc add dev "v$$b" root tbf rate 20mbit burst 32kb latency 20ms ||
    skip_all "cannot make a veth pair with tbf"
start_peer accept 10.81.0.2 60 ip netns exec $B || skip_all "no listener in $B"
VP=$PEER_PORT
start_peer accept 10.81.0.1 60 ip netns exec $A || skip_all "no sink in $A"
ip netns exec $B "$PY" "$TOP/tests/cli/helper/listen.py" blast 10.81.0.1 30 "$PEER_PORT" \
    2>/dev/null &
peer_pids="$peer_pids $!"
sleep 1
# The queue the bulk flow keeps full drops a packet now and then, a SYN
# among them: that probe times out (loss, exit 3), which is a result, not
# a failure of this test; every ok probe must be on the wire with rtt_us
# (the capture taken again once, as on loopback).
for try in 1 2; do
	capture $A "v$$a" "$VP" veth.pcap || skip_all "tcpdump does not start on the veth"
	run ip netns exec $A "$PROBE" -n 300 -i 0.01 -o veth.csv 10.81.0.2 "$VP"
	uncapture
	nok=$(csv_rows veth.csv | grep -c ",ok$")
	"$PY" "$TOP/tests/cli/helper/wire.py" veth.pcap veth.csv "$VP" >veth.wire 2>&1
	if [ "$(field n veth.wire)" = "$nok" ] || [ $try = 2 ]; then
		break
	fi
	echo "# veth: the capture missed handshakes ($(tail -1 veth.wire); $(tail -1 veth.pcap.err)): again"
done
ok '{ [ $RC = 0 ] || { [ $RC = 3 ] && ! csv_rows veth.csv | grep -v ",ok$" | grep -qv ",timeout$"; }; } && [ "$nok" -ge 285 ]' \
    "veth with a full tbf queue: $nok of 300 ok, the rest lost SYNs (exit $RC)"
echo "# veth + tbf queue: $(tail -1 veth.wire)"
ok '[ "$(field n veth.wire)" = "$nok" ] && [ "$(field nrtt veth.wire)" = "$nok" ]' \
    "veth: every ok probe's handshake on the wire, with rtt_us: $(tail -1 veth.wire)"
ok "awk -v w=$(field wire_p50 veth.wire) 'BEGIN { exit !(w > 1000) }'" \
    "veth: the queue makes the RTT non-trivial (wire p50 $(field wire_p50 veth.wire) us > 1 ms)"
# On a quiet machine the median |rtt_us - wire| was 9.7-15 us, but the
# same run under ASan+UBSan, or beside other work (make -j runs the CLI
# tests side by side), gave 15-50 us: softirq and tcpdump's own stamping
# wait for a CPU too, and the capture's time drifts from the kernel's.
# A timing bound is judged only when asked (make test-slow sets
# PATHSTAT_TIMING=1), on a quiet machine: 30 us, far below the prober's
# own 50-100 us that rtt_us exists to leave out, and below any unit or
# clock error (a millisecond).  Otherwise the test says what it measured.
absdiff=$(field absdiff_p50 veth.wire)
if [ "${PATHSTAT_TIMING:-}" = 1 ]; then
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
	ok "awk -v a=$absdiff 'BEGIN { exit !(a <= 30) }'" \
	    "veth: median |rtt_us - wire| <= 30 us (got $absdiff us at load $load)"
else
	echo "# veth: median |rtt_us - wire| = $absdiff us (the 30 us bound is judged by make test-slow)"
	ok "awk -v a=$absdiff 'BEGIN { exit !(a < 1000) }'" \
	    "veth: median |rtt_us - wire| below a millisecond (got $absdiff us; no unit or clock error)"
fi

test_done
