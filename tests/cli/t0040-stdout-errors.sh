# t0040: a failed write to standard output is reported with the reason
# of the write that failed.  On /dev/full stdio's buffer fills and its
# write fails with ENOSPC mid-command; by the final flush later calls
# (sqlite3 unlocking the database) have left errno at EBADF, which the
# message used to name.  "help CMD" checks its stdout like every command.

[ -w /dev/full ] || skip_all "no writable /dev/full"
cp -r "$TOP/samples/tree" tree
run "$PS" ingest --db s.db tree
expect_code 0 "the sample tree ingests"
run "$PS" runs --db s.db
ok '[ ${#OUT} -gt 16384 ]' \
    "runs prints more than one stdio buffer (${#OUT} bytes)"

run sh -c "\"$PS\" runs --db s.db > /dev/full"
expect_code 1 "runs > /dev/full: exit 1"
expect_err_has "pathstat runs: write to standard output: No space left on device" \
    "the message names the failed write's reason (ENOSPC)"
expect_err_lacks "Bad file descriptor" "not a later call's errno"

run sh -c "\"$PS\" runs --db s.db --format json > /dev/full"
expect_code 1 "runs --format json > /dev/full: exit 1"
expect_err_has "write to standard output: No space left on device" \
    "json: the failed write's reason"

run sh -c "\"$PS\" --help > /dev/full"
expect_code 1 "--help > /dev/full: exit 1"
expect_err_has "write to standard output: No space left on device" \
    "--help: the failed write's reason"

run sh -c "\"$PS\" help runs > /dev/full"
expect_code 1 "help runs > /dev/full: exit 1, as runs --help does"
expect_err_has "write to standard output: No space left on device" \
    "help runs: the failed write's reason"

# stdout still works where it can: a pipe and a file get every byte
run sh -c "\"$PS\" runs --db s.db | cat > piped.txt"
"$PS" runs --db s.db > file.txt
ok 'cmp -s piped.txt file.txt && [ -s file.txt ]' \
    "runs through a pipe and into a file print the same bytes"
test_done
