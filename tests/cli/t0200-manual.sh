# t0200: the manual covers every command `pathstat --help` lists (the
# overview, pathstat(1), names it and its page; the page has it in its
# synopsis) and every option each command's --help lists, so the manual
# cannot fall behind the program.  t0210 checks the pages against the
# option tables both ways.
. "$TOP/tests/cli/helper/help-options.sh"
MAN="$TOP/docs/pathstat.1"

cmds=$(help_commands "$PS")
ok '[ -n "$cmds" ]' "pathstat --help lists commands"
for c in $cmds; do
	page="$TOP/docs/pathstat-$c.1"
	ok "grep -q '^\\.It Cm $c\$' '$MAN'" "pathstat(1) lists $c"
	ok "grep -q '^\\.Xr pathstat-$c 1' '$MAN'" "pathstat(1) points at pathstat-$c(1)"
	ok "grep -q '^\\.Cm $c\$' '$page'" "pathstat-$c(1) synopsis: $c"
	for o in $(help_options "$PS" "$c"); do
		case $o in --help|-h) continue ;; esac
		pat="Fl ${o#-}"	# --db: "Fl -db", -q: "Fl q"
		ok "grep -q -- '$pat\\( \\|\$\\)' '$page'" "pathstat-$c(1) names $c's $o"
	done
done
ok "grep -q 'Fl h , Fl -help' '$MAN'" "pathstat(1) names -h and --help"
ok "grep -q '^\\.Fl -version' '$MAN' || grep -q 'Op Fl -version' '$MAN'" "pathstat(1) names --version"
test_done
