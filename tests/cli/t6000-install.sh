# t6000: make install into a temporary DESTDIR puts the three programs,
# every manual page and the bash completion where PREFIX says, and the
# installed programs run from there; make uninstall removes exactly
# those files.  The completion, run under bash as bash would run it,
# offers each command's options as its --help lists them, analyze's
# verbs, the metrics, the check IDs, and the database's own keys and
# values for --where.

# Install the binaries under test (make -o all: build nothing, so an
# ASan run installs its own build), from the source tree, into dest/.
inst() { # TARGET ARGS...
	t=$1
	shift
	make --no-print-directory -s -C "$TOP" -o all OUT="$(dirname "$PS")" \
	    "$@" "$t"
}
run inst install DESTDIR="$TMP/dest" PREFIX=/usr
expect_code 0 "make install DESTDIR=... PREFIX=/usr ($ERR)"
mans=$(cd "$TOP" && ls docs/*.1 collect/*.1 | sed 's|.*/|usr/share/man/man1/|' | sort)
want=$(printf '%s\n' usr/bin/pathprobe usr/bin/pathstat usr/bin/pathstat-collect \
    usr/share/bash-completion/completions/pathstat $mans | sort)
got=$(cd dest && find . -type f | sed 's|^\./||' | sort)
ok '[ "$got" = "$want" ]' "exactly the programs, the manual pages and the completion ($(echo $got))"
ok '[ "$(cd dest/usr/bin && stat -c %a pathstat pathprobe pathstat-collect | sort -u)" = 755 ]' \
    "programs are mode 755"
ok '[ "$(cd dest/usr/share && stat -c %a man/man1/*.1 bash-completion/completions/pathstat | sort -u)" = 644 ]' \
    "manual pages and completion are mode 644"
ok 'cmp -s "$PS" dest/usr/bin/pathstat && cmp -s "$PROBE" dest/usr/bin/pathprobe' \
    "the binaries installed are the ones built"
for m in dest/usr/share/man/man1/*.1; do
	ok "grep -q '^\\.Dd\\|^\\.TH' '$m'" "$(basename "$m") is a manual page"
done
ok '[ -e dest/usr/share/man/man1/pathstat.1 ] && [ -e dest/usr/share/man/man1/pathprobe.1 ]' \
    "pathstat(1) and pathprobe(1) are among them"

# the installed programs run from where they are
B="$TMP/dest/usr/bin"
run "$B/pathstat" --version
expect_code 0 "installed pathstat --version"
expect_out_has "pathstat " "installed pathstat names itself"
run "$B/pathprobe" -V
expect_code 0 "installed pathprobe -V"
mkdir -p tree/A/trial1
echo '{"path": "A", "trial": 1, "region": "r1"}' > tree/A/trial1/meta.json
printf '%s\n' "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z" \
    "seq,unix_ns,connect_ms,result" "0,1787878800000000000,0.25,ok" \
    "1,1787878800200000000,,timeout" > tree/A/trial1/probe.csv
run "$B/pathstat" ingest --db k.db tree
expect_code 0 "installed pathstat ingests"
run "$B/pathstat" keys --db k.db --format csv
expect_out_has "region,tag,r1,1" "installed pathstat keys"
run "$B/pathstat-collect" --version
expect_code 0 "installed pathstat-collect --version"
run env PATH="$B:/usr/bin:/bin" "$B/pathstat-collect" --path A --host 10.0.0.5 \
    --no-iperf3 --no-imds --dry-run --out res
expect_code 0 "installed pathstat-collect --dry-run"
expect_out_has "$B/pathprobe -n 300" "pathstat-collect finds the pathprobe installed beside it"

# PREFIX defaults to /usr/local; uninstall removes exactly what install put
run inst install DESTDIR="$TMP/dest2"
expect_code 0 "make install DESTDIR=... (default PREFIX)"
ok '[ -x dest2/usr/local/bin/pathstat ] && [ -f dest2/usr/local/share/bash-completion/completions/pathstat ] && [ -f dest2/usr/local/share/man/man1/pathstat.1 ]' \
    "default PREFIX is /usr/local"
echo keep > dest/usr/bin/other
echo keep > dest/usr/share/man/man1/other.1
run inst uninstall DESTDIR="$TMP/dest" PREFIX=/usr
expect_code 0 "make uninstall"
ok '[ "$(cd dest && find . -type f | sort | tr "\n" " ")" = "./usr/bin/other ./usr/share/man/man1/other.1 " ]' \
    "uninstall removed every installed file and nothing else"
run inst uninstall DESTDIR="$TMP/dest" PREFIX=/usr
expect_code 0 "a second uninstall is no error"

# --- the bash completion ------------------------------------------------
. "$TOP/tests/cli/helper/help-options.sh"
command -v bash >/dev/null 2>&1 || { echo "# skip: no bash for the completion"; test_done; }
COMP="$TMP/dest2/usr/local/share/bash-completion/completions/pathstat"
B="$TMP/dest2/usr/local/bin"
# comp LINE: what the completion offers at the end of LINE, one per line,
# as bash would call it (COMP_LINE, COMP_POINT, COMP_WORDS)
comp() {
	bash -c '. "$1" || exit 1
	COMP_LINE=$2
	COMP_POINT=${#COMP_LINE}
	read -r -a COMP_WORDS <<<"$COMP_LINE"
	[[ $COMP_LINE =~ [[:space:]]$ ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	complete -p pathstat >/dev/null || exit 1
	_pathstat
	printf "%s\n" "${COMPREPLY[@]}"' sh "$COMP" "$1" | sed '/^$/d' | sort
}
ok '[ "$(bash -c ". \"$COMP\"; complete -p pathstat")" = "complete -F _pathstat pathstat" ]' \
    "the file registers _pathstat for pathstat"
cmds=$(help_commands "$B/pathstat" | { cat; echo help; } | sort)
ok '[ "$(comp "pathstat ")" = "$cmds" ]' "commands: those pathstat --help lists, and help"
ok '[ "$(comp "pathstat ke")" = keys ]' "a command from its first letters"
ok '[ "$(comp "pathstat help ")" = "$cmds" ]' "pathstat help <command>"
for c in ingest runs keys check report export; do
	got=$(comp "pathstat $c -" | tr '\n' ' ')
	want=$(help_options "$B/pathstat" "$c" | tr '\n' ' ')
	ok '[ "$got" = "$want" ]' "$c: the options its --help lists ($got)"
done
got=$(comp "pathstat analyze percentiles -" | { cat; printf '%s\n' --across --attempts --baseline --threshold --target; } | sort -u | tr '\n' ' ')
want=$(help_options "$B/pathstat" analyze | tr '\n' ' ')
ok '[ "$got" = "$want" ]' "analyze: its options, plus the verbs' own ($got)"
ok '[ "$(comp "pathstat analyze ratio --ac")" = --across ]' "ratio: --across"
ok '[ "$(comp "pathstat analyze delta --at")" = --attempts ]' "delta: --attempts"
ok '[ "$(comp "pathstat analyze delta --attempts a")" = all ]' "--attempts: completed or all"
ok '[ -z "$(comp "pathstat analyze percentiles --a")" ]' "percentiles: no --across"
verbs=$("$B/pathstat" analyze --help | awk '/^verbs:$/ { on = 1; next } on && NF { print $1 } on && !NF { exit }' | sort)
ok '[ "$(comp "pathstat analyze ")" = "$verbs" ]' "analyze: the verbs its --help lists"
metrics=$("$B/pathstat" analyze --help | awk '
	/^ +--metric / { on = 1 } on && /^ +--/ && !/^ +--metric / { exit }
	on' | tr ', ' '\n\n' | grep -x '[a-z][a-z0-9_]*' | sort)
ok '[ -n "$metrics" ] && [ "$(comp "pathstat analyze percentiles --metric ")" = "$metrics" ]' \
    "--metric: the metrics analyze --help lists ($(echo $metrics))"
ok '[ "$(comp "pathstat analyze percentiles --metric=th")" = throughput_bps ]' "--metric=th"
ok '[ "$(comp "pathstat runs --format " | tr "\n" " ")" = "csv json md text " ]' "--format: text, md, csv, json"
ok '[ "$(comp "pathstat analyze percentiles --unit " | sort | tr "\n" " ")" = "$(printf "%s\n" auto bit/s kbit/s Mbit/s Gbit/s | sort | tr "\n" " ")" ]' "--unit: the units"
ok '[ "$(comp "pathstat analyze delta --quantile " | tr "\n" " ")" = "hd oha type7 " ]' "--quantile"
checks=$("$B/pathstat" check --help | awk '/^checks:$/ { on = 1; next } on && /^   [a-z]/ { print $1 } on && !NF { exit }' | sort)
ok '[ "$(comp "pathstat check --only ")" = "$checks" ]' "--only: the checks check --help lists"
ok '[ "$(comp "pathstat check --only few-samples,hi")" = "few-samples,hidden-failures" ]' \
    "--only: after a comma"

# the database's keys and values, with the --db on the line or $PATHSTAT_DB
mk() { # DIR PATH TRIAL VALUE
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": $3, \"instance_type\": \"c7g.xlarge\"}" > "$1/meta.json"
	printf '%s\n' "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=1 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z" \
	    "seq,unix_ns,connect_ms,result" "0,1787878800000000000,$4,ok" > "$1/probe.csv"
}
mk t2/a A 1 0.21 && mk t2/g G 1 0.51 && mk t2/gp "G'" 2 0.41
run "$B/pathstat" ingest --db c.db t2
expect_code 0 "a small database"
expect_err_has "3 stored" "of three runs"
ok '[ "$(comp "$B/pathstat runs --db c.db --where " | tr "\n" " ")" = "day= hour= instance_type= month= path= tool= trial= week= " ]' \
    "--where: the database's keys, each with '='"
ok '[ "$(comp "$B/pathstat runs --db c.db --where pa")" = "path=" ]' "--where pa: path="
q=$(printf '%s' "G\\'")	# G' as the shell must read it: G\'
ok '[ "$(comp "$B/pathstat runs --db c.db --where path=")" = "$(printf "A\nG\n%s" "$q")" ]' \
    "--where path=: the paths, G' quoted; only what follows '=' is replaced"
ok '[ "$(comp "$B/pathstat runs --db c.db --where path=A,G")" = "$(printf "A,G\nA,%s" "$q")" ]' \
    "--where path=A,G: alternatives"
ok '[ "$(comp "$B/pathstat runs --db c.db --where=trial=")" = "$(printf "1\n2")" ]' "--where=trial="
ok '[ "$(PATHSTAT_DB=c.db comp "$B/pathstat keys --where instance_type=")" = c7g.xlarge ]' \
    "\$PATHSTAT_DB when no --db"
ok '[ -z "$(comp "$B/pathstat runs --db missing.db --where ")" ]' "no database: nothing offered"
ok '[ "$(comp "$B/pathstat analyze percentiles --db c.db --by instance_type,t" | tr "\n" " ")" = "instance_type,tool instance_type,trial " ]' \
    "--by: keys after a comma"
ok '[ "$(comp "$B/pathstat analyze compare --db c.db --by path --baseline ")" = "$(printf "A\nG\n%s" "$q")" ]' \
    "compare --baseline: the values of the --by key"
mkdir -p dirs/sub
ok '[ "$(comp "pathstat report --spec x --out dirs/s")" = dirs/sub ]' "--out: folders"
ok '[ "$(comp "pathstat ingest t")" = "$(printf "t2\ntree")" ]' "ingest: files and folders"
test_done
