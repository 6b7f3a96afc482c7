#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgmigrate (verified, and with --no-verify) against its floor (bench/cgmigrate_floor.c: one
# write(2) per pid and cgroup.procs) and against libcgroup's cgclassify, on the same moves:
# N idle processes moved from one v1 cgroup to another and back, best of R, for N = 2000 and
# 10000, single- and multi-threaded, one and three hierarchies. Then the drain of a fork
# storm, with and without --freeze.
# Prints ratios: against the floor, and (/vfl) against the floor plus the one listing read
# that cgmigrate's verification needs (vfloor: the kernel builds and sorts a v1 listing per
# read, so that read alone is 10-15% of the floor at 10,000 pids). The ratios are of wall times;
# the CPU times (user + system of the process and its threads: with several targets a helper
# thread reads the first listing beside the other writes) of the floor with its listing and of
# cgmigrate are printed too.
# Sandboxes: cgkit-test.<pid> in cpu, cpuacct, pids and freezer, removed at exit.
# Environment: SIZES ("2000 10000"), THREADS ("1 4"), REPEAT (3).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CGKIT_BIN:-$top}
OBJ=${CGKIT_OBJ:-$top/.obj}
M=$BIN/cgmigrate
FLOOR=$OBJ/bench/cgmigrate_floor
T=$OBJ/bench/cgmigrate_time
FORKER=$OBJ/tests/helpers/mig_forker
. "$top/bench/lib.sh"
SIZES=${SIZES:-2000 10000}
THREADS=${THREADS:-1 4}
REPEAT=${REPEAT:-3}
S=cgkit-test.$$
tmp=$(mktemp -d)
kids=()
dirs=()

say() { echo "cgmigrate bench: $*"; }

[ "$(id -u)" -eq 0 ] || { say "skipped: needs root"; exit 0; }
for b in "$M" "$FLOOR" "$T" "$FORKER"; do
	[ -x "$b" ] || { say "skipped: $b is not built (make bench builds it)"; exit 0; }
done
CPU=$(bench_mount cpu) CPUACCT=$(bench_mount cpuacct) PIDS=$(bench_mount pids) FREEZER=$(bench_mount freezer)
[ -n "$CPU" ] && [ -n "$PIDS" ] || { say "skipped: needs v1 cpu and pids hierarchies"; exit 0; }
have_cgclassify=0
command -v cgclassify >/dev/null && have_cgclassify=1

kill_kids() {
	local p
	for p in "${kids[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${kids[@]}"; do wait "$p" 2>/dev/null; done
	kids=()
}

cleanup() {
	local d i
	kill_kids
	for d in "${dirs[@]}"; do
		[ -f "$d/freezer.state" ] && echo THAWED >"$d/freezer.state" 2>/dev/null
	done
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for d in "${dirs[@]}"; do
			[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
		done
		sleep 0.2
	done
	for d in "${dirs[@]}"; do [ -d "$d" ] && say "could not remove $d"; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# cpuacct is co-mounted with cpu on some systems: one sandbox per mount
for m in $(printf '%s\n' "$CPU" "$CPUACCT" "$PIDS" "$FREEZER" | awk 'NF && !seen[$0]++'); do
	mkdir -p "$m/$S/a" "$m/$S/b" "$m/$S/src" "$m/$S/dst" && dirs+=("$m/$S")
done
# the three hierarchies of the 3-hierarchy runs (two when cpu and cpuacct are one)
H3_SPEC=cpu,cpuacct,pids
H3_PROCS=$(printf '%s\n' "$CPU" "$CPUACCT" "$PIDS" | awk 'NF && !seen[$0]++')
H3_N=$(echo "$H3_PROCS" | wc -l)

procs_files() { # $1 = a|b, $2 = 1|3
	if [ "$2" = 1 ]; then echo "$CPU/$S/$1/cgroup.procs"; else
		for m in $H3_PROCS; do echo "$m/$S/$1/cgroup.procs"; done
	fi
}

start_sleepers() { # N THREADS -> $tmp/pids
	rm -f "$tmp/pids"
	MIG_FORKER_LIFETIME_S=3600 "$FORKER" sleepers "$1" "$2" "$tmp/pids" &
	kids+=($!)
	for i in $(seq 1 600); do [ -s "$tmp/pids" ] && break; sleep 0.1; done
	[ -s "$tmp/pids" ] || { say "sleepers did not start"; exit 1; }
	kids+=($(cat "$tmp/pids"))
}

# min of a list of numbers
best() { printf '%s\n' "$@" | cut -d: -f1 | sort -n | head -n 1; }
# min of the CPU times of a list of wall:cpu words
bestc() { printf '%s\n' "$@" | cut -d: -f2 | sort -n | head -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.1f", a / 1000 }'; }

# the sums of two "wall_us cpu_us" lines, as one word "wall_us:cpu_us"
add2() { echo "$1 $2 $3 $4" | awk '{ print $1 + $3 ":" $2 + $4 }'; }
# one there-and-back (a -> b -> a) of the pids with each tool; prints "wall_us:cpu_us"
round_floor() {
	local x y
	x=$("$T" -c "$FLOOR" "$tmp/pids" $(procs_files b "$1")) || return 1
	y=$("$T" -c "$FLOOR" "$tmp/pids" $(procs_files a "$1")) || return 1
	add2 $x $y
}
# the floor plus one read of the first target's listing: the least a verified move costs
round_vfloor() {
	local x y
	x=$("$T" -c "$FLOOR" -l "$tmp/pids" $(procs_files b "$1")) || return 1
	y=$("$T" -c "$FLOOR" -l "$tmp/pids" $(procs_files a "$1")) || return 1
	add2 $x $y
}
round_cgmigrate() {
	local spec x y
	spec=cpu
	[ "$1" = 3 ] && spec=$H3_SPEC
	x=$("$T" -c "$M" -g "$spec:/$S/b" -p "$tmp/pids") || return 1
	y=$("$T" -c "$M" -g "$spec:/$S/a" -p "$tmp/pids") || return 1
	add2 $x $y
}
round_noverify() {
	local spec x y
	spec=cpu
	[ "$1" = 3 ] && spec=$H3_SPEC
	x=$("$T" -c "$M" --no-verify -g "$spec:/$S/b" -p "$tmp/pids") || return 1
	y=$("$T" -c "$M" --no-verify -g "$spec:/$S/a" -p "$tmp/pids") || return 1
	add2 $x $y
}
round_cgclassify() {
	local spec x y
	spec=cpu
	[ "$1" = 3 ] && spec=$H3_SPEC
	x=$("$T" -c cgclassify -g "$spec:/$S/b" $(cat "$tmp/pids")) || return 1
	y=$("$T" -c cgclassify -g "$spec:/$S/a" $(cat "$tmp/pids")) || return 1
	add2 $x $y
}

say "kernel $(uname -r), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg); best of $REPEAT; times are a there-and-back (2N moves per hierarchy)"
printf '%-7s %-7s %-5s %9s %10s %13s %6s %6s %10s %6s %14s %6s %8s %8s %8s %7s\n' procs threads hier floor_ms vfloor_ms \
	cgmigrate_ms ratio /vfl noverify_ms ratio cgclassify_ms ratio mig/cls vfl_cpu mig_cpu cpu/vfl
# Never take more than half of the pids still free: the machine is shared.
task_budget() {
	local total
	total=$(cut -d' ' -f4 /proc/loadavg)
	echo $((($(cat /proc/sys/kernel/pid_max) - ${total#*/}) / 2))
}

vwall=() vcpu=()
for n in $SIZES; do
	for th in $THREADS; do
		kill_kids
		if [ $((n * th)) -gt "$(task_budget)" ]; then
			printf '%-7s %-7s %s\n' "$n" "$th" "skipped: $((n * th)) tasks is more than half of the free pids (pid_max $(cat /proc/sys/kernel/pid_max))"
			continue
		fi
		start_sleepers "$n" "$th"
		"$FLOOR" "$tmp/pids" $(procs_files a 3) || {
			say "cannot place the sleepers: $(bench_alive "$tmp/pids") of $(wc -l <"$tmp/pids") listed are alive"
			exit 1
		}
		for h in 1 3; do
			f=() v=() g=() c=() u=()
			for r in $(seq 1 "$REPEAT"); do
				# interleaved, so that a busy moment hurts all alike
				f+=($(round_floor "$h")) || { say "floor failed"; exit 1; }
				v+=($(round_vfloor "$h")) || { say "floor -l failed"; exit 1; }
				g+=($(round_cgmigrate "$h")) || { say "cgmigrate failed"; exit 1; }
				u+=($(round_noverify "$h")) || { say "cgmigrate --no-verify failed"; exit 1; }
				[ $have_cgclassify = 1 ] && c+=($(round_cgclassify "$h"))
			done
			fb=$(best "${f[@]}") vb=$(best "${v[@]}") gb=$(best "${g[@]}") ub=$(best "${u[@]}")
			cb=- cr=- mc=-
			if [ ${#c[@]} -gt 0 ]; then
				cb=$(best "${c[@]}") cr=$(ratio "$cb" "$fb") mc=$(ratio "$gb" "$cb")
				cb=$(ms "$cb")
			fi
			hn=1
			[ "$h" = 3 ] && hn=$H3_N
			vc=$(bestc "${v[@]}") gc=$(bestc "${g[@]}")
			vwall+=("$(ratio "$gb" "$vb")") vcpu+=("$(ratio "$gc" "$vc")")
			printf '%-7s %-7s %-5s %9s %10s %13s %6s %6s %10s %6s %14s %6s %8s %8s %8s %7s\n' "$n" "$th" \
				"$hn" "$(ms "$fb")" "$(ms "$vb")" "$(ms "$gb")" "$(ratio "$gb" "$fb")" \
				"${vwall[-1]}" "$(ms "$ub")" "$(ratio "$ub" "$fb")" "$cb" "$cr" "$mc" \
				"$(ms "$vc")" "$(ms "$gc")" "${vcpu[-1]}"
		done
	done
done
kill_kids
# one line for RESULTS.md's headlines: the rows scatter with the load, their median less so
spread() {
	printf '%s\n' "$@" | grep -v '^-$' | sort -n | awk '{ v[NR] = $1 } END {
		if (NR) printf "median %.2f (%.2f to %.2f over %d rows)", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2, v[1], v[NR], NR
		else printf "-" }'
}
[ ${#vwall[@]} -gt 0 ] &&
	say "ratio cgmigrate/verified floor: wall $(spread "${vwall[@]}"), cpu $(spread "${vcpu[@]}")"

# ---- drain of a fork storm ------------------------------------------------------------------
# two shell loops forking /bin/true and a C storm keeping 8 children of 20 ms alive
start_storm() {
	local spec=$1 l=()
	bash -c 'while :; do /bin/true; done' &
	l+=($!)
	bash -c 'while :; do /bin/true; done' &
	l+=($!)
	"$FORKER" storm 8 20 &
	l+=($!)
	kids+=("${l[@]}")
	"$M" -g "$spec:/$S/src" "${l[@]}" || { say "cannot place the storm"; exit 1; }
	sleep 0.3
}

drain_once() { # extra options; prints "us rounds moved"
	local t0 t1 out
	t0=$(date +%s%N)
	out=$("$M" -v "$@" -F "cpu:/$S/src" -g "cpu:/$S/dst")
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000)) $(echo "$out" | sed -n 's/.*after \([0-9]*\) round.*/\1/p') $(echo "$out" | sed -n 's/^moved \([0-9]*\) .*/\1/p')"
}

say "drain of a fork storm (2 shell loops + 8 x 20 ms children), time to empty, best of $REPEAT"
printf '%-10s %9s %7s %7s\n' mode ms rounds moved
for mode in plain freeze; do
	opts=() spec=cpu
	if [ $mode = freeze ]; then
		[ -n "$FREEZER" ] || { say "no v1 freezer: no frozen drain"; continue; }
		opts=(-z) spec=cpu,freezer
	fi
	res=()
	for r in $(seq 1 "$REPEAT"); do
		kill_kids
		start_storm "$spec"
		res+=("$(drain_once "${opts[@]}")")
	done
	kill_kids
	b=$(printf '%s\n' "${res[@]}" | sort -n | head -n 1)
	set -- $b
	eval "drain_$mode=$1"
	printf '%-10s %9s %7s %7s\n' "$mode" "$(ms "$1")" "${2:--}" "${3:--}"
done
[ -n "${drain_plain:-}" ] && [ -n "${drain_freeze:-}" ] &&
	say "drain: frozen/plain time ratio $(ratio "$drain_freeze" "$drain_plain")"
exit 0
