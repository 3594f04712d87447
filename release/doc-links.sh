#!/bin/sh
# release/doc-links.sh ROOT - every relative link of the README that
# the pathstat package installs (ROOT/usr/share/doc/pathstat/README.md,
# ROOT: the package's files, dpkg-deb -x) resolves to a file or folder
# of the package: README points at docs/*.md, docs/research/, NEWS,
# LICENSE, the samples, and a reader of /usr/share/doc/pathstat follows
# them there.  A link resolves when the path exists under ROOT, symbolic
# links followed, and stays inside ROOT.  Links with a scheme (https:,
# mailto:) and anchors within README (#...) are not checked.  Prints
# each link that does not resolve and exits 1 if any, else prints the
# count and exits 0.  release/check.sh runs it on the built package.
set -eu
root=$(realpath -e "${1:?usage: doc-links.sh ROOT}")
doc=$root/usr/share/doc/pathstat
readme=$doc/README.md
[ -f "$readme" ] || {
	echo "doc-links: no $readme (compressed, or not installed?)"
	exit 1
}
n=0
bad=0
# "[text](target)" and "[text](target "title")": the target, its
# anchor dropped
for l in $(grep -o '](\([^) ]*\)' "$readme" | sed 's/^](//; s/#.*//' |
    sort -u); do
	case "$l" in ''|*:*|/*) continue ;; esac
	n=$((n + 1))
	t=$(realpath -e "$doc/$l" 2>/dev/null) || t=""
	case "$t" in
	"$root"/*) ;;
	"") echo "doc-links: $l: not in the package"; bad=1 ;;
	*) echo "doc-links: $l: leads out of the package ($t)"; bad=1 ;;
	esac
done
[ "$bad" = 0 ] || exit 1
echo "doc-links: README's $n relative links resolve in the package"
