# t7602: a symbolic link or FIFO planted at a part file's temporary name
# (.part-00000.parquet.tmp) or at its final name.  The link
# used to be opened (its target truncated and overwritten with Parquet)
# and renamed into place; a FIFO blocked export forever.  Now each is
# reported and replaced, never followed or opened.
. "$TOP/tests/cli/planted.sh"
planted_setup

ln -s ../../../victim/keep.txt ex/samples/day=2026-08-28/.part-00000.parquet.tmp
run $X --force
expect_code 0 "export with a link at a temporary part name"
expect_err_has "'ex/samples/day=2026-08-28/.part-00000.parquet.tmp' is a symbolic link: replaced" "the link is named"
victim_intact
export_real

mkfifo ex/runs/day=2026-08-29/.part-00000.parquet.tmp
run $X --force
expect_code 0 "export with a FIFO at a temporary part name does not hang"
expect_err_has "'ex/runs/day=2026-08-29/.part-00000.parquet.tmp' is a FIFO: replaced" "the FIFO is named"
export_real

rm ex/findings/part-00000.parquet
ln -s ../../victim/keep.txt ex/findings/part-00000.parquet
run $X
expect_code 0 "export with a link at a final part name"
expect_err_has "'ex/findings/part-00000.parquet' is a symbolic link: replaced" "the link is named"
victim_intact
export_real
test_done
