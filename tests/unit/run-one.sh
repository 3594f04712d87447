#!/bin/sh
# run-one.sh - run one unit test binary from the top of the tree, print
# its failing checks and one status line, and write that block to
# RESULT (tests/summary.sh counts its last line).  A binary that ran no
# check fails: it proves nothing.  Usage: run-one.sh BINARY RESULT
t=$1 result=$2
name=$(basename "$t")
dir=$(cd "$(dirname "$0")/../.." && pwd)
rm -f "$result"
mkdir -p "$(dirname "$result")"
# CPU: as tests/cli/run-one.sh measures it (times(1), into a file).
times >"$result.cpu"
out=$(cd "$dir" && "$t" 2>&1)
rc=$?
times >>"$result.cpu"
cpu=$(awk 'NR % 2 == 0 { split($1, u, "m"); split($2, s, "m");
	t[NR / 2] = u[1] * 60 + u[2] + s[1] * 60 + s[2] }
	END { printf "%.1f", t[2] - t[1] }' "$result.cpu")
rm -f "$result.cpu"
n=$(printf '%s\n' "$out" | grep -c '^ok ')
bad=$(printf '%s\n' "$out" | grep -c '^not ok ')
{
	if [ $rc -ne 0 ] || [ "$bad" -ne 0 ]; then
		printf '%s\n' "$out" | grep -A3 -E '^not ok|ERROR|Sanitizer|runtime error' | head -60
		echo "FAIL unit/$name ($n ok, $bad failed, exit $rc, cpu ${cpu}s)"
	elif [ "$n" -eq 0 ]; then
		printf '%s\n' "$out" | head -20
		echo "FAIL unit/$name (0 checks: a test that checks nothing proves nothing)"
	else
		echo "ok   unit/$name ($n checks, cpu ${cpu}s)"
	fi
} >"$result.tmp"
mv "$result.tmp" "$result"
cat "$result"
exit 0
