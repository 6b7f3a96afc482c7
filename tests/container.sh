#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tools inside a container: a cgroup namespace with cgroup2 mounted again inside it (the
# paths the container sees), the nsdelegate boundary a move from inside cannot cross, a cgroup2
# mount from before the namespace (its root outside it), and a read-only cgroupfs. Live, as root,
# in the unified hierarchy; the nsdelegate tests need a cgroup2 mounted with nsdelegate (the
# unified and systemd VMs), this hybrid host's is not and cannot be (the flag is the whole
# hierarchy's), so there they skip.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
MIG=$CGKIT_BIN/cgmigrate
X=$CGKIT_BIN/cgexec2
TOP=$CGKIT_BIN/cgtop2

_pids=()
teardown_test() {
	cgk_kill_pids
}

need_unshare() {
	cgk_need_root || return 1
	m=$(cgk_mnt unified)
	[ -n "$m" ] || { cgk_skip "no unified hierarchy ($(cgk_layout))"; return 1; }
	command -v unshare >/dev/null || { cgk_skip "no unshare"; return 1; }
	unshare -Cm true 2>/dev/null || { cgk_skip "unshare cannot make a cgroup namespace here"; return 1; }
}

need_nsdelegate() {
	awk -v m="$m" '$5 == m && / cgroup2 / && /nsdelegate/ { f = 1 } END { exit !f }' /proc/self/mountinfo ||
		{ cgk_skip "cgroup2 at $m is not mounted with nsdelegate (the unified and systemd VMs have it)"; return 1; }
}

# in_ns SCRIPT ARGS...: SCRIPT runs in bash as $0 in a cgroup namespace rooted at $t/ns, in a
# private mount namespace where cgroup2 is mounted again at $m (the container's view, where
# $t/ns is /), with $m, the tools and ARGS as arguments; sets rc, out, err. The mount is made
# from inside the new cgroup namespace: from the initial one it would reset the hierarchy's
# flags (nsdelegate, memory_recursiveprot) for the whole machine. It checks that the view is the
# namespace's (the sandbox is not in it) before anything runs.
in_ns() {
	local script=$1
	shift
	cgk_capture bash -c 'echo $$ >"$1/ns/cgroup.procs" || exit 90
		shift
		exec unshare -Cm bash -c '\''mount --make-rprivate / && umount -l "$1" &&
			mount -t cgroup2 none "$1" || exit 91
			[ -e "$1/cgroup.procs" ] && [ ! -e "$1/'"$SANDBOX_NAME"'" ] || exit 92
			'"$script"\'' _ "$@"' _ "$t" "$m" "$CG" "$MIG" "$X" "$TOP" "$@"
}

test_namespace_paths() {
	need_unshare || return 0
	local got
	sb=$(cgk_sandbox unified)
	t=$sb/paths
	mkdir -p "$t/ns"
	# $1 mount, $2 cgcreate2, $3 cgmigrate, $4 cgexec2, $5 cgtop2
	in_ns 'sed -n "s/^0:://p" /proc/self/cgroup
		"$2" -v /inner || exit 81
		"$4" -v -g /inner -- sed -n "s/^0:://p" /proc/self/cgroup || exit 82
		"$4" -t -g /inner -- sed -n "s/^0:://p" /proc/self/cgroup || exit 83
		sleep 300 &
		"$3" -v -g /inner $! || exit 84
		"$5" -b -n 1 -P -p /inner | awk "NR > 1 { print \$1, \$2 }"
		kill $!
		wait
		"$2" -v -x /inner'
	assertEquals "$err" 0 "$rc"
	got=$(printf '%s\n' "$out" | sed 's/cgexec2-[0-9]*/cgexec2-N/')
	assertEquals "the container's own view: /proc/self/cgroup, -v, cgexec2, cgmigrate, cgtop2" "/
created cgroup /inner (unified)
/inner
/inner/cgexec2-N
moved 1 process (1 thread), 0 gone, 0 failed
/inner 1
removed cgroup /inner (unified)" "$got"
	assertContains "$err" "cgexec2: pid "
	assertContains "$err" " in /inner (unified): cgexec2 moved itself there"
	assertFalse "removed where the container's / is" "[ -e $t/ns/inner ]"
}

test_namespace_nsdelegate_boundary() {
	need_unshare || return 0
	need_nsdelegate || return 0
	local p
	sb=$(cgk_sandbox unified)
	t=$sb/deleg
	mkdir -p "$t/outside" "$t/ns"
	sleep 300 &
	p=$!
	_pids+=("$p")
	echo "$p" >"$t/outside/cgroup.procs"
	in_ns '"$2" -v /inner || exit 81
		"$3" -g /inner "$6"' "$p"
	assertEquals "$err" 1 "$rc"
	assertEquals "created cgroup /inner (unified)" "$out"
	assertTrue "made where the container's / is" "[ -d $t/ns/inner ]"
	assertEquals "cgmigrate: cgroup /inner (unified): move: process $p: No such file or directory (delegation boundary: cgroup2 is mounted with nsdelegate, which makes a cgroup namespace's root one; from inside the namespace no process moves in from outside its root or out to beyond it)" "$err"
	assertEquals "not moved" "/$SANDBOX_NAME/deleg/outside" "$(cgk_cgroup_of "$p" unified)"
}

# cgroup2 mounted before the namespace was made: mountinfo's root is /../../.. (up from the
# namespace's root); the mount shows the cgroups beyond it, and a process started into one of
# them is refused.
test_namespace_mount_from_outside() {
	need_unshare || return 0
	need_nsdelegate || return 0
	local before
	sb=$(cgk_sandbox unified)
	t=$sb/before
	mkdir -p "$t/outside" "$t/ns"
	before=$(ls "$t/outside")
	cgk_capture bash -c 'echo $$ >"$1/ns/cgroup.procs" || exit 90
		exec unshare -C bash -c '\''awk -v m="$1" "\$5 == m { print \$4 }" /proc/self/mountinfo
			"$2" -t -g "$3" -- true'\'' _ "$2" "$3" "$4"' _ "$t" "$m" "$X" "/$SANDBOX_NAME/before/outside"
	assertEquals 125 "$rc"
	assertEquals "the root: up from /$SANDBOX_NAME/before/ns" "/../../.." "$out"
	assertContains "$err" "cgexec2: cgroup /$SANDBOX_NAME/before/outside/cgexec2-"
	assertContains "$err" "(unified): move: process "
	assertContains "$err" ": No such file or directory (delegation boundary: cgroup2 is mounted with nsdelegate, which makes a cgroup namespace's root one; from inside the namespace no process moves in from outside its root or out to beyond it; this mount's root is outside the namespace (mountinfo root /..): mount cgroup2 again inside it to see the namespace's own tree)"
	assertEquals "one line" 1 "$(printf '%s\n' "$err" | wc -l)"
	assertEquals "the transient cgroup is removed" "$before" "$(ls "$t/outside")"
}

# ro TOOL ARGS...: run in a private mount namespace where the unified mount is read-only
ro() {
	cgk_capture unshare -m bash -c 'mount --make-rprivate / && mount --bind "$1" "$1" &&
		mount -o remount,bind,ro "$1" || exit 99
		shift
		exec "$@"' _ "$m" "$@"
}

test_readonly_cgroupfs() {
	need_unshare || return 0
	local why="Read-only file system (the cgroup filesystem is mounted read-only here, as a container runtime mounts it for a container that may not change its cgroups: it can be read, nothing can be made, set or moved through it)"
	local s=/$SANDBOX_NAME/ro p
	sb=$(cgk_sandbox unified)
	mkdir "$sb/ro"
	sleep 300 &
	p=$!
	_pids+=("$p")
	ro "$CG" "$s/x"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup $s/x (unified): mkdir: $why" "$err"
	ro "$CG" -p -r cgroup.max.depth=3 "$s"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup $s (unified): write cgroup.max.depth \"3\": $why" "$err"
	ro "$MIG" -g "$s" "$p"
	assertEquals 1 "$rc"
	assertEquals "cgmigrate: cgroup $s (unified): open cgroup.procs: $why" "$err"
	ro "$X" -g "$s" -- true
	assertEquals 125 "$rc"
	assertEquals "cgexec2: cgroup $s (unified): open cgroup.procs: $why" "$err"
	ro "$X" -t --no-systemd -g "$s" -- true
	assertEquals 125 "$rc"
	assertContains "$err" "cgexec2: cgroup $s/cgexec2-"
	assertContains "$err" " (unified): mkdir: $why"
	ro "$CG" -x "$s"
	assertEquals 1 "$rc"
	assertEquals "cgcreate2: cgroup $s (unified): rmdir: $why" "$err"
	# reading is not refused
	ro "$TOP" -b -n 1 -P "$s"
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "$s "
	assertTrue "nothing changed" "[ -d $sb/ro ] && [ ! -e $sb/ro/x ]"
	assertEquals "max" "$(cat "$sb/ro/cgroup.max.depth")"
	assertNotEquals "$s" "$(cgk_cgroup_of "$p" unified)"
}

. "$SHUNIT2"
