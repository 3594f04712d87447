# t3830: a footnote's mark can never be read as an exponent, and the page
# has a contents list.  The sample tree's report with the
# first article's spec (make demo's bundle): in index.md each cell's
# first mark stands apart from its value ("36.3 [^8]", never "36.3[^8]");
# in index.html, as headless Chromium built its DOM, every mark reads
# "[N]" on the line (a bracketed link to its note, the CSS keeps it off
# the superscript position) and no mark touches a digit; the contents
# list links every level-2 and level-3 heading, by the id the heading
# has (the same ids a forge gives index.md's headings).

have_prereq CHROMIUM || skip_all "chromium is not installed (Debian: apt-get install chromium)"

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out b --html --no-render --spec "$TOP/samples/article.json"
expect_code 0 "report --html with the article's spec exits 0 ($ERR)"

nmd=$(grep -o '\[\^[0-9]*\]' b/index.md | grep -c .)
ok '[ "$nmd" -ge 10 ]' "index.md's tables carry footnote marks ($nmd)"
ok '! grep -q "[0-9]\[\^[0-9]" b/index.md' \
    "no mark in index.md follows a digit: $(grep -o '.\{8\}[0-9]\[^[0-9]*\]' b/index.md | head -3 | tr '\n' ' ')"
ok 'grep -q "^| [^|]* [0-9.]* \[\^[0-9]*\] |" b/index.md || grep -q "| [0-9.]* \[\^[0-9]*\] |" b/index.md' \
    "a number's mark stands after a blank (\"36.3 [^8]\")"
ok 'grep -q "^\*\*Contents\*\*$" b/index.md' "index.md has a contents list"

chromium_dom() {
	HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
	XDG_CACHE_HOME="$TMP/home/.cache" timeout 120 chromium --headless \
	    --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run \
	    --user-data-dir="$TMP/profile" --dump-dom "$1"
}
mkdir -p home
chromium_dom "file://$TMP/b/index.html" >dom.html 2>dom.err
rc=$?
ok '[ $rc = 0 ] && [ -s dom.html ]' "chromium dumps the DOM it built (exit $rc)"

cat > marks.py <<'PY'
import html.parser, re, sys

# The DOM as a stream of text and marks: a mark is an <a
# data-footnote-ref> (cmark's link to a note); what a reader sees around
# it is the text before and after, inside the same table cell.
class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cell = None          # list of (kind, text) in the open cell
        self.cells = []
        self.in_mark = False
        self.sup_depth = []       # is each open <sup> cmark's footnote-ref?
        self.ids = set()
        self.headings = []        # (level, id of the first span inside)
        self.open_h = None
        self.toc = []             # hrefs of the contents list
        self.after_contents = 0   # 1 after "Contents", 2 inside its list
        self.list_depth = 0
        self.style = ""
        self.in_style = False
        self.marks_outside_cells = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag in ("td", "th"):
            self.cell = []
        if tag == "a" and "data-footnote-ref" in a:
            self.in_mark = True
            if self.cell is None:
                self.marks_outside_cells += 1
            else:
                self.cell.append(("mark", ""))
        if tag in ("h2", "h3"):
            self.open_h = int(tag[1])
        if tag == "span" and self.open_h and "id" in a:
            self.headings.append((self.open_h, a["id"]))
            self.open_h = None
        if tag == "ul" and self.after_contents:
            self.after_contents = 2
            self.list_depth += 1
        if tag == "a" and self.after_contents == 2:
            self.toc.append(a.get("href", ""))
        if tag == "style":
            self.in_style = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.cells.append(self.cell)
            self.cell = None
        if tag == "a":
            self.in_mark = False
        if tag == "ul" and self.after_contents == 2:
            self.list_depth -= 1
            if not self.list_depth:
                self.after_contents = 0
        if tag == "style":
            self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        if data.strip() == "Contents" and not self.toc:
            self.after_contents = 1
        if self.cell is None:
            return
        if self.in_mark:
            self.cell[-1] = ("mark", self.cell[-1][1] + data)
        else:
            self.cell.append(("text", data))

d = Dom()
d.feed(open(sys.argv[1], encoding="utf-8").read())
bad, marks, touching = [], 0, []
for cell in d.cells:
    text = "".join(t if k == "text" else "\x00" + t + "\x01" for k, t in cell)
    for m in re.finditer("\x00([^\x01]*)\x01", text):
        marks += 1
        before, after = text[:m.start()], text[m.end():]
        label = m.group(1)
        if not re.fullmatch(r"\d+", label):
            bad.append("a mark labelled %r" % label)
        if not before.endswith("[") or not after.startswith("]"):
            bad.append("mark %s not in brackets: %r" % (label, text[:80]))
            lead = before
        else:
            lead = before[:-1]
        # what stands before "[": a blank, or the "]" of the mark before
        if not lead or lead[-1].isdigit() or not (lead[-1].isspace() or lead[-1] == "]"):
            touching.append(text.replace("\x00", "").replace("\x01", "")[:60])
print("marks", marks)
print("touching", len(touching), "|".join(touching[:3]))
print("bad", len(bad), "|".join(bad[:3]))
print("outside", d.marks_outside_cells)
css = re.sub(r"\s+", "", d.style)
print("css", int(".fnmarksup{vertical-align:baseline" in css))
want = [h for h in d.headings]
print("headings", len(want))
print("toc", len(d.toc))
missing = [h for h in d.toc if not h.startswith("#") or h[1:] not in d.ids]
print("toc_missing", len(missing), " ".join(missing[:3]))
order = ["#" + i for _, i in want] == d.toc
print("toc_order", int(order))
PY
"$REAL_PY" marks.py dom.html >marks.out 2>marks.err
rc=$?
ok '[ $rc = 0 ]' "the DOM reads ($(cat marks.err | tail -1))"
val() { sed -n "s/^$1 //p" marks.out | cut -d' ' -f1; }
marks=$(val marks)
ok '[ "${marks:-0}" -ge 10 ]' "the table cells carry marks in the browser's DOM (${marks:-0})"
ok '[ "$(val bad)" = 0 ]' "every mark reads [N], a number in brackets ($(sed -n 's/^bad //p' marks.out))"
ok '[ "$(val touching)" = 0 ]' "no mark touches a digit: a blank or another mark before its '[' ($(sed -n 's/^touching //p' marks.out))"
ok '[ "$(val css)" = 1 ]' "the page's CSS sets the mark on the line, not as a superscript"
nh=$(val headings)
ok '[ "${nh:-0}" -ge 10 ] && [ "$(val toc)" = "$nh" ]' \
    "the contents list links each of the $nh level-2/3 headings ($(val toc) links)"
ok '[ "$(val toc_missing)" = 0 ] && [ "$(val toc_order)" = 1 ]' \
    "each contents link names a heading's id, in the page's order ($(sed -n 's/^toc_missing //p' marks.out))"
test_done
