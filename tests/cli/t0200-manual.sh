# t0200: pathstat(1) covers every command `pathstat --help` lists (in the
# synopsis and a section of its own) and every option each command's
# --help lists, so the manual cannot fall behind the program.
. "$TOP/tests/cli/helper/help-options.sh"
MAN="$TOP/docs/pathstat.1"

cmds=$(help_commands "$PS")
ok '[ -n "$cmds" ]' "pathstat --help lists commands"
for c in $cmds; do
	ok "grep -q '^\\.Cm $c\$' '$MAN'" "pathstat(1) synopsis: $c"
	ok "grep -q '^\\.Ss $c\$' '$MAN'" "pathstat(1) has a section on $c"
	for o in $(help_options "$PS" "$c"); do
		case $o in --help|-h) continue ;; esac
		pat="Fl ${o#-}"	# --db: "Fl -db", -q: "Fl q"
		ok "grep -q -- '$pat\\( \\|\$\\)' '$MAN'" "pathstat(1) names $c's $o"
	done
done
ok "grep -q 'Fl h , Fl -help' '$MAN'" "pathstat(1) names -h and --help"
ok "grep -q '^\\.Fl -version' '$MAN' || grep -q 'Op Fl -version' '$MAN'" "pathstat(1) names --version"
test_done
