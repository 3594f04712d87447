# engines.sh - the engines of the engine tests (t76*), sourced after
# lib.sh.  They run under `make test-engines`, which installs them first
# (tests/engines/setup.sh, into a cache outside the clone) and sets
# PATHSTAT_ENGINES=1; plain `make test` skips them with the reason.
#   engines_python_prereq MODULE...  skip unless the engines' venv has them
#   EPY                               that venv's python, behind "$PY"'s
#                                     helper accounting: $EPY_RUN SCRIPT...
ENGINES_DIR=${PATHSTAT_ENGINES_DIR:-$HOME/.cache/pathstat-engines}
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
