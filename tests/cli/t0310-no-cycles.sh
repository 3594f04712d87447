# t0310: no cycle between the files of report/ or between the top-level
# folders, in what the object files really call (nm: a file's undefined
# symbols against the ones another file defines; headers hide it).
# tests/cli/helper/link-graph.py draws the graph and prints every
# strongly connected component; each allowed one is listed here with why.

command -v nm >/dev/null 2>&1 || skip_all "no nm (binutils)"
# the objects of the binary under test: the Makefile passes its build
# directory; by hand, the one beside the binary or build/
obj=${PATHSTAT_OBJ:-}
if [ -z "$obj" ]; then
	obj=$(dirname "$PS")
	[ -f "$obj/report/chart.o" ] || obj="$TOP/build"
fi
set -- "$obj"/report/*.o
[ -f "$1" ] || skip_all "no object files in $obj/report (build first)"
G="$TOP/tests/cli/helper/link-graph.py"

# The script finds a cycle when there is one: two files that call each
# other, and a third that only calls one of them.
if command -v cc >/dev/null 2>&1; then
	mkdir -p fake
	printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' > fake/a.c
	printf 'int a(int);\nint b(int x) { return a(x); }\n' > fake/b.c
	printf 'int a(int);\nint c(int x) { return a(x); }\n' > fake/c.c
	for f in a b c; do cc -c -o fake/$f.o fake/$f.c; done
	run "$PY" "$G" files fake
	expect_code 1 "a two-file cycle fails the check"
	expect_out_has "cycle: a.c b.c" "and is named"
	expect_out_lacks "c.c b.c" "a file that only calls into it is not in it"
	run "$PY" "$G" --allow "a.c b.c" files fake
	expect_code 0 "an allowed cycle passes"
	expect_out_has "allowed: a.c b.c" "and is still printed"
fi

# report/: the chart families depend on chart.c's core and are reached
# through chart_kinds.c's table; section_text.c is what a section says of
# itself, so charts, pivot and month never call back into section.c.
# Allowed: spec.c <-> spec_section.c, one parser split in two files for
# size (the top level reads sections through spec_section.c, which uses
# the top level's key readers and error printer).
run "$PY" "$G" --allow "spec.c spec_section.c" files "$obj/report"
expect_code 0 "no cycle among report/*.c but the spec parser's: $(printf '%s' "$OUT" | grep '^cycle' | tr '\n' ' ')"
core=$(printf '%s\n' "$OUT" | grep '^chart\.c -> ')
ok '[ -n "$core" ]' "the graph is printed ($core)"
ok '! printf "%s" "$core" | grep -qE " (chart_[a-z]+|section)\.c"' \
    "the chart core calls no chart family and not section.c"
for f in chart_bars chart_box chart_dates chart_heatmap chart_lines chart_samples pivot month; do
	line=$(printf '%s\n' "$OUT" | grep "^$f\.c -> ")
	ok '! printf "%s" "$line" | grep -qE " (section|chart_kinds)\.c"' \
	    "$f.c does not call back into section.c ($line)"
done

# The top-level folders: no cycle at all.  analyze -> export -> check
# -> analyze was one: analyze called export_sql_print and
# export_engine_known for --sql.  Now export/sql.c writes its queries
# from analyze's options and main() hands analyze export's printer
# (analyze/options.h's struct analyze_sql_printer), so the layers run
# analyze <- check <- export <- report.
run "$PY" "$G" folders "$obj" \
    analyze export report check stats ingest inspect common
expect_code 0 "no cycle between folders: $(printf '%s' "$OUT" | grep '^cycle' | tr '\n' ' ')"
expect_out_lacks "allowed:" "no exception is allowed"
line=$(printf '%s\n' "$OUT" | grep '^analyze -> ')
ok '! printf "%s" "$line" | grep -qE " (export|check|report)( |$)"' \
    "analyze calls neither export, check nor report ($line)"
line=$(printf '%s\n' "$OUT" | grep '^check -> ')
ok '! printf "%s" "$line" | grep -qE " (export|report)( |$)"' \
    "check calls neither export nor report ($line)"
expect_out_has "common -> -" "common/ depends on no other folder"
ok '! printf "%s\n" "$OUT" | grep -E "^(stats|common) -> .*(analyze|report|export|check)"' \
    "stats/ and common/ call no command folder"
test_done
