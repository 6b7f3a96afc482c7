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
# body's bytes (and gzipped, as Prometheus asks), and the series (sample lines).
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
T=$BIN/cgtop2
SIZES=${CGTOP2_FLEET_SIZES:-1000 10000}
K=${CGTOP2_FLEET_K:-10}
# the sampler keeps a file open per stat file when the limit allows (10,000 cgroups: about
# 50,000); "keep": the limit as it is
NOFILE=${CGTOP2_FLEET_NOFILE:-1048576}

[ "$(id -u)" -eq 0 ] || { echo "cgtop2_fleet bench: needs root (it makes cgroups); skipped"; exit 0; }
[ -x "$T" ] || { echo "cgtop2_fleet bench: build first"; exit 1; }
command -v curl >/dev/null || { echo "cgtop2_fleet bench: curl is not installed; skipped"; exit 0; }
main=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$main" ] || { echo "cgtop2_fleet bench: no unified hierarchy here; skipped"; exit 0; }
name=cgkit-test.$$
tmp=$(mktemp -d)
server=

. "$(dirname "$0")/lib.sh"

cleanup() {
	[ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }
	bench_remove_sandbox
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# At least $1 children docker-<64 hex>.scope in the sandbox.
grow_fleet() {
	local have
	[ -d "$main/$name" ] || mkdir "$main/$name" || exit 1
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$have" -lt "$1" ] || return 0
	seq "$have" $(($1 - 1)) | awk -v d="$main/$name" '{ printf "%s/docker-%064x.scope\n", d, $1 }' | xargs mkdir || exit 1
}

cpu_us() {
	cat /proc/"$1"/task/*/schedstat | awk '{ ns += $1 } END { printf "%d\n", ns / 1000 }'
}

# $1 scrapes of URL $2 on one connection; curl's time_total (s) of each
scrapes() {
	local i
	for i in $(seq 1 "$1"); do echo "url = \"$2\""; echo "output = \"/dev/null\""; done >"$tmp/curl.cfg"
	curl -s -K "$tmp/curl.cfg" -w '%{time_total}\n'
}

start() {
	rm -f "$tmp/err"
	CGKIT_SERVE_REUSE_MS=0 "$T" --listen=127.0.0.1:0 --depth=1 "$@" "/$name" 2>"$tmp/err" &
	server=$!
	for i in $(seq 1 1200); do grep -qs serving "$tmp/err" && break; sleep 0.05; done
	url=$(sed -n 's|.*serving \(http://[^ ]*\)$|\1|p' "$tmp/err")
	[ -n "$url" ] || { echo "cgtop2_fleet bench: the server did not start: $(cat "$tmp/err")"; exit 1; }
}

stop() {
	kill "$server"
	wait "$server" 2>/dev/null
	server=
}

# One line: label, then the figures of URL suffix $2 on the running server.
measure() {
	local label=$1 q=$2 c0 c w body gz series
	scrapes 3 "$url$q" >/dev/null
	c0=$(cpu_us "$server")
	w=$(scrapes "$K" "$url$q" | awk '{ printf "%d\n", $1 * 1000000 }' | median)
	c=$((($(cpu_us "$server") - c0) / K))
	curl -s "$url$q" >"$tmp/body"
	body=$(wc -c <"$tmp/body")
	gz=$(curl -s -H 'Accept-Encoding: gzip' -o - "$url$q" | wc -c)
	series=$(grep -vc '^#' "$tmp/body")
	printf '%-34s %9d us CPU %9d us wall %10d bytes %9d gzipped %7d series\n' \
		"$label" "$c" "$w" "$body" "$gz" "$series"
}

if [ "$NOFILE" != keep ]; then
	ulimit -Hn "$NOFILE" 2>/dev/null && ulimit -n "$NOFILE" 2>/dev/null ||
		echo "cgtop2_fleet bench: could not raise the open-file limit to $NOFILE"
fi
echo "hierarchy $main, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $K scrapes a figure, open files $(ulimit -n)"
for n in $SIZES; do
	grow_fleet "$n"
	echo "--- $n cgroups (/$name/docker-<ID>.scope)"
	start
	measure "cgkit names" ""
	measure "cgkit names, ?collect[]=cpu" "?collect%5B%5D=cpu"
	stop
	start --compat=cadvisor
	measure "--compat=cadvisor" ""
	stop
	# a tenth of the IDs: those ending in 0
	start --cgroup-include=".*0\\.scope"
	measure "--cgroup-include (a tenth)" ""
	stop
done
