# t4025: the collector's arguments never reach a tool as options and
# never make a meta.json that ingest refuses.  The --url check used to be
# "*=http://*", so '1k=--db-url=http://x' handed oha an option instead
# of a URL; --tag k=$'\xff' wrote a meta.json ingest rejects, losing the
# whole session's files.  Now the URL itself is checked (http/https, a
# host not starting with '-', an optional port) and passed after "--";
# tag, path and metadata values must be UTF-8 without control or
# bidirectional-control characters.
COLLECT="$TOP/collect/pathstat-collect"
H="$TOP/tests/cli/helper"
base="--path A --host 10.0.0.5 --no-imds --out res --no-probe --no-iperf3"

bad() { # DESC WANT_MESSAGE ARGS...
	d=$1 m=$2
	shift 2
	run sh "$COLLECT" $base "$@"
	expect_code 2 "$d: exit 2"
	expect_err_has "$m" "$d: message"
}
# ---- URLs that are options, or no URL at all
bad "an option before http://" "invalid --url '1k=--db-url=http://x'" \
    --url '1k=--db-url=http://x'
bad "-o before http://" "invalid --url '1k=-o/path=http://'" \
    --url '1k=-o/path=http://'
bad "a host starting with -" "invalid --url" --url '1k=http://-h/x'
bad "no host" "invalid --url" --url '1k=http:///x'
bad "a bad port" "invalid --url" --url '1k=http://h:x/'
bad "another scheme" "invalid --url" --url '1k=ftp://h/x'
bad "a byte that is not ASCII" "invalid --url" \
    --url "1k=http://h/$(printf '\377')"
# ---- tag, path and metadata values ingest would refuse
bad "a tag value that is not UTF-8" "invalid tag value" \
    --tag "k=$(printf '\377')"
bad "a truncated UTF-8 sequence" "invalid tag value" \
    --tag "k=a$(printf '\342\200')"
bad "an overlong encoding" "invalid tag value" --tag "k=$(printf '\300\257')"
bad "a C1 control (NEL)" "invalid tag value" --tag "k=a$(printf '\302\205')"
bad "a right-to-left override" "invalid tag value" \
    --tag "k=$(printf '\342\200\256')B"
bad "a path ID with an override" "invalid path ID" \
    --path "$(printf '\342\200\256')A"
bad "an instance type not UTF-8" "invalid metadata value" \
    --instance-type "c6i$(printf '\377')"

# ---- what is accepted: UTF-8 tags, URLs with port, IPv6, a query; oha
# gets the URL after "--" (--dry-run prints the command; fake oha).
mkdir bin && cp "$H/fake-oha" bin/oha
run env PATH="$TMP/bin:$PATH" sh "$COLLECT" $base --tag "site=東京" \
    --url '1k=http://10.0.0.5:8080/bytes/1024?x=1' \
    --url '2k=http://[fd00::5]:80/b' --concurrency 1 --keepalive on \
    --trials 1 --dry-run
expect_code 0 "UTF-8 tags and ordinary URLs are accepted"
expect_out_has "--db-url oha.db -- 'http://10.0.0.5:8080/bytes/1024?x=1'" \
    "oha gets the URL after --"
expect_out_has " -- 'http://[fd00::5]:80/b'" "an IPv6 literal too"

# A real (fake) run: the URL reaches oha as its target, not an option,
# and the meta.json with a UTF-8 tag is one ingest reads.
export PATH="$TMP/bin:$PATH" FAKE_OHA_LOG="$TMP/oha.log" PY="$REAL_PY"
run sh "$COLLECT" $base --tag "site=東京" --url '1k=http://127.0.0.1:9/x' \
    --concurrency 1 --keepalive on --trials 1 --requests 5 --cooldown 0
expect_code 0 "the run with a UTF-8 tag succeeds"
ok 'grep -q -- "--db-url oha.db -- http://127.0.0.1:9/x$" oha.log' \
    "oha's arguments end with -- URL"
run "$PS" ingest -q --db t.db res
expect_code 0 "ingest reads the session the collector wrote"
run "$PS" runs --db t.db --format csv
expect_out_has "東京" "with the tag as given"

test_done
