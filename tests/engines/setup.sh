#!/bin/sh
# tests/engines/setup.sh - install the engines the engine tests run
# (tests/cli/t76*: pyarrow, pyspark, a single-node Trino) into a cache
# outside the clone, once: $PATHSTAT_ENGINES_DIR, default
# ~/.cache/pathstat-engines, so a fresh clone on the same machine (CI)
# reuses it.  The versions are pinned here; a later run reuses what is
# installed while the pins are unchanged.
#
#   setup.sh [python|trino|all]    (default all)
#
# python: a venv (pyarrow, pyspark and numpy from PyPI); pyspark runs on
# the default JDK (17).  trino: trino-server-core and the Hive plugin
# from Maven Central (mvn, into ~/.m2), unpacked beside the venv; Trino
# runs on Java 25 ($TRINO_JAVA_HOME, default Temurin 25's folder).
# Prints one line per engine: "ok NAME DIR" or "no NAME: why" (the tests
# then skip with that reason); exits 1 if any failed.  Downloads are
# bounded in time: an unreachable registry costs a skip.
set -u
dir=${PATHSTAT_ENGINES_DIR:-$HOME/.cache/pathstat-engines}
what=${1:-all}
PYARROW_VERSION=26.0.1
PYSPARK_VERSION=4.3.0
NUMPY_VERSION=2.4.6
TRINO_VERSION=476
py=${ENGINES_PYTHON:-python3}
rc=0

mkdir -p "$dir" || exit 1
# mvn is a JVM too: no perf data in /tmp/hsperfdata_USER, which stays
# behind (tests/cli/engines.sh says the same for the engines' JVMs)
JAVA_TOOL_OPTIONS="-XX:-UsePerfData${JAVA_TOOL_OPTIONS:+ $JAVA_TOOL_OPTIONS}"
export JAVA_TOOL_OPTIONS

setup_python() {
	want="pyarrow==$PYARROW_VERSION pyspark==$PYSPARK_VERSION numpy==$NUMPY_VERSION"
	if [ -x "$dir/venv/bin/python" ] &&
	    [ "$(cat "$dir/venv/.pins" 2>/dev/null)" = "$want" ] &&
	    "$dir/venv/bin/python" -c 'import pyarrow, pyspark, numpy' \
	    >/dev/null 2>&1; then
		echo "ok python $dir/venv"
		return 0
	fi
	command -v "$py" >/dev/null 2>&1 || {
		echo "no python: $py is not installed"
		return 1
	}
	rm -rf "$dir/venv"
	if ! "$py" -m venv "$dir/venv" > "$dir/venv.log" 2>&1; then
		echo "no python: $py -m venv failed: $(tail -1 "$dir/venv.log")"
		return 1
	fi
	# shellcheck disable=SC2086
	if ! timeout 900 "$dir/venv/bin/pip" install -q --no-input \
	    --disable-pip-version-check --timeout 60 $want \
	    >> "$dir/venv.log" 2>&1; then
		echo "no python: pip cannot install $want: $(grep -m1 \
		    ERROR "$dir/venv.log" || tail -1 "$dir/venv.log")"
		rm -rf "$dir/venv"
		return 1
	fi
	echo "$want" > "$dir/venv/.pins"
	echo "ok python $dir/venv"
}

setup_trino() {
	t="$dir/trino-server-$TRINO_VERSION"
	java=${TRINO_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
	[ -x "$java" ] || {
		echo "no trino: Trino $TRINO_VERSION needs Java 24+ ($java is missing; set TRINO_JAVA_HOME)"
		return 1
	}
	if [ -f "$t/.complete" ]; then
		echo "ok trino $t"
		return 0
	fi
	command -v mvn >/dev/null 2>&1 || {
		echo "no trino: mvn is not installed (Debian: apt-get install maven)"
		return 1
	}
	m2=${MAVEN_REPO:-$HOME/.m2/repository}/io/trino
	for a in "trino-server-core:$TRINO_VERSION:tar.gz" \
	    "trino-hive:$TRINO_VERSION:zip"; do
		if ! timeout 900 mvn -q -B dependency:get -Dtransitive=false \
		    "-Dartifact=io.trino:$a" > "$dir/mvn.log" 2>&1; then
			echo "no trino: mvn cannot fetch io.trino:$a: $(grep -m1 \
			    ERROR "$dir/mvn.log" | cut -c1-200)"
			return 1
		fi
	done
	rm -rf "$t" "$t.tmp"
	mkdir -p "$t.tmp/plugin" &&
	    tar xzf "$m2/trino-server-core/$TRINO_VERSION/trino-server-core-$TRINO_VERSION.tar.gz" \
	    -C "$t.tmp" --strip-components=1 &&
	    "$py" -m zipfile -e \
	    "$m2/trino-hive/$TRINO_VERSION/trino-hive-$TRINO_VERSION.zip" \
	    "$t.tmp/plugin" || {
		echo "no trino: cannot unpack the server or the Hive plugin"
		rm -rf "$t.tmp"
		return 1
	}
	# the zip holds one folder, trino-hive-VERSION: the plugin's name
	[ -d "$t.tmp/plugin/trino-hive-$TRINO_VERSION" ] &&
	    mv "$t.tmp/plugin/trino-hive-$TRINO_VERSION" "$t.tmp/plugin/hive"
	touch "$t.tmp/.complete"
	mv "$t.tmp" "$t"
	echo "ok trino $t"
}

case $what in
python) setup_python || rc=1 ;;
trino) setup_trino || rc=1 ;;
all) setup_python || rc=1; setup_trino || rc=1 ;;
*) echo "usage: setup.sh [python|trino|all]" >&2; exit 2 ;;
esac
exit $rc
