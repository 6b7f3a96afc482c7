#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgcreate2 against the floor of creating cgroups (bench/cgcreate2_floor.c: one mkdirat per
# cgroup, one process), the anchor users know (coreutils mkdir with the paths as arguments) and
# libcgroup's cgcreate (v1 only: it has no cgroup2-only mode on a hybrid host), on the same
# cgroups: N siblings made in calls of B cgroups each, then removed. Best of R; CPU time
# (user + system of every process, what load from others disturbs least) and wall time.
# Sandboxes: cgkit-test.<pid> in the unified hierarchy and in the v1 pids hierarchy.
# Environment: SIZES ("1000 10000"), BATCHES ("200 all": calls of 200 cgroups, or one call),
# REPEAT (3).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CGKIT_BIN:-$top}
OBJ=${CGKIT_OBJ:-$top/.obj}
C=$BIN/cgcreate2
FLOOR=$OBJ/bench/cgcreate2_floor
SIZES=${SIZES:-1000 10000}
BATCHES=${BATCHES:-200 all}
REPEAT=${REPEAT:-3}
S=cgkit-test.$$
made=()

say() { echo "cgcreate2 bench: $*"; }

# bench_mount: a hierarchy's mount point
. "$top/bench/lib.sh"

[ "$(id -u)" -eq 0 ] || { say "skipped: needs root"; exit 0; }
for b in "$C" "$FLOOR"; do
	[ -x "$b" ] || { say "skipped: $b is not built (make bench builds it)"; exit 0; }
done

cleanup() {
	local d
	for d in "${made[@]}"; do
		[ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		[ -d "$d" ] && rmdir "$d"
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# CPU and wall milliseconds of "$@" (children included): "cpu wall"
cost() {
	local t0 t1 c0 c1 me=$BASHPID
	c0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$me/stat)
	t0=$(date +%s%N)
	"$@" >/dev/null || return 1
	t1=$(date +%s%N)
	c1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$me/stat)
	echo "$(((c1 - c0) * 1000 / $(getconf CLK_TCK))) $(((t1 - t0) / 1000000))"
}

# make N cgroups under $dir with tool $1 in calls of $batch: runs in a subshell for cost()
make_with() {
	local tool=$1 i j end args
	for ((i = 0; i < n; i += step)); do
		end=$((i + step < n ? i + step : n))
		args=()
		case $tool in
		floor) for ((j = i; j < end; j++)); do args+=("c$j"); done
			"$FLOOR" "$dir" "${args[@]}" || return 1 ;;
		mkdir) for ((j = i; j < end; j++)); do args+=("$dir/c$j"); done
			mkdir "${args[@]}" || return 1 ;;
		cgcreate2) for ((j = i; j < end; j++)); do args+=(-g "$spec/$S/c$j"); done
			"$C" "${args[@]}" || return 1 ;;
		cgcreate) for ((j = i; j < end; j++)); do args+=(-g "$ctrl:/$S/c$j"); done
			cgcreate "${args[@]}" || return 1 ;;
		esac
	done
}

clear_dir() {
	local names=() j
	for ((j = 0; j < n; j++)); do names+=("c$j"); done
	"$FLOOR" -x "$dir" "${names[@]}"
}

# best (lowest CPU) of REPEAT runs: "cpu wall"
best_of() {
	local r best= line
	for ((r = 0; r < REPEAT; r++)); do
		line=$( (cost make_with "$1") ) || { echo "- -"; clear_dir 2>/dev/null; return; }
		clear_dir
		if [ -z "$best" ] || [ "${line% *}" -lt "${best% *}" ]; then best=$line; fi
	done
	echo "$best"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "-") printf "%.2fx", a / b; else printf "-" }'; }

say "$(date -u +%FT%TZ), kernel $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for ctrl in unified pids; do
	root=$(bench_mount "$ctrl")
	[ -n "$root" ] || { say "$ctrl: not mounted, skipped"; continue; }
	dir=$root/$S
	mkdir "$dir" && made+=("$dir")
	[ "$ctrl" = unified ] && spec= || spec=$ctrl:
	for n in $SIZES; do
		for batch in $BATCHES; do
			[ "$batch" = all ] && step=$n || step=$batch
			calls=$(((n + step - 1) / step))
			read -r fc fw <<<"$(best_of floor)"
			read -r mc mw <<<"$(best_of mkdir)"
			read -r cc cw <<<"$(best_of cgcreate2)"
			lc=- lw=-
			if [ "$ctrl" != unified ] && command -v cgcreate >/dev/null; then
				read -r lc lw <<<"$(best_of cgcreate)"
			fi
			say "$ctrl n=$n in $calls call(s): cpu ms floor $fc mkdir $mc cgcreate2 $cc cgcreate $lc;" \
				"cgcreate2/floor $(ratio "$cc" "$fc") cgcreate2/mkdir $(ratio "$cc" "$mc") cgcreate/mkdir $(ratio "$lc" "$mc");" \
				"wall ms floor $fw mkdir $mw cgcreate2 $cw cgcreate $lw, cgcreate2/mkdir $(ratio "$cw" "$mw")"
		done
	done
done
