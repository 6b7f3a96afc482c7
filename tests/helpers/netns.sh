# SPDX-License-Identifier: MIT
# A process in a network namespace of its own with a veth pair into it, and traffic over it:
# sourced by the suites that test cgtop2's network families (cgtop2_k8s, cgtop2_mixin). The
# caller lists the process in _pids and calls cgk_netns_teardown in its teardown_test. Needs
# root, ip(8), unshare(1) and nsenter(1) (cgk_need_netns).

# The host's end of the pair (15 bytes at most) and the test net (RFC 2544's benchmark range).
NETNS_HOST_IF=cgkv$$
NETNS_HOST_IP=198.18.43.1
NETNS_NS_IP=198.18.43.2

# A test's teardown: the pair's host end (and so the pair) gone, the processes killed.
cgk_netns_teardown() {
	ip link del "$NETNS_HOST_IF" 2>/dev/null
	cgk_kill_pids
	return 0
}

cgk_need_netns() {
	cgk_need_root || return 1
	cgk_need_prog ip "makes the veth pair (Debian: iproute2)" || return 1
	cgk_need_prog unshare "makes the namespace (Debian: util-linux)" || return 1
	cgk_need_prog nsenter "runs in the namespace (Debian: util-linux)" || return 1
}

# A sleeping process in cgroup directory $1, run through $2 (a command prefix: "unshare -n",
# "nsenter -t PID -n", or nothing); its pid in NSPID once it is sleep.
cgk_netns_start() {
	local pid_file=$_cgk_tmp/pid.$RANDOM
	sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2" && exec $3 sleep 3600' _ "$1" \
		"$pid_file" "${2:-}" &
	_pids+=($!)
	CGK_WAIT_TICKS=200 cgk_wait_for test -s "$pid_file"
	NSPID=$(cat "$pid_file")
	# the exec of unshare, then of sleep: the namespace is made before sleep runs
	cgk_wait_for grep -qs '^sleep' "/proc/$NSPID/comm"
}

# The veth pair between the host and process $1's namespace, eth0 inside; 1 when it cannot.
cgk_netns_veth() {
	[ "$(readlink "/proc/$1/ns/net")" != "$(readlink /proc/1/ns/net)" ] || return 1
	ip link add "$NETNS_HOST_IF" type veth peer name eth0 netns "$1" &&
		ip addr add "$NETNS_HOST_IP/30" dev "$NETNS_HOST_IF" &&
		ip link set "$NETNS_HOST_IF" up &&
		nsenter -t "$1" -n ip addr add "$NETNS_NS_IP/30" dev eth0 &&
		nsenter -t "$1" -n ip link set eth0 up
}

# $2 datagrams from the host into process $1's namespace and as many back: bash's /dev/udp.
cgk_netns_traffic() {
	local i
	for i in $(seq 1 "$2"); do
		echo "cgkit $i" 2>/dev/null >"/dev/udp/$NETNS_NS_IP/9"
		nsenter -t "$1" -n bash -c "echo back 2>/dev/null >/dev/udp/$NETNS_HOST_IP/9"
	done
}
