#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgexec2: usage, placement (v1, unified, both), exec keeping the PID, exit statuses, transient
# cgroups (-r pids.max against a fork loop, leftovers, --keep, --stats), signal forwarding, bad
# input creating nothing, frozen cgroups (refused, or killed at the first SIGTERM), escaped
# arguments. Live tests never place a process in the v1 memory hierarchy. Every run that could
# hang on a frozen cgroup is under timeout(1): a regression fails instead of hanging.
. "$(dirname "$0")/lib.sh"

X=$CGKIT_BIN/cgexec2
S=$SANDBOX_NAME

# Make the sandbox in hierarchy $1 and set SB to it.
sandbox() {
	SB=$(cgk_sandbox "$1")
}

# The hierarchy the pids tests use: the v1 pids one where mounted, else the unified one when
# its root enables pids. Sets PH (cgk_mnt name), PLABEL (cgexec2's label), PSB (the sandbox).
need_pids() {
	if [ -n "$(cgk_mnt pids)" ]; then
		PH=pids
		PLABEL=$(awk -F: '$2 ~ /(^|,)pids(,|$)/ { print $2; exit }' /proc/self/cgroup)
	else
		cgk_need_v2 pids || return 1
		PH=unified PLABEL=unified
	fi
	cgk_need_root || return 1
	sandbox "$PH" || { fail "cannot make the sandbox in $PH"; return 1; }
	PSB=$SB
}

# A leaf of the pids sandbox for tests that place processes directly (v2: no internal processes
# where a transient cgroup enabled controllers).
leaf() {
	mkdir -p "$PSB/$1" && echo "$S/$1"
}

# Wait until pid $1 runs program $2 (exec happened).
is_running() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}

pid_gone() {
	! kill -0 "$1" 2>/dev/null
}

# Signal $2 is no longer pending for process $1 (it blocks them and takes them with sigwaitinfo).
sig_taken() {
	local hex
	hex=$(awk '$1 == "ShdPnd:" { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
	[ -n "$hex" ] && (((0x$hex >> ($2 - 1)) & 1)) && return 1
	return 0
}

dir_gone() {
	[ ! -d "$1" ]
}

# Our child $1 has exited (a zombie counts: kill -0 still reaches it).
exited() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 0
	[ -z "$st" ] || [ "${st%% *}" = Z ]
}

# Thaw the cgroup directory $1: v2 cgroup.freeze, v1 freezer.state.
thaw() {
	[ -f "$1/cgroup.freeze" ] && echo 0 >"$1/cgroup.freeze"
	[ -f "$1/freezer.state" ] && echo THAWED >"$1/freezer.state"
	return 0
}

# Freeze the cgroup directory $1 and wait until the kernel says it is frozen.
freeze() {
	if [ -f "$1/cgroup.freeze" ]; then
		echo 1 >"$1/cgroup.freeze" && cgk_wait_for grep -qx "frozen 1" "$1/cgroup.events"
	else
		echo FROZEN >"$1/freezer.state" && cgk_wait_for grep -qx FROZEN "$1/freezer.state"
	fi
}

# wait_bounded PID SECONDS: wait for our child PID at most SECONDS, its status in rc. Past that
# rc=124: the cgroups in $THAW are thawed (a frozen v1 process ignores even SIGKILL) and PID is
# killed, so that a regression fails instead of hanging the suite.
wait_bounded() {
	local pid=$1 i d
	for i in $(seq 1 $(($2 * 20))); do
		exited "$pid" && break
		sleep 0.05
	done
	if exited "$pid"; then
		wait "$pid"
		rc=$?
		return 0
	fi
	for d in ${THAW:-}; do thaw "$d"; done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	rc=124
}

# cgk_capture for cgexec2, bounded (wait_bounded SECONDS)
capture_bounded() {
	local secs=$1
	shift
	"$X" "$@" >"$_cgk_tmp/out" 2>"$_cgk_tmp/err" &
	wait_bounded $! "$secs"
	out=$(cat "$_cgk_tmp/out")
	err=$(cat "$_cgk_tmp/err")
}

# ---- usage ---------------------------------------------------------------------------------

usage_error() {
	printf 'cgexec2: %s\nTry `cgexec2 --help'"'"' or `cgexec2 --usage'"'"' for more information.\n' "$1"
}

test_usage_errors() {
	cgk_capture "$X"
	assertEquals "no command: exit" 64 "$rc"
	assertEquals "no command: stderr" "$(usage_error "no COMMAND given")" "$err"

	cgk_capture "$X" -g x --keep true
	assertEquals "--keep alone: exit" 64 "$rc"
	assertEquals "--keep alone: stderr" \
		"$(usage_error "--keep is about the transient cgroup: use it with -t or -r")" "$err"

	cgk_capture "$X" --transient=a/b true
	assertEquals "-t a/b: exit" 64 "$rc"
	assertEquals "-t a/b: stderr" "$(usage_error "--transient=NAME takes a plain cgroup name (no '/', not '.' or '..', no control characters), not 'a/b'")" "$err"

	cgk_capture "$X" -r pids.max true
	assertEquals "-r without =: exit" 64 "$rc"
	assertEquals "-r without =: stderr" "$(set_usage 'pids.max')" "$err"

	cgk_capture "$X" --no-such-option true
	assertEquals "unknown option: exit" 64 "$rc"

	cgk_capture "$X" --version
	assertTrue "--version: $out" "echo '$out' | grep -Eqx 'cgexec2 \(cgkit\) [0-9]+\.[0-9]+\.[0-9]+'"
}

# the usage error of a -r argument ($1, as shown)
set_usage() {
	usage_error "--set takes FILE=VALUE, FILE an interface file's name (a letter, then letters, digits, '_' or '.', as cpu.weight), not '$1'"
}

# Arguments in error lines: control bytes as \xNN, long values cut (the old code echoed them
# raw: an escape sequence in an argument reached the terminal)
test_escaped_arguments() {
	local long
	long=$(printf 'a%.0s' $(seq 1 200))
	cgk_capture "$X" -r $'pids.max\e[2J' true
	assertEquals "-r: exit" 64 "$rc"
	assertEquals "-r: stderr" "$(set_usage 'pids.max\x1b[2J')" "$err"
	cgk_capture "$X" -r "$long" true
	# cut to fit cmd/tool.h's TOOL_SHOWN_SIZE (72): 68 bytes, then "..."
	assertEquals "long -r: stderr" "$(set_usage "${long:0:68}...")" "$err"
	cgk_capture "$X" $'--transient=a\x07' true
	assertContains "-t: stderr" "$err" "not 'a\\x07'"
	cgk_check_unknown_options "$X" true
	cgk_capture "$X" -g $'/a\xc2\x9b\xff' -s $'/nonexistent/\e[1m'
	assertEquals "-g: exit" 125 "$rc"
	assertContains "-g: the path from common/, escaped" "$err" "cgroup /a\\xc2\\x9b\\xff ("
	assertFalse "no raw control byte: $(printf %q "$err")" "printf %s \"\$err\" | tr -d '\\n' | LC_ALL=C grep -q '[[:cntrl:]]'"
}

# issue 29: a mount table that cannot be read: cmd/tool.c's one line, exit 125, COMMAND not run
test_mount_table_unreadable() {
	cgk_check_mount_table_failure "$X" 125 "[ ! -e '$_cgk_tmp/ran' ]" -g "/$S" touch "$_cgk_tmp/ran"
}

# The move comes first and /proc/self/cgroup is read only when it is refused: a process already
# in the cgroup needs no permission to stay. A uid that cannot write the cgroup's cgroup.procs
# runs COMMAND there when it is there already (the check after a refusal); elsewhere it is
# refused. Without the check, the refused write fails the first case.
test_already_there_needs_no_permission() {
	need_pids || return 0
	local d u=64123
	d=$(leaf here) || { fail "mkdir"; return; }
	cgk_capture sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" "$3" "$4" -g "$5" cat /proc/self/cgroup' _ \
		"$PSB/here" "$HELPERS/runas" "$u" "$X" "pids:$d"
	assertEquals "already there: runs ($err)" 0 "$rc"
	assertContains "already there: in the cgroup" "$out" ":/$d"
	mkdir -p "$PSB/else"
	cgk_capture sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" "$3" "$4" -g "$5" true' _ \
		"$PSB/else" "$HELPERS/runas" "$u" "$X" "pids:$d"
	assertNotEquals "elsewhere: refused" 0 "$rc"
	assertContains "elsewhere: says why" "$err" "cgroup /$d"
}

test_two_cgroups_in_one_hierarchy() {
	cgk_need_unified || return 0
	cgk_capture "$X" -g "$S/a" -g "$S/b" true
	assertEquals "exit" 125 "$rc"
	assertEquals "stderr" "cgexec2: cgroup /$S/b (unified): place: /$S/a (unified) is named too, and a process is in exactly one cgroup of each hierarchy" "$err"
}

test_options_end_at_command() {
	need_pids || return 0
	local g
	g=$(leaf opts) || return 0
	cgk_capture "$X" -g "pids:$g" echo -g -v --keep -- x
	assertEquals "exit" 0 "$rc"
	assertEquals "COMMAND's options are its own" "-g -v --keep -- x" "$out"
	cgk_capture "$X" -g "pids:$g" -- echo -s
	assertEquals "after --" "-s" "$out"
}

# ---- fixture tier: a legacy layout on plain directories (CGKIT_MOUNTINFO) ------------------

# A legacy layout whose hierarchies are plain directories under $FXR: cgexec2 must name the
# controllers that are there, and write nothing that is not on a cgroup filesystem.
fixture_layout() {
	FXR=$_cgk_tmp/fx
	mkdir -p "$FXR/systemd" "$FXR/cpu,cpuacct" "$FXR/pids/x"
	: >"$FXR/pids/x/cgroup.procs"
	sed "s|@ROOT@|$FXR|g" "$FIXTURES/cgexec2/mountinfo.legacy" >"$_cgk_tmp/mountinfo"
}

test_fixture_unknown_controller() {
	fixture_layout
	CGKIT_MOUNTINFO=$_cgk_tmp/mountinfo cgk_capture "$X" -g memory:x true
	assertEquals "exit" 64 "$rc"
	assertEquals "one line" 1 "$(echo "$err" | wc -l)"
	assertContains "names the spec" "$err" "cgexec2: memory:x: "
	assertContains "says where the controllers are" "$err" "controller 'memory' is not mounted on any hierarchy; mounted here: name=systemd at $FXR/systemd; cpu,cpuacct at $FXR/cpu,cpuacct; pids at $FXR/pids"
}

test_fixture_refuses_non_cgroupfs() {
	fixture_layout
	local marker=$_cgk_tmp/ran
	CGKIT_MOUNTINFO=$_cgk_tmp/mountinfo cgk_capture "$X" -g pids:x touch "$marker"
	assertEquals "move: exit" 125 "$rc"
	assertContains "move: why" "$err" "cgexec2: cgroup /x (pids): open cgroup.procs: No such device or address (not a cgroup filesystem"
	assertFalse "move: COMMAND did not run" "[ -e $marker ]"
	assertEquals "move: nothing written" "" "$(cat "$FXR/pids/x/cgroup.procs")"

	CGKIT_MOUNTINFO=$_cgk_tmp/mountinfo cgk_capture "$X" -g pids:x -tnew touch "$marker"
	assertEquals "transient: exit" 125 "$rc"
	assertContains "transient: why" "$err" "cgexec2: cgroup /x/new (pids): mkdir: No such device or address"
	assertFalse "transient: nothing made" "[ -e $FXR/pids/x/new ]"
	assertFalse "transient: COMMAND did not run" "[ -e $marker ]"
}

# -r ' pids.max=1' took " pids:/" as a path (a transient cgroup under " pids:" at the root)
test_fixture_set_file_name_refused() {
	fixture_layout
	local marker=$_cgk_tmp/ran before
	before=$(find "$FXR" | sort)
	CGKIT_MOUNTINFO=$_cgk_tmp/mountinfo cgk_capture "$X" -r ' pids.max=1' touch "$marker"
	assertEquals "exit" 64 "$rc"
	assertEquals "stderr" "$(set_usage ' pids.max=1')" "$err"
	assertFalse "COMMAND did not run" "[ -e $marker ]"
	assertEquals "nothing made" "$before" "$(find "$FXR" | sort)"
}

# ---- placement -----------------------------------------------------------------------------

# exec mode: COMMAND keeps cgexec2's PID and is in every v1 cgroup named, several at once
test_exec_keeps_pid_in_several_v1() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 freezer || return 0
	local h pid
	for h in cpu pids freezer; do
		sandbox $h && mkdir -p "$SB/exec" || { fail "sandbox $h"; return; }
	done
	"$X" -g "cpu,pids,freezer:$S/exec" sleep 30 &
	pid=$!
	cgk_wait_for is_running "$pid" sleep || { fail "sleep never ran as pid $pid"; kill "$pid"; return; }
	for h in cpu pids freezer; do
		assertEquals "$h cgroup of pid $pid" "/$S/exec" "$(cgk_cgroup_of "$pid" $h)"
	done
	kill "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

test_place_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u pid
	sandbox unified || { fail "sandbox"; return; }
	u=$SB
	mkdir "$u/u" || return 0

	"$X" -g "$S/u" sleep 30 &
	pid=$!
	cgk_wait_for is_running "$pid" sleep || { fail "sleep never ran as pid $pid"; kill "$pid"; return; }
	assertEquals "exec: unified cgroup of pid $pid" "/$S/u" "$(cgk_cgroup_of "$pid" unified)"
	kill "$pid"
	wait "$pid" 2>/dev/null

	# waited for (-s): spawned by clone3 straight into the cgroup
	cgk_capture "$X" -v -s -g "$S/u" cat /proc/self/cgroup
	assertEquals "clone3: exit" 0 "$rc"
	assertContains "clone3: placed" "$out" "0::/$S/u"
	assertContains "clone3: -v" "$err" "in /$S/u (unified): spawned there by clone3(CLONE_INTO_CGROUP)"

	# the fallback: moved while it waits, before exec
	cgk_capture "$X" -v -s --no-clone3 -g "$S/u" cat /proc/self/cgroup
	assertEquals "moved: exit" 0 "$rc"
	assertContains "moved: placed" "$out" "0::/$S/u"
	assertContains "moved: -v" "$err" "in /$S/u (unified): moved there before it could exec"
}

# hybrid: the v1 cgroup by a move, the unified one by clone3, in one call
test_place_hybrid_v1_and_unified() {
	cgk_need_root || return 0
	[ "$(cgk_layout)" = hybrid ] || { cgk_skip "not a hybrid layout ($(cgk_layout))"; return; }
	cgk_need_v1 pids || return 0
	sandbox pids && mkdir "$SB/h" && sandbox unified && mkdir "$SB/h" || { fail "sandboxes"; return; }
	cgk_capture "$X" -v -s -g "pids:$S/h" -g "$S/h" cat /proc/self/cgroup
	assertEquals "exit" 0 "$rc"
	assertContains "unified" "$out" "0::/$S/h"
	assertContains "pids" "$out" ":pids:/$S/h"
	assertContains "-v unified" "$err" "(unified): spawned there by clone3(CLONE_INTO_CGROUP)"
	assertContains "-v pids" "$err" "(pids): moved there before it could exec"
}

# The hybrid layout's own hierarchies for the twin tests: v1 pids and cpu beside cgroup2.
need_hybrid_twins() {
	cgk_need_root || return 1
	[ "$(cgk_layout)" = hybrid ] || { cgk_skip "a bare PATH has twins only on a hybrid layout ($(cgk_layout))"; return 1; }
	cgk_need_v1 pids || return 1
	cgk_need_v1 cpu || return 1
	CPUL=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/self/cgroup)
}

# hybrid: the limits cgcreate2 -r writes live in the v1 twins of the unified cgroup, and a bare
# PATH joins them all, so a fork loop is stopped by pids.max (the old code joined only the
# unified cgroup, which holds no limit there: the loop forked without bound)
test_hybrid_bare_path_binds_limits() {
	need_hybrid_twins || return 0
	"$CGKIT_BIN/cgcreate2" -p -r pids.max=5 -r cpu.weight=50 "/$S/web" || { fail "cgcreate2"; return; }
	cgk_capture "$X" -v -g "/$S/web" cat /proc/self/cgroup
	assertEquals "exit ($err)" 0 "$rc"
	assertContains "unified" "$out" "0::/$S/web"
	assertContains "pids twin" "$out" ":pids:/$S/web"
	assertContains "cpu twin" "$out" ":$CPUL:/$S/web"
	assertContains "-v names each hierarchy" "$err" "in /$S/web (pids): cgexec2 moved itself there"
	cgk_capture timeout 300 "$X" -g "/$S/web" sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 2 & done 2>/dev/null; wait'
	assertContains "pids.max stopped the loop" "$(cat "$(cgk_mnt pids)/$S/web/pids.events")" "max "
	assertNotContains "not at 0" "$(cat "$(cgk_mnt pids)/$S/web/pids.events")" "max 0"
	assertEquals "the cpu limit where the process runs" 512 "$(cat "$(cgk_mnt cpu)/$S/web/cpu.shares")"
	# libcgroup 3's ":PATH": the cgroup v2 hierarchy alone, as written
	cgk_capture "$X" -g ":/$S/web" cat /proc/self/cgroup
	assertEquals ":PATH exit ($err)" 0 "$rc"
	assertContains ":PATH unified" "$out" "0::/$S/web"
	assertNotContains ":PATH no twin" "$out" ":pids:/$S/web"
}

# hybrid: where the cgroup has no twin but an ancestor below the root has one, the process goes
# to that ancestor, whose limits then bind (systemd's placement of a unit not realised there)
test_hybrid_bare_path_nearest_twin() {
	need_hybrid_twins || return 0
	"$CGKIT_BIN/cgcreate2" -p -r pids.max=50 "/$S/up" && "$CGKIT_BIN/cgcreate2" -p "/$S/up/leaf" || { fail "cgcreate2"; return; }
	cgk_capture "$X" -g "/$S/up/leaf" cat /proc/self/cgroup
	assertEquals "exit ($err)" 0 "$rc"
	assertContains "unified leaf" "$out" "0::/$S/up/leaf"
	assertContains "the pids ancestor" "$out" ":pids:/$S/up
"
	# cpu has no /up: the nearest there is the sandbox's top, never a sibling
	assertNotContains "no sibling in cpu" "$out" ":$CPUL:/$S/web"
	# a cgroup in no hierarchy at all is still "No such cgroup", named in the unified one
	PSB=$(cgk_sandbox unified)
	bad_input "nowhere" "cgexec2: cgroup /$S/none (unified): use: No such cgroup" -g "/$S/none"
}

# ---- exit status ---------------------------------------------------------------------------

check_statuses() {
	local mode=$1 g=$2 noexec=$_cgk_tmp/noexec
	shift 2
	: >"$noexec"
	chmod 644 "$noexec"
	cgk_capture "$X" "$@" -g "$g" true
	assertEquals "$mode: true" 0 "$rc"
	cgk_capture "$X" "$@" -g "$g" sh -c 'exit 7'
	assertEquals "$mode: exit 7" 7 "$rc"
	cgk_capture "$X" "$@" -g "$g" sh -c 'kill -9 $$'
	assertEquals "$mode: SIGKILL" 137 "$rc"
	cgk_capture "$X" "$@" -g "$g" /nonexistent/cmd
	assertEquals "$mode: not found" 127 "$rc"
	assertEquals "$mode: not found stderr" "cgexec2: /nonexistent/cmd: No such file or directory" "$err"
	cgk_capture "$X" "$@" -g "$g" "$noexec"
	assertEquals "$mode: not executable" 126 "$rc"
	assertEquals "$mode: not executable stderr" "cgexec2: $noexec: Permission denied" "$err"
}

test_exit_status() {
	need_pids || return 0
	local g
	g=$(leaf status) || return 0
	check_statuses exec "pids:$g"
	check_statuses wait "pids:$g" -s
	check_statuses transient "pids:$g" -t
	assertEquals "no transient cgroup left" "" "$(cd "$PSB/status" && find . -mindepth 1 -type d)"
}

# ---- transient -----------------------------------------------------------------------------

# -r pids.max=5 stops a fork loop at 5 tasks; the cgroup and the leftover children are gone after
test_transient_pids_max_stops_fork_loop() {
	need_pids || return 0
	local pids=$_cgk_tmp/forkloop.pids p
	cgk_capture "$X" -g "pids:$S" -tfl -r pids.max=5 "$HELPERS/exec_forkloop" 50 "$pids"
	assertEquals "exit" 0 "$rc"
	assertEquals "the loop stopped at pids.max (itself + 4)" "forks=4 errno=EAGAIN" "$out"
	assertEquals "stderr" "" "$err"
	assertTrue "transient cgroup removed" "dir_gone $PSB/fl"
	assertEquals "4 leftover children recorded" 4 "$(wc -l <"$pids")"
	while read -r p; do
		assertTrue "leftover $p killed" "cgk_wait_for pid_gone $p"
	done <"$pids"
}

# -r cpu.weight goes to the cpu hierarchy, translated to cpu.shares on v1 (enabled on v2)
test_transient_cpu_weight() {
	cgk_need_root || return 0
	local h file want
	if [ -n "$(cgk_mnt cpu)" ]; then
		h=cpu file=cpu.shares want=2048
	else
		cgk_need_v2 cpu || return 0
		h=unified file=cpu.weight want=200
	fi
	sandbox "$h" || return 0
	cgk_capture "$X" -g "cpu:$S" -tw -r cpu.weight=200 cat "$SB/w/$file"
	assertEquals "exit" 0 "$rc"
	assertEquals "$file seen by COMMAND" "$want" "$out"
	assertTrue "removed" "dir_gone $SB/w"
}

# issue 44: -r takes systemd's shares in cgexec2 too: cpu.max=150% is one and a half CPUs,
# as COMMAND sees its cgroup's files. Old code: "cpu.max takes QUOTA PERIOD ...", exit 125.
test_transient_relative_cpu_max() {
	cgk_need_root || return 0
	local h files
	if [ -n "$(cgk_mnt cpu)" ]; then
		h=cpu files="cpu.cfs_quota_us cpu.cfs_period_us"
	else
		cgk_need_v2 cpu || return 0
		h=unified files=cpu.max
	fi
	sandbox "$h" || return 0
	cgk_capture "$X" -g "cpu:$S" -trel -r cpu.max=150% sh -c 'cd "$1" && echo $(cat $2)' _ "$SB/rel" "$files"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "the quota COMMAND runs under" "150000 100000" "$out"
}

test_transient_default_name() {
	need_pids || return 0
	cgk_capture "$X" -g "pids:$S" -t sh -c 'echo $PPID; cat /proc/self/cgroup'
	assertEquals "exit" 0 "$rc"
	local ppid
	ppid=$(echo "$out" | head -n 1)
	# COMMAND's parent is cgexec2, which names the cgroup after itself
	assertContains "in cgexec2-PID" "$out" "/$S/cgexec2-$ppid"
	assertTrue "removed" "dir_gone $PSB/cgexec2-$ppid"
}

# --keep without -s has nothing to wait for: COMMAND replaces cgexec2, the cgroup stays
test_keep() {
	need_pids || return 0
	local bg
	cgk_capture "$X" -g "pids:$S" -tkept --keep sh -c 'sleep 300 & echo $!'
	assertEquals "exit" 0 "$rc"
	bg=$out
	assertTrue "kept" "[ -d $PSB/kept ]"
	assertEquals "its process stays in it" "/$S/kept" "$(cgk_cgroup_of "$bg" "$PH")"
	kill "$bg"

	# with -s it waits, and still leaves the cgroup and what runs there
	cgk_capture "$X" -g "pids:$S" -tkept2 --keep -s sh -c 'sleep 300 & echo $!'
	assertEquals "-s exit" 0 "$rc"
	bg=$out
	assertTrue "-s: kept" "[ -d $PSB/kept2 ]"
	assertTrue "-s: leftover alive" "kill -0 $bg"
	kill "$bg"
}

test_stats() {
	need_pids || return 0
	# two tasks at most: the shell and its background sleep
	cgk_capture "$X" -g "pids:$S" -t -s sh -c 'sleep 0.2 & wait'
	assertEquals "exit" 0 "$rc"
	assertEquals "one line" 1 "$(echo "$err" | wc -l)"
	# at least the 0.2 s it slept; a loaded guest may take longer
	assertTrue "format: $err" "echo '$err' | grep -Eq '^cgexec2: stats: wall=([1-9][0-9]*|0\.[2-9])[0-9.]*s user=[0-9]+\.[0-9]{3}s system=[0-9]+\.[0-9]{3}s'"
	if [ -f "$PSB/pids.peak" ]; then
		assertContains "pids.peak: $err" "$err" " pids_peak=2"
	fi
	# outside a transient cgroup the counters are differences, COMMAND's share
	local g
	g=$(leaf stats) || return 0
	cgk_capture "$X" -g "pids:$g" -s true
	assertEquals "non-transient exit" 0 "$rc"
	assertContains "non-transient" "$err" "cgexec2: stats: wall="
}

# v2 memory.peak where the unified hierarchy has the memory controller (the unified VM)
test_stats_memory_v2() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	sandbox unified >/dev/null || return 0
	cgk_capture "$X" -g "$S" -r memory.max=256M -s sh -c 'x=$(head -c 1000000 /dev/zero | tr "\0" a); echo ${#x}'
	assertEquals "exit" 0 "$rc"
	assertTrue "memory_peak: $err" "echo '$err' | grep -Eq ' memory_peak=[1-9][0-9]*B'"
	assertContains "memory enabled on the way down" "$(cat "$(cgk_mnt unified)/$S/cgroup.subtree_control")" memory
}

# IO bytes come from v1 blkio or v2 io.stat, whichever serves the transient cgroup
test_stats_io() {
	cgk_need_root || return 0
	local spec
	if [ -n "$(cgk_mnt blkio)" ]; then
		sandbox blkio || return 0
		spec=blkio:$S
	else
		cgk_need_v2 io || return 0
		sandbox unified || return 0
		spec=io:$S
	fi
	cgk_capture "$X" -g "$spec" -t -s true
	assertEquals "exit" 0 "$rc"
	assertTrue "io fields: $err" "echo '$err' | grep -Eq ' io_read=[0-9]+B io_write=[0-9]+B'"
}

test_signal_forwarding() {
	need_pids || return 0
	local f=$_cgk_tmp/sig r=$_cgk_tmp/ready pid
	"$X" -g "pids:$S" -tsig sh -c "trap 'echo USR1 >>$f' USR1; trap 'echo HUP >>$f' HUP; trap 'echo TERM >>$f; exit 3' TERM; echo \$\$ >$r; while :; do sleep 0.05; done" &
	pid=$!
	cgk_wait_for test -s "$r" || { fail "COMMAND never started"; kill "$pid"; return; }
	kill -USR1 "$pid"
	cgk_wait_for grep -qs USR1 "$f" || fail "USR1 not forwarded"
	kill -HUP "$pid"
	cgk_wait_for grep -qs HUP "$f" || fail "HUP not forwarded"
	kill -TERM "$pid"
	wait "$pid"
	assertEquals "COMMAND's exit status" 3 "$?"
	assertEquals "what COMMAND heard" "USR1 HUP TERM" "$(echo $(cat "$f"))"
	assertTrue "removed" "dir_gone $PSB/sig"
}

# killed by SIGTERM/SIGHUP, cgexec2 still kills the leftovers and removes the cgroup
test_sigterm_cleans_up() {
	need_pids || return 0
	local sig f pid bg
	for sig in TERM HUP; do
		f=$_cgk_tmp/bg.$sig
		"$X" -g "pids:$S" -tst$sig sh -c "sleep 300 & echo \$! >$f; exec sleep 300" &
		pid=$!
		cgk_wait_for test -s "$f" || { fail "$sig: COMMAND never started"; kill "$pid"; return; }
		bg=$(cat "$f")
		assertTrue "$sig: cgroup made" "[ -d $PSB/st$sig ]"
		kill -$sig "$pid"
		wait "$pid"
		rc=$?
		assertEquals "$sig: exit 128+N" $((128 + $(kill -l $sig))) "$rc"
		assertTrue "$sig: leftover $bg killed" "cgk_wait_for pid_gone $bg"
		assertTrue "$sig: removed" "dir_gone $PSB/st$sig"
	done
}

# cgexec2 -t -v -s ... 2>&1 | true: cgexec2's own lines meet a reader that has gone. SIGPIPE
# killed it (141), COMMAND ran on reparented and the transient cgroup stayed (45 of 50 runs).
# Now such a write fails with EPIPE and changes nothing: the same wait, cleanup and status.
# The runs go side by side (COMMAND lives 2 s); the reader is gone before the first -v line.
test_sigpipe_cleans_up() {
	need_pids || return 0
	local i n=25 f pids=() alive=() left=() bad=()
	for ((i = 0; i < n; i++)); do
		f=$_cgk_tmp/pipe.$i
		(
			sleep 0.2
			"$X" -g "pids:$S" -tpipe$i -v -s -- sh -c 'echo $$ >"$1"; exec sleep 2' _ "$f.pid"
			echo $? >"$f.rc"
			# once cgexec2 is gone, so must COMMAND be
			[ -s "$f.pid" ] && kill -0 "$(cat "$f.pid")" 2>/dev/null && cat "$f.pid" >"$f.alive"
		) 2>&1 | true &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i"; done
	for ((i = 0; i < n; i++)); do
		f=$_cgk_tmp/pipe.$i
		[ "$(cat "$f.rc" 2>/dev/null)" = 0 ] || bad+=("$i:$(cat "$f.rc" 2>/dev/null)")
		[ -d "$PSB/pipe$i" ] && left+=("pipe$i")
		[ -s "$f.alive" ] && alive+=("$(cat "$f.alive")")
	done
	assertEquals "cgexec2 exits with COMMAND's status (run:status)" "" "${bad[*]}"
	assertEquals "transient cgroups left" "" "${left[*]}"
	assertEquals "commands running on after cgexec2 ended" "" "${alive[*]}"
	for i in "${alive[@]}"; do pid_gone "$i" || kill -9 "$i"; done
}

# COMMAND gets SIGPIPE at its default action (cgexec2 ignores it for itself), spawned or exec'd
# in place; ignored only when cgexec2 was started with it ignored. $1: the SigIgn bit of SIGPIPE.
sigpipe_ignored() {
	local hex
	hex=$(awk '$1 == "SigIgn:" { print $2 }' <<<"$1")
	[ -n "$hex" ] && echo $(((0x$hex >> 12) & 1))
}

test_sigpipe_default_for_command() {
	need_pids || return 0
	cgk_capture "$X" -g "pids:$S" -tdfl -- grep ^SigIgn: /proc/self/status
	assertEquals "spawned: exit" 0 "$rc"
	assertEquals "spawned: SIGPIPE not ignored" 0 "$(sigpipe_ignored "$out")"
	# a leaf: v2 takes no process where controllers are enabled for children (the unified VM)
	cgk_capture "$X" -g "pids:$(leaf sigpipe)" -- grep ^SigIgn: /proc/self/status
	assertEquals "in place: exit" 0 "$rc"
	assertEquals "in place: SIGPIPE not ignored" 0 "$(sigpipe_ignored "$out")"
	cgk_capture bash -c 'trap "" PIPE; exec "$@"' _ "$X" -g "pids:$S" -tign -- grep ^SigIgn: /proc/self/status
	assertEquals "inherited: exit" 0 "$rc"
	assertEquals "inherited: SIGPIPE stays ignored" 1 "$(sigpipe_ignored "$out")"
	# what that is for: yes(1) ends at its first write after head has gone
	"$X" -g "pids:$S" -tyes -- yes | head -n 1 >/dev/null
	assertEquals "yes | head: COMMAND died of SIGPIPE" 141 "${PIPESTATUS[0]}"
	assertTrue "yes | head: removed" "dir_gone $PSB/yes"
}

# a COMMAND that ignores SIGTERM: the second one kills the transient cgroup
test_second_sigterm_kills() {
	need_pids || return 0
	local r=$_cgk_tmp/ign pid
	"$X" -g "pids:$S" -tign sh -c "trap '' TERM; echo x >$r; exec sleep 300" &
	pid=$!
	cgk_wait_for test -s "$r" || { fail "COMMAND never started"; kill "$pid"; return; }
	kill -TERM "$pid"
	# two pending SIGTERMs would merge into one: let cgexec2 take the first
	cgk_wait_for sig_taken "$pid" 15 || fail "cgexec2 never took SIGTERM"
	sleep 0.2
	assertTrue "first SIGTERM: still running" "kill -0 $pid"
	kill -TERM "$pid"
	wait "$pid"
	assertEquals "exit" 137 "$?"
	assertTrue "removed" "dir_gone $PSB/ign"
}

# Ctrl-C on a terminal reaches COMMAND from the terminal itself: cgexec2 neither repeats it
# nor counts it as a request to kill the transient cgroup (a REPL survives two of them)
lines() {
	[ "$(wc -l <"$1" 2>/dev/null)" -ge "$2" ]
}

test_terminal_ctrl_c_left_to_command() {
	need_pids || return 0
	cgk_need_prog tmux "a terminal for the command" || return 0
	local f=$_cgk_tmp/tty.int r=$_cgk_tmp/tty.ready sock=cgk-exec-$$
	# tmux needs a pty and a terminal description: try it on something harmless first
	if ! tmux -L "$sock" new-session -d -x 80 -y 10 "sleep 10" 2>/dev/null ||
		! tmux -L "$sock" has-session 2>/dev/null; then
		tmux -L "$sock" kill-server 2>/dev/null
		cgk_skip "tmux cannot run a session here"
		return 0
	fi
	tmux -L "$sock" kill-server
	# a fresh socket: a client can reach the probe's server while it is still dying
	# ("server exited unexpectedly")
	sock=cgk-exec-$$-run
	tmux -L "$sock" new-session -d -x 80 -y 10 \
		"$X -g pids:$S -ttty sh -c 'trap \"echo INT >>$f\" INT; echo \$\$ >$r; while :; do sleep 0.05; done'"
	cgk_wait_for test -s "$r" || { fail "COMMAND never started"; tmux -L "$sock" kill-server; return 0; }
	tmux -L "$sock" send-keys C-c
	cgk_wait_for lines "$f" 1 || fail "first Ctrl-C did not reach COMMAND"
	tmux -L "$sock" send-keys C-c
	cgk_wait_for lines "$f" 2 || fail "second Ctrl-C did not reach COMMAND"
	sleep 0.2
	assertEquals "each Ctrl-C reached COMMAND once" 2 "$(wc -l <"$f")"
	assertTrue "COMMAND still runs" "kill -0 $(cat "$r")"
	assertTrue "its cgroup is still there" "[ -d $PSB/tty ]"
	# the terminal goes away: SIGHUP, forwarded, and the cgroup is removed
	tmux -L "$sock" kill-server
	assertTrue "removed after SIGHUP" "cgk_wait_for dir_gone $PSB/tty"
}

# ---- bad input: one line, exit 125 (a bad spec: 64), nothing created, COMMAND never ran ------

# bad_input NAME EXPECTED-STDERR-OR-SUBSTRING ARGS...: "=..." pins the whole line
bad_input() {
	local name=$1 want=$2 marker=$_cgk_tmp/ran before after
	shift 2
	rm -f "$marker"
	before=$(cd "$PSB" && find . -mindepth 1 -type d | sort)
	capture_bounded 10 "$@" touch "$marker"
	after=$(cd "$PSB" && find . -mindepth 1 -type d | sort)
	assertEquals "$name: exit" "${WANT_RC:-125}" "$rc"
	assertEquals "$name: one line: $err" 1 "$(echo "$err" | wc -l)"
	case $want in
	=*) assertEquals "$name: stderr" "${want#=}" "$err" ;;
	*) assertContains "$name: stderr" "$err" "$want" ;;
	esac
	assertEquals "$name: nothing created" "$before" "$after"
	assertFalse "$name: COMMAND did not run" "[ -e $marker ]"
}

# A mount the table names but that is gone by the time it is used: the reason, not "no such cgroup"
test_mount_gone() {
	local mi=$_cgk_tmp/mi.gone marker=$_cgk_tmp/ran
	printf '50 31 0:44 / %s/gone rw - cgroup cgroup rw,pids\n' "$_cgk_tmp" >"$mi"
	cgk_capture env CGKIT_MOUNTINFO="$mi" "$X" -g pids:/x touch "$marker"
	assertEquals "exit" 125 "$rc"
	assertEquals "cgexec2: cgroup /x (pids): use: Stale file handle (the hierarchy's mount point is gone: unmounted since the mount table was read)" "$err"
	assertFalse "COMMAND did not run" "[ -e $marker ]"
}

test_bad_input() {
	need_pids || return 0
	WANT_RC=64 bad_input "unknown controller" "controller 'nosuch' is not mounted" -g "nosuch:$S"
	WANT_RC=64 bad_input "dot-dot" "'..' and control characters are not allowed" -g "pids:$S/../x"
	bad_input "missing cgroup" "=cgexec2: cgroup /$S/nope ($PLABEL): use: No such cgroup (cgexec2 runs COMMAND in existing cgroups; create it with cgcreate2, or use -t for a transient one)" -g "pids:$S/nope"
	bad_input "missing parent of -t" "=cgexec2: cgroup /$S/nope ($PLABEL): use: No such cgroup (cgexec2 makes the transient cgroup under an existing one; create it with cgcreate2)" -g "pids:$S/nope" -t
	bad_input "-r membership file" "=cgexec2: cgroup.procs: -r: cgroup.procs is not a setting: a membership file: processes are placed with cgexec2 and moved with cgmigrate" -g "pids:$S" -r cgroup.procs=1
	bad_input "-r tasks" "tasks is not a setting: a membership file" -g "pids:$S" -r tasks=1
	bad_input "-r bad value" "pids.max takes a number of tasks or max, not 'bogus'" -g "pids:$S" -r pids.max=bogus
	bad_input "-r unknown controller" "controller 'nosuch' is not mounted" -g "pids:$S" -r nosuch.max=1
}

# the transient cgroup exists in the second hierarchy only: the first one's is taken back
test_transient_rollback_across_hierarchies() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 freezer || return 0
	local fz
	sandbox pids && PSB=$SB && sandbox freezer && fz=$SB || { fail "sandboxes"; return 0; }
	mkdir "$fz/dup" || return 0
	bad_input "name taken in freezer" "/$S/dup (freezer): mkdir: File exists" -g "pids:$S" -g "freezer:$S" -tdup
	assertTrue "freezer's own cgroup untouched" "[ -d $fz/dup ]"
}

# hybrid: a -r file whose controller the unified hierarchy lacks goes to its v1 hierarchy, in
# a twin of the unified -g (the one vocabulary); an explicit v1 -g elsewhere is still refused
test_hybrid_routing_twin() {
	need_pids || return 0
	[ "$(cgk_layout)" = hybrid ] && [ "$PH" = pids ] || { cgk_skip "needs v1 pids next to a unified hierarchy ($(cgk_layout))"; return; }
	sandbox unified >/dev/null || return 0
	cgk_capture "$X" -g "$S" -r pids.max=5 sh -c 'cat /proc/self/cgroup; cat /sys/fs/cgroup/pids/$(sed -n "s/^[0-9]*:pids://p" /proc/self/cgroup)/pids.max'
	assertEquals "exit ($err)" 0 "$rc"
	assertContains "in the unified -g's transient cgroup" "$out" "0::/$S/cgexec2-"
	assertContains "and in its pids twin" "$out" ":pids:/$S/cgexec2-"
	assertContains "with the limit" "$out" "
5"
	cgk_need_v1 cpu || return 0
	bad_input "-r pids.max with only a cpu -g" "=cgexec2: pids.max: -r: no cgroup of this call is in the hierarchy of pids (pids at $(cgk_mnt pids)): add -g pids:PATH" -g "cpu:$S" -r pids.max=5
}

# ---- frozen cgroups ------------------------------------------------------------------------

# -r files that act instead of setting a value are refused before anything is made (the old
# code froze the transient cgroup, hung deaf to SIGINT and SIGTERM, and left it behind)
test_refuses_control_files() {
	cgk_need_root || return 0
	local ran=0 why=": -r: %s is not a setting: it %s"
	if [ -n "$(cgk_mnt unified)" ]; then
		sandbox unified || { fail "sandbox"; return; }
		PSB=$SB ran=1
		# shellcheck disable=SC2059
		bad_input "-r cgroup.freeze" "=cgexec2: cgroup.freeze$(printf "$why" cgroup.freeze "freezes the cgroup, and whatever is in or joins a frozen cgroup stops (cgmigrate --freeze freezes for a move and always thaws)")" -g "$S" -r cgroup.freeze=1
		bad_input "-r cgroup.kill" "=cgexec2: cgroup.kill$(printf "$why" cgroup.kill "kills every process in the subtree (cgcreate2 -x -k stops and removes a cgroup)")" -g "$S" -r cgroup.kill=1
		bad_input "-r cgroup.type" "cgroup.type is not a setting: threaded subtrees are made with cgcreate2 -T" -g "$S" -r cgroup.type=threaded
	fi
	if [ -n "$(cgk_mnt freezer)" ]; then
		sandbox freezer || { fail "sandbox"; return; }
		PSB=$SB ran=1
		bad_input "-r freezer.state" "freezer.state is not a setting: it freezes the cgroup" -g "freezer:$S" -r freezer.state=FROZEN
	fi
	[ $ran -eq 1 ] || cgk_skip "neither a unified hierarchy nor a v1 freezer ($(cgk_layout))"
}

# The hierarchies where this host can freeze: the unified one (cgroup.freeze works in any
# non-root cgroup, controllers or not) and a v1 freezer. "LABEL SPEC-PREFIX" a line.
freezable() {
	[ -n "$(cgk_mnt unified)" ] && echo "unified "
	[ -n "$(cgk_mnt freezer)" ] && echo "freezer freezer:"
	return 0
}

# A frozen cgroup, or a child of one, is refused before anything is made or run: the old code
# hung (-t, -s: waiting for an exec that never came; without: frozen itself after its move)
test_frozen_cgroup_refused() {
	cgk_need_root || return 0
	local h p ran=0
	while read -r h p; do
		sandbox "$h" && mkdir -p "$SB/fz/sub" || { fail "$h: sandbox"; return; }
		freeze "$SB/fz" || { fail "$h: cannot freeze $SB/fz"; return; }
		PSB=$SB THAW=$SB/fz ran=1
		# frozen again before each: a hung run is thawed to be killed
		bad_input "$h: -t" "cgexec2: cgroup /$S/fz ($h): use: the cgroup is frozen: " -g "$p$S/fz" -t
		freeze "$SB/fz"
		bad_input "$h: -t under a frozen ancestor" "cgroup /$S/fz/sub ($h): use: the cgroup is frozen: " -g "$p$S/fz/sub" -t
		freeze "$SB/fz"
		bad_input "$h: -s" "; COMMAND would never run (thaw it first)" -g "$p$S/fz" -s
		freeze "$SB/fz"
		bad_input "$h: exec" "cgroup /$S/fz ($h): use: the cgroup is frozen: " -g "$p$S/fz"
		freeze "$SB/fz"
		case $h in
		unified) assertContains "v2 reason" "$err" "cgroup.events says frozen 1" ;;
		*) bad_input "$h: child" "freezer.state is FROZEN (freezer.parent_freezing 1: an ancestor is frozen); a transient cgroup under it would be frozen too" -g "$p$S/fz/sub" -t ;;
		esac
		thaw "$SB/fz"
		THAW=
	done < <(freezable)
	[ $ran -eq 1 ] || cgk_skip "nothing to freeze with here ($(cgk_layout))"
}

# Frozen after COMMAND started (the transient cgroup itself, or a -s cgroup): the first
# SIGTERM kills it (a frozen COMMAND can act on no signal), the transient cgroup is removed.
# The old code forwarded SIGTERM to the frozen COMMAND and waited forever. COMMAND handles
# SIGTERM: on v2 a signal whose default action is fatal ends even a frozen process.
test_frozen_while_running_first_sigterm_kills() {
	cgk_need_root || return 0
	local h p r=$_cgk_tmp/fr.ready pid cmd ran=0
	while read -r h p; do
		sandbox "$h" || { fail "$h: sandbox"; return; }
		ran=1
		rm -f "$r"
		"$X" -g "$p$S" -tfr sh -c "trap 'echo TERM' TERM; echo \$\$ >$r; while :; do sleep 0.1; done" &
		pid=$!
		cgk_wait_for test -s "$r" || { fail "$h: COMMAND never started"; kill "$pid"; return; }
		cmd=$(cat "$r")
		freeze "$SB/fr" || fail "$h: cannot freeze $SB/fr"
		kill -TERM "$pid"
		THAW=$SB/fr wait_bounded "$pid" 10
		assertEquals "$h: exit (COMMAND killed)" 137 "$rc"
		assertTrue "$h: COMMAND $cmd gone" "cgk_wait_for pid_gone $cmd"
		assertTrue "$h: transient cgroup removed" "dir_gone $SB/fr"
	done < <(freezable)
	[ $ran -eq 1 ] || { cgk_skip "nothing to freeze with here ($(cgk_layout))"; return; }
	# waiting for --stats in a -g cgroup frozen meanwhile (v2: a frozen process dies of SIGKILL)
	[ -n "$(cgk_mnt unified)" ] || return 0
	sandbox unified && mkdir "$SB/leaf" || { fail "leaf"; return; }
	rm -f "$r"
	"$X" -s -g "$S/leaf" sh -c "trap 'echo TERM' TERM; echo \$\$ >$r; while :; do sleep 0.1; done" 2>/dev/null &
	pid=$!
	cgk_wait_for test -s "$r" || { fail "-s: COMMAND never started"; kill "$pid"; return; }
	freeze "$SB/leaf" || fail "-s: cannot freeze"
	kill -TERM "$pid"
	THAW=$SB/leaf wait_bounded "$pid" 10
	assertEquals "-s: exit (COMMAND killed)" 137 "$rc"
	thaw "$SB/leaf"
}

# v1: an ancestor frozen meanwhile keeps even SIGKILL from the transient cgroup, and is not
# cgexec2's to thaw: it gives up within a bounded time, in one line saying how to clean up
test_frozen_ancestor_bounded() {
	cgk_need_root || return 0
	cgk_need_v1 freezer || return 0
	local r=$_cgk_tmp/anc.ready pid cmd
	sandbox freezer && mkdir "$SB/p" || { fail "sandbox"; return; }
	"$X" -g "freezer:$S/p" -tmid sh -c "echo \$\$ >$r; exec sleep 300" 2>"$_cgk_tmp/anc.err" &
	pid=$!
	cgk_wait_for test -s "$r" || { fail "COMMAND never started"; kill "$pid"; return; }
	cmd=$(cat "$r")
	freeze "$SB/p" || fail "cannot freeze"
	kill -TERM "$pid"
	THAW=$SB/p wait_bounded "$pid" 15
	err=$(cat "$_cgk_tmp/anc.err")
	assertEquals "exit" 125 "$rc"
	assertEquals "one line: $err" 1 "$(echo "$err" | wc -l)"
	assertContains "why" "$err" "cgexec2: cgroup /$S/p/mid (freezer): wait for pid $cmd: the cgroup is frozen: freezer.state is FROZEN (freezer.parent_freezing 1: an ancestor is frozen); cgexec2 gives up, pid $cmd ends once it is thawed (then remove the cgroup: cgcreate2 -x -R -k -g freezer:/$S/p/mid)"
	thaw "$SB/p"
	assertTrue "COMMAND dies once thawed" "cgk_wait_for pid_gone $cmd"
}
# ---- cgrules.conf ---------------------------------------------------------------------------

test_rules_no_match() {
	[ -e /etc/cgrules.conf ] && { cgk_skip "/etc/cgrules.conf exists here; its rules are not ours to test"; return; }
	cgk_capture "$X" true
	assertEquals "exit" 125 "$rc"
	assertEquals "one line" 1 "$(echo "$err" | wc -l)"
	assertContains "says why" "$err" "classify: no rules from /etc/cgrules.conf"
	assertContains "says what to do" "$err" "name the cgroup with -g, or use -t"
}

# only in the throwaway VM: rules of our own in /etc/cgrules.conf, matched against COMMAND
test_rules_classify() {
	cgk_need_vm "writes /etc/cgrules.conf: only in the VM (CGKIT_VM)" || return 0
	[ -e /etc/cgrules.conf ] && { cgk_skip "/etc/cgrules.conf exists"; return 0; }
	need_pids || return 0
	local pid g1 g2
	g1=$(leaf ruled-sleep) && g2=$(leaf ruled-rest) || return 0
	printf '*:sleep\tpids\t%s\n*\tpids\t%s\n' "$g1" "$g2" >/etc/cgrules.conf
	"$X" sleep 30 &
	pid=$!
	cgk_wait_for is_running "$pid" sleep || fail "sleep never ran as pid $pid"
	assertEquals "sleep: placed by its own rule" "/$g1" "$(cgk_cgroup_of "$pid" "$PH")"
	kill "$pid"
	wait "$pid" 2>/dev/null
	cgk_capture "$X" cat /proc/self/cgroup
	assertEquals "cat: exit" 0 "$rc"
	assertContains "cat: placed by the catch-all rule" "$out" ":/$g2"
	rm -f /etc/cgrules.conf
}

test_sticky() {
	need_pids || return 0
	local g
	g=$(leaf sticky) || return 0
	# without a cgrulesengd there is nothing to tell, as with libcgroup's cgexec
	cgk_capture "$X" --sticky -g "pids:$g" cat /proc/self/cgroup
	assertEquals "exit" 0 "$rc"
	assertContains "placed" "$out" ":/$g"
	cgk_capture "$X" --sticky -s -g "pids:$g" cat /proc/self/cgroup
	assertEquals "waiting: exit" 0 "$rc"
	assertContains "waiting: placed" "$out" ":/$g"
}

# No tool links libcgroup (common/ops/rules.c opens it): with libcgroup.so.2 hidden in a private
# mount namespace, -g and --sticky (no cgrulesengd) run as before, and only the rules of
# cgrules.conf say that they need it.
test_without_libcgroup() {
	need_pids || return 0
	cgk_need_prog unshare "a mount namespace" || return 0
	[ -S /var/run/cgred.socket ] && { cgk_skip "a cgrulesengd is running"; return 0; }
	local g libs d
	g=$(leaf nolib) || return 0
	# every copy the loader could find: the cache where there is one (the VM guests have none),
	# and the default directories it searches without one
	libs=$(ldconfig -p 2>/dev/null | awk '$1 == "libcgroup.so.2" { print $NF }')
	for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /lib /usr/lib; do
		[ -e "$d/libcgroup.so.2" ] && libs="$libs $d/libcgroup.so.2"
	done
	hidden() {
		unshare -m sh -c 'for l in $1; do mount --bind /dev/null "$l" || exit 99; done
			shift; exec "$@"' sh "$libs" "$@"
	}
	cgk_capture hidden "$X" --sticky -g "pids:$g" cat /proc/self/cgroup
	assertEquals "-g: exit ($err)" 0 "$rc"
	assertContains "-g: placed" "$out" ":/$g"
	cgk_capture hidden "$X" true
	assertEquals "rules: exit" 125 "$rc"
	assertContains "rules: says what is missing" "$err" \
		": classify: the rules of /etc/cgrules.conf need libcgroup: libcgroup.so.2 cannot be loaded ("
}

. "$SHUNIT2"
