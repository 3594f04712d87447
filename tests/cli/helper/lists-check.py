#!/usr/bin/env python3
"""lists-check.py TOP LISTS: hold the names the docs and the completion
keep by hand to pathstat's registries, both ways.

LISTS is a folder of what the program says (tests/cli/t0070 writes it
from `pathstat --list WHAT` and each command's --list-options and
--help): commands, verbs, metrics, checks, kinds, one name a line, and
opts.CMD, the options of CMD.  TOP is a source tree: its completion
(completion/pathstat.bash), its manual pages (the union of
docs/pathstat*.1, in docs/ or a folder of it: the one page, or one page
per command) and its prose (the union of README.md and the Markdown
under docs/).

Prints one line per name missing or unknown, "WHERE: WHAT", and exits 1
when there is one; 0 and nothing when the lists agree.
"""
import glob
import os
import re
import sys

# Options the manual names that are not pathstat's: the flags of the
# tools whose output pathstat reads, named where the manual says which
# output to give it.
FOREIGN = {
    "-J": "iperf3 -J (JSON output)",
    "--json-stream": "iperf3 --json-stream",
    "--db-url": "oha --db-url (its SQLite output)",
    "-b": "iperf3 -b (target bitrate)",
}
GLOBAL = {"--version", "-V", "--help", "-h", "--list"}


def read_list(lists, name):
    path = os.path.join(lists, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [w.strip() for w in f if w.strip()]


def completion_words(text, var):
    """The words of a completion variable: _pathstat_x="a b
    c"."""
    m = re.search(r'^%s="([^"]*)"' % re.escape(var), text, re.M)
    return None if m is None else m.group(1).split()


def word_in(word, text):
    return re.search(r'(?<![A-Za-z0-9_-])%s(?![A-Za-z0-9_-])'
                     % re.escape(word), text) is not None


def md_code(text):
    """The code of Markdown text: each fenced block's logical lines
    (backslash continuations joined) and each inline code span."""
    out = []
    fence = None
    cur = ""
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            fence = None if fence else m.group(1)
            continue
        if fence:
            if line.rstrip().endswith("\\"):
                cur += line.rstrip()[:-1] + " "
                continue
            out.append(cur + line)
            cur = ""
            continue
        out.extend(re.findall(r"`([^`\n]+)`", line))
    return out


def pathstat_calls(code):
    """(command, [words]) for each `pathstat CMD ...` in a line of
    code, up to the end of that shell command."""
    for m in re.finditer(r"(?:^|[\s$/(])pathstat\s+([^|;&)<>]*)", code):
        words = m.group(1).split()
        if words:
            yield words[0], words[1:]


def check(top, lists):
    bad = []
    cmds = read_list(lists, "commands")
    verbs = read_list(lists, "verbs")
    metrics = read_list(lists, "metrics")
    checks = read_list(lists, "checks")
    opts = {c: set(read_list(lists, "opts." + c)) for c in cmds}
    allopts = set(GLOBAL)
    for c in cmds:
        allopts |= opts[c]

    # the completion: its lists are the registries, both ways
    path = os.path.join(top, "completion/pathstat.bash")
    with open(path) as f:
        comp = f.read()
    for var, want in (("_pathstat_commands", cmds + ["help"]),
                      ("_pathstat_verbs", verbs),
                      ("_pathstat_metrics", metrics),
                      ("_pathstat_checks", checks)):
        got = completion_words(comp, var)
        if got is None:
            bad.append("completion: no %s" % var)
            continue
        for w in sorted(set(want) - set(got)):
            bad.append("completion: %s lacks %s" % (var, w))
        for w in sorted(set(got) - set(want)):
            bad.append("completion: %s has %s, which pathstat has not"
                       % (var, w))

    # the manual pages: one page or one per command, as a union
    pages = sorted(glob.glob(os.path.join(top, "docs/**/pathstat*.1"),
                             recursive=True))
    texts = {}
    for p in pages:
        with open(p) as f:
            texts[os.path.basename(p)] = f.read()
    man = "\n".join(texts.values())
    if not man:
        bad.append("manual: no docs/pathstat*.1")
    for c in cmds:
        if ("pathstat-%s.1" % c) not in texts and \
                not re.search(r"^\.(Ss|Sh|Cm) %s$" % re.escape(c), man, re.M):
            bad.append("manual: no command %s" % c)
        page = texts.get("pathstat-%s.1" % c, man)
        for o in sorted(opts[c]):
            if o in ("--help", "-h"):
                continue
            if not re.search(r"Fl %s(\s|$)" % re.escape(o[1:]), page):
                bad.append("manual: no %s option %s" % (c, o))
    for v in verbs:
        if not re.search(r"^\.It Cm %s(\s|$)" % re.escape(v), man, re.M):
            bad.append("manual: no analyze verb %s" % v)
    for w in metrics:
        if not word_in(w, man):
            bad.append("manual: no metric %s" % w)
    for w in checks:
        if not word_in(w, man):
            bad.append("manual: no check %s" % w)
    for o in sorted(set(re.findall(r"Fl (-?[A-Za-z][A-Za-z0-9-]*)", man))):
        o = "-" + o
        if o not in allopts and o not in FOREIGN:
            bad.append("manual: %s is no option of pathstat's" % o)

    # the prose: README.md and docs/*.md as a union
    mds = [os.path.join(top, "README.md")] + \
        sorted(glob.glob(os.path.join(top, "docs/**/*.md"), recursive=True))
    prose = {}
    for p in mds:
        if os.path.exists(p):
            with open(p) as f:
                prose[os.path.relpath(p, top)] = f.read()
    allmd = "\n".join(prose.values())
    for kind, names in (("command", cmds), ("analyze verb", verbs),
                        ("metric", metrics), ("check", checks)):
        for w in names:
            if not word_in(w, allmd):
                bad.append("README and docs/: no %s %s" % (kind, w))
    for name, text in prose.items():
        for code in md_code(text):
            for c, words in pathstat_calls(code):
                if c.startswith("-") or c == "help":
                    continue
                if not re.fullmatch(r"[a-z][a-z-]*", c):
                    continue	# a placeholder: pathstat <command>
                if c not in cmds:
                    bad.append("%s: pathstat %s: no such command" % (name, c))
                    continue
                if c == "analyze" and words and \
                        re.fullmatch(r"[a-z]+", words[0]) and \
                        words[0] not in verbs:
                    bad.append("%s: pathstat analyze %s: no such verb"
                               % (name, words[0]))
                for i, w in enumerate(words):
                    w = w.strip("[]")	# usage brackets: [--spec FILE]
                    o = w.split("=", 1)[0]
                    if re.fullmatch(r"--?[a-z][a-z-]*", o) and \
                            o not in opts[c]:
                        bad.append("%s: pathstat %s %s: no such option"
                                   % (name, c, o))
                    if o == "--metric":
                        val = w.split("=", 1)[1] if "=" in w else \
                            (words[i + 1] if i + 1 < len(words) else "")
                        if re.fullmatch(r"[a-z][a-z0-9_]*", val) and \
                                val not in metrics:
                            bad.append("%s: --metric %s: no such metric"
                                       % (name, val))
    return bad


def main():
    bad = check(sys.argv[1], sys.argv[2])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
