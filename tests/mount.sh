#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgcreate2 --mount on a machine with no cgroup filesystem: runs for real only in the VM's
# "none" layout (tests/vm/run none -- tests/run mount); everywhere else it skips and says so.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
S=$SANDBOX_NAME

# Unmount every cgroup filesystem and the tmpfs under them (VM only: back to nothing mounted).
unmount_all_cgroups() {
	local m
	for m in $(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) ~ /^cgroup2?$/) print $5 }' /proc/self/mountinfo | sort -r); do
		umount "$m"
	done
	grep -q ' /sys/fs/cgroup ' /proc/self/mountinfo && umount /sys/fs/cgroup
	[ "$(cgk_layout)" = none ]
}

# A machine with no cgroup filesystem: the VM's "none" layout, never this host.
test_mount_from_nothing() {
	cgk_need_root || return 0
	if [ -z "${CGKIT_VM:-}" ] || [ "$(cgk_layout)" != none ]; then
		cgk_skip "needs a machine with no cgroup filesystem mounted (tests/vm/run none)"; return 0
	fi
	cgk_capture "$CG" --mount=legacy
	assertEquals "$err" 0 "$rc"
	assertEquals legacy "$(cgk_layout)"
	assertEquals "cpu,cpuacct co-mounted" "$(cgk_mnt cpu)" "$(cgk_mnt cpuacct)"
	assertTrue "cpu symlink" "[ -L /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.shares ]"
	assertTrue "memory" "[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]"
	# and the tools work on what it mounted
	cgk_capture "$CG" -p -g "cpu,memory:/$S/m"
	assertEquals "$err" 0 "$rc"
	"$CG" -x -g "cpu,memory:/$S/m" && "$CG" -x -g "cpu,memory:/$S"
	unmount_all_cgroups || { fail "unmount"; return 0; }

	cgk_capture "$CG" -v --mount=hybrid
	assertEquals "$err" 0 "$rc"
	assertContains "$out" "mounted cgroup2 at /sys/fs/cgroup/unified"
	assertEquals hybrid "$(cgk_layout)"
	unmount_all_cgroups || { fail "unmount"; return 0; }

	cgk_capture "$CG" -M -p "/$S/after-mount"
	assertEquals "$err" 0 "$rc"
	assertEquals unified "$(cgk_layout)"
	assertEquals /sys/fs/cgroup "$(cgk_mnt unified)"
	assertTrue "[ -d /sys/fs/cgroup/$S/after-mount ]"
	cgk_capture "$CG" -M
	assertEquals 0 "$rc"
	assertContains "$out" "already mounted (unified layout)"
	"$CG" -x -R "/$S"
}

. "$SHUNIT2"
