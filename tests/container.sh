#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tools inside a container: a cgroup namespace with cgroup2 mounted again inside it (the
# paths the container sees), the nsdelegate boundary a move from inside cannot cross, the host's
# mounts from before the namespace (mountinfo root /..: the tools work from the namespace's root
# found below them, in unified and, on a hybrid host, in v1 cpu and pids), and a read-only
# cgroupfs. Live, as root; the nsdelegate tests need a cgroup2 mounted with nsdelegate (the
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
	cgk_need_unified || return 1
	m=$(cgk_mnt unified)
	cgk_need_prog unshare || return 1
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
into /inner (unified)
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
	cgk_execd "$p" sleep
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

# from_outside ROOT HIERS SCRIPT ARGS...: SCRIPT runs in bash as $0 in a cgroup namespace made
# (unshare -C, no mount of its own) in the sandbox's ROOT ("" for the sandbox itself) of each
# hierarchy of HIERS ("unified cpu pids": never memory), so that the host's mounts, made before
# it, reach above its root (mountinfo root /..): a container runtime's cgroupns=private with
# the host's cgroupfs bound in. Arguments: the tools, then ARGS; sets rc, out, err. A view that
# is not the namespace's (its unified root's cgroup-view not at /, as before the tools knew of
# the namespace) exits 80 before anything is written.
from_outside() {
	local root=$1 hiers=$2 script=$3 h dirs=()
	shift 3
	for h in $hiers; do
		dirs+=("$(cgk_mnt "$h")/$SANDBOX_NAME${root:+/$root}")
	done
	mkdir -p "$(cgk_mnt unified)/$SANDBOX_NAME${root:+/$root}/cgroup-view"
	cgk_capture bash -c 'for d in $1; do echo $$ >"$d/cgroup.procs" || exit 90; done
		shift
		exec unshare -C bash -c '\''"$4" -b -n 1 /cgroup-view >/dev/null 2>&1 || exit 80
			'"$script"\'' _ "$@"' _ "${dirs[*]}" "$CG" "$MIG" "$X" "$TOP" "$@"
}

# The unified mount from the host in a namespace rooted at the sandbox: mountinfo's root is
# /.., /proc/self/cgroup says /, and the tools name cgroups as /proc/self/cgroup does (before,
# cgcreate2 -v /inner made /inner at the top of the host's tree).
test_namespace_mount_from_outside() {
	need_unshare || return 0
	sb=$(cgk_sandbox unified)
	# $1 cgcreate2, $2 cgmigrate, $3 cgexec2, $4 cgtop2, $5 the mount; the sleep starts
	# inside, as nsdelegate (the unified VM) lets no process in from beyond the root
	from_outside "" unified 'awk -v m="$5" "\$5 == m { print \$4 }" /proc/self/mountinfo
		sed -n "s/^0:://p" /proc/self/cgroup
		"$1" -v /inner || exit 81
		"$3" -g /inner -- sed -n "s/^0:://p" /proc/self/cgroup || exit 82
		"$3" -t --no-systemd -g /inner -- sed -n "s/^0:://p" /proc/self/cgroup || exit 83
		sleep 300 &
		"$2" -v -g /inner $! || exit 84
		sed -n "s/^0:://p" /proc/$!/cgroup
		"$4" -b -n 1 -P -p /inner | awk "NR > 1 { print \$1, \$2 }"
		kill $!' "$m"
	assertEquals "$err" 0 "$rc"
	assertEquals "mountinfo, /proc/self/cgroup, cgcreate2 -v, cgexec2 -g and -t, cgmigrate, cgtop2 -P" "/..
/
created cgroup /inner (unified)
/inner
/inner/cgexec2-N
into /inner (unified)
moved 1 process (1 thread), 0 gone, 0 failed
/inner
/inner 1" "$(printf '%s\n' "$out" | sed 's/cgexec2-[0-9]*/cgexec2-N/')"
	assertTrue "made in the namespace's root, the sandbox" "[ -d $sb/inner ]"
	assertFalse "not at the top of the host's tree" "[ -e $m/inner ]"
	from_outside "" unified '"$1" -x /inner'
	assertEquals "$err" 0 "$rc"
	assertFalse "removed from the sandbox" "[ -e $sb/inner ]"
}

# A hybrid layout from the host: the namespace three levels below each hierarchy's root (/../../..)
# in the unified, cpu and pids hierarchies; a cgroup beyond the namespace's root is refused
# with the rule, a process there can still be moved in (v1 has no nsdelegate).
test_namespace_mount_from_outside_v1() {
	need_unshare || return 0
	local h p c
	[ -n "$(cgk_mnt cpu)" ] && [ -n "$(cgk_mnt pids)" ] ||
		{ cgk_skip "no v1 cpu and pids hierarchies ($(cgk_layout): the hybrid and legacy layouts)"; return 0; }
	for h in unified cpu pids; do
		sb=$(cgk_sandbox "$h")
		mkdir -p "$sb/v1/ns" "$sb/v1/outside"
	done
	sleep 300 &
	p=$!
	cgk_execd "$p" sleep
	_pids+=("$p")
	for h in unified cpu pids; do
		echo "$p" >"$(cgk_mnt "$h")/$SANDBOX_NAME/v1/outside/cgroup.procs"
	done
	c=$(cgk_mnt cpu)
	from_outside v1/ns "unified cpu pids" 'awk -v m="$5" "\$5 == m { print \$4 }" /proc/self/mountinfo
		grep -E "^[0-9]+:(cpu|pids):" /proc/self/cgroup | cut -d: -f3
		grep -E "^[0-9]+:cpu:" /proc/$6/cgroup | cut -d: -f3
		"$1" -v -g cpu,pids:/inner -g /inner || exit 81
		"$3" -g cpu,pids:/inner -g /inner -- grep -E "^[0-9]+:(cpu|pids):|^0::" /proc/self/cgroup |
			cut -d: -f3 || exit 82
		"$1" -g cpu,pids:/v1only && "$2" -g cpu,pids:/v1only "$6" || exit 83
		"$4" -b -n 1 -P -p /v1only | awk "NR > 1 { print \$1, \$2 }"
		"$2" --from cpu:/../outside -g cpu:/inner
		echo "rc=$?"
		"$1" -g cpu,pids:/gone && "$1" -v -x -g cpu,pids:/gone || exit 84' "$c" "$p"
	assertEquals "$err" 0 "$rc"
	assertEquals "mountinfo, /proc/self/cgroup, /proc/PID/cgroup from outside, cgcreate2 -v, cgexec2, cgtop2 -P, --from beyond the root" "/../../..
/
/
/../outside
created cgroup /inner (cpu)
created cgroup /inner (pids)
created cgroup /inner (unified)
/inner
/inner
/inner
/v1only 1
rc=64
removed cgroup /gone (cpu)
removed cgroup /gone (pids)" "$out"
	assertEquals "one line with the rule" "cgmigrate: /../outside: path: cgroup namespace rule: inside a cgroup namespace the hierarchy starts at the namespace's root (the cgroup it was made in, / in /proc/self/cgroup); what lies beyond it shows as /.. and cannot be named from inside" "$err"
	assertEquals "moved into the namespace's /v1only, seen from outside" "/$SANDBOX_NAME/v1/ns/v1only" \
		"$(cgk_cgroup_of "$p" cpu)"
	assertEquals "in pids too" "/$SANDBOX_NAME/v1/ns/v1only" "$(cgk_cgroup_of "$p" pids)"
	assertEquals "not moved in unified" "/$SANDBOX_NAME/v1/outside" "$(cgk_cgroup_of "$p" unified)"
	assertFalse "removed" "[ -e $c/$SANDBOX_NAME/v1/ns/gone ]"
}

# The same with nsdelegate: a process beyond the namespace's root cannot be moved in.
test_namespace_mount_from_outside_nsdelegate() {
	need_unshare || return 0
	need_nsdelegate || return 0
	local p
	sb=$(cgk_sandbox unified)
	mkdir -p "$sb/nd/ns" "$sb/nd/outside"
	sleep 300 &
	p=$!
	cgk_execd "$p" sleep
	_pids+=("$p")
	echo "$p" >"$sb/nd/outside/cgroup.procs"
	from_outside nd/ns unified '"$1" /inner || exit 81
		"$2" -g /inner "$5"' "$p"
	assertEquals "$err" 1 "$rc"
	assertEquals "cgmigrate: cgroup /inner (unified): move: process $p: No such file or directory (delegation boundary: cgroup2 is mounted with nsdelegate, which makes a cgroup namespace's root one; from inside the namespace no process moves in from outside its root or out to beyond it)" "$err"
	assertEquals "not moved" "/$SANDBOX_NAME/nd/outside" "$(cgk_cgroup_of "$p" unified)"
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
	cgk_execd "$p" sleep
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
