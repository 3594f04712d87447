# t0050: every command's --help is true about what it requires.  For
# each usage line ("usage:" and each "or:") of each command in
# 'pathstat --help', tests/cli/helper/usage-forms.py says what to run:
# the line's required items alone must not be a usage error (so every
# bracketed option is optional), and the line less any one required
# item must be (so it is required), unless what is left is another
# line's.  report showed [--out DIR] though it refuses to run without
# it (but with --init); export showed [--out DIR] though it wants it or
# --ddl ENGINE with --location or --out.

cp -r "$TOP/samples/tree/tokyo-osaka" tree
run "$PS" ingest --db pathstat.db tree
expect_code 0 "a small database to run the commands on"
# charts are not what this checks: no gnuplot runs
PATHSTAT_GNUPLOT=true; export PATHSTAT_GNUPLOT

run "$PY" "$TOP/tests/cli/helper/usage-forms.py" "$PS" tree
expect_code 0 "the usage lines parse"
printf '%s\n' "$OUT" > runs.txt
ok '[ "$(grep -c "^ok	" runs.txt)" -ge 8 ]' \
    "a usage line for each command, two or more where options depend on each other"
ok '! grep -q "^nousage" runs.txt' "every command prints a usage line"
ok 'grep -q "^ok	report	--out	" runs.txt && grep -q "^ok	report	--init$" runs.txt' \
    "report: --out DIR required, or --init"
ok 'grep -q "^ok	export	--out	[^	]*$" runs.txt && grep -q "^ok	export	--ddl	" runs.txt' \
    "export: --out DIR required, or --ddl ENGINE"

tab=$(printf '\t')
while IFS="$tab" read -r want cmd rest; do
	[ "$want" = ok ] || [ "$want" = usage ] || continue
	line=$(printf '%s' "$cmd $rest" | tr '\t' ' ')
	# the arguments are tab-separated words without spaces
	# shellcheck disable=SC2086
	run "$PS" $line
	if [ "$want" = ok ]; then
		[ "$RC" -ne 2 ]
		_report $? "pathstat $line: runs (the usage line says nothing else is required)" \
		    "exit 2: $ERR"
	else
		expect_code 2 "pathstat $line: a usage error (the usage line requires what is missing)"
	fi
done < runs.txt
test_done
