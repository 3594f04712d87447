#!/bin/sh
# probe-accuracy.sh - pathprobe's self-overhead against a minimal Python
# prober (bench/py_prober.py, socket.create_connection timed with
# perf_counter, as the first reference article did), in the same run,
# on loopback and across a veth pair between two network namespaces made
# here (skipped without root / ip netns), plain and with the SYN/ACK
# steered to CPU 1 and the probers pinned to CPU 0 (the prober is woken
# by the answer, as over a real network).  Rounds alternate the two
# probers so drift hits both alike.  Where tcpdump can run (root), each
# prober's handshakes are captured (nanosecond stamps) and paired with
# its rows by tests/cli/helper/wire.py, and a second table compares
# pathprobe's rtt_us and connect_ms and the Python prober's time with
# the wire SYN -> SYN/ACK, as ratios of medians from this one run.
# Prints Markdown tables of p50s (type 7) and exits 1 if pathprobe's p50
# is not the lower one.
#
#   sh bench/probe-accuracy.sh [PATHPROBE]
#   env: PYTHON (python3), BENCH_N probes per round (300),
#        BENCH_ROUNDS (3), BENCH_INTERVAL seconds (0.01)
#
# Only loopback and the namespaces' own addresses are probed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PROBE=${1:-$top/pathprobe}
PY=${PYTHON:-python3}
N=${BENCH_N:-300}
ROUNDS=${BENCH_ROUNDS:-3}
IV=${BENCH_INTERVAL:-0.01}
[ -x "$PROBE" ] || { echo "probe-accuracy: no pathprobe at '$PROBE' (run make)" >&2; exit 2; }
command -v "$PY" >/dev/null 2>&1 || { echo "probe-accuracy: no $PY" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/probe-accuracy.XXXXXX")
NS_A=pba$$ NS_B=pbb$$
pids=""
# shellcheck disable=SC2317  # called by the trap
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	[ -z "$td" ] || kill "$td" 2>/dev/null
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	rm -rf "$W"
}
td=""
CAP=0
[ "$(id -u)" = 0 ] && command -v tcpdump >/dev/null 2>&1 && CAP=1
trap cleanup EXIT
trap 'exit 130' INT TERM

# listen HOST PORTFILE [PREFIX...]: start a listener, set PORT.
listen() {
	host=$1 pf=$2
	shift 2
	"$@" "$PY" "$here/py_prober.py" listen "$host" 600 "$pf" >/dev/null &
	pids="$pids $!"
	i=0
	while [ ! -s "$pf" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	PORT=$(cat "$pf")
}

# cap_start DEV PORT [PREFIX...] / cap_stop CSV PORT OUT: capture the
# handshakes of one prober run and append "seq wire_us rtt_us connect_us"
# per paired probe to OUT (nothing without CAP).
cap_start() {
	[ $CAP = 1 ] || return 0
	dev=$1 cport=$2
	shift 2
	rm -f "$W/c.pcap" "$W/c.err"
	"$@" tcpdump -i "$dev" -n -s 128 -U --immediate-mode \
	    --time-stamp-precision=nano -w "$W/c.pcap" "tcp port $cport" \
	    2>"$W/c.err" &
	td=$!
	i=0
	while ! grep -q "listening on" "$W/c.err" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
cap_stop() {
	[ $CAP = 1 ] || return 0
	sleep 0.5
	kill -INT "$td" 2>/dev/null
	wait "$td" 2>/dev/null
	td=""
	"$PY" "$top/tests/cli/helper/wire.py" "$W/c.pcap" "$1" "$2" 2>/dev/null |
	    grep '^[0-9]' >>"$3"
}

# measure NAME HOST PORT DEV [PREFIX...]: ROUNDS x (pathprobe, python),
# appending ok times (ms) to $W/NAME.pp and $W/NAME.py, and the paired
# wire figures to $W/NAME.ppw and $W/NAME.pyw.
measure() {
	name=$1 host=$2 port=$3 dev=$4
	shift 4
	: >"$W/$name.pp"
	: >"$W/$name.py"
	: >"$W/$name.ppw"
	: >"$W/$name.pyw"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		cap_start "$dev" "$port" "$@"
		"$@" "$PROBE" -q -n "$N" -i "$IV" -t 1 "$host" "$port" \
		    >"$W/r.csv"
		cap_stop "$W/r.csv" "$port" "$W/$name.ppw"
		awk -F, '$NF == "ok" { print $3 }' "$W/r.csv" >>"$W/$name.pp"
		cap_start "$dev" "$port" "$@"
		"$@" "$PY" "$here/py_prober.py" probe "$host" "$port" "$N" "$IV" 1 \
		    >"$W/r.csv"
		cap_stop "$W/r.csv" "$port" "$W/$name.pyw"
		awk -F, '$NF == "ok" { print $3 }' "$W/r.csv" >>"$W/$name.py"
		r=$((r + 1))
	done
}

# stats FILE: "p50 n" (type 7, like numpy's default).
stats() {
	"$PY" -c '
import sys
v = sorted(float(x) for x in open(sys.argv[1]) if x.strip())
if not v:
    print("nan 0"); sys.exit()
h = (len(v) - 1) * 0.5
lo = int(h); hi = min(lo + 1, len(v) - 1)
print("%.4f %d" % (v[lo] + (h - lo) * (v[hi] - v[lo]), len(v)))' "$1"
}

listen 127.0.0.1 "$W/lo.port"
measure lo 127.0.0.1 "$PORT" lo
where="lo"
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 &&
    ip netns add $NS_A 2>/dev/null && ip netns add $NS_B 2>/dev/null &&
    ip link add "p$$a" netns $NS_A type veth peer name "p$$b" netns $NS_B &&
    ip -n $NS_A addr add 10.80.0.1/24 dev "p$$a" &&
    ip -n $NS_B addr add 10.80.0.2/24 dev "p$$b" &&
    ip -n $NS_A link set "p$$a" up && ip -n $NS_B link set "p$$b" up &&
    ip -n $NS_A link set lo up && ip -n $NS_B link set lo up; then
	listen 10.80.0.2 "$W/veth.port" ip netns exec $NS_B
	measure veth 10.80.0.2 "$PORT" "p$$a" ip netns exec $NS_A
	where="lo veth"
	# The SYN/ACK handled on CPU 1 (receive packet steering), both
	# probers pinned to CPU 0: it arrives after connect() returned and
	# wakes the prober, as a NIC interrupt does on a real path.
	if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1 &&
	    ip netns exec $NS_A sh -c "echo 2 > /sys/class/net/p$$a/queues/rx-0/rps_cpus" &&
	    ip netns exec $NS_B sh -c "echo 2 > /sys/class/net/p$$b/queues/rx-0/rps_cpus"; then
		measure vethrps 10.80.0.2 "$PORT" "p$$a" ip netns exec $NS_A \
		    taskset -c 0
		where="lo veth vethrps"
	fi
fi

fail=0
echo "| where | pathprobe p50 (ms) | Python p50 (ms) | Python − pathprobe (ms) | Python / pathprobe | probes each |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for w in $where; do
	# shellcheck disable=SC2046  # two words each on purpose
	set -- $(stats "$W/$w.pp") $(stats "$W/$w.py")
	pp=$1 npp=$2 py=$3 npy=$4
	case $w in
	lo) label="loopback 127.0.0.1" ;;
	veth) label="veth pair, two namespaces" ;;
	vethrps) label="veth pair, SYN/ACK on another CPU" ;;
	esac
	line=$(awk -v a="$pp" -v b="$py" -v na="$npp" -v nb="$npy" -v l="$label" \
	    'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.2f× | %d / %d |", l, a, b, b - a, (a > 0 ? b / a : 0), na, nb }')
	echo "$line"
	awk -v a="$pp" -v b="$py" 'BEGIN { exit !(a < b) }' || fail=1
done
[ "$where" = lo ] && echo "| veth pair, two namespaces | not measured (needs root and ip netns) | | | | |"
echo
echo "p50 is type 7 (linear interpolation) over $ROUNDS alternating rounds of $N probes, ${IV} s apart;"
echo "pathprobe: connect_ms (CLOCK_MONOTONIC around a non-blocking connect + poll);"
echo "Python: time.perf_counter() around socket.create_connection(), as the article's prober."

if [ $CAP = 1 ]; then
	echo
	echo "Against the wire (tcpdump on the client's interface, SYN → SYN/ACK, paired per probe):"
	echo
	echo "| where | wire p50 (µs) | pathprobe rtt_us p50 | pathprobe connect_ms p50 | Python p50 | rtt_us / wire | connect_ms / wire | Python / wire | Python / connect_ms | connect_ms − wire p50 / p99 (µs) | Python − wire p50 / p99 (µs) | probes paired |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for w in $where; do
		"$PY" - "$W/$w.ppw" "$W/$w.pyw" "$w" <<'EOF'
import sys
def q7(v, p):
    v = sorted(v)
    if not v:
        return float("nan")
    h = (len(v) - 1) * p
    lo = int(h); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])
pp = [l.split() for l in open(sys.argv[1])]
py = [l.split() for l in open(sys.argv[2])]
wire = [float(r[1]) for r in pp] + [float(r[1]) for r in py]
rtt = [float(r[2]) for r in pp if r[2] != "-"]
con = [float(r[3]) for r in pp]
pyv = [float(r[3]) for r in py]
oc = [float(r[3]) - float(r[1]) for r in pp]
op = [float(r[3]) - float(r[1]) for r in py]
w, k, c, p = q7(wire, .5), q7(rtt, .5), q7(con, .5), q7(pyv, .5)
label = {"lo": "loopback 127.0.0.1", "veth": "veth pair, two namespaces",
         "vethrps": "veth pair, SYN/ACK on another CPU"}[sys.argv[3]]
print("| %s | %.1f | %.1f | %.1f | %.1f | %.2f× | %.2f× | %.2f× | %.2f× | %.1f / %.1f | %.1f / %.1f | %d / %d |" % (
    label, w, k, c, p, k / w, c / w, p / w, p / c, q7(oc, .5), q7(oc, .99),
    q7(op, .5), q7(op, .99), len(pp), len(py)))
EOF
	done
	echo
	echo "Medians (type 7) of each prober's own probes; wire p50 over both; ratios of medians."
else
	echo
	echo "Not compared with the wire: needs root and tcpdump."
fi
if [ $fail = 0 ]; then
	echo "probe-accuracy: ok (pathprobe's p50 is lower everywhere measured)" >&2
else
	echo "probe-accuracy: FAIL (pathprobe's p50 is not lower)" >&2
fi
exit $fail
