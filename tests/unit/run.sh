#!/bin/sh
# run.sh - run every unit test binary; print each one's summary line and
# the failing checks; exit 1 if any failed.
fail=0
for t in "$@"; do
	name=$(basename "$t")
	dir=$(cd "$(dirname "$0")/../.." && pwd)
	out=$(cd "$dir" && "$t" 2>&1)
	rc=$?
	n=$(printf '%s\n' "$out" | grep -c '^ok ')
	bad=$(printf '%s\n' "$out" | grep -c '^not ok ')
	if [ $rc -ne 0 ] || [ "$bad" -ne 0 ]; then
		printf '%s\n' "$out" | grep -A3 -E '^not ok|ERROR|Sanitizer|runtime error' | head -60
		echo "FAIL unit/$name ($n ok, $bad failed, exit $rc)"
		fail=1
	else
		echo "ok   unit/$name ($n checks)"
	fi
done
exit $fail
