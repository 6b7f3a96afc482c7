#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --events watching N idle cgroups (default 10,000) in a sandbox: the CPU seconds
# (user+sys, from /proc/PID/stat) it takes over IDLE seconds (default 10) of nothing happening,
# the time to start watching (the first listing, a watch a directory and events file), its
# inotify watches against fs.inotify.max_user_watches, and its resident memory. Then a burst of
# N removals: how long until the last one is printed.
# The sandbox is in the unified hierarchy (a bare PATH names it), else in v1 cpuacct.
# Target (issue 15): near zero CPU when idle, whatever N is: nothing is polled where the
# kernel notifies (only --events kinds the kernel does not notify are sampled every -d).
# Then, on cgroup2 only, PSI triggers: PSI_N (default 1,000) idle cgroups with a
# --psi-trigger each (memory:some:500ms:2s, a 2 s window that needs no CAP_SYS_RESOURCE): the
# start, the fds held (one a trigger) and the CPU over IDLE seconds.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
T=$BIN/cgtop2
N=${CGTOP2_EVENTS_BENCH_N:-10000}
IDLE=${CGTOP2_EVENTS_BENCH_IDLE:-10}
PSI_N=${CGTOP2_EVENTS_BENCH_PSI_N:-1000}
bench=cgtop2_events

# lib.sh's checks and mount lookup only (its own sandbox and clean-up)
FLOOR= # none: only $T must be built
. "$(dirname "$0")/lib.sh"
bench_preflight
v2=$(bench_mount unified)
mnt=$(bench_mount unified cpuacct)
[ -n "$mnt" ] || { echo "cgtop2_events bench: no cgroup2 or cpuacct hierarchy; skipped"; exit 0; }
name=cgkit-test.$$
dir=$mnt/$name
pid=
tmp=$(mktemp -d)

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	if [ -d "$dir" ]; then
		find "$dir" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$dir"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

mkdir "$dir" || exit 1
seq 0 $((N - 1)) | awk -v d="$dir" '{ printf "%s/c%05d\n", d, $1 }' | xargs mkdir || exit 1

t0=$(date +%s.%N)
"$T" -v --events "/$name" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for i in $(seq 1 1200); do grep -q watching "$tmp/err" && break; sleep 0.05; done
grep -q watching "$tmp/err" || { echo "cgtop2_events bench: the watcher did not start:"; cat "$tmp/err"; exit 1; }
t1=$(date +%s.%N)
watches=$(sed -n 's/.* with \([0-9]*\) inotify watches.*/\1/p' "$tmp/err")
max=$(cat /proc/sys/fs/inotify/max_user_watches)
a=$(ticks $pid)
sleep "$IDLE"
b=$(ticks $pid)
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
echo "cgtop2 --events, $N idle cgroups ($mnt): start $(echo "$t1 - $t0" | bc) s; $watches inotify watches (fs.inotify.max_user_watches $max); RSS $rss KiB ($((rss * 1024 / N)) B/cgroup)"
echo "idle ${IDLE} s: $(echo "scale=3; ($b - $a) / $hz" | bc) CPU seconds (user+sys, ${hz} Hz ticks)"
t0=$(date +%s.%N)
find "$dir" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} +
for i in $(seq 1 1200); do [ "$(grep -c ' removed' "$tmp/out")" -ge "$N" ] && break; sleep 0.05; done
t1=$(date +%s.%N)
c=$(ticks $pid)
echo "burst of $N removals: $(grep -c ' removed' "$tmp/out") reported in $(echo "$t1 - $t0" | bc) s, $(echo "scale=3; ($c - $b) / $hz" | bc) CPU seconds"

[ -n "$v2" ] || { echo "PSI triggers: no cgroup2 hierarchy; skipped"; exit 0; }
[ -e "$v2/$name/cpu.pressure" ] || { echo "PSI triggers: no pressure files (CONFIG_PSI off or psi=0); skipped"; exit 0; }
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
seq 0 $((PSI_N - 1)) | awk -v d="$dir" '{ printf "%s/p%05d\n", d, $1 }' | xargs mkdir || exit 1
rm -f "$tmp/err"
t0=$(date +%s.%N)
"$T" -v --events=pressure --psi-trigger=memory:some:500ms:2s "/$name" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for i in $(seq 1 1200); do grep -q watching "$tmp/err" && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
grep -q watching "$tmp/err" || { echo "PSI triggers: the watcher did not start:"; cat "$tmp/err"; exit 1; }
t1=$(date +%s.%N)
fds=$(ls "/proc/$pid/fd" | wc -l)
trig=$(sed -n 's/.* and \([0-9]*\) PSI trigger.*/\1/p' "$tmp/err")
# the ticks say 0 below 10 ms: the scheduler's run time (ns) and the wake-ups say how far below
wakes() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
a=$(ticks $pid) ra=$(cut -d' ' -f1 "/proc/$pid/schedstat") wa=$(wakes $pid)
sleep "$IDLE"
b=$(ticks $pid) rb=$(cut -d' ' -f1 "/proc/$pid/schedstat") wb=$(wakes $pid)
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
echo "cgtop2 --events=pressure, $PSI_N idle cgroups with a trigger each: start $(echo "$t1 - $t0" | bc) s; $trig triggers, $fds fds open; RSS $rss KiB"
echo "PSI triggers idle ${IDLE} s: $(echo "scale=3; ($b - $a) / $hz" | bc) CPU seconds (user+sys, ${hz} Hz ticks), $(((rb - ra) / 1000)) us run, $((wb - wa)) wake-ups; $(grep -c . "$tmp/out") events"
