#!/bin/sh
# probe-overhead.sh - where pathprobe's connect_ms goes beyond the wire:
# a pathprobe built with -DPROBE_TRACE prints, per probe, its
# CLOCK_MONOTONIC stamps (before connect(), connect() returned, wait
# began, wait returned); tcpdump stamps the SYN and the SYN/ACK on the
# client's interface (nanoseconds, CLOCK_REALTIME, mapped to the
# monotonic clock); tests/cli/helper/wire.py pairs them.  Three paths,
# each in network namespaces made here:
#
#   lo      loopback inside a namespace: the peer's SYN/ACK is made and
#           delivered inside pathprobe's own connect() call
#   veth    a veth pair between two namespaces: the same, one more hop
#   veth+rps  the veth pair with receive packet steering to CPU 1 and
#           pathprobe pinned to CPU 0: the SYN/ACK arrives on another
#           CPU after connect() returned and wakes pathprobe, as a NIC
#           interrupt does
#
# for -i 0.01 and 0.2 (idle gaps), unpinned and pinned to CPU 0, and
# with and without --no-spin.  Prints a Markdown table of medians (type
# 7, microseconds).  Needs root, ip netns, tcpdump, python3, taskset.
#
#   sh bench/probe-overhead.sh
#   env: BENCH_N (300), BENCH_N_SLOW (100) probes per row at -i 0.01 and
#        0.2; BENCH_SPIN_ORDER ("yes no"): which of each pair runs first
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
PY=${PYTHON:-python3}
N=${BENCH_N:-300}
NSLOW=${BENCH_N_SLOW:-100}
H="$top/tests/cli/helper"
for t in ip tcpdump taskset "$PY" cc; do
	command -v "$t" >/dev/null 2>&1 ||
	    { echo "probe-overhead: needs $t" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "probe-overhead: needs root (ip netns, tcpdump)" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/probe-overhead.XXXXXX")
A=poa$$ B=pob$$
# shellcheck disable=SC2317  # called by the trap
cleanup() {
	for n in $A $B; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$n" 2>/dev/null
	done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PROBE=$W/pathprobe-trace
cc -std=c11 -O2 -DPROBE_TRACE -I"$top" -o "$PROBE" "$top"/collect/*.c \
    "$top/common/parse.c" -lm || exit 2

ip netns add $A && ip netns add $B &&
ip link add va netns $A type veth peer name vb netns $B &&
ip -n $A addr add 10.93.0.1/24 dev va && ip -n $B addr add 10.93.0.2/24 dev vb &&
ip -n $A link set va up && ip -n $B link set vb up &&
ip -n $A link set lo up && ip -n $B link set lo up || exit 2
ip netns exec $A "$PY" "$H/listen.py" accept 127.0.0.1 3600 "$W/lo.port" &
ip netns exec $B "$PY" "$H/listen.py" accept 10.93.0.2 3600 "$W/veth.port" &
i=0
while { [ ! -s "$W/lo.port" ] || [ ! -s "$W/veth.port" ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

rps() { # VALUE: steer both ends' receive processing
	ip netns exec $A sh -c "echo $1 > /sys/class/net/va/queues/rx-0/rps_cpus"
	ip netns exec $B sh -c "echo $1 > /sys/class/net/vb/queues/rx-0/rps_cpus"
}

# one WHERE IV PIN SPIN: one run, one table row
one() {
	where=$1 iv=$2 pin=$3 spin=$4
	case $where in
	lo) host=127.0.0.1 port=$(cat "$W/lo.port") dev=lo; rps 0 ;;
	veth) host=10.93.0.2 port=$(cat "$W/veth.port") dev=va; rps 0 ;;
	veth+rps) host=10.93.0.2 port=$(cat "$W/veth.port") dev=va; rps 2 ;;
	esac
	n=$N
	[ "$iv" = 0.2 ] && n=$NSLOW
	set --
	[ "$pin" = yes ] && set -- taskset -c 0
	flag=""
	[ "$spin" = no ] && flag=--no-spin
	ip netns exec $A tcpdump -i "$dev" -n -s 96 -B 4096 -U --immediate-mode \
	    --time-stamp-precision=nano -w "$W/c.pcap" "tcp port $port" \
	    2>/dev/null &
	td=$!
	sleep 1
	# shellcheck disable=SC2086  # flag empty or one word
	ip netns exec $A "$@" "$PROBE" -q $flag -n $n -i "$iv" "$host" "$port" \
	    >"$W/c.csv" 2>"$W/c.trace"
	sleep 0.5
	kill -INT $td
	wait $td
	"$PY" "$H/wire.py" "$W/c.pcap" "$W/c.csv" "$port" "$W/c.trace" \
	    >"$W/c.out" || return
	"$PY" - "$W/c.out" "$where" "$iv" "$pin" "$spin" <<'EOF'
import sys
d = {}
for line in open(sys.argv[1]):
    w = line.split()
    if line.startswith("# ") and len(w) > 3 and w[2] == "p50":
        d[w[1]] = float(w[3])
    elif line.startswith("summary"):
        for kv in w[1:]:
            k, v = kv.split("=")
            d[k] = float(v)
print("| %s | %s | %s | %s | %.1f | %.1f | %.1f | %.1f / %.1f | %.1f | %.1f | %.1f | %d |" % (
    sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
    d["wire_p50"], d["rtt_p50"], d["connect_p50"], d["over_p50"], d["over_p99"],
    d["to_syn"], d["syn_to_ret"], d["synack_to_wake"], d["n"]))
EOF
}

echo "| path | -i s | pinned | spin | wire SYN→SYN/ACK | rtt_us | connect_ms (µs) | connect − wire p50 / p99 | start → SYN | SYN → connect() returns | SYN/ACK → wait returns | n |"
echo "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for where in lo veth veth+rps; do
	for iv in 0.01 0.2; do
		for pin in no yes; do
			# veth+rps is about the wakeup on CPU 0: pinned only
			[ "$where" = veth+rps ] && [ "$pin" = no ] && continue
			for spin in ${BENCH_SPIN_ORDER:-yes no}; do
				one "$where" "$iv" "$pin" "$spin"
			done
		done
	done
done
echo
echo "Medians (type 7) in µs over N probes; 'SYN → connect() returns' is negative when"
echo "connect() returned before the SYN was seen on the interface."
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(uname -sr)."
