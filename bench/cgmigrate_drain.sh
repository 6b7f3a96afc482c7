#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fork storm at pids.max=300 (tests/helpers/forkbomb: every process forks each millisecond),
# drained by cgmigrate -F into a sibling cgroup, against its floor (bench/cgmigrate_drain_floor:
# freeze the source and the destination, one listing, one write per pid, thaw; -n: the listing
# and the writes alone). With and without --freeze, A/B interleaved (floor, tool, floor, tool:
# the guest's speed moves with the host's load, so only pairs run side by side are compared).
# Each line: the mode, the seconds, the processes the source still held, the tool's last line.
# The ratio lines are the frozen drain's time over its floor's, each pair's and their median.
# A storm of 300 must spare a shared host: on the host this script runs itself in the unified
# (v2: cgroup.freeze) and legacy (v1: the freezer hierarchy) guests of tests/vm/run, one after
# the other, and skips (saying why) where the VM cannot run; in a guest (CGKIT_VM set) it runs
# the storms. Environment: PAIRS (2), MAX (300), LAYOUTS ("unified legacy"), TIMEOUT (10s: the
# unfrozen drain's --timeout, which cannot empty a storm and stops there).
set -u
top=$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)
[ -x "$top/cgmigrate" ] || top=$PWD
M=${CGKIT_BIN:-$top}/cgmigrate
C=${CGKIT_BIN:-$top}/cgcreate2
OBJ=${CGKIT_OBJ:-$top/.obj}
PAIRS=${PAIRS:-2}
MAX=${MAX:-300}
TIMEOUT=${TIMEOUT:-10s}
say() { echo "cgmigrate drain: $*"; }

if [ -z "${CGKIT_VM:-}" ]; then
	floor=$OBJ/bench/cgmigrate_drain_floor
	[ "$(id -u)" -eq 0 ] || { say "skipped: needs root"; exit 0; }
	[ -x "$floor" ] && [ -x "$OBJ/tests/helpers/forkbomb" ] ||
		{ say "skipped: build first (make bench builds the floor, make tests-build the storm)"; exit 0; }
	command -v qemu-system-x86_64 >/dev/null ||
		{ say "skipped: a storm of $MAX processes runs only in a VM guest, and qemu-system-x86_64 is missing"; exit 0; }
	rc=0
	for l in ${LAYOUTS:-unified legacy}; do
		say "layout $l: tests/vm/run $l (host load $(cut -d' ' -f1-3 /proc/loadavg))"
		# the guest's / is this host's (tests/vm/run): the floor by its path here; the script
		# as the command
		"$top/tests/vm/run" "$l" -- bash -c "PAIRS=$PAIRS MAX=$MAX TIMEOUT=$TIMEOUT FLOOR=$floor; $(cat "$0")" 2>&1 |
			grep -E '^cgmigrate drain|^vm: ' || rc=1
	done
	exit $rc
fi

# in the guest: in the tree's copy, where ./cgmigrate and ./.obj are
mnt() { # $1: unified, or a v1 controller
	awk -v want="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		if (want == "unified") { if ($(i + 1) == "cgroup2") { print $5; exit } ; next }
		if ($(i + 1) == "cgroup" && index("," $(i + 3) ",", "," want ",")) { print $5; exit } }' /proc/self/mountinfo
}
S=cgkit-test.$$
FLOOR=${FLOOR:-cgmigrate_drain_floor}
[ -x "$FLOOR" ] || command -v "$FLOOR" >/dev/null || { say "FAILED: no floor ($FLOOR) in the guest"; exit 1; }
# a thawed storm of 300 starves a nice 0 shell for tens of seconds under TCG (the legacy guest
# timed the floor at 49 s around its own 5 s): the timing shell and the tools at -20, the storm
# at 0
renice -n -20 $$ >/dev/null 2>&1
U=$(mnt unified)
if [ -n "$U" ] && grep -qw pids "$U/cgroup.controllers" 2>/dev/null; then
	v=v2 P=$U F= PFX=
	grep -qw pids "$U/cgroup.subtree_control" || echo +pids >"$U/cgroup.subtree_control"
else
	# -z finds the freezer hierarchy's cgroup of the same path
	v=v1 P=$(mnt pids) F=$(mnt freezer) PFX=pids:
	[ -n "$P" ] && [ -n "$F" ] || { say "skipped: no v2 pids nor v1 pids and freezer hierarchies"; exit 0; }
fi
bomb=
cleanup() { # v2: cgroup.kill; v1: every process of the freezer's cgroups killed while frozen
	local d
	[ -n "$bomb" ] && kill -KILL "$bomb" 2>/dev/null
	for d in "$P/$S/storm" "$P/$S/calm"; do
		[ -f "$d/cgroup.kill" ] && echo 1 >"$d/cgroup.kill"
	done
	for d in ${F:+"$F/$S/storm" "$F/$S/calm"}; do
		[ -d "$d" ] || continue
		echo FROZEN >"$d/freezer.state"
		while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$d/cgroup.procs"
		echo THAWED >"$d/freezer.state"
	done
	for d in "$P/$S/storm" "$P/$S/calm" ${F:+"$F/$S/storm" "$F/$S/calm"}; do
		[ -d "$d" ] || continue
		[ -f "$d/cgroup.freeze" ] && echo 0 >"$d/cgroup.freeze"
		for _ in $(seq 600); do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
		[ -d "$d" ] && say "clean-up: $d is still there after 60 s: $(wc -l <"$d/cgroup.procs") processes, $(head -c 200 "$d/cgroup.procs" | tr '\n' ' ')"
	done
	# the next storm starts from nothing: the killed ones are reaped
	for _ in $(seq 100); do [ "$(cat "$P/$S/pids.current")" -eq 0 ] && break; sleep 0.1; done
}
trap 'cleanup; rmdir "$P/$S" ${F:+"$F/$S"} 2>/dev/null' EXIT
mkdir "$P/$S" ${F:+"$F/$S"} || exit 1
[ "$v" = v2 ] && echo +pids >"$P/$S/cgroup.subtree_control"

# A storm at MAX in $S/storm (and the freezer's $S/storm on v1), an empty $S/calm beside it.
# pids.max is $S's: the processes moved count on (unfrozen, they fork on in calm).
echo "$MAX" >"$P/$S/pids.max"
storm() {
	local n=0
	local err
	err=$(mkdir "$P/$S/storm" "$P/$S/calm" ${F:+"$F/$S/storm" "$F/$S/calm"} 2>&1) || { say "storm: $err"; return 1; }
	nice -n 20 bash -c 'for d in "${@:3}"; do echo $$ >"$d/cgroup.procs"; done; exec "$1" "$2"' _ \
		"$OBJ/tests/helpers/forkbomb" 120 "$P/$S/storm" ${F:+"$F/$S/storm"} &
	bomb=$!
	for _ in $(seq 300); do
		n=$(cat "$P/$S/storm/pids.current")
		[ "$n" -ge $((MAX * 9 / 10)) ] && break
		sleep 0.1
	done
	before=$n
}
now() { echo "${EPOCHREALTIME/./}"; }
declare -A secs=()
run() { # $1: mode; a storm, ended that way, one line
	local mode=$1 t0 el out left rc
	storm || { say "$mode: the storm's cgroups could not be made"; return 1; }
	t0=$(now)
	case $mode in
	floor-z) out=$("$FLOOR" "$P/$S/storm" "$P/$S/calm" ${F:+"$F/$S/storm" "$F/$S/calm"} 2>&1) ;;
	floor) out=$("$FLOOR" -n "$P/$S/storm" "$P/$S/calm" 2>&1) ;;
	drain-z) out=$("$M" -v -z --timeout=60s -F "$PFX/$S/storm" -g "$PFX/$S/calm" 2>&1) ;;
	drain) out=$("$M" -v --timeout="$TIMEOUT" -F "$PFX/$S/storm" -g "$PFX/$S/calm" 2>&1) ;;
	esac
	rc=$?
	el=$((($(now) - t0) / 1000))
	left=$(wc -l <"$P/$S/storm/cgroup.procs")
	# a failed run has no time to compare: the ratio is of pairs that both did their work
	[ "$rc" -eq 0 ] && secs[$mode]+=" $el" || secs[$mode]+=" -"
	say "$v $mode: $(printf '%d.%03d' $((el / 1000)) $((el % 1000))) s, exit $rc, before $before, left $left: $(echo "$out" | tail -n 1)"
	cleanup
	bomb=
}
say "$v in the $CGKIT_VM guest, pids.max=$MAX, $PAIRS pairs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$PAIRS"); do
	run floor-z
	run drain-z
done
run floor
run drain
# the kernel's cost of a move without a storm: MAX sleeping processes, one write each
mkdir "$P/$S/calm" "$P/$S/idle"
for _ in $(seq "$MAX"); do sleep 600 & done
for p in $(jobs -p); do echo "$p" >"$P/$S/idle/cgroup.procs"; done
say "$v idle: $("$FLOOR" -n "$P/$S/idle" "$P/$S/calm" 2>&1) ($MAX sleeping processes, no storm)"
kill -KILL $(jobs -p) 2>/dev/null
wait 2>/dev/null
for _ in $(seq 100); do rmdir "$P/$S/idle" "$P/$S/calm" 2>/dev/null && break; sleep 0.1; done
read -ra f <<<"${secs[floor-z]}"
read -ra d <<<"${secs[drain-z]}"
ratios=()
for i in "${!f[@]}"; do
	[[ ${d[i]:-} =~ ^[0-9]+$ && ${f[i]} =~ ^[0-9]+$ ]] && [ "${f[i]}" -gt 0 ] && ratios+=("$(awk -v a="${d[i]}" -v b="${f[i]}" 'BEGIN { printf "%.2f", a / b }')")
done
[ ${#ratios[@]} -gt 0 ] &&
	say "$v ratio drain-z/floor-z (frozen drain of $MAX over its floor): ${ratios[*]}, median $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) "x" }')"
exit 0
