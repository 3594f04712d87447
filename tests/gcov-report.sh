#!/bin/sh
# gcov-report.sh BUILD FLOOR - line coverage per folder from the .gcda
# files a `make gcov` test run left in BUILD (gcov -n: a summary, no
# .gcov files), then the whole; exits 1 when the whole is below FLOOR
# (percent), so coverage that drops is noticed.  Prints one line per
# folder: "folder  lines  covered  percent".
b=$1 floor=$2
# the library's folders, each whole: a .gcno without its .gcda is a
# file no test reached (./pathstat.gcno and the unit tests' are left out)
for d in $(cd "$b" && find . -mindepth 2 -name '*.gcno' |
    sed 's|^\./||; s|/[^/]*$||' | grep -v '^tests' | sort -u); do
	gcov -n -o "$b/$d" "$d"/*.c 2>/dev/null | awk -v dir="$d" '
		/^File / { f = $2; gsub("\047", "", f) }
		/^Lines executed:/ && f ~ ("^" dir "/") {
			split($2, a, ":"); pct = a[2] + 0; n = $4 + 0
			printf "%s %d %.0f\n", dir, n, n * pct / 100
		}'
done | awk -v floor="$floor" '
	{ n[$1] += $2; c[$1] += $3; N += $2; C += $3 }
	END {
		for (d in n) printf "%-10s %6d lines %6d covered %5.1f %%\n",
		    d, n[d], c[d], 100 * c[d] / n[d] | "sort"
		close("sort")
		if (N == 0) { print "gcov: no coverage data"; exit 1 }
		printf "%-10s %6d lines %6d covered %5.1f %% (floor %s %%)\n",
		    "all", N, C, 100 * C / N, floor
		if (100 * C / N < floor) {
			printf "gcov: line coverage %.1f %% is below the floor %s %%\n",
			    100 * C / N, floor
			exit 1
		}
	}'
