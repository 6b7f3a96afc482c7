#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One vocabulary on every layout: v2 names for memory, IO and pids set with cgcreate2 -r and
# cgexec2 -r land in whichever hierarchy holds the controller, translated for v1 (common/vocab).
# Cgroups are made in the v1 memory hierarchy's sandbox, but no process is put there except in
# the VM guests (CGKIT_VM), where memory is tested for real: allocate past memory.max, be killed.
. "$(dirname "$0")/lib.sh"

C=$CGKIT_BIN/cgcreate2
X=$CGKIT_BIN/cgexec2
S=$SANDBOX_NAME

# The directory of cgroup $S/$1 in the hierarchy serving controller $2: unified when it offers
# the controller, else its v1 hierarchy. Empty when neither.
where() {
	local u
	u=$(cgk_mnt unified)
	if [ -n "$u" ] && grep -qw "$2" "$u/cgroup.controllers" 2>/dev/null; then
		echo "$u/$S/$1"
	elif [ -n "$(cgk_mnt "$2")" ]; then
		echo "$(cgk_mnt "$2")/$S/$1"
	fi
}

# whether directory $1 is in a v1 hierarchy
v1() {
	local u
	u=$(cgk_mnt unified)
	[ -z "$u" ] || [[ $1 != "$u"/* ]]
}

# The README's tour, as written there: a bare path and a v2 memory name.
test_memory_max_where_memory_is() {
	cgk_need_root || return 0
	local d
	d=$(where web memory)
	[ -n "$d" ] || { cgk_skip "no memory controller on this system"; return 0; }
	cgk_capture "$C" -p -v -r memory.max=512M "/$S/web"
	assertEquals "exit ($err)" 0 "$rc"
	if v1 "$d"; then
		assertEquals "v1 limit" 536870912 "$(cat "$d/memory.limit_in_bytes")"
		assertContains "-v shows the translation" "$out" \
			"set memory.max=512M in cgroup /$S/web (memory): memory.limit_in_bytes=536870912"
	else
		assertEquals "v2 limit" 536870912 "$(cat "$d/memory.max")"
		assertContains "-v" "$out" "set memory.max=512M in cgroup /$S/web (unified)"
	fi
	# idempotent for init scripts, and max lifts it
	cgk_capture "$C" -p -r memory.max=max "/$S/web"
	assertEquals "again, exit ($err)" 0 "$rc"
	if v1 "$d"; then
		assertEquals "v1 unlimited" 9223372036854771712 "$(cat "$d/memory.limit_in_bytes")"
	else
		assertEquals "v2 unlimited" max "$(cat "$d/memory.max")"
	fi
}

# Removing a bare path on a hybrid layout takes the twins that -r made in v1 hierarchies; a
# populated twin refuses the whole request, as a populated cgroup does.
test_remove_takes_twins() {
	cgk_need_root || return 0
	[ "$(cgk_layout)" = hybrid ] || { cgk_skip "twins are a hybrid layout's ($(cgk_layout))"; return 0; }
	cgk_need_v1 pids || return 0
	local u p pid
	u=$(cgk_mnt unified) p=$(cgk_mnt pids)
	cgk_capture "$C" -p -r pids.max=10 "/$S/tw/a"
	assertEquals "create, exit ($err)" 0 "$rc"
	assertTrue "the pids twin" "[ -d '$p/$S/tw/a' ]"
	sleep 60 &
	pid=$!
	cgk_execd "$pid" sleep
	echo "$pid" >"$p/$S/tw/a/cgroup.procs"
	cgk_capture "$C" -x -R "/$S/tw"
	assertEquals "a populated twin refuses, exit ($err)" 1 "$rc"
	assertContains "naming it" "$err" "/$S/tw/a (pids)"
	assertTrue "nothing removed" "[ -d '$u/$S/tw/a' ] && [ -d '$p/$S/tw/a' ]"
	kill "$pid"
	wait "$pid" 2>/dev/null
	cgk_capture "$C" -x -R -v "/$S/tw"
	assertEquals "remove, exit ($err)" 0 "$rc"
	assertContains "-v names the twin" "$out" "removed cgroup /$S/tw/a (pids)"
	assertFalse "unified gone" "[ -e '$u/$S/tw' ]"
	assertFalse "pids twin gone" "[ -e '$p/$S/tw' ]"
}

test_memory_swap_is_a_sum_on_v1() {
	cgk_need_root || return 0
	local d
	d=$(where db memory)
	[ -n "$d" ] && v1 "$d" || { cgk_skip "memory is not in a v1 hierarchy here"; return 0; }
	[ -f "$(cgk_mnt memory)/memory.memsw.limit_in_bytes" ] ||
		{ cgk_skip "the kernel has no swap accounting (memory.memsw.*)"; return 0; }
	cgk_capture "$C" -p -r memory.max=1G -r memory.swap.max=256M -r memory.low=100M "/$S/db"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "limit" 1073741824 "$(cat "$d/memory.limit_in_bytes")"
	assertEquals "memory plus swap" 1342177280 "$(cat "$d/memory.memsw.limit_in_bytes")"
	assertEquals "low" 104857600 "$(cat "$d/memory.soft_limit_in_bytes")"
	# without a memory limit there is nothing to add the swap to: refused, nothing left
	cgk_capture "$C" -p -r memory.swap.max=256M "/$S/db2"
	assertEquals "refused" 1 "$rc"
	assertContains "says why" "$err" "v1 limits memory plus swap together"
	assertFalse "nothing left" "[ -d '$(dirname "$d")/db2' ]"
}

test_what_v1_cannot_say() {
	cgk_need_root || return 0
	local d m
	d=$(where x memory)
	[ -n "$d" ] && v1 "$d" || { cgk_skip "memory is not in a v1 hierarchy here"; return 0; }
	for m in memory.high=1G memory.min=1G memory.oom.group=1; do
		cgk_capture "$C" -p -r "$m" "/$S/x"
		assertEquals "$m refused" 1 "$rc"
		assertContains "$m: names the nearest v1 knob ($err)" "$err" "memory."
		assertNotContains "$m: never 'not mounted'" "$err" "not mounted"
		assertFalse "$m: nothing left" "[ -d '$d' ]"
	done
}

test_pids_max_everywhere() {
	cgk_need_root || return 0
	local d
	d=$(where p pids)
	[ -n "$d" ] || { cgk_skip "no pids controller"; return 0; }
	cgk_capture "$C" -p -r pids.max=64 "/$S/p"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "pids.max" 64 "$(cat "$d/pids.max")"
	cgk_capture "$C" -p -r pids.max=lots "/$S/p2"
	assertEquals "bad value: exit" 1 "$rc"
	assertContains "says what it takes" "$err" "pids.max takes a number of tasks or max"
}

# io.max with the device given as a /dev path, as systemd's IOReadBandwidthMax takes it.
test_io_max_device_path() {
	cgk_need_root || return 0
	local d dev node majmin
	d=$(where io io)
	[ -n "$d" ] || d=$(where io blkio)
	[ -n "$d" ] || { cgk_skip "no io or blkio controller"; return 0; }
	for dev in /sys/dev/block/*; do
		majmin=${dev##*/}
		node=/dev/$(sed -n 's/^DEVNAME=//p' "$dev/uevent" 2>/dev/null)
		# a whole disk (throttles are per disk), with its node
		[ -b "$node" ] && [ ! -f "$dev/partition" ] && [ "${majmin%%:*}" != 7 ] && break
		node=
	done
	[ -n "$node" ] || { cgk_skip "no block device to throttle"; return 0; }
	cgk_capture "$C" -p -r "io.max=$node rbps=1M wiops=100" "/$S/io"
	if [ "$rc" -ne 0 ] && [[ $err == *"No such device"* ]]; then
		cgk_skip "$node cannot be throttled here: $err"
		return 0
	fi
	assertEquals "exit ($err)" 0 "$rc"
	if v1 "$d"; then
		assertEquals "read bps" "$majmin 1048576" "$(cat "$d/blkio.throttle.read_bps_device")"
		assertEquals "write iops" "$majmin 100" "$(cat "$d/blkio.throttle.write_iops_device")"
	else
		assertContains "io.max" "$(cat "$d/io.max")" "$majmin rbps=1048576 wbps=max riops=max wiops=100"
	fi
	cgk_capture "$C" -p -r "io.max=/dev/null rbps=1" "/$S/io2"
	assertEquals "not a block device: exit" 1 "$rc"
	assertContains "says so" "$err" "not a block device"
}

# io.max with a MAJ:MIN the system has no block device for: one line naming the device and
# the rule, before anything is made. The kernel's ENODEV at the write read "No such device
# (the cgroup was removed meanwhile)".
test_io_max_missing_device() {
	cgk_need_root || return 0
	local d dev=8:0 m lab
	d=$(where iom io)
	[ -n "$d" ] || d=$(where iom blkio)
	[ -n "$d" ] || { cgk_skip "no io or blkio controller"; return 0; }
	[ -d /sys/dev/block ] || { cgk_skip "no /sys/dev/block to tell a missing device"; return 0; }
	for m in 8:0 4095:0 4095:1048575; do
		[ -e "/sys/dev/block/$m" ] || { dev=$m; break; }
	done
	[ -e "/sys/dev/block/$dev" ] && { cgk_skip "every device tried exists"; return 0; }
	lab=unified
	v1 "$d" && lab=blkio
	cgk_capture "$C" -p -r "io.max=$dev rbps=1000" "/$S/iom"
	assertEquals "exit" 1 "$rc"
	assertEquals "names the device and the rule" "cgcreate2: cgroup /$S/iom ($lab): set: io.max=$dev rbps=1000: no block device $dev on this system (/sys/dev/block): io.max needs an existing block device, as MAJ:MIN or a /dev path" "$err"
	assertFalse "nothing made" "[ -d '$d' ]"
}

# cgexec2 -t with a v2 name and nothing else: the transient cgroup goes where pids is.
test_cgexec2_pids_transient() {
	cgk_need_root || return 0
	[ -n "$(where t pids)" ] || { cgk_skip "no pids controller"; return 0; }
	cgk_capture "$X" -r pids.max=64 sh -c 'cat /proc/self/cgroup'
	assertEquals "exit ($err)" 0 "$rc"
	assertContains "ran in a transient cgroup" "$out" "cgexec2-"
}

# For real, in the guests only: a process that allocates past memory.max is killed.
test_memory_max_kills_for_real() {
	cgk_need_root || return 0
	cgk_need_vm "memory limits are tested in the VM guests (no process goes into the host's v1 memory hierarchy)" || return 0
	[ -n "$(where m memory)" ] || { cgk_skip "no memory controller"; return 0; }
	# a transient cgroup where memory is (the guests have no swap to spill into)
	cgk_capture "$X" -r memory.max=16M sh -c 'x=$(head -c 64000000 /dev/zero | tr "\0" a); echo ${#x}'
	assertNotEquals "killed, not done ($out $err)" 0 "$rc"
	assertNotEquals "not cgexec2's own failure ($err)" 125 "$rc"
	assertNotContains "never finished" "$out" 64000000
}

. "$SHUNIT2"
