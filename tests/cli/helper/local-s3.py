#!/usr/bin/env python3
"""local-s3.py - stands in for `aws s3 sync` over a local folder, for the
tests that run the README's commands as written (t7703).  s3://BUCKET/KEY
is the folder $LOCAL_S3/BUCKET/KEY; nothing touches the network.

  local-s3.py s3 sync SRC DST [--delete] [--exclude P] [--include P]...
                              [--only-show-errors] [--quiet]

As the AWS CLI's sync does: a file is copied when DST lacks it or holds
other bytes; every file passes the filters by default, and each
--exclude/--include in turn decides for the paths it matches (the last
match wins; patterns are shell globs on the path below SRC, or below DST
for --delete, where '*' also matches '/'); --delete removes the files of
DST that SRC lacks, only those the filters pass.  Prints
"upload: ..." / "delete: ..." lines as the CLI does.  Anything else
("aws athena ...") is a usage error, exit 2.
"""
import fnmatch
import os
import shutil
import sys


def where(arg):
    """A local folder for a local path or an s3:// URL."""
    if arg.startswith("s3://"):
        root = os.environ.get("LOCAL_S3")
        if not root:
            sys.exit("local-s3: LOCAL_S3 is not set")
        return os.path.join(root, arg[len("s3://"):])
    return arg


def files(top):
    out = {}
    for d, _, names in os.walk(top):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, top).replace(os.sep, "/")] = p
    return out


def passes(rel, filters):
    keep = True
    for kind, pat in filters:
        if fnmatch.fnmatchcase(rel, pat):
            keep = kind == "--include"
    return keep


def same(a, b):
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


def main():
    args = sys.argv[1:]
    if args[:2] != ["s3", "sync"] or len(args) < 4:
        print("local-s3: only `aws s3 sync SRC DST [options]`: %s" %
              " ".join(args), file=sys.stderr)
        return 2
    src_arg, dst_arg = args[2], args[3]
    delete, filters = False, []
    rest = args[4:]
    while rest:
        a = rest.pop(0)
        if a == "--delete":
            delete = True
        elif a in ("--exclude", "--include") and rest:
            filters.append((a, rest.pop(0)))
        elif a in ("--only-show-errors", "--quiet", "--no-progress"):
            pass
        else:
            print("local-s3: unknown option %s" % a, file=sys.stderr)
            return 2
    src, dst = where(src_arg), where(dst_arg)
    if not os.path.isdir(src):
        # the CLI syncs nothing from a prefix that has no object yet
        if src_arg.startswith("s3://"):
            return 0
        print("local-s3: the user-provided path %s does not exist" % src_arg,
              file=sys.stderr)
        return 255
    have = files(src)
    there = files(dst) if os.path.isdir(dst) else {}
    for rel, p in sorted(have.items()):
        if not passes(rel, filters):
            continue
        q = os.path.join(dst, rel)
        if rel in there and same(p, q):
            continue
        os.makedirs(os.path.dirname(q), exist_ok=True)
        shutil.copyfile(p, q)
        print("upload: %s to %s" % (os.path.join(src_arg, rel),
                                     dst_arg.rstrip("/") + "/" + rel))
    if delete:
        for rel, q in sorted(there.items()):
            if rel not in have and passes(rel, filters):
                os.remove(q)
                print("delete: %s" % (dst_arg.rstrip("/") + "/" + rel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
