# t1903: common flat-name tokens were refused
# ("condition token 'probe' is not k=v...", the same for oha and b200M):
# the first ingest of a week rejected every such file.  Now a tool name
# sets the tool (probe is read as pathprobe, and that is said), iperf3's
# -b rate is the condition key b, and a token the grammar does not know
# is kept as the tag label; each note is said once for all its files.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read nfiles nruns < counts
D=results/2026-09-01/c6i.large
cp "$D/A_udp_b500M_run1.json" "$D/A_udp_b200M_warm_run4.json"
printf ' \n' >> "$D/A_udp_b200M_warm_run4.json"
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'

run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "the flat names, first ingest: exit 0"
expect_err_lacks "condition token" "no token refused"
expect_err_has "pathstat ingest: tool 'probe' read as pathprobe: 6 files (first '$D/A_probe_run1.csv')" \
    "the alias is said once, with the files it concerns"
expect_err_has "pathstat ingest: $D/A_udp_b200M_warm_run4.json: condition 'warm' kept as the tag label=warm: not in the condition grammar" \
    "an unknown token is kept as a tag, and said"
expect_err_has "$((nfiles + 1)) files: $((nfiles + 1)) stored" "every file stored"
expect_sql t.db "SELECT count(*) FROM runs" "$((nruns + 1))" "every run"
expect_sql t.db "SELECT count(*) FROM run_view WHERE tool = 'pathprobe'" 6 "probe files: tool pathprobe"
expect_sql t.db "SELECT count(*) FROM run_view WHERE tool = 'oha' AND condition = ''" 6 \
    "oha files: tool oha, no condition left"
expect_sql t.db "SELECT group_concat(DISTINCT condition) FROM run_view WHERE file LIKE '%udp_b500M%'" "P=1,b=500M,proto=udp" \
    "b500M is the condition key b"
expect_sql t.db "SELECT condition || ' ' || trial || ' ' || label FROM run_view WHERE label IS NOT NULL" "P=1,b=200M,proto=udp 4 warm" \
    "b200M and the tag label=warm"

# a {tool} placeholder: the alias is said; a tool the file contradicts is warned
mkdir -p t2/A
cp "$D/A_probe_run1.csv" t2/A/probe-1.csv
cp "$D/A_oha_run1.json" t2/A/iperf3-2.json
run "$PS" ingest --db t2.db --layout '{path}/{tool}-{trial}.{*}' t2
expect_code 0 "{tool}: exit 0"
expect_err_has "t2/A/probe-1.csv: tool 'probe' read as pathprobe" "{tool} probe: said"
expect_err_has "warning: t2/A/iperf3-2.json: the keys say tool=iperf3 but the file is oha output: using the file's" \
    "{tool} that the content contradicts: warned"
expect_sql t2.db "SELECT group_concat(tool, ' ') FROM (SELECT tool FROM run_view ORDER BY trial)" "pathprobe oha" \
    "the file's own tool names the run"

# on the command line a condition must be all grammar
run "$PS" ingest --db t3.db --tag condition=udp_warm t2
expect_code 2 "--tag condition with an unknown token: exit 2"
expect_err_has "bad --tag 'condition=udp_warm': 'warm' is not in the condition grammar (k=v, name-value, cN, PN, bRATE, a size, tcp/udp, reverse, bidir); for a tag say --tag label=warm" \
    "the token is named, with the way to say it"
test_done
