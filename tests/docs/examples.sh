#!/bin/sh
# examples.sh - the example outputs in README.md and docs/*.md, checked
# against what the commands print today, so a document cannot go stale.
#
# An example is a fenced block right after a marker comment:
#
#   <!-- example
#   pathstat ingest -q "$TOP/samples/tree"
#   -->
#   ```
#   $ pathstat analyze percentiles --metric connect_ms --paths A,B
#   | Path | ...
#   ```
#
# The comment's lines (the setup, not shown to readers) and then the
# block's "$ " lines (a trailing "\" continues one) run with sh in a fresh
# folder, with `pathstat` the binary under test and $TOP the source tree;
# what the block's commands print (stdout and stderr) must equal the rest
# of the block.  A line "..." in the document stands for any number of
# lines.
#
# Usage: examples.sh check FILE...    one "ok"/"not ok" line per example
#        examples.sh update FILE...   rewrite each block's output in place
#                                      (blocks with "..." are left alone)
# Environment: PS (pathstat binary), TOP (source tree).  Exit 1 when an
# example differs (check) or cannot be rewritten (update).
set -u
mode=${1:-check}
shift
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${PS:=$TOP/pathstat}"
export TOP PS
work=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0

# split FILE: write $work/N.setup, N.cmd, N.want, N.range (first and last
# line of the output, or "S S-1" when the block has no output yet) and
# N.line (the marker's line number).
split_examples() {
	awk -v dir="$work" '
	function out(name, text) { printf "%s\n", text >> (dir "/" n "." name) }
	state == 0 && /^<!-- example *$/ { n++; state = 1; mark = NR; next }
	state == 1 && /^--> *$/ { state = 2; next }
	state == 1 { out("setup", $0); next }
	state == 2 && /^```/ { state = 3; cont = 0; first = 0; next }
	state == 2 { printf "%s:%d: example marker not followed by a fenced block\n", FILENAME, mark > "/dev/stderr"; exit 3 }
	state == 3 && /^```/ {
		if (!first) first = NR
		printf "%d %d\n", first, NR - 1 > (dir "/" n ".range")
		printf "%d\n", mark > (dir "/" n ".line")
		close(dir "/" n ".range"); close(dir "/" n ".line")
		state = 0; next
	}
	state == 3 && (cont || /^\$ /) && !first {
		line = $0
		if (!cont) line = substr(line, 3)
		out("cmd", line)
		cont = (line ~ /\\$/)
		next
	}
	state == 3 { if (!first) first = NR; out("want", $0); next }
	END { if (state) { printf "%s: example at line %d not closed\n", FILENAME, mark > "/dev/stderr"; exit 3 } }
	' "$1"
}

# matches WANT GOT: GOT equals WANT, where a WANT line "..." stands for
# any number of lines.
matches() {
	awk '
	NR == FNR { want[++nw] = $0; next }
	{ got[++ng] = $0 }
	function m(i, j,   k) {
		if (i > nw) return j > ng
		if (want[i] == "...") {
			for (k = j; k <= ng + 1; k++) if (m(i + 1, k)) return 1
			return 0
		}
		if (j > ng || want[i] != got[j]) return 0
		return m(i + 1, j + 1)
	}
	END { exit m(1, 1) ? 0 : 1 }
	' "$1" "$2"
}

run_example() { # N: run it, output in $work/N.got
	d="$work/$1.d"
	mkdir "$d"
	: > "$work/$1.setup.x"; [ -f "$work/$1.setup" ] && cat "$work/$1.setup" > "$work/$1.setup.x"
	(
		cd "$d" || exit 1
		pathstat() { "$PS" "$@"; }
		PATHSTAT_DB=./pathstat.db; export PATHSTAT_DB
		. "$work/$1.setup.x" >/dev/null 2>&1 </dev/null
		. "$work/$1.cmd" 2>&1 </dev/null
	) > "$work/$1.got" 2>&1
}

for file in "$@"; do
	rm -rf "$work"/*
	split_examples "$file" || { status=1; continue; }
	n=1
	rewrite=""
	while [ -f "$work/$n.range" ]; do
		line=$(cat "$work/$n.line")
		[ -f "$work/$n.want" ] || : > "$work/$n.want"
		if [ ! -f "$work/$n.cmd" ]; then
			echo "not ok - $file:$line: the example has no \"\$ \" command"
			status=1
		else
			run_example "$n"
			if matches "$work/$n.want" "$work/$n.got"; then
				[ "$mode" = check ] && echo "ok - $file:$line"
			elif [ "$mode" = update ] && ! grep -qx '\.\.\.' "$work/$n.want"; then
				rewrite="$rewrite $n"
				echo "updated $file:$line"
			else
				echo "not ok - $file:$line: $(head -1 "$work/$n.cmd")"
				diff -u "$work/$n.want" "$work/$n.got" | sed -n '3,40s/^/#   /p'
				status=1
			fi
		fi
		n=$((n + 1))
	done
	[ -n "$rewrite" ] || continue
	# Replace each rewritten block's output lines with what it printed.
	awk -v dir="$work" -v list="$rewrite" '
	BEGIN {
		k = split(list, ns, " ")
		for (i = 1; i <= k; i++) {
			getline r < (dir "/" ns[i] ".range"); split(r, a, " ")
			from[a[1]] = ns[i]; upto[ns[i]] = a[2]
		}
	}
	(NR in from) {
		e = from[NR]; f = dir "/" e ".got"
		while ((getline l < f) > 0) print l
		close(f)
		if (upto[e] < NR) print; else skip = upto[e]
		next
	}
	skip && NR <= skip { next }
	{ skip = 0; print }
	' "$file" > "$work/rewritten" && cat "$work/rewritten" > "$file"
done
exit $status
