#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fork bomb (tests/helpers/mig_forker bomb: every process forks each millisecond and lives
# LIFE_MS) held at pids.max = 100, 300, 1000, ended three ways, one line each: drained by
# cgmigrate -F without --freeze, drained with --freeze, and removed by cgcreate2 -x with
# --kill=KILL --grace=0 (SIGKILL first, so the bomb's leader cannot stop the storm itself as it
# does on SIGTERM: the kill has to win against a storm that goes on). Each line: the exit
# status, the rounds (drains), the seconds, moved and gone (drains), the storm's size before,
# what was left in the storm cgroup right after (the drain's own count when it gave up; for
# -x -k the processes still in the cgroup, or "-" when it is gone), "after" what the storm
# cgroup lists right after the tool returned (a drain that emptied it may see it refilled), and the tool's error line
# (else its last line).
# In the pids hierarchy: v2 where the unified root offers pids, else v1 (with the freezer
# hierarchy for -z and for the v1 kill's freeze).
# A storm of a thousand processes must spare a shared host: run it in the VM matrix (bench/ is
# not copied into the guest, so the script goes as an argument; the guest runs in the tree's
# copy, where ./cgmigrate and ./.obj are):
#   make && make tests-build && tests/vm/run unified -- bash -c "$(cat bench/cgmigrate_storm.sh)"
# (also legacy). Sandbox: cgkit-test.<pid> in pids (and freezer), removed at exit.
# Environment: MAXES ("100 300 1000"), MODES ("drain drain-z kill"), TIMEOUT (10s: cgmigrate
# --timeout, and cgcreate2 --timeout for the wait after the kill), LIFE_MS (200), WARMUP (2: at
# most this many seconds for the storm to reach 90% of pids.max; "before" says how far it got),
# FORK_MS (1: each bomb process forks every FORK_MS), BOMB_S (120: the bomb ends itself after
# this), NICE (0: the tools run under nice -n NICE; an operator ending a runaway storm as root
# would give them -10). In a TCG guest a storm of 200 ms lives stays far below 300: give it
# LIFE_MS=2000 WARMUP=20, e.g. bash -c "LIFE_MS=2000 WARMUP=20; $(cat ...)". In the legacy
# guest a storm of 1000 forking each millisecond starves the tools until the bomb ends itself:
# FORK_MS=10 BOMB_S=600 NICE=-10 keeps it at pids.max for the whole run ("storm" says whether
# the bomb was still running when the tool returned: "no" means the line measured no storm).
set -u
if [ -x ./cgmigrate ] && [ -d ./.obj ]; then top=$PWD; else top=$(cd "$(dirname "$0")/.." && pwd); fi
M=${CGKIT_BIN:-$top}/cgmigrate
C=${CGKIT_BIN:-$top}/cgcreate2
FORKER=${CGKIT_OBJ:-$top/.obj}/tests/helpers/mig_forker
MAXES=${MAXES:-100 300 1000}
MODES=${MODES:-drain drain-z kill}
TIMEOUT=${TIMEOUT:-10s}
LIFE_MS=${LIFE_MS:-200}
WARMUP=${WARMUP:-2}
FORK_MS=${FORK_MS:-1}
BOMB_S=${BOMB_S:-120}
NICE=${NICE:-0}
S=cgkit-test.$$
bomb=
say() { echo "cgmigrate storm: $*"; }

mnt() { # $1: unified, or a v1 controller
	awk -v want="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		if (want == "unified") { if ($(i + 1) == "cgroup2") { print $5; exit } ; next }
		if ($(i + 1) == "cgroup" && index("," $(i + 3) ",", "," want ",")) { print $5; exit } }' /proc/self/mountinfo
}

[ "$(id -u)" -eq 0 ] || { say "skipped: needs root"; exit 0; }
[ -x "$M" ] && [ -x "$C" ] && [ -x "$FORKER" ] || { say "skipped: build first (make && make tests-build)"; exit 0; }
U=$(mnt unified)
if [ -n "$U" ] && grep -qw pids "$U/cgroup.controllers" 2>/dev/null; then
	layout=v2 P=$U F=$U PFX=
	grep -qw pids "$U/cgroup.subtree_control" || echo +pids >"$U/cgroup.subtree_control"
else
	layout=v1 P=$(mnt pids) F=$(mnt freezer) PFX=pids:
	[ -n "$P" ] && [ -n "$F" ] || { say "skipped: no pids and freezer hierarchies"; exit 0; }
fi

# Stop the bomb, then freeze what is left and kill it by pid, and remove the sandbox. $1 is a
# cgroup directory under $P; its freezer cgroup is the one of the same path under $F (v2: the
# same directory).
stop() {
	local d=$1 fz=$F${1#"$P"} i p
	# the bomb is disowned (bash would report its SIGKILL by -x -k): wait for it by polling
	if [ -n "$bomb" ] && kill -TERM "$bomb" 2>/dev/null; then
		for i in $(seq 1 50); do kill -0 "$bomb" 2>/dev/null || break; sleep 0.1; done
	fi
	bomb=
	if [ -d "$d" ]; then
		if [ $layout = v2 ]; then echo 1 >"$d/cgroup.freeze"; else echo FROZEN >"$fz/freezer.state"; fi
		for i in 1 2 3; do
			for p in $(find "$d" -name cgroup.procs -exec cat {} \; 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
			sleep 0.2
		done
		if [ $layout = v2 ]; then echo 0 >"$d/cgroup.freeze"; else echo THAWED >"$fz/freezer.state"; fi
	fi
	for i in $(seq 1 50); do
		find "$P/$S" "$F/$S" -depth -type d -exec rmdir {} \; 2>/dev/null
		[ -d "$P/$S" ] || [ -d "$F/$S" ] || return 0
		sleep 0.1
	done
	say "could not remove $P/$S"
	return 1
}
trap 'stop "$P/$S"' EXIT
trap 'exit 130' INT TERM

sandbox() {
	mkdir -p "$P/$S" "$F/$S"
	[ $layout = v1 ] || echo +pids >"$P/$S/cgroup.subtree_control"
}
sandbox
say "$layout layout ($(uname -r)), $(nproc) CPUs, --timeout=$TIMEOUT, bomb life ${LIFE_MS} ms, a fork each ${FORK_MS} ms, for ${BOMB_S} s, tools at nice $NICE, warm-up up to ${WARMUP} s"
printf '%-5s %-8s %4s %6s %8s %6s %6s %6s %5s %5s %5s %s\n' max mode exit rounds seconds moved gone before left after storm last
for max in $MAXES; do
	for mode in $MODES; do
		d=$P/$S/p$max
		mkdir -p "$d/storm" "$d/sink" "$F/$S/p$max/storm"
		echo "$max" >"$d/pids.max" || { say "cannot set pids.max"; exit 1; }
		# the bomb joins the freezer's cgroup of the same path too (v1 -z), then pids'
		sh -c 'echo $$ >"$1"; exec "$2" bomb "$3" "$4" "$5" "$6"' sh "$F/$S/p$max/storm/cgroup.procs" \
			"$FORKER" "$d/storm/cgroup.procs" "$BOMB_S" "$LIFE_MS" "$FORK_MS" &
		bomb=$!
		disown "$bomb"
		# under TCG a storm grows slowly: up to WARMUP seconds for it to reach 90% of pids.max
		for i in $(seq 1 $((WARMUP * 10))); do
			sleep 0.1
			[ $((i % 10)) = 0 ] && [ $(($(wc -l <"$d/storm/cgroup.procs") * 10)) -ge $((max * 9)) ] && break
		done
		before=$(wc -l <"$d/storm/cgroup.procs")
		case $mode in
		drain) cmd=("$M" -v --timeout="$TIMEOUT" -F "$PFX/$S/p$max/storm" -g "$PFX/$S/p$max/sink") ;;
		drain-z) cmd=("$M" -v -z --timeout="$TIMEOUT" -F "$PFX/$S/p$max/storm" -g "$PFX/$S/p$max/sink") ;;
		kill) cmd=("$C" -v -x --kill=KILL --grace=0 --timeout="$TIMEOUT" -g "$PFX/$S/p$max/storm") ;;
		*) say "unknown mode $mode"; exit 64 ;;
		esac
		# bash's clock: busybox date has no %N
		t0=$EPOCHREALTIME
		out=$(timeout 300 nice -n "$NICE" "${cmd[@]}" 2>&1)
		rc=$?
		t1=$EPOCHREALTIME
		# the leader ends with the bomb (a zombie until stop reaps it): did the tool face a storm?
		storm=no
		[ "$(sed 's/.*) //' "/proc/$bomb/stat" 2>/dev/null | cut -c1)" = Z ] || [ ! -e "/proc/$bomb" ] || storm=yes
		[ "$mode" = kill ] && storm=-
		if [ -d "$d/storm" ]; then left=$(wc -l <"$d/storm/cgroup.procs"); else left=-; fi
		after=$left
		rounds=- moved=- gone=-
		if [ "$mode" != kill ]; then
			rounds=$(printf '%s\n' "$out" | sed -n 's/.* after \([0-9]*\) round.*/\1/p' | tail -n 1)
			moved=$(printf '%s\n' "$out" | sed -n 's/^moved \([0-9]*\) process[es]*, \([0-9]*\) gone.*/\1/p')
			gone=$(printf '%s\n' "$out" | sed -n 's/^moved \([0-9]*\) process[es]*, \([0-9]*\) gone.*/\2/p')
			# a drain that gave up says how many it left; after one that emptied the
			# source, what the storm refilled since is not the drain's
			left=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9][0-9]*\) process[es]* [ai][rs]e* still there.*/\1/p' | tail -n 1)
			[ -z "$left" ] && [ "$rc" = 0 ] && left=0
		fi
		printf '%-5s %-8s %4s %6s %8.2f %6s %6s %6s %5s %5s %5s %s\n' "$max" "$mode" "$rc" "${rounds:-?}" \
			"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
			"${moved:-?}" "${gone:-?}" "$before" "${left:-?}" "$after" "$storm" \
			"$(printf '%s\n' "$out" | { grep '^cg[a-z0-9]*: ' || printf '%s\n' "$out"; } | tail -n 1 | cut -c1-240)"
		stop "$d" || exit 1
		sandbox
	done
done
