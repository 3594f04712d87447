# t7604: a dataset folder or a partition folder replaced by a symbolic
# link.  export used to write part files into the link's
# target and its stale-file cleanup deleted a foreign part-00042.parquet
# there.  Now the link is reported and replaced by a real folder; what
# it pointed to is neither written nor removed.
. "$TOP/tests/cli/planted.sh"
planted_setup

rm -r ex/samples
ln -s ../victim ex/samples
run $X
expect_code 0 "export with a linked dataset folder"
expect_err_has "'ex/samples' is a symbolic link, not a folder: replaced by a folder" "the link is named"
victim_intact
export_real
ok "[ -f ex/samples/day=2026-08-28/part-00000.parquet ]" "the samples are written into a real folder"

rm -r ex/runs/day=2026-08-29
ln -s ../../victim ex/runs/day=2026-08-29
run $X
expect_code 0 "export with a linked partition folder"
expect_err_has "'ex/runs/day=2026-08-29' is a symbolic link, not a folder: replaced" "the link is named"
victim_intact
export_real

# a link to a copy of the partition is not taken for the partition
cp -r ex/summaries/day=2026-08-28 victim/copy
rm -r ex/summaries/day=2026-08-28
ln -s ../../victim/copy ex/summaries/day=2026-08-28
run $X
expect_code 0 "export with a link to a copy of a partition"
expect_err_has "'ex/summaries/day=2026-08-28' is a symbolic link" "it is rewritten, not kept"
ok "[ -f victim/copy/part-00000.parquet ] && [ \$(ls victim/copy | wc -l) -eq 1 ]" "the copy is untouched"
rm -r victim/copy
victim_intact
export_real
test_done
