#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unprivileged use: root delegates a sandbox cgroup to a test uid with cgcreate2 -D, then that
# uid (no passwd entry, no groups; through tests/helpers/runas, as the guests' setpriv is
# busybox's) creates children, runs commands in them, moves its processes between them,
# watches them with cgtop2 (batch and --events) and removes them; outside the delegation each
# tool refuses with one line naming the delegation rule and its documented exit code. Unified
# hierarchy only (v1 delegation is not the kernel's model). On the hybrid host the unified tree
# has no controllers: the steps that need one (limits with cgexec2 -t -r) skip there and run in
# the unified VM: tests/vm/run unified -- tests/run unpriv
. "$(dirname "$0")/lib.sh"

S=$SANDBOX_NAME
D=/$S/d
export RUNAS=$HELPERS/runas
_pids=()

teardown_test() {
	cgk_kill_pids
	return 0
}

# A uid that no account has (so nothing but the test runs as it): the first free one from
# 64000, or $CGKIT_UNPRIV_UID.
free_uid() {
	local u=${CGKIT_UNPRIV_UID:-64000}
	while awk -F: -v u="$u" '$3 == u { f = 1 } END { exit !f }' /etc/passwd 2>/dev/null; do
		u=$((u + 1))
	done
	echo "$u"
}
U=$(free_uid)

# Run as the test uid, first placed (by root) in unified cgroup $1: a delegatee's processes live
# inside its delegation, or it may move none of them (the common-ancestor rule).
AS_USER='echo $$ >"$1/cgroup.procs" || exit 125
	u=$2; shift 2
	exec "$RUNAS" "$u" "$u" "$@"'
as_user_in() {
	local cg=$1
	shift
	sh -c "$AS_USER" _ "$UM$cg" "$U" "$@"
}

# The same, captured: $rc $out $err.
as_user() {
	cgk_capture as_user_in "$@"
}

# A sleeper of the test uid in unified cgroup $1 (sh execs runas execs sleep: $! is the
# sleeper); its PID in $sleeper and _pids. An hour: a test took 378 s at load 27 and its
# 300 s sleeper was gone before the move it was there for.
user_sleeper() {
	sh -c "$AS_USER" _ "$UM$1" "$U" sleep 3600 &
	sleeper=$!
	_pids+=("$sleeper")
	cgk_wait_for test "$(cat "/proc/$sleeper/comm" 2>/dev/null)" = sleep
}

# How many lines $1 has (0 for none).
nlines() {
	[ -n "$1" ] || { echo 0; return; }
	printf '%s\n' "$1" | wc -l
}

# Every test: root delegates $D to the test uid; the uid makes $D/home, where the commands of
# as_user run (so $D itself holds no process and can enable controllers for its children).
setup_test() {
	READY=
	cgk_need_root || return 0
	cgk_need_unified || return 0
	UM=$(cgk_mnt unified)
	"$RUNAS" "$U" "$U" test -x "$CGKIT_BIN/cgcreate2" ||
		{ cgk_skip "uid $U cannot run $CGKIT_BIN/cgcreate2 (a directory on the way is not searchable)"; return 0; }
	"$CGKIT_BIN/cgcreate2" -x -R -k -q "$D" >/dev/null 2>&1
	cgk_capture "$CGKIT_BIN/cgcreate2" -v -p -D "$U:$U" "$D"
	[ "$rc" -eq 0 ] || { fail "root's cgcreate2 -D: rc $rc: $err"; startSkipping; return 0; }
	deleg_out=$out
	cgk_capture "$RUNAS" "$U" "$U" "$CGKIT_BIN/cgcreate2" "$D/home"
	[ "$rc" -eq 0 ] || { fail "the delegatee's first child: rc $rc: $err"; startSkipping; return 0; }
	READY=1
}

# A test whose set-up skipped or failed runs no command: shunit2's skip only mutes the asserts,
# and the tools run for nothing (46 s of the legacy guest's run, where every test skips).
ready() {
	[ -n "$READY" ]
}

# cgcreate2 -D hands over the directory and the files the kernel lists as delegatable, nothing
# else; the user then creates children, which the kernel gives to it whole.
test_delegate_and_create() {
	ready || return 0
	local f
	assertEquals "-D said" "delegated cgroup $D (unified)" "$(printf '%s\n' "$deleg_out" | grep delegated)"
	assertEquals "the directory" "$U" "$(stat -c %u "$UM$D")"
	for f in cgroup.procs cgroup.threads cgroup.subtree_control; do
		assertEquals "$f" "$U" "$(stat -c %u "$UM$D/$f")"
	done
	assertEquals "cgroup.max.descendants stays root's" 0 "$(stat -c %u "$UM$D/cgroup.max.descendants")"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" -v "$D/a" "$D/a/b"
	assertEquals "create: $err" 0 "$rc"
	assertEquals "create said" "created cgroup $D/a (unified)
created cgroup $D/a/b (unified)" "$out"
	assertEquals "owned by the user" "$U" "$(stat -c %u "$UM$D/a/b")"
	assertEquals "its limits too" "$U" "$(stat -c %u "$UM$D/a/b/cgroup.max.descendants")"
}

# cgexec2 moves itself from $D/home into the user's $D/a (common ancestor $D, the user's).
test_cgexec2_in_own_child() {
	ready || return 0
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/a"
	as_user "$D/home" "$CGKIT_BIN/cgexec2" -g "$D/a" cat /proc/self/cgroup
	assertEquals "exec: $err" 0 "$rc"
	assertContains "ran in a" "$out" "0::$D/a"
	# a transient child of the user's cgroup, removed after
	as_user "$D/home" "$CGKIT_BIN/cgexec2" -t -g "$D/a" cat /proc/self/cgroup
	assertEquals "transient: $err" 0 "$rc"
	assertContains "ran in a transient child" "$out" "0::$D/a/cgexec2-"
	assertEquals "transient removed" "" "$(find "$UM$D/a" -mindepth 1 -type d)"
}

# cgmigrate: a pid of the user's between its children, then a drain.
test_cgmigrate_between_own_children() {
	ready || return 0
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/a" "$D/b"
	user_sleeper "$D/home"
	as_user "$D/home" "$CGKIT_BIN/cgmigrate" -g "$D/a" "$sleeper"
	assertEquals "move: $err" 0 "$rc"
	assertEquals "in a" "$D/a" "$(cgk_cgroup_of "$sleeper" unified)"
	as_user "$D/home" "$CGKIT_BIN/cgmigrate" -v -F "$D/a" -g "$D/b"
	assertEquals "drain: $err" 0 "$rc"
	assertEquals "drain said" "into $D/b (unified)
moved 1 process, 0 gone, 0 failed; $D/a (unified) empty after 1 round" "$out"
	assertEquals "in b" "$D/b" "$(cgk_cgroup_of "$sleeper" unified)"
}

# cgtop2 reads what the user may read: its delegation, each child with its tasks.
test_cgtop2_batch() {
	ready || return 0
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/a"
	user_sleeper "$D/a"
	as_user "$D/home" "$CGKIT_BIN/cgtop2" -b -n 2 -d 0.2 -F csv "$D"
	assertEquals "cgtop2: $err" 0 "$rc"
	assertEquals "no error line" "" "$err"
	# the second sample's row of a, by the header's column names
	local tasks
	tasks=$(printf '%s\n' "$out" | awk -F, -v c="$D/a" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["path"] == c { t = $col["tasks"] } END { print t }')
	assertEquals "a has the sleeper: $out" 1 "$tasks"
}

# cgtop2 --events as the user: a child it creates and populates is seen.
test_cgtop2_events() {
	ready || return 0
	local ev i
	as_user_in "$D/home" "$CGKIT_BIN/cgtop2" -v --events=created,populated -n 2 --timeout=20 "$D" \
		>"$_cgk_tmp/ev.out" 2>"$_cgk_tmp/ev.err" &
	_pids+=($!)
	cgk_wait_for grep -qs watching "$_cgk_tmp/ev.err" ||
		{ fail "the watcher did not start: $(cat "$_cgk_tmp/ev.err")"; return; }
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/e"
	user_sleeper "$D/e"
	for i in $(seq 1 100); do
		[ "$(wc -l <"$_cgk_tmp/ev.out")" -ge 2 ] && break
		sleep 0.1
	done
	ev=$(cat "$_cgk_tmp/ev.out")
	assertEquals "created: $ev $(cat "$_cgk_tmp/ev.err")" 1 \
		"$(awk -v c="$D/e" '$2 == c && $3 == "unified" && $4 == "created"' "$_cgk_tmp/ev.out" | wc -l)"
	assertEquals "populated: $ev" 1 \
		"$(awk -v c="$D/e" '$2 == c && $3 == "unified" && $4 == "populated"' "$_cgk_tmp/ev.out" | wc -l)"
}

# PSI triggers as the user, on a cgroup it made (its pressure files are the user's): the
# kernel's rule for a process without CAP_SYS_RESOURCE (6.5 and later: windows a multiple of
# 2 s) said in one line, exit 1; a 2 s window is taken. Its delegation's root, whose files
# root kept, refuses the write.
test_cgtop2_psi_trigger() {
	ready || return 0
	[ -e "$UM$D/home/cpu.pressure" ] || { cgk_skip "no cpu.pressure (CONFIG_PSI off or psi=0)"; return 0; }
	as_user "$D/home" "$CGKIT_BIN/cgtop2" --events=pressure --psi-trigger=cpu:some:100ms:1s --timeout=5 "$D/home"
	assertEquals "a 1 s window: $err" 1 "$rc"
	assertEquals "the rule" "cgtop2: cgroup $D/home (unified): PSI trigger cpu:some on cpu.pressure: without CAP_SYS_RESOURCE the kernel (6.5 and later) takes only windows that are a multiple of 2 s, this one is 1000 ms" "$err"
	as_user "$D/home" "$CGKIT_BIN/cgtop2" -v --events=pressure --psi-trigger=cpu:some:500ms:2s --timeout=1 "$D/home"
	assertEquals "a 2 s window: $err" 0 "$rc"
	assertContains "registered" "$err" "and 1 PSI trigger"
	as_user "$D/home" "$CGKIT_BIN/cgtop2" --events=pressure --psi-trigger=cpu:some:500ms:2s --timeout=1 "$D"
	assertEquals "root's file: $err" 1 "$rc"
	assertContains "the rule" "$err" "cgtop2: cgroup $D (unified): PSI trigger cpu:some on cpu.pressure: a trigger is a write to the file, which this user may not write"
}

# The user removes its own subtree, killing its own process there.
test_remove_own_subtree() {
	ready || return 0
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/a" "$D/a/b"
	user_sleeper "$D/a/b"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" -x -R -k --grace=1 "$D/a"
	assertEquals "remove: $err" 0 "$rc"
	assertFalse "a is gone" "[ -d '$UM$D/a' ]"
	cgk_wait_for sh -c "! kill -0 $sleeper 2>/dev/null || grep -q '^State:.*Z' /proc/$sleeper/status"
	assertTrue "its process was killed" "$?"
}

# Outside the delegation: a move into root's cgroups (the sandbox, the root), exit 1 (cgexec2:
# 125), one line naming the rule; the process stays where it was.
test_refuse_move_outside() {
	ready || return 0
	local rule="Permission denied (delegation rule: the writer must own cgroup.procs of the target and of the common ancestor of source and target (see cgcreate2 -D))"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/a"
	user_sleeper "$D/a"
	as_user "$D/home" "$CGKIT_BIN/cgmigrate" -g "/$S" "$sleeper"
	assertEquals "into the sandbox: exit" 1 "$rc"
	assertEquals "into the sandbox: the line" "cgmigrate: cgroup /$S (unified): open cgroup.procs: $rule" "$err"
	assertEquals "stayed" "$D/a" "$(cgk_cgroup_of "$sleeper" unified)"
	as_user "$D/home" "$CGKIT_BIN/cgmigrate" -F "$D/a" -g /
	assertEquals "drain into the root: exit" 1 "$rc"
	assertEquals "drain into the root: one line: $err" 1 "$(nlines "$err")"
	assertContains "drain into the root: the rule" "$err" "delegation rule"
	assertEquals "still there" "$D/a" "$(cgk_cgroup_of "$sleeper" unified)"
	as_user "$D/home" "$CGKIT_BIN/cgexec2" -g "/$S" true
	assertEquals "cgexec2: exit" 125 "$rc"
	assertEquals "cgexec2: the line" "cgexec2: cgroup /$S (unified): open cgroup.procs: $rule" "$err"
}

# A drain whose moves all fail (the source beside the delegation: the common ancestor is
# root's) reports each failure, exits 1 and never calls the source empty: it said "empty
# after 1 round" with the process still there, as a refused process is not listed again.
test_drain_failed_not_empty() {
	ready || return 0
	local rule="Permission denied (delegation rule: the writer must own cgroup.procs of the target and of the common ancestor of source and target (see cgcreate2 -D))"
	mkdir "$UM/$S/other"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "$D/a"
	user_sleeper "/$S/other"
	as_user "$D/home" "$CGKIT_BIN/cgmigrate" -v -F "/$S/other" -g "$D/a"
	assertEquals "exit" 1 "$rc"
	assertEquals "the failure" "cgmigrate: cgroup $D/a (unified): move process $sleeper: $rule" "$err"
	assertEquals "the summary" "into $D/a (unified)
moved 0 processes, 0 gone, 1 failed; /$S/other (unified) not empty after 1 round" "$out"
	assertEquals "still there" "/$S/other" "$(cgk_cgroup_of "$sleeper" unified)"
}

# Outside the delegation: a cgroup beside it, exit 1, nothing made.
test_refuse_create_outside() {
	ready || return 0
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" "/$S/beside"
	assertEquals "exit" 1 "$rc"
	assertEquals "the line" "cgcreate2: cgroup /$S/beside (unified): mkdir: Permission denied (delegation rule: the parent cgroup directory must be owned by the caller (see cgcreate2 -D))" "$err"
	assertFalse "not made" "[ -e '$UM/$S/beside' ]"
	# and a removal there: root's cgroup beside the delegation
	mkdir "$UM/$S/other"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" -x "/$S/other"
	assertEquals "remove beside: exit" 1 "$rc"
	assertEquals "remove beside: one line: $err" 1 "$(nlines "$err")"
	assertContains "remove beside: the rule" "$err" "delegation rule: the parent cgroup directory must be owned by the caller"
	assertTrue "still there" "[ -d '$UM/$S/other' ]"
}

# A file the user does not own: the delegated cgroup's own limit (root's), exit 1, one line,
# unchanged; the same file of its own child is the user's to write.
test_refuse_write_not_owned() {
	ready || return 0
	local before
	before=$(cat "$UM$D/cgroup.max.descendants")
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" -p -r cgroup.max.descendants=5 "$D"
	assertEquals "exit" 1 "$rc"
	assertEquals "the line" "cgcreate2: cgroup $D (unified): write cgroup.max.descendants \"5\": Permission denied (permission denied by the owner or mode of the cgroup file (delegation rule: a delegated cgroup's own limits stay its delegator's; the delegatee sets those of the cgroups it creates below it))" "$err"
	assertEquals "unchanged" "$before" "$(cat "$UM$D/cgroup.max.descendants")"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" -r cgroup.max.descendants=5 "$D/a"
	assertEquals "own child: $err" 0 "$rc"
	assertEquals "own child set" 5 "$(cat "$UM$D/a/cgroup.max.descendants")"
}

# Limits inside the delegation (needs a v2 controller: the unified VM): cgexec2 -t -r enables
# pids on the way down from $D (the user's subtree_control) and sets its transient child's
# pids.max; the delegated cgroup's own pids.max stays root's.
test_limits_inside() {
	ready || return 0
	cgk_need_v2 pids || return 0
	"$CGKIT_BIN/cgcreate2" -p -e pids "$D" >/dev/null ||
		{ fail "root could not enable pids for $D"; return; }
	as_user "$D/home" "$CGKIT_BIN/cgexec2" -t -g "$D" -r pids.max=7 \
		sh -c 'cat "$1$(sed -n "s/^0:://p" /proc/self/cgroup)/pids.max"' _ "$UM"
	assertEquals "cgexec2 -t -r: $err" 0 "$rc"
	assertEquals "its pids.max" 7 "$out"
	as_user "$D/home" "$CGKIT_BIN/cgcreate2" -p -r pids.max=7 "$D"
	assertEquals "the delegation's own pids.max: exit" 1 "$rc"
	assertContains "the delegation's own pids.max: the rule" "$err" "a delegated cgroup's own limits stay its delegator's"
	assertEquals "one line" 1 "$(nlines "$err")"
	assertEquals "unchanged" max "$(cat "$UM$D/pids.max")"
}

. "$SHUNIT2"
