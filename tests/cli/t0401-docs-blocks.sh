# t0401: every code block of README.md and docs/tutorial.md is run, or
# says why it cannot be (tests/docs/blocks.sh): the README's commands run
# as written, and the tutorial's are examples t0400 checks.  A block with
# no comment, or one that fails, fails this test.
command -v python3 >/dev/null 2>&1 || skip_all "python3 missing: the tutorial's loopback listener is python3"
out=$(TMPDIR="$TMP" sh "$TOP/tests/docs/blocks.sh" "$TOP/README.md" "$TOP/docs/tutorial.md" 2>&1)
rc=$?
n=$(printf '%s\n' "$out" | grep -c '^ok .*: ran$')
e=$(printf '%s\n' "$out" | grep -c '^ok .*: an example')
printf '%s\n' "$out" | grep -v '^ok ' | sed 's/^/# /'
ok "[ $rc = 0 ]" "every block runs or is marked ($n run, $e examples)"
ok "[ $n -ge 3 ] && [ $e -ge 10 ]" "the README's blocks run and the tutorial's are examples"

# the check bites: a block with no comment, and one that fails
cat > doc.md <<'DOC'
```
pathstat --version
```

<!-- run
-->
```
pathstat runs --colums x
```
DOC
run env TMPDIR="$TMP" sh "$TOP/tests/docs/blocks.sh" doc.md
expect_code 1 "a block with no comment and a failing block fail"
expect_out_has "neither run nor marked" "the unmarked block is named"
expect_out_has "exit 2: pathstat runs --colums x" "the failing block is named with its status"
test_done
