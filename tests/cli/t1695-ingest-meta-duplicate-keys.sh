# t1695: a meta.json that gives a key twice ({"path": "A", "path":
# "EVIL"}) used to take the last silently, so a reader of the file saw
# one path and the database stored another.  It is refused whole,
# naming the key; so is "cond" beside "condition" (one key, two names).

probe() { cp "$FIX/pathprobe/all-ok.csv" "$1"; }
mkdir -p t/A t/B t/C t/D
for d in A B C D; do probe t/$d/probe.csv; done
echo '{"path": "A", "trial": 1, "path": "EVIL"}' > t/A/meta.json
echo '{"path": "B", "trial": 1, "site": "x", "trial": 2}' > t/B/meta.json
echo '{"path": "C", "trial": 1, "cond": "c=1", "condition": "c=2"}' > t/C/meta.json
echo '{"path": "D", "trial": 1, "site": "x"}' > t/D/meta.json
run "$PS" ingest --db t.db t
expect_code 1 "ingest: exit 1"
expect_err_has "t/A/meta.json: bad meta.json: key 'path' is given twice" "the repeated path is named"
expect_err_has "t/B/meta.json: bad meta.json: key 'trial' is given twice" "the repeated trial is named"
expect_err_has "t/C/meta.json: bad meta.json: key 'condition' is given twice" "condition beside cond is named"
expect_sql t.db "SELECT count(*) FROM paths WHERE name = 'EVIL'" 0 "the last value is not taken"
expect_sql t.db "SELECT group_concat(path, ',') FROM run_view" "D" "only the sound file is stored"
test_done
