#!/bin/sh
# bench/commits.sh - the effect of each change: build each commit given
# and, in rounds that alternate between them (so drift on a shared
# machine hits all alike), ingest the bench tree into a fresh database
# and run analyze percentiles --metric http_ms on it.  Prints a Markdown
# table of medians (wall and CPU seconds, peak RSS).
#
#   sh bench/commits.sh COMMIT...     (after make bench made the tree)
#   env: BENCH_OUT (bench/out), ROUNDS (3)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
OUT=${BENCH_OUT:-$here/out}
TREE=$OUT/tree
ROUNDS=${ROUNDS:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-commits.XXXXXX")
trap 'rm -rf "$W"' EXIT

[ -f "$TREE/manifest.json" ] || { echo "commits: no $TREE (run make bench)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: commits.sh COMMIT..." >&2; exit 2; }

for c in "$@"; do
	id=$(git -C "$top" rev-parse --short "$c")
	mkdir -p "$W/$id"
	git -C "$top" archive "$id" | tar -x -C "$W/$id"
	make -s -C "$W/$id" pathstat > "$W/$id.build" 2>&1 ||
	    { cat "$W/$id.build" >&2; exit 1; }
done

# one NAME CMD...: append "wall cpu rss" to $W/NAME
one() {
	name=$1
	shift
	t0=$(date +%s.%N)
	/usr/bin/time -f "%U %S %M" -o "$W/time" "$@" > /dev/null 2>&1 || true
	t1=$(date +%s.%N)
	awk -v t0="$t0" -v t1="$t1" '{ printf "%.3f %.2f %d\n", t1 - t0,
	    $1 + $2, $3 }' "$W/time" >> "$W/$name"
}

r=0
while [ "$r" -lt "$ROUNDS" ]; do
	r=$((r + 1))
	for c in "$@"; do
		id=$(git -C "$top" rev-parse --short "$c")
		rm -f "$W/db" "$W/db-wal" "$W/db-shm"
		one "$id.ingest" "$W/$id/pathstat" ingest -q --db "$W/db" "$TREE"
		one "$id.analyze" "$W/$id/pathstat" analyze percentiles \
		    --db "$W/db" --metric http_ms --format json
		echo "commits: round $r $id done" >&2
	done
done

med() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k }
    END { print v[int((NR + 1) / 2)] }'; }
echo "| commit | | ingest wall s | ingest CPU s | ingest RSS MiB | analyze http_ms wall s | analyze CPU s | analyze RSS MiB |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for c in "$@"; do
	id=$(git -C "$top" rev-parse --short "$c")
	subj=$(git -C "$top" log -1 --format=%s "$id" | cut -c1-60)
	printf '| %s | %s | %s | %s | %d | %s | %s | %d |\n' "$id" "$subj" \
	    "$(med "$W/$id.ingest" 1)" "$(med "$W/$id.ingest" 2)" \
	    "$(($(med "$W/$id.ingest" 3) / 1024))" \
	    "$(med "$W/$id.analyze" 1)" "$(med "$W/$id.analyze" 2)" \
	    "$(($(med "$W/$id.analyze" 3) / 1024))"
done
