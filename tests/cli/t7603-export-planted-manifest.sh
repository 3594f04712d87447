# t7603: manifest.json itself replaced by a FIFO or a symbolic link.
# A FIFO used to block export forever; a link was read
# through.  Now export refuses the folder (it cannot tell an earlier
# export of its own there), names the entry, and writes nothing.
. "$TOP/tests/cli/planted.sh"
planted_setup

rm ex/manifest.json
mkfifo ex/manifest.json
run $X
expect_code 1 "a FIFO as manifest.json is refused, without hanging"
expect_err_has "refusing to use 'ex/manifest.json': it is a FIFO" "and named"
ok "[ -p ex/manifest.json ]" "it is left as it is"

rm ex/manifest.json
cp ex/../t.db victim/manifest.json 2>/dev/null
ln -s ../victim/keep.txt ex/manifest.json
run $X
expect_code 1 "a link as manifest.json is refused"
expect_err_has "refusing to use 'ex/manifest.json': it is a symbolic link" "and named"
rm -f victim/manifest.json
victim_intact

run timeout 60 "$PS" export --db t.db --out ex --ddl duckdb
expect_code 1 "--ddl refuses it too"
expect_err_has "refusing to use 'ex/manifest.json'" "with the same reason"
test_done
