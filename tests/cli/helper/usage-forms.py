"""usage-forms.py - read each command's usage lines from --help and say
what to run to check them: one line per run, "WANT<TAB>ARGS" (WANT is
"ok": not a usage error, or "usage": exit 2), ARGS the command and its
arguments joined by tabs.  A form's required items alone must run (every
bracketed one is optional); a form less one required item must be a
usage error, unless what is left is another form's required set.
(analyze's lines per verb, "pathstat analyze compare ...", add to its
first line and are not forms of their own.)  Placeholders become values: DIR a fresh folder, PATH... the sample tree,
M a metric, <verb> a verb, a|b|c its first choice, URI an s3:// one.
Usage: usage-forms.py PATHSTAT TREE
"""
import re
import subprocess
import sys

ps, tree = sys.argv[1], sys.argv[2]
VALUES = {"M": "throughput_bps", "<verb>": "percentiles", "PATH...": tree,
          "S": "p50", "W%": "10%", "X%": "10%",
          "URI": "s3://bucket/prefix"}


def run(*args):
    return subprocess.run([ps, *args], capture_output=True, text=True).stdout


def commands():
    names = []
    for line in run("--help").splitlines():
        m = re.match(r"^   ([a-z]+)  ", line)
        if m:
            names.append(m.group(1))
    return names


def forms(cmd):
    """Each usage form's words, continuation lines joined."""
    out, cur = [], None
    for line in run(cmd, "--help").splitlines():
        m = re.match(r"^(usage|   or): pathstat " + cmd + r"\b(.*)$", line)
        if m:
            cur = m.group(2)
            out.append(cur)
        elif cur is not None and line.startswith(" ") and line.strip() \
                and not line.strip().startswith("pathstat "):
            out[-1] += " " + line.strip()
        else:
            cur = None
            if out:
                break
    return out


def required(form):
    """The items outside brackets: [(option or word, value or None)]."""
    depth, flat = 0, ""
    for ch in form:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif depth == 0:
            flat += ch
    words, items = flat.replace("...", "... ").split(), []
    dirs = [0]

    def value(w):
        if w == "DIR":
            dirs[0] += 1
            return "out-%s-%d" % (form_id[0], dirs[0])
        if "|" in w:
            return w.split("|")[0]
        return VALUES.get(w, w.lower())

    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("-"):
            if i + 1 < len(words) and not words[i + 1].startswith("-"):
                items.append((w, value(words[i + 1])))
                i += 2
                continue
            items.append((w, None))
        elif w != "...":
            items.append((w, value(w)))
        i += 1
    return items


def args(cmd, items):
    out = [cmd]
    for opt, val in items:
        if opt.startswith("-"):
            out.append(opt)
            if val is not None:
                out.append(val)
        else:
            out.append(val)
    return out


form_id = [""]
for cmd in commands():
    fs = forms(cmd)
    if not fs:
        print("nousage\t" + cmd)
        continue
    reqs = []
    for n, f in enumerate(fs):
        form_id[0] = "%s%d" % (cmd, n)
        reqs.append(required(f))
    keys = [set(o for o, _ in r) for r in reqs]
    for n, r in enumerate(reqs):
        print("ok\t" + "\t".join(args(cmd, r)))
        for drop in range(len(r)):
            rest = r[:drop] + r[drop + 1:]
            left = set(o for o, _ in rest)
            if any(m != n and k <= left for m, k in enumerate(keys)):
                continue
            print("usage\t" + "\t".join(args(cmd, rest)))
