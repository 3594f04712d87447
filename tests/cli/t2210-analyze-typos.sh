# t2210: typos and empty answers.  A key, value, path, pair,
# baseline or metric that no run has is a usage error (exit 2) naming
# what exists, with "did you mean" for a near miss; names that all exist
# but match nothing together exit 1 saying what was looked for.  Each of
# these gave "(no rows)", "not measured" or "Points 0" with exit 0.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
A="--db s.db --metric connect_ms"
KEYS="(keys: path, trial, tool, P, c, ka, proto, size, az, instance_type, region, study, via, day, hour, week, month)"
PATHS="(paths: A, B, C, D, E, F, G, G', H, L1, L2)"

run "$PS" analyze percentiles $A --where instancetype=c6i.large
expect_code 2 "--where instancetype=: usage error"
expect_err_has "pathstat analyze: bad --where: no run has the key 'instancetype'; did you mean 'instance_type'? $KEYS" \
    "... did you mean instance_type, and the keys"
expect_out_lacks "no rows" "... and no empty table"

run "$PS" analyze percentiles $A --where instance_type=c6i.lrge
expect_code 2 "--where instance_type=c6i.lrge: usage error"
expect_err_has "pathstat analyze: bad --where: no run has instance_type=c6i.lrge; did you mean 'c6i.large'? (values of instance_type: c6i.large, c7g.xlarge)" \
    "... did you mean c6i.large, and the values"

run "$PS" analyze percentiles $A --by nonsense
expect_code 2 "--by nonsense: usage error"
expect_err_has "pathstat analyze: bad --by: no run has the key 'nonsense' $KEYS" \
    "... naming the keys"
run "$PS" analyze variance $A --by nonsense
expect_code 2 "variance --by nonsense: usage error (it was ignored)"

run "$PS" analyze delta $A A-Z
expect_code 2 "delta A-Z: usage error"
expect_err_has "pathstat analyze: bad pair 'A-Z': no run has the path 'Z' $PATHS" \
    "... naming Z and the paths"
run "$PS" analyze delta $A "G-G'"
expect_code 0 "delta of paths that exist, measured or not: exit 0"

run "$PS" analyze compare $A --by instance_type --baseline c5.large
expect_code 2 "compare --baseline c5.large: usage error"
expect_err_has "pathstat analyze: bad --baseline: no run has instance_type=c5.large; did you mean 'c6i.large'? (values of instance_type: c6i.large, c7g.xlarge)" \
    "... naming the values"

run "$PS" analyze percentiles $A --paths A,Q,B
expect_code 2 "--paths A,Q,B: usage error (Q was dropped)"
expect_err_has "pathstat analyze: bad --paths: no run has the path 'Q' $PATHS" \
    "... naming Q and the paths"

run "$PS" analyze trend $A --by instance_type
expect_code 2 "trend --by instance_type: usage error (it printed Points 0)"
expect_err_has "pathstat analyze: trend --by needs day or hour among its keys, not only 'instance_type': a trend is a statistic over time; other --by keys split the series (compare --by instance_type sets the values of a key side by side)" \
    "... saying what trend takes"

run "$PS" analyze compare $A --by c
expect_code 2 "compare --by a condition key: usage error (every group held one value)"
expect_err_has "a condition key is compared with ratio --across KEY NUM/DEN" \
    "... naming ratio"

run "$PS" analyze ratio --db s.db --metric http_ms --across c 16/2
expect_code 2 "ratio 16/2 where c has no 2: usage error"
expect_err_has "pathstat analyze: bad ratio: no run has c=2 (values of c: 1, 16)" \
    "... naming the values of c"
run "$PS" analyze ratio --db s.db --metric http_ms --across cc 16/1
expect_code 2 "ratio --across cc: usage error"
expect_err_has "pathstat analyze: bad --across: no run has the key 'cc'" \
    "... naming cc"

run "$PS" analyze percentiles --db s.db --metric throughput --where proto=udp
expect_code 2 "--metric throughput: usage error"
expect_err_has "did you mean 'throughput_bps'?" "... did you mean throughput_bps"

# --sql selects what the table would: the same check
run "$PS" analyze percentiles $A --where instancetype=c6i.large --sql duckdb
expect_code 2 "--sql with a typo'd key: usage error"
expect_err_has "bad --where: no run has the key 'instancetype'; did you mean 'instance_type'?" \
    "... the same message"
expect_out_lacks "SELECT" "... and no query"

# KEY= keeps the runs without the key: valid for any key (a shared spec
# says target= on databases without targets), with a word for a near miss
run "$PS" analyze percentiles $A --where instancetyp=
expect_code 0 "--where instancetyp= keeps every run: exit 0"
expect_err_has "pathstat analyze: warning: --where instancetyp=: no run has the key 'instancetyp', so it keeps every run; did you mean 'instance_type'?" \
    "... with a warning naming instance_type"

# every name exists, together they match nothing: exit 1, saying so
run "$PS" analyze percentiles --db s.db --metric http_ms --where study=tokyo-osaka --where size=1m
expect_code 1 "an empty intersection: exit 1"
expect_err_has "pathstat analyze: no http_ms runs where study=tokyo-osaka, size=1m (111 runs have http_ms; no run matches these filters together)" \
    "... saying what it looked for"
run "$PS" analyze percentiles $A --paths H --format json
expect_code 1 "a path without connect_ms runs: exit 1"
expect_err_has "pathstat analyze: no connect_ms runs on path H (20 runs have connect_ms; the 18 that match measured other metrics)" \
    "... saying the path's runs measured other metrics"
ok "[ \"\$OUT\" = '[]' ]" "... JSON is still an array"

# runs and check take --where the same way
run "$PS" runs --db s.db --where instancetype=c6i.large
expect_code 2 "runs --where instancetype=: usage error"
expect_err_has "pathstat runs: bad --where: no run has the key 'instancetype'; did you mean 'instance_type'?" \
    "... runs names instance_type"
run "$PS" runs --db s.db --where study=tokyo-osaka --where size=1m
expect_code 1 "runs matching nothing: exit 1"
expect_err_has "pathstat runs: no run matches all the --where filters together" \
    "... saying so"
run "$PS" check --db s.db --where instance_type=c6.large
expect_code 2 "check --where instance_type=c6.large: usage error"
expect_err_has "pathstat check: bad --where: no run has instance_type=c6.large; did you mean 'c6i.large'?" \
    "... check names c6i.large"
test_done
