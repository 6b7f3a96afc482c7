#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgexec2 against its anchors: wall time per run, from a shell loop, of
#   a bare /bin/true | libcgroup's cgexec -g SPEC /bin/true | cgexec2 -g SPEC /bin/true
#   | cgexec2 -s (waits: clone3 or move) | cgexec2 -t (create, place, wait, kill, remove),
# the cgexec2 ones again in the unified hierarchy (_v2: clone3(CLONE_INTO_CGROUP) when waiting)
# in a cgkit-test.<pid> cgroup of a v1 hierarchy libcgroup can see (cpu, else pids, freezer),
# and of the unified one for cgexec2 alone. Prints per-run times and ratios; the targets are
# cgexec2 adding under 0.5 ms over the bare exec (a quarter of cgexec's ~2 ms) and the
# transient mode under 2 ms. Rounds interleave the variants so a busy machine skews all alike.
#   CGKIT_BENCH_RUNS  runs per variant per round (100)   CGKIT_BENCH_ROUNDS  rounds (5)
set -u
bin=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
X=$bin/cgexec2
runs=${CGKIT_BENCH_RUNS:-100}
rounds=${CGKIT_BENCH_ROUNDS:-5}
name=cgkit-test.$$
made=()
tmpf=$(mktemp)

[ "$(id -u)" -eq 0 ] || { echo "bench/cgexec2: needs root (moves processes between cgroups); skipped"; exit 0; }
[ -x "$X" ] || { echo "bench/cgexec2: $X is not built" >&2; exit 1; }

mnt() {
	awk -v want="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		fs = $(i + 1); opts = "," $(i + 3) ","
		if (want == "unified") { if (fs == "cgroup2") { print $5; exit }; next }
		if (fs == "cgroup" && index(opts, "," want ",")) { print $5; exit } }' /proc/self/mountinfo
}

cleanup() {
	local d
	rm -f "$tmpf"
	for d in "${made[@]}"; do
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
}
trap cleanup EXIT

# never the v1 memory hierarchy: the machine's own accounting lives there
ctrl=
for c in cpu pids freezer; do
	m=$(mnt "$c")
	[ -n "$m" ] && { ctrl=$c; break; }
done
if [ -n "$ctrl" ]; then
	mkdir "$m/$name" && made+=("$m/$name")
	spec=$ctrl:$name
else
	# unified only (the unified VM): libcgroup 2.0.2 cannot take part
	m=$(mnt unified)
	[ -n "$m" ] || { echo "bench/cgexec2: no cgroup hierarchy mounted; skipped"; exit 0; }
	mkdir "$m/$name" && made+=("$m/$name")
	spec=$name
fi
u=$(mnt unified)
if [ -n "$u" ] && [ -n "$ctrl" ]; then
	mkdir "$u/$name" && made+=("$u/$name")
fi
have_cgexec=
command -v cgexec >/dev/null && [ -n "$ctrl" ] && cgexec -g "$spec" /bin/true 2>/dev/null && have_cgexec=1

variants=(bare cgexec2 cgexec2_s cgexec2_t)
[ -n "$have_cgexec" ] && variants+=(cgexec)
[ -n "$u" ] && [ -n "$ctrl" ] && variants+=(cgexec2_v2 cgexec2_v2_s cgexec2_v2_t)

run_variant() {
	local i
	case $1 in
	bare) for ((i = 0; i < runs; i++)); do /bin/true; done ;;
	cgexec) for ((i = 0; i < runs; i++)); do cgexec -g "$spec" /bin/true; done ;;
	cgexec2) for ((i = 0; i < runs; i++)); do "$X" -g "$spec" /bin/true; done ;;
	cgexec2_s) for ((i = 0; i < runs; i++)); do "$X" -s -g "$spec" /bin/true 2>/dev/null; done ;;
	cgexec2_t) for ((i = 0; i < runs; i++)); do "$X" -t -g "$spec" /bin/true; done ;;
	cgexec2_v2) for ((i = 0; i < runs; i++)); do "$X" -g "$name" /bin/true; done ;;
	cgexec2_v2_s) for ((i = 0; i < runs; i++)); do "$X" -s -g "$name" /bin/true 2>/dev/null; done ;;
	cgexec2_v2_t) for ((i = 0; i < runs; i++)); do "$X" -t -g "$name" /bin/true; done ;;
	esac
}

# CPU time (user + system, microseconds) of the finished children of this shell: a second
# measure that a loaded machine (other engineers' builds) disturbs less than wall time
# into CPU_US ($(times) would run in a subshell, which has no children: go through a file)
children_cpu_us() {
	times >"$tmpf"
	CPU_US=$(tail -n 1 "$tmpf" | awk '{ t = 0
		for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }
		printf "%d", t * 1000000 }')
}

declare -A samples cpu
for ((r = 0; r < rounds; r++)); do
	for v in "${variants[@]}"; do
		children_cpu_us
		c0=$CPU_US
		t0=$(date +%s%N)
		run_variant "$v"
		t1=$(date +%s%N)
		children_cpu_us
		c1=$CPU_US
		# microseconds per run
		samples[$v]+="$(((t1 - t0) / runs / 1000)) "
		cpu[$v]+="$(((c1 - c0) / runs)) "
	done
done

median() {
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

declare -A med cmed
for v in "${variants[@]}"; do
	med[$v]=$(median "${samples[$v]}")
	cmed[$v]=$(median "${cpu[$v]}")
done
ms() { awk -v us="$1" 'BEGIN { printf "%.3f ms", us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

bare=${med[bare]}
echo "cgexec2 bench: $rounds rounds x $runs runs, spec $spec${u:+, unified $name}," \
	"load $(cut -d' ' -f1 /proc/loadavg); median per run:"
for v in "${variants[@]}"; do
	printf '  %-14s wall %s (+%s over bare, x%s)   cpu %s (+%s)\n' "$v" "$(ms "${med[$v]}")" \
		"$(ms $((med[$v] - bare)))" "$(ratio "${med[$v]}" "$bare")" "$(ms "${cmed[$v]}")" \
		"$(ms $((cmed[$v] - cmed[bare])))"
done
load=$(cut -d' ' -f1 /proc/loadavg)
awk -v l="$load" 'BEGIN { exit !(l > 1.5) }' &&
	echo "note: load $load on $(nproc) CPUs while measuring: wall figures are unreliable, rerun on a quiet machine"
over=$((med[cgexec2] - bare))
over_t=$((med[cgexec2_t] - bare))
if [ -n "$have_cgexec" ]; then
	echo "ratio cgexec2/cgexec (wall): $(ratio "${med[cgexec2]}" "${med[cgexec]}")"
	echo "ratio cgexec2 overhead / cgexec overhead: $(ratio "$over" $((med[cgexec] - bare))) (target < 0.25)"
fi
echo "cgexec2 overhead: $(ms "$over") (target < 0.5 ms): $([ "$over" -lt 500 ] && echo met || echo MISSED)"
echo "cgexec2 -t overhead: $(ms "$over_t") (target < 2 ms): $([ "$over_t" -lt 2000 ] && echo met || echo MISSED)"
