#!/bin/sh
# run-one.sh - run one numbered CLI test (tests/cli/NAME.sh) in a
# temporary directory of its own, print its block (the failing checks,
# then one status line) and write the same block to RESULT, whose last
# line tests/summary.sh counts.  Usage: run-one.sh NAME RESULT
#
# A test passes when it exited 0, no check failed, it ran at least one
# check (a script that ran none proves nothing, unless it skipped with
# a reason: "1..0 # SKIP why"; checks before a skip make it a pass that
# names the skip), and no helper it ran failed unchecked
# (tests/cli/helper/py records those; see lib.sh).  Make runs one of
# these per test, so `make -j` runs them side by side.
name=$1 result=$2
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../.." && pwd)
export TOP
export PS="${PATHSTAT_BIN:-$TOP/pathstat}"
export PROBE="${PATHPROBE_BIN:-$TOP/pathprobe}"
export FIX="$TOP/tests/fixtures"
export SAMPLES="$TOP/tests/fixtures/reference"
# Tests call "$PY"; it is the wrapper that notes a helper's failure.
export REAL_PY="${PYTHON:-/usr/bin/python3}"
export PY="$here/helper/py"
export LC_ALL=C.UTF-8
unset PATHSTAT_DB PATHSTAT_HELPER_CHECKED
rm -f "$result"
mkdir -p "$(dirname "$result")"
# Interrupted (^C, a CI timeout): the test's folder goes too.
TMP=""
trap '[ -z "$TMP" ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-$name.XXXXXX")
export TMP
start=$(date +%s)
# CPU: the seconds this shell's children used (times(1), a builtin: its
# output goes to a file, since $(times) would run in a child), after the
# test less before it: the test and everything it waited for.
times >"$result.cpu"
# PATHSTAT_CLI_DIR: where NAME.sh is (t0030 runs this runner on
# scripts of its own); lib.sh always comes from this folder.
out=$(cd "$TMP" && timeout "${PATHSTAT_TEST_TIMEOUT:-600}" sh "$here/lib.sh.run" "${PATHSTAT_CLI_DIR:-$here}/$name.sh" 2>&1)
rc=$?
secs=$(( $(date +%s) - start ))
times >>"$result.cpu"
cpu=$(awk 'NR % 2 == 0 { split($1, u, "m"); split($2, s, "m");
	t[NR / 2] = u[1] * 60 + u[2] + s[1] * 60 + s[2] }
	END { printf "%.1f", t[2] - t[1] }' "$result.cpu")
rm -f "$result.cpu"
n=$(printf '%s\n' "$out" | grep -c '^ok ')
bad=$(printf '%s\n' "$out" | grep -c '^not ok ')
skip=$(printf '%s\n' "$out" | grep '^1\.\.0 # SKIP' | head -1)
{
	if [ $rc -ne 0 ] || [ "$bad" -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^ok ' | head -80
		echo "FAIL cli/$name ($n ok, $bad failed, exit $rc, ${secs}s, cpu ${cpu}s)"
	elif [ -n "$skip" ] && [ "$n" -gt 0 ]; then
		# checks ran and passed before the skip: a pass that says what
		# it left out, not a skip that hides what it proved
		echo "ok   cli/$name ($n checks, then skipped the rest: ${skip#1..0 # SKIP }, ${secs}s, cpu ${cpu}s)"
	elif [ -n "$skip" ]; then
		echo "skip cli/$name: ${skip#1..0 # SKIP } (cpu ${cpu}s)"
	elif [ "$n" -eq 0 ]; then
		printf '%s\n' "$out" | head -40
		echo "FAIL cli/$name (0 checks: a test that checks nothing proves nothing)"
	else
		echo "ok   cli/$name ($n checks, ${secs}s, cpu ${cpu}s)"
	fi
} > "$result.tmp"
mv "$result.tmp" "$result"
cat "$result"
rm -rf "$TMP"
TMP=""
exit 0
