#!/bin/sh
# tests/duckdb/setup.sh - install DuckDB's Node package, the independent
# reader of the export tests, into a folder the tests own (default
# build/duckdb-node; $DUCKDB_NODE_DIR or the first argument), once: the
# versions are pinned by package-lock.json and a later run reuses the
# install while the lock file is unchanged.  Prints the folder; on
# failure prints one line saying why on stderr and exits 1 (the tests
# then skip with that line).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dir=${1:-${DUCKDB_NODE_DIR:-$top/build/duckdb-node}}

command -v node >/dev/null 2>&1 || {
	echo "node is not installed (Debian: apt-get install nodejs npm)" >&2
	exit 1
}
if [ -f "$dir/node_modules/@duckdb/node-api/package.json" ] &&
    cmp -s "$here/package-lock.json" "$dir/package-lock.json" &&
    cmp -s "$here/query.mjs" "$dir/query.mjs" &&
    node "$dir/query.mjs" "SELECT 1 AS one" >/dev/null 2>&1; then
	echo "$dir"
	exit 0
fi
command -v npm >/dev/null 2>&1 || {
	echo "npm is not installed (Debian: apt-get install npm)" >&2
	exit 1
}
mkdir -p "$dir" || exit 1
rm -rf "$dir/node_modules"
cp "$here/package.json" "$here/package-lock.json" "$here/query.mjs" "$dir/"
# bounded: an unreachable registry must cost a skip, not the test's time
if ! (cd "$dir" && timeout 240 npm ci --no-audit --no-fund \
    --fetch-retries=1 --fetch-timeout=60000 --loglevel=error) \
    > "$dir/npm.log" 2>&1; then
	echo "npm cannot install @duckdb/node-api (registry unreachable?):" \
	    "$(grep -m1 -e 'error code' -e 'ERR' "$dir/npm.log" ||
	    grep -v '^$' "$dir/npm.log" | tail -1)" >&2
	exit 1
fi
if ! node "$dir/query.mjs" "SELECT 1 AS one" > "$dir/check.log" 2>&1; then
	echo "@duckdb/node-api installed but does not load: $(tail -1 \
	    "$dir/check.log")" >&2
	exit 1
fi
echo "$dir"
