#!/bin/sh
# release/check.sh - what CI checks of a release, on this machine as
# root (it installs and removes packages):
#
#  1. `make dist` twice, into two folders: every file byte-identical;
#  2. each static pathprobe: --version, then the loopback tests
#     (t4000-t4005, t4007) with it as the probe under test, the aarch64
#     one under qemu-aarch64-static (without t4005's signals);
#  3. the Debian packages built from the tarball (not the clone), so a
#     file missing from the tarball fails here: dpkg-buildpackage -b
#     runs the test suite (dh_auto_test), then lintian, no errors;
#     every relative link of the README it installs resolves inside
#     the package (release/doc-links.sh: docs/*.md and the rest);
#  4. both packages installed with apt, the installed pathstat ingests
#     the installed samples and renders the report of the sample spec,
#     pathprobe probes loopback;
#  5. both purged: every file they installed is gone.
#
# Usage: release/check.sh [WORKDIR]   (default: build/release-check)
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
work=${1:-$top/build/release-check}
step() { echo "release: $*"; }
die() { echo "release: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "installs packages: run as root"
version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' Makefile)
[ -n "$version" ] || die "no VERSION in the Makefile"
rm -rf "$work"
mkdir -p "$work"

step "1. make dist twice"
make --no-print-directory -s dist B="$work/a" >/dev/null
make --no-print-directory -s dist B="$work/b" >/dev/null
for f in $(cd "$work/a/dist" && ls); do
	cmp -s "$work/a/dist/$f" "$work/b/dist/$f" ||
	    die "$f differs between two builds of one commit"
done
dist=$work/a/dist
(cd "$dist" && sha256sum -c --quiet SHA256SUMS) || die "SHA256SUMS"
step "   same bytes twice: $(cd "$dist" && ls | tr '\n' ' ')"

step "2. static pathprobe"
for arch in x86_64 aarch64; do
	bin=$dist/pathprobe-$version-$arch-linux
	file -b "$bin" | grep -q 'statically linked' ||
	    die "$bin is not statically linked: $(file -b "$bin")"
	run=$work/pathprobe-$arch
	if [ $arch = aarch64 ]; then
		command -v qemu-aarch64-static >/dev/null ||
		    die "qemu-aarch64-static missing (qemu-user-static)"
		printf '#!/bin/sh\nexec qemu-aarch64-static %s "$@"\n' \
		    "$bin" > "$run"
	else
		printf '#!/bin/sh\nexec %s "$@"\n' "$bin" > "$run"
	fi
	chmod +x "$run"
	v=$("$run" --version) || die "$arch pathprobe --version failed"
	[ "$v" = "pathprobe $version" ] || die "$arch --version says '$v'"
	# t4005 (signals) natively only: under qemu-user a SIGHUP ignored
	# on entry was seen to kill the guest once in two runs, qemu's
	# signal emulation rather than pathprobe's
	tests="t4000 t4001 t4002 t4003 t4004 t4007"
	[ $arch = aarch64 ] || tests="$tests t4005"
	for t in $tests; do
		name=$(basename tests/cli/$t-*.sh .sh)
		PATHSTAT_BIN=$top/pathstat PATHPROBE_BIN=$run \
		    sh tests/cli/run-one.sh "$name" "$work/$arch-$t.res" \
		    >/dev/null 2>&1 || true
		last=$(tail -1 "$work/$arch-$t.res")
		case "$last" in
		"ok   "*|"skip "*) ;;
		*) cat "$work/$arch-$t.res"; die "$arch pathprobe: $name" ;;
		esac
	done
	step "   $arch: $v, loopback tests pass:$(echo " $tests" | sed "s/ t/ t/g")"
done

step "3. Debian packages from the tarball"
mkdir -p "$work/deb"
tar -xzf "$dist/pathstat-$version.tar.gz" -C "$work/deb"
(cd "$work/deb/pathstat-$version" &&
    dpkg-buildpackage -us -uc -b > "$work/deb/build.log" 2>&1) ||
    { tail -60 "$work/deb/build.log"; die "dpkg-buildpackage"; }
grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/deb/build.log" |
    tail -1 | sed 's/^/release:    dh_auto_test: /'
changes=$work/deb/pathstat_$version-1_$(dpkg --print-architecture).changes
# lintian leaves an ELF cache (mldbm-elf-*) in TMPDIR: keep it in ours
mkdir -p "$work/tmp"
TMPDIR="$work/tmp" lintian --fail-on error "$changes" \
    > "$work/deb/lintian.txt" 2>&1 ||
    { cat "$work/deb/lintian.txt"; die "lintian found errors"; }
step "   lintian: $(grep -c '^E:' "$work/deb/lintian.txt" || true) errors," \
    "$(grep -c '^W:' "$work/deb/lintian.txt" || true) warnings"

# the README installed in /usr/share/doc/pathstat: its links to
# docs/*.md, NEWS, the samples... resolve there
dpkg-deb -x "$work/deb/pathstat_${version}-1_$(dpkg --print-architecture).deb" \
    "$work/deb/root"
sh release/doc-links.sh "$work/deb/root" > "$work/deb/links.txt" ||
    { cat "$work/deb/links.txt"; die "README's links in the package"; }
step "   $(sed 's/^doc-links: //' "$work/deb/links.txt")"

step "4. install, report from the installed files"
arch=$(dpkg --print-architecture)
for p in pathstat pathprobe; do
	! dpkg -s "$p" >/dev/null 2>&1 || die "$p is installed already"
done
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "$work/deb/pathstat_${version}-1_$arch.deb" \
    "$work/deb/pathprobe_${version}-1_$arch.deb" > "$work/apt.log" 2>&1 ||
    { cat "$work/apt.log"; die "apt install"; }
files=$(dpkg -L pathstat pathprobe | sort -u)
u=$work/user
mkdir -p "$u"
(
	cd "$u"
	/usr/bin/pathstat --version | grep -q "^pathstat $version (schema " ||
	    die "installed pathstat --version"
	/usr/bin/pathstat ingest --quiet --db demo.db \
	    /usr/share/pathstat/samples/tree || die "ingest of the samples"
	/usr/bin/pathstat report --db demo.db \
	    --spec /usr/share/pathstat/samples/article.json --out demo \
	    --html > report.log 2>&1 || { cat report.log; die "report"; }
	[ -s demo/index.md ] && [ -s demo/index.html ] || die "no index"
	/usr/bin/pathstat report --db demo.db --out auto > auto.log 2>&1 ||
	    { cat auto.log; die "report without a spec"; }
	man -w pathstat pathstat-ingest pathstat-runs pathstat-keys \
	    pathstat-analyze pathstat-check pathstat-report pathstat-export \
	    pathstat-plan pathprobe pathstat-collect >/dev/null ||
	    die "manual pages"
)
python3 -c 'import socket,sys
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(16)
print(s.getsockname()[1]); sys.stdout.flush()
import time; time.sleep(20)' > "$work/port" &
lp=$!
sleep 1
/usr/bin/pathprobe -q -n 3 -i 0.05 -t 0.4 127.0.0.1 "$(cat "$work/port")" \
    > "$work/probe.csv" || die "installed pathprobe on loopback"
kill $lp 2>/dev/null || true
[ "$(grep -c ',ok$' "$work/probe.csv")" = 3 ] ||
    { cat "$work/probe.csv"; die "3 ok probes"; }
step "   installed: report of the samples, pathprobe on loopback"

step "5. purge"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq pathstat pathprobe \
    > "$work/purge.log" 2>&1 || { cat "$work/purge.log"; die "purge"; }
left=""
for f in $files; do
	case "$f" in /.|/usr|/usr/bin|/usr/share|/usr/share/doc|/usr/share/man|\
	    /usr/share/man/man1|/usr/share/bash-completion|\
	    /usr/share/bash-completion/completions) continue ;; esac
	[ ! -e "$f" ] || left="$left $f"
done
[ -z "$left" ] || die "left behind after purge:$left"
step "   nothing left behind"
rm -rf "$work"
echo "release: all passed"
