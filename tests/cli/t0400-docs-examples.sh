# t0400: every example output in README.md and docs/*.md is what the
# command prints today (tests/docs/examples.sh; `make docs-examples`
# rewrites them after a change that moves numbers on purpose).
# Examples whose setup needs python3 (tests/cli/helper/*.py) need it here.
command -v python3 >/dev/null 2>&1 || skip_all "python3 missing: the examples' trees are made by tests/cli/helper/*.py"
out=$(TMPDIR="$TMP" sh "$TOP/tests/docs/examples.sh" check "$TOP/README.md" "$TOP"/docs/*.md 2>&1)
rc=$?
n=$(printf '%s\n' "$out" | grep -c '^ok ')
printf '%s\n' "$out" | grep -v '^ok ' | sed 's/^/# /'
ok "[ $rc = 0 ]" "the documents' $n examples print what they show (make docs-examples rewrites them)"
ok "[ $n -ge 1 ]" "examples are found ($n)"
test_done
