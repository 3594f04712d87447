# t7000: export's command line: help, bad invocations (exit 2) naming
# what exists, a missing database or a filter matching nothing (exit 1),
# and an output folder that is not ours (refused, untouched).

run "$PS" export --help
expect_code 0 "export --help exits 0"
for w in "--out DIR" "--ddl athena|trino|spark|duckdb" "--partition-by" \
    "--codec zstd|gzip|none" "--location"; do
	expect_out_has "$w" "help names $w"
done
run "$PS" help export
expect_out_has "usage: pathstat export" "pathstat help export"
run "$PS"
expect_err_has "export" "the command list names export"

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null

for bad in "" "--codec lz4 --out o" "--ddl oracle" "--bogus --out o" \
    "--out o extra" "--location s3://b/p --out o" "--file-size 1 --out o" \
    "--file-size 12q --out o" "--out ''" "--where nokey --out o"; do
	eval "run \"\$PS\" export --db s.db $bad"
	expect_code 2 "bad invocation '$bad': exit 2"
done
ok "[ ! -e o ]" "no output folder after a usage error"

run "$PS" export --db s.db --where colour=red --out o
expect_code 2 "an unknown --where key: exit 2"
expect_err_has "unknown key 'colour'" "the key is named"
expect_err_has "instance_type" "and the keys that exist"
run "$PS" export --db s.db --partition-by day,colour --out o
expect_code 2 "an unknown --partition-by key: exit 2"
expect_err_has "unknown key 'colour' (known: path, trial, tool, day, hour, week, month, instance" \
    "the key is named with the known ones"
run "$PS" export --db s.db --partition-by day,day --out o
expect_code 2 "a partition key twice: exit 2"

run "$PS" export --db s.db --where path=nosuch --out o
expect_code 2 "a path no run has: usage error"
expect_err_has "bad --where: no run has the path 'nosuch' (paths: A, B, C, D, E, F, G, G', H, L1, L2)" \
    "and names the paths"
ok "[ ! -e o ]" "nothing written"
run "$PS" export --db s.db --where instancetype=c6i.large --out o
expect_code 2 "a key no run has: usage error"
expect_err_has "bad --where: unknown key 'instancetype'; did you mean 'instance_type'?" \
    "and suggests instance_type"
run "$PS" export --db s.db --where study=tokyo-osaka --where size=1m --out o
expect_code 1 "filters that together match nothing: exit 1"
expect_err_has "no runs match" "and says so"
ok "[ ! -e o ]" "nothing written"

run "$PS" export --db nowhere.db --out o
expect_code 1 "a missing database: exit 1"
expect_err_has "nowhere.db" "the database is named"

mkdir mine
echo "my notes" > mine/notes.txt
run "$PS" export --db s.db --out mine
expect_code 2 "a folder that is not an export: exit 2"
expect_err_has "holds no manifest.json" "and why"
ok "[ \"\$(ls mine)\" = notes.txt ]" "the folder is untouched"
mkdir bad
echo '{"format": "something else"}' > bad/manifest.json
run "$PS" export --db s.db --out bad
expect_code 1 "a manifest that is not ours: exit 1"
expect_err_has "not a pathstat export manifest" "and why"

run "$PS" export --db s.db --ddl athena
expect_code 2 "--ddl without a location: exit 2"
run "$PS" export --db s.db --ddl athena --location /tmp/x
expect_code 2 "--ddl athena with a path, not a URI: exit 2"
run "$PS" export --db s.db --ddl athena --location gs://b/p
expect_code 2 "--ddl athena off S3: exit 2"
run "$PS" export --db s.db --ddl spark --location "s3://b/it's"
expect_code 2 "a location with a quote: exit 2"
expect_err_has "quote" "and why"

run "$PS" export --db s.db --out ok --quiet
expect_code 0 "an export: exit 0"
ok "[ -z \"\$ERR\" ]" "--quiet: nothing on stderr"
ok "[ -z \"\$OUT\" ]" "nothing on stdout"
run "$PS" export --db s.db --out ok
expect_err_has "nothing changed" "a second export says nothing changed"

# key columns: lower case [a-z0-9_]; a key spelled as a column keeps its
# name; fixed names and leading digits get key_; clashes a suffix
mkdir -p kt/P1/trial1
printf '{"path": "P1", "trial": 1, "Instance-Type": "x", "instance_type": "y",
    "value": "v", "9lives": "n"}' > kt/P1/trial1/meta.json
cp "$TOP/samples/tree/tokyo-osaka/2026-08-28/A/trial1/probe.csv" kt/P1/trial1/
"$PS" ingest -q --db k.db kt 2>/dev/null
run "$PS" export --db k.db --out kx
expect_code 0 "export with awkward tag names"
"$PY" -c 'import json, sys
m = json.load(open("kx/manifest.json"))
print(" ".join(sorted("%s=%s" % (c["name"], c["key"])
    for c in m["datasets"]["runs"]["columns"] if "key" in c)))' > cols
ok "[ \"\$(cat cols)\" = 'hour=hour instance_type=instance_type instance_type_2=Instance-Type key_9lives=9lives key_value=value month=month week=week' ]" \
    "key columns named as documented: $(cat cols)"
test_done
