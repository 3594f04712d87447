#!/bin/sh
# summary.sh - the closing count of a test run.  Each argument is one
# test's result file (its last line "ok   ...", "FAIL ..." or "skip
# ..."); a missing one counts as failed (its test never finished).
# Prints the failed tests' names, then one line
# "N passed, N failed, N skipped"; exits 1 if any failed.
pass=0 fail=0 skip=0 failed=""
for r in "$@"; do
	last=$(tail -1 "$r" 2>/dev/null)
	case "$last" in
	"ok   "*) pass=$((pass + 1)) ;;
	"skip "*) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed ${r##*/}" ;;
	esac
done
[ -z "$failed" ] || echo "failed:$(printf '%s' "$failed" | sed 's/\.res//g')"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
