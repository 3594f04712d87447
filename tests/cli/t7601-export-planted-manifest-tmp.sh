# t7601: a symbolic link or FIFO planted at .manifest.json.tmp inside an
# earlier export.  export used to open it following the link
# (truncating and overwriting its target anywhere) and renamed the link
# to manifest.json; a FIFO there blocked it forever.  Now the planted
# entry is reported and replaced, never followed or opened.
. "$TOP/tests/cli/planted.sh"
planted_setup

ln -s ../victim/keep.txt ex/.manifest.json.tmp
run $X --force
expect_code 0 "export with a link at .manifest.json.tmp"
expect_err_has "'ex/.manifest.json.tmp' is a symbolic link: replaced, never followed" "the link is named"
victim_intact
export_real
ok "grep -q pathstat-export ex/manifest.json" "manifest.json is the export's own"

mkfifo ex/.manifest.json.tmp
run $X --force
expect_code 0 "export with a FIFO at .manifest.json.tmp does not hang"
expect_err_has "'ex/.manifest.json.tmp' is a FIFO: replaced" "the FIFO is named"
export_real
test_done
