#!/usr/bin/env python3
"""html-check.py HTML [--tables N] [--svgs N] [--text S]... [--csv DIR]
check a bundle's index.html (or the DOM a browser dumped from it) with
Python's own HTML parser, independently of the C code that wrote it:

  * the page stands alone: no <script>, <iframe>, <object>, <embed>,
    <link>, <base>, <form> or <foreignObject>; no on* attribute; every
    <a href> is "#id" naming an element of the page or a data: URI;
    every <img src> a data:image/png; every <use> href "#id" of the page;
    no src/href/url() anywhere that leaves the page;
  * ids are unique; the Content-Security-Policy allows nothing from
    outside (default-src 'none');
  * --tables N: N <table> elements; --svgs N: N inline charts (<svg>);
  * --text S: S appears in the page's text, as text (a hostile label
    shown, not run or parsed);
  * --csv DIR: each data: CSV download decodes to DIR/tables/<name>.

Prints "ok"/"not ok" lines for the TAP harness; exit 1 on any failure."""
import base64
import html.parser
import os
import re
import sys
import urllib.parse

BANNED = {"script", "iframe", "object", "embed", "link", "base", "form",
          "foreignobject", "frame", "frameset"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = []
        self.links = []        # (tag, attr, value)
        self.tags = {}
        self.text = []
        self.bad = []
        self.csp = None
        self.downloads = []    # (download name, href)

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        if tag in BANNED:
            self.bad.append("a <%s> element" % tag)
        for k, v in attrs:
            if k.lower().startswith("on"):
                self.bad.append("an %s attribute on <%s>" % (k, tag))
            if k == "id":
                self.ids.append(v)
            if k in ("href", "xlink:href", "src", "srcset", "action",
                     "formaction", "poster", "background"):
                self.links.append((tag, k, v or ""))
            if v and re.search(r"url\(\s*['\"]?(?!#)", v, re.I):
                self.bad.append("url() outside the page in <%s %s>" % (tag, k))
        if tag == "meta" and (a.get("http-equiv") or "").lower() == \
                "content-security-policy":
            self.csp = a.get("content", "")
        if tag == "a" and "download" in a:
            self.downloads.append((a["download"], a.get("href", "")))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    want_tables = want_svgs = None
    texts, csvdir = [], None
    while args:
        o = args.pop(0)
        if o == "--tables":
            want_tables = int(args.pop(0))
        elif o == "--svgs":
            want_svgs = int(args.pop(0))
        elif o == "--text":
            texts.append(args.pop(0))
        elif o == "--csv":
            csvdir = args.pop(0)
    src = open(path, encoding="utf-8").read()
    p = Page()
    p.feed(src)
    p.close()
    fails = 0

    def check(cond, what, detail=""):
        nonlocal fails
        print(("ok - " if cond else "not ok - ") + what)
        if not cond:
            fails += 1
            if detail:
                print("#   " + str(detail)[:600])

    ids = set(p.ids)
    dup = sorted(i for i in ids if p.ids.count(i) > 1)
    check(not p.bad, "nothing that runs or loads: no script, handler or "
          "outside url()", p.bad[:5])
    check(not dup, "every id is unique", dup[:5])
    check(p.csp is not None and "default-src 'none'" in p.csp,
          "the Content-Security-Policy allows nothing from outside", p.csp)
    broken = []
    for tag, attr, v in p.links:
        if tag == "a" and attr == "href":
            if v.startswith("#"):
                if urllib.parse.unquote(v[1:]) not in ids:
                    broken.append("a href=%s" % v)
            elif not v.startswith("data:"):
                broken.append("a href=%s" % v[:80])
        elif tag == "img" and attr == "src":
            if not v.startswith("data:image/png;base64,"):
                broken.append("img src=%s" % v[:80])
        elif tag == "use" and attr in ("href", "xlink:href"):
            if not v.startswith("#") or v[1:] not in ids:
                broken.append("use %s=%s" % (attr, v))
        else:
            broken.append("<%s %s=%s>" % (tag, attr, v[:80]))
    check(not broken, "every link, image and reference resolves within "
          "the page (%d of them)" % len(p.links), broken[:8])
    nlinks = sum(1 for t, a, v in p.links if t == "a")
    check(nlinks > 0, "the page has links to check (%d)" % nlinks)
    if want_tables is not None:
        check(p.tags.get("table", 0) == want_tables, "%d tables (index.md "
              "has %d)" % (p.tags.get("table", 0), want_tables))
    if want_svgs is not None:
        check(p.tags.get("svg", 0) == want_svgs, "%d charts inline as SVG "
              "(want %d)" % (p.tags.get("svg", 0), want_svgs))
    text = "".join(p.text)
    for t in texts:
        check(t in text, "the text %r is shown as text" % t[:60])
    if csvdir is not None:
        bad = []
        csvs = [(n, h) for n, h in p.downloads if n.endswith(".csv")]
        for name, href in csvs:
            head, _, data = href.partition(",")
            if not head.endswith(";base64"):
                bad.append(name + ": not base64")
                continue
            want = open(os.path.join(csvdir, "tables", name), "rb").read()
            if base64.b64decode(data) != want:
                bad.append(name)
        check(csvs and not bad, "each table's CSV download (%d) holds the "
              "bundle's CSV byte for byte" % len(csvs), bad[:5])
    sys.exit(1 if fails else 0)


main()
