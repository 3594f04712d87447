# t3835: the outlier-trial rule is told the same way everywhere
# (the report's Methods gave 3.5 and 3×/⅓× while the README and
# `check` said 2×/½× and a calibrated z).  The caption of `analyze
# trials` is made from the constants the rule uses (stats/verdict.h);
# the report's Methods carry that caption, and docs/analyze.md and
# docs/checks.md state the
# same rule in the same words, for `analyze trials` and for `check
# outlier-trial`.  The compare caption names its test column as the
# JSON and CSV one, the Markdown table having none.

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" analyze trials --db s.db --metric http_ms --where study=ecs-conn --format md
expect_code 0 "analyze trials exits 0 ($ERR)"
rule=$(printf '%s\n' "$OUT" | sed -n 's/^_Outlier trials: \(.*calibrated for that many trials\).*/\1/p' | head -1)
ok '[ -n "$rule" ]' "the caption states the rule: $rule"
ok 'grep -q "verdict.h" "$TOP/analyze/verbs.c" && grep -q "STATS_OUTLIER_MIN_RATIO" "$TOP/analyze/verbs.c"' \
    "the caption is made from the rule's constants"
ratio=$(sed -n 's/^#define STATS_OUTLIER_MIN_RATIO[[:space:]]*\([0-9.]*\).*/\1/p' "$TOP/stats/verdict.h")
case "$rule" in "≥ ${ratio%.0}× or ≤ 1/${ratio%.0}× the median trial"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "its ratio is the code's, ${ratio%.0}×"
n=$(cat "$TOP/docs/analyze.md" "$TOP/docs/checks.md" | grep -c -F -- "$rule")
ok '[ "$n" -ge 2 ]' "docs/analyze.md and docs/checks.md state it in the same words for analyze trials and check outlier-trial ($n times)"
ok '! grep -q "robust z on the log scale ≥ 3.5\|3× / ⅓×" "$TOP/README.md" "$TOP/docs/"*.md "$TOP/analyze/verbs.c"' \
    "the old words (3.5, 3× / ⅓×) are nowhere"
run "$PS" report --db s.db --out b --no-render --spec "$TOP/samples/article.json"
expect_code 0 "the sample report exits 0"
ok 'grep -F -q -- "$rule" b/index.md' "the report's Methods say the same"
run "$PS" analyze compare --db s.db --metric http_ms --where study=ecs-conn --where c=1 --where ka=on --where size=1k --by day --format md
expect_code 0 "compare by day exits 0 ($ERR)"
hdr=$(printf '%s\n' "$OUT" | grep '^| Path' | head -1)
case "$hdr" in *"| test |"*) has=1 ;; *) has=0 ;; esac
ok '[ "$has" = 1 ] || printf "%s\n" "$OUT" | grep -q "JSON and CSV name the one whose p is shown in their test column"' \
    "the caption points at a test column the reader can find (Markdown has it: $has)"
ok '! printf "%s\n" "$OUT" | grep -q "(the test column names"' "no caption names a column the table lacks"
run "$PS" analyze --help
ci=$(printf '%s\n' "$OUT" | sed -n '/^  --ci /,/^  --level/p')
case "$ci" in *"Welch"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ] && ! printf "%s" "$ci" | grep -q bootstrap' "analyze --help: --ci is Welch t on trial values, no bootstrap"
ok 'grep -q "with trials − 1 degrees of freedom (Welch.s for deltas, ratios, .compare." "$TOP/docs/analyze.md"' "as docs/analyze.md says"
test_done
