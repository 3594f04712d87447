# t4021: pathstat-collect end to end on loopback: pathprobe and iperf3
# against iperf3 -s on 127.0.0.1, a fake oha (oha is not installed here),
# a fake EC2 metadata service on 127.0.0.1, a fake aws for --upload.
# Checks the tree shape, every meta.json, exit statuses, that a failed
# tool run is recorded and does not stop the rest.
. "$TOP/tests/cli/helper/probe-lib.sh"
COLLECT="$TOP/collect/pathstat-collect"
H="$TOP/tests/cli/helper"
have_prereq IPERF3 || skip_all "iperf3 not installed"
trap 'stop_peers; [ -n "${ipid:-}" ] && kill $ipid 2>/dev/null; [ -n "${mpid:-}" ] && kill $mpid 2>/dev/null' EXIT

P=$(closed_port 127.0.0.1)
timeout 40 iperf3 -s -B 127.0.0.1 -p "$P" >iperf3-server.log 2>&1 &
ipid=$!
"$PY" "$H/fake-imds.py" imds.port 40 &
mpid=$!
i=0
while [ ! -s imds.port ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
# Wait for iperf3 -s with a bare connect (an iperf3 test with -t below 1
# would be -t 0: unlimited).
wait_tcp_here() {
	"$PY" -c "import socket,sys,time
for i in range(50):
    try:
        socket.create_connection(('127.0.0.1', int(sys.argv[1])), 0.2).close(); sys.exit(0)
    except OSError: time.sleep(0.1)
sys.exit(1)" "$1"
}
wait_tcp_here "$P" || skip_all "iperf3 -s did not start"
IMDS_PORT=$(cat imds.port)
mkdir bin && cp "$H/fake-oha" bin/oha && cp "$H/fake-aws" bin/aws
export PATH="$TMP/bin:$PATH" PATHPROBE="$PROBE" FAKE_OHA_LOG="$TMP/oha.log" \
    FAKE_AWS_LOG="$TMP/aws.log"

run sh "$COLLECT" --path "G'" --host 127.0.0.1 --port "$P" --out res \
    --imds-url "http://127.0.0.1:$IMDS_PORT" --az-id use1-az9 \
    --probe-count 5 --probe-interval 0.02 --trials 2 --duration 1 \
    --cooldown 0 --url 1k=http://127.0.0.1:9/bytes/1024 \
    --url 1m=http://127.0.0.1:9/fail --keepalive on,off --concurrency 1 \
    --requests 50 --tag day_kind=weekday --upload s3://bucket/prefix
expect_code 1 "a failed oha condition makes the exit status 1"
expect_err_has "oha ka-on_c1_1m trial 1 failed (exit 1)" "the failure is reported"
expect_err_has "net.ipv4.tcp_tw_reuse" "ka-off warns about TIME_WAIT when tw_reuse is not 1"
GP="G'"
RUN=$(ls -d "res/$GP"/*)
ok '[ "$(ls "res/$GP" | wc -l)" -eq 1 ] && ls "res/$GP" | grep -q "^[0-9]\{8\}T[0-9]\{6\}Z$"' \
    "one session folder OUT/PATH/UTCSTAMP"
"$PY" "$H/check-tree.py" "$RUN" >tree.txt 2>violations.txt
ok '[ $? -eq 0 ]' "every meta.json follows the ingest rules $(cat violations.txt)"
cat >want.txt <<'WANT'
iperf3/P1_tcp/trial1 tool=iperf3 condition=P1_tcp trial=1 exit=0 files=cmd.txt,exit_status,iperf3.json,stderr.txt
iperf3/P1_tcp/trial2 tool=iperf3 condition=P1_tcp trial=2 exit=0 files=cmd.txt,exit_status,iperf3.json,stderr.txt
iperf3/P1_udp/trial1 tool=iperf3 condition=P1_udp trial=1 exit=0 files=cmd.txt,exit_status,iperf3.json,stderr.txt
iperf3/P1_udp/trial2 tool=iperf3 condition=P1_udp trial=2 exit=0 files=cmd.txt,exit_status,iperf3.json,stderr.txt
iperf3/P4_tcp/trial1 tool=iperf3 condition=P4_tcp trial=1 exit=0 files=cmd.txt,exit_status,iperf3.json,stderr.txt
iperf3/P4_tcp/trial2 tool=iperf3 condition=P4_tcp trial=2 exit=0 files=cmd.txt,exit_status,iperf3.json,stderr.txt
oha/ka-off_c1_1k/trial1 tool=oha condition=ka-off_c1_1k trial=1 exit=0 files=cmd.txt,exit_status,oha.db,oha.json,stderr.txt,time_wait_before
oha/ka-off_c1_1k/trial2 tool=oha condition=ka-off_c1_1k trial=2 exit=0 files=cmd.txt,exit_status,oha.db,oha.json,stderr.txt,time_wait_before
oha/ka-off_c1_1m/trial1 tool=oha condition=ka-off_c1_1m trial=1 exit=1 files=cmd.txt,exit_status,oha.json,stderr.txt,time_wait_before
oha/ka-off_c1_1m/trial2 tool=oha condition=ka-off_c1_1m trial=2 exit=1 files=cmd.txt,exit_status,oha.json,stderr.txt,time_wait_before
oha/ka-on_c1_1k/trial1 tool=oha condition=ka-on_c1_1k trial=1 exit=0 files=cmd.txt,exit_status,oha.db,oha.json,stderr.txt,time_wait_before
oha/ka-on_c1_1k/trial2 tool=oha condition=ka-on_c1_1k trial=2 exit=0 files=cmd.txt,exit_status,oha.db,oha.json,stderr.txt,time_wait_before
oha/ka-on_c1_1m/trial1 tool=oha condition=ka-on_c1_1m trial=1 exit=1 files=cmd.txt,exit_status,oha.json,stderr.txt,time_wait_before
oha/ka-on_c1_1m/trial2 tool=oha condition=ka-on_c1_1m trial=2 exit=1 files=cmd.txt,exit_status,oha.json,stderr.txt,time_wait_before
probe/trial1 tool=pathprobe condition= trial=1 exit=0 files=cmd.txt,exit_status,probe.csv,stderr.txt
WANT
command -v ss >/dev/null 2>&1 || sed -i 's/,time_wait_before//' want.txt
diff -u want.txt tree.txt >tree.diff
ok '[ ! -s tree.diff ]' "run folders, conditions, trials, files: $(cat tree.diff)"

meta() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], "-"))' "$1" "$2"; }
ok '[ "$(meta "$RUN/meta.json" path)" = "$GP" ]' "meta.json: path"
ok '[ "$(meta "$RUN/meta.json" instance_type)" = c6i.large ]' "meta.json: instance type from the metadata service"
ok '[ "$(meta "$RUN/meta.json" az)" = ap-northeast-1a ]' "meta.json: AZ from the metadata service"
ok '[ "$(meta "$RUN/meta.json" region)" = ap-northeast-1 ]' "meta.json: region from the metadata service"
ok '[ "$(meta "$RUN/meta.json" az_id)" = use1-az9 ]' "meta.json: a flag wins over the metadata service"
ok '[ "$(meta "$RUN/meta.json" session)" = "${RUN##*/}" ]' "meta.json: session = the folder's stamp"
ok '[ "$(meta "$RUN/meta.json" day_kind)" = weekday ]' "meta.json: --tag"
ok '[ "$(meta "$RUN/meta.json" oha_version)" = "oha 1.15.0" ]' "meta.json: oha version"
ok 'meta "$RUN/meta.json" iperf3_version | grep -q "^iperf 3"' "meta.json: iperf3 version"
ok 'meta "$RUN/meta.json" pathprobe_version | grep -q "^pathprobe "' "meta.json: pathprobe version"
ok '[ "$(meta "$RUN/meta.json" hostname)" != - ]' "meta.json: hostname"
ok 'meta "$RUN/meta.json" collector_command | grep -q -- "--path"' "meta.json: the collector's command"
ok 'meta "$RUN/iperf3/P4_tcp/trial2/meta.json" command | grep -q "iperf3 -c 127.0.0.1 -p $P -J -i 1 -t 1 -P 4$"' \
    "run meta.json: the exact iperf3 command"
ok 'grep -q "iperf3 -c 127.0.0.1 -p $P -J -i 1 -t 1 -u -b 0$" "$RUN/iperf3/P1_udp/trial1/cmd.txt"' "cmd.txt: UDP -b 0"
ok 'grep -q "\"end\"" "$RUN/iperf3/P4_tcp/trial1/iperf3.json"' "iperf3 -J output kept"
ok '[ "$(csv_rows "$RUN/probe/trial1/probe.csv" | grep -c ",ok$")" -eq 5 ]' "probe.csv: five ok probes against iperf3's port"
ok '[ "$(sqlite3 "$RUN/oha/ka-off_c1_1k/trial2/oha.db" "select count(*) from oha")" = 50 ]' \
    "oha.db: one row per request (--db-url)"
ok 'grep -q "connection refused (fake oha)" "$RUN/oha/ka-on_c1_1m/trial1/stderr.txt"' "stderr.txt kept beside the failed run"
ok '[ "$(grep -c -- "--disable-keepalive" oha.log)" -eq 4 ]' "oha: --disable-keepalive only for ka-off"
ok '[ "$(grep -c " -c 1 " oha.log)" -eq 8 ]' "oha: 2 trials x 2 sizes x 2 keep-alive"
ok 'head -1 oha.log | grep -q "^--no-tui --output-format json -n 50 -c 1 --db-url oha.db -- http://127.0.0.1:9/bytes/1024$"' "oha: flags for v1.15"
ok 'grep -qF "s3 cp --recursive --only-show-errors $RUN s3://bucket/prefix/$GP/${RUN##*/}/" aws.log' "--upload: aws s3 cp --recursive to PREFIX/PATH/STAMP/"
ok '[ "$(sed -n "s/^files=//p" aws.log)" -eq "$(find "$RUN" -type f | wc -l)" ]' "--upload: the whole run"
ok '[ "$(grep -vc "^#" "$RUN/commands.log")" -eq 15 ]' "commands.log: one line per run"
ok 'awk -F"\t" "!/^#/ && NF!=5 {e=1} END{exit e}" "$RUN/commands.log"' "commands.log: tab-separated fields"

# An old oha (-j, no --db-url), the metadata service unreachable, iperf3
# failing (no server on that port): recorded, the rest still runs.
Q=$(closed_port 127.0.0.1)
run env FAKE_OHA_OLD=1 sh "$COLLECT" --path B --host 127.0.0.1 --port "$Q" --out res \
    --imds-url "http://127.0.0.1:$Q" --instance-type m7g.large --az us-east-1b \
    --no-probe --no-udp --streams 1 --trials 1 --duration 1 --cooldown 0 \
    --url 1k=http://127.0.0.1:9/x --keepalive on --concurrency 16 --requests 20
expect_code 1 "iperf3 failing: exit 1"
expect_err_has "metadata not reachable" "unreachable metadata service: a note"
expect_err_has "iperf3 P1_tcp trial 1 failed" "iperf3 failure reported"
expect_err_has "no per-request output" "old oha: says JSON summaries only"
RUN=$(ls -d res/B/*)
ok '[ "$(meta "$RUN/meta.json" instance_type)" = m7g.large ] && [ "$(meta "$RUN/meta.json" region)" = us-east-1 ]' \
    "flags used, region derived from the AZ"
ok '[ -s "$RUN/iperf3/P1_tcp/trial1/exit_status" ] && grep -q "\"error\"" "$RUN/iperf3/P1_tcp/trial1/iperf3.json"' \
    "iperf3 failure: exit status and its JSON error kept"
ok 'grep -q "Connection refused" "$RUN/iperf3/P1_tcp/trial1/error.txt"' \
    "iperf3 failure: its JSON error (iperf3 may exit 0) in error.txt"
ok '[ "$(cat "$RUN/oha/ka-on_c16_1k/trial1/exit_status")" = 0 ]' "oha still ran after iperf3 failed"
ok 'tail -1 oha.log | grep -q "^--no-tui -j -n 20 -c 16 -- http://127.0.0.1:9/x$"' "old oha: -j, no --db-url"

# An oha without --db-url but with CSV output: per-request CSV instead.
run env FAKE_OHA_NODB=1 sh "$COLLECT" --path D --host 127.0.0.1 --out res \
    --no-imds --no-probe --no-iperf3 --trials 1 --cooldown 0 \
    --url 1k=http://127.0.0.1:9/x --keepalive off --concurrency 1 --requests 5
expect_code 0 "oha without --db-url: exit 0"
expect_err_has "per-request CSV (oha.csv)" "oha without --db-url: says so"
RUN=$(ls -d res/D/*)
ok '[ "$(sed 1d "$RUN/oha/ka-off_c1_1k/trial1/oha.csv" | wc -l)" -eq 5 ] && [ ! -e "$RUN/oha/ka-off_c1_1k/trial1/oha.json" ]' \
    "oha without --db-url: oha.csv with one row per request"
ok 'tail -1 oha.log | grep -q "^--no-tui --output-format csv -n 5 -c 1 --disable-keepalive -- http://127.0.0.1:9/x$"' \
    "oha without --db-url: --output-format csv"

# oha absent: skipped with a message, not a failure.
run env PATH="/usr/bin:/bin" sh "$COLLECT" --path C --host 127.0.0.1 --out res \
    --no-imds --no-probe --no-iperf3 --url 1k=http://127.0.0.1:9/ --cooldown 0
expect_code 0 "oha absent: exit 0"
expect_err_has "oha not installed: skipping" "oha absent: clear message"
ok '[ ! -e res/C/*/oha ]' "oha absent: no oha folder"

test_done
