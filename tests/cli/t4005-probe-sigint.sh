# t4005: SIGINT ends a run early and still leaves a valid -o file with the
# rows done (written to a temporary file, renamed at the end).  Signals
# are sent once pathprobe has finished some probes, counted by their
# TIME_WAIT sockets (pathprobe closes first), not after a fixed sleep, so
# a loaded machine cannot make the run start late and the test fail.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer accept 127.0.0.1 60 || skip_all "cannot start a loopback listener"
P=$PEER_PORT
[ -r /proc/net/tcp ] || skip_all "no /proc/net/tcp to count finished probes"
# probes_done N: wait (30 s at most) until N more probes to $P have been
# closed than when probes_mark was called (TIME_WAIT is state 06).
tw() {
	awk -v p=":$(printf %04X "$P")" '$3 ~ p"$" && $4 == "06"' /proc/net/tcp |
	    wc -l
}
probes_mark() { tw_base=$(tw); }
probes_done() {
	i=0
	while [ $(($(tw) - tw_base)) -lt "$1" ] && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ $(($(tw) - tw_base)) -ge "$1" ]
}

# A background job of a non-interactive shell starts with SIGINT ignored
# (and pathprobe keeps ignored signals ignored), so reset it on the way.
# python here is only a trampoline that execs pathprobe: "$REAL_PY", not
# the "$PY" wrapper, which would stay in between and take the signal.
probes_mark
"$REAL_PY" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$PROBE" -n 1000 -i 0.05 -o probe.csv \
    127.0.0.1 "$P" 2>err.txt &
pid=$!
ok 'probes_done 5' "five probes done before SIGINT"
ok '[ ! -e probe.csv ] && ls -A | grep -q "^\.probe\.csv\."' \
    "while running: only the hidden temporary file exists"
kill -INT $pid
wait $pid
rc=$?
ok '[ $rc -eq 0 ]' "SIGINT: exit status follows the rows done (0), got $rc"
ok 'grep -q "interrupted after [0-9]* of 1000 probes" err.txt' "SIGINT: says interrupted"
n=$(csv_rows probe.csv | wc -l)
ok '[ "$n" -ge 5 ] && [ "$n" -lt 1000 ]' "SIGINT: some rows written ($n)"
ok 'head -1 probe.csv | grep -q "^# pathprobe 2 target="' "SIGINT: header intact"
ok 'csv_rows probe.csv | awk -F, "{if(\$1!=NR-1||\$5!=\"ok\")e=1} END{exit e}"' \
    "SIGINT: rows complete and in order"
ok '[ -z "$(ls -A | grep "^\.probe\.csv\.")" ]' "SIGINT: no temporary file left"
ok 'grep -q "$n sent, $n ok" err.txt' "SIGINT: summary counts the rows written"

# SIGTERM likewise; stdout output keeps the rows done too.
probes_mark
"$PROBE" -n 1000 -i 0.05 127.0.0.1 "$P" >term.csv 2>err2.txt &
pid=$!
ok 'probes_done 3' "three probes done before SIGTERM"
kill -TERM $pid
wait $pid
rc=$?
ok '[ $rc -eq 0 ] && grep -q "interrupted after" err2.txt' "SIGTERM: ends early, exit 0"
ok '[ "$(csv_rows term.csv | wc -l)" -ge 3 ] && head -1 term.csv | grep -q "^# pathprobe 2 "' \
    "SIGTERM: stdout has the header and the rows done"

# nohup: a signal ignored on entry stays ignored (SSH hang-up).  The
# hang-up comes once pathprobe runs (a probe done), with most of its
# 40 probes (2 s) still to go.
probes_mark
"$REAL_PY" -c 'import os, signal, sys
signal.signal(signal.SIGHUP, signal.SIG_IGN)
os.execv(sys.argv[1], sys.argv[1:])' "$PROBE" -n 40 -i 0.05 127.0.0.1 "$P" \
    >hup.csv 2>err3.txt &
pid=$!
probes_done 1
kill -HUP $pid
sent=$?
wait $pid
rc=$?
ok '[ $sent -eq 0 ]' "SIGHUP reached the running pathprobe"
ok '[ $rc -eq 0 ] && [ "$(csv_rows hup.csv | wc -l)" -eq 40 ] && ! grep -q interrupted err3.txt' \
    "SIGHUP ignored on entry (nohup): the run completes"

test_done
