# t2734: --attempts is checked: completed or all; all only for delta and
# ratio of connect times (the one metric whose failed attempts have a
# timeout to rank at); and --sql cannot rank all attempts, so --sql with
# --attempts all is a usage error saying so (completed is honoured).
"$PY" "$FIX/attempts/gen_attempts.py" tree tree
"$PS" ingest -q --db s.db tree 2>/dev/null
A="--db s.db --metric connect_ms"

run "$PS" analyze delta $A --attempts some A-B
expect_code 2 "--attempts some: exit 2"
expect_err_has "want completed or all" "says what it wants"
run "$PS" analyze percentiles $A --attempts all
expect_code 2 "percentiles --attempts all: exit 2"
expect_err_has "--attempts all: only delta and ratio take it" "says which verbs"
run "$PS" analyze delta --db s.db --metric http_ms --attempts all A-B
expect_code 2 "http_ms --attempts all: exit 2"
expect_err_has "http_ms records no timed-out attempts to rank" "says why"
run "$PS" analyze delta $A --attempts all --sql duckdb A-B
expect_code 2 "--sql with --attempts all: exit 2"
expect_err_has "--sql cannot honour --attempts all: the engines' queries rank the completed attempts only" \
    "says the queries rank the completed attempts only"
expect_out_lacks "SELECT" "no query printed"
run "$PS" analyze delta $A --attempts completed --sql duckdb A-B
expect_code 0 "--sql with --attempts completed: exit 0"
expect_out_has "SELECT" "the query is printed"
test_done
