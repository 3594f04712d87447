# t0000: the global command line: help, version, unknown commands and
# options, and each exit code (0 ok, 1 failure, 2 usage).

run "$PS"
expect_code 2 "no command: usage error"
expect_err_has "usage: pathstat" "no command prints usage on stderr"

run "$PS" --help
expect_code 0 "--help exits 0"
expect_out_has "ingest" "--help lists ingest"
expect_out_has "runs" "--help lists runs"

run "$PS" help ingest
expect_code 0 "help ingest exits 0"
expect_out_has "usage: pathstat ingest" "help ingest shows ingest usage"

run "$PS" --version
expect_code 0 "--version exits 0"
expect_out_has "pathstat " "--version names the program"

run "$PS" frobnicate
expect_code 2 "unknown command: exit 2"
expect_err_has "unknown command 'frobnicate'" "unknown command is named"

run "$PS" ing
expect_code 2 "no prefix matching of commands"

for cmd in ingest runs; do
	run "$PS" $cmd --help
	expect_code 0 "$cmd --help exits 0"
	expect_out_has "usage: pathstat $cmd" "$cmd --help prints usage on stdout"
	run "$PS" $cmd --no-such-flag
	expect_code 2 "$cmd: unknown flag exits 2"
	expect_err_has "no-such-flag" "$cmd: unknown flag is named"
done

run "$PS" ingest
expect_code 2 "ingest without paths: usage error"
run "$PS" ingest --layout '{path' x
expect_code 2 "bad --layout: usage error"
expect_err_has "'{' without '}'" "bad --layout says why"
run "$PS" ingest --layout '{bogus}/x' x
expect_code 2 "unknown placeholder: usage error"
run "$PS" ingest --tag novalue x
expect_code 2 "bad --tag: usage error"
run "$PS" ingest --tag trial=abc x
expect_code 2 "--tag trial must be a number"
run "$PS" runs --format yaml
expect_code 2 "runs --format yaml: usage error"
run "$PS" runs --db "$TMP/none.db"
expect_code 1 "runs on a missing database: exit 1"
expect_err_has "none.db" "missing database is named"

# stdout errors are reported (git's run_builtin check)
if [ -w /dev/full ]; then
	run sh -c "\"$PS\" --help > /dev/full"
	expect_code 1 "write error on stdout: exit 1"
fi
test_done
