#!/bin/sh
# samples/demo.sh - what `make demo` runs on a fresh Debian machine:
# install the missing packages (as root; otherwise print the exact
# `sudo apt-get install` line and stop), build pathstat, ingest the
# sample tree into a fresh database and write the report bundle to
# demo/ (index.md and index.html), then say where they are.
set -eu
cd "$(dirname "$0")/.."

MAKE=${MAKE:-make}
DB=build/demo.db
OUT=demo

# Debian packages: the build (libcmark-gfm renders index.html), and
# gnuplot for the charts.
pkgs="build-essential pkg-config libsqlite3-dev libcjson-dev libcsv-dev
      libxxhash-dev zlib1g-dev libzstd-dev libcmark-gfm-dev
      libcmark-gfm-extensions-dev gnuplot-nox"
missing=""
if command -v dpkg >/dev/null 2>&1; then
	for p in $pkgs; do
		dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
elif ! command -v gnuplot >/dev/null 2>&1; then
	echo "demo: no dpkg here; install gnuplot yourself for the charts" >&2
fi
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "demo: installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing
	else
		echo "demo: missing packages:$missing" >&2
		echo "demo: install them, then run make demo again:" >&2
		echo "  sudo apt-get install$missing" >&2
		exit 1
	fi
fi

$MAKE --no-print-directory all
mkdir -p build
rm -f "$DB" "$DB-wal" "$DB-shm"
./pathstat ingest --quiet --db "$DB" samples/tree
# demo/ is this script's own output: --force also replaces a bundle an
# older pathstat wrote there (one without file hashes)
./pathstat report --force --db "$DB" --spec samples/article.json --out "$OUT" \
    --html
echo
echo "demo: open $OUT/index.html in a browser, or $OUT/index.md (tables in"
echo "demo: $OUT/tables, charts in $OUT/charts); the database is $DB"
