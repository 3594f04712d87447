# t2971: `pathstat analyze --help` is generated from its option table
# (analyze/options.c) on the option layer, as every other command's is
# (common/parseopt.c): every option of the table appears in
# --help -- an option line "  --NAME ARG" with the table's argument name,
# in the table's order, or, for a verb's own option (help NULL in the
# table), in that verb's usage line -- and --help names no option the
# table lacks.  The table is read from the source itself, so a row added
# there without reaching --help (or the reverse) fails here.

src="$TOP/analyze/options.c"
# the table's rows: { .id = ANALYZE_OPT_X, .name = "name", .arg = "ARG"
# (no .arg: a flag), ... },
awk '/^static const struct analyze_option options\[\] = \{/ { on = 1; next }
    on && /^};/ { exit }
    on && /^\t\{$/ { row = ""; next }
    on && /^\t\},$/ {
	if (match(row, /\.name = "[a-z-]+"/)) {
		name = substr(row, RSTART + 9, RLENGTH - 10)
		arg = "-"
		if (match(row, /\.arg = "[^"]*"/))
			arg = substr(row, RSTART + 8, RLENGTH - 9)
		print name, arg
	}
	next
    }
    on { row = row " " $0 }' "$src" > table.txt
ok '[ "$(wc -l < table.txt)" -ge 15 ]' "the table has its rows ($(wc -l < table.txt | tr -d ' '))"

run "$PS" analyze --help
expect_code 0 "analyze --help: exit 0"
printf '%s\n' "$OUT" > help.txt
# the usage block: from the first line to the first empty one
awk 'NF == 0 { exit } { print }' help.txt > usage.txt
# the option lines: "  --name ARG   help", without -h/--help
grep -E '^  --[a-z-]+' help.txt | grep -v -- '--help' |
    awk '{ print substr($1, 3), ($2 ~ /^[A-Z]/ || $2 ~ /^[A-Z.,]+$/) ? $2 : "-" }' \
    > lines.txt

# every row of the table: an option line with its argument, or a verb's
# usage line
missing=""
while read -r name arg; do
	if grep -qx -- "$name $arg" lines.txt; then
		continue
	fi
	if grep -E '^ +pathstat analyze [a-z]+ ' usage.txt |
	    grep -q -- "--$name\b"; then
		continue
	fi
	missing="$missing --$name($arg)"
done < table.txt
ok '[ -z "$missing" ]' "every table row is in --help (missing:$missing)"

# ... and the reverse: every option line, and every option the usage
# block names, is a row of the table
extra=""
for o in $(cut -d' ' -f1 lines.txt) $(grep -oE -- '--[a-z][a-z-]*' usage.txt |
    sed 's/^--//' | sort -u); do
	grep -q "^$o " table.txt || extra="$extra --$o"
done
ok '[ -z "$extra" ]' "--help names no option the table lacks (extra:$extra)"

# the option lines come in the table's order, each once
order=$(cut -d' ' -f1 lines.txt | tr '\n' ' ')
want=$(while read -r name arg; do grep -qx -- "$name $arg" lines.txt &&
    printf '%s ' "$name"; done < table.txt)
ok '[ "$order" = "$want" ]' "option lines in the table's order ($order)"

# the first usage line lists the same options in the same order, each
# argument as the table names it, --metric unbracketed (required)
first=$(awk '/^ +pathstat analyze/ { exit } { print }' usage.txt | tr '\n' ' ')
items=$(printf '%s\n' "$first" | grep -oE -- '--[a-z-]+( [A-Z][^] ]*)?' |
    sed 's/^--//' | tr '\n' ' ')
want_items=$(while read -r name arg; do grep -qx -- "$name $arg" lines.txt &&
    { [ "$arg" = - ] && printf '%s ' "$name" || printf '%s %s ' "$name" "$arg"; }
    done < table.txt)
ok '[ "$items" = "$want_items" ]' "the usage line is the table's ($items)"
ok 'printf "%s" "$first" | grep -q "analyze <verb> --metric M \["' \
    "--metric is required: no brackets"

# the completion's list (--list-options) is the table's visible rows
run "$PS" analyze --list-options
listed=$(printf '%s\n' "$OUT" | grep -v -e '^-h$' -e '^--help$' | sed 's/=.*//; s/^--//' | sort | tr '\n' ' ')
helped=$(cut -d' ' -f1 lines.txt | sort | tr '\n' ' ')
ok '[ "$listed" = "$helped" ]' "--list-options and --help agree ($listed)"

# a verb's usage line for each verb with options of its own
for v in compare delta ratio trend variance; do
	ok "grep -q '^ *pathstat analyze $v ' usage.txt" "usage line of $v"
done
test_done
