#!/usr/bin/env python3
"""chart-drawn.py CHART.svg|CHART.gp ... - does each rendered chart draw its data,
as a reader sees it?  For every NN-id.svg (and the NN-id.png beside it)
prints one line:

    NN-id svg=S png=P data=D marks=M outside=O

S: data marks gnuplot drew inside the plot area of the SVG (points of
the paths, polygons and point symbols of its plot clauses, the groups
gnuplot_plot_N, whose coordinates lie inside a frame of the axes; the
key samples above the plot are outside it).  P: coloured pixels (not
grey: channels apart by more than 40) of the PNG inside the same area
(numpy decodes it: a dev-time prerequisite, as for the oracles).
D: finite numbers in the .dat's data lines after the first column
(0: nothing to draw, such as every bar "≥ timeout").  M, O: for a bar
chart that marks cells pathstat check flagged (the .dat's index 1), how
many marks, and how many of them lie outside the bar they flag (each
bar a box of 0.92 of its slot, from the axis to its value; on a log
axis from the script's y range bottom).  Given NN-id.gp, only
"NN-id marks=M outside=O" (no rendering needed).  No third-party modules: the
PNG is decoded with zlib."""
import math
import os
import re
import struct
import sys
import zlib

try:
    import numpy as np
except ImportError:     # the .gp mode needs no numpy
    np = None


def png_pixels(path):
    """The pixels of an 8-bit RGB/RGBA PNG as a numpy array (h, w, 3):
    Sub, Up and None rows vectorised, Average and Paeth rows (a fifth
    of pngcairo's) byte by byte."""
    data = open(path, "rb").read()
    pos, idat, w, h, bpp = 8, b"", 0, 0, 3
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                return np.zeros((0, 0, 3), np.uint8)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), np.uint8)
    stride = w * bpp
    img = np.zeros((h, stride), np.uint8)
    prev = np.zeros(stride, np.uint8)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)].copy()
        if f == 1:
            line = np.cumsum(line.reshape(w, bpp).astype(np.uint64),
                             axis=0).astype(np.uint8).reshape(stride)
        elif f == 2:
            line = line + prev
        elif f in (3, 4):
            out = bytearray(line.tobytes())
            pv = prev.tobytes()
            for x in range(stride):
                a = out[x - bpp] if x >= bpp else 0
                b = pv[x]
                if f == 3:
                    out[x] = (out[x] + (a + b) // 2) & 255
                    continue
                c = pv[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                out[x] = (out[x] + pr) & 255
            line = np.frombuffer(bytes(out), np.uint8)
        img[y] = line
        prev = img[y]
    return img.reshape(h, w, bpp)[:, :, :3]


NUM = r"(-?\d+(?:\.\d+)?)"


def frames(svg):
    """Frames of the axes: paths Mx0,y0 Lx0,y1 Lx1,y1 (left and bottom
    border, gnuplot's border 3) or a closed box; as (x0, y0, x1, y1)."""
    out = []
    for d in re.findall(r"d='([^']*)'", svg):
        pts = [(float(a), float(b)) for a, b in
               re.findall(NUM + "," + NUM, d)]
        if len(pts) >= 3 and re.match(r"\s*M", d):
            (a, b), (c, e), (f, g) = pts[:3]
            if a == c and e > b and g == e and f > c + 50 and e - b > 50:
                out.append((a, b, f, e))
    return out


def inside(x, y, fr):
    return any(x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1
               for x0, y0, x1, y1 in fr)


def svg_marks(svg, fr):
    n = 0
    for grp in re.split(r"<g id=\"gnuplot_plot_\d+[a-z]*\"", svg)[1:]:
        grp = grp.split("<g id=\"gnuplot_plot_")[0]
        # stop at the frame and the title drawn after the plots
        for d in re.findall(r"(?:d|points) ?= ?'([^']*)'", grp):
            for a, b in re.findall(NUM + "," + NUM, d):
                n += inside(float(a), float(b), fr)
        for a, b in re.findall(r"<use[^>]*x='" + NUM + "'[^>]*y='" + NUM,
                               grp):
            n += inside(float(a), float(b), fr)
        for a, b in re.findall(r"translate\(" + NUM + "," + NUM +
                               r"\)[^>]*>\s*<use", grp):
            n += inside(float(a), float(b), fr)
    return n


def png_coloured(path, fr):
    if not os.path.exists(path) or not fr:
        return 0
    px = png_pixels(path).astype(np.int16)
    coloured = (px.max(axis=2) - px.min(axis=2)) > 40
    mask = np.zeros(coloured.shape, bool)
    for x0, y0, x1, y1 in fr:
        mask[max(0, int(y0) - 1):int(y1) + 2, max(0, int(x0) - 1):int(x1) + 2] = True
    return int((coloured & mask).sum())


def dat_blocks(path):
    body = [l for l in open(path, encoding="utf-8").read().split("\n")]
    blocks, cur, blank = [], [], 0
    for l in body:
        if l.startswith("#"):
            continue
        if not l.strip():
            blank += 1
            continue
        if blank >= 2 and cur:
            blocks.append(cur)
            cur = []
        blank = 0
        cur.append(l.split())
    if cur:
        blocks.append(cur)
    return blocks


def finite(tok):
    try:
        return math.isfinite(float(tok))
    except ValueError:
        return False


def bar_marks(gp, blocks):
    """Marks (index 1) of a bar chart outside the bar they flag."""
    if "with boxes" not in gp or len(blocks) < 2:
        return 0, 0
    bars = {int(r[0]): [float(v) for v in r[1:]] for r in blocks[0]}
    m = re.search(r"set yrange \[" + NUM, gp)
    log = "set logscale y" in gp
    bottom = float(m.group(1)) if log and m else 0.0
    out = 0
    for r in blocks[1]:
        x, y = float(r[0]), float(r[1])
        ok = False
        for g, vs in bars.items():
            bw = 0.8 / len(vs)
            for k, v in enumerate(vs):
                cx = g - 0.4 + bw * (k + 0.5)
                if abs(x - cx) <= 0.46 * bw and bottom < y < v:
                    ok = True
        out += not ok
    return len(blocks[1]), out


def main(files):
    for f in files:
        stem = f.rsplit(".", 1)[0]
        if f.endswith(".gp"):   # the marks alone, from script and data
            marks, outside = bar_marks(open(f, encoding="utf-8").read(),
                                       dat_blocks(stem + ".dat"))
            print("%s marks=%d outside=%d" % (os.path.basename(stem),
                                              marks, outside))
            continue
        svg = open(f, encoding="utf-8").read()
        fr = frames(svg)
        gp = open(stem + ".gp", encoding="utf-8").read()
        blocks = dat_blocks(stem + ".dat")
        data = sum(finite(t) for b in blocks[:1] for r in b for t in r[1:])
        if "heatmap" in os.path.basename(stem) or "boxxyerror" in gp:
            data = sum(finite(r[2]) for r in blocks[0] if len(r) > 2)
        marks, outside = bar_marks(gp, blocks)
        print("%s svg=%d png=%d data=%d marks=%d outside=%d" % (
            os.path.basename(stem), svg_marks(svg, fr),
            png_coloured(stem + ".png", fr), data, marks, outside))


if __name__ == "__main__":
    main(sys.argv[1:])
