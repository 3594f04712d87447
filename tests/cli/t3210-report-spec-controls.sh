# t3210: a spec's titles, labels, paragraphs, cell texts and options are
# held to the same control rule as ingest's names and tags: a C1 control
# (U+0085 NEL) or a bidirectional one (U+202E turns the text after it
# around) would reach the page and make it read as something else, so
# the spec is refused with the code point named.  Line breaks and tabs
# stay allowed in paragraphs.

run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"

cat > mk.py <<'PY'
import json, sys
where, text = sys.argv[1], sys.argv[2].encode().decode("unicode_escape")
spec = {"title": "ok", "intro": "fine\n\tparagraph",
        "where": {"study": "tokyo-osaka"}, "metric": "connect_ms",
        "paths": {"A": "Same AZ"},
        "sections": [{"type": "percentiles", "id": "p", "stats": "p50",
                      "title": "Connect"}]}
s = spec["sections"][0]
if where == "title": spec["title"] = "price " + text + "low"
elif where == "intro": spec["intro"] = ["one", "two " + text]
elif where == "label": spec["paths"]["A"] = "Same " + text + "AZ"
elif where == "section": s["title"] = "x" + text
elif where == "text": s["text"] = "x" + text
elif where == "footnote":
    s["footnotes"] = [{"path": "A", "text": "n" + text}]
elif where == "chart": s["chart"] = {"kind": "bars", "title": "c" + text}
elif where == "values":
    s.update({"type": "pivot", "columns": [
        {"key": "k", "label": "K", "values": {"A": "t" + text}}]})
    del s["stats"]
elif where == "column":
    s.update({"type": "pivot", "columns": [
        {"key": "k", "label": "K" + text, "values": {"A": "t"}}]})
    del s["stats"]
json.dump(spec, open("spec.json", "w"), ensure_ascii=False)
PY

"$PY" mk.py none ""
run "$PS" report --db s.db --spec spec.json --out ok --no-render
expect_code 0 "a plain spec, with a line break and a tab in the intro ($ERR)"

for case in "title \\u202e 202E" "intro \\u0085 0085" "label \\u2067 2067" \
    "section \\u200f 200F" "text \\u061c 061C" \
    "footnote \\u2066 2066" "chart \\u0085 0085" "values \\u202e 202E" \
    "column \\u009b 009B"; do
	set -- $case
	"$PY" mk.py "$1" "$2"
	run "$PS" report --db s.db --spec spec.json --out "b-$1" --no-render
	expect_code 1 "U+$3 in the $1 is refused"
	expect_err_has "control character U+$3" "the $1's refusal names U+$3"
	ok "[ ! -e b-$1/index.md ]" "no page from the $1 with U+$3"
done
test_done
