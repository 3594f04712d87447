# t4007: pathprobe's output cannot be written.  Its reader went away
# (pathprobe ... | head -1): it stops probing and dies silently of
# SIGPIPE like other filters (exit 141 in the shell), or, when SIGPIPE
# was ignored on entry, says "Broken pipe" and exits 1; a full device
# gives its own errno, never the errno of a later connect() ("Operation
# now in progress").  Loopback only.
. "$TOP/tests/cli/helper/probe-lib.sh"
trap stop_peers EXIT

start_peer accept 127.0.0.1 60 || skip_all "cannot start a loopback listener"
P=$PEER_PORT

# 2,000 probes 5 ms apart would take 10 s; the pipe closes after the
# first 4 KiB of rows.  timeout(1) turns a run that goes on into 124.
( timeout 8 "$PROBE" -n 2000 -i 0.005 127.0.0.1 "$P" 2>err1.txt; echo $? >rc1 ) |
    head -1 >out1.txt
ok '[ "$(cat rc1)" = 141 ]' "| head -1: killed by SIGPIPE, exit 141 (got $(cat rc1))"
ok '[ ! -s err1.txt ]' "| head -1: nothing on stderr: $(head -c 300 err1.txt)"
ok 'grep -q "^# pathprobe 2 target=127.0.0.1:$P " out1.txt' "| head -1: the reader got the header"

( trap '' PIPE; timeout 8 "$PROBE" -n 2000 -i 0.005 127.0.0.1 "$P" 2>err2.txt; echo $? >rc2 ) |
    head -1 >/dev/null
ok '[ "$(cat rc2)" = 1 ]' "SIGPIPE ignored: exit 1 (got $(cat rc2))"
ok '[ "$(cat err2.txt)" = "pathprobe: cannot write to standard output: Broken pipe" ]' \
    "SIGPIPE ignored: the right reason: $(cat err2.txt)"

if [ -w /dev/full ]; then
	run sh -c "exec \"$PROBE\" -n 200 -i 0.002 127.0.0.1 $P >/dev/full"
	expect_code 1 "stdout on a full device: exit 1"
	expect_err_has "pathprobe: cannot write to standard output: No space left on device" \
	    "stdout on a full device: its errno"
	expect_err_lacks "in progress" "never a later connect()'s errno"
fi

test_done
