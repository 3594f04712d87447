# t0210: one manual page per command, docs/pathstat-CMD.1, and its options
# are the command's: every option of the parse-options table (what
# --list-options prints for the completion, and the verb options analyze's
# --help adds) is in the page's SYNOPSIS or an ".It" entry, and every
# option the page lists there exists, so a page can neither miss an option
# nor keep one that is gone.  The overview, pathstat(1), names each page;
# make install, debian/ and release/check.sh carry them all.
. "$TOP/tests/cli/helper/help-options.sh"

cmds=$(help_commands "$PS")
ok '[ -n "$cmds" ]' "pathstat --help lists commands"
pages=$(cd "$TOP/docs" && ls pathstat-*.1 | sed 's/^pathstat-//; s/\.1$//' | sort | tr '\n' ' ')
ok '[ "$pages" = "$(printf "%s\n" $cmds | sort | tr "\n" " ")" ]' \
    "a page for each command and no other (pages: $pages)"
for c in $cmds; do
	page="$TOP/docs/pathstat-$c.1"
	ok "[ -f '$page' ]" "docs/pathstat-$c.1 exists"
	[ -f "$page" ] || continue
	table_options "$PS" "$c" > table.txt
	page_options "$page" > page.txt
	ok '[ -s table.txt ]' "$c's option table is read ($(wc -l < table.txt) options)"
	missing=$(comm -23 table.txt page.txt | tr '\n' ' ')
	extra=$(comm -13 table.txt page.txt | tr '\n' ' ')
	ok '[ -z "$missing" ]' "pathstat-$c(1) lists every option of its table (missing: $missing)"
	ok '[ -z "$extra" ]' "pathstat-$c(1) lists no option its table lacks (extra: $extra)"
	ok "grep -q '^\\.Dt PATHSTAT-$(printf %s "$c" | tr a-z A-Z) 1\$' '$page' &&
	    grep -q '^\\.Nm pathstat-$c\$' '$page'" "pathstat-$c(1) is named so"
	ok "grep -q '^\\.Xr pathstat-$c 1' '$TOP/docs/pathstat.1'" "pathstat(1) points at pathstat-$c(1)"
	ok "grep -q 'usr/share/man/man1/pathstat-$c.1' '$TOP/debian/pathstat.install'" \
	    "the Debian package installs pathstat-$c(1)"
	ok "grep -q 'pathstat-$c' '$TOP/release/check.sh'" "release/check.sh looks for pathstat-$c(1)"
done
if command -v groff >/dev/null 2>&1; then
	for p in "$TOP"/docs/pathstat*.1; do
		w=$(groff -mdoc -Tutf8 -ww -z "$p" 2>&1 | head -3)
		ok '[ -z "$w" ]' "$(basename "$p") renders without warnings ($w)"
	done
fi

# the check bites: a page that drops an option, and one that names a gone one
sed 's/Fl -prune\( \|$\)/Fl -pruned\1/' "$TOP/docs/pathstat-ingest.1" > drop.1
page_options drop.1 > page.txt
table_options "$PS" ingest > table.txt
ok '[ "$(comm -23 table.txt page.txt)" = "--prune" ]' "a page without --prune is caught"
sed 's/^\.Op Fl -prune$/.Op Fl -prune\n.Op Fl -boot-reps Ar n/' "$TOP/docs/pathstat-ingest.1" > extra.1
page_options extra.1 > page.txt
ok '[ "$(comm -13 table.txt page.txt)" = "--boot-reps" ]' "a page naming a gone option is caught"
test_done
