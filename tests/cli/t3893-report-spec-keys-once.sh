# t3893: the spec a report makes reads the runs' campaign keys once.
# Each metric's run selection computed every run's study, day and
# instance type in SQL (a condition key, else a tag; the day tag, else
# the start time's day), one lookup per key and run, and sorted by them:
# 7 % of a team campaign's no-spec report over 84 days.  They are now
# read once for every run and condition, looked up, and the runs sorted
# in C in the selection's own order (pathsort: L2 before L10, NULL
# first), counted with PATHSTAT_DEBUG_SPEC_KEYS=1.  The bundle and the
# made spec are the same byte for byte with each selection reading
# them (PATHSTAT_DEBUG_NO_SPEC_KEYS_ONCE=1), also with runs without a
# day tag, studies and instance types as tags, condition keys or
# missing, and paths and values whose digits sort by value.

team_campaign 3 5 2

counts() { debug_counts "# runs' campaign keys from their selection, # from one read of all"; }

PATHSTAT_DEBUG_SPEC_KEYS=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
ok '[ -n "$line" ] && [ "${line% *}" = 0 ] && [ "${line#* }" -gt 0 ]' \
    "every run's from the one read (${line:-none counted})"
PATHSTAT_DEBUG_NO_SPEC_KEYS_ONCE=1 PATHSTAT_DEBUG_SPEC_KEYS=1 run "$PS" \
    report --db t.db --out r2 --no-render
expect_code 0 "the report reading them in each selection exits 0 ($ERR)"
line2=$(counts)
ok '[ "$line2" = "${line#* } 0" ]' \
    "without it, each from its selection (${line2:-none counted})"
ok 'same_bundle r r2' "tables, charts and index.md are the same byte for byte"

# paths L2, L10, L01, L1 ...; no day tag on path A's odd runs; studies
# s2, s10 and s01 as tags, s1 as a condition key; no instance type on
# some runs, one from a condition key on others
"$PY" - <<'PY'
import sqlite3
db = sqlite3.connect("t.db")
names = ["L2", "L10", "L01", "L1", "l3"]
for i, (pid,) in enumerate(db.execute("SELECT id FROM paths ORDER BY id")
                           .fetchall()):
    db.execute("UPDATE paths SET name = ? WHERE id = ?", (names[i % 5], pid))
runs = [r[0] for r in db.execute("SELECT id FROM runs ORDER BY id")]
for k, rid in enumerate(runs):
    if k % 7 == 1:
        db.execute("DELETE FROM run_tags WHERE run_id = ? AND key = 'day'",
                   (rid,))
    if k % 5 < 3:
        db.execute("INSERT OR REPLACE INTO run_tags VALUES (?, 'study', ?)",
                   (rid, ["s2", "s10", "s01"][k % 3]))
    if k % 11 == 4:
        db.execute("DELETE FROM run_tags WHERE run_id = ? AND "
                   "key = 'instance_type'", (rid,))
cid = db.execute("SELECT max(cond_id) FROM runs").fetchone()[0]
db.execute("INSERT OR REPLACE INTO condition_keys VALUES (?, 'study', 's1')",
           (cid,))
db.execute("INSERT OR REPLACE INTO condition_keys VALUES (?, "
           "'instance_type', 'x9.large')", (cid,))
db.commit()
PY
run "$PS" report --db t.db --out d --no-render
c1=$RC
PATHSTAT_DEBUG_NO_SPEC_KEYS_ONCE=1 run "$PS" report --db t.db --out d2 \
    --no-render
ok '[ "$c1" = "$RC" ] && same_bundle d d2' \
    "the same bundle with the keys mixed (exit $c1, $RC)"
"$PS" report --db t.db --init >i1.json 2>/dev/null
PATHSTAT_DEBUG_NO_SPEC_KEYS_ONCE=1 "$PS" report --db t.db --init \
    >i2.json 2>/dev/null
ok '[ -s i1.json ] && cmp i1.json i2.json' "... and the same made spec (--init)"
ok 'grep -q "s10" i1.json && grep -q "L10" d/index.md' \
    "the studies and paths are there"

test_done
