# t4023: what pathstat-collect writes into the session meta.json: --az
# as az (an AZ ID is no region), each key once (--tag cannot repeat a
# key or take one the collector writes; --day sets the day), and
# instance metadata that is not plausible (a 2,000-character instance
# type, odd characters) is dropped with a warning and exit 1, never
# half-written; the tree still ingests with the other tags.  Loopback
# only: a listener for pathprobe, a fake metadata service; no iperf3
# (--no-iperf3).
. "$TOP/tests/cli/helper/probe-lib.sh"
COLLECT="$TOP/collect/pathstat-collect"
H="$TOP/tests/cli/helper"
imds_pid=""
trap 'stop_peers; [ -z "$imds_pid" ] || kill $imds_pid 2>/dev/null' EXIT

start_peer accept 127.0.0.1 60 || skip_all "cannot start a loopback listener"
P=$PEER_PORT
export PATHPROBE="$PROBE"
quick="--host 127.0.0.1 --probe-port $P --probe-count 2 --probe-interval 0.01 --no-iperf3 --cooldown 0"

# meta FILE KEY: the value of KEY in a flat JSON object ("" if absent);
# exits 3 when the file holds a key twice.
meta() {
	"$PY" -c 'import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        sys.exit(3)
    return dict(pairs)
d = json.load(open(sys.argv[1]), object_pairs_hook=once)
print(d.get(sys.argv[2], ""))' "$1" "$2"
}
session() { ls -d "$1"/*/ 2>/dev/null | head -1; }

# --az with an AZ ID: recorded as az, no region made up from it.
run sh "$COLLECT" --path A --out r1 --no-imds --az apne1-az4 $quick
expect_code 0 "--az apne1-az4: exit 0"
S=$(session r1/A)
ok '[ "$(meta "$S/meta.json" az)" = apne1-az4 ]' "--az apne1-az4 is recorded as az"
ok '[ -z "$(meta "$S/meta.json" region)" ]' "... and gives no region"
ok 'meta "$S/meta.json" az >/dev/null' "... and meta.json has each key once"

# An AZ name gives its region (a Local Zone's too).
run sh "$COLLECT" --path A --out r2 --no-imds --az ap-northeast-1a $quick
S=$(session r2/A)
ok '[ "$(meta "$S/meta.json" az)" = ap-northeast-1a ] && [ "$(meta "$S/meta.json" region)" = ap-northeast-1 ]' \
    "--az ap-northeast-1a: az and region ap-northeast-1"
run sh "$COLLECT" --path A --out r3 --no-imds --az us-east-1-bos-1a $quick
S=$(session r3/A)
ok '[ "$(meta "$S/meta.json" region)" = us-east-1 ]' "--az us-east-1-bos-1a: region us-east-1"

# --tag: never a second key.
bad() { # DESC WANT ARGS...
	d=$1 m=$2
	shift 2
	run sh "$COLLECT" --path A --out rbad --no-imds $quick "$@"
	expect_code 2 "$d: exit 2"
	expect_err_has "$m" "$d: message"
}
bad "--tag day=..." "tag key 'day' is written by the collector: use --day instead of --tag" --tag day=2026-08-28
bad "--day not a date" "invalid --day 'monday' (YYYY-MM-DD)" --day monday
bad "--tag session=..." "tag key 'session' is written by the collector itself" --tag session=x
bad "--tag az=..." "tag key 'az' is written by the collector: use --az instead of --tag" --tag az=x
bad "--tag instance_type=..." "use --instance-type instead of --tag" --tag instance_type=c6i.large
bad "the same --tag key twice" "tag key 'study' given twice" --tag study=a --tag study=b
ok '[ ! -e rbad ]' "refused tags: nothing measured or written"
run sh "$COLLECT" --path A --out r4 --no-imds $quick --tag study=tokyo --tag day_kind=weekday
expect_code 0 "two different --tag keys: exit 0"
S=$(session r4/A)
ok '[ "$(meta "$S/meta.json" study)" = tokyo ] && [ "$(meta "$S/meta.json" day_kind)" = weekday ]' \
    "--tag keys recorded"
ok 'meta "$S/meta.json" day | grep -q "^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]$"' \
    "the collector's own day key, once"
run sh "$COLLECT" --path A --out rday --no-imds $quick --day 2026-08-28
expect_code 0 "--day 2026-08-28: exit 0"
S=$(session rday/A)
ok '[ "$(meta "$S/meta.json" day)" = 2026-08-28 ]' "--day sets the day tag, once"

# Instance metadata: a hostile answer is dropped, the rest recorded.
imds() { # START THE FAKE SERVICE WITH OVERRIDES
	[ -z "$imds_pid" ] || kill $imds_pid 2>/dev/null
	rm -f imds.port
	"$PY" "$H/fake-imds.py" imds.port 30 "$@" &
	imds_pid=$!
	i=0
	while [ ! -s imds.port ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	IMDS="http://127.0.0.1:$(cat imds.port)"
}
long=$(printf 'x%.0s' $(seq 2000))
imds "instance-type=c6i.$long"
run sh "$COLLECT" --path A --out r5 --imds-url "$IMDS" $quick
expect_code 1 "a 2,000-character instance type: exit 1"
expect_err_has "warning: the instance metadata service gave an implausible instance-type ('c6i.xxxxxxxx" \
    "... named, shortened"
expect_err_has "2004 bytes'); not recorded (give it with --instance-type)" "... with its length and the flag"
S=$(session r5/A)
ok '[ -z "$(meta "$S/meta.json" instance_type)" ]' "... not in meta.json"
ok '[ "$(meta "$S/meta.json" az)" = ap-northeast-1a ] && [ "$(meta "$S/meta.json" az_id)" = apne1-az4 ] && [ "$(meta "$S/meta.json" region)" = ap-northeast-1 ]' \
    "... the other metadata recorded"
ok '[ "$(csv_rows "$S/probe/trial1/probe.csv" | grep -c ",ok$")" -eq 2 ]' "... and the probes ran"
run "$PS" ingest --db t.db r5
expect_code 0 "the tree ingests"
run "$PS" runs --db t.db --format json
expect_out_has '"az": "ap-northeast-1a"' "ingest keeps the az tag"
expect_out_lacks "instance_type" "ingest has no instance type"
# pathprobe's format 2 end to end: rtt_us / 1000 becomes handshake_ms.
want=$(csv_rows "$S/probe/trial1/probe.csv" | awk -F, '$4 != "" { printf "%.3f\n", $4 / 1000 }')
got=$(sql t.db "SELECT printf('%.3f', s.value) FROM samples s JOIN metrics m
    ON m.id = s.metric WHERE m.name = 'handshake_ms' ORDER BY s.seq")
ok '[ -n "$want" ] && [ "$got" = "$want" ]' "handshake_ms = rtt_us / 1000 per probe ($got)"
run "$PS" analyze percentiles --db t.db --metric handshake_ms --format json
expect_code 0 "analyze percentiles --metric handshake_ms: exit 0"
expect_out_has '"metric": "handshake_ms"' "... the metric"
expect_out_has '"n": 2,' "... one sample per ok probe"

imds 'instance-type=c6i.large"; rm -rf /' 'placement/availability-zone=ap-northeast-1a
x'
run sh "$COLLECT" --path A --out r6 --imds-url "$IMDS" --instance-type m7i.large $quick
expect_code 1 "odd characters in the AZ: exit 1"
expect_err_has "implausible placement/availability-zone ('ap-northeast-1a?x'); not recorded (give it with --az)" \
    "... the AZ named, control character shown as ?"
S=$(session r6/A)
ok '[ "$(meta "$S/meta.json" instance_type)" = m7i.large ]' \
    "a flag wins: the service's bad instance type is never asked for"
ok '[ -z "$(meta "$S/meta.json" az)" ]' "... the bad AZ not recorded"

imds
run sh "$COLLECT" --path A --out r7 --imds-url "$IMDS" $quick
expect_code 0 "plausible metadata: exit 0"
expect_err_lacks "implausible" "... no warning"
S=$(session r7/A)
ok '[ "$(meta "$S/meta.json" instance_type)" = c6i.large ]' "... recorded"

test_done
