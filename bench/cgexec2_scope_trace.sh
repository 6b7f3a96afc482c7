#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where the time of cgexec2 --user -t goes against systemd-run --user --scope (the 1.16x of
# bench/RESULTS-scope.md): which socket each connects to, its D-Bus messages (sendmsg and
# recvmsg), its syscalls (strace -c: counts), and the phases of a run, traced (the median of
# CGKIT_SCOPE_TRACE_TRACED runs, 7: start, the tool's exec, its connect, the last message
# received, the exec of the command, the exit).
# A third variant, cgexec2 pointed at the user manager's private socket through
# DBUS_SESSION_BUS_ADDRESS, tests the guess that the session bus's dbus-daemon is the
# difference. Untraced runs are timed first, interleaved, as bench/cgexec2_scope.sh does.
# Needs systemd as PID 1, root, the user cgkit with its user manager, strace: the systemd VM:
#   tests/vm/run systemd -- bash $PWD/bench/cgexec2_scope_trace.sh
#   CGKIT_SCOPE_TRACE_RUNS  untraced runs per variant (20)
set -u
bin=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
X=$bin/cgexec2
runs=${CGKIT_SCOPE_TRACE_RUNS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] && [ "$(id -u)" -eq 0 ] ||
	{ echo "bench/cgexec2_scope_trace: needs root and systemd as PID 1 (tests/vm/run systemd); skipped"; exit 0; }
uid=$(id -u cgkit 2>/dev/null)
[ -n "$uid" ] && systemctl is-active --quiet "user@$uid.service" ||
	{ echo "bench/cgexec2_scope_trace: no user cgkit with a running user manager; skipped"; exit 0; }
command -v strace >/dev/null || { echo "bench/cgexec2_scope_trace: no strace; skipped"; exit 0; }

env_user="XDG_RUNTIME_DIR=/run/user/$uid DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/bus"
env_private="XDG_RUNTIME_DIR=/run/user/$uid DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/systemd/private"
declare -A cmd
cmd[user_cgexec2_t]="env $env_user $X --user -t -- /bin/true"
cmd[user_systemd_run]="env $env_user systemd-run --user --quiet --scope -- /bin/true"
cmd[user_cgexec2_private]="env $env_private $X --user -t -- /bin/true"
variants=(user_cgexec2_t user_systemd_run user_cgexec2_private)
as_user="setpriv --reuid=$uid --regid=$uid --clear-groups"

for v in "${variants[@]}"; do
	if ! $as_user ${cmd[$v]} >"$tmp/err" 2>&1; then
		echo "bench/cgexec2_scope_trace: $v fails: $(head -c 300 "$tmp/err")"
		unset "cmd[$v]"
	fi
done
variants=()
for v in user_cgexec2_t user_systemd_run user_cgexec2_private; do
	[ -n "${cmd[$v]:-}" ] && variants+=("$v")
done

echo "kernel $(uname -r), $(nproc) CPUs, systemd $(systemctl --version | awk 'NR == 1 { print $2 }'), load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A times
for ((i = 0; i < runs; i++)); do
	for v in "${variants[@]}"; do
		t0=$EPOCHREALTIME
		$as_user ${cmd[$v]} >/dev/null 2>&1
		t1=$EPOCHREALTIME
		times[$v]+="$(((${t1/./} - ${t0/./}))) "
	done
done
for v in "${variants[@]}"; do
	tr ' ' '\n' <<<"${times[$v]}" | grep . | sort -n |
		awk -v v="$v" '{ a[NR] = $1 } END { printf "median %-22s %8.1f ms (%d runs, untraced, interleaved)\n", v, a[int((NR + 1) / 2)] / 1000, NR }'
done

# phases of one traced run (strace --seccomp-bpf stops only at the syscalls named, so the
# rest run at full speed): start -> the tool's exec -> its connect to the bus -> the last
# message it received -> the exec of the command -> the last exit
phases() {
	awk '
		{ t = $2 + 0; if (!t0) t0 = t }
		/ execve\("[^"]*(cgexec2|systemd-run)"/ && / = 0$/ && !tool { tool = t }
		/ connect\(/ && /\/run\/user\// && !conn { conn = t; match($0, /sun_path="[^"]*"/); sock = substr($0, RSTART + 10, RLENGTH - 11) }
		/ (recvmsg|recvfrom)\(/ && !/ = -1/ && !cmd { last = t; r++ }
		/ (sendmsg|sendto|writev)\(/ && !/ = -1/ && !cmd { s++ }
		/ execve\("\/bin\/true"/ && / = 0$/ { cmd = t }
		/ exit_group\(/ { e = t }
		{ pids[$1] = 1 }
		END { for (p in pids) np++
		      printf "%.1f %.1f %.1f %.1f %.1f %d %d %s %d\n", (tool - t0) * 1000, (conn - tool) * 1000,
			(last - conn) * 1000, (cmd - last) * 1000, (e - cmd) * 1000, s, r, sock, np }' "$1"
}

ntrace=${CGKIT_SCOPE_TRACE_TRACED:-7}
echo
echo "phases, median of $ntrace traced runs each (strace --seccomp-bpf -f, ms):"
printf '%-22s %9s %9s %9s %9s %9s %5s %5s %5s  %s\n' variant to_tool to_conn dbus to_cmd cmd_end sent recvd procs socket
for v in "${variants[@]}"; do
	: >"$tmp/ph"
	for ((i = 0; i < ntrace; i++)); do
		strace -f -qq -ttt --seccomp-bpf -e trace=execve,connect,sendmsg,sendto,writev,recvmsg,recvfrom,exit_group \
			-o "$tmp/tl" $as_user ${cmd[$v]} >/dev/null 2>&1
		phases "$tmp/tl" >>"$tmp/ph"
	done
	# the median of each column on its own
	for c in 1 2 3 4 5 6 7 9; do
		sort -n -k$c,$c "$tmp/ph" | awk -v c="$c" '{ a[NR] = $c } END { print a[int((NR + 1) / 2)] }'
	done | paste -sd' ' | awk -v v="$v" -v sock="$(awk '{ print $8 }' "$tmp/ph" | sort -u | paste -sd,)" \
		'{ printf "%-22s %9s %9s %9s %9s %9s %5s %5s %5s  %s\n", v, $1, $2, $3, $4, $5, $6, $7, $8, sock }'
done

# what each does between the last message it received and the exec of the command: one run
# traced in full, its syscalls in that window counted by name
echo
for v in "${variants[@]}"; do
	strace -f -qq -ttt -o "$tmp/full" $as_user ${cmd[$v]} >/dev/null 2>&1
	awk -v v="$v" '
		/ (recvmsg|recvfrom)\(/ && !/ = -1/ && !done { n = NR }
		/ execve\("\/bin\/true"/ && / = 0$/ { done = NR }
		{ line[NR] = $0 }
		END { for (i = n + 1; i < done; i++) { split(line[i], f, " "); sub(/\(.*/, "", f[3]); c[f[3]]++; k++ }
		      printf "after the last message %-22s %d syscalls:", v, k
		      for (x in c) printf " %s %d", x, c[x]
		      print "" }' "$tmp/full"
done

for v in "${variants[@]}"; do
	strace -f -qq -c -o "$tmp/c" $as_user ${cmd[$v]} >/dev/null 2>&1
	awk -v v="$v" '/^-+/ { d++; next } d == 1 && NF >= 5 { c[$NF] = $4 }
		$NF == "total" { tot = $4 }
		END { printf "syscalls %-22s %s in all;", v, tot
		      n = split("openat mmap read recvmsg sendmsg ppoll connect execve", k, " ")
		      for (i = 1; i <= n; i++) if (k[i] in c) printf " %s %s", k[i], c[k[i]]
		      print "" }' "$tmp/c"
done
exit 0
