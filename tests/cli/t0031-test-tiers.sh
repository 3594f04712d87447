# t0031: the test tiers lose no test.  A script with a line "# tier:
# NAME" runs in `make test-NAME` (and `make test-tiers`, `make
# test-all`), not in `make test`; NAME must be one of the Makefile's
# TIERS; every script is in exactly one of `make test` and the tiers;
# T='glob' still picks a tiered script; .ci/run runs the tiers; and
# make asan runs the sim tier but for t3870 (ASAN_SKIP, CLI_SKIP).

# the make running this test passes its flags and variables (T=...)
# down through the environment (make asan: CLI_SKIP too): this test asks
# make afresh
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES T TIER CLI_SKIP
mk() { make -s --no-print-directory -C "$TOP" "$@"; }

tiers=$(sed -n 's/^TIERS[ 	]*:= *//p' "$TOP/Makefile")
ok '[ -n "$tiers" ]' "the Makefile names its tiers (TIERS := $tiers)"

# every tier line names a known tier
grep -H '^# tier:' "$TOP"/tests/cli/t[0-9]*.sh | sed 's/:# tier: */ /' > lines.txt
bad=""
while read -r f name rest; do
	case " $tiers " in *" $name "*) ;; *) bad="$bad ${f##*/}:$name" ;; esac
	[ -z "$rest" ] || bad="$bad ${f##*/}:'$name $rest'"
done < lines.txt
ok '[ -z "$bad" ]' "every '# tier:' line names one of: $tiers${bad:+ (not:$bad)}"
ok '[ -s lines.txt ]' "some scripts are in a tier"

run mk test-list
expect_code 0 "make test-list"
printf '%s\n' "$OUT" | sort > quick.txt
ok 'grep -qx t0000-usage quick.txt' "make test runs an untiered script"
for f in $(cut -d' ' -f1 lines.txt); do
	n=$(basename "$f" .sh)
	! grep -qx "$n" quick.txt || bad="$bad $n"
done
ok '[ -z "$bad" ]' "make test leaves out every tiered script${bad:+ (not:$bad)}"

: > tiered.txt
for t in $tiers; do
	run mk test-list TIER="$t"
	printf '%s\n' "$OUT" | grep . >> tiered.txt
	want=$(grep " $t\$" lines.txt | cut -d' ' -f1 | xargs -n1 basename | sed 's/\.sh$//' | sort)
	ok '[ "$(printf "%s\n" "$OUT" | sort)" = "$want" ]' \
	    "make test-$t runs exactly the scripts marked '# tier: $t'"
	ok 'grep -q "^test-$t\\b\\|test-\\\$(TIERS)\\|addprefix test-,\\\$(TIERS)" "$TOP/Makefile"' \
	    "make test-$t exists"
done
ls "$TOP"/tests/cli/t[0-9]*.sh | xargs -n1 basename | sed 's/\.sh$//' | sort > all.txt
ok '[ "$(sort quick.txt tiered.txt)" = "$(cat all.txt)" ]' \
    "make test and the tiers together run every script once"
run mk test-list TIER=all
ok '[ "$(printf "%s\n" "$OUT" | sort)" = "$(cat all.txt)" ]' "TIER=all (make test-all) runs every script"

first=$(head -1 lines.txt | cut -d' ' -f1 | xargs basename | sed 's/\.sh$//')
run mk test-list T="$first"
ok '[ "$OUT" = "$first" ]' "T='$first' picks the tiered script it names"

run mk test-list TIER=nosuch
expect_code 2 "an unknown TIER stops make"
expect_err_has "tiers: quick all $tiers" "... naming the tiers there are"

ok 'grep -q "make test-tiers\|make.*test-all" "$TOP/.ci/run"' "CI runs the tiers"

# make asan runs the sim tier without ASAN_SKIP's scripts (t3870's
# 10,000-path report: the small reports' code, bigger, 2-3 min under
# ASan); CLI_SKIP leaves them out of what T and TIER pick
run mk asan ASAN_TESTS=test-list TIER=sim
printf '%s\n' "$OUT" | grep . | sort > asan-sim.txt
grep ' sim$' lines.txt | cut -d' ' -f1 | xargs -n1 basename | sed 's/\.sh$//' |
    grep -vx t3870-report-10000-paths | sort > want-sim.txt
ok '[ -s want-sim.txt ] && cmp -s asan-sim.txt want-sim.txt' \
    "make asan's sim pass runs every sim script but t3870 ($(echo $(cat asan-sim.txt)))"
run mk test-list TIER=sim
expect_out_has t3870-report-10000-paths "the sim tier itself still runs t3870"
test_done
