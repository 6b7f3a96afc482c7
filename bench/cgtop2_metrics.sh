#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2's collectors (#13): what each one costs per 1,000 cgroups and refresh, and the scrape
# with every collector against the C floor that preads the same files on kept fds.
#
# The cgroups are empty children of a sandbox cgkit-test.<pid>, in the unified hierarchy and in
# every v1 hierarchy a collector reads (cpu, cpuacct, memory, blkio, pids, cpuset): empty cgroups only,
# no process joins any of them. Every file is read every time (CGKIT_STATS_ALWAYS_READ=1), the
# figure to hold against the floor. Per refresh = (CPU time of 2+K refreshes - of 2) / K, the
# median of 3: start-up, the first scan and the first reads drop out.
# A collector's own cost = -F prometheus with --collectors=NAME minus with --collectors=none.
# The issue's targets: all collectors within 1.5x of the floor; a scrape with the default
# collectors within 1.2x of the same batch refresh is the endpoint's (#13, --listen) to show.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${CGTOP2_METRICS_BENCH_SIZES:-1000}
K=${CGTOP2_METRICS_BENCH_K:-5}
bench=cgtop2_metrics

# lib.sh's checks and mount lookup only: this bench's sandbox spans hierarchies (its own grow)
. "$(dirname "$0")/lib.sh"
bench_preflight

name=cgkit-test.$$
mnts=
for c in unified cpu cpuacct memory blkio pids cpuset; do
	m=$(bench_mount $c)
	[ -n "$m" ] || continue
	case " $mnts " in *" $m "*) ;; *) mnts="$mnts $m" ;; esac
done
[ -n "$mnts" ] || { echo "cgtop2_metrics bench: no cgroup hierarchy; skipped"; exit 0; }

cleanup() {
	local m
	for m in $mnts; do
		[ -d "$m/$name" ] || continue
		find "$m/$name" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$m/$name"
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

grow() {
	local m n=$1 have
	for m in $mnts; do
		[ -d "$m/$name" ] || mkdir "$m/$name" || exit 1
		have=$(find "$m/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
		[ "$have" -lt "$n" ] || continue
		seq "$have" $((n - 1)) | awk -v d="$m/$name" '{ printf "%s/c%05d\n", d, $1 }' |
			xargs mkdir || exit 1
	done
}

# CPU microseconds of one refresh in the steady state (median of 3)
per_refresh_us() {
	local a b i
	for i in 1 2 3; do
		a=$("$FLOOR" rusage "$@" -n 2 | cut -d' ' -f1) || return 1
		b=$("$FLOOR" rusage "$@" -n $((K + 2)) | cut -d' ' -f1) || return 1
		echo $(((b - a) / K))
	done | sort -n | sed -n 2p
}

# The files cgtop2 opens per cgroup with these arguments: those of c00000, as strace sees them
# ("hierarchy-mountpoint file" a line)
files_read() {
	local m f
	strace -f -qq -e trace=openat -o "$tmp/trace" "$T" -d 0.01 -n 2 "$@" "/$name" >/dev/null 2>&1
	for m in $mnts; do
		for f in $(ls "$m/$name/c00000"); do
			[ -f "$m/$name/c00000/$f" ] && echo "$m $f"
		done
	done | while read -r m f; do
		grep -q "\"$f\"" "$tmp/trace" && grep "\"$f\"" "$tmp/trace" | grep -vq ENOENT && echo "$m $f"
	done
}

# what cgtop2 reads per cgroup, hierarchy by hierarchy, on kept fds: the floor (us per refresh)
floor_us() {
	local m f sum=0 v
	while read -r m f; do
		v=$("$FLOOR" floor 10 "$m/$name" "$f") || return 1
		sum=$((sum + ${v%% *}))
	done <"$1"
	echo "$sum"
}

per_1k() {
	awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f ms", (a - b) / 1000 * 1000 / n }'
}

ms() {
	awk -v u="$1" 'BEGIN { printf "%.1f ms", u / 1000 }'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'
}

tmp=$(mktemp -d)
trap 'cleanup; rm -rf "$tmp"' EXIT
command -v strace >/dev/null || { echo "cgtop2_metrics bench: needs strace to list the files read"; exit 0; }
export CGKIT_STATS_ALWAYS_READ=1
echo "hierarchies:$mnts ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
for n in $SIZES; do
	grow "$n"
	echo "== $n empty cgroups, every file read every refresh"
	table=$(per_refresh_us "$T" -b "/$name") || exit 1
	none=$(per_refresh_us "$T" -F prometheus --collectors=none "/$name") || exit 1
	echo "batch table (no collector)            $(ms "$table") per refresh"
	echo "-F prometheus --collectors=none       $(ms "$none") per refresh"
	# limits: every refresh here (CGKIT_STATS_ALWAYS_READ); cgtop2 reads them every 10 s
	for c in cpu memory io iodevice pids psi limits; do
		v=$(per_refresh_us "$T" -F prometheus --collectors=$c "/$name") || exit 1
		printf '%-38s%s per refresh; its own cost %s per 1k cgroups\n' \
			"-F prometheus --collectors=$c" "$(ms "$v")" "$(per_1k "$v" "$none" "$n")"
	done
	def=$(per_refresh_us "$T" -F prometheus "/$name") || exit 1
	# the floor preads kept fds: limits keep none by design (read every 10 s), so "all" here
	# is every collector but limits, whose cost is its line above
	all=$(per_refresh_us "$T" -F prometheus --collectors=all,-limits "/$name") || exit 1
	files_read -F prometheus --collectors=all,-limits >"$tmp/files"
	fl=$(floor_us "$tmp/files") || exit 1
	echo "-F prometheus (default collectors)    $(ms "$def") per refresh"
	echo "-F prometheus --collectors=all,-limits $(ms "$all") per refresh"
	echo "floor (pread on kept fds)             $(ms "$fl") per refresh; files per cgroup:" \
		"$(awk '{ n = split($1, p, "/"); printf "%s%s:%s", s, p[n], $2; s = " " }' "$tmp/files")"
	echo "ratio all collectors/floor $(ratio "$all" "$fl") (target <= 1.500)"
	echo "ratio default collectors/batch table $(ratio "$def" "$table") (the endpoint's target: <= 1.200)"
done
