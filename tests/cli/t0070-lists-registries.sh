# t0070: the names kept by hand outside the program -- the lists of the
# bash completion, the manual pages and the prose -- are held to the
# registries they copy, both ways.  The program prints each registry
# (pathstat --list commands|verbs|metrics|checks: the command table, the
# analyze verb table, common/metric.c, the check table) and each
# command's options (--list-options, and --help for analyze's verbs'
# own); tests/cli/helper/lists-check.py then wants
#   - the completion's commands, verbs, metrics and checks to be exactly
#     those;
#   - the manual pages, as a union (docs/pathstat*.1, in docs/ or below:
#     one page, or one per command), to name every command, verb (.It Cm), metric, check
#     and option -- a command's options on its own page when it has
#     one -- and no option pathstat lacks (the flags of the tools whose
#     output it reads aside);
#   - README.md and the Markdown under docs/, as a union (the docs may
#     move between files and folders), to name every command, verb,
#     metric and check, and their code (blocks and spans) to call no
#     command, verb, option or --metric pathstat lacks.
# Then a name planted on one side only (a metric added to the table
# alone, one left out of the completion, an option the manual invents)
# makes it fail, so it cannot pass on nothing.
. "$TOP/tests/cli/helper/help-options.sh"

L=$TMP/lists
mkdir -p "$L"
for w in commands verbs metrics checks; do
	run "$PS" --list $w
	expect_code 0 "pathstat --list $w: exit 0"
	ok '[ "$(printf "%s\n" "$OUT" | grep -c .)" -ge 4 ]' \
	    "pathstat --list $w: the names ($(printf "%s" "$OUT" | tr '\n' ' '))"
	printf '%s\n' "$OUT" > "$L/$w"
done
ok '[ "$(cat "$L/commands")" = "$(help_commands "$PS")" ]' \
    "--list commands: those pathstat --help lists"
ok '[ "$(sort "$L/verbs" | tr "\n" " ")" = "$("$PS" analyze --help | awk "/^verbs:\$/ { on = 1; next } on && NF { print \$1 } on && !NF { exit }" | sort | tr "\n" " ")" ]' \
    "--list verbs: those analyze --help lists"
run "$PS" --list nosuch
expect_code 2 "pathstat --list nosuch: a usage error"
expect_err_has "usage: pathstat --list" "... that says what it takes"
run "$PS" --help
expect_out_lacks "--list" "--list is a maintainer's: not in the usage"

# each command's options: its table's, and for analyze its verbs' own
for c in $(cat "$L/commands"); do
	{ "$PS" "$c" --list-options | sed 's/=.*//'; help_options "$PS" "$c"; } |
	    sort -u > "$L/opts.$c"
done
ok '[ "$(wc -l < "$L/opts.export")" -ge 10 ] && grep -qx -- --threshold "$L/opts.analyze"' \
    "the options of each command, analyze's verbs' own among them"

run "$PY" "$TOP/tests/cli/helper/lists-check.py" "$TOP" "$L"
ok '[ "$RC" = 0 ] && [ -z "$OUT" ]' \
    "completion, manual pages and README + docs/ agree with the registries"
[ "$RC" = 0 ] || printf '%s\n' "$OUT" | sed 's/^/#   /'


# --- planted: each side of each list can fail ---------------------------
# a copy of the hand-kept files, and a copy of the registries
mk_copy() {
	rm -rf "$TMP/top" "$TMP/l2"
	mkdir -p "$TMP/top/completion"
	cp "$TOP/completion/pathstat.bash" "$TMP/top/completion/"
	cp -R "$TOP/docs" "$TMP/top/"
	cp "$TOP/README.md" "$TMP/top/"
	cp -R "$L" "$TMP/l2"
}
planted() { # DESC WANT: lists-check fails and says WANT
	want=$2
	run "$PY" "$TOP/tests/cli/helper/lists-check.py" "$TMP/top" "$TMP/l2"
	ok '[ "$RC" = 1 ] && printf "%s\n" "$OUT" | grep -qF -- "$want"' \
	    "planted: $1"
}
mk_copy
run "$PY" "$TOP/tests/cli/helper/lists-check.py" "$TMP/top" "$TMP/l2"
ok '[ "$RC" = 0 ]' "the copies agree as the tree does"

mk_copy
echo tcp_rtt_ms >> "$TMP/l2/metrics"
planted "a metric in the table alone" "completion: _pathstat_metrics lacks tcp_rtt_ms"
planted "... is missing from the manual" "manual: no metric tcp_rtt_ms"
planted "... and from the prose" "README and docs/: no metric tcp_rtt_ms"

mk_copy
sed -i 's/ http_bps"/"/' "$TMP/top/completion/pathstat.bash"
planted "a metric the completion left out" "_pathstat_metrics lacks http_bps"

mk_copy
sed -i 's/^_pathstat_verbs="/&rank /' "$TMP/top/completion/pathstat.bash"
planted "a verb only the completion has" "_pathstat_verbs has rank, which pathstat has not"

mk_copy
echo variance-floor >> "$TMP/l2/checks"
planted "a check in the table alone" "_pathstat_checks lacks variance-floor"

mk_copy
sed -i '/^\.It Cm relative/d' "$TMP"/top/docs/pathstat*.1
planted "a verb the manual left out" "manual: no analyze verb relative"

mk_copy
echo --since >> "$TMP/l2/opts.runs"
planted "an option in a table alone" "manual: no runs option --since"

mk_copy
printf '%s\n' '.Pp' '.Fl -boot-reps Ar n' >> "$TMP/top/docs/pathstat.1"
planted "an option only the manual has" "manual: --boot-reps is no option of pathstat's"

mk_copy
grep -v -- '-files' "$TMP/top/docs/pathstat.1" > "$TMP/top/docs/pathstat-runs.1"
planted "a command's own page lacks one of its options" "manual: no runs option --files"

mk_copy
printf '%s\n' '' '```sh' 'pathstat analyze percentiles --metric connect_ms \' \
    '    --boot-reps 200' '```' >> "$TMP/top/README.md"
planted "an option only the README has" "pathstat analyze --boot-reps: no such option"

mk_copy
printf '%s\n' '' 'Run `pathstat analyze rank --metric rps`.' >> "$TMP/top/docs/plan.md"
planted "a verb only the docs have" "pathstat analyze rank: no such verb"

mk_copy
printf '%s\n' '' 'Run `pathstat runs --metric rtt_ms`.' >> "$TMP/top/README.md"
planted "a metric only the README has" "--metric rtt_ms: no such metric"

mk_copy
printf '%s\n' '' '    $ pathstat merge a.db b.db' >> "$TMP/top/README.md"
printf '%s\n' '' '```' 'pathstat merge a.db b.db' '```' >> "$TMP/top/README.md"
planted "a command only the README has" "pathstat merge: no such command"
test_done
