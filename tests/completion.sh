#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shell completion, typed: a real interactive bash (bash-completion loaded, as a Debian user has
# it, and without it) and a real zsh, each in tmux on a private server. Keys go in with
# send-keys; the line being edited comes back exact through a key bound to write it to a file
# (bash: READLINE_LINE, zsh: BUFFER), a list through capture-pane. Cgroup names, hostile ones
# among them, are planted in the test's sandbox: a planted command must never run.
. "$(dirname "$0")/lib.sh"

BASH_COMPLETION=${CGKIT_BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
# for the tests that call the function (test_registered, test_called_on_this_layout)
PATH=$CGKIT_BIN:$PATH
. "$CGKIT_TOP/completions/cgkit.bash"
S=$SANDBOX_NAME
_sh_socks=()

# Whether shell $1 (bash: with bash-completion, bash-plain: without, zsh) can be driven here.
need_shell() {
	cgk_need_prog tmux "a terminal for the shell" || return 1
	case $1 in
	bash) [ -r "$BASH_COMPLETION" ] || { cgk_skip "bash-completion's $BASH_COMPLETION is absent"; return 1; } ;;
	zsh) cgk_need_prog zsh || return 1 ;;
	esac
}

# Start shell $1 (as need_shell) in its own tmux server, in directory $_sh_dir/cwd. C-x C-l
# writes the line being edited to $_sh_dir/line.N; cgk_status, the exit status of what ran
# before it on the line, to status.N.
sh_start() {
	local bc= cmd prompt='$'
	# six X: busybox's mktemp (the guests') refuses fewer, and an empty _sh_dir made /cwd
	_sh_kind=$1 _sh_sock=cgkit-comp-$$-${#_sh_socks[@]} _sh_n=0
	_sh_dir=$(mktemp -d "$_cgk_tmp/$1.XXXXXX") || { fail "mktemp"; return 1; }
	mkdir "$_sh_dir/cwd"
	: >"$_sh_dir/inputrc"
	if [ "$1" = zsh ]; then
		cat >"$_sh_dir/.zshrc" <<'RC'
PS1='%% '
fpath=($CGKIT_TOP/completions/zsh $fpath)
path=($CGKIT_BIN $path)
autoload -U compinit && compinit -u -D
cd "$CGK_D/cwd" || exit 1
_cgk_n=0
_cgk_line() {
	_cgk_n=$((_cgk_n + 1))
	print -rn -- "$BUFFER" >"$CGK_D/l" && mv "$CGK_D/l" "$CGK_D/line.$_cgk_n"
}
zle -N _cgk_line
bindkey '^X^L' _cgk_line
cgk_status() { echo $? >"$CGK_D/s" && mv "$CGK_D/s" "$CGK_D/status.$_cgk_n"; }
RC
		cmd="zsh -i" prompt=%
	else
		cat >"$_sh_dir/rc" <<'RC'
PS1='$ '
HISTFILE=/dev/null
[ -n "$CGK_BC" ] && . "$CGK_BC"
. "$CGKIT_TOP/completions/cgkit.bash"
PATH=$CGKIT_BIN:$PATH
cd "$CGK_D/cwd" || exit 1
_cgk_n=0
_cgk_line() {
	_cgk_n=$((_cgk_n + 1))
	printf %s "$READLINE_LINE" >"$CGK_D/l" && mv "$CGK_D/l" "$CGK_D/line.$_cgk_n"
}
bind -x '"\C-x\C-l": _cgk_line'
cgk_status() { echo $? >"$CGK_D/s" && mv "$CGK_D/s" "$CGK_D/status.$_cgk_n"; }
RC
		[ "$1" = bash ] && bc=$BASH_COMPLETION
		cmd="bash --rcfile $(printf %q "$_sh_dir/rc") -i"
	fi
	_sh_socks+=("$_sh_sock")
	tmux -L "$_sh_sock" new-session -d -x 200 -y 50 "env HOME=$(printf %q "$_sh_dir") \
ZDOTDIR=$(printf %q "$_sh_dir") INPUTRC=$(printf %q "$_sh_dir/inputrc") \
CGK_D=$(printf %q "$_sh_dir") CGK_BC=$(printf %q "$bc") CGKIT_TOP=$(printf %q "$CGKIT_TOP") \
CGKIT_BIN=$(printf %q "$CGKIT_BIN") $cmd"
	# keys typed before the line editor reads them would meet the terminal's own C-u
	CGK_WAIT_TICKS=600 cgk_wait_for eval 'tmux -L "$_sh_sock" capture-pane -p | grep -qxF -- "$prompt"' ||
		fail "$1 did not start: $(tmux -L "$_sh_sock" capture-pane -p | grep -v '^$' | tail -n 3)"
}

# the servers, and their sockets: tmux leaves a socket behind
teardown_test() {
	local s p
	for s in "${_sh_socks[@]}"; do
		p=$(tmux -L "$s" display -p '#{socket_path}' 2>/dev/null)
		tmux -L "$s" kill-server 2>/dev/null
		[ -n "$p" ] && rm -f "$p"
	done
	_sh_socks=()
}

# Type $1 on an empty line, then the keys $2... (tmux's names: Tab, M-* for all candidates);
# the line as it then stands lands in $line.
sh_type() {
	local text=$1
	shift
	tmux -L "$_sh_sock" send-keys C-u C-l
	tmux -L "$_sh_sock" send-keys -l -- "$text"
	[ $# -eq 0 ] || tmux -L "$_sh_sock" send-keys "$@"
	tmux -L "$_sh_sock" send-keys C-x C-l
	_sh_n=$((_sh_n + 1))
	line="(the shell did not answer)"
	CGK_WAIT_TICKS=600 cgk_wait_for test -e "$_sh_dir/line.$_sh_n" || return 1
	IFS= read -r -d '' line <"$_sh_dir/line.$_sh_n"
	return 0
}

# Enter: the line runs, then cgk_status; $status is how it ended.
sh_run() {
	tmux -L "$_sh_sock" send-keys End
	tmux -L "$_sh_sock" send-keys -l -- '; cgk_status'
	tmux -L "$_sh_sock" send-keys Enter
	status="(it did not end: $(tmux -L "$_sh_sock" capture-pane -p | grep -v '^$' | tail -n 3))"
	if ! CGK_WAIT_TICKS=600 cgk_wait_for test -e "$_sh_dir/status.$_sh_n"; then
		tmux -L "$_sh_sock" send-keys C-c
		return 1
	fi
	read -r status <"$_sh_dir/status.$_sh_n"
}

# The line after sh_type: $1 says what was typed, $2 is the line wanted.
assert_line() {
	assertEquals "$_sh_kind: $1" "$2" "$line"
}

# Whether the pane shows $1 (a list the shell printed), within the usual wait.
pane_has() {
	local want=$1
	cgk_wait_for eval 'tmux -L "$_sh_sock" capture-pane -p | grep -qF -- "$want"'
}

# The sandbox of the unified hierarchy, else of a v1 one: a bare PATH is looked up in every
# hierarchy.
any_sandbox() {
	local h
	for h in unified pids cpu memory; do
		if [ -n "$(cgk_mnt "$h")" ]; then
			cgk_sandbox "$h"
			return
		fi
	done
	return 1
}

# A controller the host has ($c), v1 when it can be, and the sandbox in its hierarchy ($sb).
controller_sandbox() {
	for c in pids memory cpu; do
		if [ -n "$(cgk_mnt "$c")" ]; then
			sb=$(cgk_sandbox "$c") && return
		elif cgk_v2_has "$c"; then
			sb=$(cgk_sandbox unified) && return
		fi
	done
	cgk_skip "no pids, memory or cpu controller to make a sandbox for"
	return 1
}

test_registered() {
	local t
	for t in cgcreate2 cgexec2 cgmigrate cgtop2; do
		assertContains "complete -p $t" "$(complete -p "$t")" "-F _cgkit"
	done
}

# Without a terminal (the VM guests have no tmux): the function bash calls, on this layout's
# hierarchies; COMPREPLY is what bash inserts after the last ':' of the word.
test_called_on_this_layout() {
	local c sb
	controller_sandbox || return 0
	mkdir -p "$sb/called/web" "$sb/called/zz\$(x)"
	call "cgcreate2 -g $c:/$S/called/w"
	assertEquals "-g $c:/.../w" "/$S/called/web/" "${COMPREPLY[*]}"
	call "cgcreate2 -g $c:$S/called/z"
	assertEquals "-g $c:.../z" "$S/called/zz\\\$\\(x\\)/" "${COMPREPLY[*]}"
	call "cgtop2 /$S/called/w"
	assertEquals "cgtop2 /.../w (bare)" "/$S/called/web/" "${COMPREPLY[*]}"
	call "cgtop2 --events=thro"
	assertEquals "--events=thro" "throttled" "${COMPREPLY[*]}"
}

call() {
	COMP_LINE=$1 COMP_POINT=${#1} COMP_WORDS=() COMP_CWORD=0 COMPREPLY=()
	_cgkit "${1%% *}"
}

# What completion offers for --events= and --collectors= is what cgtop2 takes: every name
# --events=help and --collectors=help list is accepted, and they list every kind.
test_help_lists_names() {
	local ev co
	ev=$("$CGKIT_BIN/cgtop2" --events=help) || fail "--events=help failed"
	co=$("$CGKIT_BIN/cgtop2" --collectors=help) || fail "--collectors=help failed"
	assertContains "--events=help" " $(echo $ev) " " created removed populated "
	assertContains "--events=help" " $(echo $ev) " " throttled "
	assertContains "--collectors=help" " $(echo $co) " " iodevice "
	"$CGKIT_BIN/cgtop2" --events="$(paste -sd, <<<"$ev")" --collectors="$(paste -sd, <<<"$co")" \
		--help >/dev/null || fail "cgtop2 refuses a name its help lists: $(echo $ev $co)"
}

# A name planted by whoever may make a cgroup goes on root's line quoted (the names: $2..., or
# all of those below; the first one needed for the last check): Tab, then Enter runs
# cgtop2 on exactly that cgroup (or cgtop2 refuses the name's control characters), and what the
# name holds never runs. The path is typed relative, so that a glob left bare would match a
# directory where the shell runs.
hostile_names() {
	need_shell "$1" || return 0
	local sb name pre f want d=$S/$1
	local -a names=('zz$(touch pwned1)' 'bq`touch pwned2`' 'semi;touch pwned3;' 'pi|touch pwned4'
		'am&touch pwned5&' 'sp ace' 'glob*q?[b]' "qu'te" 'dq"te' $'ta\tb' $'es\e[1mc')
	[ $# -gt 1 ] && names=("${@:2}")
	sb=$(any_sandbox) || { cgk_skip "no cgroup hierarchy is mounted"; return 0; }
	for name in "${names[@]}"; do
		mkdir -p "$sb/$1/$name" || { fail "mkdir $name"; return; }
	done
	sh_start "$1"
	mkdir -p "$_sh_dir/cwd/$d/globXqYb"
	for name in "${names[@]}"; do
		pre=${name:0:2}
		sh_type "cgtop2 -b -n 1 $d/$pre" Tab
		[[ $line == "cgtop2 -b -n 1 $d/$pre"?* ]] || fail "$1: '$name': nothing inserted: '$line'"
		[[ $line != *[[:cntrl:]]* ]] || fail "$1: '$name': a control character on the line: '$line'"
		for f in "$_sh_dir"/cwd/pwned*; do
			[ ! -e "$f" ] || fail "$1: Tab on '$name' ran a command: ${f##*/} was created"
		done
		sh_run
		want=0
		if [[ $name == *[[:cntrl:]]* ]]; then
			want=64
			pane_has "control characters" ||
				fail "$1: '$name' did not reach cgtop2 whole, to be refused: $(tmux -L "$_sh_sock" capture-pane -p | grep cgtop2: | tail -n 1)"
		fi
		assertEquals "$1: '$name' reached cgtop2 as one argument, the cgroup's name: '$line'" $want "$status"
		for f in "$_sh_dir"/cwd/pwned*; do
			[ ! -e "$f" ] || fail "$1: '$name' ran a command: ${f##*/} was created (line '$line')"
			rm -f "$f"
		done
	done
	# the quoting bash's own printf %q gives
	sh_type "cgtop2 -b -n 1 /$d/zz" Tab
	assert_line "/zz<Tab>" "cgtop2 -b -n 1 /$d/zz\\\$\\(touch\\ pwned1\\)/"
}

test_bash_hostile_names() {
	hostile_names bash
}

# the same code quotes without the package: a few of the names suffice
test_bash_hostile_names_without_bash_completion() {
	hostile_names bash-plain 'zz$(touch pwned1)' 'sp ace' 'glob*q?[b]' "qu'te"
}

# CONTROLLERS:PATH, the colon a word break of bash's: "pids:" goes on from the root, a comma
# list of controllers is completed as one.
test_bash_spec() {
	need_shell bash || return 0
	local c sb
	controller_sandbox || return 0
	mkdir -p "$sb/web" "$sb/db"
	sh_start bash
	sh_type "cgcreate2 -g $c:" Tab
	[[ $line == "cgcreate2 -g $c:/"* && $line != *::* ]] || fail "-g $c:<Tab> gave '$line', not $c:/..."
	sh_type "cgcreate2 -g $c:/$S/w" Tab
	assert_line "-g $c:/.../w" "cgcreate2 -g $c:/$S/web/"
	sh_type "cgmigrate -F $c:$S/d" Tab
	assert_line "-F $c:.../d (relative)" "cgmigrate -F $c:$S/db/"
	sh_type "cgcreate2 -g cpu,${c:0:3}" Tab
	assert_line "-g cpu,${c:0:3}" "cgcreate2 -g cpu,$c:"
	sh_type "cgcreate2 -g cpu,${c:0:1}" M-*
	assertContains "-g cpu,${c:0:1}: a list of controllers" "$line" " cpu,$c: "
	assertNotContains "-g cpu,${c:0:1}: no path" "$line" "/"
	sh_type "cgcreate2 -g $c,cpu:/$S/w" Tab
	assert_line "-g $c,cpu:/.../w" "cgcreate2 -g $c,cpu:/$S/web/"
}

# The bare PATH (every hierarchy), libcgroup 3's :PATH (cgroup2), never the directory's files.
test_bash_bare_path() {
	need_shell bash || return 0
	local sb
	sb=$(any_sandbox) || { cgk_skip "no cgroup hierarchy is mounted"; return 0; }
	mkdir -p "$sb/x.my service" "$sb/x.busy"
	sh_start bash
	touch "$_sh_dir/cwd/afile"
	sh_type "cgexec2 -g /$S/x.m" Tab
	assert_line "cgexec2 -g /.../x.m" "cgexec2 -g /$S/x.my\\ service/"
	sh_type "cgtop2 /$S/x.m" Tab
	assert_line "cgtop2 /.../x.m" "cgtop2 /$S/x.my\\ service/"
	sh_type "cgexec2 -g " M-*
	assertNotContains "cgexec2 -g <Tab>: no file of the current directory" "$line" "afile"
	assertContains "cgexec2 -g <Tab>: a bare path" "$line" " / "
	if [ "$sb" = "$(cgk_mnt unified)/$S" ]; then
		sh_type "cgexec2 -g :/$S/x.m" Tab
		assert_line "cgexec2 -g :/.../x.m" "cgexec2 -g :/$S/x.my\\ service/"
		sh_type "cgexec2 -g :" Tab
		assertTrue "cgexec2 -g :<Tab> gave '$line'" '[[ $line == "cgexec2 -g :/"* ]]'
	fi
}

# Values come from the tools: --events and --collectors from cgtop2, options from --help.
test_bash_option_values() {
	need_shell bash || return 0
	sh_start bash
	sh_type "cgtop2 --events=" M-*
	assertContains "--events=<Tab>" "$line" " created "
	assertContains "--events=<Tab>" "$line" " throttled"
	assertNotContains "--events=<Tab>: no '=' doubled" "$line" "=="
	sh_type "cgtop2 --events=created,po" Tab
	assert_line "--events=created,po (no blank: the list goes on)" "cgtop2 --events=created,populated"
	sh_type "cgtop2 --collectors=" M-*
	assertContains "--collectors=<Tab>" "$line" " iodevice "
	sh_type "cgtop2 --collectors=+io" M-*
	assert_line "--collectors=+io" "cgtop2 --collectors=+io +iodevice "
	sh_type "cgtop2 --fields=cpu.usage,memory.cu" Tab
	assert_line "--fields=cpu.usage,memory.cu" "cgtop2 --fields=cpu.usage,memory.current"
	# a prefix of one key alone (memory_ begins dozens since the kernel's statistics came)
	sh_type "cgtop2 --fields=memory_by" Tab
	assert_line "--fields=memory_by" "cgtop2 --fields=memory_bytes"
	sh_type "cgtop2 --ord" Tab
	assert_line "--ord" "cgtop2 --order="
	sh_type "cgtop2 -o me" Tab
	assert_line "-o me" "cgtop2 -o memory "
	sh_type "cgtop2 --format=pr" Tab
	assert_line "--format=pr" "cgtop2 --format=prometheus "
	sh_type "cgcreate2 -x --kill=TE" Tab
	assert_line "--kill=TE" "cgcreate2 -x --kill=TERM "
	sh_type "cgcreate2 -r memory.m" M-*
	assert_line "-r memory.m" "cgcreate2 -r memory.max= memory.min= "
	sh_type "cgmigrate --threads-" Tab
	assert_line "cgmigrate --threads-" "cgmigrate --threads-of="
	sh_type "cgexec2 --no-such" Tab
	assert_line "an option that is not there" "cgexec2 --no-such"
}

# What was typed is compared as text: no sed program, regex or glob made of it.
test_bash_typed_text_is_no_pattern() {
	need_shell bash || return 0
	local t pane
	sh_start bash
	for t in "cgcreate2 -g 'a|b:'" "cgcreate2 -g 'a|b:/x" "cgtop2 -[" "cgtop2 --events=[" \
		"cgcreate2 -g 'a\\:" "cgtop2 '*"; do
		sh_type "$t" Tab
		assert_line "$t" "$t"
	done
	pane=$(tmux -L "$_sh_sock" capture-pane -p -S -200)
	assertNotContains "no error printed" "$pane" "sed:"
	assertNotContains "no error printed" "$pane" "grep:"
	assertNotContains "no error printed" "$pane" "bash:"
}

test_bash_pids_for_cgmigrate() {
	need_shell bash || return 0
	sleep 30 &
	local pid=$!
	cgk_execd "$pid" sleep
	sh_start bash
	sh_type "cgmigrate $pid" M-*
	assertContains "cgmigrate PID" " $line " " $pid "
	sh_type "cgmigrate --threads-of $pid" M-*
	assertContains "cgmigrate --threads-of PID" " $line " " $pid "
	kill "$pid"
	wait "$pid" 2>/dev/null || true
}

# cgexec2: from COMMAND on, the words are the command's, with and without bash-completion.
test_bash_cgexec2_command() {
	local k
	for k in bash bash-plain; do
		need_shell "$k" || return 0
		sh_start "$k"
		sh_type "cgexec2 -g pids:/ ech" Tab
		assert_line "cgexec2 ... ech" "cgexec2 -g pids:/ echo "
		sh_type "cgexec2 -s -- ech" Tab
		assert_line "cgexec2 -- ech" "cgexec2 -s -- echo "
		sh_type "cgexec2 -g pids:/ echo --ord" Tab
		assert_line "no cgexec2 option after COMMAND" "cgexec2 -g pids:/ echo --ord"
	done
}

test_zsh_options_and_values() {
	need_shell zsh || return 0
	sh_start zsh
	sh_type "cgtop2 --fields=cpu.usage,memory.cu" Tab
	assertTrue "zsh: --fields=cpu.usage,memory.cu: '$line'" '[[ $line == "cgtop2 --fields=cpu.usage,memory.current"* ]]'
	sh_type "cgtop2 --ord" Tab
	assert_line "--ord" "cgtop2 --order="
	sh_type "cgtop2 --order=mem" Tab
	assert_line "--order=mem" "cgtop2 --order=memory "
	sh_type "cgexec2 ech" Tab
	assertTrue "zsh: cgexec2 COMMAND: '$line'" '[[ $line == "cgexec2 echo"* ]]'
	# zsh shows the ',' of a list, taken back if a blank follows
	sh_type "cgtop2 --events=created,po" Tab
	assertTrue "zsh: --events=created,po: '$line'" '[[ $line == "cgtop2 --events=created,populated"* ]]' 
	sh_type "cgtop2 --events=" Tab
	pane_has "throttled" || fail "zsh: --events=<Tab> does not offer throttled"
	assertNotContains "zsh reported an error" "$(tmux -L "$_sh_sock" capture-pane -p)" "_cgkit:"
}

# A description is the whole of --help's, not its first line; -r offers the vocabulary, not
# the files of the current directory.
test_zsh_descriptions_and_set() {
	need_shell zsh || return 0
	sh_start zsh
	touch "$_sh_dir/cwd/memory.pressure"
	sh_type "cgcreate2 -" Tab
	pane_has "are translated on v1; repeatable" ||
		fail "zsh: -r's description is cut: $(tmux -L "$_sh_sock" capture-pane -p | grep -- --set)"
	sh_type "cgcreate2 -r mem" Tab
	assert_line "-r mem" "cgcreate2 -r memory."
	sh_type "cgcreate2 -r memory.m" Tab
	pane_has "memory.max=" || fail "zsh: -r memory.m<Tab> does not offer memory.max="
	sh_type "cgexec2 --set=cpu.w" Tab
	assert_line "--set=cpu.w" "cgexec2 --set=cpu.weight="
}

test_zsh_paths() {
	need_shell zsh || return 0
	local sb f d=$S/zsh
	sb=$(any_sandbox) || { cgk_skip "no cgroup hierarchy is mounted"; return 0; }
	mkdir -p "$sb/zsh/x.my service" "$sb/zsh/x.busy" "$sb/zsh/zz\$(touch pwned)"
	sh_start zsh
	sh_type "cgexec2 -g /$d/x.m" Tab
	assert_line "cgexec2 -g /.../x.m" "cgexec2 -g /$d/x.my\\ service/"
	sh_type "cgtop2 /$d/x.m" Tab
	assert_line "cgtop2 /.../x.m" "cgtop2 /$d/x.my\\ service/"
	sh_type "cgtop2 -b -n 1 $d/zz" Tab
	sh_run
	assertEquals "zsh: '$line' ran cgtop2 on the cgroup" 0 "$status"
	for f in "$_sh_dir"/cwd/pwned*; do
		[ ! -e "$f" ] || fail "zsh: the name ran a command: $f was created"
	done
}

# make install puts _cgkit where zsh's default fpath looks, for the usual prefixes.
test_zsh_file_installs_in_fpath() {
	cgk_need_prog zsh || return 0
	cgk_need_prog make "to list what make install puts where" || return 0
	[ -f "$CGKIT_TOP/Makefile" ] || { cgk_skip "no Makefile to install from"; return 0; }
	local fp p d
	fp=$(zsh -fc 'print -rl -- $fpath')
	for p in /usr /usr/local; do
		d=$(make -s -n -C "$CGKIT_TOP" install PREFIX=$p DESTDIR= 2>/dev/null |
			sed -n 's|.*completions/zsh/_cgkit \(.*\)/_cgkit$|\1|p')
		[ -n "$d" ] || { fail "make -n install PREFIX=$p installs no _cgkit"; continue; }
		grep -qxF -- "$d" <<<"$fp" || fail "PREFIX=$p installs _cgkit into $d, not in zsh's fpath"
	done
}

. "$SHUNIT2"
