# probe-lib.sh - helpers for the t4xxx pathprobe and collector tests,
# sourced after lib.sh.  Peers run on loopback or inside namespaces the
# test made; each ends by itself (listen.py SECONDS) and is killed by
# stop_peers (call it from an EXIT trap).
#   start_peer MODE HOST SECONDS [PREFIX...]  sets PEER_PID and PEER_PORT
#   closed_port HOST                          prints a port just closed
#   have_ipv6_lo                              ::1 usable
#   csv_rows FILE                             data rows of a pathprobe CSV
#   schedule FILE INTERVAL_NS                 how the rows kept the schedule
#                                             (helper/schedule.py), to
#                                             FILE.sched

LISTEN="$TOP/tests/cli/helper/listen.py"
peer_n=0
peer_pids=""

start_peer() {
	mode=$1 host=$2 secs=$3
	shift 3
	peer_n=$((peer_n + 1))
	pf="$TMP/.peer$peer_n"
	"$@" "$PY" "$LISTEN" "$mode" "$host" "$secs" "$pf" &
	PEER_PID=$!
	peer_pids="$peer_pids $PEER_PID"
	i=0
	while [ ! -s "$pf" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	PEER_PORT=$(cat "$pf" 2>/dev/null)
	[ -n "$PEER_PORT" ]
}

stop_peers() {
	for p in $peer_pids; do
		kill "$p" 2>/dev/null
	done
	for p in $peer_pids; do
		wait "$p" 2>/dev/null
	done
	peer_pids=""
}

closed_port() {
	peer_n=$((peer_n + 1))
	"$PY" "$LISTEN" closed "$1" "$TMP/.peer$peer_n" && cat "$TMP/.peer$peer_n"
}

have_ipv6_lo() {
	"$PY" -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1",0))' \
	    2>/dev/null
}

csv_rows() {
	grep -v '^#' "$1" | sed 1d
}

schedule() {
	"$PY" "$TOP/tests/cli/helper/schedule.py" "$1" "$2" >"$1.sched" 2>&1
	echo "# schedule of $1: $(cat "$1.sched")"
}

# Network namespaces made by the test itself, removed by netns_cleanup
# (call it from the EXIT trap).  Names carry the shell's pid so parallel
# runs never collide.  Addresses live only inside these namespaces.
#   netns_pair A B ADDR_A ADDR_B [RATE]   veth A<->B (/24), tbf RATE each way
#   netns_link A B IFA IFB ADDR_A ADDR_B  another veth between two ns
NETNS_LIST=""
netns_new() {
	ip netns add "$1" || return 1
	NETNS_LIST="$NETNS_LIST $1"
	ip -n "$1" link set lo up
}
netns_link() {
	ip link add "$3" netns "$1" type veth peer name "$4" netns "$2" &&
	ip -n "$1" addr add "$5/24" dev "$3" &&
	ip -n "$2" addr add "$6/24" dev "$4" &&
	ip -n "$1" link set "$3" up &&
	ip -n "$2" link set "$4" up
}
netns_pair() {
	netns_new "$1" && netns_new "$2" &&
	netns_link "$1" "$2" "v$$a" "v$$b" "$3" "$4" || return 1
	if [ -n "${5:-}" ]; then
		ip netns exec "$1" tc qdisc add dev "v$$a" root tbf rate "$5" \
		    burst 64kb latency 50ms &&
		ip netns exec "$2" tc qdisc add dev "v$$b" root tbf rate "$5" \
		    burst 64kb latency 50ms
	fi
}
netns_cleanup() {
	for n in $NETNS_LIST; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	NETNS_LIST=""
}
# Wait until HOST:PORT accepts TCP inside namespace NS (iperf3 -s).
wait_tcp() {
	i=0
	while [ $i -lt 50 ]; do
		ip netns exec "$1" "$PY" -c "import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 0.2).close()" \
		    "$2" "$3" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
