# SPDX-License-Identifier: MIT
# bash completion for cgkit: cgcreate2, cgexec2, cgmigrate, cgtop2.
# Installed once per tool name under /usr/share/bash-completion/completions/; works without the
# bash-completion package too (source it). Options come from the tool's own --help, so that they
# never drift from the binary; values come from the live system: controllers from the mounted
# hierarchies, cgroup paths from the tree, PIDs from /proc.

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

# The mount point of the hierarchy with controller $1 (v1), or of cgroup2 when $1 is empty or
# not a v1 controller.
_cgkit_mount()
{
	local dev mnt type opts rest v2=
	while read -r dev mnt type opts rest; do
		if [[ $type == cgroup2 ]]; then
			[[ -z $v2 ]] && v2=$mnt
		elif [[ $type == cgroup && -n $1 && ,$opts, == *,"$1",* ]]; then
			echo "$mnt"
			return
		fi
	done </proc/self/mounts
	[[ -n $v2 ]] && echo "$v2"
}

# Every controller a spec can name: the v1 hierarchies' and the unified root's, name=NAME, *.
_cgkit_controllers()
{
	local dev mnt type opts rest o
	while read -r dev mnt type opts rest; do
		if [[ $type == cgroup ]]; then
			for o in ${opts//,/ }; do
				case $o in
				rw | ro | nosuid | nodev | noexec | relatime | noatime | clone_children | xattr | \
					cpuset_v2_mode | noprefix | release_agent=*) ;;
				*) echo "$o" ;;
				esac
			done
		elif [[ $type == cgroup2 && -r $mnt/cgroup.controllers ]]; then
			tr ' ' '\n' <"$mnt/cgroup.controllers"
		fi
	done </proc/self/mounts
	echo '*'
}

# Cgroup paths below the hierarchy of controller $2 (or the unified one) that start with $1.
_cgkit_paths()
{
	local cur=$1 root d
	root=$(_cgkit_mount "$2")
	[[ -n $root ]] || return
	[[ $cur == /* ]] || cur=/$cur
	for d in "$root$cur"*/; do
		[[ -d $d ]] || continue
		d=${d#"$root"}
		[[ $1 == /* ]] || d=${d#/}
		echo "$d"
	done
}

# CONTROLLERS:PATH, the comma list first.
_cgkit_spec()
{
	local w=$1 ctrls head c
	if [[ $w == *:* ]]; then
		ctrls=${w%%:*}
		c=${ctrls%%,*}
		[[ $c == '*' || $c == name=* ]] && c=
		_cgkit_paths "${w#*:}" "$c" | sed "s|^|$ctrls:|"
		return
	fi
	head=
	[[ $w == *,* ]] && head=${w%,*},
	for c in $(_cgkit_controllers); do
		[[ $head$c == "$w"* ]] && echo "$head$c:"
	done
}

_cgkit_words()
{
	local w
	for w in "${@:2}"; do
		[[ $w == "$1"* ]] && echo "$w"
	done
}

# Candidates for the value of option $1 (its long name, or its short one) being typed as $2.
_cgkit_value()
{
	local tool=$1 opt=$2 cur=$3
	case $opt in
	--group | --from) _cgkit_spec "$cur" ;;
	--enable) _cgkit_spec_list "$cur" ;;
	--order) _cgkit_words "$cur" path tasks cpu memory io pressure ;;
	--format) _cgkit_words "$cur" table json csv openmetrics prometheus ;;
	--cpu) _cgkit_words "$cur" percentage time ;;
	--recursive) _cgkit_words "$cur" yes no ;;
	--mount) _cgkit_words "$cur" unified hybrid legacy ;;
	--kill) _cgkit_words "$cur" $(compgen -A signal | sed 's/^SIG//') ;;
	--threads-of) _cgkit_pids "$cur" ;;
	--delegate) compgen -u -- "$cur" ;;
	--admin | --tasks) [[ $cur == *:* ]] && compgen -g -P "${cur%%:*}:" -- "${cur#*:}" ||
		compgen -u -S : -- "$cur" ;;
	--machine) command -v machinectl >/dev/null &&
		_cgkit_words "$cur" $(machinectl list --no-legend 2>/dev/null | cut -d' ' -f1) ;;
	--set) _cgkit_words "$cur" cpu.weight= cpu.max= cpu.idle= cpuset.cpus= cpuset.mems= \
		memory.max= memory.high= memory.low= memory.min= memory.swap.max= \
		memory.oom.group= pids.max= io.weight= io.max= ;;
	--depth | --delay | --grace | --timeout | --iterations | --rounds | --match | --dperm | \
		--fperm | --tperm) ;;
	*) compgen -f -- "$cur" ;;
	esac
}

_cgkit_spec_list()
{
	local head= c
	[[ $1 == *,* ]] && head=${1%,*},
	for c in $(_cgkit_controllers); do
		[[ $c != '*' && $head$c == "$1"* ]] && echo "$head$c"
	done
}

_cgkit_pids()
{
	local p
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $p == "$1"* ]] && echo "$p"
	done
}

_cgkit()
{
	local tool=${1##*/} line word bword i opts o arg long skip=0 cands
	# Read the word from the line, not from COMP_WORDS: ':' and '=' split words there.
	line=${COMP_LINE:0:COMP_POINT}
	word=${line##*[[:space:]]}
	bword=${COMP_WORDS[COMP_CWORD]}
	[[ $bword == "$word" || $word == *"$bword" ]] || bword=$word
	opts=$(_cgkit_options "$1")

	# the option whose value this word is: --opt=VALUE, or -o VALUE / --opt VALUE
	local prev=${line%"$word"}
	prev=${prev%%+([[:space:]])}
	prev=${prev##*[[:space:]]}
	local optfor= val=$word
	if [[ $word == --*=* ]]; then
		optfor=${word%%=*}
		val=${word#*=}
	elif [[ $prev == -* ]]; then
		while read -r o arg long; do
			[[ $o == "$prev" && $arg == 1 ]] && optfor=$long
		done <<<"$opts"
	fi

	# cgexec2: from COMMAND on, the words are the command's (completed as bash-completion does
	# for sudo, when it is loaded)
	if [[ $tool == cgexec2 ]]; then
		local w expect=0
		for ((i = 1; i <= COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]}
			# ':' and '=' are words of their own: they join the word before and after them
			if [[ $w == [:=] ]]; then
				((i < COMP_CWORD)) && [[ ${COMP_WORDS[i + 1]} != [:=] ]] && i=$((i + 1))
				expect=0
				continue
			fi
			if ((expect)); then
				expect=0
				continue
			fi
			[[ $w == -- ]] && { skip=$((i + 1)); break; }
			[[ $w == -* ]] || { skip=$i; break; }
			# an option whose value is the next word
			while read -r o arg long; do
				[[ $o == "$w" && $arg == 1 ]] && expect=1
			done <<<"$opts"
		done
		if ((skip > 0 && skip <= COMP_CWORD)); then
			if declare -F _command_offset >/dev/null; then
				_command_offset "$skip"
			elif ((COMP_CWORD == skip)); then
				COMPREPLY=($(compgen -c -- "$word"))
			else
				COMPREPLY=($(compgen -f -- "$word"))
			fi
			return 0
		fi
	fi

	if [[ -n $optfor ]]; then
		cands=$(_cgkit_value "$tool" "$optfor" "$val")
		[[ $word == --*=* && -n $cands ]] && cands=$(sed "s|^|$optfor=|" <<<"$cands")
	elif [[ $word == -* ]]; then
		cands=$(while read -r o arg long; do
			[[ $o == --* && $arg == 1 ]] && echo "$o=" && continue
			echo "$o"
		done <<<"$opts" | grep -F -- "$word" | grep -- "^$word" || true)
	else
		case $tool in
		cgmigrate) cands=$(_cgkit_pids "$word") ;;
		*) cands=$(_cgkit_paths "$word" "") ;;
		esac
	fi

	# bash replaces its own word, which may be only the part after a ':' or '='
	local cut=$((${#word} - ${#bword}))
	COMPREPLY=()
	local c
	while IFS= read -r c; do
		[[ -n $c ]] && COMPREPLY+=("${c:cut}")
	done <<<"$cands"
	# a value still being built (a directory, "ctrl:", "--opt=") takes no space after it
	if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[/:=] ]] ||
		[[ ${#COMPREPLY[@]} -gt 1 ]]; then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}

shopt -s extglob
complete -F _cgkit cgcreate2 cgexec2 cgmigrate cgtop2
