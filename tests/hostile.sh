#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile input, the start of a corpus: what an attacker (or a buggy admin) can plant under a
# cgroup or pass as an argument. A tmpfs mounted over a sandbox cgroup in a private mount
# namespace (cgroupfs itself allows no FIFO and no fake file) with a fake cgroup.procs or
# FIFOs named like interface files; cgroup names and -r values with ESC, newlines, C1
# controls and invalid UTF-8 echoed in error lines. Nothing outside the sandbox is touched;
# the only processes signalled are the sleepers a test starts, by PID.
. "$(dirname "$0")/lib.sh"

C=$CGKIT_BIN/cgcreate2
M=$CGKIT_BIN/cgmigrate
T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
KIDS=()

test_teardown() {
	local p
	for p in "${KIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	KIDS=()
}

can_unshare() {
	command -v unshare >/dev/null && unshare -m --propagation private true 2>/dev/null
}

# A sleeper of our own, left where the test runs (never moved): its PID in $SLEEPER.
sleeper() {
	sleep 300 &
	SLEEPER=$!
	KIDS+=("$SLEEPER")
}

# In a private mount namespace: a tmpfs over directory $1, the shell code $2 run inside it to
# plant files, then the rest under `timeout 10`. Sets $rc $out $err; 124 is a hang.
over_tmpfs() {
	local dir=$1 plant=$2
	shift 2
	cgk_capture unshare -m --propagation private bash -c '
		dir=$1 plant=$2
		shift 2
		mount -t tmpfs cgkit-hostile "$dir" || exit 99
		(cd "$dir" && eval "$plant") || exit 98
		exec timeout -k 5 10 "$@"' _ "$dir" "$plant" "$@"
}

# stderr is one line, and no byte of it is a control character other than its newline.
assert_one_safe_line() {
	assertEquals "$1: one line on stderr: $err" 1 "$(printf '%s\n' "$err" | wc -l)"
	assertFalse "$1: a raw control byte on stderr: $(printf '%s' "$err" | od -c | head -n 3)" \
		"printf '%s' \"\$err\" | LC_ALL=C grep -q '[[:cntrl:]]'"
	assertFalse "$1: a raw C1 control or invalid UTF-8 on stderr" \
		"printf '%s' \"\$err\" | LC_ALL=C grep -qP '\\xc2[\\x80-\\x9f]|\\xff'"
}

# (a) a fake cgroup.procs on a tmpfs over a cgroup: -x -R -k must not signal what it lists.
kill_through_tmpfs() {
	local h=$1 spec=$2 sb
	sb=$(cgk_mnt "$h")/$S
	mkdir "$sb/victim" || { fail "mkdir $sb/victim"; return; }
	sleeper
	over_tmpfs "$sb/victim" \
		"echo $SLEEPER >cgroup.procs; echo $SLEEPER >tasks; printf 'populated 1\n' >cgroup.events" \
		"$C" -x -R -k --grace=0 "$spec"
	assertTrue "$h: the listed sleeper is alive" "kill -0 $SLEEPER"
	assertEquals "$h: exit ($err)" 1 "$rc"
	assert_one_safe_line "$h"
	assertTrue "$h: says it is not cgroupfs: $err" \
		"printf '%s' \"\$err\" | grep -qE 'not a cgroup filesystem|not this hierarchy.s cgroupfs'"
	rmdir "$sb/victim"
}

test_kill_through_tmpfs_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	can_unshare || { cgk_skip "no unshare -m here"; return 0; }
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	kill_through_tmpfs unified "/$S/victim"
}

test_kill_through_tmpfs_v1() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	can_unshare || { cgk_skip "no unshare -m here"; return 0; }
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	kill_through_tmpfs pids "pids:/$S/victim"
}

# (b) FIFOs named like interface files: nothing may block on them.
FIFOS="mkfifo cgroup.procs cgroup.threads tasks cgroup.events cgroup.freeze cgroup.kill \
cgroup.type cgroup.controllers cgroup.subtree_control cgroup.stat cpu.stat cpu.pressure \
memory.current memory.stat memory.pressure io.stat io.pressure pids.current freezer.state"

test_fifo_does_not_block() {
	local sb
	cgk_need_root || return 0
	cgk_need_unified || return 0
	can_unshare || { cgk_skip "no unshare -m here"; return 0; }
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	sb=$(cgk_mnt unified)/$S
	mkdir "$sb/fifo" || { fail "mkdir"; return; }

	over_tmpfs "$sb/fifo" "$FIFOS" "$C" -x "/$S/fifo"
	assertEquals "cgcreate2 -x: exit, 124 is a hang ($err)" 1 "$rc"
	assert_one_safe_line "cgcreate2 -x"
	assertContains "cgcreate2 -x: why" "$err" "cgcreate2: cgroup /$S/fifo (unified): "

	over_tmpfs "$sb/fifo" "$FIFOS" "$M" -z -F "/$S/fifo" -g "/$S"
	assertEquals "cgmigrate -z: exit, 124 is a hang ($err)" 1 "$rc"
	assert_one_safe_line "cgmigrate -z"
	assertContains "cgmigrate -z: why" "$err" "cgmigrate: cgroup /$S/fifo (unified): "

	# the sampler opens its files itself (common/stats.c): no hang, nothing read from a FIFO
	over_tmpfs "$sb/fifo" "$FIFOS" "$T" -b -n 1 "/$S/fifo"
	assertNotEquals "cgtop2: no hang" 124 "$rc"
	assertTrue "cgtop2: exit 0 or 1 ($rc: $err)" "[ $rc -le 1 ]"
	rmdir "$sb/fifo"
}

# -r onto a file planted on a tmpfs: refused (writes were checked before; they stay so).
test_regular_file_planted_is_not_written() {
	local sb
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	can_unshare || { cgk_skip "no unshare -m here"; return 0; }
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	sb=$(cgk_mnt pids)/$S
	mkdir "$sb/w" || { fail "mkdir"; return; }
	over_tmpfs "$sb/w" ": >pids.max" "$C" -p -g "pids:/$S/w" -r pids.max=5
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "-r on tmpfs"
	rmdir "$sb/w"
}

# Quoting: values and names the user or the kernel hands over, echoed in one safe line.
test_quote_set_value() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	cgk_capture "$C" -g "pids:/$S/q" -r "pids.max=$(printf '\e[31mbad\e[0m\nsecond line')"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "-r value"
	assertContains "escaped" "$err" '\x1b[31mbad\x1b[0m'
}

test_quote_set_file_name() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	cgk_capture "$C" -r "$(printf 'cpu.we\e]0;owned\aight')=1" "/$S/q"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "-r file"
	assertContains "escaped" "$err" 'cpu.we\x1b]0;owned\x07ight'
}

# Names that pass the spec check (no C0 control) but are not printable UTF-8.
test_quote_argument_name() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	cgk_capture "$C" -x "/$S/$(printf 'no\xc2\x9b2J\xffpe')"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "argument"
	assertContains "escaped" "$err" 'no\xc2\x9b2J\xffpe'
}

# A cgroup name from the kernel's listing: anything but "/" is a valid cgroup name.
test_quote_kernel_name() {
	local sb name
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	sb=$(cgk_mnt unified)/$S
	# the kernel refuses a newline in a cgroup name, not ESC or a tab
	name=$(printf 'k\e[7mX\e[2Kforged: line\t')
	mkdir -p "$sb/p/$name" || { fail "mkdir"; return; }
	sleeper
	echo "$SLEEPER" >"$sb/p/$name/cgroup.procs" || { fail "move"; return; }
	cgk_capture "$C" -x -R "/$S/p"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "listed name"
	assertContains "escaped" "$err" 'k\x1b[7mX\x1b[2Kforged: line\t'
	kill -9 "$SLEEPER"
	cgk_wait_for test ! -s "$sb/p/$name/cgroup.procs"
}

# 100 KB of value (an argument's limit is 128 KB) is cut, with "...", not echoed whole.
test_quote_bound() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	cgk_capture "$C" -g "pids:/$S/q" -r "pids.max=$(head -c 100000 /dev/zero | tr '\0' '\033')"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "100 KB value"
	assertTrue "bounded: ${#err} bytes" "[ ${#err} -lt 4096 ]"
	assertContains "cut with ..." "$err" '...'
}

. "$SHUNIT2"
