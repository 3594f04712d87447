# t0010: a mistyped command is a usage error (exit 2) naming the command
# it is a near miss of; help for a command that does not exist is no
# help (`pathstat help foo` printed the general usage, exit 0).

run "$PS" analyse
expect_code 2 "analyse: usage error"
expect_err_has "pathstat: unknown command 'analyse'; did you mean 'analyze'?" \
    "analyse: did you mean analyze"
expect_err_has "usage: pathstat" "... then the usage"

run "$PS" run
expect_code 2 "run: usage error"
expect_err_has "pathstat: unknown command 'run'; did you mean 'runs'?" \
    "run: did you mean runs"

run "$PS" frobnicate
expect_code 2 "a far name: usage error"
expect_err_lacks "did you mean" "... with no suggestion"

run "$PS" help foo
expect_code 2 "help foo: usage error"
expect_out_lacks "usage: pathstat" "help foo prints no help on stdout"
expect_err_has "pathstat: unknown command 'foo'" "help foo names foo"

run "$PS" help chek
expect_code 2 "help chek: usage error"
expect_err_has "pathstat: unknown command 'chek'; did you mean 'check'?" \
    "help chek: did you mean check"

run "$PS" help check
expect_code 0 "help check still helps"
expect_out_has "usage: pathstat check" "... with check's usage"

# analyze's verbs: the same rule, before any database is opened
run "$PS" analyze percentile --db nowhere.db --metric connect_ms
expect_code 2 "analyze percentile: usage error"
expect_err_has "pathstat analyze: unknown verb 'percentile'; did you mean 'percentiles'? (verbs: compare, delta, mtu, percentiles, ratio, relative, trend, trials, variance)" \
    "percentile: did you mean percentiles, and the verbs"

# an unknown metric is a usage error like the others (it exited 1)
run "$PS" analyze percentiles --db nowhere.db --metric connect
expect_code 2 "unknown metric: exit 2"
expect_err_has "pathstat analyze: unknown metric 'connect' (known: connect_ms, http_ms, throughput_bps, jitter_ms, loss_pct, retransmits, rps, handshake_ms, path_mtu, http_bps); did you mean 'connect_ms'?" \
    "connect: the metrics, did you mean connect_ms"
ok "[ ! -e nowhere.db ]" "no database was made for a usage error"
test_done
