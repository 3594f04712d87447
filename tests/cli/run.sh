#!/bin/sh
# run.sh - run the numbered CLI tests (tests/cli/tNNNN-*.sh), each in its
# own temporary directory; print one line per script and the failing
# checks; exit 1 if any failed.  Usage: run.sh [GLOB]  (default t[0-9]*)
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../.." && pwd)
export TOP
export PS="${PATHSTAT_BIN:-$TOP/pathstat}"
export PROBE="${PATHPROBE_BIN:-$TOP/pathprobe}"
export FIX="$TOP/tests/fixtures"
export SAMPLES="$TOP/tests/fixtures/reference"
export PY="${PYTHON:-/usr/bin/python3}"
export LC_ALL=C.UTF-8
unset PATHSTAT_DB
pat="${1:-t[0-9]*}"
fail=0
# Interrupted (^C, a CI timeout): the running test's folder goes too.
TMP=""
trap '[ -z "$TMP" ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for t in "$here"/$pat.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-$name.XXXXXX")
	export TMP
	out=$(cd "$TMP" && timeout 600 sh "$here/lib.sh.run" "$t" 2>&1)
	rc=$?
	n=$(printf '%s\n' "$out" | grep -c '^ok ')
	bad=$(printf '%s\n' "$out" | grep -c '^not ok ')
	skip=$(printf '%s\n' "$out" | grep '^1\.\.0 # SKIP' | head -1)
	if [ $rc -ne 0 ] || [ "$bad" -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^ok ' | head -80
		echo "FAIL cli/$name ($n ok, $bad failed, exit $rc)"
		fail=1
	elif [ -n "$skip" ]; then
		echo "skip cli/$name: ${skip#1..0 # SKIP }"
	else
		echo "ok   cli/$name ($n checks)"
	fi
	rm -rf "$TMP"
	TMP=""
done
exit $fail
