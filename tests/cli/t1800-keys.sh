# t1800: pathstat keys lists what --where and --by can take: path, trial,
# tool, condition keys, tags, and day/hour/week/month/instance as they derive them,
# each value with its run count, runs without a key as "(none)"; in md,
# csv and json; --where narrows the counts; an unknown key or value is a
# usage error naming what exists; nothing matching, no runs or no
# database exits 1.

probe() { # FILE START_ISO START_NS
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=$2"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,$3,0.2$4,ok"
		echo "1,$(($3 + 200000000)),0.3$4,ok"
	} > "$1"
}
# paths A, G, G'; trials 1, 2 and 10 (natural order); a condition key
# that is a tag on another run; an instance_id tag on some runs; one run
# whose day tag differs from its start time.
mk() { # DIR PATH TRIAL COND DAY-ISO NS TAGS-JSON-EXTRA N
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": $3, \"condition\": \"$4\"$7}" > "$1/meta.json"
	probe "$1/probe.csv" "$5" "$6" "$8"
}
mk tree/a1 A 1 ka-on "2026-08-28T01:00:00Z" 1787878800000000000 ', "region": "r1", "instance_id": "i-1"' 1
mk tree/a2 A 2 ka-on "2026-08-28T02:00:00Z" 1787882400000000000 ', "region": "r1", "instance_id": "i-2"' 2
mk tree/a10 A 10 ka-off "2026-08-29T01:00:00Z" 1787965200000000000 ', "region": "r2"' 3
mk tree/g1 G 1 ka-on "2026-08-28T01:00:00Z" 1787878800000000000 ', "region": "r1", "day": "2026-09-01"' 4
mk tree/gp1 "G'" 1 "" "2026-08-28T01:00:00Z" 1787878800000000000 ', "region": "r1", "ka": "maybe"' 5
run "$PS" ingest --db k.db tree
expect_code 0 "tree ingested"

run "$PS" keys --db k.db --format csv
expect_code 0 "keys --format csv exits 0"
cat > want.csv <<'EOF'
key,kind,value,runs
path,run,A,3
path,run,G,1
path,run,G',1
trial,run,1,3
trial,run,2,1
trial,run,10,1
tool,run,pathprobe,5
ka,condition,maybe,1
ka,condition,off,1
ka,condition,on,3
instance_id,tag,i-1,1
instance_id,tag,i-2,1
instance_id,tag,,3
region,tag,r1,4
region,tag,r2,1
day,"tag, else start time",2026-08-28,3
day,"tag, else start time",2026-08-29,1
day,"tag, else start time",2026-09-01,1
hour,"tag, else start time",01,4
hour,"tag, else start time",02,1
week,"tag, else the day's ISO week",2026-W35,4
week,"tag, else the day's ISO week",2026-W36,1
month,"tag, else the day's month",2026-08,4
month,"tag, else the day's month",2026-09,1
instance,instance_id or hostname tag,i-1,1
instance,instance_id or hostname tag,i-2,1
instance,instance_id or hostname tag,,3
EOF
printf '%s\n' "$OUT" > got.csv
ok "cmp -s want.csv got.csv" "every key, its values in natural order, run counts ($(diff want.csv got.csv | head -5 | tr '\n' ' '))"

run "$PS" keys --db k.db --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys; r = json.load(sys.stdin); assert all(set(x) == {\"key\", \"kind\", \"value\", \"runs\"} for x in r); assert [x[\"runs\"] for x in r if x[\"key\"] == \"instance_id\" and x[\"value\"] is None] == [3]'" \
    "json: key, kind, value, runs; a run without the key has value null"
run "$PS" keys --db k.db
expect_out_has "| ka | condition | maybe | 1 |" "md: a tag named like a condition key counts under that key"
expect_out_has "| instance\\_id | tag | (none) | 3 |" "md: runs without the key as (none)"
expect_out_has "_5 runs. --where KEY=VALUE" "md: a note with the run count and how to use the keys"

# the counts follow --where, with the same meaning as elsewhere
run "$PS" keys --db k.db --where path=A --format csv
expect_code 0 "--where path=A"
expect_out_has "trial,run,10,1" "--where path=A: A's trials"
expect_out_lacks "path,run,G" "--where path=A: other paths gone"
expect_out_lacks "2026-09-01" "--where path=A: G's day tag gone"
run "$PS" keys --db k.db --where instance_id= --format csv
expect_out_has "path,run,A,1" "--where KEY= keeps the runs without the key"
expect_out_lacks "instance_id,tag," "--where KEY=: the key itself is left out"
run "$PS" keys --db k.db --where day=2026-09-01 --format csv
expect_out_has "path,run,G,1" "--where day= reads the day tag before the start time"
run "$PS" keys --db k.db --where path=A,G --where hour=01 --format csv
expect_out_has "path,run,A,2" "alternatives and two keys: A at 01:00 (trials 1, 10)"
expect_out_has "path,run,G,1" "alternatives and two keys: G at 01:00"

# errors
run "$PS" keys --db k.db --where colour=red
expect_code 2 "an unknown key: exit 2"
expect_err_has "no run has the key 'colour' (keys: path, trial, tool, ka, instance_id, region, day, hour, week, month, instance)" \
    "an unknown key names the keys"
run "$PS" keys --db k.db --where path=Z
expect_code 2 "an unknown value: exit 2"
expect_err_has "no run has path=Z (values of path: A, G, G')" "an unknown value names the values"
run "$PS" keys --db k.db --where path=G --where trial=2
expect_code 1 "filters that match nothing together: exit 1"
expect_err_has "no run matches" "and says so"
ok "[ -z \"\$OUT\" ]" "and prints no table"
run "$PS" keys --db k.db --where nokey
expect_code 2 "--where without '=': exit 2"
run "$PS" keys --db k.db --format xml
expect_code 2 "bad --format: exit 2"
expect_err_has "want text, md, csv or json" "bad --format names the formats"
run "$PS" keys --db k.db extra
expect_code 2 "an argument: exit 2"
run "$PS" keys --db missing.db
expect_code 1 "no database: exit 1"
expect_err_has "missing.db" "names the database"
ok "[ ! -e missing.db ]" "and does not create it"
mkdir empty
run "$PS" ingest --db e.db empty
run "$PS" keys --db e.db
expect_code 1 "a database without runs: exit 1"
expect_err_has "no runs in 'e.db'" "says there are no runs"
run env PATHSTAT_DB=k.db "$PS" keys --format csv
expect_code 0 "\$PATHSTAT_DB is the default database"
run "$PS" keys --help
expect_code 0 "--help exits 0"
expect_out_has "usage: pathstat keys" "--help: usage on stdout"
run "$PS" help keys
expect_out_has "usage: pathstat keys" "pathstat help keys"
run "$PS" --help
expect_out_has "keys " "pathstat --help lists keys"
test_done
