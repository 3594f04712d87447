# lib.sh - helpers for the numbered CLI tests (git's t/test-lib.sh, much
# smaller).  Each test script is run by run.sh in a fresh temporary
# directory ($TMP, also the cwd) by run-one.sh with:
#   $PS      the pathstat binary          $PROBE  the pathprobe binary
#   $TOP     the source tree              $FIX    tests/fixtures
#   $SAMPLES the reference sample files   $PY     python3 with numpy
# Helpers: run CMD... (captures $OUT, $ERR, $RC), expect_code N DESC,
# expect_out_has TEXT DESC, expect_err_has TEXT DESC, ok COND DESC,
# skip_all REASON, have_prereq NAME.  End with test_done.
# "$PY" is tests/cli/helper/py: a helper that fails outside run, ok and
# have_prereq (which look at its status) is reported as a failed check,
# and run-one.sh fails a script that ran no check and did not skip.
# "$REAL_PY" is python3 itself, for a test that needs its signals
# (an exec trampoline whose status the test reads).

t_n=0
t_fail=0
# `make asan` passes OUT=build-asan on make's command line, and make
# exports it: run()'s OUT would then be exported too, and a large output
# (over 128 KiB) would make every later command fail with "Argument list
# too long".  Unset, they are the shell's own.
unset OUT ERR RC

run() {
	_run_prev=${PATHSTAT_HELPER_CHECKED:-}
	PATHSTAT_HELPER_CHECKED=1; export PATHSTAT_HELPER_CHECKED
	"$@" >"$TMP/.out" 2>"$TMP/.err"
	RC=$?
	[ -n "$_run_prev" ] || unset PATHSTAT_HELPER_CHECKED
	OUT=$(cat "$TMP/.out")
	ERR=$(cat "$TMP/.err")
	if grep -qE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$TMP/.err"; then
		t_n=$((t_n + 1)); t_fail=$((t_fail + 1))
		echo "not ok $t_n - sanitizer report from: $*"
		sed 's/^/#   /' "$TMP/.err" | head -30
	fi
	return 0
}

_report() { # ok? desc [detail]
	t_n=$((t_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $t_n - $2"
	else
		t_fail=$((t_fail + 1))
		echo "not ok $t_n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | head -20 | sed 's/^/#   /'
	fi
	return 0
}

expect_code() {
	[ "$RC" = "$1" ]; _report $? "$2" "exit $RC, want $1; stderr: $ERR"
}
expect_out_has() {
	case "$OUT" in *"$1"*) _report 0 "$2" ;; *) _report 1 "$2" "stdout lacks '$1': $(printf '%s' "$OUT" | head -c 600)" ;; esac
}
expect_out_lacks() {
	case "$OUT" in *"$1"*) _report 1 "$2" "stdout has '$1'" ;; *) _report 0 "$2" ;; esac
}
expect_err_has() {
	case "$ERR" in *"$1"*) _report 0 "$2" ;; *) _report 1 "$2" "stderr lacks '$1': $(printf '%s' "$ERR" | head -c 600)" ;; esac
}
expect_err_lacks() {
	case "$ERR" in *"$1"*) _report 1 "$2" "stderr has '$1'" ;; *) _report 0 "$2" ;; esac
}
ok() { # "shell condition" desc
	PATHSTAT_HELPER_CHECKED=1; export PATHSTAT_HELPER_CHECKED
	if eval "$1"; then _ok_rc=0; else _ok_rc=1; fi
	unset PATHSTAT_HELPER_CHECKED
	_report $_ok_rc "$2" "false: $1"
}
# team_campaign DAYS PATHS TRIALS: a team's campaign in ./tree
# (bench/team-tree.py: 8 instance types, PATHS paths, TRIALS trials a
# day, DAYS days) ingested into t.db with bench/team.sh's layouts; one
# check, that the ingest exits 0.
team_campaign() {
	"$PY" "$TOP/bench/team-tree.py" tree "$1" "$2" "$3" >/dev/null
	_tc_l='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
	run "$PS" ingest -q --db t.db --layout "$_tc_l.json" \
	    --layout "$_tc_l.csv" tree
	expect_code 0 "a $1-day team campaign ingested ($ERR)"
}
# debug_counts LINE: the numbers in the report's debug line "pathstat
# report: debug: LINE" on $ERR, space-separated, where LINE writes each
# number as # (each counter of the report's work is printed behind its
# PATHSTAT_DEBUG_* switch); nothing if no such line was printed.
debug_counts() {
	_dc_re=$(printf '%s' "$1" | sed 's/#/\\([0-9]*\\)/g')
	_dc_n=$(($(printf '%s' "$1" | tr -cd '#' | wc -c)))
	_dc_sub= _dc_i=1
	while [ "$_dc_i" -le "$_dc_n" ]; do
		_dc_sub="$_dc_sub${_dc_sub:+ }\\$_dc_i"
		_dc_i=$((_dc_i + 1))
	done
	printf '%s\n' "$ERR" |
	    sed -n "s/^pathstat report: debug: $_dc_re\$/$_dc_sub/p"
}
# memo_on_off NAME MEMO LINE DIR ARG...: a report of t.db ("pathstat
# report --db t.db --no-render --out DIR ARG...") with
# PATHSTAT_DEBUG_NAME=1, and one into DIR-off with PATHSTAT_DEBUG_MEMO=1
# too (the memo off); three checks: each exits 0, and the two bundles
# are the same byte for byte.  $ON and $OFF: the numbers of their debug
# line LINE (see debug_counts), for the test to check.
memo_on_off() {
	_mo_name=$1 _mo_memo=$2 _mo_line=$3 _mo_dir=$4
	shift 4
	run env "PATHSTAT_DEBUG_$_mo_name=1" "$PS" report --db t.db \
	    --no-render --out "$_mo_dir" "$@"
	expect_code 0 "the report into $_mo_dir exits 0 ($ERR)"
	ON=$(debug_counts "$_mo_line")
	run env "PATHSTAT_DEBUG_$_mo_name=1" "PATHSTAT_DEBUG_$_mo_memo=1" \
	    "$PS" report --db t.db --no-render --out "$_mo_dir-off" "$@"
	expect_code 0 "... and with PATHSTAT_DEBUG_$_mo_memo=1 ($ERR)"
	OFF=$(debug_counts "$_mo_line")
	ok "same_bundle '$_mo_dir' '$_mo_dir-off'" \
	    "... the same tables, charts and index.md byte for byte"
}
# same_bundle A B: report bundles A and B are the same byte for byte:
# their tables, their charts (when rendered) and index.md, whose links
# name the bundle's folder (B's are read as A's).
same_bundle() {
	diff -r "$1/tables" "$2/tables" || return 1
	if [ -d "$1/charts" ] || [ -d "$2/charts" ]; then
		diff -r "$1/charts" "$2/charts" || return 1
	fi
	sed "s/$2/$1/g" "$2/index.md" | cmp - "$1/index.md"
}
# sql DB QUERY: print the query result (sqlite3 CLI, list mode)
sql() { sqlite3 -batch -noheader "$1" "$2"; }
# schema_newest: the schema version this tree's pathstat writes, the
# number of its newest migration (schema/NNN-*.sql): a test that wants
# "the newest" reads it here, so a new migration changes no test
schema_newest() {
	ls "$TOP"/schema/ | sed -n 's/^\([0-9][0-9][0-9]\)-.*\.sql$/\1/p' |
	    sort -n | tail -1 | sed 's/^0*//'
}
expect_sql() { # DB QUERY WANT DESC
	got=$(sql "$1" "$2" 2>&1)
	[ "$got" = "$3" ]; _report $? "$4" "query: $2
got:  $got
want: $3"
}
skip_all() { _helper_failures; echo "1..0 # SKIP $1"; exit 0; }
# A helper ("$PY", tests/cli/helper/py) that failed where the test did
# not look at its status is a failed check: what it should have made or
# checked was not.
_helper_failures() {
	[ -s "$TMP/.helper-failures" ] || return 0
	while IFS= read -r _hf; do
		_report 1 "a helper the test ran failed: $_hf"
	done <"$TMP/.helper-failures"
	rm -f "$TMP/.helper-failures"
}
have_prereq() {
	PATHSTAT_HELPER_CHECKED=1; export PATHSTAT_HELPER_CHECKED
	_have_prereq "$1"; _hp_rc=$?
	unset PATHSTAT_HELPER_CHECKED
	return $_hp_rc
}
_have_prereq() {
	case "$1" in
	GNUPLOT) command -v gnuplot >/dev/null 2>&1 ;;
	NUMPY) "$PY" -c 'import numpy' >/dev/null 2>&1 ;;
	SCIPY) "$PY" -c 'import scipy' >/dev/null 2>&1 ;;
	ROOT) [ "$(id -u)" = 0 ] ;;
	NETNS) [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 && ip netns list >/dev/null 2>&1 ;;
	IPERF3) command -v iperf3 >/dev/null 2>&1 ;;
	CMARK) command -v cmark-gfm >/dev/null 2>&1 ;;
	CHROMIUM) command -v chromium >/dev/null 2>&1 ;;
	*) return 1 ;;
	esac
}
test_done() {
	_helper_failures
	echo "1..$t_n"
	[ "$t_fail" = 0 ] || { echo "# $t_fail of $t_n failed"; exit 1; }
	exit 0
}
