#!/bin/sh
# release/dist.sh - what `make dist` writes into OUTDIR (build/dist):
#
#   pathstat-VERSION.tar.gz              the source of HEAD
#   pathprobe-VERSION-x86_64-linux       static pathprobe, musl libc
#   pathprobe-VERSION-aarch64-linux      the same for Graviton clients
#   SHA256SUMS                           of the three
#
# The same commit gives the same bytes: the tarball is `git archive`
# (names in the tree's sorted order, every mtime the commit's time,
# owner and group 0/root) compressed by gzip -n (no name, no time);
# the probes are built without debug information and with the build
# folder mapped away, so where the clone sits does not show.
#
# Usage: dist.sh VERSION OUTDIR [CFLAGS...]
set -eu
cd "$(dirname "$0")/.."
version=$1 out=$2
name=pathstat-$version

die() { echo "make dist: $*" >&2; exit 1; }

git rev-parse --verify -q HEAD >/dev/null 2>&1 ||
    die "the source tarball is made from git's HEAD: run it in a clone"
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	echo "make dist: note: the tarball holds HEAD" \
	    "($(git rev-parse --short HEAD)), not your uncommitted changes" >&2
fi
mkdir -p "$out"
git archive --format=tar --prefix="$name/" HEAD | gzip -n -9 \
    > "$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
echo "dist: $out/$name.tar.gz"

# Static pathprobe: musl's specs for gcc (Debian: musl-tools for
# x86_64, musl-dev:arm64 with gcc-aarch64-linux-gnu for aarch64).
# pathprobe resolves its host with getaddrinfo, which a static glibc
# cannot do without the NSS modules of its own version; musl reads
# /etc/hosts and DNS itself.
src="$(ls collect/*.c) common/parse.c"
probes=""
for arch in x86_64 aarch64; do
	case $arch in
	x86_64) cc=x86_64-linux-gnu-gcc pkgs="musl-tools" ;;
	aarch64) cc=aarch64-linux-gnu-gcc
		pkgs="gcc-aarch64-linux-gnu musl-dev:arm64 (after dpkg --add-architecture arm64)" ;;
	esac
	specs=/usr/lib/$arch-linux-musl/musl-gcc.specs
	command -v "$cc" >/dev/null 2>&1 && [ -f "$specs" ] ||
	    die "no $arch musl toolchain ($cc, $specs): install $pkgs"
	bin=pathprobe-$version-$arch-linux
	# shellcheck disable=SC2086
	"$cc" -specs "$specs" -std=c11 -O2 -static -s \
	    -ffile-prefix-map="$(pwd)"=. -I. \
	    -DPATHSTAT_VERSION="\"$version\"" -o "$out/$bin" $src -lm
	probes="$probes $bin"
	echo "dist: $out/$bin"
done
# shellcheck disable=SC2086
(cd "$out" && sha256sum "$name.tar.gz" $probes > SHA256SUMS)
echo "dist: $out/SHA256SUMS"
