#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --listen at 10,000 cgroups: a scrape of /metrics (default collectors, text 0.0.4)
# against the floor, the least the kernel charges to produce the same files.
#
# The cgroups: empty children c00000... of a sandbox cgkit-test.PID in the unified hierarchy
# (CGTOP2_SCRAPE_HIER=unified, the default), or in a v1 hierarchy (pids, cpuacct, cpu), removed
# on every exit. The server is started once per mode with CGKIT_SERVE_REUSE_MS=0 (every scrape
# samples afresh); curl fetches K scrapes in a row on one keep-alive connection after 5 to warm
# up. Scrape wall time: the median of curl's time_total; scrape CPU: the server's time on a CPU
# (/proc/PID/task/*/schedstat, every thread) over the K scrapes divided by K. Two modes: as it
# runs (a cgroup2 cgroup that is empty and whose counters stopped is not re-read until
# cgroup.events changes), and with CGKIT_STATS_ALWAYS_READ=1, every file read every scrape: the
# figure to hold against the floor.
# The floor: the files the scrape opens in a child cgroup (strace -y of the server's first
# scrape; without strace, the files of the bench/cgtop2.sh list that exist), pread at offset 0
# on cached fds in every child, 10 rounds (bench/cgtop2_floor.c): CPU per round. The floor and
# K scrapes are measured in turn, CGTOP2_SCRAPE_ROUNDS (5) times; the ratio printed is the
# median of the rounds' ratios.
# The open-file limit decides whether the sampler keeps an fd per file (10,000 cgroups: about
# 70,000) or opens each file for each read: the bench raises it to CGTOP2_SCRAPE_NOFILE
# (1048576; "keep": as it is), and prints it.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${CGTOP2_SCRAPE_SIZES:-10000}
K=${CGTOP2_SCRAPE_K:-20}
ROUNDS=${CGTOP2_SCRAPE_ROUNDS:-5}
HIER=${CGTOP2_SCRAPE_HIER:-unified}
NOFILE=${CGTOP2_SCRAPE_NOFILE:-1048576}
bench=cgtop2_scrape

. "$(dirname "$0")/lib.sh"
bench_preflight curl
main=$(bench_mount "$HIER")
[ -n "$main" ] || { echo "cgtop2_scrape bench: no $HIER hierarchy here; skipped"; exit 0; }
case $HIER in memory) echo "cgtop2_scrape bench: not the v1 memory hierarchy"; exit 1 ;; esac
name=cgkit-test.$$
tmp=$(mktemp -d)
bench_serve_init

# The files a scrape opens in child c00001 (strace -y names an openat's directory fd).
scrape_files() {
	local f
	if command -v strace >/dev/null; then
		CGKIT_STATS_ALWAYS_READ=1 strace -f -y -qq -e trace=openat -o "$tmp/trace" \
			"$T" -b -n 2 -d 0.01 -F prometheus "/$name" >/dev/null 2>&1
		# openat(FD</...>/c00001>, "NAME", ...) = FD: opened in that directory, successfully
		awk -v d="/$name/c00001>, \"" 'index($0, d) && $0 !~ /= -1/ {
			s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); if (!(s in seen)) { seen[s] = 1; print s } }' "$tmp/trace"
		return
	fi
	for f in cpu.stat cpuacct.usage memory.current io.stat pids.current cgroup.threads tasks \
		cpu.pressure memory.pressure io.pressure; do
		[ -f "$main/$name/c00001/$f" ] && echo "$f"
	done
}

bench_nofile "$NOFILE"
echo "hierarchy $main ($HIER), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $K scrapes a figure, open files $(ulimit -n)"
# CPU us of one round of the floor over the files $@ in every child
floor_us() {
	local f r sum=0
	for f in "$@"; do
		r=$("$FLOOR" floor 10 "$main/$name" "$f") || return 1
		sum=$((sum + ${r%% *}))
	done
	echo "$sum"
}

for n in $SIZES; do
	grow "$n"
	files=$(scrape_files | tr '\n' ' ')
	[ -n "$files" ] || { echo "cgtop2_scrape bench: no file read in /$name/c00001?"; exit 1; }
	echo "--- $n cgroups (/$name); files per cgroup: $files"
	for mode in default always_read; do
		if [ $mode = default ]; then bench_serve_start; else bench_serve_start CGKIT_STATS_ALWAYS_READ=1; fi
		bench_scrapes 5 "$url" >/dev/null
		# the floor and the scrapes in turn: what the host charges for a pread moved by 2x
		# between two runs an hour apart here, and it must hit both sides alike
		# shellcheck disable=SC2086 # one file name a word
		for r in $(seq 1 "$ROUNDS"); do
			fl=$(floor_us $files) || exit 1
			c0=$(bench_cpu_us "$server")
			w=$(bench_scrapes "$K" "$url" | awk '{ printf "%d\n", $1 * 1000000 }' | median)
			echo "$fl $((($(bench_cpu_us "$server") - c0) / K)) $w"
		done >"$tmp/rounds"
		body=$(curl -s -o /dev/null -w '%{size_download}' "$url")
		label="scrape, as it runs"
		[ $mode = always_read ] && label="scrape, every file"
		awk -v l="$label" '{ printf "  round %d: floor %d us CPU; %s %d us CPU (%d us wall); ratio %.2f\n", NR, $1, l, $2, $3, $1 ? $2 / $1 : 0 }' "$tmp/rounds"
		floor=$(cut -d' ' -f1 "$tmp/rounds" | median)
		c=$(cut -d' ' -f2 "$tmp/rounds" | median)
		w=$(cut -d' ' -f3 "$tmp/rounds" | median)
		ratio=$(awk '{ printf "%.2f\n", $1 ? $2 / $1 : 0 }' "$tmp/rounds" | median)
		printf 'floor                %9s         %9d us CPU  (pread of those files on kept fds; median of %d rounds)\n' "" "$floor" "$ROUNDS"
		printf '%-20s %9d us wall %9d us CPU  (%d bytes)\n' "$label" "$w" "$c" "$body"
		echo "ratio scrape/floor ($mode): CPU $ratio (the median of the rounds' ratios)"
		bench_serve_stop
	done
done
