#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2's container families beyond a cgroup's own files (issue 43). Network: a process in a
# network namespace of its own (unshare -n) in a sandbox cgroup, a veth pair into it and
# traffic over it; its interface's counters in cgkit's names and cAdvisor's
# (container_network_*), growing with the traffic; none for a cgroup whose process is in the
# host's namespace, none for the sandbox above both; a second cgroup in the same namespace
# does not count it twice (root, ip(8), unshare(1)). Filesystem: cAdvisor's container_fs_*
# live from direct writes in the sandbox (the fixture trees's: tests/cgtop2_fleet.sh).
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
_pids=()
. "$(dirname "$0")/helpers/netns.sh"

teardown_test() {
	cgk_netns_teardown
}

# The sandbox with ns/ (a process in a namespace of its own, eth0 the veth pair's end inside),
# ns2/ (a later process in the same namespace: nsenter), host/ (a process in the host's); U, NS.
netns_node() {
	cgk_need_netns || return 1
	cgk_need_unified || return 1
	U=$(cgk_sandbox unified) || { fail "no sandbox"; return 1; }
	mkdir -p "$U/ns" "$U/ns2" "$U/host" || { fail "cannot make cgroups"; return 1; }
	cgk_netns_start "$U/ns" "unshare -n"
	NS=$NSPID
	cgk_netns_start "$U/ns2" "nsenter -t $NS -n"
	cgk_netns_start "$U/host"
	cgk_netns_veth "$NS" || { fail "cannot make the namespace and its veth pair"; return 1; }
}

traffic() {
	cgk_netns_traffic "$NS" "$1"
}

# The value of sample $1 (name and labels as written) in exposition $2, or nothing.
value_of() {
	printf '%s\n' "$2" | awk -v s="$1" 'index($0, s " ") == 1 { print $NF }'
}

# One exposition of the sandbox in $1's names ("" or --compat=cadvisor), into $out.
scrape() {
	cgk_capture "$T" -F prometheus -1 ${1:+"$1"} "/$S"
	assertEquals "scrape exit: $err" 0 "$rc"
}

# A scrape in cgkit's names ($out); eth0's packets received and sent into variables $1 and $2.
eth0_packets() {
	local -n _rx=$1 _tx=$2
	scrape ""
	_rx=$(value_of "cgroup_network_receive_packets_total{cgroup=\"/$S/ns\",interface=\"eth0\"}" "$out")
	_tx=$(value_of "cgroup_network_transmit_packets_total{cgroup=\"/$S/ns\",interface=\"eth0\"}" "$out")
}

test_network_counters_of_own_namespace() {
	local rx tx rx2 tx2 p
	netns_node || return 0
	traffic 5
	eth0_packets rx tx
	assertTrue "eth0 received in the namespace: '$rx'" "[ '${rx:-0}' -ge 5 ]"
	assertTrue "eth0 sent from the namespace: '$tx'" "[ '${tx:-0}' -ge 5 ]"
	assertTrue "bytes received" \
		"[ '$(value_of "cgroup_network_receive_bytes_total{cgroup=\"/$S/ns\",interface=\"eth0\"}" "$out")' -gt 0 ]"
	for p in receive_errors receive_packets_dropped transmit_bytes transmit_errors \
		transmit_packets_dropped; do
		assertNotNull "cgroup_network_${p}_total of eth0" \
			"$(value_of "cgroup_network_${p}_total{cgroup=\"/$S/ns\",interface=\"eth0\"}" "$out")"
	done
	# cgkit's names keep the namespace's loopback; the host's namespace and the shared one none
	assertNotNull "lo in cgkit's names" \
		"$(value_of "cgroup_network_receive_bytes_total{cgroup=\"/$S/ns\",interface=\"lo\"}" "$out")"
	assertNotContains "no series for the host's namespace" "$out" "cgroup=\"/$S/host\",interface"
	assertNotContains "the shared namespace once, at its first process's cgroup" "$out" \
		"cgroup=\"/$S/ns2\",interface"
	assertNotContains "none for the sandbox (its processes are its children's)" "$out" \
		"cgroup=\"/$S\",interface"
	promtool_clean "$out"
	traffic 5
	eth0_packets rx2 tx2
	assertTrue "received packets grew: $rx -> $rx2" "[ '${rx2:-0}' -ge $((rx + 5)) ]"
	assertTrue "sent packets grew: $tx -> $tx2" "[ '${tx2:-0}' -ge $((tx + 5)) ]"
}

test_network_counters_cadvisor() {
	local rx
	netns_node || return 0
	traffic 3
	scrape --compat=cadvisor
	rx=$(value_of "container_network_receive_packets_total{id=\"/$S/ns\",interface=\"eth0\"}" "$out")
	assertTrue "container_network_receive_packets_total of eth0: '$rx'" "[ '${rx:-0}' -ge 3 ]"
	assertContains "the family's help is cAdvisor's" "$out" \
		"# HELP container_network_transmit_bytes_total Cumulative count of bytes transmitted."
	# cAdvisor leaves out lo (and veth*, docker*)
	assertNotContains "no lo under cAdvisor's names" "$out" "interface=\"lo\""
	assertNotContains "no series for the host's namespace" "$out" "id=\"/$S/host\",interface"
	promtool_clean "$out"
	cgk_capture "$T" -F openmetrics -1 --compat=cadvisor "/$S"
	assertContains "OpenMetrics: the family without _total" "$out" \
		"# TYPE container_network_receive_bytes counter"
	assertContains "OpenMetrics: its unit" "$out" "# UNIT container_network_receive_bytes bytes"
}

# Direct writes (no page cache) of a process in the sandbox's io cgroup to the disk that holds
# the temporary directory: container_fs_writes_bytes_total of that device, named as cAdvisor
# names it (/dev/NAME), counts them. cgroup2's io controller: the host's v1 blkio counts no
# IO without a throttling rule (Total 0 after 2 MiB), so tests/vm/run unified.
test_fs_families_live() {
	local u name v mm dev
	cgk_need_root || return 0
	cgk_need_v2 io || return 0
	local target=$_cgk_tmp/direct
	mm=$(mountpoint -d "$(df --output=target "$_cgk_tmp" 2>/dev/null | tail -n 1)" 2>/dev/null)
	if [ -n "$mm" ] && [ -e "/sys/dev/block/$mm" ]; then
		name=$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/$mm/uevent")
	elif [ -b "${CGKIT_VM_DISK:-}" ]; then
		# the VM guests' root is 9p under tmpfs: their scratch disk (tests/vm/run) is
		# written whole, through no file system
		target=$CGKIT_VM_DISK
		name=${CGKIT_VM_DISK#/dev/}
	else
		cgk_skip "the temporary directory is on no block device (the VM's scratch disk has one: tests/vm/run unified)"
		return 0
	fi
	u=$(cgk_sandbox unified) || { fail "no sandbox"; return 0; }
	echo +io >"$u/cgroup.subtree_control"
	mkdir -p "$u/w"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=64k count=32 oflag=direct' \
		_ "$u/w" "$target" 2>/dev/null
	[ -b "$target" ] || assertEquals "dd wrote" 2097152 "$(stat -c %s "$target")"
	dev=/dev/$name
	cgk_capture "$T" -F prometheus --compat=cadvisor --collectors=iodevice -1 "/$S"
	v=$(value_of "container_fs_writes_bytes_total{id=\"/$S/w\",device=\"$dev\"}" "$out")
	assertTrue "2 MiB written to $dev counted: '$v'" "[ '${v:-0}' -ge 2097152 ]"
	v=$(value_of "container_fs_writes_total{id=\"/$S/w\",device=\"$dev\"}" "$out")
	assertTrue "the writes counted: '$v'" "[ '${v:-0}' -ge 32 ]"
}

# promtool check metrics finds nothing in exposition $1 but cAdvisor's own counter without
# _total, container_memory_failcnt (as tests/cgtop2_fleet.sh); nothing without promtool.
promtool_clean() {
	command -v promtool >/dev/null || return 0
	assertEquals "promtool says nothing" "" "$(echo "$1" | promtool check metrics 2>&1 |
		grep -vx 'container_memory_failcnt counter metrics should have "_total" suffix')"
}

. "$SHUNIT2"
