#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --listen for a fleet (#31): what a scrape costs, and how big it is, with cgkit's names
# and with --compat=cadvisor, at 1,000 and 10,000 cgroups (CGTOP2_FLEET_SIZES), and with
# ?collect[]=cpu and --cgroup-include keeping a tenth.
#
# The cgroups: empty children of a sandbox cgkit-test.PID in the unified hierarchy, named as
# Docker's systemd driver names containers (docker-<64 hex>.scope), so that every series
# carries the labels a container's does (unit, container_id; with --compat=cadvisor also name);
# removed on every exit. The server runs with the default collectors and
# CGKIT_SERVE_REUSE_MS=0 (every scrape samples afresh); curl fetches K scrapes in a row on one
# keep-alive connection after 3 to warm up, without gzip. Per scrape: the server's CPU
# (/proc/PID/task/*/schedstat over the K scrapes, divided by K), the median wall time, the
# body's bytes (and gzipped, as Prometheus asks), the series (sample lines), and the load
# average (1 min) when the figure was taken. The open-file limit is raised to
# CGTOP2_FLEET_NOFILE (1048576; "keep": as it is), so that the sampler keeps its files open.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
T=$BIN/cgtop2
SIZES=${CGTOP2_FLEET_SIZES:-1000 10000}
K=${CGTOP2_FLEET_K:-10}
NOFILE=${CGTOP2_FLEET_NOFILE:-1048576}
bench=cgtop2_fleet

FLOOR= # none: only $T must be built
. "$(dirname "$0")/lib.sh"
bench_preflight curl
main=$(bench_mount unified)
[ -n "$main" ] || { echo "$bench bench: no unified hierarchy here; skipped"; exit 0; }
name=cgkit-test.$$
tmp=$(mktemp -d)
bench_serve_init

# At least $1 children docker-<64 hex>.scope in the sandbox.
grow_fleet() {
	local have
	[ -d "$main/$name" ] || mkdir "$main/$name" || exit 1
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$have" -lt "$1" ] || return 0
	seq "$have" $(($1 - 1)) | awk -v d="$main/$name" '{ printf "%s/docker-%064x.scope\n", d, $1 }' | xargs mkdir || exit 1
}

# One line: label, then the figures of URL suffix $2 on the running server.
measure() {
	local label=$1 q=$2 c0 c w body gz series
	bench_scrapes 3 "$url$q" >/dev/null
	c0=$(bench_cpu_us "$server")
	w=$(bench_scrapes "$K" "$url$q" | awk '{ printf "%d\n", $1 * 1000000 }' | median)
	c=$((($(bench_cpu_us "$server") - c0) / K))
	curl -s "$url$q" >"$tmp/body"
	body=$(wc -c <"$tmp/body")
	gz=$(curl -s -H 'Accept-Encoding: gzip' -o - "$url$q" | wc -c)
	series=$(grep -vc '^#' "$tmp/body")
	printf '%-34s %9d us CPU %9d us wall %10d bytes %9d gzipped %7d series; load %s\n' \
		"$label" "$c" "$w" "$body" "$gz" "$series" "$(cut -d' ' -f1 /proc/loadavg)"
}

bench_nofile "$NOFILE"
echo "hierarchy $main, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $K scrapes a figure, open files $(ulimit -n)"
for n in $SIZES; do
	grow_fleet "$n"
	echo "--- $n cgroups (/$name/docker-<ID>.scope)"
	bench_serve_start --depth=1
	measure "cgkit names" ""
	measure "cgkit names, ?collect[]=cpu" "?collect%5B%5D=cpu"
	bench_serve_stop
	bench_serve_start --depth=1 --compat=cadvisor
	measure "--compat=cadvisor" ""
	bench_serve_stop
	# a tenth of the IDs: those ending in 0
	bench_serve_start --depth=1 --cgroup-include=".*0\\.scope"
	measure "--cgroup-include (a tenth)" ""
	bench_serve_stop
done
