#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgmigrate: usage; whole processes in several v1 hierarchies and in the unified one; a single
# thread into a threaded child (unified) and a v1 cpu cgroup, checked per task in /proc; the
# comm match; drains of a forking cgroup with and without --freeze, the freeze undone on
# error and on SIGTERM; gone vs. failed; bad input; cgrules.conf classification in a private
# mount namespace. Live tests never move anything into or within the v1 memory hierarchy.
. "$(dirname "$0")/lib.sh"

M=$CGKIT_BIN/cgmigrate
S=$SANDBOX_NAME
KIDS=()
BOMB=
USAGE_TAIL="Try \`cgmigrate --help' or \`cgmigrate --usage' for more information."

# Make the sandbox in hierarchy $1 and set SB to it. Never inside $(...): lib.sh registers
# the sandbox for removal in the shell that calls cgk_sandbox.
sandbox() {
	cgk_sandbox "$1" >/dev/null || return 1
	SB=$(cgk_mnt "$1")/$S
}

# The label cgkit prints for the v1 hierarchy of controller $1 ("cpu", or "cpu,cpuacct"
# where co-mounted), "unified" for the unified one.
label_of() {
	[ "$1" = unified ] && { echo unified; return; }
	awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) { print $2; exit } }' /proc/self/cgroup
}

# A hierarchy to move processes in: v1 cpu where mounted, else the unified one. Sets H (the
# cgk_mnt name), PFX (the spec's controller prefix), LABEL and SB.
pick() {
	cgk_need_root || return 1
	if [ -n "$(cgk_mnt cpu)" ] && [ "$(cgk_mnt cpu)" != "$(cgk_mnt unified)" ]; then
		H=cpu PFX=cpu:
	elif [ -n "$(cgk_mnt unified)" ]; then
		H=unified PFX=
	else
		cgk_skip "neither a v1 cpu nor a unified hierarchy ($(cgk_layout))"
		return 1
	fi
	LABEL=$(label_of "$H")
	sandbox "$H" || { fail "cannot make the sandbox in $H"; return 1; }
}

# -v's summary without its first lines, which name the hierarchies the ids go to
moves() {
	printf '%s\n' "$1" | grep -v '^into '
}

file_ready() {
	[ -s "$1" ]
}

# start_sleepers N THREADS: N idle processes of THREADS threads; their pids in PIDS.
start_sleepers() {
	local f=$_cgk_tmp/sleepers.$RANDOM
	"$HELPERS/mig_forker" sleepers "$1" "$2" "$f" &
	KIDS+=($!)
	cgk_wait_for file_ready "$f" || { fail "sleepers did not start"; return 1; }
	PIDS=$(tr '\n' ' ' <"$f")
	PIDS=${PIDS% }
	KIDS+=($PIDS)
}

# start_threads NAME...: a process with one thread per NAME; TPID, and TID_<name> per thread.
start_threads() {
	local f=$_cgk_tmp/threads.$RANDOM tid name
	"$HELPERS/mig_threads" "$f" "$@" &
	TPID=$!
	KIDS+=($TPID)
	cgk_wait_for file_ready "$f" || { fail "mig_threads did not start"; return 1; }
	while read -r tid name; do
		[ -n "$name" ] && eval "TID_${name//-/_}=$tid"
	done <"$f"
}

# The cgroup of task $2 of process $1 in hierarchy $3, from /proc/PID/task/TID/cgroup.
task_cgroup() {
	cgk_cgroup_of "$1/task/$2" "$3"
}

# Every thread of process $1 is in $3 of hierarchy $2.
all_threads_in() {
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(task_cgroup "$1" "${t##*/}" "$2")" = "$3" ] || return 1
	done
}

procs_of() {
	cat "$1/cgroup.procs" 2>/dev/null
}

is_empty() {
	[ -z "$(procs_of "$1")" ]
}

# Kill what this test started (by pid), and what it left in the sandboxes. A fork bomb is
# told first (SIGTERM stops all of it), then killed.
teardown_test() {
	local p
	if [ -n "$BOMB" ]; then
		kill -TERM "$BOMB" 2>/dev/null
		wait "$BOMB" 2>/dev/null
		BOMB=
	fi
	for p in "${KIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	for p in "${KIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	KIDS=()
	return 0
}

# ---- usage --------------------------------------------------------------------------------

usage_error() {
	local what=$1 msg=$2
	shift 2
	cgk_capture "$M" "$@"
	assertEquals "$what: exit" 64 "$rc"
	assertEquals "$what: stderr" "cgmigrate: $msg
$USAGE_TAIL" "$err"
	assertEquals "$what: stdout" "" "$out"
}

test_usage_errors() {
	usage_error "no ids" "no process ids given" -g /x
	usage_error "bad pid" "'12x' is not a process id" -g /x 12x
	usage_error "pid 0" "'0' is not a process id" -g /x 0
	usage_error "match alone" "--match needs --threads-of" -g /x --match 'w*' 1
	usage_error "bad threads-of" "--threads-of: 'me' is not a process id" -g /x --threads-of=me
	usage_error "threads-of and ids" "--threads-of takes no other ids" -g /x --threads-of=1 2
	usage_error "-R alone" "-R, -z, --rounds and --timeout go with --from" -g /x -R 1
	usage_error "-z alone" "-R, -z, --rounds and --timeout go with --from" -g /x -z 1
	usage_error "--timeout alone" "-R, -z, --rounds and --timeout go with --from" -g /x --timeout=1 1
	usage_error "bad timeout" "--timeout: '0' is not a duration above zero (2, 1.5s, 500ms, 2min)" -F /x -g /y --timeout=0
	usage_error "escaped" "'1\\x1b[2J' is not a process id" -g /x "$(printf '1\033[2J')"
	usage_error "from without -g" "--from needs a target (-g)" -F /x
	usage_error "from with ids" "--from drains a cgroup: no ids, -p or -T with it" -F /x -g /y 1
	usage_error "bad rounds" "--rounds: '0' is not a number of rounds (1..1000000)" -F /x -g /y --rounds 0
	usage_error "sticky both" "--sticky and --cancel-sticky exclude each other" -g /x --sticky --cancel-sticky 1
	usage_error "thread without -g" "--thread needs a target (-g): cgrules.conf classifies whole processes" -T 1
}

# issue 29: the conventions of cmd/tool.c, which every tool shares
test_unknown_options_escaped() {
	cgk_check_unknown_options "$M" -g /x 1
}

# a mount table that cannot be read: its one line, exit 1, the process not moved
test_mount_table_unreadable() {
	local before
	start_sleepers 1 1 || return
	before=$(cat "/proc/$PIDS/cgroup")
	cgk_check_mount_table_failure "$M" 1 "[ \"\$(cat /proc/$PIDS/cgroup)\" = '$before' ]" \
		-g "/$S" "$PIDS"
}

test_help_and_version() {
	cgk_capture "$M" --help
	assertEquals "help exit" 0 "$rc"
	assertContains "help" "$out" "Usage: cgmigrate [OPTION...] [PID...]"
	assertContains "help names --threads-of" "$out" "--threads-of=PID"
	cgk_capture "$M" --version
	assertTrue "version: $out" "echo '$out' | grep -Eqx 'cgmigrate \(cgkit\) [0-9]+\.[0-9]+\.[0-9]+'"
}

test_bad_specs() {
	cgk_capture "$M" -g 'cpu:/a/../b' 1
	assertEquals "dotdot exit" 64 "$rc"
	assertEquals "dotdot" "cgmigrate: /a/../b: path: '..' and control characters are not allowed in a cgroup path (paths are relative to the hierarchy root)" "$err"
	cgk_capture "$M" -g 'nosuch:/a' 1
	assertEquals "unknown controller exit" 64 "$rc"
	assertContains "unknown controller" "$err" "cgmigrate: nosuch:/a: "
	assertContains "unknown controller: why" "$err" "controller 'nosuch' is not mounted on any hierarchy; mounted here:"
	assertEquals "one line" 1 "$(echo "$err" | wc -l)"
}

test_bad_pidfile() {
	printf '12\n\n  34 \nabc\n' >"$_cgk_tmp/pids"
	cgk_capture "$M" -g /x -p "$_cgk_tmp/pids"
	assertEquals "exit" 64 "$rc"
	assertEquals "names the line" "cgmigrate: $_cgk_tmp/pids:4: 'abc' is not a process id" "$err"
	cgk_capture "$M" -g /x -p "$_cgk_tmp/nonexistent"
	assertEquals "missing file exit" 64 "$rc"
	assertEquals "missing file" "cgmigrate: $_cgk_tmp/nonexistent: No such file or directory" "$err"
	# a directory is no empty pid file
	cgk_capture "$M" -g /x -p "$_cgk_tmp"
	assertEquals "directory exit" 64 "$rc"
	assertEquals "directory" "cgmigrate: $_cgk_tmp: Is a directory" "$err"
	# a NUL inside a line is garbage, not the line's end
	printf '123\0garbage\n' >"$_cgk_tmp/nul"
	cgk_capture "$M" -g /x -p "$_cgk_tmp/nul"
	assertEquals "NUL exit" 64 "$rc"
	assertEquals "NUL" "cgmigrate: $_cgk_tmp/nul:1: '123\\x00garbage' is not a process id" "$err"
	# nothing raw reaches the terminal, and a huge line is cut
	printf '7\033]0;title\007\n' >"$_cgk_tmp/ctl"
	cgk_capture "$M" -g /x -p "$_cgk_tmp/ctl"
	assertEquals "control exit" 64 "$rc"
	assertEquals "control characters escaped" "cgmigrate: $_cgk_tmp/ctl:1: '7\\x1b]0;title\\x07' is not a process id" "$err"
	head -c 1048576 /dev/zero | tr '\0' 9 >"$_cgk_tmp/huge"
	cgk_capture "$M" -g /x -p "$_cgk_tmp/huge"
	assertEquals "huge exit" 64 "$rc"
	# echoed text is cut to fit cmd/tool.h's TOOL_SHOWN_SIZE (72): 68 bytes, then "..."
	assertEquals "huge line cut" "cgmigrate: $_cgk_tmp/huge:1: '$(printf '9%.0s' $(seq 68))...' is not a process id" "$err"
}

# ---- whole processes ------------------------------------------------------------------------

test_move_processes_several_v1() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	cgk_need_v1 pids || return 0
	local h p ok=1
	sandbox cpu && sandbox cpuacct && sandbox pids || { fail "sandboxes"; return; }
	for h in cpu cpuacct pids; do mkdir -p "$(cgk_mnt $h)/$S/a"; done
	start_sleepers 3 4 || return
	cgk_capture "$M" -v -g "cpu,cpuacct,pids:/$S/a" $PIDS
	assertEquals "exit" 0 "$rc"
	assertEquals "quiet" "" "$err"
	assertEquals "summary" "moved 3 processes (12 threads), 0 gone, 0 failed" "$(moves "$out")"
	for p in $PIDS; do
		for h in cpu cpuacct pids; do
			all_threads_in "$p" "$h" "/$S/a" || { ok=0; echo "pid $p not all in $h:/$S/a"; }
		done
	done
	assertEquals "every thread of every process arrived, in every hierarchy" 1 "$ok"
	# and back through a pid file and stdin: the same moves, other inputs
	mkdir -p "$(cgk_mnt cpu)/$S/b"
	echo "$PIDS" | tr ' ' '\n' >"$_cgk_tmp/pidfile"
	cgk_capture "$M" -g "cpu:/$S/b" -p "$_cgk_tmp/pidfile"
	assertEquals "pidfile exit" 0 "$rc"
	assertEquals "pidfile: silent" "" "$out$err"
	p=${PIDS%% *}
	assertEquals "pidfile moved" "/$S/b" "$(cgk_cgroup_of "$p" cpu)"
	assertEquals "pids untouched" "/$S/a" "$(cgk_cgroup_of "$p" pids)"
	echo "$PIDS" | tr ' ' '\n' | "$M" -g "cpu:/$S/a" -
	assertEquals "stdin exit" 0 $?
	assertEquals "stdin moved" "/$S/a" "$(cgk_cgroup_of "$p" cpu)"
}

test_move_processes_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local p
	sandbox unified || { fail "sandbox"; return; }
	mkdir "$SB/u"
	start_sleepers 2 3 || return
	cgk_capture "$M" -v -g "/$S/u" $PIDS
	assertEquals "exit" 0 "$rc"
	assertEquals "summary" "moved 2 processes (6 threads), 0 gone, 0 failed" "$(moves "$out")"
	for p in $PIDS; do
		all_threads_in "$p" unified "/$S/u" || fail "pid $p: not every thread in /$S/u"
	done
}

# A zombie: exited, pid still listed. The kernel accepts it in cgroup.procs and moves nothing.
test_zombie_is_gone() {
	pick || return 0
	local z
	mkdir "$SB/z"
	"$HELPERS/mig_forker" zombie "$_cgk_tmp/zombie" &
	KIDS+=($!)
	cgk_wait_for file_ready "$_cgk_tmp/zombie" || { fail "no zombie"; return; }
	z=$(cat "$_cgk_tmp/zombie")
	cgk_wait_for grep -q '^State:.*Z' "/proc/$z/status" || { fail "$z is not a zombie"; return; }
	cgk_capture "$M" -v -g "$PFX/$S/z" "$z"
	assertEquals "exit" 0 "$rc"
	assertEquals "gone, not failed" "moved 0 processes (0 threads), 1 gone, 0 failed" "$(moves "$out")"
	assertEquals "no error" "" "$err"
}

# --no-verify trusts the kernel's answers: the zombie's write succeeds, so it counts as moved;
# an id the kernel does not find counts as gone.
test_no_verify() {
	pick || return 0
	local z nopid
	mkdir "$SB/nv"
	"$HELPERS/mig_forker" zombie "$_cgk_tmp/zombie2" &
	KIDS+=($!)
	cgk_wait_for file_ready "$_cgk_tmp/zombie2" || { fail "no zombie"; return; }
	z=$(cat "$_cgk_tmp/zombie2")
	start_sleepers 1 1 || return
	nopid=$(cat /proc/sys/kernel/pid_max)
	cgk_capture "$M" -v --no-verify -g "$PFX/$S/nv" "$PIDS" "$z" "$nopid"
	assertEquals "exit" 0 "$rc"
	assertEquals "summary" "moved 2 processes (2 threads), 1 gone, 0 failed" "$(moves "$out")"
	assertEquals "the live one moved" "/$S/nv" "$(cgk_cgroup_of "$PIDS" "$H")"
}

# Processes exiting while they move: each one arrived or is gone, none failed. Their parent
# does not reap them, so no pid can be reused by a stranger meanwhile.
test_exit_mid_move() {
	pick || return 0
	local n
	mkdir "$SB/mid"
	"$HELPERS/mig_forker" dying 150 40 "$_cgk_tmp/dying" &
	KIDS+=($!)
	cgk_wait_for file_ready "$_cgk_tmp/dying" || { fail "no dying children"; return; }
	cgk_capture "$M" -v -g "$PFX/$S/mid" -p "$_cgk_tmp/dying"
	assertEquals "exit" 0 "$rc"
	assertEquals "no error" "" "$err"
	assertContains "none failed" "$out" ", 0 failed"
	# singular when one alone was still there to move: "moved 1 process (1 thread)"
	n=$(echo "$out" | sed -n 's/^moved \([0-9]*\) process\(es\)\? ([0-9]* threads\?), \([0-9]*\) gone.*/\1+\3/p')
	assertEquals "every one counted ($out)" 150 "$((n))"
}

test_no_such_pid() {
	pick || return 0
	local nopid
	mkdir "$SB/n"
	start_sleepers 1 1 || return
	# pid_max itself is never handed out
	nopid=$(cat /proc/sys/kernel/pid_max)
	cgk_capture "$M" -v -g "$PFX/$S/n" "$PIDS" "$nopid"
	assertEquals "exit" 1 "$rc"
	assertEquals "error" "cgmigrate: cgroup /$S/n ($LABEL): move: no such process $nopid" "$err"
	assertEquals "summary" "moved 1 process (1 thread), 0 gone, 1 failed" "$(moves "$out")"
	assertEquals "the real one moved" "/$S/n" "$(cgk_cgroup_of "$PIDS" "$H")"
}

test_missing_target() {
	pick || return 0
	start_sleepers 1 1 || return
	cgk_capture "$M" -g "$PFX/$S/nonexistent" $PIDS
	assertEquals "exit" 1 "$rc"
	assertEquals "error" "cgmigrate: cgroup /$S/nonexistent ($LABEL): open cgroup.procs: No such file or directory (the cgroup does not exist)" "$err"
}

# v2: a domain child of a threaded subtree's root is "domain invalid": no process may go there.
test_process_into_domain_invalid_refused() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sandbox unified || { fail "sandbox"; return; }
	mkdir -p "$SB/pd/t" "$SB/pd/inv"
	echo threaded >"$SB/pd/t/cgroup.type" || { fail "cannot make a threaded cgroup"; return; }
	assertEquals "setup" "domain invalid" "$(cat "$SB/pd/inv/cgroup.type")"
	start_sleepers 1 1 || return
	cgk_capture "$M" -g "/$S/pd/inv" $PIDS
	assertEquals "exit" 1 "$rc"
	assertContains "rule" "$err" "cgmigrate: cgroup /$S/pd/inv (unified): move process $PIDS: Operation not supported (threaded rule:"
}

# ---- single threads -------------------------------------------------------------------------

test_thread_into_threaded_child_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sandbox unified || { fail "sandbox"; return; }
	mkdir -p "$SB/dom"
	start_threads main-a worker-1 worker-2 || return
	"$M" -g "/$S/dom" "$TPID" || { fail "whole process into /$S/dom"; return; }
	mkdir "$SB/dom/t"
	echo threaded >"$SB/dom/t/cgroup.type" || { fail "cannot make a threaded cgroup"; return; }
	cgk_capture "$M" -v -T -g "/$S/dom/t" "$TID_worker_1"
	assertEquals "exit" 0 "$rc"
	assertEquals "summary" "moved 1 thread (of 1 process), 0 gone, 0 failed" "$(moves "$out")"
	assertEquals "the thread moved" "/$S/dom/t" "$(task_cgroup "$TPID" "$TID_worker_1" unified)"
	assertEquals "its sibling did not" "/$S/dom" "$(task_cgroup "$TPID" "$TID_worker_2" unified)"
	assertEquals "nor the main thread" "/$S/dom" "$(task_cgroup "$TPID" "$TPID" unified)"
	assertEquals "the domain became threaded root" "domain threaded" "$(cat "$SB/dom/cgroup.type")"
}

test_thread_into_domain_explains() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sandbox unified || { fail "sandbox"; return; }
	mkdir -p "$SB/home" "$SB/plain"
	start_threads solo-1 || return
	"$M" -g "/$S/home" "$TPID" || { fail "whole process into /$S/home"; return; }
	cgk_capture "$M" -T -g "/$S/plain" "$TID_solo_1"
	assertEquals "exit" 1 "$rc"
	assertEquals "error" "cgmigrate: cgroup /$S/plain (unified): move thread: threaded rule: the cgroup is not threaded (cgroup.type: domain) and thread $TID_solo_1 of process $TPID lives in /$S/home: a single thread moves only within the threaded subtree of its process; make the target a threaded child of /$S/home with cgcreate2 -T" "$err"
	assertEquals "it stayed" "/$S/home" "$(task_cgroup "$TPID" "$TID_solo_1" unified)"
}

test_thread_v1_cpu() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	local before
	sandbox cpu || { fail "sandbox"; return; }
	mkdir "$SB/t1"
	start_threads one-1 two-2 || return
	before=$(task_cgroup "$TPID" "$TID_two_2" cpu)
	cgk_capture "$M" -T -g "cpu:/$S/t1" "$TID_one_1"
	assertEquals "exit" 0 "$rc"
	assertEquals "silent" "" "$out$err"
	assertEquals "the thread moved" "/$S/t1" "$(task_cgroup "$TPID" "$TID_one_1" cpu)"
	assertEquals "its sibling did not" "$before" "$(task_cgroup "$TPID" "$TID_two_2" cpu)"
	assertEquals "nor the main thread" "$before" "$(task_cgroup "$TPID" "$TPID" cpu)"
}

# --threads-of/--match: in a v1 cpu cgroup where there is one, else a threaded unified child.
test_threads_of_match() {
	cgk_need_root || return 0
	local h spec dst
	start_threads worker-1 worker-2 io-1 || return
	if [ -n "$(cgk_mnt cpu)" ] && [ "$(cgk_mnt cpu)" != "$(cgk_mnt unified)" ]; then
		sandbox cpu || { fail "sandbox"; return; }
		h=cpu spec="cpu:/$S/w" dst=/$S/w
		mkdir "$SB/w"
	else
		cgk_need_unified || return 0
		sandbox unified || { fail "sandbox"; return; }
		h=unified spec="/$S/p/w" dst=/$S/p/w
		mkdir -p "$SB/p/w"
		"$M" -g "/$S/p" "$TPID" || { fail "process into /$S/p"; return; }
		echo threaded >"$SB/p/w/cgroup.type" || { fail "threaded"; return; }
	fi
	cgk_capture "$M" -v --threads-of="$TPID" --match='worker-*' -g "$spec"
	assertEquals "exit" 0 "$rc"
	assertEquals "summary" "moved 2 threads (of 1 process), 0 gone, 0 failed" "$(moves "$out")"
	assertEquals "worker-1" "$dst" "$(task_cgroup "$TPID" "$TID_worker_1" $h)"
	assertEquals "worker-2" "$dst" "$(task_cgroup "$TPID" "$TID_worker_2" $h)"
	assertNotEquals "io-1 stays" "$dst" "$(task_cgroup "$TPID" "$TID_io_1" $h)"
	assertNotEquals "main stays" "$dst" "$(task_cgroup "$TPID" "$TPID" $h)"
	cgk_capture "$M" --threads-of="$TPID" --match='nothing*' -g "$spec"
	assertEquals "no match exit" 1 "$rc"
	assertEquals "no match" "cgmigrate: process $TPID has no thread named like 'nothing*'" "$err"
}

# ---- drains ---------------------------------------------------------------------------------

# A source full of forking processes: shell loops and a C fork storm. Sets SRC, DST (paths in
# the hierarchy) and LOOPS (the forkers' pids).
start_forkers() {
	local p
	mkdir -p "$SB/src" "$SB/dst"
	[ -n "$1" ] && mkdir -p "$1/src"
	LOOPS=
	for p in 1 2; do
		bash -c 'while :; do /bin/true; done' &
		KIDS+=($!)
		LOOPS="$LOOPS $!"
	done
	"$HELPERS/mig_forker" storm 8 20 &
	KIDS+=($!)
	LOOPS="$LOOPS $!"
	"$M" -g "${2:-$PFX}/$S/src" $LOOPS || { fail "forkers into src"; return 1; }
	# a spawning source: by now the forkers' children are there too
	sleep 0.2
}

forkers_in_dst() {
	local p
	for p in $LOOPS; do
		[ "$(cgk_cgroup_of "$p" "$H")" = "/$S/dst" ] || return 1
	done
}

# hybrid: a bare PATH is the cgroup with its v1 twins, where cgcreate2 -r put its limits: a move
# joins all of them (the old code moved into the unified cgroup alone, which holds no limit
# there), a drain empties all of them, and -g :PATH (libcgroup 3) is the unified one alone
test_hybrid_bare_path_twins() {
	cgk_need_root || return 0
	[ "$(cgk_layout)" = hybrid ] || { cgk_skip "a bare PATH has twins only on a hybrid layout ($(cgk_layout))"; return; }
	cgk_need_v1 pids || return 0
	local p pids=$(cgk_mnt pids) cg
	sandbox unified || { fail "sandbox"; return; }
	"$CGKIT_BIN/cgcreate2" -p -r pids.max=20 "/$S/web" "/$S/dst" || { fail "cgcreate2"; return; }
	sleep 600 &
	p=$!
	cgk_execd "$p" sleep
	KIDS+=($p)
	cgk_capture "$M" -v -g "/$S/web" "$p"
	assertEquals "move exit ($err)" 0 "$rc"
	cg=$(cat "/proc/$p/cgroup")
	assertContains "unified" "$cg" "0::/$S/web"
	assertContains "pids twin" "$cg" ":pids:/$S/web"
	assertContains "-v says where" "$out" "/$S/web (pids)"
	assertEquals "counted by the twin's limit" 1 "$(cat "$pids/$S/web/pids.current")"
	# frozen: the unified member's cgroup.freeze holds the twins' processes (no v1 freezer
	# cgroup of that path; the old code refused the drain of each twin for want of one)
	cgk_capture "$M" -F "/$S/web" -g "/$S/dst" --freeze
	assertEquals "drain exit ($err)" 0 "$rc"
	cg=$(cat "/proc/$p/cgroup")
	assertContains "drained: unified" "$cg" "0::/$S/dst"
	assertContains "drained: pids twin" "$cg" ":pids:/$S/dst"
	assertEquals "the pids twin is empty" "" "$(cat "$pids/$S/web/cgroup.procs")"
	cgk_capture "$M" -g ":/$S/web" "$p"
	assertEquals ":PATH exit ($err)" 0 "$rc"
	cg=$(cat "/proc/$p/cgroup")
	assertContains ":PATH: unified" "$cg" "0::/$S/web"
	assertContains ":PATH: pids where it was" "$cg" ":pids:/$S/dst"
}

# hybrid: another cgroup's directory bind-mounted over the pids twin's path. The write there
# lands in the other cgroup, whose listing (read at the twin's path) lists the process: only
# /proc/PID/cgroup tells, as cgexec2 reads it. The old code said "moved 1 process" and exited 0
# with the process in the other cgroup, out of the limit's reach.
test_hybrid_twin_overmounted() {
	cgk_need_root || return 0
	[ "$(cgk_layout)" = hybrid ] || { cgk_skip "a bare PATH has twins only on a hybrid layout ($(cgk_layout))"; return; }
	cgk_need_v1 pids || return 0
	can_unshare || return
	local p pids=$(cgk_mnt pids)
	sandbox unified || { fail "sandbox"; return; }
	"$CGKIT_BIN/cgcreate2" -p -r pids.max=5 "/$S/x" || { fail "cgcreate2"; return; }
	mkdir "$pids/$S/other" || { fail "mkdir other"; return; }
	sleep 600 &
	p=$!
	cgk_execd "$p" sleep
	KIDS+=($p)
	# in a mount namespace of its own: the mount ends with it on every path, and no other
	# namespace gets a copy that could keep it busy
	cgk_capture unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && exec "$3" -v -g "$4" "$5"' \
		sh "$pids/$S/other" "$pids/$S/x" "$M" "/$S/x" "$p"
	assertEquals "exit ($out)" 1 "$rc"
	assertContains "names the twin and what /proc says" "$err" \
		"cgroup /$S/x ($(label_of pids)): verify: process $p did not arrive: /proc says it is in /$S/other"
	assertNotContains "no success claimed" "$out" "moved 1 process"
	assertEquals "where it landed" "/$S/other" "$(cgk_cgroup_of "$p" pids)"
}

# A fork storm at pids.max=300, drained with --freeze: the destination is held frozen during
# the moves, so the moved processes cannot fork there and starve the later cgroup.procs writes
# (cgroup_threadgroup_rwsem): seconds, where the old code moved 143 of 283 in 30 s and gave up
test_drain_storm_frozen_in_seconds() {
	cgk_need_root || return 0
	cgk_need_vm "a fork storm of 300 processes: only in the VM (CGKIT_VM)" || return 0
	cgk_need_v2 pids || return 0
	local u n
	sandbox unified || { fail "sandbox"; return; }
	u=$SB
	"$CGKIT_BIN/cgcreate2" -p -r pids.max=300 "/$S/storm" && "$CGKIT_BIN/cgcreate2" -p -r pids.max=400 "/$S/calm" || { fail "cgcreate2"; return; }
	bash -c 'echo $$ >"$1/cgroup.procs"; exec "$2" 60' _ "$u/storm" "$HELPERS/forkbomb" &
	KIDS+=($!)
	storm_full() { [ "$(cat "$u/storm/pids.current")" -ge 250 ]; }
	CGK_WAIT_TICKS=300 cgk_wait_for storm_full || { fail "the storm did not grow: $(cat "$u/storm/pids.current")"; return; }
	# 120 s (its --timeout 60) only guards a hang (124: hung)
	cgk_capture timeout 120 "$M" -v -F "/$S/storm" -g "/$S/calm" --freeze --timeout=60
	assertEquals "exit ($err; 124: hung)" 0 "$rc"
	assertEquals "the storm's cgroup is empty" "" "$(cat "$u/storm/cgroup.procs")"
	# the mechanism: one frozen pass, the freeze of the storm and 300 writes, each a kernel move
	# of a frozen task; how long it takes is bench/cgmigrate_drain.sh's (4-6 s under TCG at
	# host load 22, at 0.8-1.3x its floor of freeze, writes and thaw)
	assertContains "one frozen pass" "$out" "empty after 1 round"
	assertEquals "the destination thawed" "frozen 0" "$(grep frozen "$u/calm/cgroup.events")"
	"$CGKIT_BIN/cgcreate2" -x -k "/$S/calm" >/dev/null 2>&1
	n=$(cat "$u/storm/pids.current")
	assertEquals "nothing forked back into the source" 0 "$n"
	# the sandbox's top takes processes again for the later tests: no controller for children
	"$CGKIT_BIN/cgcreate2" -x -R -k "/$S/storm" >/dev/null 2>&1
	echo -pids >"$u/cgroup.subtree_control" 2>/dev/null
}

test_drain_forking_source() {
	pick || return 0
	start_forkers || return
	cgk_capture "$M" -v -F "$PFX/$S/src" -g "$PFX/$S/dst"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "no error" "" "$err"
	assertContains "summary" "$out" "; /$S/src ($LABEL) empty after "
	assertEquals "source empty" "" "$(procs_of "$SB/src")"
	assertTrue "the forkers are in dst" forkers_in_dst
}

# v1: the freezer is its own hierarchy; the source must be there too, under the same path.
freeze_setup() {
	FZ=
	if [ "$H" = unified ]; then
		FPFX=
	else
		cgk_need_v1 freezer || return 1
		sandbox freezer || { fail "freezer sandbox"; return 1; }
		FZ=$SB
		sandbox "$H"
		FPFX=${PFX%:},freezer:
	fi
}

thawed() {
	if [ -n "$FZ" ]; then
		[ "$(cat "$FZ/src/freezer.state")" = THAWED ]
	else
		[ "$(cat "$SB/src/cgroup.freeze")" = 0 ] && grep -qx 'frozen 0' "$SB/src/cgroup.events"
	fi
}

test_drain_frozen_source() {
	pick || return 0
	freeze_setup || return 0
	start_forkers "$FZ" "$FPFX" || return
	cgk_capture "$M" -v -z -F "$PFX/$S/src" -g "$PFX/$S/dst"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "no error" "" "$err"
	assertEquals "one round while frozen" "moved $(echo "$out" | sed -n 's/^moved \([0-9]*\).*/\1/p') processes, 0 gone, 0 failed; /$S/src ($LABEL) empty after 1 round" "$(moves "$out")"
	assertEquals "source empty" "" "$(procs_of "$SB/src")"
	assertTrue "the forkers are in dst" forkers_in_dst
	assertTrue "thawed" thawed
}

# Something puts a process back as fast as it leaves: the drain must give up, and thaw.
start_reattacher() {
	start_sleepers 1 1 || return 1
	"$M" -g "${1:-$PFX}/$S/src" "$PIDS" || { fail "sleeper into src"; return 1; }
	"$HELPERS/mig_forker" reattach "$PIDS" "$SB/src/cgroup.procs" &
	KIDS+=($!)
}

# The refill races with the drain's pauses: on a busy machine the reattacher may miss one.
# Where strace is, it widens each pause by holding every move's return for 20 ms (LeakSanitizer
# cannot run under ptrace: a SAN=1 build checks leaks everywhere else); else up to 3 tries to
# see the drain lose.
drain_until_it_gives_up() {
	local try hold=()
	command -v strace >/dev/null &&
		hold=(env ASAN_OPTIONS=detect_leaks=0 strace -o /dev/null -e trace=write
			-e inject=write:delay_exit=20000)
	for try in 1 2 3; do
		cgk_capture "${hold[@]}" "$M" "$@"
		[ "$rc" -ne 0 ] && return 0
	done
}

test_drain_gives_up_and_thaws() {
	pick || return 0
	freeze_setup || return 0
	mkdir -p "$SB/src" "$SB/dst"
	[ -n "$FZ" ] && mkdir -p "$FZ/src"
	start_reattacher "$FPFX" || return
	drain_until_it_gives_up --rounds=3 -F "$PFX/$S/src" -g "$PFX/$S/dst"
	assertEquals "exit" 1 "$rc"
	assertEquals "error" "cgmigrate: cgroup /$S/src ($LABEL): drain: 1 process is still there after 3 rounds: they fork faster than they can be moved (use --freeze)" "$(no_secs "$err")"
	drain_until_it_gives_up -z --rounds=3 -F "$PFX/$S/src" -g "$PFX/$S/dst"
	assertEquals "frozen: exit" 1 "$rc"
	assertEquals "frozen: gave up, not 'use --freeze'" "cgmigrate: cgroup /$S/src ($LABEL): drain: 1 process is still there after 3 rounds: something moves them back in as they leave (another program?)" "$(no_secs "$err")"
	assertTrue "thawed after the error" thawed
}

# The seconds a drain that gave up names vary: out of the line.
no_secs() {
	echo "$1" | sed 's/ ([0-9.]* s)//'
}

# v1 -z freezes the freezer hierarchy's cgroup of the source's path: when that one does not hold
# the processes, the drain must say so, not advise the --freeze it was given.
test_drain_v1_freezer_not_holding() {
	pick || return 0
	[ "$H" != unified ] || { cgk_skip "v1 only: the v2 freezer is the source's own"; return; }
	freeze_setup || return 0
	mkdir -p "$SB/src" "$SB/dst" "$FZ/src"
	start_reattacher || return
	drain_until_it_gives_up -z --rounds=3 -F "$PFX/$S/src" -g "$PFX/$S/dst"
	assertEquals "exit" 1 "$rc"
	assertContains "names the freezer cgroup" "$err" "still there after 3 rounds"
	assertContains "names the freezer cgroup" "$err" ": the freezer hierarchy's cgroup /$S/src ($(label_of freezer)) does not hold them (process $PIDS is in "
	assertNotContains "no advice to do what was done" "$err" "use --freeze"
	assertTrue "thawed" thawed
}

# Processes in uninterruptible sleep (tests/helpers/dsleeper: lookups held by a FUSE
# filesystem nobody answers) in the source: -z cannot freeze it. One deadline from the drain's
# start covers the freeze and the rounds, so --timeout bounds the freeze both ways: 1s ends the
# drain after about a second, 6s lets the freeze wait about 6 s (the freeze once waited a fixed
# 5 s whatever --timeout said, and the rounds' clock started after it). Each: exit 1, the one
# line, nothing moved, the source thawed.
dsleepers_in() {
	local p
	for p in $DPIDS; do
		grep -qx "$p" "$1/cgroup.procs" || return 1
	done
}

drain_unfreezable() { # $1: --timeout; sets rc, out, err and secs
	local t0 t1
	t0=$EPOCHREALTIME # clock: a lower bound (it waited), which load only lengthens
	cgk_capture "$M" -z --timeout="$1" -F "$PFX/$S/src" -g "$PFX/$S/dst"
	t1=$EPOCHREALTIME # clock: a lower bound
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

freeze_deadline() {
	freeze_setup || return 0
	local mnt=$_cgk_tmp/fuse pidf=$_cgk_tmp/dsleep holder st flabel=$LABEL secs
	[ -n "$FZ" ] && flabel=$(label_of freezer)
	mkdir -p "$SB/src" "$SB/dst" "$mnt"
	[ -n "$FZ" ] && mkdir -p "$FZ/src"
	rm -f "$pidf"
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1
		echo $$ >"$2/cgroup.procs" || exit 1
		exec "$3" "$4" "$5" 60' sh "${FZ:+$FZ/src}" "$SB/src" "$HELPERS/dsleeper" "$mnt" \
		"$pidf" 2>"$_cgk_tmp/dsleep.err" &
	holder=$!
	KIDS+=($holder)
	until [ -s "$pidf" ]; do
		if ! kill -0 "$holder" 2>/dev/null; then
			wait "$holder"
			st=$?
			[ "$st" = 77 ] && { cgk_skip "no process in uninterruptible sleep here: $(cat "$_cgk_tmp/dsleep.err")"; return; }
			fail "dsleeper exited $st: $(cat "$_cgk_tmp/dsleep.err")"
			return
		fi
		sleep 0.05
	done
	DPIDS=$(tr '\n' ' ' <"$pidf")
	KIDS+=($DPIDS)
	local line="cgmigrate: cgroup /$S/src ($flabel): freeze: the cgroup did not freeze in time (a task in uninterruptible sleep?); thawed it again"

	drain_unfreezable 1s
	assertEquals "1s: exit ($err)" 1 "$rc"
	assertEquals "1s: the one line" "$line" "$err"
	assertEquals "1s: no summary" "" "$(moves "$out")"
	assertTrue "1s: waited for the freeze ($secs s)" "awk -v s=$secs 'BEGIN { exit !(s >= 0.9) }'"
	# that it also ends well before the old fixed wait of 5 s is a time, which load stretches:
	# not asserted (bench/timing.sh has no row for it yet: it needs the fuse sleepers above)
	assertTrue "1s: thawed" thawed
	assertTrue "1s: nothing moved" "dsleepers_in $SB/src"

	drain_unfreezable 6s
	assertEquals "6s: exit ($err)" 1 "$rc"
	assertEquals "6s: the one line" "$line" "$err"
	assertTrue "6s: the freeze had the whole --timeout, past the old 5 s ($secs s)" "awk -v s=$secs 'BEGIN { exit !(s >= 5.9) }'"
	assertTrue "6s: thawed" thawed
	assertTrue "6s: nothing moved" "dsleepers_in $SB/src"
}

# v1 cpu with the freezer hierarchy where there is one (this host), else the unified one
test_drain_freeze_deadline() {
	pick || return 0
	freeze_deadline
}

# cgroup.freeze, where pick took a v1 hierarchy (the hybrid host); the unified VM runs it above
test_drain_freeze_deadline_v2() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	pick || return 0
	[ "$H" != unified ] || { cgk_skip "the test above ran in the unified hierarchy"; return; }
	H=unified PFX= LABEL=unified
	sandbox unified || { fail "cannot make the sandbox in unified"; return; }
	freeze_deadline
}

# An ignored SIGHUP (nohup) while the source is frozen: it must neither stop the drain nor
# leave an empty error line ('cgmigrate: : ') behind.
test_ignored_signal_during_freeze() {
	pick || return 0
	freeze_setup || return 0
	local pid target try hold=()
	mkdir -p "$SB/src" "$SB/dst"
	[ -n "$FZ" ] && mkdir -p "$FZ/src"
	start_reattacher "$FPFX" || return
	# as drain_until_it_gives_up: strace widens the drain's pauses so that the reattacher wins
	# on a loaded machine too; the SIGHUP then goes to cgmigrate, strace's child
	command -v strace >/dev/null &&
		hold=(env ASAN_OPTIONS=detect_leaks=0 strace -o /dev/null -e trace=write
			-e inject=write:delay_exit=20000)
	for try in 1 2 3; do
		sh -c 'trap "" HUP; exec "$@"' sh "${hold[@]}" "$M" -z --rounds=1000000 --timeout=2s \
			-F "$PFX/$S/src" -g "$PFX/$S/dst" >"$_cgk_tmp/hup.out" 2>"$_cgk_tmp/hup.err" &
		pid=$!
		KIDS+=($pid)
		sleep 0.5
		target=$pid
		[ ${#hold[@]} -gt 0 ] && target=$(pgrep -P "$pid" | head -n 1)
		[ -n "$target" ] && kill -HUP "$target"
		wait "$pid"
		rc=$?
		[ "$rc" -ne 0 ] && break
	done
	err=$(cat "$_cgk_tmp/hup.err")
	assertEquals "it went on to the deadline ($err)" 1 "$rc"
	# "at least": the deadline cut the last listing short (a loaded guest, where pgrep finds
	# strace's child and the SIGHUP reaches cgmigrate)
	assertEquals "and says why it stopped" "cgmigrate: cgroup /$S/src ($LABEL): drain: 1 process is still there after" \
		"$(no_secs "$err" | sed 's/ after .*/ after/; s/drain: at least /drain: /')"
	assertTrue "thawed" thawed
}

frozen() {
	if [ -n "$FZ" ]; then
		[ "$(cat "$FZ/src/freezer.state")" = FROZEN ]
	else
		grep -qx 'frozen 1' "$SB/src/cgroup.events"
	fi
}

# SIGTERM while the source is frozen; cgmigrate must thaw before the signal takes it.
# With strace, the drain's first move (the write after the one that froze the source) is held
# for 3 s and the signal arrives meanwhile; strace dies of the same signal as its program.
# Without, a reattacher keeps the drain going (it ends by itself if the reattacher misses
# every pause for a moment: then again, at most 3 times).
test_sigterm_thaws() {
	pick || return 0
	freeze_setup || return 0
	local spid pid st= try
	mkdir -p "$SB/src" "$SB/dst"
	[ -n "$FZ" ] && mkdir -p "$FZ/src"
	if command -v strace >/dev/null; then
		start_sleepers 1 1 || return
		"$M" -g "$FPFX/$S/src" "$PIDS" || { fail "sleeper into src"; return; }
		env ASAN_OPTIONS=detect_leaks=0 strace -o /dev/null -e trace=write \
			-e inject=write:delay_enter=3000000:when=2 \
			"$M" -z -F "$PFX/$S/src" -g "$PFX/$S/dst" 2>"$_cgk_tmp/term.err" &
		spid=$!
		KIDS+=($spid)
		cgk_wait_for frozen || { fail "the source never froze"; return; }
		pid=$(cat "/proc/$spid/task/$spid/children" 2>/dev/null)
		assertNotEquals "cgmigrate runs under strace" "" "$pid"
		kill -TERM $pid
		wait "$spid"
		st=$?
	else
		start_reattacher "$FPFX" || return
		for try in 1 2 3; do
			"$M" -z --rounds=1000000 -F "$PFX/$S/src" -g "$PFX/$S/dst" 2>"$_cgk_tmp/term.err" &
			pid=$!
			KIDS+=($pid)
			sleep 0.5
			cgmigrate_running "$pid" && kill -TERM "$pid"
			wait "$pid"
			st=$?
			[ "$st" = 143 ] && break
		done
	fi
	assertEquals "died of SIGTERM ($(cat "$_cgk_tmp/term.err"))" 143 "$st"
	assertTrue "thawed before it died" thawed
}

cgmigrate_running() {
	kill -0 "$1" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

test_drain_recursive() {
	pick || return 0
	mkdir -p "$SB/rs/k1/k2" "$SB/rd"
	start_sleepers 3 1 || return
	set -- $PIDS
	"$M" -g "$PFX/$S/rs" "$1" && "$M" -g "$PFX/$S/rs/k1" "$2" && "$M" -g "$PFX/$S/rs/k1/k2" "$3" ||
		{ fail "setup"; return; }
	cgk_capture "$M" -F "$PFX/$S/rs" -g "$PFX/$S/rd"
	assertEquals "flat: exit" 0 "$rc"
	assertEquals "flat: the child's process stays" "/$S/rs/k1/k2" "$(cgk_cgroup_of "$3" "$H")"
	cgk_capture "$M" -v -R -F "$PFX/$S/rs" -g "$PFX/$S/rd"
	assertEquals "recursive: exit" 0 "$rc"
	assertContains "recursive: summary" "$out" "moved 2 processes, 0 gone, 0 failed"
	assertEquals "recursive: k2's process" "/$S/rd" "$(cgk_cgroup_of "$3" "$H")"
	assertEquals "recursive: k1's process" "/$S/rd" "$(cgk_cgroup_of "$2" "$H")"
	cgk_capture "$M" -F "$PFX/$S/rd" -g "$PFX/$S/rd"
	assertEquals "same cgroup: a usage error" 64 "$rc"
	assertEquals "same cgroup" "cgmigrate: cgroup /$S/rd ($LABEL): drain: the source is also the target: nothing would move (-g names where the processes go, -F where they come from)" "$err"
}

# Emptying a child into its parent is a plain drain. It used to find nothing to move (every
# cgroup below the target was left out) and exit 0 in silence, so a following cgcreate2 -x -k
# killed what was meant to be kept.
test_drain_into_ancestor() {
	pick || return 0
	mkdir -p "$SB/up/kid/grand" "$SB/up/other"
	start_sleepers 4 1 || return
	set -- $PIDS
	"$M" -g "$PFX/$S/up/kid" "$1" "$2" && "$M" -g "$PFX/$S/up/kid/grand" "$3" &&
		"$M" -g "$PFX/$S/up/other" "$4" || { fail "setup"; return; }
	cgk_capture "$M" -v -F "$PFX/$S/up/kid" -g "$PFX/$S/up"
	assertEquals "into the parent: exit ($err)" 0 "$rc"
	assertEquals "into the parent: summary" "moved 2 processes, 0 gone, 0 failed; /$S/up/kid ($LABEL) empty after 1 round" "$(moves "$out")"
	assertEquals "into the parent: moved" "/$S/up /$S/up" "$(cgk_cgroup_of "$1" "$H") $(cgk_cgroup_of "$2" "$H")"
	assertEquals "flat: the grandchild's stays" "/$S/up/kid/grand" "$(cgk_cgroup_of "$3" "$H")"
	cgk_capture "$M" -v -R -F "$PFX/$S/up/kid" -g "$PFX/$S"
	assertEquals "recursive, into the grandparent: exit ($err)" 0 "$rc"
	assertEquals "recursive: summary" "moved 1 process, 0 gone, 0 failed; /$S/up/kid ($LABEL) empty after 1 round" "$(moves "$out")"
	assertEquals "recursive: moved" "/$S" "$(cgk_cgroup_of "$3" "$H")"
	# -R with a target inside the source: refused before anything moves. It left the target's
	# subtree out, moved the rest into it and said "/up empty" while /up/kid held processes.
	"$M" -g "$PFX/$S/up/kid/grand" "$1" || { fail "setup 2"; return; }
	cgk_capture "$M" -v -R -F "$PFX/$S/up" -g "$PFX/$S/up/kid"
	assertEquals "target inside: a usage error" 64 "$rc"
	assertEquals "target inside: why" "cgmigrate: cgroup /$S/up ($LABEL): drain: the target /$S/up/kid is inside the subtree that -R empties: it would be filled instead (name a target outside /$S/up, or drop -R to drain only the source's own processes)" "$err"
	assertEquals "target inside: no summary" "" "$(moves "$out")"
	assertEquals "target inside: nothing moved" "/$S/up /$S/up/other /$S/up/kid/grand" \
		"$(cgk_cgroup_of "$2" "$H") $(cgk_cgroup_of "$4" "$H") $(cgk_cgroup_of "$1" "$H")"
	# without -R the source's own processes go into its child, as for any target
	cgk_capture "$M" -v -F "$PFX/$S/up" -g "$PFX/$S/up/kid"
	assertEquals "flat into a child: exit ($err)" 0 "$rc"
	assertEquals "flat into a child: moved" "/$S/up/kid" "$(cgk_cgroup_of "$2" "$H")"
	"$M" -g "$PFX/$S/up" "$2" "$4" || { fail "setup 3"; return; }
	# an empty source says so with -v, and that is success
	cgk_capture "$M" -v -F "$PFX/$S/up/other" -g "$PFX/$S/up"
	assertEquals "empty: exit" 0 "$rc"
	assertEquals "empty: says so" "moved 0 processes, 0 gone, 0 failed; /$S/up/other ($LABEL) empty after 0 rounds" "$(moves "$out")"
}

# A kernel thread refuses to move (EINVAL): say why. Only one the kernel refuses by design, with
# PF_NO_SETAFFINITY (0x04000000) besides PF_KTHREAD (0x00200000): a per-CPU one, ksoftirqd/0.
test_kernel_thread_explained() {
	pick || return 0
	# even a move the kernel refuses is a write of a pid that is not ours: the VM's only
	cgk_need_vm "writes a kernel thread's pid: only in the VM (CGKIT_VM)" || return 0
	local kt
	local f st flags
	for f in /proc/[0-9]*/stat; do
		st=$(cat "$f" 2>/dev/null) || continue
		# fields after the comm's ')': state ppid pgrp session tty tpgid flags
		set -- ${st##*) }
		flags=$7
		[ -n "$flags" ] && (((flags & 0x00200000) && (flags & 0x04000000))) &&
			{ kt=${st%% *}; break; }
	done
	[ -n "$kt" ] || { cgk_skip "no per-CPU kernel thread seen"; return; }
	mkdir "$SB/k"
	cgk_capture "$M" -g "$PFX/$S/k" "$kt"
	assertEquals "exit" 1 "$rc"
	assertEquals "explained" "cgmigrate: cgroup /$S/k ($LABEL): move: process $kt is a kernel thread (PF_KTHREAD in /proc/$kt/stat): kernel threads cannot be moved" "$err"
	assertEquals "nothing moved" "" "$(procs_of "$SB/k")"
}

test_drain_refusals() {
	pick || return 0
	local other
	mkdir -p "$SB/q"
	other=$(awk -F: '$2 == "pids" || $2 == "freezer" { print $2; exit }' /proc/self/cgroup)
	if [ -n "$other" ] && [ "$H" != unified ]; then
		cgk_capture "$M" -v -F "$PFX/$S/q" -g "$other:/$S/q"
		assertEquals "no target in the hierarchy: exit" 1 "$rc"
		assertEquals "no target in the hierarchy" "cgmigrate: cgroup /$S/q ($LABEL): drain: no target in this hierarchy: a drain moves processes within one hierarchy (add -g $LABEL:PATH)" "$err"
		assertEquals "no summary for what never started" "" "$(moves "$out")"
	fi
}

# A regression here would drain the whole machine: only in the throwaway VM.
test_drain_root_refused() {
	pick || return 0
	cgk_need_vm "drains the root of a hierarchy if it regresses: only in the VM (CGKIT_VM)" || return 0
	mkdir -p "$SB/q"
	cgk_capture "$M" -F "$PFX/" -g "$PFX/$S/q"
	assertEquals "root: exit" 1 "$rc"
	assertEquals "root" "cgmigrate: cgroup / ($LABEL): drain: refusing to drain the root of the hierarchy" "$err"
}

# Cgroup $1 holds at least $2 processes.
bomb_grown() {
	[ "$(procs_of "$1" | wc -l)" -ge "$2" ]
}

# A fork bomb held at pids.max: where the unified root offers pids (the unified VM) 100 in v2,
# else at most 30 in a v1 pids sandbox (with the freezer hierarchy's cgroup of the same path
# for -z). Without --freeze a drain must end by its --rounds and by its --timeout, saying how
# many are left and "use --freeze"; it once ran for minutes whatever --rounds said. With
# --freeze the source empties. No timing is asserted beyond "ended well before the guard".
test_drain_fork_storm_bounded() {
	cgk_need_root || return 0
	local pfx max join pat
	if cgk_v2_has pids && grep -qw pids "$(cgk_mnt unified)/cgroup.subtree_control"; then
		sandbox unified || { fail "sandbox"; return; }
		echo +pids >"$SB/cgroup.subtree_control" || { fail "+pids"; return; }
		pfx= max=100 H=unified FZ=
	elif [ -n "$(cgk_mnt pids)" ] && [ -n "$(cgk_mnt freezer)" ] &&
		[ "$(cgk_mnt pids)" != "$(cgk_mnt unified)" ]; then
		sandbox freezer || { fail "freezer sandbox"; return; }
		FZ=$SB
		mkdir -p "$FZ/b/storm"
		sandbox pids || { fail "sandbox"; return; }
		pfx=pids: max=30 H=pids
	else
		cgk_skip "neither v2 pids nor v1 pids and freezer ($(cgk_layout))"
		return
	fi
	mkdir -p "$SB/b/storm" "$SB/b/sink"
	echo "$max" >"$SB/b/pids.max" || { fail "pids.max"; return; }
	join=$SB/b/storm/cgroup.procs
	[ -n "$FZ" ] && join=$FZ/b/storm/cgroup.procs
	# the bomb joins the freezer's cgroup (v1), then the pids one: it forks only there
	sh -c 'echo $$ >"$1" && exec "$2" bomb "$3" 120 200' sh "$join" "$HELPERS/mig_forker" \
		"$SB/b/storm/cgroup.procs" &
	BOMB=$!
	cgk_wait_for bomb_grown "$SB/b/storm" $((max / 2)) || { fail "the bomb did not start"; return; }
	pat="^cgmigrate: cgroup /$S/b/storm \\($H\\): drain: (at least )?[0-9]* process(es are| is) still there after [0-9]* rounds? \([0-9.]* s\): they fork faster than they can be moved \(use --freeze\)\$"
	# the rounds end it, not the default --timeout (30 s: a loaded machine's two rounds of
	# hundreds of moves under the storm took longer); the outer timeouts only guard a hang (124)
	cgk_capture timeout 900 "$M" -v --rounds=2 --timeout=10min -F "$pfx/$S/b/storm" -g "$pfx/$S/b/sink"
	assertTrue "--rounds=2 ended ($rc; 124: hung)" "[ $rc = 0 -o $rc = 1 ]"
	[ "$rc" = 1 ] && assertEquals "--rounds: says what is left" "$err" "$(echo "$err" | grep -E "$pat")"
	[ "$rc" = 1 ] && assertContains "--rounds: 2 rounds" "$err" " after 2 rounds ("
	# how long past 2 s it runs (a move waits for the storm's threadgroup lock) is
	# bench/cgmigrate_storm.sh's
	cgk_capture timeout 600 "$M" -v --timeout=2s -F "$pfx/$S/b/storm" -g "$pfx/$S/b/sink"
	assertTrue "--timeout=2s ended ($rc; 124: hung)" "[ $rc = 0 -o $rc = 1 ]"
	[ "$rc" = 1 ] && assertEquals "--timeout: says what is left" "$err" "$(echo "$err" | grep -E "$pat")"
	# frozen, nothing forks: it empties
	cgk_capture timeout 200 "$M" -v -z --timeout=150s -F "$pfx/$S/b/storm" -g "$pfx/$S/b/sink"
	assertEquals "--freeze: exit ($err)" 0 "$rc"
	assertEquals "--freeze: source empty" "" "$(procs_of "$SB/b/storm")"
	if [ -n "$FZ" ]; then
		assertEquals "--freeze: thawed" THAWED "$(cat "$FZ/b/storm/freezer.state")"
	else
		assertEquals "--freeze: thawed" 0 "$(cat "$SB/b/storm/cgroup.freeze")"
	fi
}

# ---- cgrules.conf, --sticky -----------------------------------------------------------------

# Run "$@" with our own /etc/cgrules.conf, in a private mount namespace: /etc is replaced there
# by a directory of links to the real entries plus the rules. Nothing outside changes.
with_rules() {
	local rules=$1 t=$_cgk_tmp/etc.$RANDOM
	shift
	mkdir -p "$t/orig" "$t/new"
	cp "$rules" "$t/new/cgrules.conf"
	unshare -m --propagation private sh -c '
		t=$1; shift
		mount --bind /etc "$t/orig" || exit 99
		for e in "$t"/orig/* "$t"/orig/.[!.]*; do
			[ -e "$e" ] || [ -L "$e" ] || continue
			[ "${e##*/}" = cgrules.conf ] || ln -s "$e" "$t/new/${e##*/}"
		done
		mount --bind "$t/new" /etc || exit 99
		exec "$@"' sh "$t" "$@"
}

can_unshare() {
	cgk_need_prog unshare "a mount namespace" || return 1
	unshare -m --propagation private true 2>/dev/null ||
		{ cgk_skip "cannot make a mount namespace here (unshare -m fails)"; return 1; }
}

# The fixture's rule names cpu, its % line pids: two v1 hierarchies where they are mounted,
# else the unified hierarchy offering both (the rule's targets merge into one there).
test_rules_classify() {
	cgk_need_root || return 0
	local h1 h2
	can_unshare || return
	if [ -n "$(cgk_mnt cpu)" ] && [ -n "$(cgk_mnt pids)" ]; then
		h1=cpu h2=pids
		sandbox cpu && sandbox pids || { fail "sandboxes"; return; }
	elif cgk_v2_has cpu && cgk_v2_has pids; then
		h1=unified h2=unified
		sandbox unified || { fail "sandbox"; return; }
	else
		cgk_skip "neither v1 cpu and pids nor a unified hierarchy offering them ($(cgk_layout))"
		return
	fi
	mkdir -p "$(cgk_mnt $h1)/$S/ruled" "$(cgk_mnt $h2)/$S/ruled"
	sed "s/@S@/$S/g" "$FIXTURES/cgmigrate/cgrules.conf" >"$_cgk_tmp/rules"
	start_sleepers 1 1 || return
	cgk_capture with_rules "$_cgk_tmp/rules" "$M" -v "$PIDS"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "summary" "moved 1 process (1 thread), 0 gone, 0 failed" "$(moves "$out")"
	assertEquals "cpu by the rule" "/$S/ruled" "$(cgk_cgroup_of "$PIDS" $h1)"
	assertEquals "pids by its % line" "/$S/ruled" "$(cgk_cgroup_of "$PIDS" $h2)"
	# mig_threads matches no rule
	start_threads lone-1 || return
	cgk_capture with_rules "$_cgk_tmp/rules" "$M" "$TPID"
	assertEquals "no rule: exit" 1 "$rc"
	assertContains "no rule" "$err" "cgmigrate: pid $TPID: classify: no rule in /etc/cgrules.conf matches uid 0 gid 0 process "
}

test_rules_absent() {
	[ -e /etc/cgrules.conf ] && { cgk_skip "/etc/cgrules.conf exists here"; return; }
	start_sleepers 1 1 || return
	cgk_capture "$M" "$PIDS"
	assertEquals "exit" 1 "$rc"
	assertContains "says why" "$err" "cgmigrate: pid $PIDS: classify: no rules from /etc/cgrules.conf (libcgroup: "
}

test_sticky_without_daemon() {
	pick || return 0
	[ -S /var/run/cgred.socket ] && { cgk_skip "a cgrulesengd is running"; return; }
	mkdir "$SB/st"
	start_sleepers 1 1 || return
	cgk_capture "$M" -v --sticky -g "$PFX/$S/st" "$PIDS"
	assertEquals "exit" 0 "$rc"
	assertContains "says nobody listened" "$out" "no cgrulesengd is running: --sticky had nobody to tell"
	assertEquals "moved" "/$S/st" "$(cgk_cgroup_of "$PIDS" "$H")"
}

. "$SHUNIT2"
