# t6010: the version has one home (VERSION in the Makefile) and every
# place that shows it agrees: pathstat --version (which also names the
# schema it writes, the newest migration), pathprobe --version,
# pathstat-collect --version, the newest debian/changelog entry and the
# newest NEWS section.
v=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$TOP/Makefile")
ok '[ -n "$v" ]' "the Makefile sets VERSION ($v)"
newest=$(schema_newest)

run "$PS" --version
expect_code 0 "pathstat --version"
ok '[ "$(printf "%s" "$OUT" | sed "s/, sqlite .*//")" = "pathstat $v (schema $newest" ]' \
    "pathstat --version names $v and schema $newest: $OUT"
run "$PROBE" --version
ok '[ "$OUT" = "pathprobe $v" ]' "pathprobe --version: $OUT"
run sh "$TOP/collect/pathstat-collect" --version
ok 'printf "%s" "$OUT" | grep -q "^pathstat-collect $v\$"' \
    "pathstat-collect --version: $OUT"
deb=$(sed -n '1s/^pathstat (\([^)-]*\)-[0-9]*).*/\1/p' "$TOP/debian/changelog")
ok '[ "$deb" = "$v" ]' "debian/changelog's newest entry is $v-N ($deb)"
news=$(grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+ \(' "$TOP/NEWS" | cut -d' ' -f1)
ok '[ "$news" = "$v" ]' "NEWS's newest section is $v ($news)"
# a build without the Makefile's version is stopped, not given a stale one
printf '#include "common/compat.h"\n#include "common/version.h"\nint main(void) { return 0; }\n' > v.c
if command -v cc >/dev/null 2>&1; then
	run cc -I"$TOP" -c -o v.o v.c
	ok '[ "$RC" != 0 ]' "common/version.h refuses a compile without -DPATHSTAT_VERSION"
fi
test_done
