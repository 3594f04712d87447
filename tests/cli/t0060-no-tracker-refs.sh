# t0060: no reference to an issue tracker anywhere in the tree.  A
# reader of the code, the tests or the docs has no tracker: a comment
# says the reason itself ("the rule before the outlier-rule change"),
# not a number.  Every text file under $TOP is read without git (a
# release tarball has no .git); left out are the build folders, .git,
# tests/fixtures and the fuzz corpora (real files, kept as they came),
# and this test itself.  Flagged: "issue 20" / "issues 2 and 4" (any
# case), the same split over two lines ("(issue" then "# 14 item 4)"),
# "issue #12" and "(#12)", and a file named after one (t-x-issue25.sh).

# scan ROOT: print each offender as path:line:text, paths from ROOT
scan() {
	(
	cd "$1" || exit 2
	find . \( -name .git -o -path './build*' -o -path ./demo \
	    -o -path ./bench/out -o -path ./tests/fixtures \
	    -o -path ./tests/fuzz/corpus -o -name __pycache__ \) -prune \
	    -o -type f ! -path ./tests/cli/t0060-no-tracker-refs.sh -print |
	sed 's|^\./||' | LC_ALL=C sort > "$TMP/.files"
	while IFS= read -r f; do
		case "$f" in
		*[Ii]ssue[0-9]*|*[Ii]ssue-[0-9]*|*[Ii]ssue_[0-9]*)
			echo "$f: named after an issue" ;;
		esac
		grep -Iq . "$f" 2>/dev/null || continue
		LC_ALL=C awk -v f="$f" '
		/[Ii]ssues? [0-9]/ || /[Ii]ssue #[0-9]/ || /\(#[0-9]+\)/ {
			print f ":" FNR ": " $0; prev = ""; next
		}
		prev ~ /[Ii]ssues?$/ && $0 ~ /^[ \t#*\/;-]*[0-9]/ {
			print f ":" FNR - 1 ": " prev
		}
		{ prev = $0 }' "$f"
	done < "$TMP/.files"
	)
}

# The scan finds what it looks for: a planted tree with one reference
# of each kind, and the same text where it is allowed.
mkdir -p plant/src plant/tests/cli plant/tests/fixtures plant/build \
    plant/tests/fuzz/corpus/x
printf '/* the cap (issue 20) */\nint x;\n' > plant/src/a.c
printf '# the rule (issue\n# 14 item 4): ...\n' > plant/src/b.sh
printf 'Fixed in Issue #12.\nSee (#7).\n' > plant/src/c.md
printf '# nothing\n' > plant/tests/cli/t9-month-issue25.sh
printf 'issue 9\n' > plant/tests/fixtures/f.txt
printf 'issue 9\n' > plant/build/a.c
printf 'issue 9\n' > plant/tests/fuzz/corpus/x/seed
printf 'issue 9\n' > plant/tests/cli/t0060-no-tracker-refs.sh
printf 'a known issue; 3 issues\nissued 4 probes\ncolor: #333;\n' \
    > plant/src/fine.md
run scan plant
expect_out_has "src/a.c:1: /* the cap (issue 20) */" "a parenthetical is found"
expect_out_has "src/b.sh:1: # the rule (issue" "a reference split over two lines is found"
expect_out_has "src/c.md:1: Fixed in Issue #12." "issue #N is found"
expect_out_has "src/c.md:2: See (#7)." "(#N) is found"
expect_out_has "tests/cli/t9-month-issue25.sh: named after an issue" \
    "a file named after an issue is found"
ok '[ "$(printf "%s\n" "$OUT" | wc -l)" = 5 ]' \
    "fixtures, build folders, corpora, this test and plain words are not"

# The tree itself.
run scan "$TOP"
[ -z "$OUT" ] || printf '%s\n' "$OUT" | head -40 | sed 's/^/#   /'
ok '[ "$RC" = 0 ] && [ -z "$OUT" ]' "no tracker reference in the tree"
test_done
