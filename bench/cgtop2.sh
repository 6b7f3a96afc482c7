#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 against systemd-cgtop and the floor: CPU time (user+sys) per refresh over 1,000 and
# 10,000 empty cgroups in a sandbox, and resident memory growth per cgroup.
#
# Per refresh = (cost of 2+K refreshes - cost of 2) / K, the median of 5 tries: start-up, the
# first scan and the first two full reads drop out, what remains is the steady state. cgtop2
# skips the cgroup2 files of unpopulated cgroups whose counters stopped (until cgroup.events
# changes), so it is measured twice: as it runs, and with CGKIT_STATS_ALWAYS_READ=1 (every file
# re-read every time), which is the figure to hold against the floor.
# The floor: pread at offset 0 on cached fds of the same files cgtop2 reads per cgroup (per
# read cost times the files of a refresh, when they do not all fit under the fd limit).
# Scenario "unified": the cgroups in the unified hierarchy only (a bare PATH names it).
# Scenario "spread" (hybrid/legacy hosts): the same cgroups also in the v1 cpuacct, blkio and
# pids hierarchies, which systemd-cgtop reads on such hosts (never v1 memory: not ours to fill).
# Targets (issue 5): at 10,000 cgroups <= 1/10 of systemd-cgtop, <= 2x the floor, < 1 KiB/cgroup.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${CGTOP2_BENCH_SIZES:-1000 10000}
bench=cgtop2

# lib.sh's checks and mount lookup only: this bench's sandbox spans hierarchies (its own grow)
. "$(dirname "$0")/lib.sh"
bench_preflight

name=cgkit-test.$$
main=$(bench_mount unified cpuacct)
[ -n "$main" ] || { echo "cgtop2 bench: no cgroup2 or cpuacct hierarchy; skipped"; exit 0; }
extra=
for c in cpuacct blkio pids; do
	m=$(bench_mount $c)
	[ -n "$m" ] && [ "$m" != "$main" ] && case " $extra " in *" $m "*) ;; *) extra="$extra $m" ;; esac
done
made=

cleanup() {
	local m
	for m in $made; do
		[ -d "$m/$name" ] || continue
		find "$m/$name" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$m/$name"
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# grow the sandbox in hierarchy $1 to $2 children c00000...
grow() {
	local m=$1 n=$2 have
	[ -d "$m/$name" ] || { mkdir "$m/$name" || exit 1; made="$made $m"; }
	have=$(find "$m/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$have" -lt "$n" ] || return 0
	seq "$have" $((n - 1)) | awk -v d="$m/$name" '{ printf "%s/c%05d\n", d, $1 }' | xargs mkdir || exit 1
}

# CPU microseconds (user+sys) and max RSS (KiB) of one run, output to /dev/null
run() {
	"$FLOOR" rusage "$@"
}

# per refresh, steady state: median of 5 x ((2+k) - 2) / k
per_refresh_us() {
	local k=$1 a b i
	shift
	for i in 1 2 3 4 5; do
		a=$(run "$@" -n 2 | cut -d' ' -f1) || return 1
		b=$(run "$@" -n $((k + 2)) | cut -d' ' -f1) || return 1
		echo $(((b - a) / k))
	done | sort -n | sed -n 3p
}

ms() {
	awk -v u="$1" 'BEGIN { printf "%.1f ms", u / 1000 }'
}

# a difference of two runs below 0 is the start-up's jitter, not a cost
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a < 0) print "n/a (below the start-up jitter)"; else if (b > 0) printf "%.3f", a / b; else print "n/a" }'
}

have_cgtop=0
command -v systemd-cgtop >/dev/null 2>&1 && have_cgtop=1
grow "$main" 0
base_rss=$(run "$T" -b -d 0.01 -n 2 "/$name" | cut -d' ' -f2)
echo "hierarchy $main; v1 for the spread scenario:${extra:- none} ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"

bench() {
	local scen=$1 n=$2 files f k ours full rss floor floor_us theirs tasks
	# the files cgtop2 reads in each of these cgroups (cgtop2 -v lists the sources)
	files=
	for f in cpu.stat memory.current io.stat pids.current cpu.pressure memory.pressure io.pressure; do
		[ -f "$main/$name/c00000/$f" ] && files="$files $main/$name/c00000/$f"
	done
	[ -n "$files" ] || files="$main/$name/c00000/cpuacct.usage"
	tasks=$main/$name/c00000/cgroup.threads
	[ -f "$main/$name/c00000/pids.current" ] && tasks=
	for m in $extra; do
		[ "$scen" = spread ] || break
		for f in pids.current blkio.throttle.io_service_bytes; do
			[ -f "$m/$name/c00000/$f" ] && files="$files $m/$name/c00000/$f"
		done
		# tasks: v1 pids.current comes before counting cgroup.threads
		[ -f "$m/$name/c00000/pids.current" ] && tasks=
	done
	files="$files $tasks"
	# a quiet refresh costs little: many of them, or the first reads' jitter drowns it
	k=5
	[ "$n" -ge 10000 ] && k=3
	# 100: at 1,000 idle cgroups 30 refreshes (about 45 ms) came out below the jitter of the
	# start-up's full reads (-0.9 ms a refresh, 2026-12-06)
	ours=$(per_refresh_us 100 "$T" -b -d 0.01 "/$name") || exit 1
	full=$(CGKIT_STATS_ALWAYS_READ=1 per_refresh_us $k "$T" -b -d 0.01 "/$name") || exit 1
	rss=$(run "$T" -b -d 0.01 -n 3 "/$name" | cut -d' ' -f2)
	# the floor, hierarchy by hierarchy (each file has its own per-read cost)
	floor_us=0
	for f in $files; do
		floor=$("$FLOOR" floor 10 "$(dirname "$(dirname "$f")")" "$(basename "$f")") || exit 1
		floor_us=$((floor_us + ${floor%% *}))
	done
	echo "== $scen: $n cgroups; files per cgroup:$(for f in $files; do printf ' %s:%s' "$(basename "$(dirname "$(dirname "$(dirname "$f")")")")" "${f##*/}"; done)"
	echo "cgtop2                    $(ms "$ours") per refresh"
	echo "cgtop2 (every file read)  $(ms "$full") per refresh"
	echo "floor                     $(ms "$floor_us") per refresh"
	if [ $have_cgtop -eq 1 ]; then
		theirs=$(per_refresh_us $k systemd-cgtop -b -d 0.01 "/$name") || exit 1
		echo "systemd-cgtop             $(ms "$theirs") per refresh"
		echo "ratio cgtop2/systemd-cgtop $(ratio "$ours" "$theirs"), every file read $(ratio "$full" "$theirs") (target at 10000: <= 0.100)"
	else
		echo "systemd-cgtop not installed: no ratio against it"
	fi
	echo "ratio cgtop2/floor $(ratio "$ours" "$floor_us"), every file read $(ratio "$full" "$floor_us") (target at 10000: <= 2.000)"
	echo "resident growth $(awk -v a="$rss" -v b="$base_rss" -v n="$n" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }') bytes per cgroup (target < 1024)"
}

for n in $SIZES; do
	grow "$main" "$n"
	bench unified "$n"
	[ -n "$extra" ] || continue
	for m in $extra; do grow "$m" "$n"; done
	bench spread "$n"
done
