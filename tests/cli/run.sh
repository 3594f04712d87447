#!/bin/sh
# run.sh - run the numbered CLI tests (tests/cli/tNNNN-*.sh) one after
# another without make, each through run-one.sh, then print the closing
# count; exit 1 if any failed.  Usage: run.sh [GLOB]  (default t[0-9]*)
# `make cli` (and `make test`) runs the same tests, side by side under
# `make -j`.
here=$(cd "$(dirname "$0")" && pwd)
pat="${1:-t[0-9]*}"
res=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-results.XXXXXX")
trap 'rm -rf "$res"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for t in "$here"/$pat.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	sh "$here/run-one.sh" "$name" "$res/$name.res"
done
sh "$here/../summary.sh" "$res"/*.res
