#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tools inside a real container: systemd-nspawn starts one from this machine's own tree (a
# bind mount of /, --volatile=overlay: nothing it writes stays, no image to download), which
# machined registers in machine.slice with a delegated scope, its own cgroup namespace and
# cgroup2 mounted there with nsdelegate. The tests enter it (nsenter, after moving into its
# payload cgroup, as machinectl shell would) and run the tools there: made and run inside the
# delegated subtree, refused at its root, cgtop2 and --events seeing only the container's view;
# and from the machine's side, cgtop2 -M naming the machine. Needs systemd as PID 1 (the systemd
# VM: tests/vm/run systemd -- tests/run nspawn); elsewhere the tests skip.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
MIG=$CGKIT_BIN/cgmigrate
X=$CGKIT_BIN/cgexec2
TOP=$CGKIT_BIN/cgtop2
# a "-" that systemd escapes in the unit name and so the cgroup's (machine-cgkit\x2dtest...):
# cgtop2 -M finds the scope by that name
MACHINE=cgkit-test$$
LEADER=
_pids=()

teardown_test() {
	cgk_kill_pids
}

# The container, started once for the suite: LEADER (its PID 1 as this machine sees it), SCOPE
# (its unit), PAYLOAD (the cgroup directory its processes are in, its cgroup namespace's root).
need_nspawn() {
	local i u
	cgk_need_root || return 1
	[ -d /run/systemd/system ] && [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] ||
		{ cgk_skip "PID 1 is not systemd, no machined and no machine.slice (the systemd VM runs this)"; return 1; }
	cgk_need_prog systemd-nspawn systemd-container || return 1
	cgk_need_prog machinectl systemd-container || return 1
	cgk_need_prog nsenter || return 1
	[ -n "$LEADER" ] && return 0
	ROOT=/run/$MACHINE
	mkdir -p "$ROOT" && mount --bind / "$ROOT" || { fail "bind mount of / on $ROOT"; return 1; }
	systemd-nspawn -q -D "$ROOT" --volatile=overlay -M "$MACHINE" --as-pid2 --console=pipe \
		--settings=no --link-journal=no --resolv-conf=off --timezone=off -- sleep infinity \
		</dev/null >"$_cgk_tmp/nspawn.log" 2>&1 &
	NSPAWN=$!
	for i in $(seq 1 600); do
		LEADER=$(machinectl show "$MACHINE" -p Leader --value 2>/dev/null) && [ -n "$LEADER" ] && break
		kill -0 "$NSPAWN" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$LEADER" ] || { fail "no machine $MACHINE: $(cat "$_cgk_tmp/nspawn.log")"; return 1; }
	SCOPE=$(machinectl show "$MACHINE" -p Unit --value)
	u=$(cgk_mnt unified)
	PAYLOAD=$u$(cgk_cgroup_of "$LEADER" unified)
	# what the tests rest on: machined's scope in machine.slice, delegated, and a cgroup
	# namespace of the container's own rooted in it
	assertEquals "the machine's unit" "machine-cgkit\\x2dtest$$.scope" "$SCOPE"
	assertEquals "delegated" yes "$(systemctl show "$SCOPE" -p Delegate --value)"
	assertEquals "in machine.slice" "$u/machine.slice/$SCOPE" "${PAYLOAD%/payload}"
	assertNotEquals "a cgroup namespace of its own" "$(readlink /proc/self/ns/cgroup)" \
		"$(readlink "/proc/$LEADER/ns/cgroup")"
}

suite_teardown() {
	[ -n "${NSPAWN:-}" ] || return 0
	machinectl terminate "$MACHINE" 2>/dev/null || kill "$NSPAWN" 2>/dev/null
	wait "$NSPAWN" 2>/dev/null
	mountpoint -q "$ROOT" && umount "$ROOT"
	rmdir "$ROOT" 2>/dev/null # nspawn may have removed it
}

# in_ct SCRIPT ARGS...: SCRIPT runs in bash as $0 inside the container, in its payload cgroup and
# every namespace of its PID 1, with the tools and ARGS as arguments ($1 cgcreate2, $2 cgmigrate,
# $3 cgexec2, $4 cgtop2); sets rc, out, err.
in_ct() {
	local script=$1
	shift
	cgk_capture bash -c 'echo $$ >"$1/cgroup.procs" || exit 90
		exec nsenter -t "$2" -a bash -c "$3" "${@:4}"' _ "$PAYLOAD" "$LEADER" "$script" \
		in-container "$CG" "$MIG" "$X" "$TOP" "$@"
}

test_nspawn_create_and_exec_in_delegated_subtree() {
	need_nspawn || return 0
	local got
	in_ct 'sed -n "s/^0:://p" /proc/self/cgroup
		"$1" -v /inner || exit 81
		"$3" -g /inner -- sed -n "s/^0:://p" /proc/self/cgroup || exit 82
		"$3" -g /inner -- sleep 300 &
		"$1" -v /inner/deeper || exit 83'
	assertEquals "$err" 0 "$rc"
	assertEquals "the container's own view" "/
created cgroup /inner (unified)
/inner
created cgroup /inner/deeper (unified)" "$out"
	assertTrue "made in the machine's delegated payload, seen from outside" "[ -d '$PAYLOAD/inner/deeper' ]"
	assertEquals "the command run there, seen from outside" "sleep" \
		"$(xargs -r -n 1 -I{} cat /proc/{}/comm <"$PAYLOAD/inner/cgroup.procs" 2>/dev/null)"
	xargs -r kill <"$PAYLOAD/inner/cgroup.procs"
	cgk_wait_for grep -q 'populated 0' "$PAYLOAD/inner/cgroup.events"
	in_ct '"$1" -v -x -R /inner'
	assertEquals "$err" 0 "$rc"
	assertFalse "removed" "[ -e '$PAYLOAD/inner' ]"
}

# The container's root is the delegation boundary: its own limits are its manager's, set from
# outside (nsdelegate refuses a write to a namespace root's files from inside).
test_nspawn_refused_at_its_root() {
	need_nspawn || return 0
	local before
	before=$(cat "$PAYLOAD/pids.max")
	in_ct '"$1" -p -r pids.max=5 /'
	assertNotEquals "refused: $out" 0 "$rc"
	assertContains "names the cgroup: $err" "$err" "cgcreate2: cgroup / (unified)"
	assertContains "names the setting: $err" "$err" "pids.max"
	assertEquals "one line: $err" 1 "$(printf '%s\n' "$err" | wc -l)"
	assertEquals "the machine's limit unchanged" "$before" "$(cat "$PAYLOAD/pids.max")"
}

test_nspawn_cgtop2_sees_the_container_only() {
	need_nspawn || return 0
	in_ct '"$1" /seen || exit 81
		"$4" -b -n 1 -p | awk "NR > 1 { print \$1 }"
		"$1" -x /seen'
	assertEquals "$err" 0 "$rc"
	assertEquals "the container's tree, from its own root" "/
/seen" "$out"
}

test_nspawn_events_in_the_container_view() {
	need_nspawn || return 0
	local sb wrc
	in_ct_watch
	sb=$(cgk_sandbox unified)
	# beyond the container: never its event
	mkdir "$sb/outside"
	in_ct '"$1" /ev && "$1" -x /ev'
	assertEquals "$err" 0 "$rc"
	cgk_wait_for test ! -d "/proc/$_watch"
	wait "$_watch"
	wrc=$?
	_pids=()
	assertEquals "the watcher ended after two events: $(cat "$_cgk_tmp/ev.err")" 0 "$wrc"
	assertEquals "created and removed, by the container's names" "created /ev
removed /ev" "$(awk '{ print $4, $2 }' "$_cgk_tmp/ev.out")"
}

# A watcher of the container's / inside it, in the background (_watch), stdout and stderr in
# $_cgk_tmp/ev.{out,err}; it ends after two events.
in_ct_watch() {
	bash -c 'echo $$ >"$1/cgroup.procs" || exit 90
		exec nsenter -t "$2" -a "$3" -v --events=created,removed -n 2 --timeout 120 /' _ \
		"$PAYLOAD" "$LEADER" "$TOP" >"$_cgk_tmp/ev.out" 2>"$_cgk_tmp/ev.err" &
	_watch=$!
	_pids+=("$_watch")
	cgk_wait_for grep -qs watching "$_cgk_tmp/ev.err" || fail "the watcher did not start: $(cat "$_cgk_tmp/ev.err")"
}

test_nspawn_machine_from_outside() {
	need_nspawn || return 0
	in_ct '"$1" /from-host'
	assertEquals "$err" 0 "$rc"
	cgk_capture "$TOP" -M "$MACHINE" -b -n 1 -p
	assertEquals "$err" 0 "$rc"
	# the table shows the unit's backslash (machine-cgkit\x2dtest...) doubled
	local shown=${SCOPE//\\/\\\\}
	assertEquals "the machine's scope, as this machine names it" \
		"/machine.slice/$shown
/machine.slice/$shown/payload
/machine.slice/$shown/payload/from-host" "$(awk 'NR > 1 { print $1 }' <<<"$out")"
	in_ct '"$1" -x /from-host'
}

. "$SHUNIT2"
