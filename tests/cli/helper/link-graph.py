#!/usr/bin/env python3
"""Link-level dependency graph of pathstat's object files.

Headers hide who really calls whom; the object files do not. For every
object, `nm` lists the symbols it defines (T/D/B/R...) and the ones it
needs (U). An edge a -> b means a.o uses a symbol b.o defines.

  link-graph.py files  DIR         graph of DIR/*.o (one folder)
  link-graph.py folders BUILD F... graph of the folders BUILD/F/*.o

Prints the edges, then every strongly connected component of more than
one node ("cycle: a b c"). With --allow "a b" (repeatable) a component
equal to that set is reported as "allowed:" instead. Exit 1 when any
other cycle exists, 2 on usage or nm errors, 0 otherwise.
"""
import os
import subprocess
import sys


def symbols(obj):
    """(defined, undefined) symbol sets of one object file."""
    out = subprocess.run(["nm", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undef = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undef.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRGSVW":
            defined.add(parts[2])
    return defined, undef


def graph(groups):
    """groups: name -> list of .o; returns name -> set of names it uses."""
    owner = {}
    needs = {}
    for name, objs in groups.items():
        needs[name] = set()
        for o in objs:
            d, u = symbols(o)
            for s in d:
                owner[s] = name
            needs[name] |= u
    g = {}
    for name, u in needs.items():
        g[name] = {owner[s] for s in u if s in owner and owner[s] != name}
    return g


def sccs(g):
    """Tarjan's strongly connected components, each a sorted list."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def main(argv):
    allow = []
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--allow" and i + 1 < len(argv):
            allow.append(frozenset(argv[i + 1].split()))
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) >= 2 and args[0] == "files":
        d = args[1]
        objs = sorted(f for f in os.listdir(d) if f.endswith(".o"))
        groups = {f[:-2] + ".c": [os.path.join(d, f)] for f in objs}
    elif len(args) >= 3 and args[0] == "folders":
        groups = {}
        for f in args[2:]:
            d = os.path.join(args[1], f)
            groups[f] = sorted(os.path.join(d, o) for o in os.listdir(d)
                               if o.endswith(".o"))
    else:
        sys.stderr.write(__doc__)
        return 2
    if not any(groups.values()):
        sys.stderr.write("link-graph: no object files\n")
        return 2
    g = graph(groups)
    for a in sorted(g):
        print("%s -> %s" % (a, " ".join(sorted(g[a])) or "-"))
    bad = 0
    for comp in sccs(g):
        if len(comp) < 2:
            continue
        if frozenset(comp) in allow:
            print("allowed: " + " ".join(comp))
        else:
            print("cycle: " + " ".join(comp))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("link-graph: %s\n" % e)
        sys.exit(2)
