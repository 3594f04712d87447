#!/bin/sh
# bench/duckdb_setup.sh - install PyPI's duckdb and duckdb-ext-sqlite
# (the sqlite extension as a package: DuckDB cannot download extensions
# here) into a venv for bench/duckdb_raw.py, once: $BENCH_DUCKDB_VENV,
# default bench/out/duckdb-venv.  The versions are pinned here (the
# extension is built for one DuckDB version: 1.4.4 is the newest both
# exist for); a later run reuses the venv while the pins are unchanged.
# Prints the venv's python; on failure prints one line saying why on
# stderr and exits 1 (the bench then leaves DuckDB's raw-file row out).
#
#   sh bench/duckdb_setup.sh
#   env: BENCH_DUCKDB_VENV, PYTHON (/usr/bin/python3, which makes the venv)
here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DUCKDB_VENV:-$here/out/duckdb-venv}
py=${PYTHON:-/usr/bin/python3}
want="duckdb==1.4.4 duckdb-ext-sqlite==1.4.4.20260205"

check() {
	"$dir/bin/python" -c 'import duckdb, duckdb_ext' >/dev/null 2>&1
}
if [ -x "$dir/bin/python" ] &&
    [ "$(cat "$dir/.pins" 2>/dev/null)" = "$want" ] && check; then
	echo "$dir/bin/python"
	exit 0
fi
command -v "$py" >/dev/null 2>&1 || {
	echo "$py is not installed" >&2
	exit 1
}
rm -rf "$dir"
mkdir -p "$(dirname "$dir")" || exit 1
if ! "$py" -m venv "$dir" > "$dir.log" 2>&1; then
	echo "$py -m venv failed (Debian: apt-get install python3-venv):" \
	    "$(tail -1 "$dir.log")" >&2
	rm -rf "$dir"
	exit 1
fi
# bounded: an unreachable registry must cost the row, not the bench
# shellcheck disable=SC2086
if ! timeout 600 "$dir/bin/pip" install -q --no-input \
    --disable-pip-version-check --timeout 60 $want >> "$dir.log" 2>&1 ||
    ! check; then
	echo "pip cannot install $want: $(grep -m1 ERROR "$dir.log" ||
	    tail -1 "$dir.log")" >&2
	rm -rf "$dir"
	exit 1
fi
echo "$want" > "$dir/.pins"
echo "$dir/bin/python"
