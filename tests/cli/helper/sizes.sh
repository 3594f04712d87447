#!/bin/sh
# sizes.sh - the house size rule, measured: the functions longer than
# SIZES_FUNC lines (120) and the files longer than SIZES_FILE lines
# (1,200) in the product's C code, and whether they keep the house
# limits: at most SIZES_FUNCS_MAX (0) such functions and
# SIZES_FILES_MAX (0) such files.
#
#   sh tests/cli/helper/sizes.sh [PATH...]
#
# PATHs (folders or .c/.h files) are read relative to the working
# folder; without any, the product code of the tree the working folder
# is: every .c and .h but those under tests/, bench/ and build*/.  A
# function is counted from the '{' that opens it at the start of a line
# to the '}' that closes it at the start of a line, both included (KNF
# puts both there); its name is the last line before it that starts a
# declaration.  Prints one line per function ("function N PATH NAME")
# and per file ("file N PATH"), longest first, then the summary line;
# exits 1 when the limits are not kept, 0 when they are.
lim_func=${SIZES_FUNC:-120}
lim_file=${SIZES_FILE:-1200}
max_funcs=${SIZES_FUNCS_MAX:-0}
max_files=${SIZES_FILES_MAX:-0}

list_sources() {
	if [ $# -eq 0 ]; then
		find . \( -path ./tests -o -path ./bench -o -path './build*' \
		    -o -path ./.git \) -prune -o -type f \
		    \( -name '*.c' -o -name '*.h' \) -print
	else
		find "$@" -type f \( -name '*.c' -o -name '*.h' \) -print
	fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sizes.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
list_sources "$@" | sed 's#^\./##' | LC_ALL=C sort > "$tmp/files"
nsrc=$(wc -l < "$tmp/files")
: > "$tmp/funcs"
: > "$tmp/big"
while IFS= read -r f; do
	n=$(wc -l < "$f")
	[ "$n" -gt "$lim_file" ] && echo "file $n $f" >> "$tmp/big"
	case "$f" in *.c) ;; *) continue ;; esac
	awk -v f="$f" -v lim="$lim_func" '
	/^[A-Za-z_].*\(/ { sig = $0 }
	/^\{/ { start = NR; name = sig }
	/^\}/ {
		if (start) {
			n = NR - start + 1
			if (n > lim) {
				sub(/\(.*/, "", name)
				k = split(name, a, /[ *]+/)
				print "function", n, f, a[k]
			}
			start = 0
		}
	}' "$f" >> "$tmp/funcs"
done < "$tmp/files"
sort -k2,2nr -k3,3 "$tmp/funcs"
sort -k2,2nr -k3,3 "$tmp/big"
nf=$(wc -l < "$tmp/funcs")
nb=$(wc -l < "$tmp/big")
nf=$((nf + 0)) nb=$((nb + 0)) nsrc=$((nsrc + 0))
verdict=kept
[ "$nf" -le "$max_funcs" ] && [ "$nb" -le "$max_files" ] || verdict="NOT kept"
echo "sizes: $nsrc files read; $nf functions over $lim_func lines (at most" \
    "$max_funcs), $nb files over $lim_file lines (at most $max_files):" \
    "limits $verdict"
[ "$verdict" = kept ]
