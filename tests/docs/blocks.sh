#!/bin/sh
# blocks.sh - every code block of a document is run or says why not, so a
# page's commands cannot go stale.  Each fenced block must follow one of
# these comments (indented like the block, in a list item):
#
#   <!-- run                  the block's lines run with sh -e in a fresh
#   SETUP...                  folder after SETUP (not shown to readers),
#   -->                       with `pathstat` the binary under test and
#                             $TOP the source tree; it must exit 0
#   <!-- not run: REASON -->  a block that cannot run in a test (it
#                             installs packages, builds, or is a picture)
#   <!-- example ... -->      checked by examples.sh (tests/cli/t0400)
#
# Usage: blocks.sh FILE...  prints one "ok"/"not ok" line per block; exit 1
# when a block fails or has no comment.  Environment: PS, TOP.
set -u
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${PS:=$TOP/pathstat}"
export TOP PS
work=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-blocks.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
status=0
for file in "$@"; do
	rm -rf "$work"/*
	# split: N.kind (run, skip: REASON, example, none), N.setup, N.body,
	# N.line
	awk -v dir="$work" '
	function put(name, text) { printf "%s\n", text >> (dir "/" n "." name) }
	function strip(s) { sub(/^[ \t]+/, "", s); return s }
	fence == 0 && strip($0) ~ /^<!-- run *$/ { kind = "run"; insetup = 1; next }
	insetup && strip($0) ~ /^--> *$/ { insetup = 0; next }
	insetup { setup[++ns] = strip($0); next }
	fence == 0 && strip($0) ~ /^<!-- not run: .*[^ ].* -->$/ {
		kind = "skip"; reason = strip($0)
		sub(/^<!-- not run: */, "", reason); sub(/ *-->$/, "", reason); next
	}
	fence == 0 && strip($0) ~ /^<!-- example/ { kind = "example"; inex = 1 }
	inex { if (strip($0) ~ /^-->/) inex = 0; next }
	fence == 0 && strip($0) ~ /^```/ {
		n++; fence = 1
		printf "%s\n", (kind == "" ? "none" : kind == "skip" ? "skip: " reason : kind) > (dir "/" n ".kind")
		printf "%d\n", NR > (dir "/" n ".line")
		for (i = 1; i <= ns; i++) put("setup", setup[i])
		printf "" > (dir "/" n ".body")
		close(dir "/" n ".kind"); close(dir "/" n ".line")
		kind = ""; ns = 0
		next
	}
	fence == 1 && strip($0) ~ /^```/ { fence = 0; next }
	fence == 1 { put("body", strip($0)); next }
	/[^ \t]/ { kind = ""; ns = 0 }
	' "$file"
	n=1
	while [ -f "$work/$n.kind" ]; do
		kind=$(cat "$work/$n.kind")
		line=$(cat "$work/$n.line")
		case $kind in
		none)
			echo "not ok - $file:$line: a code block neither run nor marked '<!-- not run: why -->'"
			status=1 ;;
		example)
			echo "ok - $file:$line: an example (t0400)" ;;
		skip:*)
			echo "ok - $file:$line: not run: ${kind#skip: }" ;;
		run)
			d="$work/$n.d"
			mkdir "$d"
			[ -f "$work/$n.setup" ] || : > "$work/$n.setup"
			(
				cd "$d" || exit 1
				pathstat() { "$PS" "$@"; }
				PATHSTAT_DB=./pathstat.db; export PATHSTAT_DB
				. "$work/$n.setup" >/dev/null 2>&1 </dev/null
				set -e
				. "$work/$n.body" </dev/null
			) > "$work/$n.got" 2>&1
			rc=$?
			if [ $rc = 0 ]; then
				echo "ok - $file:$line: ran"
			else
				echo "not ok - $file:$line: exit $rc: $(head -1 "$work/$n.body")"
				tail -8 "$work/$n.got" | sed 's/^/#   /'
				status=1
			fi ;;
		esac
		n=$((n + 1))
	done
done
exit $status
