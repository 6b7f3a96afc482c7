#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --listen: a scrape of /metrics (default collectors, text 0.0.4) against the same batch
# refresh (cgtop2 -b -n 1 -F prometheus) over 1,000 and 10,000 empty cgroups in a sandbox, and
# the server's resident memory before and after 10,000 scrapes.
#
# Batch: wall and CPU time (user+sys) of one whole run, median of 5: what a cron job or a
# textfile collector pays per refresh. Scrape: the server started once, CGKIT_SERVE_REUSE_MS=0
# (every scrape samples), one curl fetching URLs in a row on one keep-alive connection; wall
# time per scrape is the median of curl's time_total, CPU time per scrape the server's
# utime+stime (/proc) over the run divided by the scrapes. Issue 13's target: a scrape within
# 1.2x of the batch refresh; memory flat over 10,000 scrapes.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${CGTOP2_SERVE_BENCH_SIZES:-1000 10000}
SCRAPES=${CGTOP2_SERVE_BENCH_SCRAPES:-10000}

[ "$(id -u)" -eq 0 ] || { echo "cgtop2_serve bench: needs root (it makes cgroups); skipped"; exit 0; }
[ -x "$T" ] && [ -x "$FLOOR" ] || { echo "cgtop2_serve bench: build first (make bench builds it)"; exit 1; }
command -v curl >/dev/null || { echo "cgtop2_serve bench: curl is not installed; skipped"; exit 0; }

main=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$main" ] || main=$(awk '$9 == "cgroup" && $NF ~ /cpuacct/ { print $5; exit }' /proc/self/mountinfo)
[ -n "$main" ] || { echo "cgtop2_serve bench: no cgroup2 or cpuacct hierarchy; skipped"; exit 0; }
name=cgkit-test.$$
tmp=$(mktemp -d)
server=

. "$(dirname "$0")/lib.sh"

cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	bench_remove_sandbox
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_us() {
	echo $(($(date +%s%N) / 1000))
}

# CPU microseconds (user+sys) of process $1 so far
cpu_us() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) * 1000000 / hz }' "/proc/$1/stat"
}

rss_kb() {
	awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"
}

# $1 scrapes of URL $2 on one connection; prints curl's time_total (s) of each
scrapes() {
	local i
	for i in $(seq 1 "$1"); do echo "url = \"$2\""; echo "output = \"/dev/null\""; done >"$tmp/curl.cfg"
	curl -s -K "$tmp/curl.cfg" -w '%{time_total}\n'
}

for n in $SIZES; do
	grow "$n"
	echo "--- $n cgroups (/$name in $main), depth 1"
	bw=$(for i in 1 2 3 4 5; do
		t0=$(now_us)
		"$T" -b -n 1 -F prometheus "/$name" >/dev/null
		echo $(($(now_us) - t0))
	done | median)
	bc=$(for i in 1 2 3 4 5; do "$FLOOR" rusage "$T" -b -n 1 -F prometheus "/$name" | cut -d' ' -f1; done | median)
	printf 'batch refresh  %8d us wall %8d us CPU  (cgtop2 -b -n 1 -F prometheus, a whole run)\n' "$bw" "$bc"
	k=$((n >= 10000 ? 20 : 100))
	for mode in default always_read; do
		env=CGKIT_NOTHING=1
		[ $mode = always_read ] && env=CGKIT_STATS_ALWAYS_READ=1
		# the steady state of a batch run: (12 refreshes - 2) / 10, CPU, median of 3
		bs=$(for i in 1 2 3; do
			a=$(env "$env" "$FLOOR" rusage "$T" -b -n 2 -d 0.01 -F prometheus "/$name" | cut -d' ' -f1)
			b=$(env "$env" "$FLOOR" rusage "$T" -b -n 12 -d 0.01 -F prometheus "/$name" | cut -d' ' -f1)
			echo $(((b - a) / 10))
		done | median)
		env "$env" CGKIT_SERVE_REUSE_MS=0 "$T" --listen=127.0.0.1:0 "/$name" 2>"$tmp/err" &
		server=$!
		# the first scan of 10,000 cgroups took 6.5 s on a loaded machine: up to 60 s
		for i in $(seq 1 1200); do grep -q serving "$tmp/err" && break; sleep 0.05; done
		url=$(sed -n 's|.*serving \(http://[^ ]*\)$|\1|p' "$tmp/err")
		[ -n "$url" ] || { echo "cgtop2_serve bench: the server did not start: $(cat "$tmp/err")"; exit 1; }
		scrapes 5 "$url" >/dev/null
		c0=$(cpu_us "$server")
		sw=$(scrapes "$k" "$url" | awk '{ printf "%d\n", $1 * 1000000 }' | median)
		sc=$((($(cpu_us "$server") - c0) / k))
		echo "$([ $mode = default ] && echo "as it runs:" || echo "CGKIT_STATS_ALWAYS_READ=1 (every file re-read):")"
		printf '  batch steady %8s    wall %8d us CPU  (one more refresh of a running -b)\n' "" "$bs"
		printf '  scrape       %8d us wall %8d us CPU  (median of %d; CPU: the server over them)\n' "$sw" "$sc" "$k"
		awk -v a="$sw" -v b="$bw" -v c="$sc" -v d="$bc" -v e="$bs" 'BEGIN {
			printf "  ratio scrape/batch refresh: wall %.3f, CPU %.3f; scrape/batch steady: CPU %.2f (target <= 1.2)\n",
				a / b, (d ? c / d : 0), (e ? c / e : 0) }'
		if [ $mode = default ] && [ "$n" = "$(echo "$SIZES" | awk '{ print $1 }')" ]; then
			r0=$(rss_kb "$server")
			t0=$(now_us)
			left=$SCRAPES
			while [ "$left" -gt 0 ]; do
				b=$((left > 1000 ? 1000 : left))
				scrapes "$b" "$url" >/dev/null
				left=$((left - b))
			done
			r1=$(rss_kb "$server")
			echo "  RSS of the server: $r0 KiB before, $r1 KiB after $SCRAPES scrapes ($((r1 - r0)) KiB; $((($(now_us) - t0) / 1000)) ms)"
		fi
		[ $mode = always_read ] && break
		kill "$server"
		wait "$server" 2>/dev/null
	done
	gz=$(curl -s -H 'Accept-Encoding: gzip' -o "$tmp/gz" -w '%{size_download}' "$url")
	plain=$(curl -s -o "$tmp/plain" -w '%{size_download}' "$url")
	echo "body: $plain bytes, $gz gzipped"

	kill "$server"
	wait "$server" 2>/dev/null
	server=
done
