# engines.sh - the engines of the engine tests (t76*), sourced after
# lib.sh.  They run under `make test-engines`, which installs them first
# (tests/engines/setup.sh, into a cache outside the clone) and sets
# PATHSTAT_ENGINES=1; plain `make test` skips them with the reason.
#   engines_python_prereq MODULE...  skip unless the engines' venv has them
#   EPY                               that venv's python, behind "$PY"'s
#                                     helper accounting: $EPY_RUN SCRIPT...
ENGINES_DIR=${PATHSTAT_ENGINES_DIR:-$HOME/.cache/pathstat-engines}
# Every JVM (Spark's launcher and driver, Trino) writes its perf data
# into /tmp/hsperfdata_USER whatever java.io.tmpdir says, and the
# folder stays: CI's private /tmp fails on it.  No perf data.
JAVA_TOOL_OPTIONS="-XX:-UsePerfData${JAVA_TOOL_OPTIONS:+ $JAVA_TOOL_OPTIONS}"
export JAVA_TOOL_OPTIONS
engines_gate() {
	[ "${PATHSTAT_ENGINES:-}" = 1 ] ||
	    skip_all "engine test: make test-engines runs it (it installs pyarrow, pyspark and Trino)"
}
# the line setup.sh printed for ENGINE (python, trino), if it failed
engines_why() {
	grep "^no $1:" "$TOP/build/engines-setup.txt" 2>/dev/null | head -1
}
engines_python_prereq() {
	engines_gate
	EPY=$ENGINES_DIR/venv/bin/python
	if ! [ -x "$EPY" ]; then
		_why=$(engines_why python)
		skip_all "${_why:-no venv at $ENGINES_DIR/venv (tests/engines/setup.sh python)}"
	fi
	for _m in "$@"; do
		"$EPY" -c "import $_m" >/dev/null 2>&1 ||
		    skip_all "$_m is not in $ENGINES_DIR/venv (tests/engines/setup.sh python)"
	done
}
# run a helper with the venv's python, a failure outside run/ok counted
engines_py() {
	REAL_PY=$EPY "$PY" "$@"
}
# report the "ok - " / "not ok - " lines of a helper's output as checks
engines_report() { # FILE PREFIX
	while IFS= read -r _l; do
		case "$_l" in
		"ok - "*) _report 0 "$2${_l#ok - }" ;;
		"not ok - "*) _report 1 "$2${_l#not ok - }" ;;
		*) echo "$_l" ;;
		esac
	done < "$1"
}
# Trino: a single-node server (coordinator and worker) on loopback, the
# Hive connector as catalog hive on a file metastore in $TMP; its start
# takes a minute or more on two busy cores, so a test starts one and
# runs everything on it.  trino_start sets TRINO_URL and TRINO_PID, or
# skips; trino_stop ends it (the test's own pid, then waits).
TRINO_VERSION=476
trino_prereq() {
	engines_gate
	TRINO_HOME=$ENGINES_DIR/trino-server-$TRINO_VERSION
	TRINO_JAVA=${TRINO_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
	if ! [ -f "$TRINO_HOME/.complete" ]; then
		_why=$(engines_why trino)
		skip_all "${_why:-Trino is not installed in $TRINO_HOME (tests/engines/setup.sh trino)}"
	fi
	[ -x "$TRINO_JAVA/bin/java" ] ||
	    skip_all "Trino $TRINO_VERSION needs Java 24+: no $TRINO_JAVA/bin/java (set TRINO_JAVA_HOME)"
}
trino_start() {
	_t=$TMP/trino
	mkdir -p "$_t/etc/catalog" "$_t/data" "$_t/metastore"
	_port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat > "$_t/etc/node.properties" <<-EOT
	node.environment=pathstat
	node.id=pathstat-test
	node.data-dir=$_t/data
	node.internal-address=127.0.0.1
	node.bind-ip=127.0.0.1
	EOT
	# a short run on two busy cores: the quick JIT alone and one GC
	# thread start it in about half the time (t7620)
	printf '%s\n' -server -Xmx2G -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
	    -XX:+ExitOnOutOfMemoryError \
	    -Djdk.attach.allowAttachSelf=true "-Djava.io.tmpdir=$_t" \
	    > "$_t/etc/jvm.config"
	# the Hive plugin alone: the server's others (Python functions,
	# geospatial, ...) cost start time and no test uses them
	mkdir -p "$_t/plugin"
	ln -s "$TRINO_HOME/plugin/hive" "$_t/plugin/hive"
	cat > "$_t/etc/config.properties" <<-EOT
	coordinator=true
	node-scheduler.include-coordinator=true
	http-server.http.port=$_port
	discovery.uri=http://127.0.0.1:$_port
	query.max-memory=1GB
	query.max-memory-per-node=1GB
	plugin.dir=$_t/plugin
	task.concurrency=2
	EOT
	# Trino's own local file system reads local:// URIs (file:// is
	# Hadoop's, whose libraries the Hive plugin's zip leaves out);
	# Athena's partition projection, read from a table's parameters
	# as Athena keeps them, and a projected partition without a folder
	# empty, as Athena has it (t7620)
	cat > "$_t/etc/catalog/hive.properties" <<-EOT
	connector.name=hive
	hive.metastore=file
	hive.metastore.catalog.dir=local://$_t/metastore
	fs.native-local.enabled=true
	local.location=/
	hive.partition-projection-enabled=true
	hive.ignore-absent-partitions=true
	EOT
	TRINO_URL=http://127.0.0.1:$_port
	_t0=$(date +%s)
	JAVA_HOME=$TRINO_JAVA PATH=$TRINO_JAVA/bin:$PATH \
	    "$TRINO_HOME/bin/launcher" run "--etc-dir=$_t/etc" \
	    "--data-dir=$_t/data" > "$_t/server.out" 2>&1 &
	TRINO_PID=$!
	# up when /v1/info says it is no longer starting (bounded: 900 s)
	while :; do
		if ! kill -0 "$TRINO_PID" 2>/dev/null; then
			echo "# Trino exited: $(grep -m1 -i error "$_t/server.out" | cut -c1-300)"
			TRINO_PID=""
			return 1
		fi
		"$REAL_PY" -c 'import json, sys, urllib.request
sys.exit(json.load(urllib.request.urlopen(sys.argv[1] + "/v1/info",
    timeout=10))["starting"])' "$TRINO_URL" 2>/dev/null && break
		if [ $(( $(date +%s) - _t0 )) -gt 900 ]; then
			echo "# Trino did not start in 900 s"
			return 1
		fi
		sleep 2
	done
	TRINO_START_S=$(( $(date +%s) - _t0 ))
}
trino_stop() {
	[ -n "${TRINO_PID:-}" ] || return 0
	kill "$TRINO_PID" 2>/dev/null
	wait "$TRINO_PID" 2>/dev/null
	TRINO_PID=""
}
