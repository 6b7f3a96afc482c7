#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soak: cgtop2 -b and cgtop2 --listen run for SOAK_SECONDS (default 3600) against a sandbox
# whose tree a churn loop keeps changing (cgroups made and removed, nested ones, short and long
# sleepers started in them and killed), while the exporter is scraped SOAK_SCRAPE_RATE times a
# second (default 10, one curl at a time). Every SOAK_SAMPLE seconds (default 30) it prints each
# cgtop2's resident memory and open fds; at the end first/last/max of each, the scrapes and
# their failures, and every error line either cgtop2 wrote. The point is flat lines: RSS and fds
# that do not grow with the hours, no error. Not in `make bench` (it runs an hour): run it as
# `make bench B=soak SOAK_SECONDS=900`. Light on purpose (SOAK_CGROUPS=40 slots, one change
# every SOAK_TICK=0.2 s): the machine may be shared.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
T=$BIN/cgtop2
SECS=${SOAK_SECONDS:-3600}
SAMPLE=${SOAK_SAMPLE:-30}
RATE=${SOAK_SCRAPE_RATE:-10}
SLOTS=${SOAK_CGROUPS:-40}
TICK=${SOAK_TICK:-0.2}
bench=soak

# lib.sh's checks and mount lookup only (its own sandbox and clean-up)
FLOOR= # none: only $T must be built
. "$(dirname "$0")/lib.sh"
bench_preflight curl
# the unified hierarchy (no v1 memory: processes are moved only here), else v1 cpuacct
main=$(bench_mount unified cpuacct)
[ -n "$main" ] || { echo "soak: no cgroup2 or cpuacct hierarchy; skipped"; exit 0; }
spec=/cgkit-test.$$
[ "$main" = "$(bench_mount unified)" ] || spec=cpuacct:$spec
sb=$main/cgkit-test.$$
tmp=$(mktemp -d)
batch= server= churn= scraper=

# What runs in the sandbox is ours (the churn's sleepers): killed by PID, then the tree removed.
cleanup() {
	local p
	for p in $scraper $churn $batch $server; do kill "$p" 2>/dev/null; done
	for p in $scraper $churn $batch $server; do wait "$p" 2>/dev/null; done
	if [ -d "$sb" ]; then
		for p in $(find "$sb" -name cgroup.procs -exec cat {} + 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		sleep 0.2
		find "$sb" -depth -type d -exec rmdir {} \; 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir "$sb" || exit 1

# One change a tick: slot i made (with a sleeper of 1 to 30 s and, one time in four, a nested
# child with its own), or, when it exists, its sleepers killed and it removed.
churn_loop() {
	local i d p ops=0
	trap - EXIT
	while :; do
		i=$((RANDOM % SLOTS))
		d=$sb/s$i
		if [ -d "$d" ]; then
			for p in $(cat "$d/cgroup.procs" "$d"/n/cgroup.procs 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
			for p in $(seq 1 20); do rmdir "$d/n" "$d" 2>/dev/null; [ -d "$d" ] || break; sleep 0.05; done
		else
			mkdir "$d" 2>/dev/null &&
				sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep "$2"' _ "$d" $((1 + RANDOM % 30)) &
			if [ $((RANDOM % 4)) -eq 0 ] && mkdir "$d/n" 2>/dev/null; then
				sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep "$2"' _ "$d/n" $((1 + RANDOM % 30)) &
			fi
		fi
		ops=$((ops + 1))
		echo "$ops" >"$tmp/ops"
		sleep "$TICK"
	done
}

"$T" -b -n 0 -d 1 "$spec" >/dev/null 2>"$tmp/batch.err" &
batch=$!
"$T" --listen=127.0.0.1:0 "$spec" 2>"$tmp/serve.err" &
server=$!
for i in $(seq 1 100); do grep -q serving "$tmp/serve.err" && break; sleep 0.05; done
url=$(sed -n 's|.*serving \(http://[^ ]*\)$|\1|p' "$tmp/serve.err")
[ -n "$url" ] || { echo "soak: the server did not start: $(cat "$tmp/serve.err")"; exit 1; }

churn_loop >/dev/null 2>&1 &
churn=$!

# One curl per 5 s of scrapes (--rate paces them on one keep-alive connection; curl buffers
# what -w writes until it ends); each scrape's status code and body size appended to scrapes.
scrape_loop() {
	local i
	trap - EXIT
	for i in $(seq 1 $((RATE * 5))); do echo "url = \"$url\""; echo 'output = "/dev/null"'; done >"$tmp/curl.cfg"
	while :; do
		curl -s --rate "$RATE/s" -K "$tmp/curl.cfg" -w '%{http_code} %{size_download}\n' >>"$tmp/scrapes"
	done
}
: >"$tmp/scrapes"
scrape_loop 2>/dev/null &
scraper=$!

rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2>/dev/null; }
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }

echo "soak: $SECS s, a sample every $SAMPLE s; cgtop2 -b -d 1 (pid $batch) and --listen (pid $server, $url) on $sb; $RATE scrapes/s; churn: $SLOTS slots, a change every $TICK s"
printf '%6s %10s %6s %10s %6s %8s %9s %8s %6s\n' secs batch_rss batch_fds serve_rss serve_fds cgroups sleepers scrapes churn
: >"$tmp/samples"
start=$SECONDS
while :; do
	el=$((SECONDS - start))
	kill -0 "$batch" 2>/dev/null || { echo "soak: cgtop2 -b ended: $(cat "$tmp/batch.err")"; break; }
	kill -0 "$server" 2>/dev/null || { echo "soak: cgtop2 --listen ended: $(cat "$tmp/serve.err")"; break; }
	line=$(printf '%6d %10s %6s %10s %6s %8d %9d %8d %6s' "$el" "$(rss_kb "$batch")" "$(fds "$batch")" \
		"$(rss_kb "$server")" "$(fds "$server")" "$(find "$sb" -mindepth 1 -type d | wc -l)" \
		"$(find "$sb" -name cgroup.procs -exec cat {} + 2>/dev/null | wc -l)" "$(wc -l <"$tmp/scrapes")" \
		"$(cat "$tmp/ops" 2>/dev/null || echo 0)")
	echo "$line"
	echo "$line" >>"$tmp/samples"
	[ "$el" -ge "$SECS" ] && break
	sleep "$SAMPLE"
done

echo
echo "| process | RSS KiB first | last | max | open fds first | last | max |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
awk '{ if (NR == 1) { r1 = $2; f1 = $3; s1 = $4; g1 = $5 }
       r = $2; f = $3; s = $4; g = $5
       if ($2 > rm) rm = $2; if ($3 > fm) fm = $3; if ($4 > sm) sm = $4; if ($5 > gm) gm = $5 }
     END { printf "| cgtop2 -b -d 1 | %d | %d | %d | %d | %d | %d |\n", r1, r, rm, f1, f, fm
           printf "| cgtop2 --listen | %d | %d | %d | %d | %d | %d |\n", s1, s, sm, g1, g, gm }' "$tmp/samples"
# fds follow the tree (a directory and stat files a cgroup): what does not is a leak
echo
awk 'NR == 1 { b0 = $3; s0 = $5; next }
     $6 > 0 { b = ($3 - b0) / $6; s = ($5 - s0) / $6; n++
              if (n == 1) { b1 = b; s1 = s }
              if (b > bm) bm = b; if (s > sm) sm = s; bl = b; sl = s }
     END { printf "fds per cgroup of the sandbox, above the start: cgtop2 -b %.1f first, %.1f last, %.1f max; --listen %.1f, %.1f, %.1f\n",
                  b1, bl, bm, s1, sl, sm }' "$tmp/samples"
awk '{ n++; if ($1 != 200) bad++; b += $2 } END {
	printf "scrapes: %d, not 200: %d, mean body %d bytes\n", n, bad + 0, n ? b / n : 0 }' "$tmp/scrapes"
echo "churn: $(cat "$tmp/ops" 2>/dev/null || echo 0) changes"
echo "error lines: cgtop2 -b $(grep -vc '^$' "$tmp/batch.err"), cgtop2 --listen $(grep -vc serving "$tmp/serve.err")"
grep -v '^$' "$tmp/batch.err" | head -5 | sed 's/^/  -b: /'
grep -v serving "$tmp/serve.err" | head -5 | sed 's/^/  --listen: /'
