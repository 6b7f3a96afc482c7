#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 against systemd-cgtop and the floor: CPU time (user+sys) per refresh over 1,000 and
# 10,000 empty cgroups in a sandbox, and resident memory growth per cgroup.
# Per refresh = (cost of K+1 refreshes - cost of 1) / K, so start-up and the first scan drop out.
# The floor: pread at offset 0 on cached fds of the same files cgtop2 reads per cgroup.
# Targets (issue 5): at 10,000 cgroups <= 1/10 of systemd-cgtop, <= 2x the floor, < 1 KiB/cgroup.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${CGTOP2_BENCH_SIZES:-1000 10000}

[ "$(id -u)" -eq 0 ] || { echo "cgtop2 bench: needs root (it makes cgroups); skipped"; exit 0; }
[ -x "$T" ] && [ -x "$FLOOR" ] || { echo "cgtop2 bench: build first (make bench builds it)"; exit 1; }

# The hierarchy: the unified one when mounted (a bare PATH names it), else v1 cpuacct.
mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || mnt=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpuacct(,|$)/ { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || { echo "cgtop2 bench: no cgroup2 or cpuacct hierarchy; skipped"; exit 0; }
name=cgkit-test.$$
sb=$mnt/$name

cleanup() {
	[ -d "$sb" ] || return 0
	find "$sb" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
	rmdir "$sb"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$sb" || exit 1

# CPU microseconds (user+sys) of one run; second field max RSS in KiB
run() {
	"$FLOOR" rusage "$@"
}

per_refresh_us() {
	local k=$1 a b
	shift
	a=$(run "$@" -n 1 | cut -d' ' -f1) || return 1
	b=$(run "$@" -n $((k + 1)) | cut -d' ' -f1) || return 1
	echo $(((b - a) / k))
}

ms() {
	awk -v u="$1" 'BEGIN { printf "%.1f ms", u / 1000 }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'
}

base_rss=$(run "$T" -b -d 0.01 -n 2 "/$name" | cut -d' ' -f2)
have=0
have_cgtop=0
command -v systemd-cgtop >/dev/null 2>&1 && have_cgtop=1
echo "hierarchy $mnt ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
for n in $SIZES; do
	while [ $have -lt "$n" ]; do
		mkdir "$sb/$(printf 'c%05d' $have)" || exit 1
		have=$((have + 1))
	done
	# the files cgtop2 reads in each of these cgroups (see cg_stats_sources)
	files=
	for f in cpu.stat cpuacct.usage memory.current memory.usage_in_bytes io.stat pids.current \
		cpu.pressure memory.pressure io.pressure; do
		[ -f "$sb/c00000/$f" ] && files="$files $f"
	done
	[ -f "$sb/c00000/pids.current" ] || for f in cgroup.threads tasks; do
		[ -f "$sb/c00000/$f" ] && { files="$files $f"; break; }
	done
	k=10
	[ "$n" -ge 10000 ] && k=5
	ours=$(per_refresh_us $k "$T" -b -d 0.01 "/$name") || exit 1
	rss=$(run "$T" -b -d 0.01 -n 2 "/$name" | cut -d' ' -f2)
	floor=$("$FLOOR" floor 20 "$sb" $files)
	floor_us=${floor%% *}
	echo "== $n cgroups; files per cgroup:$files"
	echo "cgtop2        $(ms "$ours") per refresh"
	if [ $have_cgtop -eq 1 ]; then
		kk=$k
		[ "$n" -ge 10000 ] && kk=3
		theirs=$(per_refresh_us $kk systemd-cgtop -b -d 0.01 "/$name") || exit 1
		echo "systemd-cgtop $(ms "$theirs") per refresh"
		echo "ratio cgtop2/systemd-cgtop $(ratio "$ours" "$theirs") (target at 10000: <= 0.100)"
	else
		echo "systemd-cgtop not installed: no ratio against it"
	fi
	echo "floor         $(ms "$floor_us") per refresh (${floor#* } files, fds cached for ${floor##* })"
	echo "ratio cgtop2/floor $(ratio "$ours" "$floor_us") (target at 10000: <= 2.000)"
	echo "resident growth $(awk -v a="$rss" -v b="$base_rss" -v n="$n" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }') bytes per cgroup (target < 1024)"
done
