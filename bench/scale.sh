#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of cgtop2 as the tree grows (issue 33): at each size of SCALE_SIZES (default
# "1000 10000": about 6.5 min at load 10-15, which keeps `make bench` short; 100,000 only when
# asked, SCALE_SIZES=100000 SCALE_TRIES=1: 16 min at load 9-11), a flat tree of empty cgroups
# c00000... in a sandbox cgkit-test.PID of the cgroup2 hierarchy, one in SCALE_BUSY_EVERY (100)
# holding a sleeping process of this script. Each line says the load average it was taken at.
# - cgtop2 -b per refresh, stdout to /dev/null, -d 1 s (4 s at 10,000, 20 s at 100,000: a
#   refresh must end before the next is due): CPU and wall from its schedstat between two
#   looks that found it asleep between refreshes (wall: on a CPU or waiting for one, the sleep
#   left out); the median of K steady refreshes of one run (the start-up and the second, full
#   read left out). Its system calls a refresh: strace -c attached after the rest.
# - The floor: one read per cgroup whose state may have changed, a pread at offset 0 on a kept
#   fd of cpu.stat in each cgroup whose cgroup.events says populated 1 (the populated children
#   and the sandbox itself). An empty cgroup's counters move only after a process joins it,
#   which changes its cgroup.events, which inotify tells without a read. It runs as cgtop2
#   does, one round every -d (bench/cgtop2_floor.c `every`), measured the same way, and the two
#   take turns SCALE_TRIES (3) times so that load hits both alike: the ratio printed is the
#   median of the tries' ratios. Ratios, not times, are the result.
# - The exporter: `cgtop2 --listen` on 127.0.0.1 (every scrape samples afresh), curl scrapes on
#   one keep-alive connection: wall (median), the server's CPU a scrape (every thread), bytes,
#   its RSS (VmRSS and VmHWM), open fds and inotify watches; against the floor's reads made 20
#   times back to back (`changed`), since the scrapes run back to back too. Then gzipped, and
#   busy: SCALE_CHANGING (10) % of the cgroups hold a bench/cgtop2_waker of ours that wakes
#   every SCALE_WAKE_US (50,000) us, so that their CPU counters move between two scrapes;
#   plain and gzipped.
# - The recorder: the bytes a sample adds to a `cgtop2 --record` file (6 samples against 1).
# - `cgtop2 --events`: start, inotify watches, CPU (schedstat) and RSS over SCALE_IDLE (10) s
#   of nothing happening.
# - The limits met on the way, as observed: fs.inotify.max_user_watches (per user, shared with
#   every other process of the user), the open-file limit (raised to the hard one), pid_max;
#   what each tool said on stderr and exited with.
# - The time to make the cgroups and to remove them.
# cgroup2 only (a hybrid host's unified hierarchy serves); skipped where there is none.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${SCALE_SIZES:-1000 10000}
BUSY_EVERY=${SCALE_BUSY_EVERY:-100}
TRIES=${SCALE_TRIES:-3}
IDLE=${SCALE_IDLE:-10}
CHANGING=${SCALE_CHANGING:-10}
WAKE_US=${SCALE_WAKE_US:-50000}
WAKER=$OBJ/bench/cgtop2_waker
bench=scale

. "$(dirname "$0")/lib.sh"
bench_preflight curl
main=$(bench_mount unified)
[ -n "$main" ] || { echo "scale bench: no cgroup2 hierarchy here; skipped"; exit 0; }
name=cgkit-test.$$
tmp=$(mktemp -d)
watcher=
bench_serve_init

# Every process of ours stopped and reaped first (rmdir takes only an empty cgroup), then what
# lib.sh removes.
cleanup() {
	local p
	[ -n "$watcher" ] && kill "$watcher" 2>/dev/null
	[ -n "${server:-}" ] && kill "$server" 2>/dev/null
	server=
	if [ -s "$tmp/sleepers" ]; then
		while read -r p; do kill "$p" 2>/dev/null; done <"$tmp/sleepers"
	fi
	if [ -s "$tmp/wakers" ]; then
		while read -r p; do kill "$p" 2>/dev/null; done <"$tmp/wakers"
	fi
	wait 2>/dev/null
	bench_serve_cleanup
}
trap cleanup EXIT
trap 'exit 129' HUP PIPE

ld() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
ms() { awk -v u="$1" 'BEGIN { printf "%.2f ms", u / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# seconds since $1 (date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# CPU us per round, wall us per round, reads per round of the floor
# (hot: 20 rounds back to back, for the scrapes, which run back to back too)
floor() { "$FLOOR" changed 20 "$main/$name" cpu.stat; }
# the first lines a tool said on stderr (file $1), or "nothing"
said() {
	if [ -s "$1" ]; then head -n 2 "$1" | cut -c1-300 | tr '\n' ' '; else echo nothing; fi
}
rss_of() { awk -v k="$2" '$1 == k ":" { print $2 }' "/proc/$1/status"; }
watches_of() { cat /proc/"$1"/fdinfo/* 2>/dev/null | grep -c '^inotify wd:'; }
fds_of() { ls "/proc/$1/fd" | wc -l; }

# $TRIES rounds of the floor's reads and $ks scrapes of $url ($1 gzip: gzipped) against the
# running server: sets sc and sw (server CPU and wall a scrape, us), rs (scrape/floor CPU) and
# bytes (a scrape's); $2 says what the tree is doing
scrapes() {
	local r fl c0 w h=()
	[ "$1" = gzip ] && h=(-H 'Accept-Encoding: gzip')
	for r in $(seq 1 "$TRIES"); do
		fl=$(floor) || exit 1
		c0=$(bench_cpu_us "$server")
		w=$(bench_scrapes "$ks" "$url" "${h[@]}" | awk '{ printf "%d\n", $1 * 1000000 }' | median)
		echo "${fl%% *} $((($(bench_cpu_us "$server") - c0) / ks)) $w"
	done >"$tmp/scrapes.$2"
	bytes=$(curl -s "${h[@]}" -o /dev/null -w '%{size_download}' "$url")
	sc=$(cut -d' ' -f2 "$tmp/scrapes.$2" | median)
	sw=$(cut -d' ' -f3 "$tmp/scrapes.$2" | median)
	rs=$(awk '{ printf "%.2f\n", $1 ? $2 / $1 : 0 }' "$tmp/scrapes.$2" | median)
}

# CMD... (cgtop2 -b -d D -n 0, or the floor's `every`) run in the background, stdout to
# $tmp/out.burst, until it did 2+$1 rounds: a line per round, "CPU_US WALL_US RSS_KB", from
# its schedstat (time on a CPU; wall: on a CPU or waiting for one, so the sleep between rounds
# drops out) between two looks (every 20 ms) that found it asleep between rounds (wchan
# hrtimer_nanosleep): a process kept off the CPU by the load is not asleep, and a round that
# overran the delay is one with the next (the wall then says more than the delay). The first
# two (the start-up; cgtop2's second full read) are left out. With $2 a file, `strace -c` is
# attached for $3 seconds more before the end: its count of each system call.
bursts() {
	local k=$1 trace=$2 secs=$3 pid c w wc bc= bw= seen=0
	shift 3
	"$@" >"$tmp/out.burst" 2>>"$tmp/err.b" &
	pid=$!
	while read -r c w _ 2>/dev/null <"/proc/$pid/schedstat"; do
		wc=
		read -r wc 2>/dev/null <"/proc/$pid/wchan"
		if [ "$wc" = hrtimer_nanosleep ] && [ "$c" != "$bc" ]; then
			seen=$((seen + 1))
			[ $seen -gt 2 ] && echo "$(((c - bc) / 1000)) $(((c + w - bc - bw) / 1000)) $(rss_of "$pid" VmRSS)"
			bc=$c bw=$w
			[ $seen -ge $((k + 2)) ] && break
		fi
		sleep 0.02
	done
	if [ -n "$trace" ] && [ $seen -ge $((k + 2)) ] && command -v strace >/dev/null; then
		timeout -s INT "$secs" strace -c -f -p "$pid" -o "$trace" 2>/dev/null
	fi
	kill "$pid" 2>/dev/null
	wait "$pid"
	# killed by us (143) is the end of a run that did not fail
	[ $? -eq 143 ] && [ $seen -ge $((k + 2)) ]
}

# a refresh's system calls from strace -c's counts in $1: each divided by the sleeps between
# refreshes (clock_nanosleep)
syscalls() {
	[ -s "$1" ] || { echo "not counted (no strace)"; return; }
	awk '$NF ~ /^[a-z_0-9]+$/ && NF >= 5 && $4 ~ /^[0-9]+$/ { n[$NF] = $4 }
		END { r = n["clock_nanosleep"]; if (!r) { print "no refresh seen"; exit }
			printf "%d refreshes:", r
			for (s in n) if (s != "clock_nanosleep") printf " %s %.1f", s, n[s] / r; print "" }' "$1"
}

ulimit -n "$(ulimit -Hn)" 2>/dev/null
echo "hierarchy $main; $(nproc) CPUs; $(ld); open files $(ulimit -n) (hard $(ulimit -Hn));" \
	"fs.inotify.max_user_watches $(cat /proc/sys/fs/inotify/max_user_watches)," \
	"max_user_instances $(cat /proc/sys/fs/inotify/max_user_instances); pid_max $(cat /proc/sys/kernel/pid_max);" \
	"one cgroup in $BUSY_EVERY populated"
mkdir "$main/$name" || exit 1
: >"$tmp/sleepers"
for n in $SIZES; do
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	t0=$(date +%s.%N)
	grow "$n"
	made=$(since "$t0")
	# a sleeper of ours in every BUSY_EVERY-th new cgroup
	for i in $(seq "$have" $((n - 1))); do
		[ $((i % BUSY_EVERY)) -eq 0 ] || continue
		sleep infinity &
		echo $! >>"$tmp/sleepers"
		echo $! >"$(printf '%s/%s/c%05d' "$main" "$name" "$i")/cgroup.procs" || exit 1
	done
	busy=$(wc -l <"$tmp/sleepers")
	echo "=== $n cgroups ($busy populated): made the $((n - have)) new ones in $made s ($(ld))"

	# --- cgtop2 -b per refresh against the floor, in turns
	# a refresh must end before the next is due (at load 15 one of 10,000 took 1-2 s)
	k=8 delay_ms=1000
	[ "$n" -ge 10000 ] && k=5 delay_ms=4000
	[ "$n" -ge 100000 ] && k=3 delay_ms=20000
	: >"$tmp/err.b"
	for r in $(seq 1 "$TRIES"); do
		bursts "$k" "" 0 "$FLOOR" every "$delay_ms" "$main/$name" cpu.stat >"$tmp/fl" ||
			{ echo "scale bench: the floor failed: $(said "$tmp/err.b")"; exit 1; }
		fr=$(cut -d' ' -f1 "$tmp/out.burst")
		trace=
		[ "$r" -eq "$TRIES" ] && trace=$tmp/strace
		bursts "$k" "$trace" $((delay_ms * 3 / 1000 + 1)) "$T" -b -d "${delay_ms}ms" -n 0 "/$name" >"$tmp/ref" ||
			{ echo "scale bench: cgtop2 -b failed: $(said "$tmp/err.b")"; exit 1; }
		# floor CPU, wall, reads; cgtop2 CPU and wall a refresh (medians of the run's); its RSS
		echo "$(cut -d' ' -f1 "$tmp/fl" | median) $(cut -d' ' -f2 "$tmp/fl" | median) $fr" \
			"$(cut -d' ' -f1 "$tmp/ref" | median) $(cut -d' ' -f2 "$tmp/ref" | median) $(tail -n 1 "$tmp/ref" | cut -d' ' -f3)"
	done >"$tmp/tries"
	awk -v l="$(ld)" '{ printf "  try %d: floor %d reads %d us CPU %d us wall; cgtop2 -b %d us CPU %d us wall a refresh; cgtop2/floor CPU %.2f wall %.2f (%s)\n", NR, $3, $1, $2, $4, $5, $1 ? $4 / $1 : 0, $2 ? $5 / $2 : 0, l }' "$tmp/tries"
	reads=$(cut -d' ' -f3 "$tmp/tries" | median)
	fc=$(cut -d' ' -f1 "$tmp/tries" | median)
	fw=$(cut -d' ' -f2 "$tmp/tries" | median)
	c=$(cut -d' ' -f4 "$tmp/tries" | median)
	w=$(cut -d' ' -f5 "$tmp/tries" | median)
	rc=$(awk '{ printf "%.2f\n", $1 ? $4 / $1 : 0 }' "$tmp/tries" | median)
	rw=$(awk '{ printf "%.2f\n", $2 ? $5 / $2 : 0 }' "$tmp/tries" | median)
	echo "cgtop2 -b at $n: $(ms "$c") CPU, $(ms "$w") wall a refresh; RSS $(cut -d' ' -f6 "$tmp/tries" | median) KiB; stderr: $(said "$tmp/err.b") ($(ld))"
	echo "cgtop2 -b at $n, system calls a refresh (strace -c -p after the rest, the last try): $(syscalls "$tmp/strace")"
	echo "floor at $n: $reads reads (cpu.stat of the populated), $(ms "$fc") CPU, $(ms "$fw") wall"
	echo "ratio cgtop2/floor at $n cgroups: CPU $rc, wall $rw (median of $TRIES tries; $(ld))"

	# --- the exporter: idle, then gzipped, then busy (SCALE_CHANGING % of the cgroups with a
	# waker of ours, their CPU counters moving between two scrapes), plain and gzipped
	ks=10
	[ "$n" -ge 100000 ] && ks=3
	t0=$(date +%s.%N)
	BENCH_SERVE_WAIT=$((n / 100 + 60)) bench_serve_start
	started=$(since "$t0")
	bench_scrapes 2 "$url" >/dev/null
	scrapes "" idle
	echo "scrape at $n: $(ms "$sw") wall, $(ms "$sc") server CPU, $bytes bytes ($((bytes / n)) a cgroup); server RSS $(rss_of "$server" VmRSS) KiB (peak $(rss_of "$server" VmHWM)), $(fds_of "$server") fds, $(watches_of "$server") inotify watches; started in $started s; stderr: $(grep -v serving "$tmp/err" >"$tmp/err.s"; said "$tmp/err.s") ($(ld))"
	echo "ratio scrape/floor at $n cgroups: CPU $rs (median of $TRIES tries; $(ld))"
	scrapes gzip idle
	echo "ratio scrape/floor at $n cgroups, gzipped, idle: CPU $rs; $bytes bytes; server CPU $(ms "$sc") a scrape (median of $TRIES tries; $(ld))"
	if [ "$CHANGING" -gt 0 ]; then
		for i in $(seq 1 $((100 / CHANGING)) $((n - 1))); do
			"$WAKER" "$WAKE_US" &
			echo $! >>"$tmp/wakers"
			echo $! >"$(printf '%s/%s/c%05d' "$main" "$name" "$i")/cgroup.procs" || exit 1
		done
		sleep 1
		for z in "" gzip; do
			scrapes "$z" busy
			echo "ratio scrape/floor at $n cgroups, ${z:-plain}, busy ($CHANGING % changing): CPU $rs; server CPU $(ms "$sc") a scrape (median of $TRIES tries; $(ld))"
		done
		while read -r p; do kill "$p" 2>/dev/null; done <"$tmp/wakers"
		: >"$tmp/wakers"
	fi
	bench_serve_stop

	# --- the recorder: a file of 1 sample against one of 6, at the refresh's -d
	: >"$tmp/err.r"
	rc1=
	for f in 1 6; do
		rm -f "$tmp/rec.$f"
		"$T" --record="$tmp/rec.$f" --record-size=0 -d "${delay_ms}ms" -n "$f" "/$name" 2>>"$tmp/err.r"
		rc1="$rc1 $?"
	done
	one=$(stat -c %s "$tmp/rec.1" 2>/dev/null || echo 0)
	per=$((($(stat -c %s "$tmp/rec.6" 2>/dev/null || echo 0) - one) / 5))
	rm -f "$tmp/rec.1" "$tmp/rec.6"
	echo "record at $n: $per bytes a sample ($((per / n)) a cgroup), the first $one; exit$rc1; stderr: $(said "$tmp/err.r") ($(ld))"

	# --- the event watcher, idle
	rm -f "$tmp/err.e"
	t0=$(date +%s.%N)
	"$T" -v --events "/$name" >"$tmp/out.e" 2>"$tmp/err.e" &
	watcher=$!
	for i in $(seq 1 12000); do
		grep -qs watching "$tmp/err.e" && break
		kill -0 "$watcher" 2>/dev/null || break
		sleep 0.05
	done
	if grep -qs watching "$tmp/err.e"; then
		started=$(since "$t0")
		c0=$(bench_cpu_us "$watcher")
		sleep "$IDLE"
		c1=$(bench_cpu_us "$watcher")
		echo "events at $n: started in $started s, $(watches_of "$watcher") inotify watches, $(fds_of "$watcher") fds; idle $IDLE s: $(ms $((c1 - c0))) CPU; RSS $(rss_of "$watcher" VmRSS) KiB ($(($(rss_of "$watcher" VmRSS) * 1024 / n)) B a cgroup); $(grep -c . "$tmp/out.e") events ($(ld))"
		kill "$watcher"
		wait "$watcher" 2>/dev/null
	else
		wait "$watcher"
		echo "events at $n: exit $? after $(since "$t0") s; stderr: $(said "$tmp/err.e") ($(ld))"
	fi
	watcher=
done

# the removal: the sleepers first, then every cgroup
while read -r p; do kill "$p" 2>/dev/null; done <"$tmp/sleepers"
wait 2>/dev/null
: >"$tmp/sleepers"
t0=$(date +%s.%N)
bench_remove_sandbox
echo "removed $n cgroups in $(since "$t0") s ($(ld))"
