#!/bin/sh
# run.sh - run every unit test binary given, one after another, through
# run-one.sh, then print the closing count; exit 1 if any failed.
# (`make unit` runs them side by side under `make -j`.)
here=$(cd "$(dirname "$0")" && pwd)
res=$(mktemp -d "${TMPDIR:-/tmp}/pathstat-results.XXXXXX")
trap 'rm -rf "$res"' EXIT
for t in "$@"; do
	sh "$here/run-one.sh" "$t" "$res/$(basename "$t").res"
done
sh "$here/../summary.sh" "$res"/*.res
