#!/bin/sh
# summary.sh - the closing count of a test run.  Each argument is one
# test's result file (its last line "ok   ...", "FAIL ..." or "skip
# ..."; run-one.sh ends it with "cpu N.Ns)"); a missing one counts as
# failed (its test never finished).  Prints the failed tests' names, the
# run's CPU time (the sum over its tests) with the five dearest, then
# one line "N passed, N failed, N skipped", always the last; exits 1 if
# any failed.
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
[ $# -eq 0 ] || for r in "$@"; do
	tail -1 "$r" 2>/dev/null
done | awk '
	match($0, /cpu [0-9.]+s\)$/) {
		c = substr($0, RSTART + 4, RLENGTH - 6) + 0; sum += c
		split($2, w, "/"); n++; name[n] = w[2]; sec[n] = c
	}
	END {
		if (n == 0) exit
		# the five dearest, dearest first (n is small: a plain sort)
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (sec[j] > sec[i]) {
				t = sec[i]; sec[i] = sec[j]; sec[j] = t
				t = name[i]; name[i] = name[j]; name[j] = t
			}
		top = ""
		for (i = 1; i <= n && i <= 5; i++)
			top = top (i > 1 ? ", " : "") sprintf("%s %.1fs", name[i], sec[i])
		printf "cpu: %.1f s (%.1f min) over %d tests; dearest: %s\n",
		    sum, sum / 60, n, top
	}'
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
