# t0030: the test runner cannot pass on nothing.  run-one.sh
# is run on small scripts of this test's own: one that ran no check, one
# whose python helper failed unchecked, one that failed a check, one
# that skipped with a reason, one that skipped after checks, one that
# passed; and tests/summary.sh counts them and adds their CPU time.

mkdir scripts res
cat >scripts/a-none.sh <<'X'
echo "nothing checked"
X
cat >scripts/b-helper.sh <<'X'
"$PY" -c 'import sys; sys.exit(3)'
run true
expect_code 0 "true runs"
test_done
X
cat >scripts/c-fail.sh <<'X'
run false
expect_code 0 "false exits 0 (it does not)"
test_done
X
cat >scripts/d-skip.sh <<'X'
skip_all "no frobnicator here"
X
cat >scripts/e-skip-late.sh <<'X'
run true
expect_code 0 "true runs"
skip_all "no frobnicator for the rest"
X
cat >scripts/f-pass.sh <<'X'
run true
expect_code 0 "true runs"
ok true "a second check"
test_done
X
for s in a-none b-helper c-fail d-skip e-skip-late f-pass; do
	PATHSTAT_CLI_DIR="$PWD/scripts" sh "$TOP/tests/cli/run-one.sh" "$s" \
	    "$PWD/res/$s.res" >/dev/null 2>&1
done
lastis() { tail -n 1 "res/$1.res" | grep -q "$2"; }
ok 'lastis a-none "^FAIL .*0 checks"' "a script with no check fails"
ok 'lastis b-helper "^FAIL "' "an unchecked helper failure fails the script"
ok "grep -q 'a helper the test ran failed: exit 3' res/b-helper.res" \
    "the helper failure names the helper's exit"
ok 'lastis c-fail "^FAIL "' "a failed check fails the script"
ok 'lastis d-skip "^skip .*no frobnicator here"' \
    "a skip with a reason is a skip, with its reason"
ok 'lastis e-skip-late "^ok .*1 checks, then skipped the rest: no frobnicator"' \
    "checks before a skip make a pass that names the skip"
ok 'lastis f-pass "^ok .*(2 checks"' "a passing script passes with its count"
ok 'lastis f-pass "^ok .*, cpu [0-9][0-9.]*s)\$"' \
    "a status line ends with the CPU seconds the test used"
ok 'lastis c-fail "^FAIL .*, cpu [0-9][0-9.]*s)\$"' "a failure's too"
run sh "$TOP/tests/summary.sh" res/*.res
expect_code 1 "summary exits 1 when any failed"
expect_out_has "2 passed, 3 failed, 1 skipped" "summary counts each kind"
expect_out_has "cpu: " "summary prints the run's CPU time"
ok '[ "$(printf "%s\n" "$OUT" | tail -n 1)" = "2 passed, 3 failed, 1 skipped" ]' \
    "... and the counts stay the last line"
# the sum of the tests' CPU, from their status lines
mkdir sum
printf 'ok   cli/a (1 checks, 0s, cpu 1.5s)\n' > sum/a.res
printf 'ok   cli/b (1 checks, 9s, cpu 60.5s)\n' > sum/b.res
run sh "$TOP/tests/summary.sh" sum/a.res sum/b.res
expect_out_has "cpu: 62.0 s (1.0 min) over 2 tests; dearest: b 60.5s, a 1.5s" \
    "summary adds the tests' CPU seconds and names the dearest"
test_done
