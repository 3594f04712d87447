# pathstat.bash - bash completion for pathstat(1), installed as
# $(PREFIX)/share/bash-completion/completions/pathstat.
#
# Completes the subcommands, each one's options, analyze's verbs, the
# values of --format, --unit, --metric, --quantile, --pool and check's --only,
# and, from the database itself (`pathstat keys`, with the --db on the
# line, else $PATHSTAT_DB, else ./pathstat.db), the keys and values of
# --where KEY=VALUE, the keys of --by, --across and export's
# --partition-by, the paths of --paths and report's --baseline, the
# values of compare's --baseline, --sql, and runs' --columns (its columns
# and the database's tags); export's --codec and --ddl.  Files and folders
# elsewhere.
# It needs nothing from the bash-completion package.
#
# A command's options come from its option table (common/parseopt.h):
# make install builds them in (completion/gen-options.sh), else the
# program lists them (--list-options).  The lists below are analyze's,
# whose options depend on its verb; they must match its --help:
# tests/cli/t6000 compares them.  The commands, verbs, metrics and checks
# below are the program's (pathstat --list WHAT): tests/cli/t0070 holds
# them to it both ways.

_pathstat_commands="analyze check export help ingest keys plan report runs"
_pathstat_verbs="compare delta mtu percentiles ratio relative trend trials variance"
_pathstat_metrics="connect_ms http_ms throughput_bps jitter_ms loss_pct retransmits
	rps handshake_ms path_mtu http_bps"
_pathstat_checks="burst-cliff run-order instance-cap udp-sender-limited udp-loss
	outlier-trial hidden-failures syn-retransmit busy-client few-samples
	mixed-estimators pooled-groups missing-cells unbalanced-trials"

# _pathstat_optlist CMD: the options CMD's table lists (`pathstat CMD
# --list-options`: "--db=", "--format=text|md|csv|json", "--files", "-q"),
# as make install built them in below, else as the program says; nothing
# for a command whose options are not in a table yet.
_pathstat_optlist()
{
	local v=_pathstat_optlist_$1

	# analyze's options depend on its verb: the lists below say which
	[ "$1" = analyze ] && return 0
	if [ -n "${!v:-}" ]; then
		printf '%s\n' "${!v}"
	else
		"${_pathstat_prog:-pathstat}" "$1" --list-options 2>/dev/null |
		    grep '^-'
	fi
}

# _pathstat_options CMD [VERB]: the options CMD (and analyze's VERB) takes.
_pathstat_options()
{
	if [ -n "${_pathstat_opts:-}" ]; then
		printf '%s\n' "$_pathstat_opts" | sed 's/=.*//'
		return
	fi
	case $1 in
	analyze)
		echo "--db --metric --where --by --stats --quantile --pool" \
		    "--paths --ci --level --seed --unit --format" \
		    "--sql" \
		    "--help -h"
		case ${2:-} in
		delta)		echo "--attempts" ;;
		ratio)		echo "--across --attempts" ;;
		compare)	echo "--baseline --threshold" ;;
		trend)		echo "--threshold" ;;
		variance)	echo "--target" ;;
		'')		echo "--across --attempts --baseline --threshold" \
		    "--target" ;;
		esac
		;;
	esac
}

# Does option $1 take a value (the next word)?  The command's table
# says, else (analyze, whose options depend on the verb) the list below.
_pathstat_takes_value()
{
	if [ -n "${_pathstat_opts:-}" ]; then
		case $'\n'$_pathstat_opts$'\n' in
		*$'\n'"$1="*) return 0 ;;
		esac
		return 1
	fi
	case $1 in
	--db|--where|--format|--metric|--by|--stats|--quantile|--pool|\
	--paths|--level|--seed|--across|--attempts|--baseline|--threshold|\
	--target|--sql|--unit) return 0 ;;
	esac
	return 1
}

# _pathstat_keys PROG DB: the database's keys and values as
# "key<TAB>value<TAB>kind" lines, from `pathstat keys --format csv` (runs
# without the key left out).
_pathstat_keys()
{
	[ -f "$2" ] || return 0
	"$1" keys --db "$2" --format csv 2>/dev/null | awk '
	NR == 1 { next }
	{
		# one CSV record (RFC 4180; the values hold no newline)
		n = 0; f = ""; q = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (q && c == "\"" && substr($0, i + 1, 1) == "\"") {
				f = f c; i++
			} else if (c == "\"") {
				q = !q
			} else if (!q && c == ",") {
				fld[++n] = f; f = ""
			} else {
				f = f c
			}
		}
		fld[++n] = f
		if (fld[3] != "")
			print fld[1] "\t" fld[3] "\t" fld[2]
	}'
}

# Quote a word for the shell, leaving the usual characters of keys,
# values and lists (A,B) alone: G' -> G\'.
_pathstat_quote()
{
	if [[ $1 =~ ^[A-Za-z0-9_.,=:/@%+~-]*$ ]]; then
		printf '%s' "$1"
	else
		printf '%s' "$1" | sed 's/[^A-Za-z0-9_.,=:/@%+~-]/\\&/g'
	fi
}

# _pathstat_reply CUR WORDS: add each of WORDS (one per line) that
# starts with CUR to COMPREPLY, quoted for the shell.
_pathstat_reply()
{
	local w IFS=$'\n'

	for w in $2; do
		case $w in
		"$1"*) COMPREPLY+=("$(_pathstat_quote "$w")") ;;
		esac
	done
}

# _pathstat_value OPT CUR: complete the value of option OPT.
_pathstat_value()
{
	local opt=$1 cur=$2 list prefix key i

	# an option whose table lists its values (an enum)
	list=$(printf '%s\n' "${_pathstat_opts:-}" |
	    sed -n "s/^$opt=\(.*|.*\)\$/\1/p" | tr '|' '\n')
	if [ -n "$list" ]; then
		_pathstat_reply "$cur" "$list"
		return 0
	fi
	case $opt in
	--db|--spec)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	--out)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	--format)
		_pathstat_reply "$cur" $'text\nmd\ncsv\njson' ;;
	--unit)
		_pathstat_reply "$cur" $'auto\nbit/s\nkbit/s\nMbit/s\nGbit/s' ;;
	--metric)
		_pathstat_reply "$cur" "$(printf '%s\n' $_pathstat_metrics)" ;;
	--quantile)
		_pathstat_reply "$cur" $'type7\noha\nhd' ;;
	--sql)
		_pathstat_reply "$cur" $'athena\ntrino\nspark\nduckdb' ;;
	--partition-by)
		prefix=${cur%"${cur##*,}"}
		_pathstat_reply "$cur" "$( { [ -z "$prefix" ] && echo none;
		    _pathstat_keys "$_pathstat_prog" "$_pathstat_db" |
		    awk -F '\t' -v p="$prefix" \
		    'NF && $1 != last { print p $1; last = $1 }'; } )" ;;
	--pool)
		_pathstat_reply "$cur" $'pooled\ntrials' ;;
	--attempts)
		_pathstat_reply "$cur" $'completed\nall' ;;
	--only)
		prefix=${cur%"${cur##*,}"}
		_pathstat_reply "$cur" "$(printf '%s\n' $_pathstat_checks |
		    sed "s/^/$prefix/")" ;;
	--where)
		list=$(_pathstat_keys "$_pathstat_prog" "$_pathstat_db")
		if [[ $cur == *=* ]]; then
			key=${cur%%=*}
			prefix=${cur%"${cur##*[=,]}"}
			_pathstat_reply "$cur" "$(printf '%s\n' "$list" |
			    awk -F '\t' -v k="$key" -v p="$prefix" \
			    '$1 == k { print p $2 }')"
		else
			_pathstat_reply "$cur" "$(printf '%s\n' "$list" |
			    awk -F '\t' 'NF && $1 != last { print $1 "="; last = $1 }')"
			compopt -o nospace 2>/dev/null
		fi ;;
	--by|--across)
		prefix=${cur%"${cur##*,}"}
		_pathstat_reply "$cur" "$(_pathstat_keys "$_pathstat_prog" \
		    "$_pathstat_db" | awk -F '\t' -v p="$prefix" \
		    'NF && $1 != last { print p $1; last = $1 }')" ;;
	--paths)
		prefix=${cur%"${cur##*,}"}
		_pathstat_reply "$cur" "$(_pathstat_keys "$_pathstat_prog" \
		    "$_pathstat_db" | awk -F '\t' -v p="$prefix" \
		    '$1 == "path" { print p $2 }')" ;;
	--columns)
		# runs' columns: its own, and one per tag in the database
		prefix=${cur%"${cur##*,}"}
		_pathstat_reply "$cur" "$( { [ -z "$prefix" ] && echo all;
		    printf '%s\n' path condition trial tool metric samples \
		    failures status reason started_utc file summary_file \
		    conflict; _pathstat_keys "$_pathstat_prog" "$_pathstat_db" |
		    awk -F '\t' '$3 == "tag" && $1 != last { print $1; last = $1 }'
		    } | sed "s/^/$prefix/")" ;;
	--baseline)
		# report: a path; compare: the values of the key it splits by
		key=""
		[ "${cmd:-}" = report ] && key=path
		for ((i = 1; i < ${#_pathstat_words[@]} - 1; i++)); do
			case ${_pathstat_words[i]} in
			--by) key=${_pathstat_words[i + 1]} ;;
			--by=*) key=${_pathstat_words[i]#--by=} ;;
			esac
		done
		[ -n "$key" ] && _pathstat_reply "$cur" "$(_pathstat_keys \
		    "$_pathstat_prog" "$_pathstat_db" | awk -F '\t' -v k="$key" \
		    '$1 == k { print $2 }')" ;;
	esac
	# --layout, --tag, --stats, --level, --seed, ...: free text
	return 0
}

_pathstat()
{
	local line cur prev cmd="" verb="" i w
	local -a _pathstat_words
	local _pathstat_prog _pathstat_db _pathstat_opts=""
	COMPREPLY=()

	# Split the line ourselves, on blanks only, so that KEY=VALUE and
	# A,B stay one word whatever COMP_WORDBREAKS holds.
	line=${COMP_LINE:0:COMP_POINT}
	read -r -a _pathstat_words <<<"$line"
	if [ ${#_pathstat_words[@]} -eq 0 ] || [[ $line =~ [[:space:]]$ ]]; then
		_pathstat_words+=("")
	fi
	cur=${_pathstat_words[${#_pathstat_words[@]} - 1]}
	prev=""
	[ ${#_pathstat_words[@]} -ge 2 ] &&
	    prev=${_pathstat_words[${#_pathstat_words[@]} - 2]}

	# The pathstat being completed (./pathstat, an installed path) reads
	# the database; the database is the --db on the line, else the
	# default.
	_pathstat_prog=${_pathstat_words[0]/#\~/$HOME}
	[[ $_pathstat_prog == */* && -x $_pathstat_prog ]] ||
	    _pathstat_prog=pathstat
	_pathstat_db=${PATHSTAT_DB:-pathstat.db}
	for ((i = 1; i < ${#_pathstat_words[@]} - 1; i++)); do
		w=${_pathstat_words[i]}
		case $w in
		--db) _pathstat_db=${_pathstat_words[i + 1]} ;;
		--db=*) _pathstat_db=${w#--db=} ;;
		esac
		# the command, then analyze's verb: words that are no option
		# and no option's value
		[[ $w == -* ]] && continue
		_pathstat_takes_value "${_pathstat_words[i - 1]}" && continue
		if [ -z "$cmd" ]; then
			cmd=$w
			_pathstat_opts=$(_pathstat_optlist "$cmd")
		elif [ "$cmd" = analyze ] && [ -z "$verb" ]; then
			verb=$w
		fi
	done
	_pathstat_db=${_pathstat_db/#\~/$HOME}

	if [[ $cur == --*=* ]]; then
		_pathstat_value "${cur%%=*}" "${cur#*=}"
		cur=${cur#*=}
	elif _pathstat_takes_value "$prev"; then
		_pathstat_value "$prev" "$cur"
	elif [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			_pathstat_reply "$cur" $'--help\n--version\n-h\n-V'
		else
			_pathstat_reply "$cur" "${_pathstat_commands// /$'\n'}"
		fi
	elif [ "$cmd" = help ]; then
		[ ${#_pathstat_words[@]} -eq 3 ] &&
		    _pathstat_reply "$cur" "${_pathstat_commands// /$'\n'}"
	elif [[ $cur == -* ]]; then
		_pathstat_reply "$cur" "$(printf '%s\n' \
		    $(_pathstat_options "$cmd" "$verb"))"
	elif [ "$cmd" = analyze ] && [ -z "$verb" ]; then
		_pathstat_reply "$cur" "${_pathstat_verbs// /$'\n'}"
	elif [ "$cmd" = ingest ]; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi

	# bash replaces only the part of the word after its last break
	# character ('=' and ':' by default): drop what comes before it.
	local brk=${COMP_WORDBREAKS//[^=:]/} head qhead
	if [ -n "$brk" ] && [[ $cur == *["$brk"]* ]]; then
		head=${cur%"${cur##*["$brk"]}"}
		qhead=$(_pathstat_quote "$head")
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"$qhead"}
		done
	fi
	return 0
}

complete -F _pathstat pathstat
