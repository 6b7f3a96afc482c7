#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's tour, every command exactly as written there, in order, in one shell: it creates
# /services at the top of the hierarchies, so it runs only in the VM guests (CGKIT_VM), where
# the machine is ours. The commands are read from README.md, not copied here.
. "$(dirname "$0")/lib.sh"

# The indented lines between "## A tour" and the next paragraph, without the indentation.
tour_lines() {
	sed -n '/^## A tour$/,/^Every tool names/p' "$CGKIT_TOP/README.md" | sed -n 's/^    //p'
}

# every hierarchy's /services, deepest first (what a failed tour may leave)
tour_leftovers() {
	local m
	for m in $(cgk_all_mnts); do
		[ -d "$m/services" ] && find "$m/services" -depth -type d
	done
}

teardown_test() {
	local d p
	for d in $(tour_leftovers); do
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	done
	sleep 0.2
	for d in $(tour_leftovers); do rmdir "$d" 2>/dev/null; done
	return 0
}

test_tour_as_written() {
	cgk_need_root || return 0
	cgk_need_vm "creates /services at the hierarchies' tops: only in the VM (CGKIT_VM)" || return 0
	local script dir
	[ "$(tour_lines | grep -c '^sudo ./')" -ge 10 ] || { fail "no tour found in README.md"; return; }
	# ./TOOL as the README says: a directory with the tools built for this run (SAN or not)
	dir=$(mktemp -d)
	for t in cgcreate2 cgexec2 cgmigrate cgtop2; do ln -s "$CGKIT_BIN/$t" "$dir/$t"; done
	# root already: sudo is the command it is given; a failing line stops the tour, named
	script="sudo() { \"\$@\"; }
set -e
trap 'echo \"tour: this line failed (\$?): \$BASH_COMMAND\" >&2' ERR
$(tour_lines)"
	cgk_capture timeout 240 bash -c "cd '$dir' && $script"
	rm -rf "$dir"
	assertEquals "the tour ran ($err)" 0 "$rc"
	assertContains "-v said what it wrote" "$out" "set cpu.weight=200 in cgroup /services/db"
	assertContains "cgexec2 --stats summed up" "$err" "cgexec2: stats: wall="
	assertContains "one JSON line a cgroup" "$out" '"path":"/services/web"'
	assertContains "the event" "$out" "/services/db"
	assertEquals "nothing left behind" "" "$(tour_leftovers)"
}

. "$SHUNIT2"
