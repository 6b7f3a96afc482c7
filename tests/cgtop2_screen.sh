#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2's ncurses screen, driven through tmux on a server of our own (-L): every key and view
# (table, sort keys, %, tree with folding, detail pane, help overlay, scrolling over more cgroups
# than rows), the detail pane at 80x24 and 60x24 (scrolled, nothing cut), the mouse wheel, a
# replay's detail pane with the tasks recorded, resize, the terminal left sane on every exit (q, SIGTERM, SIGINT, SIGHUP, SIGSEGV,
# SIGTSTP/SIGCONT), TERM=dumb and unknown terminals, colour and NO_COLOR, and hostile cgroup
# names (ESC, CSI, OSC 52, BEL, tab, newline, invalid UTF-8, wide characters) that must reach
# the pane as text. Cgroups only in the sandbox cgkit-test.<pid>: cgroup2's where one is mounted,
# else (legacy) the v1 cpuacct hierarchy's, with twins of the same path in the other v1
# hierarchies where the screen's actions act or its collectors read (setup_sandbox, twin).
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
_srv=
_n=0

teardown_test() {
	if [ -n "$_srv" ]; then
		tmux -L "$_srv" kill-server 2>/dev/null
		_srv=
	fi
	return 0
}

suite_teardown() {
	teardown_test
}

# The sandbox, made once, and a cgroup of its own for each test: U (its directory), S (its path
# in the hierarchy, as cgtop2 names it), H (the hierarchy as cgkit's messages name it). Where
# cgroup2 is mounted (unified, hybrid) the sandbox is cgroup2's. On legacy (v1 only) it is the
# cpuacct hierarchy's (cpu,cpuacct where co-mounted, as distributions do): the sampler reads
# tasks and CPU time there, and a bare path's actions (common/kernel/spec.c: every v1 hierarchy, in
# mount order) act first on the cpu,cpuacct hierarchy, mounted first there (tests/vm/guest).
# Skips without root, tmux or any of these hierarchies.
setup_sandbox() {
	cgk_need_root || return 1
	cgk_need_prog tmux "the terminal the screen is drawn in" || return 1
	cgk_need_prog python3 "to read the pane" || return 1
	if [ -n "$(cgk_mnt unified)" ]; then
		V=unified
	else
		cgk_need_v1 cpuacct || return 1
		V=cpuacct
	fi
	U=$(cgk_sandbox $V) || { fail "sandbox"; return 1; }
	H=$(hier_label "$(cgk_mnt $V)")
	_t=$((${_t:-0} + 1))
	U=$U/t$_t
	mkdir "$U" || { fail "mkdir $U"; return 1; }
	S=$SANDBOX_NAME/t$_t
}

# Whether the sandbox is a v1 hierarchy's (legacy).
sandbox_v1() {
	[ "$V" != unified ]
}

# cgkit's name for the hierarchy mounted at $1 in its messages: "unified", or its v1
# controllers in the mount's order ("cpu,cpuacct").
hier_label() {
	awk -v m="$1" 'NR == FNR { if (!/^#/) c[$1] = 1; next }
	{
		for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($5 != m) next
		if ($(i + 1) == "cgroup2") { print "unified"; exit }
		n = split($(i + 3), o, ","); s = ""
		for (k = 1; k <= n; k++) if (o[k] in c) s = s (s == "" ? "" : ",") o[k]
		print s; exit
	}' /proc/cgroups /proc/self/mountinfo
}

# The test's cgroup $2 (a path below it, "" for itself) made in the v1 hierarchy serving $1: its
# twin there, printed. A v1 cpuset cgroup takes tasks only with cpus and mems: each level gets
# its parent's.
twin() {
	local d p rel
	d=$(cgk_sandbox "$1") || return 1
	d=$d/t$_t
	mkdir -p "$d/$2" || return 1
	if [ -f "$d/cpuset.cpus" ]; then
		rel=$2 p=$d
		while :; do
			[ -s "$p/cpuset.cpus" ] || cat "${p%/*}/cpuset.cpus" >"$p/cpuset.cpus"
			[ -s "$p/cpuset.mems" ] || cat "${p%/*}/cpuset.mems" >"$p/cpuset.mems"
			[ -n "$rel" ] || break
			p=$p/${rel%%/*}
			[[ $rel == */* ]] && rel=${rel#*/} || rel=
		done
	fi
	echo "${d%/}${2:+/$2}"
}

# The pane with attributes, without the resets tmux puts where attributes end.
attrs() {
	pane -e | sed $'s/\e\\[\\(0\\|39\\|49\\)m//g'
}

tm() {
	tmux -L "$_srv" "$@"
}

# The pane as text; -e: with its attributes as escape sequences.
pane() {
	tm capture-pane -p "$@" -t "$_srv"
}

# The polls below start no program but tmux: in the VM guests each program started costs about
# half a second under load (the host's / over 9p), and polls of tmux, grep and sleep made the
# suite run past its 900 s there.

# Sleep $1 seconds without a process: a read that times out on a FIFO nobody writes (opened
# here, once: the polls run in subshells too).
mkfifo "$_cgk_tmp/nap" && exec {_nap_fd}<>"$_cgk_tmp/nap"
nap() {
	[ -n "${_nap_fd:-}" ] || { sleep "$1"; return 0; }
	read -r -t "$1" -u "$_nap_fd"
	return 0
}

# Whether a line of the pane matches extended regular expression $1 (grep -E's, by bash).
pane_has() {
	local l p
	p=$(pane)
	while IFS= read -r l; do
		[[ $l =~ $1 ]] && return 0
	done <<<"$p"
	return 1
}

# Wait (at most $2 seconds, default 120: a guard against a hang, not a bound) until the pane
# shows grep -E pattern $1.
pane_wait() {
	local end=$((SECONDS + ${2:-120})) # guard
	while [ $SECONDS -lt $end ]; do # guard
		pane_has "$1" && return 0
		nap 0.1
	done
	return 1
}

# Wait until the pane no longer shows $1 (at most $2 seconds, default 120: a guard).
pane_gone() {
	local end=$((SECONDS + ${2:-120})) # guard
	while [ $SECONDS -lt $end ]; do # guard
		pane_has "$1" || return 0
		nap 0.1
	done
	return 1
}

# A tmux format of the pane: alternate_on, cursor_flag, ...
fmt() {
	tm display -p -t "$_srv" "#{$1}"
}

# Start cgtop2 with arguments in a 120x40 pane (SIZE=COLSxROWS: another) on a new server. The
# pane's script records the terminal modes before and after, the pid and the exit status in
# $F.*, then stays, so that what cgtop2 left can be inspected. ENV (a variable) goes before the
# command.
start() {
	_n=$((_n + 1))
	teardown_test
	_srv=cgkit-$$-$_n
	F=$_cgk_tmp/run$_n
	printf '%s\n' '#!/bin/sh' 'f=$1' 'shift' 'trap : INT HUP' 'stty -a >"$f.before"' \
		"sh -c 'echo \$\$ >\"\$0\"; exec \"\$@\"' \"\$f.pid\" \"\$@\" 2>\"\$f.err\"" \
		'echo "EXIT=$?" >"$f.exit"' 'stty -a >"$f.after"' 'echo "SHELL-PROMPT"' 'exec sleep 600' >"$F.sh"
	local size=${SIZE:-120x40} i
	# the settings file of the test's own (ENV may name another): never the user's
	[ -d "$_cgk_tmp/config" ] || mkdir "$_cgk_tmp/config"
	LC_ALL=C.UTF-8 tmux -L "$_srv" new-session -d -s "$_srv" -x "${size%x*}" -y "${size#*x}" \
		env XDG_CONFIG_HOME="$_cgk_tmp/config" ${ENV:-} sh "$F.sh" "$F" "$T" "$@" \
		2>"$_cgk_tmp/tmux.err" ||
		{ fail "tmux: $(cat "$_cgk_tmp/tmux.err")"; return 1; }
	for i in $(seq 1 100); do
		[ -s "$F.pid" ] && return 0
		nap 0.1
	done
	fail "cgtop2 did not start"
	return 1
}

# Wait for cgtop2 to end; its exit line (and its stderr, when it is not EXIT=0). At most 30 s:
# the pane's script runs stty after it, which took over 8 s in a loaded VM guest.
ended() {
	local end=$((SECONDS + 30)) e # guard
	while [ $SECONDS -lt $end ]; do # guard
		[ -s "$F.after" ] && {
			cgk_slurp e "$F.exit"
			echo "$e"
			[ "$e" = EXIT=0 ] || head -c 2000 "$F.err"
			return 0
		}
		nap 0.1
	done
	echo "still running"
}

key() {
	tm send-keys -t "$_srv" "$@"
}

# The first word of the first line below the header with text in reverse video (the selection,
# with NO_COLOR), SGR sequences followed across lines.
selected() {
	local p l i=0 rev=0 shown text seg codes c first sgr=$'^([^\e]*)\e\\[([0-9;]*)m(.*)$'
	p=$(pane -e)
	while IFS= read -r l; do
		i=$((i + 1)) shown=0 text=
		while :; do
			if [[ $l =~ $sgr ]]; then
				seg=${BASH_REMATCH[1]} codes=${BASH_REMATCH[2]:-0} l=${BASH_REMATCH[3]}
			else
				seg=$l codes=
			fi
			text+=$seg
			[ $rev = 1 ] && [ $i -ge 3 ] && [[ $seg == *[![:space:]]* ]] && shown=1
			[ -n "$codes" ] || break
			for c in ${codes//;/ }; do
				case $c in 7) rev=1 ;; 0 | 27) rev=0 ;; esac
			done
		done
		if [ $shown = 1 ]; then
			read -r first _ <<<"$text"
			echo "$first"
			return 0
		fi
	done <<<"$p"
}

# The terminal as cgtop2 found it: modes, no alternate screen, cursor shown, no keypad or mouse
# mode, and the pane's script went on ($1 names the exit in failures).
assert_sane() {
	assertEquals "$1: terminal modes restored" "$(sed 1d "$F.before")" "$(sed 1d "$F.after")"
	pane_wait "SHELL-PROMPT" 3 || fail "$1: the script did not go on: $(pane)"
	assertEquals "$1: alternate screen left" 0 "$(fmt alternate_on)"
	assertEquals "$1: cursor shown" 1 "$(fmt cursor_flag)"
	assertEquals "$1: keypad mode off" 0 "$(fmt keypad_cursor_flag)"
	assertEquals "$1: mouse reporting off" 0 "$(fmt mouse_any_flag)"
	assertNotContains "$1: the table is gone" "$(pane)" "CGROUP"
}

# ---- the table and its keys -----------------------------------------------------------------

test_keys() {
	setup_sandbox || return 0
	mkdir -p "$U/a/b" "$U/c"
	ENV=NO_COLOR=1 start -d 0.3 "/$S" || return 0
	pane_wait "^cgtop2 /$S  depth 3  order cpu" || fail "title: $(pane)"
	# the sorted column marked
	pane_wait "^CGROUP +TASKS +%CPU▼ +MEMORY .* HIST-CPU" || fail "header: $(pane)"
	local k o
	for k in p:path t:tasks c:cpu m:memory i:io s:pressure; do
		o=${k#*:}
		key "${k%%:*}"
		pane_wait "order $o " || fail "${k%%:*}: $(pane | head -2)"
	done
	pane_wait "HIST-PSI" || fail "s: the history column follows the order: $(pane | sed -n 2p)"
	assertContains "s: the pressure columns marked" "$(pane | sed -n 2p)" "PSI-CPU▼ PSI-MEM▼ PSI-IO▼"
	assertNotContains "s: no other column marked" "$(pane | sed -n 2p)" "%CPU▼"
	key c
	key %
	pane_wait "^CGROUP +TASKS +CPU-TIME" || fail "%: CPU time: $(pane | sed -n 2p)"
	key %
	pane_wait "^CGROUP +TASKS +%CPU" || fail "% again: $(pane | sed -n 2p)"
	key R
	pane_wait "  raw  " || fail "R: raw: $(pane | head -1)"
	key R
	pane_gone "  raw  " || fail "R again: $(pane | head -1)"
	key P
	pane_wait "counting user processes" || fail "P: $(pane | head -1)"
	pane_wait "^CGROUP +PROCS" || fail "P header: $(pane | sed -n 2p)"
	key r
	pane_wait "counting user processes \(own only\)" || fail "r: $(pane | head -1)"
	key r P
	pane_wait "counting tasks" || fail "P again: $(pane | head -1)"
	key k
	pane_wait "counting processes" || fail "k: $(pane | head -1)"
	key k
	key -- -
	pane_wait "depth 2 " || fail "-: $(pane | head -1)"
	key +
	pane_wait "depth 3 " || fail "+: $(pane | head -1)"
	key z
	pane_wait "PAUSED" || fail "z: $(pane | head -1)"
	key Space
	sleep 0.3
	assertContains "space refreshes, still paused" "$(pane | head -1)" "PAUSED"
	key z
	pane_gone "PAUSED" || fail "z again: $(pane | head -1)"
	# F1 is ESC O P: the help, and never the P of process counting
	key F1
	pane_wait "cgtop2 keys" || fail "F1: help: $(pane)"
	assertContains "F1 leaves the counting alone" "$(pane | head -1)" "counting tasks"
	key x
	pane_gone "cgtop2 keys" || fail "help closed: $(pane)"
	key / a / b Enter
	pane_wait "filter: a/b" || fail "filter: $(pane | head -1)"
	assertEquals "filtered" "/$S/a/b" "$(pane | awk 'NR > 2 && $1 ~ /^\// { print $1 }')"
	key / Escape
	pane_gone "filter:" || fail "filter cleared: $(pane | head -1)"
	key q
	assertEquals "exit on q" "EXIT=0" "$(ended)"
	assert_sane q
	assertEquals "nothing on stderr" "" "$(cat "$F.err")"
}

# The help is an overlay: the table under it comes back as it was.
test_help_overlay() {
	setup_sandbox || return 0
	mkdir -p "$U/a" "$U/b"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	pane_wait "^/$S/b" || fail "start: $(pane)"
	key z
	pane_wait "PAUSED" || fail "z: $(pane | head -1)"
	local before
	before=$(pane)
	key h
	pane_wait "cgtop2 keys" || fail "h: $(pane)"
	assertContains "a box" "$(pane)" "│ q                  quit"
	assertContains "the table beside it" "$(pane)" "/$S"
	key Enter
	pane_gone "cgtop2 keys" || fail "closed: $(pane)"
	assertEquals "the table as it was" "$before" "$(pane)"
	key '?'
	pane_wait "cgtop2 keys" || fail "?: $(pane)"
	key q
	pane_gone "cgtop2 keys" || fail "q closes the help first: $(pane)"
	key q
	assertEquals "then quits" "EXIT=0" "$(ended)"
}

# ---- scrolling ------------------------------------------------------------------------------

test_scroll() {
	setup_sandbox || return 0
	# one mkdir: a program costs half a second in a loaded VM guest
	mkdir "$U"/n{01..80} || fail "mkdir"
	ENV=NO_COLOR=1 start -d 0.5 -p "/$S" || return 0
	pane_wait "line 1 of 81 .*44 more below" || fail "more below: $(pane | tail -1)"
	assertEquals "the sandbox selected" "/$S" "$(selected)"
	assertNotContains "n80 not shown yet" "$(pane)" "/$S/n80"
	key Down Down
	pane_wait "^line 3 of 81" || fail "Down: $(pane | tail -1)"
	assertEquals "Down moves the selection" "/$S/n02" "$(selected)"
	key NPage
	pane_wait "^line 40 of 81" || fail "PgDn: $(pane | tail -1)"
	key NPage
	pane_wait "^line 77 of 81 .*more above" || fail "PgDn again: $(pane | tail -1)"
	assertEquals "selection shown" "/$S/n76" "$(selected)"
	key End
	pane_wait "^line 81 of 81 .*\(45-81 shown\)  more above$" || fail "End: $(pane | tail -1)"
	assertContains "the last shown" "$(pane)" "/$S/n80"
	key PPage
	pane_wait "^line 44 of 81" || fail "PgUp: $(pane | tail -1)"
	key Home
	pane_wait "^line 1 of 81" || fail "Home: $(pane | tail -1)"
	key Up
	sleep 0.3
	assertContains "Up at the top stays" "$(pane | tail -1)" "line 1 of 81"
	# the selection stays on its cgroup through sorts and views
	key Down Down Down Down Down
	pane_wait "^line 6 of 81" || fail "Down x5: $(pane | tail -1)"
	key m
	pane_wait "order memory" || fail "m: $(pane | head -1)"
	assertEquals "kept through a sort" "/$S/n05" "$(selected)"
	key T
	pane_wait "  tree  " || fail "T: $(pane | head -1)"
	assertEquals "kept into the tree" "n05" "$(selected | sed 's/^[├└│─ ]*//')"
	key T p
	pane_wait "order path" || fail "p: $(pane | head -1)"
	assertEquals "kept back in the list" "/$S/n05" "$(selected)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# ---- the tree -------------------------------------------------------------------------------

test_tree() {
	setup_sandbox || return 0
	mkdir -p "$U/a/x" "$U/a/y" "$U/b"
	ENV=NO_COLOR=1 start -d 0.3 -p --tree "/$S" || return 0
	pane_wait "^├─a " || fail "tree: $(pane)"
	assertContains "first child" "$(pane)" "│ ├─x "
	assertContains "last child" "$(pane)" "│ └─y "
	assertContains "last at the top" "$(pane)" "└─b "
	key Down
	pane_wait "^line 2 of 5" || fail "Down: $(pane | tail -1)"
	key Left
	pane_wait "^├─a \[\+2\]" || fail "Left folds: $(pane)"
	assertNotContains "folded" "$(pane)" "─x "
	pane_wait "^line 2 of 3" || fail "3 lines: $(pane | tail -1)"
	key Right
	pane_wait "│ ├─x " || fail "Right unfolds: $(pane)"
	# Left on a leaf goes to its parent
	key Down Left
	pane_wait "^line 2 of 5" || fail "Left on a leaf: $(pane | tail -1)"
	key T
	pane_wait "^/$S/a/x " || fail "T: the list: $(pane)"
	key q
	assertEquals "EXIT=0" "$(ended)"
	# ASCII where the locale is not UTF-8, sparklines too
	ENV="LC_ALL=C NO_COLOR=1" start -d 0.3 -p --tree "/$S" || return 0
	pane_wait '^\|-a ' || fail "ASCII tree: $(pane)"
	assertContains "ASCII elbow" "$(pane)" '| `-y '
	pane_wait '^`-b .* [ .:=+*#%-]+$' || fail "ASCII sparkline: $(pane)"
	assertEquals "no UTF-8 in the pane" "" "$(pane | LC_ALL=C grep -n '[^ -~]')"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# ---- the detail pane ------------------------------------------------------------------------

test_detail() {
	setup_sandbox || return 0
	mkdir -p "$U/d"
	ENV=NO_COLOR=1 start -d 0.2 -p "/$S" || return 0
	pane_wait "^/$S/d " || fail "start: $(pane)"
	key Down Enter
	pane_wait "│ /$S/d +│" || fail "Enter: detail of the selection: $(pane)"
	pane_wait "│ CPU % " || fail "a CPU graph: $(pane)"
	assertContains "tasks" "$(pane)" "│ tasks          0 (threads)"
	# the graphs fill with refreshes: blocks, the newest at the right
	pane_wait "▁+ +│$" || fail "graph: $(pane)"
	key Escape
	pane_gone "│ CPU % " || fail "Esc closes: $(pane)"
	pane_wait "^CGROUP" || fail "the table back: $(pane)"
	key Enter
	pane_wait "│ CPU % " || fail "Enter again: $(pane)"
	key Enter
	pane_gone "│ CPU % " || fail "Enter closes: $(pane)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# Why the sandbox has no cpu.pressure.
no_psi() {
	if sandbox_v1; then
		echo "no cpu.pressure in the v1 sandbox ($H): the PSI files are cgroup2's ($(cgk_layout))"
	else
		echo "no PSI in this kernel (no cpu.pressure)"
	fi
}

# PSI some and full over 10, 60 and 300 seconds, of each resource, and the stall totals.
test_detail_pressure() {
	setup_sandbox || return 0
	[ -e "$U/cpu.pressure" ] || { cgk_skip "$(no_psi)"; return 0; }
	ENV=NO_COLOR=1 start -d 0.2 -p "/$S" || return 0
	pane_wait "^/$S " || fail "start: $(pane)"
	key Enter
	pane_wait "│ +io  " || fail "Enter: the pressure lines: $(pane)"
	assertContains "the averages' header" "$(pane)" \
		"│ pressure %     some    10s    60s   300s  full    10s    60s   300s  stalled s"
	local res
	for res in cpu memory io; do
		assertTrue "six averages and the totals of $res: $(pane)" \
			"pane | grep -Eq '^│ +$res +( +[0-9]+\.[0-9]{2}){6}  [0-9.]+ some, [0-9.]+ full'"
	done
	key Escape q
	assertEquals "EXIT=0" "$(ended)"
}

# The pane as it is on the screen, rows 2 to $1 (the box): corners, sides and each row's
# width in columns (wide characters two).
assert_boxed() {
	assertEquals "$2: the box whole" "ok" "$(pane | python3 -c '
import sys, unicodedata
def w(s): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
rows = sys.stdin.read().split("\n")[1:int(sys.argv[1])]
cols = w(rows[0])
bad = [r for r in rows[1:-1] if not (r.startswith("│") and r.endswith("│") and w(r) == cols)]
if rows[0][0] + rows[0][-1] != "┌┐" or rows[-1][0] + rows[-1][-1] != "└┘":
    bad.append("corners")
print("ok" if not bad else bad)' "$1")"
}

# A turn of the mouse wheel ($1: up or down) over the pane, as its terminal reports one: SGR
# (kmous \E[<) or X10 (\E[M, then the button, column and row as bytes of 32 + the number).
wheel() {
	local term b
	term=$(tm show -gv default-terminal)
	b=$([ "$1" = up ] && echo 64 || echo 65)
	if [ "$(tput -T "$term" kmous 2>/dev/null)" = $'\e[<' ]; then
		key -l $'\e'"[<$b;10;10M"
	else
		key -l $'\e[M'"$(printf "\\$(printf %o $((b + 32)))")**"
	fi
}

# Start $2 sleeps (and a sleep that started them, $!) in cgroup directory $1, and in its twins
# $3... (cgroup directories of other v1 hierarchies) too.
sleeps_in() {
	sh -c 'd=$1 n=$2; shift 2; for t in "$d" "$@"; do echo $$ >"$t/cgroup.procs"; done
		i=0; while [ $i -lt "$n" ]; do sleep 600 & i=$((i + 1)); done
		exec sleep 600' _ "$@" &
	# killed by sleeps_kill, whose job notice would be noise
	disown $!
	within 30 procs_more "$1" "$2" || fail "the sleeps did not start"
}

# Whether cgroup directory $1 lists more than $2 processes.
procs_more() {
	local procs
	mapfile -t procs <"$1/cgroup.procs"
	[ ${#procs[@]} -gt "$2" ]
}

# Run $2... until it succeeds, for at most $1 seconds (a command of bash's: nothing started).
within() {
	local end=$((SECONDS + $1)) # guard
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1 # guard
		nap 0.05
	done
}

# Kill what sleeps_in started in $1 (by pid: all of them ours).
sleeps_kill() {
	local p procs=()
	[ -e "$1/cgroup.procs" ] && mapfile -t procs <"$1/cgroup.procs"
	for p in "${procs[@]}"; do kill -9 "$p" 2>/dev/null; done
	within 30 test ! -s "$1/cgroup.procs" || fail "the sleeps in $1 did not end"
}

# The detail pane in 80x24: every section on the screen or a PgDn away, whole (a long line goes
# on below its values), inside the box; in 60 columns the pressure table and graphs narrow.
test_detail_80x24() {
	setup_sandbox || return 0
	local pid all re psi=
	[ -e "$U/cpu.pressure" ] && psi=1
	mkdir "$U/s"
	# a list of tasks longer than the screen
	sleeps_in "$U/s" 25
	pid=$!
	SIZE=80x24 ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/s " || fail "start: $(pane)"
		key Down Enter
		pane_wait "│ /$S/s +│" || fail "Enter: $(pane)"
		pane_wait "─ 1-20 of [0-9]+  PgDn ─┘$" || fail "the part shown: $(pane | tail -n 2)"
		assert_boxed 23 "80x24"
		# the graphs leave the first page to the processes
		pane_wait "│ +PID S +%CPU▼ +RSS USER +COMM +COMMAND +│" ||
			fail "80x24: the processes on the first page: $(pane)"
		assertTrue "80x24: processes on the first page: $(pane)" \
			"pane | grep -Eq '│ +[0-9]+ S +[0-9.-]+ +[0-9.]+[KMG] root +sleep +sleep 600 +│'"
		all=$(pane)
		key NPage
		pane_wait "─ 20-39 of [0-9]+  PgUp" || fail "PgDn: $(pane | tail -n 2)"
		assert_boxed 23 "PgDn"
		all="$all
$(pane)"
		key End
		pane_wait "PgUp ─┘$" || fail "End: $(pane | tail -n 2)"
		pane_wait "│ pressure +[0-9.-]+ .* max [0-9.]+ +│$" || fail "the graphs at the end: $(pane)"
		all="$all
$(pane)"
		for re in "│ tasks +26 \(threads\)" "│ CPU +[0-9.-]+" "│ memory +[-0-9.BKMG]+ +│" \
			"│ IO +read .*/s, write .*/s +│" "│ CPU % +[0-9.-]+ .* max [0-9.]+ +│" \
			"│ memory +[-0-9.BKMG]+ .* max [0-9.]+[BKMG] +│" "│ IO +[-0-9.BKMG]+/s .* max .*/s +│" \
			"│ pressure +[0-9.-]+ .* max [0-9.]+ +│" \
			"│ 26 processes of its own +│" "│ +$pid S +[0-9.-]+ +[0-9.]+[KMG] root +sleep +sleep 600 +│"; do
			echo "$all" | grep -Eq -- "$re" || fail "80x24: no '$re' in: $all"
		done
		if [ -n "$psi" ]; then
			for re in "│ pressure % +some +10s +60s +300s +full +10s +60s +300s +│" \
				"│ cpu( +[0-9]+\.[0-9]{2}){6} +│" "│ io( +[0-9]+\.[0-9]{2}){6} +│" \
				"│ +stalled s: [0-9.]+ some, [0-9.]+ full +│"; do
				echo "$all" | grep -Eq -- "$re" || fail "80x24 PSI: no '$re' in: $all"
			done
		fi
		key Home
		pane_wait "─ 1-20 of [0-9]+  PgDn ─┘$" || fail "Home: $(pane | tail -n 2)"
		tm resize-window -t "$_srv" -x 60 -y 24
		pane_wait "│ /$S/s +│$" || fail "60x24: $(pane)"
		assert_boxed 23 "60x24"
		all=$(pane)
		key NPage
		pane_wait "PgUp" || fail "60x24 PgDn: $(pane | tail -n 2)"
		all="$all
$(pane)"
		key End
		pane_wait "│ pressure +[0-9.-]+ .* max [0-9.]+ +│$" || fail "60x24 End: $(pane)"
		all="$all
$(pane)"
		[ -z "$psi" ] || echo "$all" | grep -Eq "│ cpu some( +[0-9]+\.[0-9]{2}){3} +│" ||
			fail "60x24: some and full on lines of their own: $all"
		echo "$all" | grep -Eq "│ CPU % +[0-9.-]+ .* max [0-9.]+ +│" || fail "60x24: a narrower graph: $all"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/s"
	return 0
}

# The mouse wheel scrolls the detail pane when it is open, else moves the selection, by 3.
test_mouse_wheel() {
	setup_sandbox || return 0
	mkdir "$U"/w{1..5} || fail "mkdir"
	# w1's detail pane longer than the screen
	sleeps_in "$U/w1" 25
	SIZE=80x24 ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^line 1 of 6 " || fail "start: $(pane | tail -n 1)"
		assertEquals "mouse reporting on" 1 "$(fmt mouse_any_flag)"
		wheel down
		pane_wait "^line 4 of 6 " || fail "wheel down: the selection: $(pane | tail -n 1)"
		assertEquals "wheel down" "/$S/w3" "$(selected)"
		wheel up
		pane_wait "^line 1 of 6 " || fail "wheel up: $(pane | tail -n 1)"
		key Down Enter
		pane_wait "─ 1-20 of [0-9]+  PgDn ─┘$" || fail "Enter: $(pane | tail -n 2)"
		wheel down
		pane_wait "─ 4-23 of [0-9]+  PgUp  PgDn ─┘$" || fail "wheel down: the pane: $(pane | tail -n 2)"
		assertContains "the selection stays" "$(pane | tail -n 1)" "line 2 of 6"
		wheel down
		pane_wait "─ 7-26 of " || fail "wheel down again: $(pane | tail -n 2)"
		wheel up
		wheel up
		pane_wait "─ 1-20 of [0-9]+  PgDn ─┘$" || fail "wheel up twice: $(pane | tail -n 2)"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
		assert_sane "after the wheel"
	}
	sleeps_kill "$U/w1"
	return 0
}

# The selected cgroup's own processes in the detail pane: pid, state, CPU and comm, the busiest
# first; a comm with ESC and a tab (written to /proc/PID/comm) shown escaped; with H, threads.
test_detail_members() {
	setup_sandbox || return 0
	local busy sleeper ready=$_cgk_tmp/members.ready
	mkdir "$U/m"
	# one thread spins (busy-1), the main one waits
	"$HELPERS/top_busy" -n 1 -r "$ready" "$U/m/cgroup.procs" &
	busy=$!
	# only a task itself may write its /proc/PID/comm (the kernel: EINVAL for others)
	sh -c 'echo $$ >"$1"; exec python3 -c "$2"' _ "$U/m/cgroup.procs" '
import time
open("/proc/self/comm", "w").write("x\x1b[7mREV\t")
time.sleep(600)' &
	sleeper=$!
	cgk_wait_for test -e "$ready" || fail "top_busy did not start"
	cgk_wait_for grep -q REV "/proc/$sleeper/comm" || fail "the comm not set"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/m " || fail "start: $(pane)"
		key Down Enter
		pane_wait "│ 2 processes of its own +│" || fail "the processes' count: $(pane)"
		# the sorted column (CPU) marked
		pane_wait "│ +PID S +%CPU▼ +RSS USER +COMM +COMMAND +│" ||
			fail "the processes' header: $(pane)"
		# a CPU figure from the second sample on; the state is the main thread's (S); RSS,
		# the user and the command line
		pane_wait "^│ +$busy [RS] +[0-9]+\.[0-9] +[0-9.]+[KMG] root +top_busy +[^ ]*top_busy" ||
			fail "top_busy: $(pane)"
		assertEquals "the busiest first" "$busy" \
			"$(pane | grep -A1 "PID S" | tail -n 1 | awk '{ print $2 }')"
		assertEquals "the comm escaped" 1 \
			"$(pane | grep -E "^│ +$sleeper S +[0-9.]+ +[0-9.]+[KMG] root +" | grep -cF 'x\x1b[7mREV\t')"
		# the command line's newlines (python's -c script) escaped
		assertEquals "the command line escaped" 1 \
			"$(pane | grep -E "^│ +$sleeper S " | grep -cF 'python3 -c \nimport time\nopen(')"
		assertFalse "no reverse video from the comm" \
			"attrs | sed '1,2d;\$d' | grep -qE $'\e\\[([0-9]*;)*7m'"
		# top_busy's two threads and python's one
		key H
		pane_wait "│ 3 threads of its own +│" || fail "H: the threads: $(pane)"
		assertContains "H: by TID" "$(pane)" "     TID S  %CPU▼"
		pane_wait "^│ +[0-9]+ R +[0-9]+\.[0-9] +[0-9.]+[KMG] root +busy-1 " || fail "busy-1: $(pane)"
		assertEquals "the thread's name escaped" 1 "$(pane | grep -cF 'x\x1b[7mREV\t')"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	kill -9 "$busy" "$sleeper" 2>/dev/null
	wait "$busy" "$sleeper" 2>/dev/null
	return 0
}

# A cgroup whose tasks are in a v1 hierarchy only (cpuacct; its unified namesake is empty):
# the pane lists them from there.
test_detail_members_v1() {
	setup_sandbox || return 0
	sandbox_v1 && { cgk_skip "no unified namesake to leave empty ($(cgk_layout)): every test's tasks are in the v1 sandbox ($H)"; return 0; }
	cgk_need_v1 cpuacct || return 0
	local acct pid
	acct=$(cgk_sandbox cpuacct)/t$_t
	mkdir -p "$acct/v1" "$U/v1"
	sh -c 'echo $$ >"$1"; exec sleep 600' _ "$acct/v1/cgroup.procs" &
	pid=$!
	cgk_execd "$pid" sleep
	cgk_wait_for grep -qx "$pid" "$acct/v1/cgroup.procs" || fail "sleep did not join"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/v1 " || fail "start: $(pane)"
		key Down Enter
		pane_wait "^│ +$pid S +[0-9]+\.[0-9] +[0-9.]+[KMG] root +sleep +sleep 600 +│" ||
			fail "sleep from cpuacct: $(pane)"
		assertContains "one process" "$(pane)" "1 process of its own"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# The collectors' figures: limits on the v1 memory and pids hierarchies of a hybrid host (no
# process is put there), joined with the unified cgroup by path.
# The detail pane lists v1's cpuacct.usage_percpu CPU by CPU (issue 45; the legacy fixture).
test_detail_percpu() {
	local mi=$_cgk_tmp/legacy.mi
	sed "s|@DIR@|$FIXTURES/cgtop2|" "$FIXTURES/cgtop2/legacy.mountinfo.in" >"$mi"
	ENV="NO_COLOR=1 CGKIT_MOUNTINFO=$mi" start -d 1 /svc || return 0
	pane_wait "^/svc " || fail "the fixture's cgroup: $(pane)"
	key Enter
	pane_wait "│ kernel +cpu_usage_percpu_seconds 0:1\.000 1:2\.000 2:0\.000 +│" ||
		fail "the CPUs' times: $(pane)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

test_detail_limits() {
	setup_sandbox || return 0
	cgk_need_v1 memory || return 0
	cgk_need_v1 pids || return 0
	local mem pids
	mem=$(cgk_sandbox memory)/t$_t
	pids=$(cgk_sandbox pids)/t$_t
	mkdir -p "$mem/lim" "$pids/lim" "$U/lim"
	echo 104857600 >"$mem/lim/memory.limit_in_bytes"
	echo 50 >"$pids/lim/pids.max"
	ENV=NO_COLOR=1 start -d 0.3 -p --depth=1 "/$S" || return 0
	pane_wait "^/$S/lim " || fail "start: $(pane)"
	key Down Enter
	pane_wait "│ memory limits  max 100.0M" || fail "memory.max: $(pane)"
	assertContains "a bar against memory.max" "$(pane)" "│ memory.max     ░░░░░░░░░░"
	assertContains "pids.max" "$(pane)" "│ tasks          0 (threads), pids.max 50"
	assertContains "a bar against pids.max" "$(pane)" "│ pids.max       ░░░░░░░░░░"
	assertContains "memory events" "$(pane)" "│ memory events  max 0  oom_kill 0"
	assertContains "pids events" "$(pane)" "│ pids events    max 0 (forks refused)"
	assertContains "CPU user/system" "$(pane)" "user 0.000 s, system 0.000 s"
	key Escape q
	assertEquals "EXIT=0" "$(ended)"
}

# The CPU limit beside the memory and pids ones: cpu.max as a share of one CPU and cpu.weight,
# from the v1 cpu twin on a hybrid host (its own hierarchy, walked for the pane), or cgroup2's.
test_detail_cpu_limit() {
	setup_sandbox || return 0
	local d
	if [ -n "$(cgk_mnt cpu)" ] && [ "$(cgk_mnt cpu)" != "$(cgk_mnt unified)" ]; then
		d=$(cgk_sandbox cpu)/t$_t
		mkdir -p "$d/lim" "$U/lim"
		echo 100000 >"$d/lim/cpu.cfs_period_us"
		echo 25000 >"$d/lim/cpu.cfs_quota_us"
		echo 512 >"$d/lim/cpu.shares"
	else
		cgk_need_v2 cpu || return 0
		# the sandbox's top enables it first: a controller reaches a child only top-down
		echo +cpu >"${U%/*}/cgroup.subtree_control" &&
			echo +cpu >"$U/cgroup.subtree_control" || { fail "+cpu"; return 0; }
		mkdir -p "$U/lim"
		echo "25000 100000" >"$U/lim/cpu.max"
		echo 50 >"$U/lim/cpu.weight"
	fi
	ENV=NO_COLOR=1 start -d 0.3 -p --depth=1 "/$S" || return 0
	pane_wait "^/$S/lim " || fail "start: $(pane)"
	key Down Enter
	pane_wait "│ CPU limit      25% of one CPU .cpu.max 25000 100000., cpu.weight 50" ||
		fail "cpu.max: $(pane)"
	pane_wait "│ cpu.max        ░░░" || fail "a bar against cpu.max: $(pane)"
	assertContains "throttling beside it" "$(pane)" "│ throttled      0 of "
	key Escape q
	assertEquals "EXIT=0" "$(ended)"
}

# --psi-trigger on the screen: a cgroup whose trigger fired less than a window ago is marked
# "!cpu" after its name (three busy loops on two CPUs, cpu:some:500ms:2s as the events test);
# the idle cgroup beside it never is, and the mark goes once the stall has ended.
test_psi_trigger_mark() {
	setup_sandbox || return 0
	local busy
	# the trigger's watcher opens cgroup2's pressure files
	sandbox_v1 && { cgk_skip "$(no_psi)"; return 0; }
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	cgk_in_vm && { cgk_skip "emulated CPUs (TCG) do not stall on the trigger's clock"; return 0; }
	mkdir "$U/busy" "$U/idle"
	ENV=NO_COLOR=1 start -d 0.3 -p --psi-trigger=cpu:some:500ms:2s "/$S" || return 0
	pane_wait "^/$S/idle " || fail "start: $(pane)"
	assertNotContains "nothing fired yet" "$(pane)" "!cpu"
	"$HELPERS/top_busy" -n 3 "$U/busy/cgroup.procs" &
	busy=$!
	pane_wait "^/$S/busy !cpu " || fail "hung: no mark in 2 min: $(pane)"
	assertNotContains "the idle cgroup: no mark" "$(pane)" "/$S/idle !cpu"
	kill -9 "$busy"
	wait "$busy" 2>/dev/null
	pane_gone "^/$S/busy !cpu" 8 || fail "the mark stays after the stall: $(pane)"
	assertNotContains "the idle cgroup: still no mark" "$(pane)" "/$S/idle !cpu"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# --replay opens the same screen on the recording, paused, and steps through it; its detail
# pane lists the tasks recorded (a comm with ESC and a tab escaped, as live).
test_replay() {
	setup_sandbox || return 0
	local pid
	mkdir -p "$U/r"
	sh -c 'echo $$ >"$1"; exec python3 -c "$2"' _ "$U/r/cgroup.procs" '
import time
open("/proc/self/comm", "w").write("rec\x1b[7mREV\t")
time.sleep(600)' &
	pid=$!
	cgk_wait_for grep -q REV "/proc/$pid/comm" || fail "the comm not set"
	"$T" --record="$_cgk_tmp/rec" -n 4 -d 0.1 "/$S" || fail "record"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	ENV=NO_COLOR=1 start --replay="$_cgk_tmp/rec" -p || return 0
	pane_wait "^cgtop2 /$S .*PAUSED  replay [0-9-]+ [0-9:]+ \(1/4\)" || fail "replay: $(pane | head -1)"
	pane_wait "^/$S/r " || fail "the recorded cgroups: $(pane)"
	key ]
	pane_wait "\(2/4\)" || fail "]: $(pane | head -1)"
	key '}'
	pane_wait "\(4/4\)" || fail "}: $(pane | head -1)"
	key [
	pane_wait "\(3/4\)" || fail "[: $(pane | head -1)"
	key '{'
	pane_wait "\(1/4\)" || fail "{: $(pane | head -1)"
	key T Down Enter
	pane_wait "│ /$S/r +│" || fail "detail over a replay: $(pane)"
	pane_wait "│ 1 process of its own +│" || fail "the tasks recorded: $(pane)"
	# no RSS, user or command line recorded
	assertEquals "the recorded comm, escaped" 1 \
		"$(pane | grep -E "^│ +$pid S +[0-9.-]+ +- +- +" | grep -cF 'rec\x1b[7mREV\t')"
	# a replay acts on nothing
	key f
	pane_wait "a replay shows what was recorded: nothing to act on" || fail "f in a replay: $(pane | tail -n 1)"
	assertFalse "no reverse video from the comm" \
		"attrs | sed '1,2d;\$d' | grep -qE $'\e\\[([0-9]*;)*7m'"
	key Escape z
	pane_wait "\(4/4\)" || fail "z plays it: $(pane | head -1)"
	key q
	assertEquals "EXIT=0" "$(ended)"
	assert_sane replay
	# a recording of format 1.0 has no tasks, which the pane says (not "0 processes")
	ENV=NO_COLOR=1 start --replay="$FIXTURES/cgtop2/record-1.0" -p || return 0
	pane_wait "^/app " || fail "format 1.0: $(pane)"
	key Enter
	pane_wait "│ \(no tasks in this recording: format 1.0\) +│" || fail "format 1.0 detail: $(pane)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# ---- resize, stop, every exit ---------------------------------------------------------------

test_resize() {
	setup_sandbox || return 0
	mkdir "$U"/some-long-name-{1..30} || fail "mkdir"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	pane_wait "HIST-CPU" || fail "start: $(pane)"
	key h
	pane_wait "cgtop2 keys" || fail "h: $(pane)"
	tm resize-window -t "$_srv" -x 70 -y 20
	pane_wait "│ q  +quit" || fail "the help redrawn in the new size: $(pane)"
	key x
	pane_wait "^line 1 of 31 .*14 more below" || fail "70x20: $(pane | tail -1)"
	assertEquals "lines fit 70 columns" "" \
		"$(pane | python3 -c 'import sys; [print(l) for l in sys.stdin.read().split("\n") if len(l) > 70]')"
	assertNotContains "no room for the history" "$(pane | sed -n 2p)" "HIST"
	tm resize-window -t "$_srv" -x 130 -y 45
	pane_wait "^line 1 of 31  \(1-31 shown\)$" || fail "130x45: $(pane | tail -1)"
	pane_wait "HIST-CPU" || fail "history back: $(pane | sed -n 2p)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

test_exits_leave_the_terminal_sane() {
	setup_sandbox || return 0
	local sig
	for sig in TERM INT HUP; do
		start -d 0.3 "/$S" || return 0
		pane_wait "^CGROUP" || fail "$sig start: $(pane)"
		kill -"$sig" "$(cat "$F.pid")"
		assertEquals "exit on SIG$sig" "EXIT=0" "$(ended)"
		assert_sane "SIG$sig"
	done
	# ^C from the terminal
	start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP" || fail "^C start: $(pane)"
	key C-c
	assertEquals "exit on ^C" "EXIT=0" "$(ended)"
	assert_sane "^C"
	# a crash: the fatal-signal handler gives the terminal back, then the signal kills
	start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP" || fail "SEGV start: $(pane)"
	kill -SEGV "$(cat "$F.pid")"
	assertEquals "killed by SIGSEGV" "EXIT=139" "$(ended | head -n 1)"
	assert_sane "SIGSEGV"
}

test_stop_and_continue() {
	setup_sandbox || return 0
	start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP" || fail "start: $(pane)"
	kill -TSTP "$(cat "$F.pid")"
	# a guard of minutes: a loaded machine (load 30, ASan) took past the default 5 s
	CGK_WAIT_TICKS=2400 cgk_wait_for sh -c "grep -q '^State:.*T' /proc/$(cat "$F.pid")/status" ||
		fail "not stopped on SIGTSTP"
	assertEquals "stopped: alternate screen left" 0 "$(fmt alternate_on)"
	assertEquals "stopped: cursor shown" 1 "$(fmt cursor_flag)"
	kill -CONT "$(cat "$F.pid")"
	pane_wait "^CGROUP" || fail "SIGCONT: the screen back: $(pane)"
	assertEquals "continued: alternate screen" 1 "$(fmt alternate_on)"
	key q
	assertEquals "EXIT=0" "$(ended)"
	assert_sane "q after a stop"
}

# ---- terminals ncurses cannot drive, colour -------------------------------------------------

test_dumb_terminal_falls_back() {
	setup_sandbox || return 0
	ENV=TERM=dumb start -n 2 -d 0.2 -p "/$S" || return 0
	assertEquals "TERM=dumb: done" "EXIT=0" "$(ended)"
	assertEquals "one line on stderr" \
		"cgtop2: the terminal (TERM=dumb) cannot be driven full-screen: it has no cursor addressing; printing plain snapshots as -b does" \
		"$(cat "$F.err")"
	assertEquals "two batch snapshots" 2 "$(pane | grep -c '^CGROUP ')"
	assertNotContains "no screen title" "$(pane)" "(h: help)"
	ENV=TERM=no-such-terminal-$$ start -n 1 -p "/$S" || return 0
	assertEquals "unknown TERM: done" "EXIT=0" "$(ended)"
	assertContains "unknown TERM: said" "$(cat "$F.err")" "terminfo does not know it"
	assertEquals "unknown TERM: one line" 1 "$(wc -l <"$F.err")"
	pane_wait "^/$S " || fail "unknown TERM: batch output: $(pane)"
}

test_colour_and_monochrome() {
	setup_sandbox || return 0
	start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP" || fail "start: $(pane)"
	assertContains "colour: the header black on cyan" "$(pane -e | sed -n 2p)" $'\e[30m\e[46m'
	key q
	ended >/dev/null
	ENV=NO_COLOR=1 start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP" || fail "NO_COLOR start: $(pane)"
	assertEquals "NO_COLOR: no colour at all" "" "$(pane -e | grep -E $'\e\\[[0-9;]*(3|4)[0-7]m')"
	assertTrue "NO_COLOR: the header in reverse" "pane -e | sed -n 2p | grep -qE $'\e\\[([0-9]*;)*7m'"
	key q
	ended >/dev/null
	# a terminal without colours
	ENV=TERM=vt100 start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP" || fail "vt100 start: $(pane)"
	assertEquals "vt100: no colour" "" "$(pane -e | grep -E $'\e\\[[0-9;]*(3|4)[0-7]m')"
	key q
	assertEquals "vt100: EXIT=0" "EXIT=0" "$(ended)"
}

# ---- hostile names --------------------------------------------------------------------------

test_hostile_names() {
	setup_sandbox || return 0
	local n names=($'esc\e[7mREV\e[0m' $'csi\e[2J\e[H' $'osc52\e]52;c;cGF3bmVk\a' $'title\e]2;pwned\a'
		$'bel\a\a' $'tab\there' $'bad\xff\xfe' $'wide\xe4\xb8\xad\xe6\x96\x87x'
		$'rlo\xe2\x80\xaex' $'c1\xc2\x9bx')
	mkdir "${names[@]/#/$U/}" || fail "mkdir"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	pane_wait "^/$S/wide" || fail "start: $(pane)"
	local title
	title=$(fmt pane_title)
	# every name as escaped text, once each (a newline the kernel refuses in a name: EINVAL;
	# tests/cgtop2.sh shows it escaped on fixture trees)
	for n in 'esc\x1b[7mREV\x1b[0m' 'csi\x1b[2J\x1b[H' 'osc52\x1b]52;c;cGF3bmVk\x07' \
		'title\x1b]2;pwned\x07' 'bel\x07\x07' 'tab\there' 'bad\xff\xfe' \
		'rlo\xe2\x80\xaex' 'c1\xc2\x9bx'; do
		assertEquals "shown: $n" 1 "$(pane | grep -cF -- "/$S/$n ")"
	done
	assertEquals "the wide name" 1 "$(pane | grep -c "^/$S/wide中文x ")"
	# no attribute from a name: only the header and the selection (the sandbox) are reversed
	assertEquals "SGR only where cgtop2 puts it" "" "$(attrs | sed '1,3d;$d' | grep -n $'\e')"
	# the wide name's columns line up with the others' (wcwidth: 2 each)
	assertEquals "columns aligned" "ok" "$(pane | python3 -c '
import re, sys, unicodedata
def w(s): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
ends = set(w(re.match(r"\S+\s+\S+", l).group()) for l in sys.stdin.read().split("\n")
           if l.startswith(("CGROUP", "/")))
print("ok" if len(ends) == 1 else ends)')"
	assertEquals "no bell rang" 0 "$(fmt window_bell_flag)"
	assertEquals "no paste buffer from OSC 52" "" "$(tm list-buffers 2>/dev/null)"
	assertEquals "the title unchanged" "$title" "$(fmt pane_title)"
	assertEquals "no screen cleared" "/$S" "$(pane | awk 'NR == 3 { print $1 }')"
	# the tree and the detail pane show them as text too
	key T
	pane_wait "^├─bad\\\\xff\\\\xfe " || fail "tree: $(pane)"
	assertEquals "tree: SGR only where cgtop2 puts it" "" "$(attrs | sed '1,3d;$d' | grep -n $'\e')"
	key End Enter
	pane_wait "│ /$S/wide中文x +│" || fail "detail: $(pane)"
	key Escape Home Down Down Down Down Down Enter
	pane_wait '│ /'"$S"'/esc\\x1b\[7mREV\\x1b\[0m +│' || fail "detail of esc: $(pane)"
	assertFalse "detail: no reverse video" "attrs | sed '1,2d;\$d' | grep -qE $'\e\\[([0-9]*;)*7m'"
	assertEquals "still no bell" 0 "$(fmt window_bell_flag)"
	key q
	assertEquals "EXIT=0" "$(ended)"
	assert_sane "hostile names"
}

# ---- actions on the selected cgroup ---------------------------------------------------------

# The status line (the pane's last).
status() {
	pane | tail -n 1
}

# Select cgroup /$S/$1 of a list sorted by path (the sandbox first).
select_cg() {
	local i
	key Home
	for i in $(seq 1 "$2"); do key Down; done
	pane_wait "^line $(($2 + 1)) of " || fail "select $1: $(status)"
	assertEquals "selected" "/$S/$1" "$(selected)"
}

# The freezer cgroup of the test's cgroup $1 (a path below it): $U/$1 itself on cgroup2, else
# its twin in the v1 freezer hierarchy, made (FZ); skips without one.
freezer_of() {
	if ! sandbox_v1; then
		[ -e "$U/cgroup.freeze" ] || { cgk_skip "no cgroup.freeze in this kernel (5.2+)"; return 1; }
		FZ=$U/$1
		return 0
	fi
	cgk_need_v1 freezer || return 1
	FZ=$(twin freezer "$1") || { fail "the freezer twin of $1"; return 1; }
}

# The freezer cgroup FZ as the kernel says it is: frozen, thawed (or freezing, v1).
frozen_state() {
	if sandbox_v1; then
		case $(cat "$FZ/freezer.state") in FROZEN) echo frozen ;; THAWED) echo thawed ;; *) echo freezing ;; esac
	else
		case $(cat "$FZ/cgroup.events") in *"frozen 1"*) echo frozen ;; *) echo thawed ;; esac
	fi
}

# What cgroup FZ's freezer file holds: 1 (freeze asked) or 0; v1's freezer.state says both.
freeze_asked() {
	if sandbox_v1; then
		case $(cat "$FZ/freezer.state") in THAWED) echo 0 ;; *) echo 1 ;; esac
	else
		cat "$FZ/cgroup.freeze"
	fi
}

# f: freeze and thaw, each asked first naming the cgroup; n leaves it as it is. On v1 the freezer
# is its own hierarchy: the processes are in the twin of the same path there too.
test_action_freeze() {
	setup_sandbox || return 0
	mkdir "$U/fz"
	freezer_of fz || return 0
	sleeps_in "$U/fz" 1 "$FZ"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/fz " || fail "start: $(pane)"
		select_cg fz 1
		key f
		pane_wait "^Freeze cgroup /$S/fz\?  y: yes, other keys: no" || fail "f: the question: $(status)"
		assertEquals "not frozen before the answer" 0 "$(freeze_asked)"
		key y
		pane_wait "^cgroup /$S/fz frozen" || fail "y: $(status)"
		assertEquals "freeze asked" 1 "$(freeze_asked)"
		assertEquals "the kernel says frozen" frozen "$(frozen_state)"
		key f
		pane_wait "^Thaw cgroup /$S/fz\?" || fail "f on a frozen cgroup: $(status)"
		key n
		pane_wait "^cancelled" || fail "n: $(status)"
		assertEquals "n: still frozen" frozen "$(frozen_state)"
		key f y
		pane_wait "^cgroup /$S/fz thawed" || fail "thaw: $(status)"
		assertEquals "thawed" thawed "$(frozen_state)"
		assertEquals "thaw asked" 0 "$(freeze_asked)"
		# the next key clears the message
		key Up
		pane_wait "^line 1 of 2 " || fail "the message cleared: $(status)"
		key q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/fz"
	return 0
}

# x (or F9): a signal chosen from a list, then asked, then sent to every process below.
test_action_signal() {
	setup_sandbox || return 0
	mkdir -p "$U/sg/sub"
	sleeps_in "$U/sg" 2
	sleeps_in "$U/sg/sub" 0
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/sg/sub " || fail "start: $(pane)"
		select_cg sg 1
		key F9
		pane_wait "│ 15 SIGTERM" || fail "F9: the signals: $(pane)"
		assertContains "the chooser's line" "$(status)" "Enter: send it"
		key Escape
		pane_gone "│ 15 SIGTERM" || fail "Esc closes the list: $(pane)"
		assertEquals "nothing sent" 4 "$(cat "$U/sg/cgroup.procs" "$U/sg/sub/cgroup.procs" | wc -l)"
		# the fifth: SIGKILL
		key x Down Down Down Down Enter
		pane_wait "^Send SIGKILL to every process of cgroup /$S/sg and below\?  y: yes" ||
			fail "the question: $(status)"
		assertEquals "nothing sent before the answer" 4 \
			"$(cat "$U/sg/cgroup.procs" "$U/sg/sub/cgroup.procs" | wc -l)"
		key y
		pane_wait "^SIGKILL sent to 4 processes of cgroup /$S/sg and below" || fail "y: $(status)"
		cgk_wait_for sh -c "[ ! -s '$U/sg/cgroup.procs' ] && [ ! -s '$U/sg/sub/cgroup.procs' ]" ||
			fail "the processes still there: $(cat "$U/sg/cgroup.procs" "$U/sg/sub/cgroup.procs")"
		key q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/sg/sub"
	sleeps_kill "$U/sg"
	return 0
}

# X: every process of the subtree killed (cgroup.kill), after the question. On v1 (no
# cgroup.kill) the freezer twin of the same path is frozen, its processes killed, then thawed.
test_action_kill() {
	setup_sandbox || return 0
	local fk=
	mkdir -p "$U/k/sub"
	if sandbox_v1; then
		freezer_of k/sub || return 0
		fk=${FZ%/sub}
	fi
	sleeps_in "$U/k" 2 ${fk:+"$fk"}
	sleeps_in "$U/k/sub" 1 ${fk:+"$fk/sub"}
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/k/sub " || fail "start: $(pane)"
		select_cg k 1
		key X
		pane_wait "^Kill every process of cgroup /$S/k and below\?  y: yes" || fail "X: $(status)"
		key Escape
		pane_wait "^cancelled" || fail "Esc: $(status)"
		assertEquals "Esc: still there" 5 "$(cat "$U/k/cgroup.procs" "$U/k/sub/cgroup.procs" | wc -l)"
		key X y
		pane_wait "^cgroup /$S/k killed: no process is left in it" || fail "y: $(status)"
		assertEquals "empty" "" "$(cat "$U/k/cgroup.procs")"
		sandbox_v1 || assertContains "empty: the kernel says so" "$(cat "$U/k/cgroup.events")" "populated 0"
		assertEquals "the subtree too" "" "$(cat "$U/k/sub/cgroup.procs")"
		[ -z "$fk" ] || assertEquals "the freezer twin thawed again" THAWED "$(cat "$fk/freezer.state")"
		key q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/k/sub"
	sleeps_kill "$U/k"
	return 0
}

# One name for each v1 hierarchy mounted, as cgk_mnt takes it: its first controller, or name=X.
v1_hierarchies() {
	awk 'NR == FNR { if (!/^#/) c[$1] = 1; next }
	{
		for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) != "cgroup") next
		n = split($(i + 3), o, ","); k = ""
		for (j = 1; j <= n && k == ""; j++) if (o[j] in c) k = o[j]
		for (j = 1; j <= n && k == ""; j++) if (o[j] ~ /^name=/) k = o[j]
		if (k != "") print k
	}' /proc/cgroups /proc/self/mountinfo
}

# M in the detail pane: the process marked with Tab moved to the cgroup typed, after the question.
# On legacy a bare path names the cgroup in every v1 hierarchy (common/kernel/spec.c), the process goes
# into each (the v1 memory hierarchy too: in a VM only), and each needs the cgroup.
test_action_move() {
	setup_sandbox || return 0
	local moved h
	mkdir "$U/mv1" "$U/mv2"
	if sandbox_v1; then
		cgk_need_vm "the move goes into every v1 hierarchy, the memory one too ($(cgk_layout))" ||
			return 0
		for h in $(v1_hierarchies); do twin "$h" mv2 >/dev/null || fail "mv2 in $h"; done
	fi
	sleeps_in "$U/mv1" 1
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/mv2 " || fail "start: $(pane)"
		select_cg mv1 1
		key M
		pane_wait "^to move a process: Enter opens the detail pane, Tab marks a process" ||
			fail "M without the pane: $(status)"
		key Enter
		pane_wait "│ 2 processes of its own +│" || fail "the pane: $(pane)"
		key M
		pane_wait "Tab marks a process" || fail "M without a mark: $(status)"
		key Tab Tab
		pane_wait "^Move" 8 && fail "Tab asks nothing: $(status)"
		moved=$(attrs | grep -E $'\e\\[7m' | grep -oE '[0-9]+ S ' | head -n 1 | awk '{ print $1 }')
		assertNotEquals "the second process marked (reverse video)" "" "$moved"
		key M
		pane_wait "^Move process $moved to cgroup: /$S/mv1_" || fail "M: the editor: $(status)"
		key BSpace 2 Enter
		pane_wait "^Move process $moved \(sleep\) from cgroup /$S/mv1 to cgroup /$S/mv2\?  y: yes" ||
			fail "the question: $(status)"
		assertEquals "not moved before the answer" "" "$(cat "$U/mv2/cgroup.procs")"
		key y
		pane_wait "^process $moved moved to cgroup /$S/mv2" || fail "y: $(status)"
		assertEquals "in mv2" "$moved" "$(cat "$U/mv2/cgroup.procs")"
		sandbox_v1 && assertEquals "in mv2 of every v1 hierarchy" "" \
			"$(grep -v -e '^0::' -e ":/$S/mv2\$" "/proc/$moved/cgroup")"
		# a cgroup that does not exist: the refusal names it
		key Tab M BSpace 3 Enter
		pane_wait "^refused: cgroup /$S/mv3 \($H\): " || fail "no such cgroup: $(status)"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/mv2"
	sleeps_kill "$U/mv1"
	return 0
}

# M of a process that exited while the question was asked, its pid given to a newcomer since:
# nobody chose the newcomer, so the move is refused (the start time the sample saw differs) and
# it stays where it is. Before, the pid alone was written and the newcomer moved.
test_action_move_pid_reused() {
	setup_sandbox || return 0
	cgk_need_vm "writes /proc/sys/kernel/ns_last_pid to hand a pid out again" || return 0
	if sandbox_v1; then
		cgk_skip "the guard is before any hierarchy is written: tested where the sandbox is cgroup2 ($(cgk_layout))"
		return 0
	fi
	local old new i
	mkdir "$U/ru1" "$U/ru2"
	sh -c 'echo $$ >"$1/cgroup.procs"; exec sleep 600' _ "$U/ru1" &
	old=$!
	cgk_execd "$old" sleep
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/ru2 " || fail "start: $(pane)"
		select_cg ru1 1
		key Enter
		pane_wait "│ 1 process of its own +│" || fail "the pane: $(pane)"
		key Tab M
		pane_wait "^Move process $old to cgroup: /$S/ru1_" || fail "M: the editor: $(status)"
		key BSpace 2 Enter
		pane_wait "^Move process $old \(sleep\) from cgroup /$S/ru1 to cgroup /$S/ru2\?  y: yes" ||
			fail "the question: $(status)"
		kill -9 "$old"
		wait "$old" 2>/dev/null
		for i in $(seq 1 50); do
			echo $((old - 1)) >/proc/sys/kernel/ns_last_pid
			sh -c 'echo $$ >"$1/cgroup.procs"; exec sleep 600' _ "$U/ru1" &
			new=$!
			[ "$new" = "$old" ] && break
			kill -9 "$new"
			wait "$new" 2>/dev/null
		done
		if [ "$new" = "$old" ]; then
			cgk_execd "$new" sleep
			cgk_wait_for grep -qx "$new" "$U/ru1/cgroup.procs" || fail "the newcomer did not join"
			key y
			# the status line is cut at the screen's width: the reason's start is enough
			pane_wait "move: process $old exited since it was chosen \(its pid names" ||
				fail "y: $(status)"
			assertEquals "the newcomer stayed" "$new" "$(cat "$U/ru1/cgroup.procs")"
			assertEquals "nothing moved" "" "$(cat "$U/ru2/cgroup.procs")"
			kill -9 "$new"
			wait "$new" 2>/dev/null
		else
			fail "pid $old was not handed out again in 50 forks"
		fi
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	return 0
}

# L: a limit in the v2 vocabulary through cgcreate2's plan. On a hybrid or legacy host the
# sandbox's path in the v1 pids, cpu and memory hierarchies takes pids.max, cpu.weight (as
# cpu.shares) and memory.max (as memory.limit_in_bytes; no process is put there).
test_action_limit_v1() {
	setup_sandbox || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 cpu || return 0
	cgk_need_v1 memory || return 0
	local pids cpu mem
	mkdir "$U/l"
	pids=$(twin pids l) && cpu=$(twin cpu l) && mem=$(twin memory l) ||
		{ fail "the twins of l"; return 0; }
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	pane_wait "^/$S/l " || fail "start: $(pane)"
	select_cg l 1
	key L
	pane_wait "^Set in cgroup /$S/l: _" || fail "L: the editor: $(status)"
	key -l "pids.max=42"
	key Enter
	pane_wait "^Set pids.max=42 in cgroup /$S/l\?  y: yes" || fail "the question: $(status)"
	assertEquals "nothing written before the answer" max "$(cat "$pids/pids.max")"
	key y
	pane_wait "^pids.max=42 set in cgroup /$S/l" || fail "y: $(status)"
	assertEquals "pids.max" 42 "$(cat "$pids/pids.max")"
	key L
	key -l "cpu.weight=200"
	key Enter y
	pane_wait "^cpu.weight=200 set in cgroup /$S/l" || fail "cpu.weight: $(status)"
	assertEquals "cpu.weight 200 is cpu.shares 2048" 2048 "$(cat "$cpu/cpu.shares")"
	key L
	key -l "memory.max=64M"
	key Enter y
	pane_wait "^memory.max=64M set in cgroup /$S/l" || fail "memory.max: $(status)"
	assertEquals "memory.max is memory.limit_in_bytes" 67108864 "$(cat "$mem/memory.limit_in_bytes")"
	# the vocabulary's checks, said on the status line
	key L
	key -l "cpu.max=lots"
	key Enter y
	pane_wait "^failed: cgroup /$S/l \(cpu(,cpuacct)?\): set: cpu.max takes" || fail "a bad value: $(status)"
	key L
	key -l "memory.high=1G"
	key Enter
	pane_wait "^only memory.max, cpu.max, cpu.weight and pids.max are set here" ||
		fail "another file: $(status)"
	key L
	key -l "pids.max"
	key Enter
	pane_wait "^a limit is FILE=VALUE" || fail "no value: $(status)"
	assertEquals "pids.max as it was" 42 "$(cat "$pids/pids.max")"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# E: memory.reclaim=SIZE or memory.peak=reset, once, through the guard as every action
# (cg_act_poke). The v1 memory controller (a hybrid or legacy host) has neither: refused with
# the kernel's answer on the status line (tests/cgcreate2_actions.sh writes them for real).
test_action_reclaim_v1() {
	setup_sandbox || return 0
	cgk_need_v1 memory || return 0
	mkdir "$U/e"
	twin memory e >/dev/null || { fail "the twin of e"; return 0; }
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	pane_wait "^/$S/e " || fail "start: $(pane)"
	select_cg e 1
	key E
	pane_wait "^Once in cgroup /$S/e: memory.reclaim=_" || fail "E: the editor: $(status)"
	key -l "1M"
	key Enter
	pane_wait "^Write memory.reclaim=1M in cgroup /$S/e \(once: no limit is kept\)\?  y: yes" ||
		fail "the question: $(status)"
	key y
	pane_wait "^failed: cgroup /$S/e \(memory\): reclaim memory: no memory.reclaim here \(No such file or directory\)" ||
		fail "reclaim refused: $(status)"
	key E $(printf 'BSpace %.0s' $(seq 15))
	key -l "memory.peak=reset"
	key Enter y
	pane_wait "^failed: cgroup /$S/e \(memory\): reset the peak: no memory.peak here" ||
		fail "reset refused: $(status)"
	key E $(printf 'BSpace %.0s' $(seq 15))
	key -l "memory.max=1G"
	key Enter
	pane_wait "^E writes memory.reclaim=SIZE or memory.peak=reset" || fail "another file: $(status)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# The same on cgroup2 controllers: memory.max and pids.max of the unified cgroup.
test_action_limit_v2() {
	setup_sandbox || return 0
	cgk_need_v2 memory pids || return 0
	# l2's memory.max and pids.max exist once its parents hand it the controllers
	echo "+memory +pids" >"${U%/*}/cgroup.subtree_control" &&
		echo "+memory +pids" >"$U/cgroup.subtree_control" || { fail "+memory +pids"; return 0; }
	mkdir "$U/l2"
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	# 30 s: the systemd guest (TCG) drew its first screen after more than 8 s
	pane_wait "^/$S/l2 " 30 || fail "start: $(pane)"
	select_cg l2 1
	key L
	key -l "memory.max=64M"
	key Enter
	pane_wait "^Set memory.max=64M in cgroup /$S/l2\?" || fail "the question: $(status)"
	key y
	pane_wait "^memory.max=64M set in cgroup /$S/l2" || fail "y: $(status)"
	assertEquals "memory.max" 67108864 "$(cat "$U/l2/memory.max")"
	key L
	key -l "pids.max=7"
	key Enter y
	pane_wait "^pids.max=7 set" || fail "pids.max: $(status)"
	assertEquals "pids.max" 7 "$(cat "$U/l2/pids.max")"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# An unprivileged user is refused each action, on the status line, before any question.
test_action_refused_unprivileged() {
	setup_sandbox || return 0
	local uid=${CGKIT_UNPRIV_UID:-64000}
	while awk -F: -v u="$uid" '$3 == u { f = 1 } END { exit !f }' /etc/passwd; do uid=$((uid + 1)); done
	"$HELPERS/runas" "$uid" "$uid" test -x "$T" ||
		{ cgk_skip "uid $uid cannot run $T (a directory on the way is not searchable)"; return 0; }
	mkdir "$U/r" "$U/r2"
	freezer_of r || return 0
	sleeps_in "$U/r" 1 $(sandbox_v1 && echo "$FZ")
	# v1: the freezer is a hierarchy of its own, and no cgroup.kill (the kill is signals)
	local tool=$T fh=$H kill="kill: " freeze=cgroup.freeze
	sandbox_v1 && fh=$(hier_label "$(cgk_mnt freezer)") kill="signal process [0-9]+: Operation not permitted" \
		freeze=freezer.state
	# no settings file: the test's own directory is root's
	T="$HELPERS/runas" ENV="NO_COLOR=1 XDG_CONFIG_HOME=/nonexistent-$$" \
		start "$uid" "$uid" "$tool" -d 0.3 -p "/$S" && {
		pane_wait "^/$S/r2 " || fail "start: $(pane)"
		select_cg r 1
		key f
		pane_wait "^refused: cgroup /$S/r \($fh\): freeze: write $freeze: Permission denied" ||
			fail "f: $(status)"
		key X
		pane_wait "^refused: cgroup /$S/r \($H\): $kill" || fail "X: $(status)"
		key x
		pane_wait "^refused: cgroup /$S/r \($H\): signal process [0-9]+: Operation not permitted" ||
			fail "x: $(status)"
		key L
		pane_wait "^refused: " || fail "L: $(status)"
		key Enter
		pane_wait "│ 2 processes of its own +│" || fail "the pane: $(pane)"
		key Tab M
		pane_wait "^Move process [0-9]+ to cgroup" || fail "M: the editor: $(status)"
		key 2 Enter
		pane_wait "^refused: cgroup /$S/r2 \($H\): move a process: write cgroup.procs: Permission denied" ||
			fail "M: $(status)"
		assertEquals "nothing frozen" 0 "$(freeze_asked)"
		assertEquals "nothing frozen: the kernel" thawed "$(frozen_state)"
		assertEquals "nothing moved" "" "$(cat "$U/r2/cgroup.procs")"
		assertEquals "nothing killed" 2 "$(wc -l <"$U/r/cgroup.procs")"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/r"
	return 0
}

# cgtop2 in a cgroup namespace rooted at $NSROOT (a cgroup2 directory of the test's), in /a/me
# there, and in a mount namespace where /sys/fs/cgroup holds that cgroup2 alone (the host's
# hierarchies detached, cgroup2 mounted inside the cgroup namespace: its / is $NSROOT). The screen's / is then the test's cgroup: an X on it
# that got through could reach nothing but the test's processes, never the machine's.
ns_wrapper() {
	printf '%s\n' '#!/bin/sh' 'echo $$ >"$NSROOT/cgroup.procs" || exit 97' \
		'exec unshare -C -m --propagation private sh -c '"'"'
	umount -l /sys/fs/cgroup && mount -t tmpfs cgkit-ns /sys/fs/cgroup && mkdir /sys/fs/cgroup/unified &&
		mount -t cgroup2 none /sys/fs/cgroup/unified || exit 98
	echo $$ >/sys/fs/cgroup/unified/a/me/cgroup.procs || exit 99
	exec "$@"'"'"' sh "$CGTOP" "$@"' >"$_cgk_tmp/nsrun"
	chmod +x "$_cgk_tmp/nsrun"
}

# Select row $1 (0: the first) and check that it is cgroup $2.
select_row() {
	local i
	key Home
	for i in $(seq 1 "$1"); do key Down; done
	pane_wait "^line $(($1 + 1)) of " || fail "select $2: $(status)"
	assertEquals "selected" "$2" "$(selected)"
}

# Nothing happened in the namespace: cgtop2 and the three sleepers alive where they were, no
# cgroup frozen ($1 names the step in failures).
untouched() {
	local c
	kill -0 "$(cat "$F.pid")" 2>/dev/null || fail "$1: cgtop2 is gone"
	assertEquals "$1: cgtop2 where it was" "/$S/ns/a/me" "$(cgk_cgroup_of "$(cat "$F.pid")" unified)"
	for c in "" /a /a/me; do
		assertEquals "$1: /ns$c not frozen" 0 "$(cat "$U/ns$c/cgroup.freeze")"
		assertEquals "$1: /ns$c: its sleeper alive" 1 "$(grep -c "^$(cat "$_cgk_tmp/sleeper${c//\//_}")\$" "$U/ns$c/cgroup.procs")"
	done
}

# Every action of the screen against the targets the guard refuses (common/guard.c, the tools'
# rules): the root, cgtop2's own cgroup, an ancestor of it (freeze, signal, kill; a limit on the
# root), and a systemd unit's cgroup that is not delegated (a fixture runtime directory makes
# systemd "run": each action, the move into it too). Each is refused at the key, on the status
# line, with no question asked, and nothing is frozen, signalled or killed. The old screen
# killed cgtop2 with X on its ancestor and froze it with f on its own cgroup.
test_action_guard() {
	setup_sandbox || return 0
	[ "$V" = unified ] || { cgk_skip "the guard's test runs cgtop2 in a cgroup namespace of cgroup2 ($(cgk_layout))"; return 0; }
	[ -e "$U/cgroup.freeze" ] || { cgk_skip "no cgroup.freeze in this kernel (5.2+)"; return 0; }
	cgk_need_prog unshare "cgroup and mount namespaces" || return 0
	unshare -C -m --propagation private true 2>/dev/null ||
		{ cgk_skip "cannot make cgroup and mount namespaces here (unshare -C -m fails)"; return 0; }
	local c p rt=$_cgk_tmp/systemd-runtime tool=$T
	mkdir -p "$U/ns/a/me" "$U/ns/u.service" "$rt"
	for c in "" /a /a/me; do
		sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' _ "$U/ns$c" &
		disown $!
		echo $! >"$_cgk_tmp/sleeper${c//\//_}"
		within 30 procs_more "$U/ns$c" 0 || fail "the sleeper of /ns$c did not start"
	done
	ns_wrapper
	T=$_cgk_tmp/nsrun ENV="NO_COLOR=1 NSROOT=$U/ns CGTOP=$tool CGKIT_SYSTEMD_RUNTIME=$rt" \
		start -d 0.3 -p / && {
		pane_wait "^/u\.service " || fail "start: $(pane) $(cat "$F.err")"
		p=$(cat "$F.pid")
		# where it runs, before any key: one cgroup2 mount and no v1 one, its / the test's
		if [ "$(cgk_cgroup_of "$p" unified)" != "/$S/ns/a/me" ] ||
			grep -q ' - cgroup ' "/proc/$p/mountinfo"; then
			fail "cgtop2 is not in the namespace: $(cat "/proc/$p/cgroup" "/proc/$p/mountinfo")"
			key q
			return 0
		fi
		select_row 0 /
		for c in f X x L; do
			key "$c"
			pane_wait "^refused: cgroup / \(unified\): [a-z ]+: the root of the hierarchy or cgroup namespace: never acted on as a whole" ||
				fail "$c on /: $(status)"
			untouched "$c on /"
		done
		select_row 2 /a/me
		key f
		pane_wait "^refused: cgroup /a/me \(unified\): freeze: the subtree holds cgtop2 itself \(it runs in /a/me\): it would freeze too" ||
			fail "f on its own cgroup: $(status)"
		key X
		pane_wait "^refused: cgroup /a/me \(unified\): kill: the subtree holds cgtop2 itself \(it runs in /a/me\): it would be killed too" ||
			fail "X on its own cgroup: $(status)"
		key x
		pane_wait "^refused: cgroup /a/me \(unified\): signal: the subtree holds cgtop2 itself \(it runs in /a/me\): it would be signalled too" ||
			fail "x on its own cgroup: $(status)"
		untouched "its own cgroup"
		select_row 1 /a
		for c in f X x; do
			key "$c"
			pane_wait "^refused: cgroup /a \(unified\): [a-z]+: the subtree holds cgtop2 itself \(it runs in /a/me\)" ||
				fail "$c on its ancestor: $(status)"
			untouched "$c on its ancestor"
		done
		select_row 3 /u.service
		for c in f X x L; do
			key "$c"
			pane_wait "^refused: cgroup /u\.service \(unified\): [a-z ]+: inside systemd's unit u\.service, which is not delegated" ||
				fail "$c on a unit's cgroup: $(status)"
		done
		# the move: the sleeper of /a marked, sent to the unit's cgroup
		select_row 1 /a
		key Enter
		pane_wait "│ 1 process of its own +│" || fail "the pane: $(pane)"
		key Tab M
		pane_wait "^Move process [0-9]+ to cgroup: /a_" || fail "M: the editor: $(status)"
		key BSpace BSpace /u.service Enter
		pane_wait "^refused: cgroup /u\.service \(unified\): move a process: inside systemd's unit u\.service, which is not delegated" ||
			fail "M into a unit's cgroup: $(status)"
		assertEquals "nothing moved" "" "$(cat "$U/ns/u.service/cgroup.procs")"
		untouched "the unit's cgroup"
		# not refused: a limit where cgtop2 runs is the user's to set (no controller here)
		key Escape
		select_row 2 /a/me
		key L
		pane_gone "the subtree holds cgtop2" 3 || fail "L on its own cgroup: $(status)"
		key Escape q
		assertEquals "EXIT=0" "$(ended)"
	}
	for c in "" /a /a/me; do
		kill -9 "$(cat "$_cgk_tmp/sleeper${c//\//_}")" 2>/dev/null
	done
	sleeps_kill "$U/ns/a/me"
	return 0
}

# The answer acts on the cgroup the question named, or on nothing (issue 40's sweep): a cgroup
# removed between the key and the y is said gone; one removed and made anew under the same
# path (another job's, another user's) is refused, its process left alone (the old screen
# signalled it: it checked the name, not the cgroup); cgtop2 moved into the chosen cgroup
# meanwhile is refused by the guard at the answer, not only at the key. Names of escapes and of
# invalid UTF-8 reach the question, the refusal and the outcome as text (no bell, title, clear,
# SGR); a name with a control character is refused as the tools refuse it (spec.c).
test_action_target_races() {
	setup_sandbox || return 0
	local hn=$'h\e]2;pwned\a\e[2J\e[7m' hb=$'b\xff\xfe\xe2\x80\xaex' he be p b title
	he='h\\x1b\]2;pwned\\x07\\x1b\[2J\\x1b\[7m'
	be='b\\xff\\xfe\\xe2\\x80\\xaex'
	mkdir "$U/$hn" "$U/$hb" "$U/me" "$U/r" "$U/v" || { fail "mkdir"; return 0; }
	sleeps_in "$U/$hn" 0
	sleeps_in "$U/$hb" 0
	sleeps_in "$U/r" 0
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" && {
		pane_wait "^/$S/v " || fail "start: $(pane)"
		title=$(fmt pane_title)
		# invalid UTF-8 and a format character: asked and done, named as text
		key Home Down
		pane_wait "^line 2 of " || fail "select b: $(status)"
		key x Enter
		pane_wait "^Send SIGTERM to every process of cgroup /$S/$be and below\?  y: yes" ||
			fail "the question of b: $(status)"
		key y
		pane_wait "^SIGTERM sent to 1 process of cgroup /$S/$be and below" ||
			fail "the outcome of b: $(status)"
		# control characters: refused at the key, named as text, nothing sent
		key Down
		pane_wait "^line 3 of " || fail "select h: $(status)"
		key x
		pane_wait "^refused: /$S/$he: path: '\.\.' and control characters are not allowed" ||
			fail "x on h: $(status)"
		assertEquals "h: nothing sent" 1 "$(wc -l <"$U/$hn/cgroup.procs")"
		# the selection's reverse video on the sandbox's line, which the check leaves out
		key Home
		pane_wait "^line 1 of " || fail "select the sandbox: $(status)"
		assertEquals "no SGR from a name" "" "$(attrs | sed '1,3d;$d' | grep -n $'\e')"
		assertEquals "no bell rang" 0 "$(fmt window_bell_flag)"
		assertEquals "the title unchanged" "$title" "$(fmt pane_title)"
		assertEquals "no screen cleared" "/$S" "$(pane | awk 'NR == 3 { print $1 }')"
		# removed and made anew between the question and the answer: another cgroup
		select_cg r 4
		key x Enter
		pane_wait "^Send SIGTERM to every process of cgroup /$S/r and below\?" ||
			fail "the question of r: $(status)"
		sleeps_kill "$U/r"
		rmdir "$U/r" && mkdir "$U/r" || fail "r made anew"
		sleeps_in "$U/r" 0
		b=$(cat "$U/r/cgroup.procs")
		key y
		pane_wait "^not done: cgroup /$S/r \($H\): act: another cgroup has this path since it was chosen" ||
			fail "y on a cgroup made anew: $(status)"
		assertTrue "the new cgroup's process alive" "kill -0 $b"
		assertEquals "still in it" "$b" "$(cat "$U/r/cgroup.procs")"
		# removed between the question and the answer
		select_cg v 5
		key X
		pane_wait "^Kill every process of cgroup /$S/v and below\?" || fail "X on v: $(status)"
		rmdir "$U/v" || fail "rmdir v"
		key y
		pane_wait "^[a-z ]+: cgroup /$S/v \($H\): find: no such cgroup" || fail "y on a cgroup gone: $(status)"
		# cgtop2 moved into the chosen cgroup between the question and the answer
		select_cg me 3
		key x Enter
		pane_wait "^Send SIGTERM to every process of cgroup /$S/me and below\?" ||
			fail "the question of me: $(status)"
		p=$(cat "$F.pid")
		echo "$p" >"$U/me/cgroup.procs" || fail "cgtop2 moved"
		key y
		pane_wait "^failed: cgroup /$S/me \($H\): signal: the subtree holds cgtop2 itself" ||
			fail "y on its own cgroup: $(status)"
		assertTrue "cgtop2 alive" "kill -0 $p"
		key q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/r"
	sleeps_kill "$U/$hn"
	sleeps_kill "$U/$hb"
	return 0
}

# A container's names from a hostile runtime state file (--runtime-root, names/runtime.c) on
# the table's line: escapes, a bell, a title and invalid UTF-8 as text (issue 40's sweep).
test_runtime_names_hostile() {
	setup_sandbox || return 0
	local id R=$_cgk_tmp/rtroot title
	id=$(printf 'e%.0s' {1..64})
	mkdir "$U/docker-$id.scope" || { fail "mkdir"; return 0; }
	mkdir -p "$R/var/lib/docker/containers/$id"
	printf '%s' $'{"Name":"/n\\u001b[2J\\u001b]2;pwned\\u0007\\u001b[7mx\xff","Config":{"Image":"i"}}' \
		>"$R/var/lib/docker/containers/$id/config.v2.json"
	# wide enough for the whole line: a narrower one cuts the path in its middle
	SIZE=300x40 ENV=NO_COLOR=1 start -d 0.3 -p --runtime-root="$R" "/$S" && {
		title=$(fmt pane_title)
		pane_wait '\[container n\\x1b\[2J\\x1b\]2;pwned\\x07\\x1b\[7mx\\xff\]' || fail "the names: $(pane)"
		assertEquals "no SGR from the names" "" "$(attrs | sed '1,3d;$d' | grep -n $'\e')"
		assertEquals "no bell rang" 0 "$(fmt window_bell_flag)"
		assertEquals "the title unchanged" "$title" "$(fmt pane_title)"
		assertEquals "no screen cleared" "/$S" "$(pane | awk 'NR == 3 { print $1 }')"
		key q
		assertEquals "EXIT=0" "$(ended)"
	}
	rmdir "$U/docker-$id.scope"
	return 0
}

# --read-only: no action offered (the help lists none) or done.
test_read_only() {
	setup_sandbox || return 0
	mkdir "$U/ro"
	freezer_of ro || return 0
	sleeps_in "$U/ro" 0 $(sandbox_v1 && echo "$FZ")
	ENV=NO_COLOR=1 start -d 0.3 -p --read-only "/$S" && {
		pane_wait "^/$S/ro " || fail "start: $(pane)"
		select_cg ro 1
		local k
		for k in f X x L M; do
			key "$k"
			pane_wait "^read-only \(--read-only\): no actions" || fail "$k: $(status)"
			assertNotContains "$k: no question" "$(status)" "y: yes"
			key Down Up
		done
		assertEquals "not frozen" 0 "$(freeze_asked)"
		assertEquals "not frozen: the kernel" thawed "$(frozen_state)"
		assertEquals "not killed" 1 "$(wc -l <"$U/ro/cgroup.procs")"
		key h
		pane_wait "cgtop2 keys" || fail "h: $(pane)"
		assertNotContains "the help lists no action" "$(pane)" "freeze / thaw"
		key x q
		assertEquals "EXIT=0" "$(ended)"
	}
	sleeps_kill "$U/ro"
	# the help of a screen that may act lists them
	ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	key h
	pane_wait "cgtop2 keys" || fail "h: $(pane)"
	assertContains "the help lists the actions" "$(pane)" "freeze / thaw"
	key x q
	assertEquals "EXIT=0" "$(ended)"
}

# A help taller than the screen (80x24 with the actions) turns its pages with PgDn and PgUp.
test_help_pages() {
	setup_sandbox || return 0
	SIZE=80x24 ENV=NO_COLOR=1 start -d 0.3 -p "/$S" || return 0
	pane_wait "^/$S " || fail "start: $(pane)"
	key h
	pane_wait "│ PgDn: more; any other key closes the help +│" || fail "h: $(pane)"
	assertContains "the first page" "$(pane)" "│ q                  quit"
	assertNotContains "the actions on the next" "$(pane)" "freeze / thaw"
	key NPage
	pane_wait "│ f +freeze / thaw +│" || fail "PgDn: $(pane)"
	assertContains "the last page says so" "$(pane)" "PgUp: back; any other key closes the help"
	key PPage
	pane_wait "│ q                  quit" || fail "PgUp: $(pane)"
	key Escape
	pane_gone "PgDn: more" || fail "Esc closes: $(pane)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# ---- the settings file ----------------------------------------------------------------------

# C lists every statistic of --fields=help after the table's columns: Space on one adds it as a
# column of its own, titled by its key, with each row's value; W keeps it (stats=), the next start
# shows it, Space again removes it. The list is the fields table's (output/fields.c), not a
# fixed one: the first statistics are tasks, cpu_percent, cpu_usage_seconds after the history.
test_stat_columns() {
	setup_sandbox || return 0
	local cfg=$_cgk_tmp/config/cgtop2/config i
	rm -rf "$_cgk_tmp/config/cgtop2"
	ENV=NO_COLOR=1 start -d 0.3 "/$S" || return 0
	pane_wait "order cpu .*every 0.3s" || fail "start: $(pane | head -n 1)"
	key C
	pane_wait "│ \[ \] cpu_usage_seconds" || fail "C lists the statistics: $(pane)"
	pane_wait "│ \[ \] io_read_ops" || fail "C lists the collectors' statistics: $(pane)"
	for i in $(seq 11); do key Down; done
	key Space
	pane_wait "│ \[x\] cpu_usage_seconds" || fail "Space: $(pane)"
	key Escape
	pane_wait "^CGROUP .* cpu_usage_seconds" || fail "the column: $(pane | sed -n 2p)"
	pane_wait "^/$S .* [0-9]+\.[0-9][0-9]( |$)" || fail "the sandbox's value: $(pane | grep "^/$S ")"
	key W
	pane_wait "^settings written" || fail "W: $(status)"
	assertEquals "kept" "stats=cpu_usage_seconds" "$(grep '^stats=' "$cfg")"
	key q
	assertEquals "EXIT=0" "$(ended)"
	ENV=NO_COLOR=1 start -d 0.3 "/$S" || return 0
	pane_wait "^CGROUP .* cpu_usage_seconds" || fail "read at start: $(pane | sed -n 2p)"
	key C
	for i in $(seq 11); do key Down; done
	key Space Escape
	pane_gone "cpu_usage_seconds" || fail "removed: $(pane | sed -n 2p)"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# W writes the order, the columns, the view and the delay; the next start reads them; a
# damaged file is ignored with one line; a symbolic link is neither read nor written through.
test_settings_round_trip() {
	setup_sandbox || return 0
	local cfg=$_cgk_tmp/config/cgtop2/config
	rm -rf "$_cgk_tmp/config/cgtop2"
	ENV=NO_COLOR=1 start -d 0.3 "/$S" || return 0
	pane_wait "order cpu .*every 0.3s" || fail "start: $(pane | head -n 1)"
	key m T D
	pane_wait "order memory .*every 0.6s .*tree" || fail "m T D: $(pane | head -n 1)"
	# the columns chooser: TASKS hidden
	key C
	pane_wait "│ \[x\] TASKS" || fail "C: $(pane)"
	key Space
	pane_wait "│ \[ \] TASKS" || fail "Space: $(pane)"
	key Escape
	pane_gone "│ \[ \] TASKS" || fail "Esc: $(pane)"
	assertNotContains "TASKS hidden" "$(pane | sed -n 2p)" "TASKS"
	key W
	pane_wait "^settings written to $_cgk_tmp/config/cgtop2/config" || fail "W: $(status)"
	assertEquals "the file" "order=memory
columns=cpu,memory,in,out,psi-cpu,psi-memory,psi-io,history
view=tree
delay=600ms
stats=" "$(grep -v '^#' "$cfg")"
	key q
	assertEquals "EXIT=0" "$(ended)"
	# read at start
	ENV=NO_COLOR=1 start "/$S" || return 0
	pane_wait "order memory .*every 0.6s .*tree" || fail "read at start: $(pane | head -n 1)"
	pane_wait "^CGROUP +%CPU +MEMORY▼" || fail "the columns read: $(pane | sed -n 2p)"
	key q
	ended >/dev/null
	# the command line wins
	ENV=NO_COLOR=1 start -c -d 0.4 "/$S" || return 0
	pane_wait "order cpu .*every 0.4s .*tree" || fail "options over the file: $(pane | head -n 1)"
	key q
	ended >/dev/null
	# damaged: ignored, said once on the status line
	printf 'order=memory\norder=sideways\n' >"$cfg"
	ENV=NO_COLOR=1 start "/$S" || return 0
	pane_wait "^settings ignored: $cfg: line 2: order takes path, tasks, cpu, memory, io or pressure" ||
		fail "damaged: $(status)"
	assertContains "the defaults" "$(pane | head -n 1)" "order cpu"
	key q
	ended >/dev/null
	# a symbolic link: not followed when read, replaced (not written through) by W
	echo "order=path" >"$_cgk_tmp/elsewhere"
	ln -sf "$_cgk_tmp/elsewhere" "$cfg"
	ENV=NO_COLOR=1 start "/$S" || return 0
	pane_wait "^settings ignored: $cfg: a symbolic link, not followed" || fail "link: $(status)"
	assertContains "link: the defaults" "$(pane | head -n 1)" "order cpu"
	key W
	pane_wait "^settings written" || fail "W over a link: $(status)"
	assertEquals "the link's target untouched" "order=path" "$(cat "$_cgk_tmp/elsewhere")"
	assertFalse "the link replaced by a file" "[ -L '$cfg' ]"
	assertContains "the file written" "$(cat "$cfg")" "order=cpu"
	key q
	assertEquals "EXIT=0" "$(ended)"
}

# Out of fds for new cgroups' triggers, the watcher goes on: said on the status line, not on
# stderr over the screen, and once on stderr after the screen is closed.
test_psi_trigger_failure_status() {
	setup_sandbox || return 0
	local i n
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	ENV=NO_COLOR=1 start -d 0.3 -p --psi-trigger=cpu:some:500ms:2s "/$S" || return 0
	pane_wait "^/$S " || fail "start: $(pane)"
	# room for the sampler (the triggers leave it 64) and for a few more triggers, not for 60
	n=$(ls "/proc/$(cat "$F.pid")/fd" | wc -l)
	prlimit --pid "$(cat "$F.pid")" --nofile=$((n + 80)):$((n + 80)) || { fail "prlimit"; return 0; }
	for i in $(seq 60); do mkdir "$U/f$i"; done
	# out of descriptors, a new cgroup gets no trigger and the others count on (issue 40 item
	# 6): said on the status line, the screen goes on
	pane_wait "^--psi-trigger: a new cgroup got no trigger \(limit=[a-z_]+ reached\)" 120 ||
		fail "not on the status line: $(status)"
	n=$(grep -c "psi-trigger" "$F.err")
	assertEquals "nothing on stderr while the screen is open" 0 "$n"
	key q
	assertEquals "EXIT=0" "$(ended)"
	n=$(grep -c "^cgtop2: --psi-trigger: a new cgroup got no trigger (limit=" "$F.err")
	assertEquals "said once after the screen closed" 1 "$n"
	assertEquals "and no failure of the watcher" 0 "$(grep -c "watcher failed" "$F.err")"
}

. "$SHUNIT2"
