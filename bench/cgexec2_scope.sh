#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgexec2 -t on a systemd host (a transient scope over D-Bus, then COMMAND exec'd in place)
# against its anchor, systemd-run --scope, time per run of a trivial command:
#   /bin/true | cgexec2 -t -- /bin/true | systemd-run --quiet --scope -- /bin/true
# and, where the user cgkit has a running user@UID.service, the same as that user through the
# user's manager (--user), started with setpriv (no PAM session, so that only the tools differ).
# Runs are interleaved (one of each variant in turn) so that a busy machine skews them alike;
# each is timed from bash's $EPOCHREALTIME (no fork for the clock). Printed per variant: the
# median, the 10th and 90th percentiles of the wall time in ms; then the ratios of the medians.
# Needs systemd as PID 1: the systemd VM layout runs it, where the host's / is the guest's,
# so this file and the tools are at their host paths:
#   tests/vm/run systemd -- bash $PWD/bench/cgexec2_scope.sh
#   CGKIT_SCOPE_BENCH_RUNS  runs per variant (30)
set -u
bin=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
X=$bin/cgexec2
runs=${CGKIT_SCOPE_BENCH_RUNS:-30}

[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] && [ -d /run/systemd/system ] ||
	{ echo "bench/cgexec2_scope: PID 1 is not systemd (tests/vm/run systemd runs it); skipped"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "bench/cgexec2_scope: needs root (the system manager's scopes); skipped"; exit 0; }
[ -x "$X" ] || { echo "bench/cgexec2_scope: $X is not built" >&2; exit 1; }
command -v systemd-run >/dev/null || { echo "bench/cgexec2_scope: no systemd-run; skipped"; exit 0; }

declare -A cmd
cmd[bare]="/bin/true"
cmd[cgexec2_t]="$X -t -- /bin/true"
cmd[systemd_run]="systemd-run --quiet --scope -- /bin/true"
variants=(bare cgexec2_t systemd_run)
uid=$(id -u cgkit 2>/dev/null)
if [ -n "$uid" ] && systemctl is-active --quiet "user@$uid.service" && command -v setpriv >/dev/null; then
	as_user="setpriv --reuid=$uid --regid=$uid --clear-groups env XDG_RUNTIME_DIR=/run/user/$uid DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/bus"
	cmd[user_bare]="$as_user /bin/true"
	cmd[user_cgexec2_t]="$as_user $X --user -t -- /bin/true"
	cmd[user_systemd_run]="$as_user systemd-run --user --quiet --scope -- /bin/true"
	variants+=(user_bare user_cgexec2_t user_systemd_run)
else
	echo "bench/cgexec2_scope: no user cgkit with a running user manager: the --user variants are left out"
fi

# every variant must work before it is timed: a failing run would time an error path
for v in "${variants[@]}"; do
	${cmd[$v]} >/dev/null 2>&1 || { echo "bench/cgexec2_scope: $v fails: ${cmd[$v]}" >&2; exit 1; }
done

declare -A times
for ((i = 0; i < runs; i++)); do
	for v in "${variants[@]}"; do
		t0=$EPOCHREALTIME
		${cmd[$v]} >/dev/null 2>&1 || { echo "bench/cgexec2_scope: $v failed in run $i" >&2; exit 1; }
		t1=$EPOCHREALTIME
		# microseconds, from the two decimal clocks
		times[$v]+="$(((${t1/./} - ${t0/./}))) "
	done
done

# pct P LIST: the P-th percentile (nearest rank) of the numbers in LIST
pct() {
	tr ' ' '\n' <<<"$2" | grep . | sort -n | awk -v p="$1" '{ a[NR] = $1 }
		END { k = int((p * NR + 99) / 100); if (k < 1) k = 1; print a[k] }'
}
ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }

echo "kernel $(uname -r), $(nproc) CPUs, systemd $(systemctl --version | awk 'NR == 1 { print $2 }'), load $(cut -d' ' -f1-3 /proc/loadavg), $runs runs each, interleaved"
printf '%-18s %10s %10s %10s  %s\n' variant median_ms p10_ms p90_ms command
declare -A med
for v in "${variants[@]}"; do
	med[$v]=$(pct 50 "${times[$v]}")
	printf '%-18s %10s %10s %10s  %s\n' "$v" "$(ms "${med[$v]}")" "$(ms "$(pct 10 "${times[$v]}")")" \
		"$(ms "$(pct 90 "${times[$v]}")")" "${cmd[$v]/$bin\//}"
done
ratio() {
	awk -v a="${med[$1]}" -v b="${med[$2]}" -v z="${med[$3]}" -v n="$4" 'BEGIN {
		printf "ratio %s: cgexec2 -t %.2fx the median of systemd-run --scope (%.1f ms against %.1f ms; over the bare run: %.1f ms against %.1f ms)\n",
			n, a / b, a / 1000, b / 1000, (a - z) / 1000, (b - z) / 1000 }'
}
ratio cgexec2_t systemd_run bare "system manager"
[ -n "${med[user_cgexec2_t]:-}" ] && ratio user_cgexec2_t user_systemd_run user_bare "user manager"
exit 0
