# help-options.sh - read pathstat's own --help, for tests that compare
# the manual and the bash completion with it.  Sourced after lib.sh.
#   help_commands PS          the commands `pathstat --help` lists
#   help_options PS CMD...    the options CMD's --help lists (usage lines
#                             and lines that start with an option), with
#                             --help and -h, one per line, sorted
help_commands() {
	"$1" --help | awk '/^commands:/ { on = 1; next }
	    on && NF { print $1 } on && !NF { exit }' | sort
}
help_options() {
	_ps=$1
	shift
	"$_ps" "$@" --help | awk '
	/^$/ { usage = 0 }
	NR == 1 { usage = 1 }
	usage {
		line = $0
		while (match(line, /--?[a-zA-Z][a-z-]*/)) {
			print substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
		}
	}
	!usage && /^ +-/ {
		for (i = 1; i <= NF && $i ~ /^-/; i++) {
			o = $i
			sub(/,$/, "", o)
			print o
		}
	}' | grep -v '^-[A-Z]' | { cat; echo --help; echo -h; } | sort -u
}
#   table_options PS CMD      the options CMD's parse-options table has
#                             (the hidden --list-options, then what its
#                             --help adds: analyze's verb options), without
#                             --help and -h, one per line, sorted
#   page_options PAGE         the options a manual page lists: its SYNOPSIS
#                             and its ".It" entries with a "Fl", one per
#                             line ("--db", "-q"), sorted
table_options() {
	{ "$1" "$2" --list-options | sed 's/=.*//'; help_options "$1" "$2"; } |
	    grep -v -x -e '--help' -e '-h' | sort -u
}
page_options() {
	awk '
	/^\.Sh / { syn = ($2 == "SYNOPSIS") }
	syn || /^\.It .*Fl / {
		line = $0
		while (match(line, /Fl -?[a-zA-Z][a-zA-Z0-9-]*/)) {
			print "-" substr(line, RSTART + 3, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1" | sort -u
}
