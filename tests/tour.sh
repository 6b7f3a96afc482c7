#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's tour, every command exactly as written there, in order, in one shell, and the
# effect its limits must have: the processes are in every hierarchy that holds the cgroup's
# limits (on hybrid the v1 twins too), and pids.max stops a fork loop. It creates /cgkit-tour at
# the top of the hierarchies and places processes in v1 memory, so it runs only in the VM
# guests (CGKIT_VM), where the machine is ours. The commands are read from README.md, not
# copied here.
. "$(dirname "$0")/lib.sh"

TOUR=cgkit-tour

# The indented lines between "## A tour" and the next paragraph, without the indentation.
tour_lines() {
	sed -n '/^## A tour$/,/^Every tool names/p' "$CGKIT_TOP/README.md" | sed -n 's/^    //p'
}

# every hierarchy's /cgkit-tour, deepest first (what a failed tour may leave)
tour_leftovers() {
	local m
	for m in $(cgk_all_mnts); do
		[ -d "$m/$TOUR" ] && find "$m/$TOUR" -depth -type d
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

# What the tour's shell runs before it removes the cgroups: the effect, as lines for the test.
# Each hierarchy where the tour made /cgkit-tour/db with the drained processes, and the fork
# loop's fate under /cgkit-tour/web's pids.max=100.
effect_hook() {
	cat <<HOOK
tour_effect() {
	local m n pe
	for m in $(cgk_all_mnts | tr '\n' ' '); do
		[ -f "\$m/$TOUR/db/cgroup.procs" ] || continue
		n=\$(wc -l <"\$m/$TOUR/db/cgroup.procs")
		echo "EFFECT db \$m \$n"
	done
	# alive until the removal's kill: under TCG a fork and exec take tens of ms, and sleepers
	# that end before the last starts never reach the limit together
	./cgexec2 -g /$TOUR/web -- sh -c 'p=; i=0; while [ \$i -lt 150 ]; do sleep 120 & p="\$p \$!"; i=\$((\$i + 1)); done; kill \$p' 2>/dev/null || true
	for m in $(cgk_all_mnts | tr '\n' ' '); do
		pe=\$m/$TOUR/web/pids.events
		[ -f "\$pe" ] && echo "EFFECT pids.events \$(sed -n 's/^max //p' "\$pe")"
	done
	return 0
}
HOOK
}

test_tour_as_written() {
	cgk_need_root || return 0
	cgk_need_vm "creates /$TOUR at the hierarchies' tops and places processes in v1 memory: only in the VM (CGKIT_VM)" || return 0
	local script dir lines m n want_db=0 got_db=0
	[ "$(tour_lines | grep -c '^\./cg')" -ge 10 ] || { fail "no tour found in README.md"; return; }
	# ./TOOL as the README says: a directory with the tools built for this run (SAN or not)
	dir=$(mktemp -d)
	for t in cgcreate2 cgexec2 cgmigrate cgtop2; do ln -s "$CGKIT_BIN/$t" "$dir/$t"; done
	# the effect is read just before the removal; a failing line stops the tour, named
	lines=$(tour_lines | sed 's|^\./cgcreate2 -x |tour_effect; &|')
	script="$(effect_hook)
set -e
trap 'echo \"tour: this line failed (\$?): \$BASH_COMMAND\" >&2' ERR
$lines"
	cgk_capture timeout 300 bash -c "cd '$dir' && $script"
	rm -rf "$dir"
	assertEquals "the tour ran ($err)" 0 "$rc"
	assertContains "-v said what it wrote" "$out" "set cpu.weight=200 in cgroup /$TOUR/db"
	assertContains "cgexec2 --stats summed up" "$err" "cgexec2: stats: wall="
	assertContains "one JSON line a cgroup" "$out" "\"path\":\"/$TOUR/web\""
	assertContains "the event" "$out" "/$TOUR/db"
	# /proc/self/cgroup of the tour's cgexec2: in /cgkit-tour/web wherever a limit lives
	case $(cgk_layout) in
	unified) assertContains "unified member" "$out" "0::/$TOUR/web" ;;
	legacy) assertContains "pids member" "$out" ":pids:/$TOUR/web" ;;
	hybrid)
		assertContains "unified member" "$out" "0::/$TOUR/web"
		assertContains "pids twin" "$out" ":pids:/$TOUR/web"
		assertContains "memory twin" "$out" ":memory:/$TOUR/web"
		;;
	esac
	# the two sleepers, drained into db, are in db in every hierarchy that has db
	while read -r _ _ m n; do
		want_db=$((want_db + 1))
		[ "$n" -ge 2 ] && got_db=$((got_db + 1))
		[ "$n" -ge 2 ] || echo "db in $m holds $n processes" >&2
	done < <(echo "$out" | grep '^EFFECT db ')
	assertTrue "db is somewhere" "[ $want_db -gt 0 ]"
	assertEquals "the drained processes in every hierarchy of db" "$want_db" "$got_db"
	n=$(echo "$out" | sed -n 's/^EFFECT pids.events //p' | head -1)
	assertTrue "pids.max=100 stopped the fork loop: $(echo "$out" | grep '^EFFECT' | tr '\n' ' ')" "[ '${n:-0}' -gt 0 ]"
	assertEquals "nothing left behind" "" "$(tour_leftovers)"
}

. "$SHUNIT2"
