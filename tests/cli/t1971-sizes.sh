# t1971: the house size rule (no function over 120 lines, no file over
# 1,200 lines in the product code), measured by
# tests/cli/helper/sizes.sh.  The lister is checked on a made tree at
# the limits' edges; then the whole product is held to the rule, and
# each folder on its own, so that it cannot slip back.
HELD="ingest export check report analyze stats common inspect collect schema"
S="$TOP/tests/cli/helper/sizes.sh"

# fn NAME N: a KNF function whose braces span N lines, both included.
fn() {
	printf 'static int\n%s(int x)\n{\n' "$1"
	i=2
	while [ "$i" -lt "$2" ]; do
		echo "	x++;"
		i=$((i + 1))
	done
	printf '}\n\n'
}
mkdir -p fake/src fake/tests fake/bench fake/build-x
{ fn at_limit 120; fn over_limit 121; } > fake/src/a.c
# a struct closed at the start of a line is no function
printf 'struct s {\n\tint a;\n};\n' >> fake/src/a.c
fn lots 300 > fake/tests/t.c
fn lots 300 > fake/bench/b.c
fn lots 300 > fake/build-x/x.c
awk 'BEGIN { for (i = 0; i < 1201; i++) print "/* " i " */" }' \
    > fake/src/long.h
awk 'BEGIN { for (i = 0; i < 1200; i++) print "/* " i " */" }' \
    > fake/src/edge.h

run sh -c "cd fake && sh '$S'"
expect_code 1 "a file over 1,200 lines breaks the rule"
expect_out_has "function 121 src/a.c over_limit" \
    "a function of 121 lines is listed, with its file and name"
expect_out_lacks "at_limit" "one of 120 lines is not"
expect_out_has "file 1201 src/long.h" "a file of 1,201 lines is listed"
expect_out_lacks "edge.h" "one of 1,200 lines is not"
expect_out_lacks "lots" "tests/, bench/ and build*/ are not product code"
expect_out_has "3 files read; 1 functions over 120 lines (at most 0), 1 files over 1200 lines (at most 0): limits NOT kept" \
    "the summary counts them"

rm fake/src/long.h
run sh -c "cd fake && sh '$S'"
expect_code 1 "one function over 120 lines breaks the rule"
# SIZES_FUNCS_MAX allows some (it was 3 until the last three were split)
{ fn two 130; fn four 150; } >> fake/src/a.c
run sh -c "cd fake && SIZES_FUNCS_MAX=3 sh '$S'"
expect_code 0 "SIZES_FUNCS_MAX=3: 3 functions over 120 lines and no long file keep it"
expect_out_has "limits kept" "and it says so"
fn five 125 >> fake/src/a.c
run sh -c "cd fake && SIZES_FUNCS_MAX=3 sh '$S'"
expect_code 1 "SIZES_FUNCS_MAX=3: a 4th function over 120 lines breaks it"
first=$(printf '%s\n' "$OUT" | head -1)
ok '[ "$first" = "function 150 src/a.c four" ]' \
    "the longest is listed first ($first)"

# Every folder keeps the rule.
for d in $HELD; do
	run sh -c "cd '$TOP' && sh '$S' $d"
	expect_code 0 "$d/ keeps the size rule: $(printf '%s\n' "$OUT" | tr '\n' ';')"
done

# The whole product keeps it (no long function anywhere in it).
run sh -c "cd '$TOP' && sh '$S'"
expect_code 0 "the product keeps the size rule: $(printf '%s\n' "$OUT" | tr '\n' ';')"
n=$(printf '%s\n' "$OUT" | sed -n 's/^sizes: \([0-9]*\) files read.*/\1/p')
ok '[ "${n:-0}" -gt 100 ]' "the product's sources are found ($n files)"
test_done
