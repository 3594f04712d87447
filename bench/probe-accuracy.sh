#!/bin/sh
# probe-accuracy.sh - pathprobe's self-overhead against a minimal Python
# prober (bench/py_prober.py, socket.create_connection timed with
# perf_counter, as the first reference article did), in the same run,
# on loopback and across a veth pair between two network namespaces made
# here (skipped without root / ip netns).  Rounds alternate the two
# probers so drift hits both alike.  Prints a Markdown table of p50s
# (type 7) and exits 1 if pathprobe's p50 is not the lower one.
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
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	rm -rf "$W"
}
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

# measure NAME HOST PORT [PREFIX...]: ROUNDS x (pathprobe, python),
# appending ok times (ms) to $W/NAME.pp and $W/NAME.py.
measure() {
	name=$1 host=$2 port=$3
	shift 3
	: >"$W/$name.pp"
	: >"$W/$name.py"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		"$@" "$PROBE" -q -n "$N" -i "$IV" -t 1 "$host" "$port" |
		    awk -F, '$4 == "ok" { print $3 }' >>"$W/$name.pp"
		"$@" "$PY" "$here/py_prober.py" probe "$host" "$port" "$N" "$IV" 1 |
		    grep -v '[a-z]' >>"$W/$name.py"
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
measure lo 127.0.0.1 "$PORT"
where="lo"
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 &&
    ip netns add $NS_A 2>/dev/null && ip netns add $NS_B 2>/dev/null &&
    ip link add "p$$a" netns $NS_A type veth peer name "p$$b" netns $NS_B &&
    ip -n $NS_A addr add 10.80.0.1/24 dev "p$$a" &&
    ip -n $NS_B addr add 10.80.0.2/24 dev "p$$b" &&
    ip -n $NS_A link set "p$$a" up && ip -n $NS_B link set "p$$b" up &&
    ip -n $NS_A link set lo up && ip -n $NS_B link set lo up; then
	listen 10.80.0.2 "$W/veth.port" ip netns exec $NS_B
	measure veth 10.80.0.2 "$PORT" ip netns exec $NS_A
	where="lo veth"
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
if [ $fail = 0 ]; then
	echo "probe-accuracy: ok (pathprobe's p50 is lower everywhere measured)" >&2
else
	echo "probe-accuracy: FAIL (pathprobe's p50 is not lower)" >&2
fi
exit $fail
