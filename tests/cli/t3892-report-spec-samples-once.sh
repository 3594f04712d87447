# t3892: the spec a report makes finds the runs with samples in one
# read.  An ECDF needs samples with a value (oha JSON alone has none),
# which the spec asked of each run, decoding its series through
# series_rows(): one query per run and metric, 2.3 % of a team
# campaign's no-spec report over 84 days.  One pass over the series
# table now answers for every run, counted with
# PATHSTAT_DEBUG_SPEC_SAMPLES=1; the bundle and the made spec are the
# same byte for byte asking each run (PATHSTAT_DEBUG_NO_SPEC_SAMPLES_ONCE=1),
# also when some runs' series hold no value (all NaN) or a short blob
# (left out as damaged).

team_campaign 3 5 2

counts() { debug_counts "# runs' samples asked for, # from one read of all"; }

PATHSTAT_DEBUG_SPEC_SAMPLES=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
ok '[ -n "$line" ] && [ "${line% *}" = 0 ] && [ "${line#* }" -gt 0 ]' \
    "every run's from the one read (${line:-none counted})"
PATHSTAT_DEBUG_NO_SPEC_SAMPLES_ONCE=1 PATHSTAT_DEBUG_SPEC_SAMPLES=1 run \
    "$PS" report --db t.db --out r2 --no-render
expect_code 0 "the report asking each run exits 0 ($ERR)"
line2=$(counts)
ok '[ "$line2" = "${line#* } 0" ]' "without it, each asked for (${line2:-none counted})"
ok 'same_bundle r r2' "tables, charts and index.md are the same byte for byte"

# path A's connect times: NaN (no value) in every sample; path B's: a
# short value blob
"$PY" - <<'PY'
import sqlite3, struct
db = sqlite3.connect("t.db")
rows = db.execute("SELECT s.run_id, s.chunk, s.rows FROM series s JOIN runs r"
                  " ON r.id = s.run_id JOIN paths p ON p.id = r.path_id"
                  " WHERE s.metric = 1 AND p.name = 'A'").fetchall()
for run, chunk, n in rows:
    db.execute("UPDATE series SET value = ? WHERE run_id = ? AND metric = 1"
               " AND chunk = ?", (struct.pack("<d", float("nan")) * n,
                                  run, chunk))
db.commit()
PY
sql t.db "UPDATE series SET value = substr(value, 1, 8) WHERE metric = 1
    AND run_id IN (SELECT r.id FROM runs r JOIN paths p ON
    p.id = r.path_id WHERE p.name = 'B')"
run "$PS" report --db t.db --out d --no-render
c1=$RC
PATHSTAT_DEBUG_NO_SPEC_SAMPLES_ONCE=1 run "$PS" report --db t.db --out d2 \
    --no-render
ok '[ "$c1" = "$RC" ] && same_bundle d d2' \
    "with runs without values, the same bundle either way (exit $c1, $RC)"
"$PS" report --db t.db --init >i1.json 2>/dev/null
PATHSTAT_DEBUG_NO_SPEC_SAMPLES_ONCE=1 "$PS" report --db t.db --init \
    >i2.json 2>/dev/null
ok '[ -s i1.json ] && cmp i1.json i2.json' \
    "... and the same made spec (--init)"

test_done
