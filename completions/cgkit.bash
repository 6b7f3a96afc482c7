# SPDX-License-Identifier: MIT
# bash completion for cgkit: cgcreate2, cgexec2, cgmigrate, cgtop2.
# Installed once per tool name under /usr/share/bash-completion/completions/; works without the
# bash-completion package too (source it). Options come from the tool's own --help and the
# values of --events and --collectors from cgtop2 itself, so that they never drift from the
# binary; other values come from the live system: controllers from the mounted hierarchies,
# cgroup paths from the tree, PIDs from /proc.
#
# Cgroup names are data: anyone who may create a cgroup chooses them, and root presses Tab. A
# candidate is never put on the command line as it is: what it adds to the word is quoted with
# printf %q ('$(...)', backticks, ';', '*', a space, a tab, a quote, control characters), or for
# the quote the word opened. Not with compopt -o filenames: bash 5.2 leaves '$' and '`' unquoted
# in a file name that does not exist (a cgroup path does not, from the current directory), and
# switches complete_fullquote off for the rest of the session. Real files (--record=FILE) still
# go to readline as file names. What was typed is compared as a string, never used as a
# pattern, a sed program or code.

# The line up to the cursor as the shell will read it. _cgkit_w gets the words without their
# quotes (the last one is the word being completed, empty after a blank), _cgkit_at where each
# starts in COMP_LINE. Readline replaces only the end of the last word: after an open quote, or
# else after its last unquoted COMP_WORDBREAKS character (':', '='); _cgkit_cut is where that
# starts in the unquoted word, _cgkit_raw the text it replaces as typed, _cgkit_q the open quote.
# bash-completion's _init_completion -n := gives the words as typed: unquoting them, as its
# _filedir does, needs eval of what was typed, and the package is not always loaded.
_cgkit_split()
{
	local line=${COMP_LINE:0:COMP_POINT} breaks=${COMP_WORDBREAKS-:=} i c e q= w= open=0
	local cut=0 raw=0 qcut qraw
	breaks=${breaks//[[:space:]\"\']/}
	_cgkit_w=() _cgkit_at=()
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		if [[ $q == "'" ]]; then
			[[ $c == "'" ]] && q= || w+=$c
		elif [[ $q == '$' ]]; then
			# $'...', as printf %q writes what is not printable
			if [[ $c == "'" ]]; then
				q=
			elif [[ $c != '\' ]]; then
				w+=$c
			elif [[ ${line:i+1:3} =~ ^[0-7]{1,3} || ${line:i+1:3} =~ ^x[0-9a-fA-F]{1,2} ]]; then
				printf -v e "\\${BASH_REMATCH[0]}"
				w+=$e
				((i += ${#BASH_REMATCH[0]}))
			else
				((i++))
				case ${line:i:1} in
				a) w+=$'\a' ;; b) w+=$'\b' ;; [eE]) w+=$'\e' ;; f) w+=$'\f' ;;
				n) w+=$'\n' ;; r) w+=$'\r' ;; t) w+=$'\t' ;; v) w+=$'\v' ;;
				*) w+=${line:i:1} ;;
				esac
			fi
		elif [[ $q == '"' ]]; then
			if [[ $c == '"' ]]; then
				q=
			elif [[ $c == '\' && ${line:i+1:1} == [\$\`\"\\] ]]; then
				w+=${line:i+1:1}
				((i++))
			else
				w+=$c
			fi
		elif [[ $c == [$' \t\n'] ]]; then
			((open)) && _cgkit_w+=("$w")
			open=0 w= cut=0 raw=$((i + 1))
		else
			((open)) || _cgkit_at+=("$i")
			open=1
			if [[ $c == '\' ]]; then
				w+=${line:i+1:1}
				((i++))
			elif [[ $c == [\'\"] || $c == '$' && ${line:i+1:1} == "'" ]]; then
				[[ $c == '$' ]] && ((i++))
				q=$c qcut=${#w} qraw=$((i + 1))
			else
				w+=$c
				[[ $breaks == *"$c"* ]] && cut=${#w} raw=$((i + 1))
			fi
		fi
	done
	((open)) || _cgkit_at+=("$i")
	_cgkit_w+=("$w")
	# an open quote: readline's word starts after it
	[[ -n $q ]] && cut=$qcut raw=$qraw
	_cgkit_cut=$cut _cgkit_raw=${line:raw} _cgkit_q=$q
}

# $1 quoted for the shell where it goes: after an open quote $_cgkit_q, or bare (printf %q).
_cgkit_quote()
{
	local s=$1
	case $_cgkit_q in
	"'") s=${s//"'"/"'\\''"} ;;
	'"') s=${s//\\/\\\\} s=${s//\$/\\\$} s=${s//\`/\\\`} s=${s//\"/\\\"} ;;
	'$') s=${s//\\/\\\\} s=${s//"'"/\\\'} ;;
	*) printf -v s %q "$s" ;;
	esac
	printf -v "$2" %s "$s"
}

# The options of tool $1, a line each: "OPTION TAKES LONG". TAKES is 1 (a required value),
# 2 (an optional one, only as --opt=VALUE) or 0; LONG is the long name both forms share.
_cgkit_options()
{
	local var=_cgkit_opts_${1//[^a-zA-Z0-9]/_} l short long arg out=
	if [[ -z ${!var-} ]]; then
		while IFS= read -r l; do
			[[ $l =~ ^\ {1,8}(-[^-\ ,])?(,\ )?(--[a-z0-9-]+)?(\[?=)? ]] || continue
			short=${BASH_REMATCH[1]} long=${BASH_REMATCH[3]} arg=${BASH_REMATCH[4]}
			[[ -n $short$long ]] || continue
			case $arg in '=') arg=1 ;; '[=') arg=2 ;; *) arg=0 ;; esac
			[[ -n $short ]] && out+="$short $arg ${long:-$short}"$'\n'
			[[ -n $long ]] && out+="$long $arg $long"$'\n'
		done < <(LC_ALL=C "$1" --help 2>/dev/null)
		printf -v "$var" '%s' "$out"
	fi
	printf '%s' "${!var}"
}

# Candidates: _cgkit_c, whole values (the word as typed, without its quotes, is a prefix of
# each). _cgkit_add adds those of $2... that start with $1.
_cgkit_add()
{
	local w
	for w in "${@:2}"; do
		[[ $w == "$1"* ]] && _cgkit_c+=("$w")
	done
}

# The mount points to complete a cgroup path in: of the v1 hierarchy with controller (or
# name=NAME) $1, else cgroup2's; with $1 empty, cgroup2's; with '*', every hierarchy (a bare
# PATH is looked up in all of them).
_cgkit_roots()
{
	local dev mnt type opts rest v2=
	_cgkit_r=()
	while read -r dev mnt type opts rest; do
		[[ $type == cgroup || $type == cgroup2 ]] || continue
		if [[ $1 == '*' ]]; then
			_cgkit_r+=("$mnt")
		elif [[ $type == cgroup2 ]]; then
			[[ -z $v2 ]] && v2=$mnt
		elif [[ -n $1 && ,$opts, == *,"$1",* ]]; then
			_cgkit_r=("$mnt")
			return
		fi
	done </proc/self/mounts
	[[ $1 == '*' || -z $v2 ]] || _cgkit_r=("$v2")
}

# Every controller a spec can name: the v1 hierarchies' and the unified root's, name=NAME.
_cgkit_controllers()
{
	local dev mnt type opts rest o
	_cgkit_k=()
	while read -r dev mnt type opts rest; do
		if [[ $type == cgroup ]]; then
			for o in ${opts//,/ }; do
				case $o in
				rw | ro | nosuid | nodev | noexec | relatime | noatime | clone_children | xattr | \
					cpuset_v2_mode | noprefix | release_agent=*) ;;
				*) _cgkit_k+=("$o") ;;
				esac
			done
		elif [[ $type == cgroup2 && -r $mnt/cgroup.controllers ]]; then
			read -r -a opts <"$mnt/cgroup.controllers" && _cgkit_k+=("${opts[@]}")
		fi
	done </proc/self/mounts
}

# Cgroup paths that start with $1 (PREFIX/PATH: $2 is the PREFIX, a spec's "CTRLS:"), below the
# hierarchies _cgkit_roots $3 names. A PATH without its leading '/' is completed without it.
_cgkit_paths()
{
	local cur=$1 root d
	local -A seen=()
	_cgkit_roots "$3"
	# nothing typed yet: from the root, "pids:" becomes "pids:/"
	[[ $cur == /* ]] || cur=/$cur
	for root in "${_cgkit_r[@]}"; do
		for d in "$root$cur"*/; do
			[[ -d $d ]] || continue
			d=${d#"$root"}
			[[ -z $1 || $1 == /* ]] || d=${d#/}
			[[ -n ${seen[x$d]-} ]] && continue
			seen[x$d]=1
			_cgkit_c+=("$2$d")
		done
	done
}

# CONTROLLERS:PATH, the comma list first; ':PATH' is cgroup2's (libcgroup 3); a bare /PATH
# (cgexec2, cgmigrate, cgtop2 and -g of every tool) is looked up in every hierarchy.
_cgkit_spec()
{
	local w=$1 ctrls c
	if [[ $w == *:* ]]; then
		ctrls=${w%%:*}
		c=${ctrls%%,*}
		# a controller no hierarchy has: no path to offer
		_cgkit_controllers
		[[ -z $c || $c == '*' || " ${_cgkit_k[*]} " == *" $c "* ]] || return
		_cgkit_paths "${w#*:}" "$ctrls:" "$c"
	elif [[ $w == /* ]]; then
		_cgkit_paths "$w" "" '*'
	else
		_cgkit_list "$w" ':'
		[[ $w == *,* ]] || _cgkit_add "$w" '*:' '/'
	fi
}

# A comma list of controllers ($1 so far), each once; $2 ends the last one (':' in a spec).
_cgkit_list()
{
	local head= c
	[[ $1 == *,* ]] && head=${1%,*},
	_cgkit_controllers
	for c in "${_cgkit_k[@]}"; do
		[[ ,$head == *,"$c",* ]] || _cgkit_add "$1" "$head$c$2"
	done
	_cgkit_list=1
}

# A comma list of the names in $2, a line each ($1 so far), each maybe with + or - before it
# when $3 is set.
_cgkit_names()
{
	local cur=$1 head= n
	[[ $cur == *,* ]] && head=${cur%,*}, cur=${cur##*,}
	[[ -n $3 && $cur == [+-]* ]] && head+=${cur:0:1} cur=${cur:1}
	while IFS= read -r n; do
		[[ -n $n && $n == "$cur"* ]] && _cgkit_c+=("$head$n")
	done <<<"$2"
	_cgkit_list=1
}

_cgkit_pids()
{
	local p
	for p in /proc/[0-9]*; do
		_cgkit_add "$1" "${p#/proc/}"
	done
}

# Candidates for the value of option $2 (its long name) of tool $1 being typed as $3.
_cgkit_value()
{
	local tool=$1 cur=$3 u
	local -a vals
	case $2 in
	--group | --from) _cgkit_spec "$cur" ;;
	--enable) _cgkit_list "$cur" '' ;;
	--memory-threshold) [[ $cur == /* ]] && _cgkit_paths "$cur" "" '*' ;;
	--events) _cgkit_names "$cur" "$("$tool" --events=help 2>/dev/null)" ;;
	--collectors) _cgkit_names "$cur" "$("$tool" --collectors=help 2>/dev/null)" sign ;;
	--fields) _cgkit_names "$cur" "$("$tool" --fields=help 2>/dev/null | tr '\t' '\n')" ;;
	--order) _cgkit_add "$cur" path tasks cpu memory io pressure ;;
	--format) _cgkit_add "$cur" table json csv openmetrics prometheus ;;
	--cpu) _cgkit_add "$cur" percentage time ;;
	--recursive) _cgkit_add "$cur" yes no ;;
	--mount) _cgkit_add "$cur" unified hybrid legacy ;;
	--list-controllers) _cgkit_names "$cur" "$(printf 'all\nmounts')" ;;
	--get) _cgkit_names "$cur" "$(printf '%s\n' cpu.weight cpu.max cpu.stat cpuset.cpus \
		cpuset.mems memory.max memory.high memory.low memory.min memory.swap.max \
		memory.current pids.max pids.current io.max io.weight)" ;;
	--kill)
		mapfile -t vals < <(compgen -A signal)
		_cgkit_add "$cur" "${vals[@]#SIG}"
		;;
	--threads-of) _cgkit_pids "$cur" ;;
	--delegate) mapfile -t -O ${#_cgkit_c[@]} _cgkit_c < <(compgen -u -- "$cur") ;;
	--admin | --tasks)
		if [[ $cur == *:* ]]; then
			u=${cur%%:*}:
			mapfile -t -O ${#_cgkit_c[@]} _cgkit_c < <(compgen -g -P "$u" -- "${cur#*:}")
		else
			mapfile -t -O ${#_cgkit_c[@]} _cgkit_c < <(compgen -u -S : -- "$cur")
		fi
		;;
	--machine)
		mapfile -t vals < <(machinectl list --no-legend 2>/dev/null | cut -d' ' -f1)
		_cgkit_add "$cur" "${vals[@]}"
		;;
	--set) _cgkit_add "$cur" cpu.weight= cpu.max= cpu.idle= cpuset.cpus= cpuset.mems= \
		memory.max= memory.high= memory.low= memory.min= memory.swap.max= \
		memory.oom.group= pids.max= io.weight= io.max= ;;
	--journal)
		mapfile -t -O ${#_cgkit_c[@]} _cgkit_c < <(compgen -d -- "$cur")
		_cgkit_files=1
		;;
	--depth | --delay | --grace | --timeout | --iterations | --rounds | --match | --dperm | \
		--fperm | --tperm | --keep | --cap) ;;
	*)
		mapfile -t -O ${#_cgkit_c[@]} _cgkit_c < <(compgen -f -- "$cur")
		_cgkit_files=1
		;;
	esac
}

# The words from COMMAND on are the command's: completed as bash-completion does for sudo when
# it is loaded. $1 is the index in _cgkit_w of COMMAND; _command_offset counts COMP_WORDS, which
# ':' and '=' split, so COMMAND is found there by where it starts in the line.
_cgkit_command()
{
	local at=${_cgkit_at[$1]} i pos=0 rest=$COMP_LINE cur=${_cgkit_w[-1]}
	if declare -F _command_offset >/dev/null; then
		for ((i = 0; i < COMP_CWORD; i++)); do
			while [[ -n $rest && $rest != "${COMP_WORDS[i]}"* ]]; do
				rest=${rest:1}
				((pos++))
			done
			((pos >= at)) && break
			rest=${rest#"${COMP_WORDS[i]}"}
			((pos += ${#COMP_WORDS[i]}))
		done
		_command_offset "$i"
		return
	fi
	if (($1 == ${#_cgkit_w[@]} - 1)); then
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
	fi
}

_cgkit()
{
	local tool=$1 name=${1##*/} opts o arg long i n w expect=0 cur prev optfor= val c
	local -a _cgkit_w _cgkit_at _cgkit_c=() _cgkit_r _cgkit_k
	local _cgkit_cut _cgkit_raw _cgkit_q _cgkit_files=0 _cgkit_list=0
	_cgkit_split
	n=${#_cgkit_w[@]}
	cur=${_cgkit_w[n - 1]}
	prev=
	((n > 1)) && prev=${_cgkit_w[n - 2]}
	opts=$(_cgkit_options "$tool")
	COMPREPLY=()

	# cgexec2: the first word that is no option nor an option's value is COMMAND
	if [[ $name == cgexec2 ]]; then
		for ((i = 1; i < n; i++)); do
			w=${_cgkit_w[i]}
			if ((expect)); then
				expect=0
				continue
			fi
			if [[ $w == -- ]] && ((i < n - 1)); then
				_cgkit_command $((i + 1))
				return 0
			elif [[ $w != -* ]]; then
				_cgkit_command "$i"
				return 0
			fi
			while read -r o arg long; do
				[[ $o == "$w" && $arg == 1 ]] && expect=1
			done <<<"$opts"
		done
	fi

	# the option whose value this word is: --opt=VALUE, or -o VALUE / --opt VALUE
	val=$cur
	if [[ $cur == --*=* ]]; then
		optfor=${cur%%=*}
		val=${cur#*=}
	elif [[ $prev == -* ]]; then
		while read -r o arg long; do
			[[ $o == "$prev" && $arg == 1 ]] && optfor=$long
		done <<<"$opts"
	fi

	if [[ -n $optfor ]]; then
		_cgkit_value "$tool" "$optfor" "$val"
		[[ $cur == --*=* ]] && for i in "${!_cgkit_c[@]}"; do
			_cgkit_c[i]=$optfor=${_cgkit_c[i]}
		done
	elif [[ $cur == -* ]]; then
		while read -r o arg long; do
			[[ $o == --* && $arg == 1 ]] && o+='='
			_cgkit_add "$cur" "$o"
		done <<<"$opts"
	else
		case $name in
		cgmigrate) _cgkit_pids "$cur" ;;
		*) _cgkit_paths "$cur" "" '*' ;;
		esac
	fi

	# bash replaces only its own word: after an open quote, or after the last ':' or '='
	# (bash-completion's __ltrim_colon_completions, for every break character). What was typed
	# there stays as typed, the rest of each candidate is quoted; readline quotes file names.
	local typed=${cur:_cgkit_cut} q
	for c in "${_cgkit_c[@]}"; do
		c=${c:_cgkit_cut}
		[[ -n $c ]] || continue
		if ((_cgkit_files)); then
			COMPREPLY+=("$c")
		elif [[ $c == "$typed"* ]]; then
			q=
			[[ $c == "$typed" ]] || _cgkit_quote "${c:${#typed}}" q
			COMPREPLY+=("$_cgkit_raw$q")
		else
			_cgkit_quote "$c" q
			COMPREPLY+=("$q")
		fi
	done
	((_cgkit_files)) && compopt -o filenames 2>/dev/null
	# a value still being built (a directory, "ctrl:", "--opt=", a list) takes no space after it
	if [[ ${#_cgkit_c[@]} -eq 1 && ${_cgkit_c[0]} == *[/:=,] ]] || ((_cgkit_list)) ||
		[[ ${#COMPREPLY[@]} -gt 1 ]]; then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}

complete -F _cgkit cgcreate2 cgexec2 cgmigrate cgtop2
