#!/usr/bin/env python3
"""links.py - every relative link in the given Markdown files leads to a
file of the tree, and every #anchor to a heading of its page (GitHub's
rule: lower case, punctuation dropped, spaces to hyphens).  Links inside
code blocks and `code` spans are text, not links.  Prints one line per
broken link; exit 1 if any.  Usage: links.py FILE..."""
import os
import re
import sys


def slug(h):
    h = h.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')


def anchors(path):
    out, fence = set(), False
    for l in open(path, encoding='utf-8'):
        if l.lstrip().startswith('```'):
            fence = not fence
        if not fence:
            m = re.match(r'^#+ (.*)', l)
            if m:
                s = slug(re.sub(r'[`*]', '', m.group(1)))
                out.add(s)
    return out


bad = 0
for f in sys.argv[1:]:
    fence = False
    for n, l in enumerate(open(f, encoding='utf-8'), 1):
        if l.lstrip().startswith('```'):
            fence = not fence
        if fence:
            continue
        for t in re.findall(r'\]\(([^)\s]+)\)', re.sub(r'`[^`]*`', '', l)):
            if re.match(r'^[a-z]+:', t):
                continue
            p, _, a = t.partition('#')
            target = os.path.normpath(os.path.join(os.path.dirname(f), p)) if p else f
            if not os.path.exists(target):
                print(f'{f}:{n}: no such file: {t}')
                bad += 1
                continue
            if a and target.endswith('.md') and a not in anchors(target):
                print(f'{f}:{n}: no such heading: {t}')
                bad += 1
sys.exit(1 if bad else 0)
