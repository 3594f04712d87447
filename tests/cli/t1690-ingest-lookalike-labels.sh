# t1690: look-alike labels.  The "no control characters" rule covered
# C0 only, so a hostile meta.json could name a path 'A<U+202E>B' (a
# right-to-left override: it renders turned around, like another path)
# or end one in U+0085 (NEL).  C1 controls and Unicode's Bidi_Control
# characters are refused in every key and value (path ID, tag name and
# value, condition, tool; from meta.json, a layout and --tag), with the
# reason, and messages show them as \uXXXX rather than apply them.
# Other non-ASCII text (Zürich, Arabic, CJK) is still a fine label.

probe() { cp "$FIX/pathprobe/all-ok.csv" "$1"; }
u() { "$PY" -c "import sys; sys.stdout.write(chr(0x$1))"; }	# U+XXXX as UTF-8
i=0
for cp in 0085 0080 009F 061C 200E 200F 202A 202B 202C 202D 202E 2066 2067 2068 2069; do
	ch=$(u $cp)
	for where in path tag tagname cond; do
		i=$((i + 1))
		d=m$i/A
		mkdir -p $d
		probe $d/probe.csv
		case $where in
		path) printf '{"path": "A\\u%s", "trial": 1}' $cp > $d/meta.json ;;
		tag) printf '{"path": "A", "trial": 1, "site": "x\\u%sy"}' $cp > $d/meta.json ;;
		tagname) printf '{"path": "A", "trial": 1, "si\\u%ste": "x"}' $cp > $d/meta.json ;;
		cond) printf '{"path": "A", "trial": 1, "cond": "c=1%s"}' "$ch" > $d/meta.json ;;
		esac
		run "$PS" ingest --db m$i.db m$i
		expect_code 1 "U+$cp in a $where: exit 1"
		expect_err_has "\\u$cp" "U+$cp in a $where: shown escaped in the reason"
		ok "! grep -q '$ch' .err" "U+$cp in a $where: never printed raw"
		expect_sql m$i.db "SELECT count(*) FROM runs" 0 "U+$cp in a $where: nothing stored"
	done
done

# the reason is said: which rule, and why
mkdir -p r/A
probe r/A/probe.csv
printf '{"path": "A\\u202eB", "trial": 1}' > r/A/meta.json
run "$PS" ingest --db r.db r
expect_err_has "path ID 'A\\u202EB' is not" "the path ID is named, escaped"
expect_err_has "no control characters (C0, C1 or bidirectional" "with the rule"

# from a layout (a folder's name) and from --tag
mkdir -p "lay/A$(u 202e)B"
probe "lay/A$(u 202e)B/probe.csv"
run "$PS" ingest --db lay.db --layout '{path}/probe.csv' --tag trial=1 lay
expect_code 1 "a folder name with U+202E captured as {path}: exit 1"
expect_err_has "A\\u202EB" "named, escaped"
expect_sql lay.db "SELECT count(*) FROM runs" 0 "nothing stored"
mkdir -p tg/A
probe tg/A/probe.csv
echo '{"path": "A", "trial": 1}' > tg/A/meta.json
run "$PS" ingest --db tg.db --tag "site=x$(u 2067)y" tg
ok "[ $RC != 0 ]" "--tag with U+2067: refused"
expect_err_has "\\u2067" "named, escaped"
ok "[ ! -e tg.db ]" "nothing stored"

# other non-ASCII labels are fine
mkdir -p fine/A fine/B fine/C
for d in A B C; do probe fine/$d/probe.csv; done
printf '{"path": "Z\\u00fcrich", "trial": 1}' > fine/A/meta.json
printf '{"path": "\\u0627\\u0644\\u0642\\u0627\\u0647\\u0631\\u0629", "trial": 1}' > fine/B/meta.json
printf '{"path": "\\u6771\\u4eac", "trial": 1, "site": "caf\\u00e9"}' > fine/C/meta.json
run "$PS" ingest --db fine.db fine
expect_code 0 "Zürich, Arabic and CJK labels: stored"
expect_sql fine.db "SELECT count(*) FROM runs" 3 "all three"
test_done
