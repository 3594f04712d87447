# t5900: pooling is named.  A tree of two instance types and
# three days: path P has c6i.large on three days (two trials a day,
# p50 about 10 ms) and c7i.large on the third day (two trials, 2x
# slower); path Q has one instance type on three days with trial noise
# only.  percentiles and variance say what a row pools (caption line,
# pooled_over), --by splits it, variance --by works, and check
# pooled-groups reports P's instance types and not Q's days.
# probe NAME TRIAL ITYPE DAY BASE: 100 probes at BASE + 0.001 i ms
probe() {
	d=tree/$3/$4/$1/trial$2
	mkdir -p "$d"
	printf '{"path": "%s", "trial": %s, "tool": "pathprobe", "instance_type": "%s", "day": "%s"}\n' \
	    "$1" "$2" "$3" "$4" > "$d/meta.json"
	awk -v base="$5" -v day="$4" -v tr="$2" 'BEGIN {
		printf "# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
		printf "count=100 interval_s=0.2 timeout_s=0.4 "
		printf "start=%sT0%d:00:00Z\n", day, tr
		print "seq,unix_ns,connect_ms,result"
		for (i = 0; i < 100; i++)
			printf "%d,%.0f,%.3f,ok\n", i, 1787970000e9 + i * 2e8, base + i * 0.001
	}' > "$d/probe.csv"
}
for day in 2026-08-28 2026-08-29 2026-08-30; do
	probe P 1 c6i.large $day 10.00
	probe P 2 c6i.large $day 10.10
done
probe P 3 c7i.large 2026-08-30 20.00
probe P 4 c7i.large 2026-08-30 20.30
probe Q 1 c6i.large 2026-08-28 10.00
probe Q 2 c6i.large 2026-08-28 10.10
probe Q 3 c6i.large 2026-08-29 10.05
probe Q 4 c6i.large 2026-08-29 9.95
probe Q 5 c6i.large 2026-08-30 10.02
probe Q 6 c6i.large 2026-08-30 10.08
"$PS" ingest -q --db s.db tree 2>/dev/null

run "$PS" analyze percentiles --db s.db --metric connect_ms
expect_code 0 "percentiles over two instance types and three days: exit 0"
expect_out_has "_Pooled: these rows mix runs that differ in day (2026-08-28, 2026-08-29, 2026-08-30) in 2 of 2 rows; instance\\_type (c6i.large, c7i.large) in 1 of 2 rows;" \
    "the caption names the tags pooled, their values and in how many rows"
expect_out_has "--by day,instance\\_type splits them" "the caption says how to split"
run "$PS" analyze percentiles --db s.db --metric connect_ms --format json
expect_out_has '"path": "P",' "JSON has P"
ok "printf '%s\n' \"\$OUT\" | grep '\"path\": \"P\"' | grep -q '\"pooled_over\": \"day,instance_type\"'" \
    "JSON: P pooled_over day,instance_type"
ok "printf '%s\n' \"\$OUT\" | grep '\"path\": \"Q\"' | grep -q '\"pooled_over\": \"day\"'" \
    "JSON: Q pooled_over day"
run "$PS" analyze percentiles --db s.db --metric connect_ms --format csv
ok "printf '%s\n' \"\$OUT\" | head -1 | grep -q ',pooled_over\$'" "CSV: a pooled_over column"
ok "printf '%s\n' \"\$OUT\" | grep -q '^P,.*,\"day,instance_type\"\$'" "CSV: P's row names day,instance_type"
run "$PS" analyze percentiles --db s.db --metric connect_ms --by instance_type,day --format json
expect_out_lacks '"pooled_over": "d' "--by instance_type,day: nothing pooled"
run "$PS" analyze percentiles --db s.db --metric connect_ms --by instance_type,day
expect_out_lacks "Pooled:" "--by instance_type,day: no pooled caption"
run "$PS" analyze percentiles --db s.db --metric connect_ms --where instance_type=c6i.large --by day
expect_out_lacks "Pooled:" "--where instance_type= --by day: no pooled caption"
# the verbs without a pooled_over column say it in the caption
run "$PS" analyze trials --db s.db --metric connect_ms
expect_out_has "_Pooled: these cells mix runs that differ in day" "trials: a pooled caption line"
run "$PS" analyze delta --db s.db --metric connect_ms P-Q
expect_out_has "instance\_type (c6i.large, c7i.large) in 1 of 2 cells" "delta: a pooled caption line"
run "$PS" analyze relative --db s.db --metric connect_ms --where instance_type=c6i.large --by day
expect_out_lacks "Pooled:" "relative, one type, per day: nothing pooled"

# variance: without --by it mixes the types and says so
run "$PS" analyze variance --db s.db --metric connect_ms --format json
ok "printf '%s\n' \"\$OUT\" | grep '\"path\": \"P\"' | grep -q '\"pooled_over\": \"instance_type\"'" \
    "variance JSON: P pools instance_type (day is a level of its own)"
ok "printf '%s\n' \"\$OUT\" | grep '\"path\": \"Q\"' | grep -q '\"pooled_over\": \"\"'" \
    "variance JSON: Q pools nothing beyond its days"
run "$PS" analyze variance --db s.db --metric connect_ms
expect_out_has "Between trials % includes any difference between the groups a row pools" \
    "variance: the caption says between trials holds the pooled difference"
run "$PS" analyze variance --db s.db --metric connect_ms --by instance_type --format csv
expect_code 0 "variance --by instance_type: exit 0"
ok "printf '%s\n' \"\$OUT\" | head -1 | grep -q '^path,condition,instance_type,metric,'" \
    "variance --by: an instance_type column"
ok "[ \"\$(printf '%s\n' \"\$OUT\" | grep -c '^P,.*,c7i.large,connect_ms,')\" -ge 1 ] && \
    [ \"\$(printf '%s\n' \"\$OUT\" | grep -c '^P,.*,c6i.large,connect_ms,')\" -ge 1 ]" \
    "variance --by instance_type: P has a row group per instance type"
run "$PS" analyze variance --db s.db --metric connect_ms --by instance_type
expect_out_lacks "Pooled:" "variance --by instance_type: nothing pooled beyond day"

# check: P's instance types differ more than their trials; Q's days not
run "$PS" check --db s.db --only pooled-groups --format json
ok "printf '%s\n' \"\$OUT\" | grep -q '\"check\": \"pooled-groups\"'" "check reports pooled-groups"
ok "[ \"\$(printf '%s\n' \"\$OUT\" | grep -c '\"check\": \"pooled-groups\"')\" = 1 ]" \
    "one finding: P by instance_type (Q's days differ by trial noise only)"
expect_out_has '"path": "P"' "the finding is on P"
run "$PS" check --db s.db --only pooled-groups
expect_out_has "the runs differ in instance\\_type; trial p50s by instance\\_type: c6i.large 10.1" \
    "the evidence names the key and each group's p50"
expect_out_has "split the cell with --by instance\\_type" "the action says how to split"
run "$PS" check --db s.db --only pooled-groups --where instance_type=c6i.large
expect_out_lacks "pooled-groups" "one instance type kept: no finding"
test_done
