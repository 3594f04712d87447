# t4000: pathprobe usage, bad numbers, bad host and address: a clear
# message and exit 2 (usage) or 1 (could not run).  Nothing is sent.

run "$PROBE" -h
expect_code 0 "-h exits 0"
expect_out_has "usage: pathprobe" "-h prints the usage on stdout"
expect_out_has "--resolve-each" "-h lists the long options"
run "$PROBE" --version
expect_code 0 "--version exits 0"
expect_out_has "pathprobe 0." "--version prints the version"

run "$PROBE"
expect_code 2 "no arguments: exit 2"
expect_err_has "pathprobe: missing host" "no arguments: says what is missing"
run "$PROBE" 127.0.0.1
expect_code 2 "no port: exit 2"
expect_err_has "pathprobe: missing port" "no port: message"
run "$PROBE" 127.0.0.1 1 2
expect_code 2 "too many arguments: exit 2"
run "$PROBE" --bogus 127.0.0.1 1
expect_code 2 "unknown long option: exit 2"
expect_err_has "pathprobe: unknown option '--bogus'" "unknown long option: message"
run "$PROBE" -x 127.0.0.1 1
expect_code 2 "unknown option: exit 2"
expect_err_has "pathprobe: unknown option '-x'" "unknown option: message"
run "$PROBE" 127.0.0.1 1 -n
expect_code 2 "missing option argument: exit 2"
expect_err_has "pathprobe: option '-n' needs an argument" "missing option argument: message"

for p in abc 0 65536 -1 12x ""; do
	run "$PROBE" -- 127.0.0.1 "$p"
	expect_code 2 "port '$p': exit 2"
	expect_err_has "pathprobe: invalid port '$p'" "port '$p': message names it"
done
for n in x 0 -5 1.5 100000001; do
	run "$PROBE" -n "$n" 127.0.0.1 1
	expect_code 2 "count '$n': exit 2"
	expect_err_has "pathprobe: invalid count '$n'" "count '$n': message"
done
for i in abc 0 -1 nan inf 1e9 0.2s; do
	run "$PROBE" -i "$i" 127.0.0.1 1
	expect_code 2 "interval '$i': exit 2"
	expect_err_has "pathprobe: invalid interval '$i'" "interval '$i': message"
done
for t in abc 0 nan 4000; do
	run "$PROBE" -t "$t" 127.0.0.1 1
	expect_code 2 "timeout '$t': exit 2"
	expect_err_has "pathprobe: invalid timeout '$t'" "timeout '$t': message"
done
run "$PROBE" -n 100000000 -i 86400 127.0.0.1 1
expect_code 2 "a run of centuries: exit 2"

# Could not run: exit 1, no output file left behind.
# "bad..host" (an empty label) fails inside the resolver library: no DNS
# query leaves the machine, unlike a well-formed name would.
run "$PROBE" -n 1 -o out.csv bad..host 80
expect_code 1 "unresolvable host: exit 1"
expect_err_has "pathprobe: cannot resolve 'bad..host'" "unresolvable host: message"
ok '[ ! -e out.csv ] && [ -z "$(ls -A | grep -v "^\.\(out\|err\)$")" ]' \
    "unresolvable host: no file written"
run "$PROBE" -n 1 -6 127.0.0.1 80
expect_code 1 "-6 with an IPv4 literal: exit 1"
run "$PROBE" -n 1 -b not-an-address 127.0.0.1 80
expect_code 1 "bad -b address: exit 1"
expect_err_has "pathprobe: invalid bind address 'not-an-address'" "bad -b address: message"
# 192.0.2.1 (TEST-NET-1) is never local here: bind() fails, nothing sent.
run "$PROBE" -n 1 -b 192.0.2.1 127.0.0.1 80
expect_code 1 "unbindable -b address: exit 1"
expect_err_has "pathprobe: cannot bind to '192.0.2.1'" "unbindable -b address: message"
run "$PROBE" -n 1 -o /nonexistent/dir/out.csv 127.0.0.1 80
expect_code 1 "unwritable -o: exit 1"
expect_err_has "pathprobe: cannot create" "unwritable -o: message"

test_done
