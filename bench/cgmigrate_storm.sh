#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Drains of a fork bomb (tests/helpers/mig_forker bomb: every process forks each millisecond
# and lives LIFE_MS) held at pids.max = 100, 300, 1000, without and with --freeze: the exit
# status, the rounds, the seconds and what was left, one line per drain. In the pids
# hierarchy: v2 where the unified root offers pids, else v1 (with the freezer hierarchy for -z).
# A storm of a thousand processes must spare a shared host: run it in the VM matrix,
#   make tests-build && tests/vm/run unified -- bash -c "$(cat bench/cgmigrate_storm.sh)"
# (also legacy). Sandbox: cgkit-test.<pid> in pids (and freezer), removed at exit.
# Environment: MAXES ("100 300 1000"), TIMEOUT (10s: cgmigrate --timeout), LIFE_MS (200).
set -u
if [ -x ./cgmigrate ] && [ -d ./.obj ]; then top=$PWD; else top=$(cd "$(dirname "$0")/.." && pwd); fi
M=${CGKIT_BIN:-$top}/cgmigrate
FORKER=${CGKIT_OBJ:-$top/.obj}/tests/helpers/mig_forker
MAXES=${MAXES:-100 300 1000}
TIMEOUT=${TIMEOUT:-10s}
LIFE_MS=${LIFE_MS:-200}
S=cgkit-test.$$
bomb=
say() { echo "cgmigrate storm: $*"; }

mnt() { # $1: unified, or a v1 controller
	awk -v want="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		if (want == "unified") { if ($(i + 1) == "cgroup2") { print $5; exit } ; next }
		if ($(i + 1) == "cgroup" && index("," $(i + 3) ",", "," want ",")) { print $5; exit } }' /proc/self/mountinfo
}

[ "$(id -u)" -eq 0 ] || { say "skipped: needs root"; exit 0; }
[ -x "$M" ] && [ -x "$FORKER" ] || { say "skipped: build first (make && make tests-build)"; exit 0; }
U=$(mnt unified)
if [ -n "$U" ] && grep -qw pids "$U/cgroup.controllers" 2>/dev/null; then
	layout=v2 P=$U F=$U PFX=
	grep -qw pids "$U/cgroup.subtree_control" || echo +pids >"$U/cgroup.subtree_control"
else
	layout=v1 P=$(mnt pids) F=$(mnt freezer) PFX=pids:
	[ -n "$P" ] && [ -n "$F" ] || { say "skipped: no pids and freezer hierarchies"; exit 0; }
fi

# Stop the bomb, then freeze what is left and kill it by pid, and remove the sandbox.
stop() {
	local d=$1 i p
	[ -n "$bomb" ] && kill -TERM "$bomb" 2>/dev/null && wait "$bomb" 2>/dev/null
	bomb=
	[ -d "$d" ] || return 0
	if [ $layout = v2 ]; then echo 1 >"$d/cgroup.freeze"; else echo FROZEN >"$F/$S/${d##*/}/freezer.state"; fi
	for i in 1 2 3; do
		for p in $(cat "$d"/cgroup.procs "$d"/*/cgroup.procs 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		sleep 0.2
	done
	if [ $layout = v2 ]; then echo 0 >"$d/cgroup.freeze"; else echo THAWED >"$F/$S/${d##*/}/freezer.state"; fi
	for i in $(seq 1 50); do
		find "$P/$S" "$F/$S" -depth -type d -exec rmdir {} \; 2>/dev/null
		[ -d "$P/$S" ] || [ -d "$F/$S" ] || return 0
		sleep 0.1
	done
	say "could not remove $P/$S"
}
trap 'stop "$P/$S"' EXIT
trap 'exit 130' INT TERM

sandbox() {
	mkdir -p "$P/$S" "$F/$S"
	[ $layout = v2 ] && echo +pids >"$P/$S/cgroup.subtree_control"
}
sandbox
say "$layout layout ($(uname -r)), $(nproc) CPUs, --timeout=$TIMEOUT, bomb life ${LIFE_MS} ms"
printf '%-6s %-8s %4s %6s %8s %6s %6s %6s %s\n' max freeze exit rounds seconds moved gone before last
for max in $MAXES; do
	for z in no yes; do
		d=$P/$S/p$max
		mkdir -p "$d/storm" "$d/sink" "$F/$S/p$max/storm"
		echo "$max" >"$d/pids.max" || { say "cannot set pids.max"; exit 1; }
		# the bomb joins the freezer's cgroup of the same path too (v1 -z), then pids'
		sh -c 'echo $$ >"$1"; exec "$2" bomb "$3" 120 "$4"' sh "$F/$S/p$max/storm/cgroup.procs" \
			"$FORKER" "$d/storm/cgroup.procs" "$LIFE_MS" &
		bomb=$!
		sleep 2
		before=$(wc -l <"$d/storm/cgroup.procs")
		opt=
		[ $z = yes ] && opt=-z
		t0=$(date +%s.%N)
		out=$(timeout 300 "$M" -v $opt --timeout="$TIMEOUT" -F "$PFX/$S/p$max/storm" \
			-g "$PFX/$S/p$max/sink" 2>&1)
		rc=$?
		t1=$(date +%s.%N)
		rounds=$(echo "$out" | sed -n 's/.* after \([0-9]*\) round.*/\1/p' | tail -n 1)
		moved=$(echo "$out" | sed -n 's/^moved \([0-9]*\) processes, \([0-9]*\) gone.*/\1/p')
		gone=$(echo "$out" | sed -n 's/^moved \([0-9]*\) processes, \([0-9]*\) gone.*/\2/p')
		printf '%-6s %-8s %4s %6s %8.2f %6s %6s %6s %s\n' "$max" "$z" "$rc" "${rounds:-?}" \
			"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
			"${moved:-?}" "${gone:-?}" "$before" "$(echo "$out" | grep -v '^moved' | tail -n 1 | cut -c1-150)"
		stop "$d"
		sandbox
	done
done
