# SPDX-License-Identifier: MIT
# Sourced by the bench scripts. Those that grow flat trees of empty cgroups set $main, the
# hierarchy's mount point, and $name, the sandbox (cgkit-test.PID) directly below it.

# The checks every cgroup bench makes before it starts, its messages named by $bench: root (it
# makes cgroups; else "skipped", exit 0), $T built and $FLOOR too where the bench sets it (else
# exit 1), each program of $@ installed (else "skipped", exit 0).
bench_preflight() {
	local p
	[ "$(id -u)" -eq 0 ] || { echo "$bench bench: needs root (it makes cgroups); skipped"; exit 0; }
	[ -x "$T" ] && { [ -z "${FLOOR:-}" ] || [ -x "$FLOOR" ]; } ||
		{ echo "$bench bench: build first (make bench builds the tools and the floors)"; exit 1; }
	for p; do
		command -v "$p" >/dev/null || { echo "$bench bench: $p is not installed; skipped"; exit 0; }
	done
}

# The mount point of the first of $@ this machine has: "unified" is the cgroup2 hierarchy, any
# other word the v1 hierarchy that holds that controller. Empty when none is mounted.
bench_mount() {
	awk -v want="$*" 'BEGIN { n = split(want, w, " ") }
		{ for (i = 7; i <= NF; i++) if ($i == "-") break
		  if ($(i + 1) == "cgroup2") { if (!("unified" in at)) at["unified"] = $5; next }
		  if ($(i + 1) != "cgroup") next
		  k = split($(i + 3), o, ",")
		  for (j = 1; j <= k; j++) if (!(o[j] in at)) at[o[j]] = $5 }
		END { for (j = 1; j <= n; j++) if (w[j] in at) { print at[w[j]]; exit } }' /proc/self/mountinfo
}

# How many of the pids listed in file $1 exist (for the message when sleepers cannot be placed).
bench_alive() {
	local p n=0
	while read -r p; do [ -d "/proc/$p" ] && n=$((n + 1)); done <"$1"
	echo "$n"
}

# The sandbox and its children (empty cgroups: rmdir is the whole removal).
bench_remove_sandbox() {
	if [ -d "$main/$name" ]; then
		find "$main/$name" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$main/$name"
	fi
}

# At least $1 children c00000... in the sandbox (one mkdir for the lot).
grow() {
	local n=$1 have
	[ -d "$main/$name" ] || mkdir "$main/$name" || exit 1
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$have" -lt "$n" ] || return 0
	seq "$have" $((n - 1)) | awk -v d="$main/$name" '{ printf "%s/c%05d\n", d, $1 }' | xargs mkdir || exit 1
}

# The median of the numbers on stdin, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# ---- cgtop2 --listen over the sandbox (cgtop2_scrape, cgtop2_serve, cgtop2_fleet) -----------
# They set $T (cgtop2), $tmp (a scratch directory) and $bench (their name, for messages), and
# call bench_serve_init after sourcing this file.

# The exit trap: the server stopped, the sandbox and $tmp removed.
bench_serve_cleanup() {
	[ -n "${server:-}" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }
	bench_remove_sandbox
	rm -rf "$tmp"
}

bench_serve_init() {
	server=
	trap bench_serve_cleanup EXIT
	trap 'exit 130' INT TERM
}

# The open-file limit raised to $1 ("keep": as it is): the sampler keeps a file open per stat
# file when the limit allows (10,000 cgroups: 50,000 to 70,000), else opens each for each read.
bench_nofile() {
	[ "$1" = keep ] && return 0
	ulimit -Hn "$1" 2>/dev/null && ulimit -n "$1" 2>/dev/null ||
		echo "$bench bench: could not raise the open-file limit to $1"
}

# Start cgtop2 --listen over the sandbox, every scrape sampling afresh (CGKIT_SERVE_REUSE_MS=0);
# leading VAR=VALUE words are its environment, the rest its arguments. Sets $server and $url.
bench_serve_start() {
	local envs=() i
	while [ $# -gt 0 ] && [[ $1 == *=* ]] && [[ $1 != -* ]]; do
		envs+=("$1")
		shift
	done
	# the previous server's "serving" line must not be taken for this one's
	rm -f "$tmp/err"
	env "${envs[@]}" CGKIT_SERVE_REUSE_MS=0 "$T" --listen=127.0.0.1:0 "$@" "/$name" 2>"$tmp/err" &
	server=$!
	# the first scan of 10,000 cgroups took 6.5 s on a loaded machine: up to 60 s, or
	# $BENCH_SERVE_WAIT seconds (100,000 cgroups: minutes)
	for i in $(seq 1 $((${BENCH_SERVE_WAIT:-60} * 20))); do
		grep -qs serving "$tmp/err" && break
		kill -0 "$server" 2>/dev/null || break
		sleep 0.05
	done
	url=$(sed -n 's|.*serving \(http://[^ ]*\)$|\1|p' "$tmp/err")
	[ -n "$url" ] || { echo "$bench bench: the server did not start: $(cat "$tmp/err")"; exit 1; }
}

bench_serve_stop() {
	kill "$server"
	wait "$server" 2>/dev/null
	server=
}

# CPU microseconds of process $1 so far, every thread (the sampler runs in libmicrohttpd's):
# schedstat's time on a CPU in ns, where /proc/PID/stat counts 10 ms ticks
bench_cpu_us() {
	cat /proc/"$1"/task/*/schedstat | awk '{ ns += $1 } END { printf "%d\n", ns / 1000 }'
}

# $1 scrapes of URL $2 on one keep-alive connection (more arguments: curl's, such as a header);
# prints curl's time_total (s) of each, and with BENCH_SCRAPE_ALL set its size and HTTP code
# too ("s bytes code": a scrape that takes minutes is not repeated to learn them)
bench_scrapes() {
	local i n=$1 u=$2
	shift 2
	[ "$n" -gt 0 ] || return 0
	for i in $(seq 1 "$n"); do echo "url = \"$u\""; echo "output = \"/dev/null\""; done >"$tmp/curl.cfg"
	curl -s "$@" -K "$tmp/curl.cfg" -w "%{time_total}${BENCH_SCRAPE_ALL:+ %{size_download\} %{http_code\}}\n"
}
