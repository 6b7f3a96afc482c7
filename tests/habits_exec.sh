#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgexec2 and the habits users bring (issue 12): the transient cgroup's name is its own option
# (--name), a word after a bare -t is COMMAND; an OOM kill is said as such (--stats, -v, the
# exit line). Live tests never place a process in the host's v1 memory hierarchy: the OOM kill
# runs for real in the VM guests only.
. "$(dirname "$0")/lib.sh"

X=$CGKIT_BIN/cgexec2
S=$SANDBOX_NAME

# The hierarchy with pids (v1 where mounted, else the unified one when its root enables it):
# PH (cgk_mnt name), PSB (the sandbox there).
need_pids() {
	cgk_need_root || return 1
	if [ -n "$(cgk_mnt pids)" ]; then
		PH=pids
	else
		cgk_need_v2 pids || return 1
		PH=unified
	fi
	PSB=$(cgk_sandbox "$PH") || { fail "cannot make the sandbox in $PH"; return 1; }
}

# ---- --name ----------------------------------------------------------------------------------

test_name_option() {
	need_pids || return 0
	cgk_capture "$X" -g "pids:$S" --name=foo cat /proc/self/cgroup
	assertEquals "--name=foo: exit ($err)" 0 "$rc"
	assertContains "--name=foo: COMMAND ran in /$S/foo" "$out" ":/$S/foo"
	assertTrue "--name=foo: removed afterwards" "[ ! -d $PSB/foo ]"

	# a separate word, as for any option with an argument; it implies -t
	cgk_capture "$X" -g "pids:$S" --name bar cat /proc/self/cgroup
	assertEquals "--name bar: exit ($err)" 0 "$rc"
	assertContains "--name bar: in /$S/bar" "$out" ":/$S/bar"

	# the attached forms stay
	cgk_capture "$X" -g "pids:$S" -tbaz cat /proc/self/cgroup
	assertContains "-tbaz" "$out" ":/$S/baz"
	cgk_capture "$X" -g "pids:$S" --transient=qux cat /proc/self/cgroup
	assertContains "--transient=qux" "$out" ":/$S/qux"
	# -t with --name: one name
	cgk_capture "$X" -g "pids:$S" -t --name=both cat /proc/self/cgroup
	assertContains "-t --name=both" "$out" ":/$S/both"

	# --keep: the named cgroup stays
	cgk_capture "$X" -g "pids:$S" --name=kept --keep true
	assertEquals "--keep: exit ($err)" 0 "$rc"
	assertTrue "--keep: /$S/kept stays" "[ -d $PSB/kept ]"
	rmdir "$PSB/kept"
}

test_name_usage() {
	cgk_capture "$X" --name=a/b true
	assertEquals "a/b: exit" 64 "$rc"
	assertContains "a/b: says why" "$err" "--name takes a plain cgroup name (no '/', not '.' or '..', no control characters), not 'a/b'"
	cgk_capture "$X" --name=.. true
	assertEquals "..: exit" 64 "$rc"
	cgk_capture "$X" -tone --name=two true
	assertEquals "two names: exit" 64 "$rc"
	assertContains "two names: says so" "$err" "two names for the transient cgroup: 'one' and 'two'"
	cgk_capture "$X" --name
	assertEquals "--name without NAME: exit" 64 "$rc"
}

# A word after a bare -t is COMMAND, never a name: documented, in --help and the man page.
test_bare_t_takes_no_name() {
	need_pids || return 0
	cgk_capture "$X" -g "pids:$S" -t echo foo
	assertEquals "-t echo foo: exit ($err)" 0 "$rc"
	assertEquals "-t echo foo: echo is COMMAND" foo "$out"
	cgk_capture "$X" -g "pids:$S" -t foo true
	assertEquals "-t foo true: foo is COMMAND, not found" 127 "$rc"
	assertContains "-t foo true: says foo is not found" "$err" "cgexec2: foo: No such file or directory"
	assertTrue "-t foo true: no cgroup foo" "[ ! -d $PSB/foo ]"
	assertEquals "-t foo true: nothing left in the sandbox" "" "$(find "$PSB" -mindepth 1 -type d)"

	cgk_capture "$X" --help
	assertContains "--help: a word after -t" "$(echo "$out" | tr -s ' \n' '  ')" "A word after a bare -t is COMMAND, never a name"
	assertContains "--help: --name" "$out" "--name=NAME"
}

# ---- where a transient cgroup is made --------------------------------------------------------

# Legacy, no -g: the transient cgroup goes to the hierarchies the -r files need, not to every
# v1 one (COMMAND was in a cgexec2-PID cgroup of all 13 hierarchies of the legacy guest for
# -r pids.max). Without -g it is made at the roots: in the VM guests only.
test_transient_v1_only_where_needed() {
	cgk_need_root || return 0
	cgk_need_vm "without -g the transient cgroup is made at the hierarchy roots: tested in the VM guests only" || return 0
	[ "$(cgk_layout)" = legacy ] || { cgk_skip "only on a legacy layout is \"/\" every v1 hierarchy ($(cgk_layout))"; return 0; }
	[ -n "$(cgk_mnt pids)" ] && [ -n "$(cgk_mnt cpu)" ] || { cgk_skip "no v1 pids and cpu"; return 0; }
	local n=need$$ all=all$$
	cgk_capture "$X" --name=$n -r pids.max=64 cat /proc/self/cgroup
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "in one hierarchy: $out" 1 "$(grep -c ":/$n\$" <<<"$out")"
	assertContains "pids" "$out" ":pids:/$n"
	cgk_capture "$X" --name=$n -r pids.max=64 -r cpu.weight=200 cat /proc/self/cgroup
	assertEquals "two files: two hierarchies: $out" 2 "$(grep -c ":/$n\$" <<<"$out")"
	assertContains "cpu too" "$out" "cpu,cpuacct:/$n"
	# bare -t: "/" is every v1 hierarchy, as the man page says
	cgk_capture "$X" --name=$all cat /proc/self/cgroup
	assertEquals "bare -t: every hierarchy" "$(wc -l <<<"$out")" "$(grep -c ":/$all\$" <<<"$out")"
	assertEquals "nothing left" "" "$(ls -d /sys/fs/cgroup/*/$n /sys/fs/cgroup/*/$all 2>/dev/null)"
}

# ---- the OOM killer ---------------------------------------------------------------------------

# The memory hierarchy's sandbox and the -g spec for it: unified where the root enables memory
# (the unified VM), else v1 memory (legacy and hybrid VMs). Guests only: no process of ours goes
# into the host's v1 memory hierarchy.
need_memory() {
	cgk_need_root || return 1
	cgk_need_vm "OOM kills are tested in the VM guests (no process goes into the host's v1 memory hierarchy, and the host's unified one has no memory controller)" || return 1
	if [ -n "$(cgk_mnt memory)" ]; then
		MSB=$(cgk_sandbox memory) MSPEC=memory:$S MLABEL=memory
		MFILE=memory.limit_in_bytes MSRC=memory.oom_control
	elif grep -qw memory "$(cgk_mnt unified)/cgroup.subtree_control" 2>/dev/null; then
		MSB=$(cgk_sandbox unified) MSPEC=$S MLABEL=unified MFILE=memory.max MSRC=memory.events
	else
		cgk_skip "no memory controller ($(cgk_layout))"
		return 1
	fi
}

# COMMAND itself grows past memory.max (tail buffers a line that never ends): killed, and said.
test_oom_kill_of_command_said() {
	need_memory || return 0
	cgk_capture timeout 60 "$X" -g "$MSPEC" --name=oom -r memory.max=16M -s -v tail /dev/zero
	assertEquals "killed by SIGKILL ($err)" 137 "$rc"
	assertContains "--stats: oom_kill" "$err" " oom_kill=1"
	assertContains "-v: oom_kill" "$err" "cgexec2: cgroup /$S/oom ($MLABEL): oom_kill=1 ($MSRC)"
	assertEquals "the last line names the cause" "cgexec2: cgroup /$S/oom ($MLABEL): run tail: the command was killed by the OOM killer ($MFILE 16M)" "$(echo "$err" | tail -n 1)"
	assertTrue "removed" "[ ! -d $MSB/oom ]"

	# without -s and -v: the line all the same, one line
	cgk_capture timeout 60 "$X" -g "$MSPEC" --name=oom2 -r memory.max=16M tail /dev/zero
	assertEquals "quiet: exit" 137 "$rc"
	assertEquals "quiet: one line" "cgexec2: cgroup /$S/oom2 ($MLABEL): run tail: the command was killed by the OOM killer ($MFILE 16M)" "$err"
}

# A child is killed, COMMAND goes on and exits 0: its status stays, the kill is said.
test_oom_kill_of_child_said() {
	need_memory || return 0
	cgk_capture timeout 60 "$X" -g "$MSPEC" --name=oomc -r memory.max=16M sh -c 'tail /dev/zero; echo survived'
	assertEquals "COMMAND's status ($err)" 0 "$rc"
	assertEquals "COMMAND went on" survived "$out"
	# the shell may say "Killed" about its child first
	assertEquals "said, last" "cgexec2: cgroup /$S/oomc ($MLABEL): run sh: the OOM killer killed 1 process in it ($MFILE 16M)" "$(echo "$err" | tail -n 1)"
	assertEquals "said once" 1 "$(echo "$err" | grep -c 'OOM killer')"
}

# No OOM kill: --stats says oom_kill=0 where memory is counted, and no line blames it.
test_no_oom_kill() {
	need_memory || return 0
	cgk_capture "$X" -g "$MSPEC" -r memory.max=64M -s -v true
	assertEquals "exit ($err)" 0 "$rc"
	assertContains "--stats: oom_kill=0" "$err" " oom_kill=0"
	assertNotContains "no blame" "$err" "OOM killer"
}

test_oom_documented() {
	cgk_capture "$X" --help
	assertContains "--help --stats" "$(echo "$out" | tr -s ' \n' '  ')" "OOM kills"
}

# The man page says all of it (its source: the VM guests have the tools, not the tree).
test_man_page() {
	local man=$CGKIT_TOP/man/cgexec2.1.scd
	[ -f "$man" ] || { cgk_skip "no man page source here ($man)"; return 0; }
	assertTrue "bare -t" "grep -q 'A word after a bare \*-t\* is _COMMAND_, never a' $man"
	assertTrue "--name" "grep -q '^\*--name\*=_NAME_' $man"
	assertTrue "the OOM killer" "grep -q 'the command was killed by the OOM killer (memory.max 64M)' $man"
}

. "$SHUNIT2"
