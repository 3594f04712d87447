# t3820: index.html in a real browser.  Headless Chromium (Debian's
# chromium) opens the --html bundle of the sample tree's report from a
# file:// URL, with a fresh profile, no network services and HOME inside
# the test folder: a screenshot has the size asked for and shows
# something (text and coloured charts, not a blank page), and the DOM it
# built has every table and inline chart and no link, image or
# reference that leaves the page (tests/cli/helper/html-check.py).
# tier: browser

have_prereq CHROMIUM || skip_all "chromium is not installed (Debian: apt-get install chromium)"
have_prereq GNUPLOT || skip_all "gnuplot is not installed: no charts to show"

CHECK="$TOP/tests/cli/helper/html-check.py"
export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out b --html --baseline A
expect_code 0 "report --html exits 0 ($ERR)"
ntab=$(grep -c '^_Table [0-9]*:' b/index.md)
nfig=$(grep -c '^!\[' b/index.md)

mkdir -p home
# chromium ARGS...: the browser as the test runs it, bounded in time
chromium_run() {
	profile=$1
	shift
	HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
	XDG_CACHE_HOME="$TMP/home/.cache" timeout 120 chromium --headless \
	    --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run \
	    --user-data-dir="$TMP/profile-$profile" "$@"
}
url="file://$TMP/b/index.html"
run chromium_run shot --window-size=1280,1800 --hide-scrollbars \
    --screenshot="$TMP/shot.png" "$url"
expect_code 0 "chromium takes a screenshot"
cat > png.py <<'PY'
import struct, sys, zlib
# A PNG decoder (8-bit RGB/RGBA, non-interlaced: what Chromium writes),
# stdlib only: the size, and how much of the page is not background.
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = hdr
assert depth == 8 and ctype in (2, 6) and interlace == 0, hdr
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
ink = colours = 0
seen = set()
for line in rows:
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if (r, g, b) != (255, 255, 255):
            ink += 1
        if max(r, g, b) - min(r, g, b) > 60:
            seen.add((r >> 4, g >> 4, b >> 4))
print(w, h, "%.4f" % (ink / (w * h)), len(seen))
PY
read -r w h ink hues <<EOF2
$("$PY" png.py shot.png 2>&1 | tail -1)
EOF2
ok '[ "$w" = 1280 ] && [ "$h" = 1800 ]' "the screenshot is 1280 x 1800, the window asked for (got $w x $h)"
ok '"$PY" -c "import sys; sys.exit(not (0.02 < float(sys.argv[1]) < 0.9))" "$ink"' \
    "it is not blank: $ink of its pixels are not background"
ok '[ "${hues:-0}" -ge 3 ]' "it shows colour (the charts' palette: ${hues:-0} hues)"
ok '[ "$(wc -c < shot.png)" -gt 20000 ]' "the screenshot holds a page, not an empty canvas ($(wc -c < shot.png) bytes)"

# into a file: the DOM holds every chart, megabytes of it
chromium_run dom --dump-dom "$url" >dom.html 2>dom.err
rc=$?
ok '[ $rc = 0 ] && [ -s dom.html ]' "chromium dumps the DOM it built (exit $rc)"
run "$PY" "$CHECK" dom.html --tables "$ntab" --svgs "$nfig" --text "What s.db holds"
ok '[ $RC = 0 ]' "the browser's DOM: $ntab tables, $nfig inline charts, no link or image that leaves the page"
printf '%s\n' "$OUT" | grep -v '^ok' | sed 's/^/# /'
test_done
