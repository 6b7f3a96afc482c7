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
	assertEquals "a/b: exit" 125 "$rc"
	assertContains "a/b: says why" "$err" "--name takes a plain cgroup name (no '/', not '.' or '..', no control characters), not 'a/b'"
	cgk_capture "$X" --name=.. true
	assertEquals "..: exit" 125 "$rc"
	cgk_capture "$X" -tone --name=two true
	assertEquals "two names: exit" 125 "$rc"
	assertContains "two names: says so" "$err" "two names for the transient cgroup: 'one' and 'two'"
	cgk_capture "$X" --name
	assertEquals "--name without NAME: exit" 125 "$rc"
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
	local man=$CGKIT_TOP/man/cgexec2.1.scd
	assertTrue "man page: bare -t" "grep -q 'A word after a bare \*-t\* is _COMMAND_, never a' $man"
	assertTrue "man page: --name" "grep -q '^\*--name\*=_NAME_' $man"
}

. "$SHUNIT2"
