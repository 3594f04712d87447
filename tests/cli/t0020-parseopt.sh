# t0020: the commands on the one option layer (common/parseopt.c): runs,
# keys, check, ingest and analyze.  Each one's --help lists exactly the
# options its table holds (as the hidden --list-options prints them for
# the completion), and an unknown option, a bad enum value and a number
# out of range are each a usage error (exit 2) in one line that names
# what exists and points to --help.
. "$TOP/tests/cli/helper/help-options.sh"

# CMD [ENUM_OPTION BAD_VALUE WANT]
layer() {
	c=$1
	run "$PS" $c --list-options
	expect_code 0 "$c --list-options: exit 0"
	table=$OUT
	listed=$(printf '%s\n' "$OUT" | sed 's/=.*//' | sort -u | tr '\n' ' ')
	helped=$(help_options "$PS" $c | tr '\n' ' ')
	ok '[ -n "$listed" ] && [ "$listed" = "$helped" ]' \
	    "$c --help lists exactly its table's options ($listed)"
	ok '! printf "%s\n" "$OUT" | grep -q -- --list-options' \
	    "$c: --list-options is hidden from its own list"
	"$PS" $c --help > help.txt
	ok '! grep -q -- --list-options help.txt' "$c: ... and from --help"

	run "$PS" $c --bogus-option
	expect_code 2 "$c --bogus-option: exit 2"
	ok '[ "$(printf "%s\n" "$ERR" | wc -l)" = 1 ]' "$c: in one line"
	expect_err_has "pathstat $c: unknown option '--bogus-option'" "$c: names it"
	expect_err_has "(options: $(printf '%s\n' "$table" | sed 's/=.*//' |
	    grep -- '^--' | grep -v -- '^--help$' | tr '\n' ',' |
	    sed 's/,/, /g')--help)" "$c: lists the options that exist"
	expect_err_has "; see 'pathstat $c --help'" "$c: points to --help"
	[ $# -gt 1 ] || return 0
	run "$PS" $c "$2" "$3"
	expect_code 2 "$c $2 $3: exit 2"
	ok '[ "$(printf "%s\n" "$ERR" | wc -l)" = 1 ]' "$c $2 $3: in one line"
	expect_err_has "pathstat $c: bad $2 '$3': $4; see 'pathstat $c --help'" \
	    "$c $2 $3: names the values that exist"
}

layer runs --format yaml "want text, md, csv or json"
layer keys --format yaml "want text, md, csv or json"
layer check --format yaml "want text, md, csv or json"
layer ingest
layer report

# analyze: its table (analyze/options.c) on the layer; the verbs' own
# options (--across, --baseline, --threshold, --target) are named by
# their verbs' usage lines, not listed
run "$PS" analyze --list-options
expect_code 0 "analyze --list-options: exit 0"
listed=$(printf '%s\n' "$OUT" | sed 's/=.*//' |
    { cat; printf '%s\n' --across --baseline --threshold --target; } |
    sort -u | tr '\n' ' ')
helped=$(help_options "$PS" analyze | tr '\n' ' ')
ok '[ "$listed" = "$helped" ]' "analyze --help lists its table's options and the verbs' ($listed)"
run "$PS" analyze percentiles --metric connect_ms --levl 0.9
expect_code 2 "analyze --levl: exit 2"
ok '[ "$(printf "%s\n" "$ERR" | wc -l)" = 1 ]' "analyze --levl: in one line"
expect_err_has "pathstat analyze: unknown option '--levl'; did you mean '--level'? (options: --metric, --where, --by, --paths, --stats, --quantile, --pool, --ci, --level, --seed, --unit, --format, --sql, --db, --help); see 'pathstat analyze --help'" \
    "analyze --levl: did you mean --level, and the options"
run "$PS" analyze percentiles --metric connect_ms --level 2
expect_code 2 "analyze --level 2 (out of range): exit 2"
ok '[ "$(printf "%s\n" "$ERR" | wc -l)" = 1 ]' "analyze --level 2: in one line"
expect_err_has "pathstat analyze: bad --level '2': want 0.5..0.999; see 'pathstat analyze --help'" \
    "analyze --level 2: names the range"
run "$PS" analyze percentiles --metric connect_ms --quantile median
expect_code 2 "analyze --quantile median (no such estimator): exit 2"
expect_err_has "pathstat analyze: bad --quantile 'median': want type7, oha or hd; see 'pathstat analyze --help'" \
    "analyze --quantile median: names the estimators"
ok '[ ! -e pathstat.db ]' "no database was made for a usage error"

# a near miss is named
run "$PS" runs --colums path
expect_err_has "unknown option '--colums'; did you mean '--columns'?" \
    "runs --colums: did you mean --columns"
# an option's value where the option takes none
run "$PS" runs --files=yes
expect_code 2 "runs --files=yes: exit 2"
expect_err_has "option '--files' takes no value" "... saying so"
run "$PS" ingest -q
expect_code 2 "ingest without paths: exit 2"
expect_err_has "pathstat ingest: no files or folders to ingest; see 'pathstat ingest --help'" \
    "... in one line"
run "$PS" ingest --tag novalue x
expect_err_has "pathstat ingest: bad --tag 'novalue': want KEY=VALUE; see" \
    "a callback's reason, in one line"
run "$PS" ingest -nx tree
expect_code 2 "ingest -nx: exit 2"
expect_err_has "unknown option '-x'" "a short option in a cluster is named"
run "$PS" keys --db
expect_code 2 "keys --db without its value: exit 2"
expect_err_has "option '--db' needs a value (FILE)" "... naming what it wants"
test_done
