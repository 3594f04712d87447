# t1410: --layout matching takes time linear in the name.  One
# file named 250 '_' and an 'x' took 2.8 s under the first pattern and
# 84 s under the second, backtracking through every way to split the
# underscores; now each is refused at once.  Run under timeout(1), so a
# regression fails (after 60 s) instead of holding the suite; a file
# that does match still gets its keys.

mkdir -p tree/trial1
cp "$SAMPLES/iperf3/3.12/tcp_P1.json" "tree/trial1/$(printf '_%.0s' $(seq 250))x"
cp "$SAMPLES/iperf3/3.12/tcp_P4.json" tree/trial1/euw1_A_P4_az1_run.json
for pat in '{path}_{cond}_{tag:az}_{*}.json' \
    '{tag:region}_{path}_{cond}_{tag:az}_{*}.json'; do
	rm -f l.db*
	run timeout 60 "$PS" ingest --db l.db --layout "trial{trial}/$pat" tree
	ok "[ $RC != 124 ]" "250 '_' under '$pat' does not take long"
	expect_err_has "no path ID: the layout 'trial{trial}/$pat' does not match this file" "the name is refused as not matching"
done
expect_sql l.db "SELECT path || ' ' || condition || ' ' || trial FROM run_view" "A P=4,proto=tcp 1" "a name that matches still gets its keys"
expect_sql l.db "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM run_tags ORDER BY key)" "az=az1 region=euw1" "and its tags"
test_done
