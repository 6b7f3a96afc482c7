#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The exporter's scrape and cgtop2 -b's refresh in instructions (valgrind --tool=callgrind),
# a count the machine's load does not change (issue 46: work that follows change), and their
# CPU against the floor's. At each size of INSTR_SIZES (default "1000 10000"), a flat tree of
# empty cgroups c00000... in a sandbox cgkit-test.PID of INSTR_HIER (default unified: the
# cgroup2 hierarchy; or a v1 controller's, such as pids), one in INSTR_BUSY_EVERY (100)
# holding a sleeping process of this script:
# - a scrape, nothing changed: `cgtop2 --listen` (every scrape samples afresh) under callgrind,
#   instrumentation off for its start and two scrapes, on for INSTR_SCRAPES (10) on one
#   keep-alive connection; plain, then gzipped.
# - a scrape, 1 % changed: a bench/cgtop2_waker (wakes every 50 ms) joins each populated
#   cgroup, so that their CPU counters move between two scrapes; plain, then gzipped.
# - a refresh of cgtop2 -b -d 0.05 (stdout to /dev/null): `-n 1+R` minus `-n 1`, over R
#   (INSTR_REFRESHES, 10; 2 at 10,000 and more), idle and busy.
# - the floor's instructions a round (bench/cgtop2_floor `changed`: a pread of cpu.stat on a
#   kept fd in each populated cgroup and the sandbox): 21 rounds minus 1, over 20. Its cost is
#   the kernel's, which callgrind does not count: so the ratio that says how far a scrape is
#   from the floor is the CPU one, the server's CPU a scrape (schedstat, every thread, native)
#   over the floor's a round, medians of INSTR_TRIES (3) turns, with the load it ran at.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
CGTOP2=${INSTR_CGTOP2:-$BIN/cgtop2}
T=$CGTOP2
FLOOR=$OBJ/bench/cgtop2_floor
WAKER=$OBJ/bench/cgtop2_waker
SIZES=${INSTR_SIZES:-1000 10000}
KS=${INSTR_SCRAPES:-10}
EVERY=${INSTR_BUSY_EVERY:-100}
TRIES=${INSTR_TRIES:-3}
bench=cgtop2_instr

. "$(dirname "$0")/lib.sh"
bench_preflight curl valgrind callgrind_control
main=$(bench_mount "${INSTR_HIER:-unified}")
[ -n "$main" ] || { echo "$bench bench: no ${INSTR_HIER:-unified} hierarchy here; skipped"; exit 0; }
name=cgkit-test.$$
tmp=$(mktemp -d)
bench_serve_init

# our sleepers and wakers stopped and reaped first (rmdir takes only an empty cgroup)
cleanup() {
	local p
	[ -n "${server:-}" ] && kill "$server" 2>/dev/null
	if [ -s "$tmp/procs" ]; then
		while read -r p; do kill "$p" 2>/dev/null; done <"$tmp/procs"
	fi
	wait 2>/dev/null
	server=
	bench_serve_cleanup
}
trap cleanup EXIT
trap 'exit 129' HUP PIPE

ld() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
# the instructions (Ir) of callgrind output file $1: its cost lines summed (a call's inclusive
# cost, the line after calls=, left out); its summary line is wrong after -i off and on
instr() {
	awk 'skip { skip = 0; next } /^calls=/ { skip = 1; next } /^[0-9+*-]/ { s += $2 }
		END { printf "%.0f\n", s }' "$1"
}
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f", a / b; else print "n/a" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# a process of ours ($@) into cgroup $1
join() {
	local cg=$1
	shift
	"$@" &
	echo $! >>"$tmp/procs"
	echo $! >"$cg/cgroup.procs" || exit 1
}

# cgtop2 under callgrind, instrumentation off until asked (the server's start is not counted)
cat >"$tmp/vg" <<EOF
#!/bin/sh
exec valgrind -q --tool=callgrind --instr-atstart=no --callgrind-out-file=$tmp/srv.out "$CGTOP2" "\$@"
EOF
chmod +x "$tmp/vg"

# instructions a scrape: $KS scrapes counted ($@: curl's arguments); the dump is the count
counted() {
	local f
	rm -f "$tmp"/srv.out.*
	callgrind_control -i on "$server" >/dev/null 2>&1
	callgrind_control -z "$server" >/dev/null 2>&1
	bench_scrapes "$KS" "$url" "$@" >/dev/null
	callgrind_control -d "$server" >/dev/null 2>&1
	callgrind_control -i off "$server" >/dev/null 2>&1
	f=$(ls "$tmp"/srv.out.* 2>/dev/null | tail -n 1)
	[ -n "${INSTR_KEEP:-}" ] && cp "$f" "$INSTR_KEEP.$(date +%s%N)"
	[ -n "$f" ] || { echo "$bench bench: no callgrind dump"; exit 1; }
	div "$(instr "$f")" "$KS"
}

# instructions of a cgtop2 -b refresh: -n 1+$1 minus -n 1, over $1
refresh() {
	local k=$1 a b
	valgrind -q --tool=callgrind --callgrind-out-file="$tmp/b1.out" "$CGTOP2" -b -d 0.05 -n 1 "/$name" >/dev/null
	valgrind -q --tool=callgrind --callgrind-out-file="$tmp/bk.out" "$CGTOP2" -b -d 0.05 -n $((k + 1)) "/$name" >/dev/null
	a=$(instr "$tmp/b1.out")
	b=$(instr "$tmp/bk.out")
	div $((b - a)) "$k"
}

# the floor's user-space instructions a round, and CPU us a round (20 rounds back to back)
floor_instr() {
	valgrind -q --tool=callgrind --callgrind-out-file="$tmp/f1.out" "$FLOOR" changed 1 "$main/$name" cpu.stat >/dev/null
	valgrind -q --tool=callgrind --callgrind-out-file="$tmp/f21.out" "$FLOOR" changed 21 "$main/$name" cpu.stat >/dev/null
	div $(($(instr "$tmp/f21.out") - $(instr "$tmp/f1.out"))) 20
}

# the server's CPU us a scrape (native) over the floor's a round: $TRIES turns, the medians
native() {
	local r fl c0
	T=$CGTOP2
	BENCH_SERVE_WAIT=600 bench_serve_start
	bench_scrapes 2 "$url" >/dev/null
	for r in $(seq 1 "$TRIES"); do
		fl=$("$FLOOR" changed 20 "$main/$name" cpu.stat) || exit 1
		c0=$(bench_cpu_us "$server")
		bench_scrapes "$KS" "$url" >/dev/null
		echo "${fl%% *} $((($(bench_cpu_us "$server") - c0) / KS)) $(awk '$1 == "VmRSS:" { print $2 }' /proc/"$server"/status)"
	done >"$tmp/native"
	bench_serve_stop
	echo "floor $(cut -d' ' -f1 "$tmp/native" | median) us CPU a round," \
		"scrape $(cut -d' ' -f2 "$tmp/native" | median) us CPU," \
		"ratio scrape/floor CPU $(awk '{ printf "%.2f\n", $1 ? $2 / $1 : 0 }' "$tmp/native" | median)," \
		"server RSS $(cut -d' ' -f3 "$tmp/native" | median) KiB (median of $TRIES; $(ld))"
}

# Until the sandbox's PSI averages (over every cgroup in it) are 0 again, at most 3 minutes: a
# sleeper's start stalls a little, and the avg10s decay over a minute, moving at each scrape.
still() {
	local i f
	for i in $(seq 1 180); do
		f=$(cat "$main/$name"/{cpu,memory,io}.pressure 2>/dev/null | grep -c 'avg10=0.00 avg60=0.00 avg300=0.00')
		[ "$f" -ge 5 ] || [ ! -e "$main/$name/cpu.pressure" ] && { echo "still after $i s"; return; }
		sleep 1
	done
	echo "PSI still moving after 180 s"
}

echo "$bench bench: hierarchy $main, $(nproc) CPUs, $(ld), commit $(git -C "$BIN" rev-parse --short HEAD 2>/dev/null || echo -)"
ulimit -n "$(ulimit -Hn)" 2>/dev/null
: >"$tmp/procs"
for n in $SIZES; do
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
	grow "$n"
	for i in $(seq "$have" $((n - 1))); do
		[ $((i % EVERY)) -eq 0 ] || continue
		join "$(printf '%s/%s/c%05d' "$main" "$name" "$i")" sleep infinity
	done
	busy=$(($(wc -l <"$tmp/procs")))
	k=${INSTR_REFRESHES:-10}
	[ "$n" -ge 10000 ] && k=${INSTR_REFRESHES:-2}
	echo "=== $n cgroups, $busy populated ($(ld))"
	echo "floor at $n: $(floor_instr) instructions a round (user space; its cost is the kernel's)"
	echo "cgtop2 -b at $n, idle: $(refresh "$k") instructions a refresh ($k refreshes)"
	T=$tmp/vg
	BENCH_SERVE_WAIT=1200 bench_serve_start
	bench_scrapes 2 "$url" >/dev/null
	echo "at $n: $(still)"
	echo "scrape at $n, idle: $(counted) instructions, gzipped $(counted -H 'Accept-Encoding: gzip') ($KS scrapes; $(ld))"
	# 1 %: a waker in each populated cgroup
	for i in $(seq 0 "$EVERY" $((n - 1))); do
		join "$(printf '%s/%s/c%05d' "$main" "$name" "$i")" "$WAKER" 50000
	done
	sleep 1
	echo "scrape at $n, 1 % changing: $(counted) instructions, gzipped $(counted -H 'Accept-Encoding: gzip') ($KS scrapes; $(ld))"
	bench_serve_stop
	echo "cgtop2 -b at $n, 1 % changing: $(refresh "$k") instructions a refresh ($k refreshes)"
	echo "native at $n, 1 % changing: $(native)"
	# the wakers go; the sleepers stay for the next size
	head -n "$busy" "$tmp/procs" >"$tmp/keep"
	tail -n +$((busy + 1)) "$tmp/procs" | while read -r p; do kill "$p" 2>/dev/null; done
	mv "$tmp/keep" "$tmp/procs"
	sleep 0.5
	echo "native at $n, idle: $(native)"
done
