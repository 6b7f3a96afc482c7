#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Working with systemd: who owns a cgroup (-v), the refusal inside a unit that is not delegated
# and --force (cgcreate2, cgmigrate). A fixture tier on a plain tree standing for the unified
# hierarchy, with a fake /run/systemd/system ($CGKIT_SYSTEMD_RUNTIME), runs everywhere; the
# live tier needs systemd as PID 1 (tests/vm/run systemd -- tests/run systemd) and skips
# elsewhere.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
MIG=$CGKIT_BIN/cgmigrate
X=$CGKIT_BIN/cgexec2
TOP=$CGKIT_BIN/cgtop2

# --- fixture tier ----------------------------------------------------------------------------

# A tree at $fx/cg with a mountinfo naming it the unified hierarchy, and a systemd "running".
fixture() {
	fx=$_cgk_tmp/fx
	rm -rf "$fx"
	mkdir -p "$fx/run" "$fx/cg/system.slice/plain.service" "$fx/cg/system.slice/deleg.service"
	echo "26 22 0:23 / $fx/cg rw - cgroup2 cgroup2 rw" >"$fx/mountinfo"
	export CGKIT_MOUNTINFO=$fx/mountinfo CGKIT_SYSTEMD_RUNTIME=$fx/run
}

# xattr set|get PATH NAME [VALUE] (python3: the attr package's getfattr is not always there)
xattr() {
	python3 -c 'import os, sys
if sys.argv[1] == "set": os.setxattr(sys.argv[2], sys.argv[3], sys.argv[4].encode())
else: print(os.getxattr(sys.argv[2], sys.argv[3]).decode())' "$@" 2>/dev/null
}

fixture_done() {
	unset CGKIT_MOUNTINFO CGKIT_SYSTEMD_RUNTIME
}

test_fixture_cgcreate2_refused_in_slice() {
	fixture
	cgk_capture "$CG" /system.slice/web
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: cgroup /system.slice/web (unified): refused: inside systemd's unit system.slice, which is not delegated: that manager is the single writer of its cgroups and may undo this; for a cgroup of your own there, run systemd-run --scope --slice=system.slice -p Delegate=yes --unit=web sleep infinity and work inside /web.scope, or pass --force" "$err"
	assertEquals "" "$out"
	assertFalse "nothing made" "[ -e '$fx/cg/system.slice/web' ]"
	# a unit's own cgroup, and below a service that is not delegated
	cgk_capture "$CG" -p -r pids.max=5 /system.slice/plain.service
	assertEquals 64 "$rc"
	assertContains "$err" "inside systemd's unit plain.service, which is not delegated"
	assertContains "$err" "give plain.service Delegate=yes (systemctl edit plain.service)"
	cgk_capture "$CG" -x /system.slice/plain.service
	assertEquals "removal too" 64 "$rc"
	fixture_done
}

test_fixture_cgcreate2_force_and_verbose() {
	fixture
	# --force goes ahead: the plain tree is no cgroupfs, so the creation itself fails (1, not 64)
	cgk_capture "$CG" -v --force /system.slice/web
	assertEquals 1 "$rc"
	assertEquals "cgroup /system.slice/web (unified): owner: systemd's (unit system.slice, not delegated): going ahead (--force)" "$out"
	assertNotContains "$err" "refused"
	cgk_capture "$CG" -v /top/x
	assertEquals 1 "$rc"
	assertEquals "outside the units -v says nothing new" "" "$out"
	fixture_done
}

test_fixture_delegated() {
	cgk_need_root || return 0
	cgk_need_prog python3 "to set an xattr" || return 0
	fixture
	xattr set "$fx/cg/system.slice/deleg.service" trusted.delegate 1 ||
		{ fixture_done; cgk_skip "no trusted.* xattrs in $_cgk_tmp ($(stat -f -c %T "$_cgk_tmp"))"; return 0; }
	cgk_capture "$CG" -v /system.slice/deleg.service/a/b.scope
	assertEquals "not refused" 1 "$rc"
	assertEquals "cgroup /system.slice/deleg.service/a/b.scope (unified): owner: delegated by systemd (unit deleg.service, trusted.delegate)" "$out"
	cgk_capture "$MIG" -v -g /system.slice/deleg.service/a $$
	assertNotContains "$err" "refused"
	fixture_done
}

test_fixture_no_systemd() {
	fixture
	export CGKIT_SYSTEMD_RUNTIME=$fx/no-such-dir
	cgk_capture "$CG" -v /system.slice/web
	assertEquals "not refused" 1 "$rc"
	assertEquals "nothing said where no systemd runs" "" "$out"
	cgk_capture "$MIG" -g /system.slice/web $$
	assertNotContains "$err" "refused"
	fixture_done
}

# issue 44: cgcreate2 --apply checks each group's cgroups as cgcreate2 -p does, all of them
# before it makes the first: a refused group leaves the ones before it unmade. Old code: no
# check, the first group's mkdir failed on the plain tree (exit 1), the second never refused.
test_fixture_cgcreate2_apply_refused() {
	fixture
	local conf=$_cgk_tmp/apply.conf
	echo pids >"$fx/cg/cgroup.controllers"
	printf 'group mine {\n\tpids {\n\t\tpids.max = 5;\n\t}\n}\n\ngroup system.slice/web {\n\tpids {\n\t\tpids.max = 5;\n\t}\n}\n' >"$conf"
	cgk_capture "$CG" --apply "$conf"
	assertEquals "refused: exit" 64 "$rc"
	assertEquals "refused: FILE:LINE, the cgroup, the rule, the way" "cgcreate2: $conf:7: group system.slice/web: cgroup /system.slice/web (unified): refused: inside systemd's unit system.slice, which is not delegated: that manager is the single writer of its cgroups and may undo this; for a cgroup of your own there, run systemd-run --scope --slice=system.slice -p Delegate=yes --unit=web sleep infinity and work inside /web.scope, or pass --force" "$err"
	assertFalse "nothing made, not even the group before it" "[ -e '$fx/cg/mine' ] || [ -e '$fx/cg/system.slice/web' ]"
	cgk_capture "$CG" --apply "$conf" -n
	assertEquals "the dry run is refused too" 64 "$rc"
	assertEquals "no plan printed" "" "$out"
	# --force goes ahead: the plain tree is no cgroupfs, so the creation itself fails (1)
	cgk_capture "$CG" --apply "$conf" -v --force
	assertEquals "forced: exit" 1 "$rc"
	assertContains "forced: said" "$out" "cgroup /system.slice/web (unified): owner: systemd's (unit system.slice, not delegated): going ahead (--force)"
	assertNotContains "forced: not refused" "$err" "refused"
	fixture_done
}

test_fixture_cgmigrate_refused() {
	fixture
	cgk_capture "$MIG" -g /system.slice/plain.service 1 2
	assertEquals 64 "$rc"
	assertEquals "cgmigrate: cgroup /system.slice/plain.service (unified): refused: inside systemd's unit plain.service, which is not delegated: that manager is the single writer of its cgroups and may undo this; ask systemd to move them: busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager AttachProcessesToUnit ssau plain.service '' 2 1 2, or pass --force" "$err"
	cgk_capture "$MIG" -g /system.slice 1
	assertEquals 64 "$rc"
	assertContains "$err" "start the work in a scope of its own instead: cgexec2 -t --slice=system.slice COMMAND, or systemd-run --scope --slice=system.slice COMMAND, or pass --force"
	# draining a unit is refused as filling one
	mkdir -p "$fx/cg/mine"
	cgk_capture "$MIG" -g /mine --from=/system.slice/plain.service
	assertEquals 64 "$rc"
	assertContains "$err" "cgmigrate: cgroup /system.slice/plain.service (unified): refused"
	cgk_capture "$MIG" -v --force -g /system.slice/plain.service 1
	assertEquals "forced: the move itself fails on a plain tree" 1 "$rc"
	assertContains "$out" "owner: systemd's (unit plain.service, not delegated): going ahead (--force)"
	fixture_done
}

# --- live tier: systemd as PID 1 --------------------------------------------------------------

need_systemd() {
	cgk_need_root || return 1
	[ -d /run/systemd/system ] && [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] ||
		{ cgk_skip "PID 1 is not systemd (tests/vm/run systemd runs this)"; return 1; }
	cgk_need_prog systemd-run || return 1
}

# A scope of this test's own, holding a sleep: scope NAME [systemd-run options]; sets $spid.
scope() {
	local name=$1
	shift
	systemd-run --quiet --scope --unit="$name" "$@" sleep 300 </dev/null >/dev/null 2>&1 &
	spid=$!
	cgk_wait_for systemctl is-active --quiet "$name.scope" ||
		fail "scope $name.scope did not start"
	scopes+=("$spid")
}

suite_teardown() {
	local p
	for p in "${scopes[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
}
scopes=()

test_live_refusal_and_force() {
	need_systemd || return 0
	local u=cgkit-test-$$-plain cg
	scope "$u"
	cg=$(cgk_cgroup_of "$spid" unified)
	assertEquals "/system.slice/$u.scope" "$cg"
	cgk_capture "$CG" -v "$cg/sub"
	assertEquals 64 "$rc"
	assertContains "$err" "cgcreate2: cgroup $cg/sub (unified): refused: inside systemd's unit $u.scope, which is not delegated"
	assertFalse "nothing made" "[ -d /sys/fs/cgroup$cg/sub ]"
	cgk_capture "$CG" -v --force "$cg/sub"
	assertEquals 0 "$rc"
	assertContains "$out" "owner: systemd's (unit $u.scope, not delegated): going ahead (--force)"
	assertTrue "made" "[ -d /sys/fs/cgroup$cg/sub ]"
	cgk_capture "$CG" -x "$cg/sub"
	assertEquals "removal refused too" 64 "$rc"
	cgk_capture "$CG" -x --force "$cg/sub"
	assertEquals 0 "$rc"
	kill "$spid"
}

test_live_delegated_scope() {
	need_systemd || return 0
	local u=cgkit-test-$$-deleg cg
	scope "$u" -p Delegate=yes
	cg=$(cgk_cgroup_of "$spid" unified)
	assertEquals "1" "$(xattr get /sys/fs/cgroup"$cg" trusted.delegate)"
	cgk_capture "$CG" -v "$cg/sub"
	assertEquals 0 "$rc"
	assertContains "$out" "cgroup $cg/sub (unified): owner: delegated by systemd (unit $u.scope, trusted.delegate)"
	assertContains "$out" "created cgroup $cg/sub (unified)"
	# the scope's process moves into the subtree: systemd leaves a delegated subtree alone
	cgk_capture "$MIG" -v -g "$cg/sub" "$spid"
	assertEquals 0 "$rc"
	assertEquals "$cg/sub" "$(cgk_cgroup_of "$spid" unified)"
	assertTrue "the scope is still active" "systemctl is-active --quiet $u.scope"
	kill "$spid"
	cgk_wait_for sh -c "! systemctl is-active --quiet $u.scope"
}

# issue 44: a cgconfig.conf group in systemd's system.slice: refused, then made with --force
test_live_apply_refusal_and_force() {
	need_systemd || return 0
	local g=system.slice/cgkit-test-$$-apply conf=$_cgk_tmp/live.conf
	grep -qw pids /sys/fs/cgroup/system.slice/cgroup.subtree_control ||
		{ cgk_skip "pids is not enabled in system.slice"; return 0; }
	printf 'group %s {\n\tpids {\n\t\tpids.max = 5;\n\t}\n}\n' "$g" >"$conf"
	cgk_capture "$CG" --apply "$conf"
	assertEquals "refused: exit" 64 "$rc"
	assertContains "refused: said" "$err" "cgcreate2: $conf:1: group $g: cgroup /$g (unified): refused: inside systemd's unit system.slice, which is not delegated"
	assertFalse "nothing made" "[ -d /sys/fs/cgroup/$g ]"
	cgk_capture "$CG" --apply "$conf" --force
	assertEquals "forced: exit ($err)" 0 "$rc"
	assertEquals "forced: made and set" 5 "$(cat "/sys/fs/cgroup/$g/pids.max" 2>/dev/null)"
	cgk_capture "$CG" -x --force "/$g"
	assertEquals "removed: exit ($err)" 0 "$rc"
}

test_live_cgmigrate_into_service_refused() {
	need_systemd || return 0
	local u=cgkit-test-$$-mig cg
	scope "$u"
	cg=$(cgk_cgroup_of "$spid" unified)
	sleep 300 &
	local p=$!
	cgk_execd "$p" sleep
	cgk_capture "$MIG" -g "$cg" "$p"
	assertEquals 64 "$rc"
	assertContains "$err" "AttachProcessesToUnit ssau $u.scope '' 1 $p, or pass --force"
	assertNotEquals "not moved" "$cg" "$(cgk_cgroup_of "$p" unified)"
	kill "$p" "$spid"
}

# The user cgkit (lingering: user@UID.service runs); sets $uid. as_user CMD...: CMD as that
# user, with the user bus in its environment, as a login would give it.
need_user() {
	need_systemd || return 1
	uid=$(id -u cgkit 2>/dev/null) || { cgk_skip "no user cgkit"; return 1; }
	systemctl is-active --quiet "user@$uid.service" ||
		{ cgk_skip "user@$uid.service is not running (lingering off?)"; return 1; }
	cgk_need_prog runuser || return 1
}
as_user() {
	runuser -u cgkit -- env XDG_RUNTIME_DIR="/run/user/$uid" \
		DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@"
}

test_live_user_manager() {
	need_user || return 0
	local cg u=cgkit-test-$$-u
	cg=/user.slice/user-$uid.slice/user@$uid.service
	cgk_capture "$CG" -v "$cg/app.slice/x"
	assertEquals 64 "$rc"
	assertContains "$err" "inside a user's systemd's unit app.slice, which is not delegated"
	assertContains "$err" "systemd-run --user --scope --slice=app.slice -p Delegate=yes --unit=x"
	# systemd 252's user manager marks no delegated unit with an xattr: its Delegate property
	# says so, asked over the manager's socket (root here, the user in the next test)
	as_user systemd-run --user --quiet --scope --unit="$u-d" -p Delegate=yes sleep 300 \
		</dev/null >/dev/null 2>&1 &
	scopes+=("$!")
	as_user systemd-run --user --quiet --scope --unit="$u-n" sleep 300 </dev/null >/dev/null 2>&1 &
	scopes+=("$!")
	cgk_wait_for test -d "/sys/fs/cgroup$cg/app.slice/$u-d.scope" ||
		fail "the user's scope $u-d.scope did not start"
	cgk_wait_for test -d "/sys/fs/cgroup$cg/app.slice/$u-n.scope" ||
		fail "the user's scope $u-n.scope did not start"
	cgk_capture "$CG" -v "$cg/app.slice/$u-d.scope/sub"
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "owner: delegated by a user's systemd (unit $u-d.scope, Delegate=yes)"
	cgk_capture "$CG" -v "$cg/app.slice/$u-n.scope/sub"
	assertEquals 64 "$rc"
	assertContains "$err" "inside a user's systemd's unit $u-n.scope, which is not delegated"
	kill "${scopes[@]}" 2>/dev/null
}

# --- cgexec2 -t: a transient scope through sd-bus, next to systemd-run --scope -------------

test_fixture_cgexec2_unmapped_setting() {
	# refused before systemd is asked: the same line with or without a running systemd
	export CGKIT_SYSTEMD_RUNTIME=$_cgk_tmp
	cgk_capture "$X" -t -r cpuset.cpus=0 -- true
	assertEquals 125 "$rc"
	assertEquals "cgexec2: -r: cpuset.cpus: no systemd unit property stands for it (memory.max, memory.high, cpu.weight, cpu.max, pids.max and io.max do); --no-systemd writes it directly" "$err"
	cgk_capture "$X" -t -r cpu.max=0 -- true
	assertEquals 125 "$rc"
	assertEquals "cgexec2: -r: cpu.max=0: systemd takes QUOTA [PERIOD] in microseconds, or max; --no-systemd writes it directly" "$err"
	cgk_capture "$X" --slice=a --no-systemd -- true
	assertEquals "usage" 64 "$rc"
	unset CGKIT_SYSTEMD_RUNTIME
}

# the cgroup, then memory.max cpu.weight pids.max of it, from inside: one line
SHOW='cg=$(sed -n "s/^0:://p" /proc/self/cgroup); d=/sys/fs/cgroup$cg; echo "$cg $(cat $d/memory.max $d/cpu.weight $d/pids.max | tr "\n" " ")"'

test_live_cgexec2_scope() {
	need_systemd || return 0
	local got want
	cgk_capture "$X" -v -t -r memory.max=100M -r cpu.weight=50 -r pids.max=20 -- sh -c "echo \$\$; $SHOW"
	assertEquals "$err" 0 "$rc"
	local pid=${out%%$'\n'*}
	got=${out#*$'\n'}
	assertEquals "the PID is kept, the scope named after it" "/system.slice/cgexec2-$pid.scope 104857600 50 20 " "$got"
	assertContains "$err" "cgexec2: pid $pid in /system.slice/cgexec2-$pid.scope (unified): systemd started scope cgexec2-$pid.scope with it (Delegate=yes)"
	# systemd-run --scope, side by side: the same placement and values
	want=$(systemd-run --quiet --scope --unit=cgkit-test-$$-ref -p Delegate=yes -p MemoryMax=100M \
		-p CPUWeight=50 -p TasksMax=20 -- sh -c "$SHOW" 2>&1)
	assertEquals "/system.slice/cgkit-test-$$-ref.scope 104857600 50 20 " "$want"
	# the scope is gone with its process, as systemd-run's
	assertFalse "scope gone" "systemctl is-active --quiet cgexec2-$pid.scope"
	# --stats: COMMAND is a child in the scope, the summary counts the scope's cgroup
	cgk_capture "$X" -t --stats -r memory.max=100M -- sh -c 'sed -n "s/^0:://p" /proc/self/cgroup; cat /sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)/memory.max; exit 3'
	assertEquals "--stats: the command's status ($err)" 3 "$rc"
	assertContains "--stats: in a scope" "$out" ".scope"
	assertContains "--stats: the property set" "$out" "104857600"
	assertContains "--stats: the summary" "$err" "cgexec2: stats: wall="
}

test_live_cgexec2_scope_delegated_and_status() {
	need_systemd || return 0
	local out2
	# Delegate=yes: the command may make cgroups below its scope without --force
	cgk_capture "$X" -t -- sh -c 'cg=$(sed -n "s/^0:://p" /proc/self/cgroup); systemctl show -P Delegate "${cg##*/}"; '"$CG"' -v "$cg/inner"'
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "yes"
	assertContains "$out" "owner: delegated by systemd"
	# exit codes as systemd-run's: the command's status, 128+N for a signal
	cgk_capture "$X" -t -- sh -c 'exit 7'
	assertEquals 7 "$rc"
	systemd-run --quiet --scope -- sh -c 'exit 7' 2>/dev/null
	assertEquals "systemd-run" 7 "$?"
	# in braces with stderr to /dev/null: bash's own "Terminated" for the killed child stays quiet
	{ cgk_capture "$X" -t -- sh -c 'kill -TERM $$'; } 2>/dev/null
	assertEquals 143 "$rc"
	{ systemd-run --quiet --scope -- sh -c 'kill -TERM $$'; } 2>/dev/null
	assertEquals "systemd-run" 143 "$?"
	cgk_capture "$X" -t -- /nonexistent/cgkit
	assertEquals 127 "$rc"
	# a slice of our own, made on demand and collected after
	out2=$("$X" -t --slice="cgkittest$$" -- sed -n 's/^0:://p' /proc/self/cgroup)
	assertContains "$out2" "/cgkittest$$.slice/cgexec2-"
	# --no-systemd: today's direct mode, a cgroup at the root
	out2=$("$X" -t --no-systemd -- sed -n 's/^0:://p' /proc/self/cgroup)
	assertContains "$out2" "/cgexec2-"
	assertNotContains "$out2" ".scope"
}

test_live_cgexec2_user_scope() {
	need_user || return 0
	local got
	got=$(as_user "$X" --user -t -r memory.max=50M -- sh -c 'cg=$(sed -n "s/^0:://p" /proc/self/cgroup); echo "$cg $(cat /sys/fs/cgroup$cg/memory.max)"' 2>&1)
	# the user's manager has memory and pids delegated (not cpu): memory.max is there
	assertContains "$got" "$got" "/user.slice/user-$uid.slice/user@$uid.service/"
	assertContains "$got" "$got" ".scope 52428800"
}

# As the user, no root at any step: a scope of the user's manager with memory.max, then in the
# subtree it delegates a cgroup made, processes moved (the scope's own cgroup emptied, so that a
# child may have a controller enabled), a child with limits, a command started there, the
# subtree shown, a cgroup removed. Arguments: the four tools.
E2E='id -u
cg=$(sed -n "s/^0:://p" /proc/self/cgroup)
d=/sys/fs/cgroup$cg
echo "$cg $(cat "$d/memory.max")"
"$1" -v "$cg/work" || exit 81
sleep 300 &
s=$!
"$2" -g "$cg/work" $$ $s || exit 82
"$1" -r memory.max=50M -r pids.max=10 "$cg/lim" || exit 83
echo "lim $(cat "$d/lim/memory.max" "$d/lim/pids.max" | tr "\n" " ")"
"$2" -g "$cg/lim" $s || exit 84
"$3" -g "$cg/lim" -- sed -n "s/^0:://p" /proc/self/cgroup
"$4" -b -n 1 -P -p "$cg" | awk -v c="$cg" "NR > 1 { sub(c, \"SCOPE\", \$1); print \$1, \$2 }"
kill $s
wait $s
"$1" -x "$cg/lim" || exit 85
ls "$d" | grep -x -e work -e lim'

test_live_unprivileged_end_to_end() {
	need_user || return 0
	local cg pid
	cgk_capture as_user "$X" -v --user -t -r memory.max=100M -- bash -c "$E2E" _ "$CG" "$MIG" "$X" "$TOP"
	assertEquals "$err" 0 "$rc"
	pid=$(printf '%s\n' "$err" | sed -n 's/^cgexec2: pid \([0-9]*\) in .*/\1/p')
	cg=/user.slice/user-$uid.slice/user@$uid.service/app.slice/cgexec2-$pid.scope
	assertEquals "cgexec2: pid $pid in $cg (unified): systemd (user) started scope cgexec2-$pid.scope with it (Delegate=yes), then cgexec2 exec'd COMMAND" "$err"
	assertEquals "$uid
$cg 104857600
cgroup $cg/work (unified): owner: delegated by a user's systemd (unit cgexec2-$pid.scope, Delegate=yes)
created cgroup $cg/work (unified)
lim 52428800 10 
$cg/lim
SCOPE 4
SCOPE/lim 1
SCOPE/work 3
work" "$out"
	# the scope ends with its processes, and systemd removes its cgroup and what was made below
	cgk_wait_for sh -c "! test -d /sys/fs/cgroup$cg"
	assertFalse "the scope's cgroup is gone" "[ -d /sys/fs/cgroup$cg ]"
}

# --- cgcreate2 --scope: a delegated scope held by a keeper ------------------------------------

test_fixture_cgcreate2_scope_usage() {
	cgk_capture "$CG" --scope=a /x
	assertEquals 64 "$rc"
	assertContains "$err" "--scope makes its own cgroup"
	cgk_capture "$CG" --slice=a /x
	assertEquals 64 "$rc"
	assertContains "$err" "--slice and --user go with --scope"
	cgk_capture "$CG" --scope=a -r cpuset.cpus=0
	assertEquals 64 "$rc"
	assertEquals "cgcreate2: -r: cpuset.cpus: no systemd unit property stands for it (memory.max, memory.high, cpu.weight, cpu.max, pids.max and io.max do)" "$err"
}

test_live_cgcreate2_scope() {
	need_systemd || return 0
	local u=cgkit-test-$$-keep cg kp
	cgk_capture "$CG" -v --scope="$u" -r memory.max=64M -r pids.max=30
	assertEquals "$err" 0 "$rc"
	cg=/system.slice/$u.scope
	assertContains "$out" "started scope $u.scope (Delegate=yes) in cgroup $cg (unified), keeper pid"
	assertTrue "active" "systemctl is-active --quiet $u.scope"
	assertEquals "yes" "$(systemctl show -P Delegate "$u.scope")"
	assertEquals 67108864 "$(cat "/sys/fs/cgroup$cg/memory.max")"
	assertEquals 30 "$(cat "/sys/fs/cgroup$cg/pids.max")"
	kp=$(cat "/sys/fs/cgroup$cg/keeper/cgroup.procs")
	scopes+=("$kp")
	assertNotEquals "" "$kp"
	assertEquals "the scope's own cgroup holds no process" "" "$(cat "/sys/fs/cgroup$cg/cgroup.procs")"
	# work inside, no --force: a child with a memory limit (the controller enabled on the way)
	cgk_capture "$CG" -v -r memory.max=32M "$cg/work"
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "owner: delegated by systemd (unit $u.scope, trusted.delegate)"
	assertEquals 33554432 "$(cat "/sys/fs/cgroup$cg/work/memory.max")"
	# -x stops the unit, the keeper and the cgroups with it
	cgk_capture "$CG" -v -x "$cg"
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "stopped scope $u.scope, cgroup $cg (unified)"
	assertFalse "inactive" "systemctl is-active --quiet $u.scope"
	cgk_wait_for sh -c "! kill -0 $kp 2>/dev/null"
	assertFalse "keeper gone" "kill -0 $kp 2>/dev/null"
	assertFalse "cgroup gone" "[ -d /sys/fs/cgroup$cg ]"
}

# Start-up cost, printed (not asserted): N runs of "true" in a fresh scope each.
test_live_cgexec2_scope_cost() {
	need_systemd || return 0
	local n=${CGKIT_SCOPE_RUNS:-10} i t0 t1 t2
	t0=$(date +%s%N) # clock: printed, not asserted
	for i in $(seq "$n"); do "$X" -t -- true || fail "cgexec2 -t run $i"; done
	t1=$(date +%s%N) # clock: printed
	for i in $(seq "$n"); do systemd-run --quiet --scope -- true 2>/dev/null || fail "systemd-run run $i"; done
	t2=$(date +%s%N) # clock: printed
	echo "scope start-up, $n runs: cgexec2 -t $(((t1 - t0) / n / 1000000)) ms, systemd-run --scope $(((t2 - t1) / n / 1000000)) ms a run"
}

# The shipped cgkit-record.service (its cgtop2 this build's, a 1 s interval by the unit's
# $CGKIT_RECORD_ARGS in a drop-in) in the systemd guest only (it writes /var/log/cgkit): started,
# it makes today's day file there, whose samples a replay of the directory reads; stopped, it is
# inactive and its file stays.
test_live_record_service() {
	need_systemd || return 0
	cgk_need_vm "writes /var/log/cgkit and a unit (tests/vm/run systemd -- tests/run systemd)" || return 0
	local unit=/run/systemd/system/cgkit-record.service n=0 f
	[ -e /var/log/cgkit ] && { cgk_skip "/var/log/cgkit exists: not this test's"; return 0; }
	sed "s|/usr/local/bin/cgtop2|$TOP|" "$(dirname "$0")/../contrib/cgkit-record.service" >"$unit"
	mkdir -p "$unit.d"
	printf '[Service]\nEnvironment="CGKIT_RECORD_ARGS=-d 1"\n' >"$unit.d/test.conf"
	systemctl daemon-reload
	assertTrue "started" "systemctl start cgkit-record.service"
	record_has() {
		f=$(ls /var/log/cgkit/cgtop2-*.rec.gz 2>/dev/null | tail -n 1)
		[ -n "$f" ] && n=$("$TOP" --replay=/var/log/cgkit -F csv --fields=tasks 2>/dev/null |
			awk -F, '$2 == "/"' | wc -l) && [ "$n" -ge 2 ]
	}
	CGK_WAIT_TICKS=1200 cgk_wait_for record_has || fail "hung: no two samples in /var/log/cgkit ($(systemctl status cgkit-record.service 2>&1 | tail -n 5))"
	assertTrue "active while recording" "systemctl is-active --quiet cgkit-record.service"
	assertEquals "today's day file" "/var/log/cgkit/cgtop2-$(date +%F).rec.gz" "$f"
	systemctl stop cgkit-record.service
	assertFalse "stopped" "systemctl is-active --quiet cgkit-record.service"
	assertTrue "its file stays" "[ -s '$f' ]"
	rm -rf "$unit" "$unit.d" /var/log/cgkit
	systemctl daemon-reload
}

. "$SHUNIT2"
