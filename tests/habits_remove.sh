#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgcreate2 -x --migrate-to-parent (issue 12, libcgroup's cgdelete -r): what runs in the removed
# cgroups (with -R: their subtree) moves into the parent of each cgroup removed, then they go;
# v1 (pids, cpu) and v2 (domain and threaded) on the host; where the parent may hold no process
# (v2 no-internal-process) the whole request is refused, exit 1, nothing moved or removed (the
# unified VM); a root and the caller's own cgroup are refused (64) before anything happens.
# Only processes these tests start are moved, never into the v1 memory hierarchy.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
S=$SANDBOX_NAME
PIDS=()

# Start $1 sleepers; their pids in PIDS (killed by stop_all).
start_sleepers() {
	local i
	for i in $(seq 1 "$1"); do
		sleep 300 &
		cgk_execd $! sleep
		PIDS+=($!)
	done
}

stop_all() {
	[ ${#PIDS[@]} -gt 0 ] || return 0
	kill "${PIDS[@]}" 2>/dev/null
	wait "${PIDS[@]}" 2>/dev/null
	PIDS=()
}

teardown_test() {
	stop_all
}

# The v1 hierarchy $1 with -R: a/ holds one sleeper, a/b another, a/b/c is empty; all go to
# the sandbox (a's parent), -v says so in order, nothing is left.
v1_recursive() {
	local h=$1 m
	cgk_need_root || return 0
	cgk_need_v1 "$h" || return 0
	m=$(cgk_sandbox "$h") || { fail "sandbox in $h"; return 0; }
	mkdir -p "$m/a/b/c"
	start_sleepers 2
	echo "${PIDS[0]}" >"$m/a/cgroup.procs"
	echo "${PIDS[1]}" >"$m/a/b/cgroup.procs"
	cgk_capture "$CG" -x -R --migrate-to-parent -v -g "$h:/$S/a"
	assertEquals "$h: exit ($err)" 0 "$rc"
	assertEquals "$h: -v lists the move, then each removal" "moved 2 processes from cgroup /$S/a ($(label "$h")) and its subtree to its parent /$S
removed cgroup /$S/a/b/c ($(label "$h"))
removed cgroup /$S/a/b ($(label "$h"))
removed cgroup /$S/a ($(label "$h"))" "$out"
	assertTrue "$h: a removed" "[ ! -d $m/a ]"
	assertEquals "$h: first sleeper in the parent" "/$S" "$(cgk_cgroup_of "${PIDS[0]}" "$h")"
	assertEquals "$h: second (from a/b) in the parent too" "/$S" "$(cgk_cgroup_of "${PIDS[1]}" "$h")"
	assertTrue "$h: both alive" "kill -0 ${PIDS[0]} && kill -0 ${PIDS[1]}"
}

# The hierarchy's label as the tools print it: its controllers, as /proc/self/cgroup lists them
label() {
	awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) { print $2; exit } }' /proc/self/cgroup
}

test_v1_pids_recursive() {
	v1_recursive pids
}

test_v1_cpu_recursive() {
	v1_recursive cpu
}

# Without -R, one cgroup: its processes go up one level; children refuse it as before.
test_v1_one_level() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local m
	m=$(cgk_sandbox pids)
	mkdir -p "$m/p/q" "$m/p/r"
	start_sleepers 3
	echo "${PIDS[0]}" >"$m/p/q/cgroup.procs"
	echo "${PIDS[1]}" >"$m/p/q/cgroup.procs"
	echo "${PIDS[2]}" >"$m/p/cgroup.procs"
	cgk_capture "$CG" -x --migrate-to-parent -g "pids:/$S/p"
	assertEquals "children without -R: exit" 1 "$rc"
	assertContains "children without -R: says so" "$err" "the cgroup has child cgroups (use -R)"
	assertEquals "nothing moved" "/$S/p" "$(cgk_cgroup_of "${PIDS[2]}" pids)"
	# two targets: q (populated) and r (empty); q's two go to p, not to the sandbox
	cgk_capture "$CG" -x --migrate-to-parent -v -g "pids:/$S/p/q" -g "pids:/$S/p/r"
	assertEquals "exit ($err)" 0 "$rc"
	assertContains "-v: the move" "$out" "moved 2 processes from cgroup /$S/p/q ($(label pids)) to its parent /$S/p"
	assertNotContains "-v: nothing moved from the empty one" "$out" "from cgroup /$S/p/r"
	assertContains "-v: r removed" "$out" "removed cgroup /$S/p/r"
	assertEquals "into p, one level up" "/$S/p" "$(cgk_cgroup_of "${PIDS[0]}" pids)"
	assertEquals "into p, both" "/$S/p" "$(cgk_cgroup_of "${PIDS[1]}" pids)"
	assertTrue "q and r removed" "[ ! -d $m/p/q ] && [ ! -d $m/p/r ]"
}

# A process that forks all the time is caught: the drain lists and moves until none is left.
test_v1_forker() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local m pid
	m=$(cgk_sandbox pids)
	mkdir -p "$m/f/g"
	sh -c 'echo $$ >"$1/f/g/cgroup.procs"; exec sh -c "while :; do sleep 0.01; done"' _ "$m" &
	pid=$!
	PIDS+=("$pid")
	cgk_wait_for grep -qx "$pid" "$m/f/g/cgroup.procs" || { fail "forker not placed"; return 0; }
	cgk_capture "$CG" -x -R --migrate-to-parent -g "pids:/$S/f"
	assertEquals "exit ($err)" 0 "$rc"
	assertTrue "f removed" "[ ! -d $m/f ]"
	assertEquals "forker in the parent" "/$S" "$(cgk_cgroup_of "$pid" pids)"
}

test_usage() {
	cgk_capture "$CG" --migrate-to-parent /x
	assertEquals "without -x: exit" 64 "$rc"
	assertContains "without -x: says so" "$err" "--migrate-to-parent goes with --remove, and not with -k"
	cgk_capture "$CG" -x -k --migrate-to-parent /x
	assertEquals "with -k: exit" 64 "$rc"
	cgk_capture "$CG" --help
	assertContains "--help" "$out" "--migrate-to-parent"
}

# The man page says it (its source: the VM guests have the tools, not the tree).
test_man_page() {
	local man=$CGKIT_TOP/man/cgcreate2.1.scd
	[ -f "$man" ] || { cgk_skip "no man page source here ($man)"; return 0; }
	assertTrue "option" "grep -q '^\*--migrate-to-parent\*' $man"
	assertTrue "the rule" "grep -q 'no-internal-process rule' $man"
}

# v2 where the parent may hold processes (the host's unified hierarchy enables no controller):
# a domain subtree by processes, a threaded cgroup by threads into its threaded parent.
test_v2_domain_and_threaded() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u tf=$_cgk_tmp/threads pid tid
	u=$(cgk_sandbox unified)
	[ -n "$(cat "$u/cgroup.subtree_control")" ] && { cgk_skip "the unified sandbox enables controllers here"; return 0; }
	mkdir -p "$u/d/e"
	start_sleepers 1
	echo "${PIDS[0]}" >"$u/d/e/cgroup.procs"
	cgk_capture "$CG" -x -R --migrate-to-parent -v "/$S/d"
	assertEquals "domain: exit ($err)" 0 "$rc"
	assertContains "domain: -v" "$out" "moved 1 process from cgroup /$S/d (unified) and its subtree to its parent /$S"
	assertEquals "domain: in the parent" "/$S" "$(cgk_cgroup_of "${PIDS[0]}" unified)"
	assertTrue "domain: removed" "[ ! -d $u/d ]"

	# td is domain threaded, td/t threaded, holding one thread of a two-thread process
	mkdir -p "$u/td/t"
	echo threaded >"$u/td/t/cgroup.type"
	"$HELPERS/mig_threads" "$tf" worker &
	pid=$!
	PIDS+=("$pid")
	cgk_wait_for test -s "$tf" || { fail "mig_threads never started"; return 0; }
	echo "$pid" >"$u/td/cgroup.procs"
	tid=$(awk '$2 == "worker" { print $1 }' "$tf")
	echo "$tid" >"$u/td/t/cgroup.threads"
	assertEquals "threaded: set up" "$tid" "$(cat "$u/td/t/cgroup.threads")"
	cgk_capture "$CG" -x --migrate-to-parent -v "/$S/td/t"
	assertEquals "threaded: exit ($err)" 0 "$rc"
	assertContains "threaded: -v counts threads" "$out" "moved 1 thread from cgroup /$S/td/t (unified) to its parent /$S/td"
	assertTrue "threaded: removed" "[ ! -d $u/td/t ]"
	assertContains "threaded: the thread is in td" "$(cat "$u/td/cgroup.threads")" "$tid"

	# the threaded domain itself, with a threaded child: its process goes whole, by its pid
	mkdir -p "$u/td/t2"
	echo threaded >"$u/td/t2/cgroup.type"
	echo "$tid" >"$u/td/t2/cgroup.threads"
	cgk_capture "$CG" -x -R --migrate-to-parent -v "/$S/td"
	assertEquals "threaded domain: exit ($err)" 0 "$rc"
	assertContains "threaded domain: -v" "$out" "moved 1 process from cgroup /$S/td (unified) and its subtree to its parent /$S"
	assertTrue "threaded domain: removed" "[ ! -d $u/td ]"
	assertEquals "threaded domain: the process in the parent" "/$S" "$(cgk_cgroup_of "$pid" unified)"
	assertContains "threaded domain: its thread too" "$(cat "$u/cgroup.threads")" "$tid"
}

# The parent enables a controller: no process may live there (v2 no-internal-process rule).
# Refused as a whole, exit 1: the empty cgroup named first is not removed, nothing moves.
test_v2_no_internal_process_refused() {
	cgk_need_root || return 0
	cgk_need_v2 pids || return 0
	local u
	u=$(cgk_sandbox unified)
	mkdir -p "$u/np/empty" "$u/np/busy"
	echo +pids >"$u/cgroup.subtree_control"
	echo +pids >"$u/np/cgroup.subtree_control"
	start_sleepers 1
	echo "${PIDS[0]}" >"$u/np/busy/cgroup.procs"
	cgk_capture "$CG" -x --migrate-to-parent -v "/$S/np/empty" "/$S/np/busy"
	assertEquals "exit ($err)" 1 "$rc"
	assertEquals "one line, the cgroup and the rule" "cgcreate2: cgroup /$S/np/busy (unified): move its processes to the parent: no-internal-process rule: the parent /$S/np enables controllers for its children (cgroup.subtree_control: pids), so it may hold no process; nothing was moved or removed (use -k to stop them instead)" "$err"
	assertEquals "-v: nothing done" "" "$out"
	assertTrue "the empty one is still there" "[ -d $u/np/empty ]"
	assertEquals "the process did not move" "/$S/np/busy" "$(cgk_cgroup_of "${PIDS[0]}" unified)"
}

# A root and the caller's own cgroup: 64 before anything is moved or removed. The root is that of
# a fresh named v1 hierarchy mounted in a private mount namespace (nothing the machine has).
test_root_refused() {
	cgk_need_root || return 0
	cgk_need_prog unshare "a mount namespace" || return 0
	unshare -m --propagation private true 2>/dev/null ||
		{ cgk_skip "cannot make a mount namespace here (unshare -m fails)"; return 0; }
	local d=$_cgk_tmp/named res
	mkdir -p "$d"
	start_sleepers 1
	res=$(unshare -m --propagation private bash -c '
		d=$1 cg=$2 pid=$3 n=cgkittest$$
		# a hierarchy of that name still alive (a PID of a run before): mounting would reuse it
		! grep -q ":name=$n:" /proc/self/cgroup || { echo "name-taken $n"; exit 0; }
		mount -t cgroup -o none,name=$n cgkittest "$d" || { echo mount-failed; exit 0; }
		mkdir "$d/child" && echo "$pid" >"$d/child/cgroup.procs"
		"$cg" -x -R --migrate-to-parent -v -g "name=$n:/child" -g "name=$n:/" 2>&1
		echo "rc=$?"
		grep -qx "$pid" "$d/child/cgroup.procs" && echo still-in-child
		[ -d "$d/child" ] && echo child-kept
		echo "$pid" >"$d/cgroup.procs"
		rmdir "$d/child" 2>&1 || echo rmdir-failed
		umount "$d"
		# The kernel destroys a v1 hierarchy at an umount only if its root has no child then
		# (cgroup_kill_sb), and a removed cgroup stays on its parent'"'"'s list of children until
		# its last reference goes (css_release_work_fn, after an RCU grace period, on a
		# workqueue that every cgroup of the machine shares): an umount right after the rmdir
		# can keep the hierarchy alive, nameless and unmounted, until the machine reboots. No
		# v1 file shows that the child is released, so mount it again (the kernel reuses the
		# live root) and umount it, until /proc/self/cgroup no longer lists it. A root killed
		# at an umount goes asynchronously too: a mount before it has gone waits for it and
		# then makes a new hierarchy of the same name, which the umount kills in turn, so
		# checking right after each umount could go on for minutes (seen: 300 s). Each umount
		# is given 5 s to take effect; 300 s in all.
		t0=$SECONDS tries=0 # guard
		while :; do
			for w in $(seq 1 50); do
				if ! grep -q ":name=$n:" /proc/self/cgroup; then
					[ "$tries" -eq 0 ] || echo "# the named hierarchy went after $tries re-mounts, $((SECONDS - t0)) s" >&2 # clock: printed
					exit 0
				fi
				sleep 0.1
			done
			[ $((SECONDS - t0)) -lt 300 ] || break # guard
			tries=$((tries + 1))
			mount -t cgroup -o none,name=$n cgkittest "$d" || continue
			umount "$d"
		done
		echo "hierarchy-kept: after $tries re-mounts, $((SECONDS - t0)) s: $(grep ":name=$n:" /proc/self/cgroup)"' _ "$d" "$CG" "${PIDS[0]}") # clock: printed
	[ "$res" = mount-failed ] && { cgk_skip "cannot mount a named v1 hierarchy here"; return 0; }
	# the run must leave the host as it was (tests/run checks /proc/self/cgroup too)
	assertNotContains "the kernel kept the named hierarchy after its umount: $res" "$res" hierarchy-kept
	assertNotContains "a hierarchy of that name was alive before: $res" "$res" name-taken
	assertNotContains "the child was not removed: $res" "$res" rmdir-failed
	assertContains "exit 64: $res" "$res" "rc=64"
	assertContains "says why: $res" "$res" "(name=cgkittest"
	assertContains "says why: $res" "$res" "remove: the hierarchy root cannot be removed"
	assertNotContains "nothing said as done: $res" "$res" "moved "
	assertContains "nothing moved: $res" "$res" still-in-child
	assertContains "nothing removed: $res" "$res" child-kept
}

test_own_cgroup_refused() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local m
	m=$(cgk_sandbox pids)
	mkdir -p "$m/mine/inner" "$m/other"
	start_sleepers 1
	echo "${PIDS[0]}" >"$m/other/cgroup.procs"
	cgk_capture bash -c 'echo $$ >"$1/mine/inner/cgroup.procs" && exec "$2" -x -R --migrate-to-parent -g "pids:/$3/other" -g "pids:/$3/mine"' \
		_ "$m" "$CG" "$S"
	assertEquals "exit ($err)" 64 "$rc"
	assertEquals "says why" "cgcreate2: cgroup /$S/mine (pids): remove: the subtree holds cgcreate2 itself (it runs in /$S/mine/inner)" "$err"
	assertEquals "the other one's process did not move" "/$S/other" "$(cgk_cgroup_of "${PIDS[0]}" pids)"
	assertTrue "nothing removed" "[ -d $m/other ] && [ -d $m/mine/inner ]"
}

. "$SHUNIT2"
