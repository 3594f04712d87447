#!/bin/sh
# bench/instructions.sh - what each commit costs analyze, counted in
# instructions: build each commit given, ingest the tree into a fresh
# database with that commit's pathstat, and count the instructions of
# `analyze percentiles --metric http_ms --format json` under valgrind's
# callgrind.  The count is the same from run to run for the same binary
# and data, whatever else the machine is doing, so it tells a regression
# from load noise where wall times (bench/commits.sh) cannot on a shared
# machine.  Prints a Markdown table.
#
#   sh bench/instructions.sh COMMIT...
#   env: TREE (bench/out/tree; a smaller one is fine:
#        samples/gen_samples.py --bench --size-gb 0.1 --out DIR)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
TREE=${TREE:-$here/out/tree}
W=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-instr.XXXXXX")
trap 'rm -rf "$W"' EXIT

[ -d "$TREE" ] || { echo "instructions: no tree $TREE (set TREE)" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 ||
    { echo "instructions: needs valgrind (Debian: valgrind)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: instructions.sh COMMIT..." >&2; exit 2; }

echo "| commit | | analyze http_ms instructions (callgrind Ir) |"
echo "| --- | --- | ---: |"
for c in "$@"; do
	id=$(git -C "$top" rev-parse --short "$c")
	subj=$(git -C "$top" log -1 --format=%s "$id" | cut -c1-60)
	mkdir -p "$W/$id"
	git -C "$top" archive "$id" | tar -x -C "$W/$id"
	make -s -C "$W/$id" pathstat > "$W/$id.build" 2>&1 ||
	    { cat "$W/$id.build" >&2; exit 1; }
	rm -f "$W/db" "$W/db-wal" "$W/db-shm"
	"$W/$id/pathstat" ingest -q --db "$W/db" "$TREE" > /dev/null 2>&1 || true
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
	    "$W/$id/pathstat" analyze percentiles --db "$W/db" \
	    --metric http_ms --format json > /dev/null 2> "$W/$id.cg"
	n=$(grep -o 'refs: *[0-9,]*' "$W/$id.cg" | tr -dc 0-9)
	printf '| %s | %s | %s |\n' "$id" "$subj" \
	    "$(printf '%s' "$n" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')"
	rm -rf "$W/$id"
done
