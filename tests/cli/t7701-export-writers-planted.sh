# t7701: the confinement rules of common/outdir.c hold for --writer
# exports too: a link or FIFO planted at a writer's temporary manifest
# name or part file name is replaced, never followed; a link at
# manifests/ or at another writer's manifest is refused; another
# writer's part files, and files that are not pathstat's, are never
# touched (the writers share the folder).
. "$TOP/tests/cli/planted.sh"
planted_setup
rm -rf ex
W="timeout 60 $PS export --db t.db --out wx"
run $W --writer a
expect_code 0 "writer a exports"
mkdir -p wx/samples/day=2026-08-28
echo theirs > wx/samples/day=2026-08-28/part-b-00000.parquet
echo theirs > wx/samples/day=2026-08-28/part-ab-00000.parquet
echo theirs > wx/samples/day=2026-08-28/part-00000.parquet
echo notes > wx/notes.txt

ln -s ../../victim/keep.txt wx/manifests/.a.json.tmp
run $W --writer a --force
expect_code 0 "export with a link at manifests/.a.json.tmp"
expect_err_has "is a symbolic link: replaced, never followed" \
    "the link is named"
victim_intact
ok "[ -f wx/manifests/a.json ] && [ ! -L wx/manifests/a.json ] &&
    grep -q '\"writer_id\": \"a\"' wx/manifests/a.json" \
    "manifests/a.json is the writer's own"

ln -s ../../../victim/part-00042.parquet \
    wx/samples/day=2026-08-28/.part-a-00000.parquet.tmp
run $W --writer a --force
expect_code 0 "export with a link at a writer's temporary part name"
victim_intact
ok "[ -z \"\$(find wx -type l | head -1)\" ] &&
    [ -z \"\$(find wx -name '.*.tmp' | head -1)\" ]" \
    "no link or temporary file is left"
ok "[ \"\$(cat wx/samples/day=2026-08-28/part-b-00000.parquet)\" = theirs ] &&
    [ \"\$(cat wx/samples/day=2026-08-28/part-ab-00000.parquet)\" = theirs ] &&
    [ \"\$(cat wx/samples/day=2026-08-28/part-00000.parquet)\" = theirs ] &&
    [ \"\$(cat wx/notes.txt)\" = notes ]" \
    "other writers' part files and other files are left alone"

ln -s ../victim/keep.txt wx/manifests/c.json
run $W --writer a
expect_code 1 "a link at another writer's manifest is refused"
expect_err_has "refusing to use 'wx/manifests/c.json'" "and named"
rm wx/manifests/c.json
victim_intact

mkdir -p wy victim/manifests
echo '{}' > victim/manifests/keep.json
ln -s ../victim/manifests wy/manifests
run timeout 60 "$PS" export --db t.db --out wy --writer a
expect_code 1 "a link at manifests/ is refused, never followed"
ok "[ \"\$(ls victim/manifests)\" = keep.json ]" \
    "nothing is written through it"
test_done
