# t5320: a finding that tells the same story on several days is one
# finding naming the days it covers ("on 3 of 3 days"), not one per day;
# --per-campaign gives one per campaign again.  The UDP runs of the
# sample tree's first day, repeated on three days.

# the same files on three days, each moved to its day (ingest stores
# a file's content once, so the copies must differ)
"$PY" - "$TOP/samples/tree/tokyo-osaka" <<'PYEOF'
import json, os, shutil, sys
src = sys.argv[1]
os.makedirs("t/tokyo-osaka")
shutil.copy(os.path.join(src, "meta.json"), "t/tokyo-osaka/")
for k, day in enumerate(("2026-08-28", "2026-09-01", "2026-09-02")):
    top = os.path.join("t/tokyo-osaka", day)
    os.makedirs(top)
    json.dump({"day": day}, open(os.path.join(top, "meta.json"), "w"))
    for path in "ABCD":
        for trial in (1, 2, 3):
            d = os.path.join(top, path, "trial%d" % trial)
            os.makedirs(d)
            s = os.path.join(src, "2026-08-28", path, "trial%d" % trial)
            shutil.copy(os.path.join(s, "meta.json"), d)
            doc = json.load(open(os.path.join(s, "udp_b0.json")))
            doc["start"]["timestamp"]["timesecs"] += k * 86400 * 4
            json.dump(doc, open(os.path.join(d, "udp_b0.json"), "w"))
PYEOF
"$PS" ingest -q --db t.db t 2>/dev/null

run "$PS" check --db t.db --only udp-sender-limited --format json
expect_code 3 "UDP at one rate on 3 days: found"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert [x[\"path\"] for x in r] == [\"A\", \"B\", \"C\", \"D\"], [x[\"path\"] for x in r]
x = r[0]
assert x[\"scope\"] == \"day=2026-08-28,2026-09-01,2026-09-02,instance_type=c6i.large,study=tokyo-osaka\", x[\"scope\"]
assert x[\"evidence\"].startswith(\"on 3 of 3 days: UDP gives the same rate on 4 paths\"), x[\"evidence\"]
assert \"numbers from\" not in x[\"evidence\"] and x[\"evidence\"].count(\"UDP gives the same rate\") == 1, x[\"evidence\"]
assert len(x[\"runs\"].split(\",\")) == 9 and x[\"files\"].count(\"udp_b0.json\") == 9, x
'" "one finding per path naming the 3 days, with every run"
run "$PS" check --db t.db --only udp-sender-limited
expect_code 3 "Markdown too"
expect_out_has "paths A, B, C, D, P=1,proto=udp (day=2026-08-28,2026-09-01,2026-09-02," "one item for the 4 paths on 3 days"
expect_err_has "1 finding (1 warning, 0 notices): udp-sender-limited 1 (4 rows in CSV and JSON: one per path and cell)" "one story on 4 paths and 3 days: 1 finding as the text lists it, 4 rows, not 12"

run "$PS" check --db t.db --only udp-sender-limited --per-campaign --format csv
expect_code 3 "--per-campaign"
ok "[ \$(printf '%s\n' \"\$OUT\" | grep -c '^udp-sender-limited,') = 12 ]" "--per-campaign: one finding per path and day (12)"
test_done
