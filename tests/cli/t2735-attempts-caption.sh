# t2735: with --attempts all the caption names the target ("percentile
# of all attempts", ≥ timeout among the timeouts, the rank p over all
# attempts) instead of the completed-attempts target line, and --help
# lists the option.
"$PY" "$FIX/attempts/gen_attempts.py" tree tree
"$PS" ingest -q --db s.db tree 2>/dev/null
A="--db s.db --metric connect_ms"

run "$PS" analyze delta $A --attempts all A-B
expect_code 0 "delta --attempts all: exit 0"
expect_out_has "each percentile is the percentile of all attempts" \
    "delta: the caption names the target"
expect_out_has "where it falls among the timeouts it is ≥ timeout, never a number" \
    "delta: the caption says how a percentile among the timeouts reads"
expect_out_lacks "percentiles are of its completed attempts" \
    "delta: no completed-attempts target line"
run "$PS" analyze ratio $A --attempts all --across c 16/1
expect_out_has "each percentile is the percentile of all attempts" \
    "ratio: the caption names the target"
run "$PS" analyze delta $A --attempts all --where path=B,C --where c=16 C-B
expect_out_has "no attempt timed out here: the same numbers as --attempts completed" \
    "no timeouts: the caption says the numbers are the completed ones"
run "$PS" analyze --help
expect_out_has "--attempts" "--help lists --attempts"
test_done
