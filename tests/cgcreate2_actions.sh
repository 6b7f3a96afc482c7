#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgcreate2 -r memory.reclaim=SIZE and -r memory.peak=reset, the memory controller's one-shot
# actions (common/ops/act.c's cg_act_poke, through guard.c): refused with the kernel's reason
# and exit 69 where the kernel has no such action (the v1 memory controller; memory.peak before
# Linux 6.12); memory.reclaim for real where cgroup2's memory controller has it (the unified
# guest: tests/vm/run unified -- tests/run cgcreate2_actions): memory.current drops.
. "$(dirname "$0")/lib.sh"

CG=$CGKIT_BIN/cgcreate2
S=$SANDBOX_NAME
_pids=()

teardown_test() {
	cgk_kill_pids
	return 0
}

test_usage() {
	cgk_need_root || return 0
	local m
	m=$(cgk_mnt memory)
	[ -n "$m" ] || m=$(cgk_mnt unified)
	cgk_sandbox memory >/dev/null 2>&1 || cgk_sandbox unified >/dev/null
	cgk_capture "$CG" -p -g "memory:/$S" -r memory.peak=now
	assertEquals "peak's value exit" 1 "$rc"
	assertEquals "peak's value" "cgcreate2: /$S: reset the peak: memory.peak takes reset, not 'now'" "$err"
	cgk_capture "$CG" -p -g "memory:/$S" -r memory.reclaim=lots
	assertEquals "reclaim's value exit" 1 "$rc"
	assertEquals "reclaim's value" "cgcreate2: /$S: reclaim memory: memory.reclaim takes bytes with K, M, G or T, not 'lots'" "$err"
}

# The v1 memory controller (this host's hybrid layout) has neither file: one line each, the
# kernel's answer and what v1 has instead, exit 69; the cgroup made (its settings kept)
test_v1_refused() {
	cgk_need_root || return 0
	local m
	m=$(cgk_sandbox memory 2>/dev/null)
	[ -n "$m" ] && [ -d "$m" ] || { cgk_skip "no v1 memory hierarchy ($(cgk_layout))"; return 0; }
	cgk_capture "$CG" -g "memory:/$S/a" -r memory.reclaim=1M
	assertEquals "reclaim exit" 69 "$rc"
	assertEquals "reclaim" "cgcreate2: cgroup /$S/a (memory): reclaim memory: no memory.reclaim here (No such file or directory): the v1 memory controller has none (cgroup2's has it from Linux 5.19 on)" "$err"
	assertTrue "the cgroup made before" "[ -d '$m/a' ]"
	cgk_capture "$CG" -p -g "memory:/$S/a" -r memory.peak=reset
	assertEquals "peak exit" 69 "$rc"
	assertEquals "peak" "cgcreate2: cgroup /$S/a (memory): reset the peak: no memory.peak here (No such file or directory): the v1 memory controller's peak is memory.max_usage_in_bytes, reset by writing 0 to it" "$err"
}

# The guard's rule, as for every action: the root is refused before anything is written
test_root_refused() {
	cgk_need_root || return 0
	cgk_capture "$CG" -p -g memory:/ -r memory.reclaim=1M
	assertNotEquals "root exit" 0 "$rc"
	assertContains "root" "$err" "cgcreate2: cgroup / ("
	assertContains "root: the guard's rule" "$err" "reclaim memory: "
}

# cgroup2's memory controller on Linux 6.1: memory.peak is read-only (a write resets it from
# 6.12 on; root's write is the kernel's EINVAL, the file having no write method), memory.reclaim reclaims: a process reads files into the page cache of its cgroup
# and sleeps; after memory.reclaim, memory.current is lower.
test_v2_reclaim_and_peak() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	local u before after ready=$_cgk_tmp/ready
	u=$(cgk_sandbox unified)
	echo +memory >"$u/cgroup.subtree_control"
	cgk_capture "$CG" -p "/$S/r"
	assertEquals "made" 0 "$rc"
	if [ -w "$u/r/memory.peak" ] && ! [ "$(stat -c %a "$u/r/memory.peak")" = 444 ]; then
		cgk_capture "$CG" -p -v "/$S/r" -r memory.peak=reset
		assertEquals "peak reset where the kernel writes it" 0 "$rc"
	else
		cgk_capture "$CG" -p "/$S/r" -r memory.peak=reset
		assertEquals "peak exit" 69 "$rc"
		assertEquals "peak: the kernel's answer" "cgcreate2: cgroup /$S/r (unified): reset the peak: write memory.peak: Invalid argument: this kernel ($(uname -r)) makes memory.peak read-only; a write resets it from Linux 6.12 on" "$err"
	fi
	[ -e "$u/r/memory.reclaim" ] || { cgk_skip "no memory.reclaim in this kernel ($(uname -r))"; return 0; }
	rm -f "$ready"
	# page cache: reclaimable without swap (anonymous memory is not)
	sh -c 'echo $$ >"$1/cgroup.procs"; cat /usr/lib/x86_64-linux-gnu/*.so* 2>/dev/null | head -c $((48 << 20)) >/dev/null; : >"$2"; exec sleep 300' _ "$u/r" "$ready" &
	cgk_execd $! sleep
	_pids+=($!)
	CGK_WAIT_TICKS=3000 cgk_wait_for test -e "$ready" || { fail "hung: the reader did not finish"; return 0; }
	before=$(cat "$u/r/memory.current")
	assertTrue "page cache charged: $before" "[ $before -ge $((16 << 20)) ]"
	cgk_capture "$CG" -p -v "/$S/r" -r memory.reclaim=8M
	assertEquals "reclaim exit ($err)" 0 "$rc"
	assertEquals "reclaim said" "memory.reclaim=8M in cgroup /$S/r: done" "$out"
	after=$(cat "$u/r/memory.current")
	assertTrue "memory.current dropped: $before -> $after" "[ $after -le $((before - (8 << 20))) ]"
}

. "$SHUNIT2"
