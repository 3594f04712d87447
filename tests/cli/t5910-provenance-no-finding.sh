# t5910: collector provenance (common/keycat.h: the session, hostname,
# command lines and versions pathstat-collect stamps on every run) is
# never a finding.  Two instance types on 14 days, the second 5 % slower,
# each with its own hostname and collector command and a session a day
# (helper/burst-tree.py writes them as pathstat-collect's meta.json):
# pooled-groups names and suggests instance_type, not collector_command
# or hostname that split the runs alike; trend's "what changed" and its
# verdict never say "mixes session"; the report's footnotes and trend
# table neither.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 14 A,B,C c6i.large,c7i.large
ok '[ "$OUT" = 84 ]' "14 days x 3 paths x 2 instance types written ($OUT files)"
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" keys --db m.db --format csv
expect_out_has "session,provenance tag" "session is a provenance tag"
expect_out_has "collector_command,provenance tag" "and so is collector_command"

run "$PS" check --db m.db --format json
printf '%s\n' "$OUT" > check.json
run "$PY" -c '
import json, sys
f = [x for x in json.load(open("check.json")) if x["check"] == "pooled-groups"]
bad = []
for x in f:
    text = json.dumps(x)
    for k in ("collector_command", "hostname", "session"):
        if k in text:
            bad.append("%s names %s" % (x.get("paths", x.get("path")), k))
    if "--by instance_type" not in text:
        bad.append("no --by instance_type")
print(len(f), "; ".join(sorted(set(bad))))
sys.exit(1 if bad or not f else 0)'
ok '[ $RC = 0 ]' "pooled-groups groups by instance_type and never by provenance ($OUT)"

run "$PS" analyze trend --db m.db --metric throughput_bps --by day --format json
ok '[ $RC = 0 ] && printf "%s\n" "$OUT" | grep -q "mixes instance_type"' "trend names the instance types its days mix"
expect_out_lacks "mixes session" "trend: provenance is not what changed (session)"
expect_out_lacks "mixes hostname" "nor hostname"
expect_out_lacks "mixes collector_command" "nor collector_command"

run "$PS" report --db m.db --out b --no-render
expect_code 0 "report ($ERR)"
ok '! grep -q "mixes \(session\|hostname\|collector\)\|by collector\|by hostname\|by session" b/index.md b/tables/*.md' \
    "the report's tables and footnotes name no provenance as a finding"
ok 'grep -q "split the cell with --by instance\\\\_type\|split the cell with --by instance_type" b/index.md' \
    "its footnote suggests splitting by instance_type"
test_done
