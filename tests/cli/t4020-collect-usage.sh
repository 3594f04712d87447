# t4020: pathstat-collect usage: help, bad flags (exit 2), --upload
# without the AWS CLI (exit 1 before measuring anything), --dry-run.
COLLECT="$TOP/collect/pathstat-collect"
H="$TOP/tests/cli/helper"

run sh "$COLLECT" --help
expect_code 0 "--help exits 0"
expect_out_has "usage: pathstat-collect --path ID --host HOST" "--help: usage line"
run sh "$COLLECT" --version
expect_code 0 "--version exits 0"
expect_out_has "pathstat-collect 0." "--version: version"

base="--no-imds --out res"
bad() { # DESC WANT_MESSAGE ARGS...
	d=$1 m=$2
	shift 2
	run sh "$COLLECT" "$@"
	expect_code 2 "$d: exit 2"
	expect_err_has "$m" "$d: message"
}
bad "no --path" "pathstat-collect: missing --path" --host 127.0.0.1 $base
bad "no --host" "pathstat-collect: missing --host" --path A $base
bad "path with /" "invalid path ID 'a/b'" --path a/b --host 127.0.0.1 $base
bad "path with ," "invalid path ID 'a,b'" --path a,b --host 127.0.0.1 $base
bad "path with blank" "invalid path ID 'a b'" --path "a b" --host 127.0.0.1 $base
bad "dot path" "invalid path ID '..'" --path .. --host 127.0.0.1 $base
bad "host with ;" "invalid host" --path A --host "h;rm" $base
bad "bad port" "invalid port '70000'" --path A --host h --port 70000 $base
bad "bad trials" "invalid trials 'x'" --path A --host h --trials x $base
bad "zero trials" "invalid trials '0'" --path A --host h --trials 0 $base
bad "bad duration" "invalid duration '1.5'" --path A --host h --duration 1.5 $base
bad "bad interval" "invalid probe interval 'abc'" --path A --host h --probe-interval abc $base
bad "bad keep-alive" "invalid keep-alive 'maybe'" --path A --host h --keepalive maybe $base
bad "bad concurrency" "invalid concurrency 'x'" --path A --host h --concurrency "1 x" $base
bad "bad --url" "invalid --url 'foo'" --path A --host h --url foo $base
bad "bad size" "invalid payload size 'big'" --path A --host h --url big=http://h/ $base
bad "reserved tag" "tag key 'path' is reserved" --path A --host h --tag path=B $base
bad "unsafe tag value" "invalid tag value 'a,b'" --path A --host h --tag k=a,b $base
bad "tag without =" "invalid tag 'k'" --path A --host h --tag k $base
bad "unknown option" "unknown option '--bogus'" --path A --host h --bogus $base
bad "missing argument" "option '--path' needs an argument" --path
bad "bad upload URL" "invalid --upload 'http://x'" --path A --host h --upload http://x $base
ok '[ ! -e res ]' "usage errors write nothing"

# --upload without the AWS CLI: a clear error before any measurement.
run env AWS_CLI=/nonexistent/aws sh "$COLLECT" --path A --host 127.0.0.1 \
    --upload s3://bucket/prefix $base
expect_code 1 "--upload without aws: exit 1"
expect_err_has "--upload needs the AWS CLI" "--upload without aws: message"
ok '[ ! -e res ]' "--upload without aws: nothing measured or written"

# --dry-run: the exact commands, in order, nothing written.  iperf3 and
# oha are stand-ins (neither need be installed): --dry-run only asks
# their versions and prints the commands.
mkdir bin && cp "$H/fake-oha" bin/oha
cat > bin/iperf3 <<'EOF'
#!/bin/sh
case ${1:-} in
--version|-v) echo "iperf 3.12 (cJSON 1.7.15)"; exit 0 ;;
esac
echo "fake iperf3: --dry-run must not run iperf3 ($*)" >&2
exit 1
EOF
chmod +x bin/iperf3
run env PATH="$TMP/bin:$PATH" PATHPROBE=/opt/pathprobe sh "$COLLECT" \
    --path A --host 10.0.0.5 --trials 2 --duration 30 --no-udp \
    --url 1k=http://10.0.0.5:8080/bytes/1024 --concurrency 1,16 \
    --keepalive "on off" --requests 10000 --dry-run $base
expect_code 0 "--dry-run: exit 0"
expect_out_has "/opt/pathprobe -n 300 -i 0.2 -t 0.4 -o probe.csv 10.0.0.5 5201" \
    "--dry-run: pathprobe with the article's defaults"
expect_out_has "iperf3 -c 10.0.0.5 -p 5201 -J -i 1 -t 30 -P 4" "--dry-run: iperf3 -P 4"
expect_out_lacks " -u -b 0" "--dry-run: --no-udp drops UDP"
expect_out_has "oha --no-tui --output-format json -n 10000 -c 16 --disable-keepalive --db-url oha.db -- http://10.0.0.5:8080/bytes/1024" \
    "--dry-run: oha ka-off c16 with per-request SQLite output"
ok '[ "$(printf "%s\n" "$OUT" | grep -c "iperf3 -c")" -eq 4 ]' "--dry-run: 2 trials x P1/P4"
ok '[ "$(printf "%s\n" "$OUT" | grep -c "oha --no-tui")" -eq 8 ]' "--dry-run: 2 trials x 2 ka x 2 c"
ok '[ ! -e res ]' "--dry-run: nothing written"

# The man page names every option --help lists (--recursive is aws's).
run sh "$COLLECT" --help
missing=""
for o in $(printf '%s\n' "$OUT" | grep -o -- '--[a-z][a-z0-9-]*' | grep -vx -- --recursive | sort -u); do
	grep -q "Fl Fl ${o#--}\( \|\$\)" "$TOP/collect/pathstat-collect.1" ||
	    missing="$missing $o"
done
ok '[ -z "$missing" ]' "pathstat-collect.1 covers every option of --help (missing:$missing)"

test_done
