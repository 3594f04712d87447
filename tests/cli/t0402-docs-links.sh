# t0402: the links of the README and every page under docs/ lead
# somewhere: the file exists and a #heading is a heading of that page
# (tests/docs/links.py), so moving a section cannot strand its readers.
command -v python3 >/dev/null 2>&1 || skip_all "python3 missing: links.py"
files=$(cd "$TOP" && ls README.md docs/*.md docs/research/*.md bench/README.md collect/README.md samples/README.md)
run sh -c "cd '$TOP' && python3 tests/docs/links.py $(printf '%s ' $files)"
ok '[ $RC = 0 ]' "every link of $(printf '%s\n' $files | wc -l) pages resolves ($OUT)"
ok "grep -q '](docs/tutorial.md)' '$TOP/README.md' && grep -q '](docs/research/README.md)' '$TOP/README.md'" \
    "the README leads to the tutorial and the research notes"
printf '[a](nowhere.md) [b](#no-such-heading)\n# Here\n[c](#here)\n' > doc.md
run python3 "$TOP/tests/docs/links.py" doc.md
ok '[ $RC = 1 ] && [ "$(printf "%s\n" "$OUT" | wc -l)" = 2 ]' "a missing file and a missing heading are caught, a good anchor is not ($OUT)"
size=$(wc -c < "$TOP/README.md")
ok "[ $size -le 15360 ]" "README.md stays an entry page: $size bytes (15 KB at most; the manual is docs/)"
test_done
