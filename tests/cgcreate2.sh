#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgcreate2 on the real kernel (sandboxed), plus its usage errors.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
S=$SANDBOX_NAME

# the label cgcreate2 prints for the hierarchy a sandbox $1 is in ("cpu", "cpu,cpuacct", "unified")
label() {
	if [ "$(dirname "$1")" = "$(cgk_mnt unified)" ]; then echo unified; else basename "$(dirname "$1")"; fi
}

# Tests that work on any layout: the v1 cpu hierarchy where there is one, else the unified one.
# Sets $base (the sandbox) and $P (the spec prefix: "cpu:" or "").
pick_hier() {
	if [ -n "$(cgk_mnt cpu)" ]; then base=$(cgk_sandbox cpu) P=cpu:
	else base=$(cgk_sandbox unified) P=; fi
}

# --- usage errors: exact stderr, exit 64, nothing touched ------------------------------------

test_usage_no_cgroup() {
	cgk_capture "$CG"
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: no cgroup given (PATH or -g CONTROLLERS:PATH)
Try \`cgcreate2 --help' or \`cgcreate2 --usage' for more information." "$err"
}

test_usage_dotdot() {
	cgk_capture "$CG" -g "cpu:/$S/../etc"
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: cgroup 'cpu:/$S/../etc': not a cgroup spec ([CONTROLLERS]:PATH or PATH, with no '..', control characters, names over 255 bytes or paths over 4095)" \
		"$(head -n 1 <<<"$err")"
	cgk_capture "$CG" "$(printf 'a\nb')"
	assertEquals "control character" 64 "$rc"
	cgk_capture "$CG" ",:/$S/x"
	assertEquals "a list of no controller" 64 "$rc"
}

# issue 29: the conventions of cmd/tool.c, which every tool shares
test_unknown_options_escaped() {
	cgk_check_unknown_options "$CG" "/$S/x"
}

# a mount table that cannot be read: its one line, exit 1, no cgroup made
test_mount_table_unreadable() {
	local m
	m=$(cgk_all_mnts | head -n 1)
	cgk_check_mount_table_failure "$CG" 1 "[ ! -e '$m/$S.unmade' ]" "/$S.unmade"
}

# libcgroup 3's -g :PATH: the cgroup v2 hierarchy alone (the old code refused it, exit 64)
test_empty_controller_list_is_v2() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_capture "$CG" -p -g ":/$S/v2only"
	assertEquals "exit ($err)" 0 "$rc"
	assertTrue "in the unified hierarchy" "[ -d $(cgk_sandbox unified)/v2only ]"
	local m
	for m in $(cgk_all_mnts); do
		[ "$m" = "$(cgk_mnt unified)" ] && continue
		assertFalse "not in $m" "[ -d $m/$S/v2only ]"
	done
}

test_usage_bad_values() {
	cgk_capture "$CG" -d 0999 /x
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: -d takes an octal mode, not '0999'" "$(head -n 1 <<<"$err")"
	cgk_capture "$CG" -r cpu.weight /x
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: --set takes FILE=VALUE, FILE an interface file's name (a letter, then letters, digits, '_' or '.', as cpu.weight), not 'cpu.weight'" "$(head -n 1 <<<"$err")"
	cgk_capture "$CG" -x -r cpu.weight=1 /x
	assertEquals 64 "$rc"
	cgk_capture "$CG" -R /x
	assertEquals "-R without -x" 64 "$rc"
	cgk_capture "$CG" -x --kill=SIGNOPE /x
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: --kill takes a signal name or number, not 'SIGNOPE'" "$(head -n 1 <<<"$err")"
	cgk_capture "$CG" -a no-such-user-cgkit:0 /x
	assertEquals 64 "$rc"
}

# -r ' cpu.weight=100' made a cgroup " cpu:" at the hierarchy root and set nothing: the file's
# controller part became the spec " cpu:/", a path. Run on plain directories named as the
# hierarchies (CGKIT_MOUNTINFO), so that code which still took it makes nothing real.
test_usage_set_file_names() {
	local fx=$_cgk_tmp/fx-set f
	mkdir -p "$fx/systemd" "$fx/cpu,cpuacct" "$fx/pids"
	sed "s|@ROOT@|$fx|g" "$FIXTURES/cgexec2/mountinfo.legacy" >"$_cgk_tmp/mountinfo-set"
	for f in ' cpu.weight' 'cpu.weight ' 'a b' '*.max' 'cpu,pids.max' '.x' $'cpu.weight\t'; do
		CGKIT_MOUNTINFO=$_cgk_tmp/mountinfo-set cgk_capture "$CG" -p -v -r "$f=100" /rv
		assertEquals "'$f': exit" 64 "$rc"
		assertEquals "'$f': stderr" "cgcreate2: --set takes FILE=VALUE, FILE an interface file's name (a letter, then letters, digits, '_' or '.', as cpu.weight), not '${f//$'\t'/\\t}=100'" \
			"$(head -n 1 <<<"$err")"
		assertEquals "'$f': nothing said on stdout" "" "$out"
	done
	assertEquals "nothing made" "" "$(find "$fx" -mindepth 2)"
}

# --- v1 -------------------------------------------------------------------------------------

test_v1_several_controllers() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	cgk_need_v1 pids || return 0
	local cpu pids
	cpu=$(cgk_sandbox cpu) && pids=$(cgk_sandbox pids) || { fail "sandbox"; return; }
	cgk_capture "$CG" -g "cpu,pids:/$S/multi/a" -p
	assertEquals "$err" 0 "$rc"
	assertTrue "cpu dir" "[ -d '$cpu/multi/a' ]"
	assertTrue "pids dir" "[ -d '$pids/multi/a' ]"
	assertEquals "silent on success" "" "$out$err"
}

test_v1_set_translates_cpu_vocabulary() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	local cpu
	cpu=$(cgk_sandbox cpu)
	cgk_capture "$CG" -g "cpu:/$S/vocab" -r cpu.weight=200 -r "cpu.max=50000 100000"
	assertEquals "$err" 0 "$rc"
	assertEquals "weight 200 -> shares" 2048 "$(cat "$cpu/vocab/cpu.shares")"
	assertEquals 50000 "$(cat "$cpu/vocab/cpu.cfs_quota_us")"
	assertEquals 100000 "$(cat "$cpu/vocab/cpu.cfs_period_us")"
	# v1 names keep working on v1
	cgk_capture "$CG" -p -g "cpu:/$S/vocab" -r cpu.shares=512 -r cpu.weight.nice=0 -r cpu.max=max
	assertEquals "$err" 0 "$rc"
	assertEquals "nice 0 -> 1024 shares (the scheduler's table)" 1024 "$(cat "$cpu/vocab/cpu.shares")"
	assertEquals -1 "$(cat "$cpu/vocab/cpu.cfs_quota_us")"
}

test_rollback_after_failing_set() {
	cgk_need_root || return 0
	local base P bad
	pick_hier
	# rejected by our own check
	cgk_capture "$CG" -p -g "$P/$S/rb/deep/er" -r cpu.weight=99999
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup /$S/rb/deep/er ($(label "$base")): set: cpu.weight takes 1..10000 (default 100), not '99999'" "$err"
	assertFalse "nothing left" "[ -e '$base/rb' ]"
	# rejected by the kernel
	if [ -n "$P" ]; then bad=cpu.cfs_quota_us; else bad=cgroup.max.depth; fi
	cgk_capture "$CG" -p -g "$P/$S/rb/k" -r $bad=abc
	assertEquals 1 "$rc"
	assertContains "$err" "write $bad \"abc\": Invalid argument (the kernel rejected the value for this file)"
	assertFalse "nothing left" "[ -e '$base/rb' ]"
	# an existing parent survives the rollback of its new child
	mkdir "$base/keep"
	cgk_capture "$CG" -p -g "$P/$S/keep/new" -r cgroup.nosuchfile=1
	assertEquals 1 "$rc"
	assertContains "$err" "No such file or directory"
	assertTrue "parent kept" "[ -d '$base/keep' ]"
	assertFalse "child gone" "[ -e '$base/keep/new' ]"
}

test_set_refuses_membership_and_paths() {
	cgk_need_root || return 0
	local base P
	pick_hier
	cgk_capture "$CG" -g "$P/$S/mem" -r cgroup.procs=1
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup.procs: -r: cgroup.procs is not a setting: a membership file: processes are placed with cgexec2 and moved with cgmigrate" "$err"
	assertFalse "[ -e '$base/mem' ]"
	cgk_capture "$CG" -g "$P/$S/mem" -r ../../cpu.shares=2
	assertEquals "a path as FILE: a usage error" 64 "$rc"
	assertContains "$err" "cgcreate2: --set takes FILE=VALUE, FILE an interface file's name"
	assertFalse "[ -e '$base/mem' ]"
	cgk_capture "$CG" -g "$P/$S/mem" -r memory.limit_in_bytes=1G
	assertEquals 1 "$rc"
	if [ -n "$P" ] || ! cgk_v2_has memory; then
		assertContains "$err" "no cgroup of this call is in the hierarchy of memory"
	else
		assertContains "$err" "memory.limit_in_bytes is a cgroup v1 file; on v2 use memory.max"
	fi
	assertFalse "[ -e '$base/mem' ]"
}

test_exists_and_parents() {
	cgk_need_root || return 0
	local base P cpu
	pick_hier
	cpu=$base
	cgk_capture "$CG" -g "$P/$S/p1/p2"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup /$S/p1 ($(label "$cpu")): mkdir: the parent cgroup does not exist (-p creates it)" "$err"
	cgk_capture "$CG" -p -g "$P/$S/p1/p2"
	assertEquals 0 "$rc"
	cgk_capture "$CG" -p -g "$P/$S/p1/p2"
	assertEquals "-p is idempotent" 0 "$rc"
	cgk_capture "$CG" -g "$P/$S/p1/p2"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup /$S/p1/p2 ($(label "$cpu")): mkdir: File exists; use -p to take an existing cgroup as made (as cgcreate does)" "$err"
	assertTrue "[ -d '$cpu/p1/p2' ]"
}

test_unknown_controller() {
	cgk_need_root || return 0
	cgk_capture "$CG" -g "nosuchctl:/$S/x"
	assertEquals "a usage error, as in cgmigrate" 64 "$rc"
	assertContains "$err" "cgcreate2: nosuchctl:/$S/x: controller 'nosuchctl' is not mounted on any hierarchy; mounted here: "
}

test_odd_names_stay_inside() {
	cgk_need_root || return 0
	local base P
	pick_hier
	cgk_capture "$CG" -p -g "$P/$S/with space/..dots/-dash"
	assertEquals "$err" 0 "$rc"
	assertTrue "[ -d '$base/with space/..dots/-dash' ]"
}

# --- removal ---------------------------------------------------------------------------------

test_remove_recursive() {
	cgk_need_root || return 0
	local base P cpu
	pick_hier
	cpu=$base
	"$CG" -p -g "$P/$S/rm/a/b" -g "$P/$S/rm/c"
	cgk_capture "$CG" -x -g "$P/$S/rm"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup /$S/rm ($(label "$cpu")): rmdir: the cgroup has child cgroups (use -R)" "$err"
	assertTrue "[ -d '$cpu/rm/a/b' ]"
	cgk_capture "$CG" -x -R -v -g "$P/$S/rm"
	assertEquals "$err" 0 "$rc"
	# -v names every cgroup removed, deepest first
	assertEquals "$(sort <<<"removed cgroup /$S/rm/a/b ($(label "$cpu"))
removed cgroup /$S/rm/a ($(label "$cpu"))
removed cgroup /$S/rm/c ($(label "$cpu"))
removed cgroup /$S/rm ($(label "$cpu"))")" "$(sort <<<"$out")"
	assertEquals "the top last" "removed cgroup /$S/rm ($(label "$cpu"))" "$(tail -n 1 <<<"$out")"
	assertFalse "[ -e '$cpu/rm' ]"
	cgk_capture "$CG" -x -g "$P/$S/rm"
	assertEquals "gone already" 1 "$rc"
	assertEquals "cgcreate2: cgroup /$S/rm ($(label "$cpu")): remove: No such file or directory" "$err"
	cgk_capture "$CG" -x -q -g "$P/$S/rm"
	assertEquals "-q: gone already is fine" 0 "$rc"
	# no grace, in any unit; a time over a day is a usage error
	for g in 0 0ms 0.0s 00min; do
		cgk_capture "$CG" -x -q --grace="$g" -g "$P/$S/rm"
		assertEquals "--grace=$g: $err" 0 "$rc"
	done
	cgk_capture "$CG" -x -q --grace=1441min -g "$P/$S/rm"
	assertEquals "--grace=1441min" 64 "$rc"
	assertContains "$err" "--grace takes seconds or a time with us, ms, s or min"
}

# a populated cgroup: refused without -k; with -k its processes (ours) are stopped first
remove_populated() {
	local hier=$1 prefix=$2 base pid
	base=$(cgk_sandbox "$hier")
	"$CG" -p -g "$prefix/$S/busy/inner"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$base/busy/inner/cgroup.procs"
	cgk_capture "$CG" -x -R -g "$prefix/$S/busy"
	assertEquals 1 "$rc"
	assertContains "$err" "rmdir: the cgroup has processes (use -k to stop them)"
	assertTrue "still running" "kill -0 $pid"
	cgk_capture "$CG" -x -R -k --grace=2 -g "$prefix/$S/busy"
	assertEquals "$err" 0 "$rc"
	assertFalse "[ -e '$base/busy' ]"
	wait "$pid" 2>/dev/null
	assertEquals "SIGTERM ended it" 143 "$?"
}

test_remove_kill_v1() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	remove_populated pids pids:
}

test_remove_kill_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	# bare paths mean the unified hierarchy when there is one
	remove_populated unified ""
}

test_remove_kill_escalates() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local base pid
	base=$(cgk_sandbox pids)
	"$CG" -p -g "pids:/$S/stubborn"
	local ready=$_cgk_tmp/stubborn.ready
	bash -c 'trap "" TERM; touch "$1"; while :; do sleep 0.1; done' _ "$ready" &
	pid=$!
	echo "$pid" >"$base/stubborn/cgroup.procs"
	# SIGTERM before the trap is set would end it at once: a slow VM shows that race
	cgk_wait_for test -e "$ready" || fail "the stubborn process never got ready"
	cgk_capture "$CG" -x --kill=TERM --grace=0.3 -g "pids:/$S/stubborn"
	assertEquals "$err" 0 "$rc"
	wait "$pid" 2>/dev/null
	assertEquals "SIGKILL after the grace" 137 "$?"
	assertFalse "[ -e '$base/stubborn' ]"
}

# --- settings are all-or-nothing; overlapping calls never undo each other ---------------------

# A process that blocks signal $2 and counts each one it gets into $1 (a real-time signal is
# queued, one a kill: two kills are two, where two SIGTERMs in a row may merge into one); it
# ends once a second has passed without one. Touches $1.ready when it waits: its pid in $counter.
start_counter() {
	python3 -c '
import signal, sys
out, sig, n = sys.argv[1], int(sys.argv[2]), 0
signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
open(out + ".ready", "w").close()
signal.sigwaitinfo([sig])
n = 1
open(out, "w").write("1")
while signal.sigtimedwait([sig], 1):
    n += 1
    open(out, "w").write(str(n))
' "$1" "$2" &
	counter=$!
	cgk_wait_for test -e "$1.ready" || fail "the counter never got ready"
}

# The same process in the cgroups of one path in two v1 hierarchies (cpu, pids): -x -k signals
# it once, not once a hierarchy. RTMIN+6 (queued) counts every kill; TERM is what -k sends.
test_remove_kill_signals_once_across_hierarchies() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 cpu || return 0
	cgk_need_prog python3 "a process that counts its signals" || return 0
	local c p sig n=$_cgk_tmp/count counter rt=$(($(kill -l RTMIN) + 6))
	c=$(cgk_sandbox cpu)
	p=$(cgk_sandbox pids)
	for sig in "$rt" 15; do
		rm -f "$n" "$n.ready"
		"$CG" -p -g "cpu,pids:/$S/twice" || { fail "create"; return; }
		start_counter "$n" "$sig"
		echo "$counter" >"$c/twice/cgroup.procs" && echo "$counter" >"$p/twice/cgroup.procs" ||
			{ fail "move"; kill -9 "$counter"; return; }
		# the counter ends a second after the last signal: the grace only guards a hang
		cgk_capture timeout 120 "$CG" -x -k --kill="$sig" --grace=100 -g "cpu,pids:/$S/twice"
		assertEquals "signal $sig: $err" 0 "$rc"
		wait "$counter"
		assertEquals "signal $sig: received once" 1 "$(cat "$n" 2>/dev/null)"
		assertFalse "signal $sig: removed" "[ -e '$c/twice' ] || [ -e '$p/twice' ]"
	done
}

# A process of ours that ignores SIGTERM (one process: sleep inherits the ignored signal), in
# pids:/$S/$1: its pid in $stubborn.
start_stubborn() {
	local base ready=$_cgk_tmp/stubborn.$1
	base=$(cgk_sandbox pids)
	"$CG" -p -g "pids:/$S/$1" || fail "create"
	bash -c 'trap "" TERM; touch "$1"; exec sleep 900' _ "$ready" &
	stubborn=$!
	echo "$stubborn" >"$base/$1/cgroup.procs" || fail "move"
	cgk_wait_for test -e "$ready" || fail "the stubborn process never got ready"
}

# -v into a pipe: the step line is there while the grace runs (cgcreate2 still running, its
# pid checked), not all at the end. The test ends the grace by killing its process itself.
test_remove_verbose_lines_as_they_happen() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local stubborn cg line fifo=$_cgk_tmp/vpipe
	start_stubborn vpipe
	mkfifo "$fifo"
	"$CG" -x -k -v --grace=600 -g "pids:/$S/vpipe" >"$fifo" 2>"$_cgk_tmp/vpipe.err" &
	cg=$!
	exec 3<"$fifo"
	# a timeout only against a hang: the old code wrote the line at its end, after the grace
	read -r -t 60 line <&3
	assertEquals "the signal line" "sent SIGTERM to 1 process in cgroup /$S/vpipe (pids)" "$line"
	assertTrue "cgcreate2 still waits out the grace" "kill -0 $cg"
	kill -9 "$stubborn"
	wait "$stubborn" 2>/dev/null
	read -r -t 60 line <&3
	assertEquals "then the removal" "removed cgroup /$S/vpipe (pids)" "$line"
	exec 3<&-
	wait "$cg"
	assertEquals "exit ($(cat "$_cgk_tmp/vpipe.err"))" 0 "$?"
}

# On a terminal (script's pty) the grace says what it waits for, a line a second.
test_remove_grace_says_what_is_left() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_need_prog script "a terminal" || return 0
	local stubborn cg log=$_cgk_tmp/tty.log
	start_stubborn ttyw
	script -qfec "'$CG' -x -k --grace=600 -g 'pids:/$S/ttyw'" "$log" </dev/null >/dev/null 2>&1 &
	cg=$!
	CGK_WAIT_TICKS=1200 cgk_wait_for grep -qF "cgcreate2: 1 process left in cgroup /$S/ttyw (pids), killed in " "$log" ||
		fail "no line about what is left: $(od -c "$log" | head -n 5)"
	kill -9 "$stubborn"
	wait "$stubborn" 2>/dev/null
	wait "$cg"
	assertEquals "exit: $(od -c "$log" | tail -n 5)" 0 "$?"
	assertFalse "removed" "[ -e '$(cgk_mnt pids)/$S/ttyw' ]"
}

test_set_validated_before_any_write() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 cpu || return 0
	local p c
	p=$(cgk_sandbox pids) c=$(cgk_sandbox cpu)
	"$CG" -p -g "cpu,pids:/$S/atom"
	# a file that does not exist: refused before pids.max is written
	cgk_capture "$CG" -p -g "pids:/$S/atom" -r pids.max=5 -r pids.bogus=1
	assertEquals 1 "$rc"
	assertContains "$err" "write pids.bogus \"1\": No such file or directory"
	assertEquals "pids.max untouched" max "$(cat "$p/atom/pids.max")"
	# a value the kernel refuses after another file was written: that write is undone
	cgk_capture "$CG" -p -g "cpu,pids:/$S/atom" -r pids.max=5 -r cpu.cfs_quota_us=abc
	assertEquals 1 "$rc"
	assertContains "$err" "write cpu.cfs_quota_us \"abc\": Invalid argument"
	assertEquals "pids.max put back" max "$(cat "$p/atom/pids.max")"
	assertTrue "existing cgroup kept" "[ -d '$p/atom' ] && [ -d '$c/atom' ]"
	# an empty value is no number of tasks: never exit 0 having written nothing
	cgk_capture "$CG" -p -g "pids:/$S/atom" -r pids.max=
	assertEquals 1 "$rc"
	assertContains "$err" "pids.max takes a number of tasks or max, not ''"
	# a file outside the vocabulary: the empty value reaches the kernel, which says no
	cgk_capture "$CG" -p -g "pids:/$S/atom" -r pids.bogus=
	assertEquals 1 "$rc"
}

test_set_refuses_control_files() {
	cgk_need_root || return 0
	local base P f
	pick_hier
	for f in cgroup.freeze cgroup.kill cgroup.type cgroup.subtree_control; do
		cgk_capture "$CG" -p -g "$P/$S/ctl" -r "$f=1"
		assertEquals "$f" 1 "$rc"
		assertContains "$f: $err" "$err" "cgcreate2: $f: -r: "
		assertEquals "$f: one line" 1 "$(wc -l <<<"$err")"
		assertFalse "$f: nothing made" "[ -e '$base/ctl' ]"
	done
	assertContains "$err" "controllers are enabled with cgcreate2 -e"
}

# Two calls on one path at once: the one that fails may only undo what it made itself.
test_overlapping_creations() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local p i bad=0 ok n=200
	# the race is cgkit's, not the kernel's: the host runs 200 rounds, a TCG guest 50
	[ -z "${CGKIT_VM:-}" ] || n=50
	p=$(cgk_sandbox pids)
	for i in $(seq 1 $n); do
		"$CG" -p -g "pids:/$S/race$i/x" -r pids.max=abc 2>/dev/null &
		"$CG" -p -g "pids:/$S/race$i/x" && ok=1 || ok=0
		wait
		[ $ok -eq 1 ] && [ ! -d "$p/race$i/x" ] && bad=$((bad + 1))
	done
	assertEquals "cgroups reported made and then removed by the other call" 0 "$bad"
}

test_cpuset_seeded_under_races_and_repaired() {
	cgk_need_root || return 0
	cgk_need_v1 cpuset || return 0
	cgk_need_v1 pids || return 0
	local cs i empty=0 n=60
	[ -z "${CGKIT_VM:-}" ] || n=20 # as above: the host runs the 60 rounds
	cs=$(cgk_sandbox cpuset)
	for i in $(seq 1 $n); do
		"$CG" -p -g "pids,cpuset:/$S/cs$i/a" &
		"$CG" -p -g "pids,cpuset:/$S/cs$i/b"
		wait
	done
	for f in "$cs"/cs*/cpuset.cpus "$cs"/cs*/*/cpuset.cpus; do
		[ -n "$(cat "$f")" ] || empty=$((empty + 1))
	done
	assertEquals "cpusets left without CPUs" 0 "$empty"
	# one made by hand (or by a call that died) is seeded by the next -p
	mkdir "$cs/byhand"
	assertEquals "" "$(cat "$cs/byhand/cpuset.cpus")"
	cgk_capture "$CG" -p -g "cpuset:/$S/byhand/child"
	assertEquals "$err" 0 "$rc"
	assertEquals "$(cat "$cs/cpuset.cpus")" "$(cat "$cs/byhand/cpuset.cpus")"
	assertEquals "$(cat "$cs/cpuset.cpus")" "$(cat "$cs/byhand/child/cpuset.cpus")"
}

test_remove_names_with_control_characters() {
	cgk_need_root || return 0
	local base P odd
	pick_hier
	odd=$(printf 'ctl\033[7mX\tY')
	"$CG" -p -g "$P/$S/odd"
	mkdir "$base/odd/$odd" "$base/odd/$odd/in"
	cgk_capture "$CG" -x -R -g "$P/$S/odd"
	assertEquals "$err" 0 "$rc"
	assertFalse "[ -e '$base/odd' ]"
}

# --- removal is refused before anything is signalled or removed ------------------------------

# Run "$2" (a shell command) in a private mount and cgroup namespace whose root is the
# sandbox cgroup "root" of the unified and v1 pids hierarchies that exist (each remounted
# there), so that "/" and "-g pids:/" name that cgroup: what a bug does to "the root" there
# reaches only our own processes. Prints the command's output; exits with its status.
in_sandbox_root() {
	local cmd=$1 u p
	u=$(cgk_mnt unified) p=$(cgk_mnt pids)
	[ "$p" = "$u" ] && p=
	bash -c '
		for m in "$1" "$2"; do
			[ -n "$m" ] && { echo $$ >"$m/'"$SANDBOX_NAME"'/root/cgroup.procs" || exit 99; }
		done
		exec unshare -Cm sh -c "
			mount --make-rprivate / || exit 98
			if [ -n \"$1\" ]; then umount -l \"$1\" && mount -t cgroup2 none \"$1\" || exit 98; fi
			if [ -n \"$2\" ]; then umount -l \"$2\" && mount -t cgroup -o pids none \"$2\" || exit 98; fi
			$3"' _ "$u" "$p" "$cmd"
}

test_remove_root_never_signalled() {
	cgk_need_root || return 0
	cgk_need_prog unshare "cgroup namespaces" || return 0
	unshare -C true 2>/dev/null || { cgk_skip "cannot make a cgroup namespace here (unshare -C fails)"; return 0; }
	local u= p= pid out script= n=0
	[ -n "$(cgk_mnt unified)" ] && u=$(cgk_sandbox unified)
	[ -n "$(cgk_mnt pids)" ] && [ "$(cgk_mnt pids)" != "$(cgk_mnt unified)" ] && p=$(cgk_sandbox pids)
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	for m in $u $p; do
		mkdir "$m/root" "$m/root/empty1" "$m/root/empty2"
		echo "$pid" >"$m/root/cgroup.procs"
	done
	if [ -n "$u" ]; then
		script+="'$CG' -x -k --grace=0 /; echo rc=\$?;"
		script+="'$CG' -x -R /; echo rc=\$?;"
		n=$((n + 2))
	fi
	if [ -n "$p" ]; then
		script+="'$CG' -x -R -k --grace=0 -g pids:/; echo rc=\$?;"
		script+="'$CG' -x -R -k -g pids:.; echo rc=\$?;"
		# refused as a whole: the empty cgroup named beside the root is not removed first
		script+="'$CG' -x -R -v -g pids:/empty1 -g pids:/; echo rc=\$?;"
		n=$((n + 3))
	fi
	out=$(in_sandbox_root "$script" 2>&1)
	assertEquals "$out" $n "$(grep -c '^rc=64$' <<<"$out")"
	[ -n "$u" ] && assertContains "$out" "cgcreate2: cgroup / (unified): remove: the hierarchy root cannot be removed, and what runs in it is never signalled"
	[ -n "$p" ] && assertContains "$out" "cgcreate2: cgroup / (pids): remove: the hierarchy root cannot be removed"
	assertTrue "nothing in the root was signalled" "kill -0 $pid"
	for m in $u $p; do
		assertTrue "$m: children kept" "[ -d '$m/root/empty1' ] && [ -d '$m/root/empty2' ]"
	done
	assertNotContains "-v said nothing was removed" "$out" "removed cgroup"
	kill "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

test_remove_own_cgroup_refused() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local p pid
	p=$(cgk_sandbox pids)
	"$CG" -p -g "pids:/$S/mine/inner"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$p/mine/inner/cgroup.procs"
	# cgcreate2 runs inside /mine/inner: stopping /mine would stop it (and its caller) half-way
	cgk_capture bash -c 'echo $$ >"$1/mine/inner/cgroup.procs" && exec "$2" -x -R -k --grace=0 -g "pids:/$3/mine"' \
		_ "$p" "$CG" "$S"
	assertEquals "$err" 64 "$rc"
	assertEquals "cgcreate2: cgroup /$S/mine (pids): remove: the subtree holds cgcreate2 itself (it runs in /$S/mine/inner)" "$err"
	assertTrue "nothing signalled" "kill -0 $pid"
	assertTrue "nothing removed" "[ -d '$p/mine/inner' ]"
	kill "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

test_remove_populated_refused_whole() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local p pid
	p=$(cgk_sandbox pids)
	"$CG" -p -g "pids:/$S/pop/a" -g "pids:/$S/pop/b/c" -g "pids:/$S/pop/d"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$p/pop/b/c/cgroup.procs"
	cgk_capture "$CG" -x -R -v -g "pids:/$S/pop"
	assertEquals 1 "$rc"
	assertEquals "the populated one is named" \
		"cgcreate2: cgroup /$S/pop/b/c (pids): rmdir: the cgroup has processes (use -k to stop them)" "$err"
	assertEquals "nothing removed, nothing said" "" "$out"
	assertTrue "empty siblings kept" "[ -d '$p/pop/a' ] && [ -d '$p/pop/d' ]"
	kill "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

test_remove_kill_verbose() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local p a b
	p=$(cgk_sandbox pids)
	"$CG" -p -g "pids:/$S/vk/x"
	sleep 300 &
	a=$!
	cgk_execd "$a" sleep
	sleep 300 &
	b=$!
	cgk_execd "$b" sleep
	echo "$a" >"$p/vk/cgroup.procs"
	echo "$b" >"$p/vk/x/cgroup.procs"
	# until both run sleep: a SIGTERM before the exec is the forked shell's to handle (the
	# suite traps TERM), and one such child outlived the 5 s grace in CI's dry run
	cgk_wait_for sh -c 'grep -qx sleep "$1" && grep -qx sleep "$2"' _ "/proc/$a/comm" "/proc/$b/comm" ||
		fail "the sleeps never ran"
	cgk_capture "$CG" -x -R -k -v -g "pids:/$S/vk"
	assertEquals "$err" 0 "$rc"
	assertEquals "sent SIGTERM to 2 processes in cgroup /$S/vk (pids)
removed cgroup /$S/vk/x (pids)
removed cgroup /$S/vk (pids)" "$out"
	wait "$a" "$b" 2>/dev/null
	return 0
}

test_remove_kill_threaded() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u pid
	u=$(cgk_sandbox unified)
	"$CG" -p "/$S/dom/thr"
	echo threaded >"$u/dom/thr/cgroup.type"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$u/dom/thr/cgroup.procs" || { fail "cannot place a process in a threaded cgroup"; return; }
	# a threaded cgroup lists no processes and refuses cgroup.kill: its threads say who to stop
	cgk_capture "$CG" -x -k --grace=5 "/$S/dom/thr"
	assertEquals "$err" 0 "$rc"
	wait "$pid" 2>/dev/null
	assertEquals "SIGTERM, through cgroup.threads" 143 "$?"
	assertFalse "[ -e '$u/dom/thr' ]"
}

# A fork storm with room to grow outruns SIGKILL rounds; frozen first it ends in one round.
test_remove_kill_v1_storm_frozen() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 freezer || return 0
	local p f pid max=40
	# the VM is ours to load, the host is spared (300: the storm of the defect report;
	# 1,000 ran the 512 MiB guest out of memory)
	[ -n "${CGKIT_VM:-}" ] && max=300
	p=$(cgk_sandbox pids) f=$(cgk_sandbox freezer)
	"$CG" -p -g "pids,freezer:/$S/storm"
	echo $max >"$p/storm/pids.max"
	bash -c 'echo $$ >"$1/storm/cgroup.procs" && echo $$ >"$2/storm/cgroup.procs" &&
		exec "$3" 30' _ "$p" "$f" "$HELPERS/forkbomb" &
	pid=$!
	cgk_wait_for sh -c '[ "$(cat "$1")" -ge "$2" ]' _ "$p/storm/pids.current" $((max * 3 / 4)) ||
		fail "the storm did not grow"
	cgk_capture timeout 60 "$CG" -x --kill=KILL --grace=0 -g "pids:/$S/storm"
	assertEquals "$err" 0 "$rc"
	assertFalse "[ -e '$p/storm' ]"
	assertEquals "thawed" THAWED "$(cat "$f/storm/freezer.state")"
	wait "$pid" 2>/dev/null
	return 0
}

# --timeout bounds the kill after the grace: the wait for the killed to exit after cgroup.kill
# (v2), the freeze and SIGKILL rounds (v1). A process frozen in another freezer cgroup
# (freezer:/S/hold, not the victim's own path that the v1 kill freezes and thaws) takes SIGKILL
# but cannot die until it is thawed: 1s gives up after about a second, naming what is left;
# with no --timeout the wait stays 5 s; 8s outlasts a thaw at 6 s (past the old fixed 5 s),
# and the cgroup is removed. $1: the hierarchy (unified or pids), $2: its spec prefix, $3: the
# label, $4: "default" to check the default wait too.
kill_timeout_case() {
	local hier=$1 prefix=$2 label=$3 base f pid t0 secs
	base=$(cgk_sandbox "$hier") f=$(cgk_sandbox freezer)
	mkdir -p "$base/victim" "$f/hold"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$base/victim/cgroup.procs" && echo "$pid" >"$f/hold/cgroup.procs" &&
		echo FROZEN >"$f/hold/freezer.state" || { fail "cannot hold a frozen process"; return; }
	cgk_wait_for grep -qx FROZEN "$f/hold/freezer.state" || { fail "did not freeze"; return; }
	t0=$EPOCHREALTIME # clock: lower bounds (it waited), which load only lengthens
	cgk_capture "$CG" -x --kill=KILL --grace=0 --timeout=1s -g "$prefix/$S/victim"
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') # clock: lower bound
	assertEquals "1s: exit" 1 "$rc"
	if [ "$hier" = unified ]; then
		assertEquals "1s: the one line" "cgcreate2: cgroup /$S/victim ($label): kill: 1 left after cgroup.kill and 1.0 s" "$err"
	else
		assertEquals "1s: one line" 1 "$(echo "$err" | wc -l)"
		assertContains "1s: the line" "$err" "cgcreate2: cgroup /$S/victim ($label): kill: 1 process left after 1.0 s of SIGKILL rounds"
		# the process is killed but held frozen elsewhere: the line must not blame a fork storm
		assertNotContains "1s: not a storm" "$err" "forks faster"
	fi
	assertTrue "1s: it waited ($secs s)" "awk -v s=$secs 'BEGIN { exit !(s >= 0.9) }'"
	# and no longer: bench/timing.sh's row remove_timeout (a time, which load stretches)
	assertTrue "1s: the cgroup is left" "[ -d '$base/victim' ]"
	if [ "${4:-}" = default ]; then
		t0=$EPOCHREALTIME # clock: lower bound
		cgk_capture "$CG" -x --kill=KILL --grace=0 -g "$prefix/$S/victim"
		secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') # clock: lower bound
		assertEquals "default: exit" 1 "$rc"
		assertContains "default: 5 s" "$err" " 5.0 s"
		assertTrue "default: 5 s ($secs s)" "awk -v s=$secs 'BEGIN { exit !(s >= 4.9) }'"
	fi
	(sleep 6 && echo THAWED >"$f/hold/freezer.state") &
	local thaw=$!
	t0=$EPOCHREALTIME # clock: lower bound
	cgk_capture "$CG" -x --kill=KILL --grace=0 --timeout=8s -g "$prefix/$S/victim"
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') # clock: lower bound
	wait "$thaw"
	assertEquals "8s: exit ($err)" 0 "$rc"
	assertTrue "8s: waited for the thaw at 6 s ($secs s)" "awk -v s=$secs 'BEGIN { exit !(s >= 5.9) }'"
	assertFalse "8s: removed" "[ -e '$base/victim' ]"
	wait "$pid" 2>/dev/null
	assertEquals "8s: SIGKILL ended it" 137 "$?"
}

test_remove_kill_timeout_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_v1 freezer || return 0
	kill_timeout_case unified "" unified default
}

test_remove_kill_timeout_v1() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_need_v1 freezer || return 0
	kill_timeout_case pids pids: pids
}

test_remove_timeout_usage() {
	cgk_capture "$CG" -x --timeout=1s -g "/$S/x"
	assertEquals "without -k" 64 "$rc"
	assertContains "$err" "cgcreate2: --timeout goes with -k"
	cgk_capture "$CG" -x -k --timeout=0 -g "/$S/x"
	assertEquals "zero" 64 "$rc"
	assertContains "$err" "cgcreate2: --timeout: '0' is not a duration above zero"
}

# --- unified ---------------------------------------------------------------------------------

test_unified_create_and_threaded() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_sandbox unified)
	cgk_capture "$CG" -p "/$S/dom/thr" -T
	assertEquals "$err" 0 "$rc"
	assertEquals threaded "$(cat "$u/dom/thr/cgroup.type")"
	assertEquals "the parent became the threaded domain" "domain threaded" "$(cat "$u/dom/cgroup.type")"
	cgk_capture "$CG" -p "/$S/dom/thr/t2" -T
	assertEquals "$err" 0 "$rc"
	assertEquals threaded "$(cat "$u/dom/thr/t2/cgroup.type")"
}

test_threaded_needs_unified() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	cgk_capture "$CG" -T -g "cpu:/$S/t"
	assertEquals 1 "$rc"
	assertContains "$err" "--threaded: needs a cgroup in the unified (v2) hierarchy"
}

test_enable_unavailable_controller() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u c
	u=$(cgk_sandbox unified)
	# a controller the unified hierarchy does not offer here (bound to v1 on hybrid)
	for c in memory cpu pids io; do grep -qw $c "$u/../cgroup.controllers" || break; done
	if grep -qw "$c" "$(cgk_mnt unified)/cgroup.controllers"; then
		cgk_skip "every controller is offered by the unified hierarchy here"; return
	fi
	cgk_capture "$CG" -p -e "$c" "/$S/en/x"
	assertEquals 1 "$rc"
	assertContains "$err" "enable: controller '$c' is not available in the unified hierarchy"
	assertFalse "rolled back" "[ -e '$u/en' ]"
}

# needs v2 controllers enabled at the root: the unified VM
test_v2_enable_top_down_and_set() {
	cgk_need_root || return 0
	cgk_need_v2 cpu memory pids || return 0
	local u
	u=$(cgk_sandbox unified)
	cgk_capture "$CG" -p -e pids -r cpu.weight=300 -r memory.max=64M "/$S/v2/a/b"
	assertEquals "$err" 0 "$rc"
	assertEquals 300 "$(cat "$u/v2/a/b/cpu.weight")"
	assertEquals 67108864 "$(cat "$u/v2/a/b/memory.max")"
	assertTrue "pids enabled in the sandbox" "grep -qw pids '$u/cgroup.subtree_control'"
	assertTrue "cpu enabled on the way" "grep -qw cpu '$u/v2/a/cgroup.subtree_control'"
	assertTrue "pids.max exists" "[ -f '$u/v2/a/b/pids.max' ]"
	cgk_capture "$CG" -p -r cpu.shares=100 "/$S/v2/a/b"
	assertEquals 1 "$rc"
	assertContains "$err" "cpu.shares is a cgroup v1 file; on v2 use cpu.weight"
	cgk_capture "$CG" -p -r "cpu.max=20000 100000" -r cpu.weight.nice=5 "/$S/v2/a/b"
	assertEquals "$err" 0 "$rc"
	assertEquals "20000 100000" "$(cat "$u/v2/a/b/cpu.max")"
	assertEquals 5 "$(cat "$u/v2/a/b/cpu.weight.nice")"
}

test_v2_no_internal_process() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	local u pid
	u=$(cgk_sandbox unified)
	"$CG" -p "/$S/nip/p"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$u/nip/p/cgroup.procs"
	# memory is a domain controller; threaded ones (pids, cpu) may sit beside processes
	cgk_capture "$CG" -p -e memory "/$S/nip/p/child"
	assertEquals 1 "$rc"
	assertContains "$err" "cgroup /$S/nip/p (unified): enable +memory in cgroup.subtree_control: Device or resource busy (no-internal-process rule"
	assertFalse "child rolled back" "[ -e '$u/nip/p/child' ]"
	assertFalse "memory disabled again in the sandbox" "grep -qw memory '$u/nip/cgroup.subtree_control'"
	kill "$pid"
	wait "$pid" 2>/dev/null || :
}

test_v2_threaded_refuses_domain_controller() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	local u
	u=$(cgk_sandbox unified)
	"$CG" -p -T "/$S/tdom/t"
	cgk_capture "$CG" -p -e memory "/$S/tdom/t/x"
	assertEquals 1 "$rc"
	assertContains "$err" "threaded rule"
	assertFalse "[ -e '$u/tdom/t/x' ]"
}

# --- ownership and delegation --------------------------------------------------------------

test_ownership_and_modes() {
	cgk_need_root || return 0
	local hier spec base
	if [ -n "$(cgk_mnt unified)" ]; then hier=unified spec="/$S/own"
	else hier=pids spec="pids:/$S/own"; fi
	base=$(cgk_sandbox $hier)
	cgk_capture "$CG" -a 65534:65534 -t 1000:1000 -d 0750 -f 0640 -s 0660 -g "$spec"
	assertEquals "$err" 0 "$rc"
	assertEquals "65534:65534 750" "$(stat -c '%u:%g %a' "$base/own")"
	assertEquals "1000:1000 660" "$(stat -c '%u:%g %a' "$base/own/cgroup.procs")"
	if [ $hier = unified ]; then
		assertEquals "1000:1000 660" "$(stat -c '%u:%g %a' "$base/own/cgroup.threads")"
		assertEquals "65534:65534 640" "$(stat -c '%u:%g %a' "$base/own/cgroup.subtree_control")"
	else
		assertEquals "1000:1000 660" "$(stat -c '%u:%g %a' "$base/own/tasks")"
	fi
}

test_delegate_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_sandbox unified)
	cgk_capture "$CG" -D 65534:65534 "/$S/deleg"
	assertEquals "$err" 0 "$rc"
	for f in "" /cgroup.procs /cgroup.threads /cgroup.subtree_control; do
		assertEquals "owner of deleg$f" 65534 "$(stat -c %u "$u/deleg$f")"
	done
	assertEquals "not delegated" 0 "$(stat -c %u "$u/deleg/cgroup.type")"
	# the delegatee can now make its own sub-cgroups, and nothing outside
	cgk_capture "$HELPERS/runas" 65534 65534 "$CG" "/$S/deleg/mine"
	assertEquals "$err" 0 "$rc"
	assertTrue "[ -d '$u/deleg/mine' ]"
	cgk_capture "$HELPERS/runas" 65534 65534 "$CG" "/$S/notmine"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup /$S/notmine (unified): mkdir: Permission denied (delegation rule: the parent cgroup directory must be owned by the caller (see cgcreate2 -D))" "$err"
}

test_mount_when_mounted_changes_nothing() {
	cgk_need_root || return 0
	local before
	before=$(grep -c cgroup /proc/self/mountinfo)
	cgk_capture "$CG" -M
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "cgroup filesystems already mounted ($(cgk_layout) layout), nothing changed:"
	assertEquals "$before" "$(grep -c cgroup /proc/self/mountinfo)"
	cgk_capture "$CG" -M -q
	assertEquals "" "$out"
}

# issue 44: shares as systemd takes them (MemoryMax=50%, CPUQuota=150%), made absolute before
# the v1 translation: the files hold the bytes and the quota. Old code: "memory.max takes a
# size in bytes ... not '50%'", exit 1.
test_relative_values() {
	cgk_need_root || return 0
	local c m quota period want page
	if [ -n "$(cgk_mnt cpu)" ] && [ "$(cgk_mnt cpu)" != "$(cgk_mnt unified)" ]; then
		c=$(cgk_sandbox cpu)
		cgk_capture "$CG" -p -g "cpu:/$S/rel" -r cpu.max=150%
		assertEquals "cpu.max=150%: exit ($err)" 0 "$rc"
		assertEquals "one and a half CPUs" "150000 100000" \
			"$(cat "$c/rel/cpu.cfs_quota_us") $(cat "$c/rel/cpu.cfs_period_us")"
		cgk_capture "$CG" -p -g "cpu:/$S/rel" -r "cpu.max=50% 50000"
		assertEquals "with a period: exit ($err)" 0 "$rc"
		assertEquals "half of a 50 ms period" "25000 50000" \
			"$(cat "$c/rel/cpu.cfs_quota_us") $(cat "$c/rel/cpu.cfs_period_us")"
		cgk_capture "$CG" -p -g "cpu:/$S/rel" -r cpu.cfs_quota_us=50%
		assertEquals "v1 quota alone: exit" 1 "$rc"
		assertContains "v1 quota alone: the way" "$err" "give cpu.max=50% [PERIOD]"
		assertEquals "v1 quota alone: unchanged" 25000 "$(cat "$c/rel/cpu.cfs_quota_us")"
	elif cgk_v2_has cpu; then
		c=$(cgk_sandbox unified)
		echo +cpu >"$c/cgroup.subtree_control" 2>/dev/null
		cgk_capture "$CG" -p "/$S/rel" -r cpu.max=150%
		assertEquals "cpu.max=150%: exit ($err)" 0 "$rc"
		assertEquals "one and a half CPUs" "150000 100000" "$(cat "$c/rel/cpu.max")"
	fi
	# memory: a cgroup made and limited, no process ever moved into it
	page=$(getconf PAGESIZE)
	want=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024 / page * 5000 / 10000 * page))
	if [ -n "$(cgk_mnt memory)" ] && [ "$(cgk_mnt memory)" != "$(cgk_mnt unified)" ]; then
		m=$(cgk_sandbox memory)
		cgk_capture "$CG" -p -g "memory:/$S/rel" -r memory.max=50%
		assertEquals "memory.max=50%: exit ($err)" 0 "$rc"
		assertEquals "half of MemTotal" "$want" "$(cat "$m/rel/memory.limit_in_bytes")"
		cgk_capture "$CG" -p -g "memory:/$S/rel" -r memory.limit_in_bytes=25%
		assertEquals "v1 name: exit ($err)" 0 "$rc"
		assertEquals "a quarter" "$((want / 2 / page * page))" "$(cat "$m/rel/memory.limit_in_bytes")"
		cgk_capture "$CG" -p -g "memory:/$S/rel" -r memory.max=150%
		assertEquals "more than the machine: exit" 1 "$rc"
		assertContains "more than the machine: said" "$err" "from 0% to 100%"
	elif cgk_v2_has memory; then
		m=$(cgk_sandbox unified)
		echo +memory >"$m/cgroup.subtree_control" 2>/dev/null
		cgk_capture "$CG" -p "/$S/rel" -r memory.max=50%
		assertEquals "memory.max=50%: exit ($err)" 0 "$rc"
		assertEquals "half of MemTotal" "$want" "$(cat "$m/rel/memory.max")"
	fi
	if [ -n "$(cgk_mnt pids)" ]; then
		cgk_capture "$CG" -p -g "pids:/$S/rel" -r pids.max=50%
		assertEquals "pids.max stays absolute: exit" 1 "$rc"
		assertContains "pids.max: why" "$err" "pids.max takes a number of tasks or max"
	fi
}

# The tree daemons/ below the current directory (the tests' own names, no blank in them):
# each file's name, mode and owners, and the shares of daemons/*. Not find -printf: the guests' find is busybox's, which has no -printf (the
# comparison was of two empty listings there).
tree_state() {
	find daemons | LC_ALL=C sort | xargs stat -c '%n %a %u %g'
	cat daemons/*/cpu.shares
}

# issue 44: cgcreate2 --apply reads libcgroup's cgconfig.conf. The file is the structure of
# libcgroup's samples/config/cgconfig.conf (two groups, owners, cpu.shares, a mount block),
# its paths moved into the sandbox and its groups webmaster and ftpmaster made root (this
# machine has neither). Old code: no --apply, exit 64.
test_apply_cgconfig_sample() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	local cpu conf=$_cgk_tmp/cgconfig.conf before
	cpu=$(cgk_sandbox cpu) || { fail "sandbox"; return; }
	cat >"$conf" <<-EOF
		# libcgroup's sample, in the sandbox
		group $S/daemons/www {
			perm {
				task {
					uid = root;
					gid = root;
					fperm = 660;
				}
				admin {
					uid = root;
					gid = root;
					dperm = 755;
				}
			}
			cpu {
				cpu.shares = 1000;
			}
		}

		group $S/daemons/ftp {
			perm {
				task {
					uid = root;
					gid = root;
				}
				admin {
					uid = root;
					gid = root;
				}
			}
			cpu {
				cpu.shares = 500;
			}
		}

		mount {
			cpu = /mnt/cgroups/cpu;
			cpuacct = /mnt/cgroups/cpuacct;
		}
	EOF
	cgk_capture "$CG" --apply "$conf" -n
	assertEquals "dry run: exit ($err)" 0 "$rc"
	assertContains "dry run: the plan" "$out" "create cpu:/$S/daemons/www (kept if it exists)"
	assertContains "dry run: the values" "$out" "set cpu.shares=500"
	assertFalse "dry run: nothing made" "[ -e '$cpu/daemons' ]"
	cgk_capture "$CG" --apply "$conf"
	assertEquals "apply: exit ($err)" 0 "$rc"
	assertEquals "the mount block noted" "cgcreate2: $conf:36: the mount block is ignored: cgkit takes the hierarchies mounted (cgcreate2 --mount mounts them at /sys/fs/cgroup)" "$err"
	assertEquals "www's shares" 1000 "$(cat "$cpu/daemons/www/cpu.shares")"
	assertEquals "ftp's shares" 500 "$(cat "$cpu/daemons/ftp/cpu.shares")"
	assertEquals "www's tasks mode" 660 "$(stat -c %a "$cpu/daemons/www/tasks")"
	assertEquals "www's directory mode" 755 "$(stat -c %a "$cpu/daemons/www")"
	# a second run changes nothing and succeeds
	before=$(cd "$cpu" && tree_state)
	cgk_capture "$CG" --apply "$conf"
	assertEquals "again: exit ($err)" 0 "$rc"
	assertEquals "again: the same tree, modes, owners and values" "$before" \
		"$(cd "$cpu" && tree_state)"
}

# issue 44: Example 5 of libcgroup's cgconfig.conf(5) (doc/man/cgconfig.conf.5 in
# github.com/libcgroup/libcgroup), its groups moved into the sandbox: a group in cpuacct
# alone, two in cpu with quoted values, the mount block noted and skipped; applied twice, the
# second changing nothing. Old code: no --apply, exit 64.
test_apply_man_page_example() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	cgk_need_v1 cpuacct || return 0
	local cpu acct conf=$_cgk_tmp/example5.conf before
	cpu=$(cgk_sandbox cpu) && acct=$(cgk_sandbox cpuacct) || { fail "sandbox"; return; }
	cat >"$conf" <<-EOF
		mount {
			cpu = /mnt/cgroups/cpu;
			cpuacct = /mnt/cgroups/cpuacct;
		}

		group $S/ex5/daemons {
			cpuacct{
			}
		}

		group $S/ex5/daemons/www {
			cpu {
				cpu.shares = "1000";
			}
		}

		group $S/ex5/daemons/ftp {
			cpu {
				cpu.shares = "500";
			}
		}
	EOF
	cgk_capture "$CG" --apply "$conf"
	assertEquals "apply: exit ($err)" 0 "$rc"
	assertEquals "the mount block noted" "cgcreate2: $conf:1: the mount block is ignored: cgkit takes the hierarchies mounted (cgcreate2 --mount mounts them at /sys/fs/cgroup)" "$err"
	assertTrue "daemons in cpuacct" "[ -d '$acct/ex5/daemons' ]"
	assertEquals "www's shares" 1000 "$(cat "$cpu/ex5/daemons/www/cpu.shares")"
	assertEquals "ftp's shares" 500 "$(cat "$cpu/ex5/daemons/ftp/cpu.shares")"
	before=$(cd "$cpu/ex5" && tree_state)
	cgk_capture "$CG" --apply "$conf"
	assertEquals "again: exit ($err)" 0 "$rc"
	assertEquals "again: the same tree and values" "$before" \
		"$(cd "$cpu/ex5" && tree_state)"
}

# A malformed file or a refused group: FILE:LINE, exit 1, and nothing of a refused group left.
test_apply_errors_name_file_and_line() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	local cpu conf=$_cgk_tmp/bad.conf
	cpu=$(cgk_sandbox cpu) || { fail "sandbox"; return; }
	printf 'group %s/x {\n\tcpu {\n\t\tcpu.shares = 10\n\t}\n}\n' "$S" >"$conf"
	cgk_capture "$CG" --apply "$conf"
	assertEquals "syntax: exit" 1 "$rc"
	assertEquals "syntax: the line" "cgcreate2: $conf:4: expected ';', found '}'" "$err"
	printf '\ngroup %s/y {\n\tcpu {\n\t\tcpu.weight.nice = 99;\n\t}\n}\n' "$S" >"$conf"
	cgk_capture "$CG" --apply "$conf"
	assertEquals "refused value: exit" 1 "$rc"
	assertContains "refused value: where" "$err" "cgcreate2: $conf:2: group $S/y: "
	assertFalse "refused value: undone" "[ -e '$cpu/y' ]"
	cgk_capture "$CG" --apply "$_cgk_tmp/none.conf"
	assertEquals "no file: exit" 1 "$rc"
	assertContains "no file: said" "$err" "none.conf: No such file or directory"
	cgk_capture "$CG" --apply "$conf" -g "cpu:/$S/z"
	assertEquals "with -g: a usage error" 64 "$rc"
}

. "$SHUNIT2"
