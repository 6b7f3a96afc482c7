#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 for a fleet (#31): who a cgroup belongs to as labels and JSON (unit, slice, container,
# pod, QoS class, machine) on a sandbox holding the paths systemd, the runtimes and the kubelet
# make; --compat=cadvisor's families (promtool clean, both formats); --cgroup-include and
# --cgroup-exclude in batch output and --listen; ?collect[]= on --listen.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
ID=3f1c9e2b7a8d4c6e5f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6
POD=kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice
CTR=$POD/cri-containerd-$ID.scope
_pids=()

teardown_test() {
	cgk_kill_pids
	return 0
}

# The sandbox on the unified hierarchy with the fleet's paths (no controller needed: cpu.stat
# is there in every cgroup2 cgroup); sets U.
fleet_tree() {
	unified_tree "$CTR" "system.slice/nginx.service/worker" \
		"machine.slice/machine-qemu\\x2d1\\x2dvm.scope" "docker/$ID"
}

# The cgroups $@ below the sandbox on the unified hierarchy; sets U.
unified_tree() {
	local d
	cgk_need_root || return 1
	cgk_need_unified || return 1
	U=$(cgk_sandbox unified) || { fail "no sandbox"; return 1; }
	for d in "$@"; do
		mkdir -p "$U/$d" || { fail "cannot make the cgroup $d"; return 1; }
	done
}

# promtool check metrics finds nothing in exposition $1 but cAdvisor's own counter without
# _total, container_memory_failcnt (man cgtop2, CADVISOR COMPATIBILITY); nothing without promtool.
promtool_clean() {
	command -v promtool >/dev/null || return 0
	assertEquals "promtool says nothing" "" "$(echo "$1" | promtool check metrics 2>&1 |
		grep -vx 'container_memory_failcnt counter metrics should have "_total" suffix')"
}

# GET $1 on the server; the body in $out, the status in $code.
get() {
	out=$(curl -s --max-time 10 -o - -w '\n%{http_code}' "http://127.0.0.1:$PORT$1")
	code=${out##*$'\n'}
	out=${out%$'\n'*}
}

test_usage() {
	cgk_capture "$T" --compat=heapster -F prometheus -1
	assertEquals "exit" 64 "$rc"
	assertContains "stderr" "$err" "cgtop2: --compat takes cadvisor, not 'heapster'"
	cgk_capture "$T" --compat=cadvisor -F json -1
	assertEquals "compat without an exposition" 64 "$rc"
	assertContains "$err" "cgtop2: --compat needs -F openmetrics, -F prometheus or --listen"
	cgk_capture "$T" --cgroup-include='a(' -1
	assertEquals "a bad regex" 64 "$rc"
	assertContains "$err" "cgtop2: --cgroup-include takes a POSIX extended regex; 'a(': "
	cgk_capture "$T" --cgroup-exclude=x --record="$_cgk_tmp/r" -1
	assertEquals "filter and --record" 64 "$rc"
	cgk_capture "$T" --max-series=10 -1
	assertEquals "--max-series without --listen" 64 "$rc"
	assertContains "$err" "cgtop2: --max-series needs --listen"
	cgk_capture "$T" --listen=127.0.0.1:0 --max-series=0
	assertEquals "--max-series=0" 64 "$rc"
	assertContains "$err" "cgtop2: --max-series takes a number from 1 to 4294967295, not '0'"
	cgk_capture "$T" --help
	assertContains "$out" "--max-series=N"
	assertContains "$out" "--cgroup-include=REGEX"
	assertContains "$out" "--compat=cadvisor"
}

# Issue 43: --listen exports every cgroup by default, as cAdvisor does: a kubelet container of
# a burstable pod is four levels below the sandbox (five below a node's root), past the table's
# default depth of 3, which the batch output keeps.
test_live_listen_default_depth_every_cgroup() {
	fleet_tree || return 0
	cgk_need_prog curl "to scrape" || return 0
	cgk_listen "/$S" || return 0
	get /metrics
	assertEquals "status" 200 "$code"
	assertContains "the kubelet's container, five levels down" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/$CTR\",unit=\"cri-containerd-$ID.scope\","
	assertContains "every cgroup of the sandbox" "$out" "cgtop2_cgroups 12"
	assertNotContains "no bound: no such metric" "$out" "cgtop2_series_dropped_cgroups"
	cgk_capture "$T" -F prometheus -1 "/$S"
	assertEquals "exit" 0 "$rc"
	assertNotContains "the batch output keeps its depth of 3" "$out" "cgroup=\"/$S/$CTR\""
	assertContains "$out" "cgroup=\"/$S/system.slice/nginx.service/worker\""
}

# --max-series: past the bound the deepest cgroups go first (here the container alone, one
# level deeper than any other), the metric says how many at each scrape, stderr once.
test_live_listen_max_series() {
	local all ctr worker errf
	fleet_tree || return 0
	cgk_need_prog curl "to scrape" || return 0
	cgk_listen "/$S" || return 0
	get /metrics
	all=$(echo "$out" | grep -c 'cgroup="')
	ctr=$(echo "$out" | grep -c "cgroup=\"/$S/$CTR\"")
	assertTrue "the container has series ($ctr of $all)" "[ $ctr -gt 0 ] && [ $all -gt $ctr ]"
	cgk_kill_pids
	_pids=()
	cgk_listen --max-series=$((all - 1)) "/$S" || return 0
	errf=$LISTEN_ERR
	get /metrics
	assertEquals "status" 200 "$code"
	assertNotContains "the deepest cgroup is left out" "$out" "cgroup=\"/$S/$CTR\""
	assertContains "the next deepest stays" "$out" "cgroup=\"/$S/system.slice/nginx.service/worker\""
	assertEquals "what is left" $((all - ctr)) "$(echo "$out" | grep -c 'cgroup="')"
	assertContains "the metric" "$out" "# TYPE cgtop2_series_dropped_cgroups gauge"
	assertContains "$out" "cgtop2_series_dropped_cgroups 1"
	assertContains "$out" "cgtop2_cgroups 11"
	get /metrics
	assertContains "$out" "cgtop2_series_dropped_cgroups 1"
	assertEquals "stderr says it once: $(head -c 600 "$errf")" 1 \
		"$(grep -c -- '--max-series=[0-9]*: 1 cgroups left out, the deepest first' "$errf")"
	cgk_kill_pids
	_pids=()
	cgk_listen --max-series=$all "/$S" || return 0
	get /metrics
	assertContains "at the bound nothing is dropped" "$out" "cgroup=\"/$S/$CTR\""
	assertContains "$out" "cgtop2_series_dropped_cgroups 0"
}

# Issue 43: who is in a container, from its runtime's state files (tests/fixtures/runtime, a
# node's root: containerd, CRI-O, Docker, and hostile ones) on every family of a default
# --listen scrape, in cgkit's names and cAdvisor's, and in JSON's origin.
RT_A=$(printf 'a1%.0s' {1..32}) RT_B=$(printf 'b2%.0s' {1..32}) RT_C=$(printf 'c3%.0s' {1..32})
RT_D=$(printf 'd4%.0s' {1..32})
RT_POD=kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice

runtime_tree() {
	unified_tree "rt/$RT_POD/cri-containerd-$RT_A.scope/sub" "rt/$RT_POD/crio-$RT_B.scope" \
		"rt/system.slice/docker-$RT_C.scope" "rt/$RT_POD/crio-$RT_D.scope"
}

test_live_runtime_names() {
	local p="cgroup_cpu_usage_seconds_total{cgroup=\"/$S/rt"
	runtime_tree || return 0
	cgk_need_prog curl "to scrape" || return 0
	cgk_listen --runtime-root="$FIXTURES/runtime" "/$S/rt" || return 0
	get /metrics
	assertEquals "status" 200 "$code"
	assertContains "containerd's" "$out" \
		"$p/$RT_POD/cri-containerd-$RT_A.scope\",unit=\"cri-containerd-$RT_A.scope\",slice=\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",container_id=\"$RT_A\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\",container=\"web\",pod=\"web-7d9c6b5f4-x2x8q\",namespace=\"shop\",image=\"registry.example.org/shop/web:1.4.2\"} "
	assertContains "CRI-O's" "$out" \
		"container_id=\"$RT_B\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\",container=\"cache\",pod=\"cache-0\",namespace=\"shop\",image=\"docker.io/library/redis:7-alpine\"} "
	assertContains "Docker's: an image, no Kubernetes name, no name in cgkit's" "$out" \
		"$p/system.slice/docker-$RT_C.scope\",unit=\"docker-$RT_C.scope\",slice=\"system.slice\",container_id=\"$RT_C\",image=\"nginx:1.27\"} "
	assertContains "a file that is no JSON: no name, no failure" "$out" \
		"container_id=\"$RT_D\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\"} "
	assertEquals "every family of the container has them" "" \
		"$(echo "$out" | grep "cri-containerd-$RT_A.scope\",unit" | grep -v 'container="web",pod="web-7d9c6b5f4-x2x8q",namespace="shop"')"
	# cAdvisor names the container's own cgroup alone: a sum by pod counts it once
	assertContains "a sub-cgroup keeps the ID, not the names" "$out" \
		"$p/$RT_POD/cri-containerd-$RT_A.scope/sub\",unit=\"cri-containerd-$RT_A.scope\",slice=\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",container_id=\"$RT_A\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\"} "
	promtool_clean "$out"
	cgk_kill_pids
	_pids=()
	cgk_listen --compat=cadvisor --runtime-root="$FIXTURES/runtime" "/$S/rt" || return 0
	get /metrics
	assertContains "cAdvisor's names, name the ID for containerd" "$out" \
		"container_cpu_usage_seconds_total{cpu=\"total\",id=\"/$S/rt/$RT_POD/cri-containerd-$RT_A.scope\",unit=\"cri-containerd-$RT_A.scope\",slice=\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",container_id=\"$RT_A\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\",container=\"web\",pod=\"web-7d9c6b5f4-x2x8q\",namespace=\"shop\",image=\"registry.example.org/shop/web:1.4.2\",name=\"$RT_A\"} "
	assertContains "Docker's name for Docker's container" "$out" \
		"container_id=\"$RT_C\",image=\"nginx:1.27\",name=\"edge-proxy\"} "
	promtool_clean "$out"
	cgk_capture "$T" -F json -1 --depth=6 --runtime-root="$FIXTURES/runtime" "/$S/rt"
	assertEquals "exit" 0 "$rc"
	assertContains "JSON's origin" "$out" \
		"\"container_id\":\"$RT_A\",\"pod_uid\":\"1234abcd-5678-90ef-abcd-1234567890ab\",\"qos\":\"burstable\",\"container\":\"web\",\"pod\":\"web-7d9c6b5f4-x2x8q\",\"namespace\":\"shop\",\"image\":\"registry.example.org/shop/web:1.4.2\"}"
	assertContains "$out" "\"container_id\":\"$RT_C\",\"image\":\"nginx:1.27\",\"name\":\"edge-proxy\"}"
	cgk_capture "$T" -F json -1 --runtime-root="$_cgk_tmp/none" "/$S/rt"
	assertEquals "a root asked for that is not there" 1 "$rc"
	assertContains "$err" "cgtop2: --runtime-root $_cgk_tmp/none: No such file or directory"
	# the other tests count the sandbox's cgroups
	cgk_kill_pids
	_pids=()
	find "$U/rt" -depth -type d -exec rmdir {} +
}

# cgtop2 on fixture layout $1 (tests/fixtures/cgtop2_metrics: unified, legacy) with the
# remaining arguments; sets $rc $out $err.
fx() {
	local layout=$1 FX=$FIXTURES/cgtop2_metrics
	shift
	sed "s|@DIR@|$FX|" "$FX/$layout.mountinfo.in" >"$_cgk_tmp/mi.$layout"
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/mi.$layout" "$T" "$@"
}

# Each cAdvisor family from the file cgkit reads for it, on the fixture files' numbers (the
# native families' values in tests/cgtop2_metrics.sh); container_fs_*'s device is MAJ:MIN where
# /sys names none (cAdvisor's "" would make the two devices one series).
test_fixture_compat_cadvisor_values() {
	local l
	fx unified -F prometheus --compat=cadvisor --collectors=all -1
	assertEquals "exit" 0 "$rc"
	for l in \
		'container_cpu_usage_seconds_total{cpu="total",id="/svc"} 2.500000000' \
		'container_cpu_user_seconds_total{id="/svc"} 1.500000000' \
		'container_cpu_system_seconds_total{id="/svc"} 1.000000000' \
		'container_cpu_cfs_periods_total{id="/svc"} 40' \
		'container_cpu_cfs_throttled_periods_total{id="/svc"} 7' \
		'container_cpu_cfs_throttled_seconds_total{id="/svc"} 0.350000000' \
		'container_memory_usage_bytes{id="/svc"} 104857600' \
		'container_memory_working_set_bytes{id="/svc"} 73400320' \
		'container_memory_rss{id="/svc"} 41943040' \
		'container_memory_cache{id="/svc"} 52428800' \
		'container_memory_swap{id="/svc"} 4096' \
		'container_memory_kernel_usage{id="/svc"} 6291456' \
		'container_memory_mapped_file{id="/svc"} 2097152' \
		'container_memory_max_usage_bytes{id="/svc"} 209715200' \
		'container_memory_failcnt{id="/svc"} 5' \
		'container_oom_events_total{id="/svc"} 1' \
		'container_spec_memory_limit_bytes{id="/svc"} 0' \
		'container_spec_memory_swap_limit_bytes{id="/svc"} 0' \
		'container_spec_memory_reservation_limit_bytes{id="/svc"} 16777216' \
		'container_threads{id="/svc"} 3' \
		'container_threads_max{id="/svc"} 100' \
		'container_blkio_device_usage_total{id="/svc",device="",major="8",minor="0",operation="Read"} 1000' \
		'container_blkio_device_usage_total{id="/svc",device="",major="259",minor="0",operation="Write"} 48' \
		'container_fs_reads_bytes_total{id="/svc",device="8:0"} 1000' \
		'container_fs_reads_bytes_total{id="/svc",device="259:0"} 500' \
		'container_fs_reads_total{id="/svc",device="8:0"} 10' \
		'container_fs_writes_bytes_total{id="/svc",device="8:0"} 2000' \
		'container_fs_writes_total{id="/svc",device="259:0"} 2' \
		'container_pressure_cpu_waiting_seconds_total{id="/svc"} 2.500000' \
		'container_pressure_cpu_stalled_seconds_total{id="/svc"} 1.250000' \
		'container_pressure_memory_stalled_seconds_total{id="/svc"} 0.000005' \
		'# TYPE container_memory_failcnt counter'; do
		assertContains "$l" "$out" "$l"
	done
	fx unified -F openmetrics --compat=cadvisor --collectors=all -1
	assertContains "OpenMetrics has no counter without _total" "$out" "# TYPE container_memory_failcnt unknown"
	assertContains "$out" "# UNIT container_memory_usage_bytes bytes"
	assertNotContains "no unit a name does not end in" "$out" "# UNIT container_memory_rss"
	assertContains "container_fs_*'s unit" "$out" "# UNIT container_fs_writes_bytes bytes"
	# v1: the reservation is the soft limit, the swap limit memory plus swap's, as cAdvisor
	fx legacy -F prometheus --compat=cadvisor --collectors=all -1
	assertContains "$out" 'container_spec_memory_reservation_limit_bytes{id="/svc"} 268435456'
	assertContains "$out" 'container_spec_memory_swap_limit_bytes{id="/svc"} 1073741824'
	# container_fs_* from blkio's Read and Write (io_service_bytes, io_serviced)
	assertContains "$out" 'container_fs_reads_bytes_total{id="/svc",device="8:0"} 4096'
	assertContains "$out" 'container_fs_writes_total{id="/svc",device="8:0"} 4'
	assertContains "$out" 'container_memory_failcnt{id="/svc"} 6'
	assertContains "v1: total_mapped_file" "$out" 'container_memory_mapped_file{id="/svc"} 1048576'
}

# cAdvisor's CPU spec families on every layout (tests/fixtures/cgtop2/limits: cpu.max 50000
# 100000 and cpu.weight 50 in /web; v1 cfs_quota_us 50000, cfs_period_us 100000, shares 512,
# and /free without a quota, shares 1024): quota and period in microseconds, no quota sample for
# "max" or -1 (cAdvisor leaves it out), v1's shares as they are, and cgroup2's weight as cAdvisor
# converts it back (2 + (weight - 1) * 262142 / 9999: 50 is 1286, 1 is 2, 10000 is 262144).
test_fixture_compat_cadvisor_cpu_spec() {
	local l LFX=$FIXTURES/cgtop2/limits dir=$_cgk_tmp/spec
	mkdir -p "$dir"
	cp -R "$LFX/unified" "$dir/"
	echo "max 100000" >"$dir/unified/free/cpu.max"
	echo 1 >"$dir/unified/free/cpu.weight"
	mkdir "$dir/unified/top"
	echo "usage_usec 1" >"$dir/unified/top/cpu.stat"
	echo "200000 1000000" >"$dir/unified/top/cpu.max"
	echo 10000 >"$dir/unified/top/cpu.weight"
	sed "s|@DIR@|$dir|" "$LFX/unified.mountinfo.in" >"$_cgk_tmp/spec.unified"
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/spec.unified" "$T" -F prometheus --compat=cadvisor -1
	assertEquals "exit" 0 "$rc"
	for l in '# TYPE container_spec_cpu_period gauge' '# TYPE container_spec_cpu_quota gauge' \
		'# TYPE container_spec_cpu_shares gauge' \
		'container_spec_cpu_period{id="/web"} 100000' 'container_spec_cpu_quota{id="/web"} 50000' \
		'container_spec_cpu_shares{id="/web"} 1286' 'container_spec_cpu_period{id="/free"} 100000' \
		'container_spec_cpu_shares{id="/free"} 2' 'container_spec_cpu_quota{id="/top"} 200000' \
		'container_spec_cpu_period{id="/top"} 1000000' 'container_spec_cpu_shares{id="/top"} 262144'; do
		assertContains "unified: $l" "$out" "$l"
	done
	assertNotContains "no quota sample for max" "$out" 'container_spec_cpu_quota{id="/free"}'
	promtool_clean "$out"
	# ?collect[]=cpu's area: with cgkit's names, no family of the limits collector
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/spec.unified" "$T" -F prometheus -1 --collectors=all
	assertNotContains "cgkit's names have no spec family" "$out" "spec_cpu"
	for l in legacy hybrid; do
		sed "s|@DIR@|$LFX|" "$LFX/$l.mountinfo.in" >"$_cgk_tmp/spec.$l"
		cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/spec.$l" "$T" -F openmetrics --compat=cadvisor -1
		assertEquals "$l exit" 0 "$rc"
		assertContains "$l" "$out" 'container_spec_cpu_period{id="/web"} 100000'
		assertContains "$l" "$out" 'container_spec_cpu_quota{id="/web"} 50000'
		assertContains "$l: v1 shares as they are" "$out" 'container_spec_cpu_shares{id="/web"} 512'
		assertContains "$l" "$out" 'container_spec_cpu_period{id="/free"} 100000'
		assertContains "$l" "$out" 'container_spec_cpu_shares{id="/free"} 1024'
		assertNotContains "$l: no quota sample for -1" "$out" 'container_spec_cpu_quota{id="/free"}'
	done
}

# cAdvisor's CPU spec families against the files of the live kernel: a cgroup with a quota, a
# period and a weight, and one without a quota, in the cpu controller's hierarchy (this hybrid
# host: v1 cpu.cfs_quota_us, cpu.cfs_period_us, cpu.shares; the unified VM: cpu.max and
# cpu.weight); container_memory_mapped_file against the root's memory.stat as it reads around
# the scrape (memory's hierarchy: v1 total_mapped_file, cgroup2 file_mapped).
test_live_compat_cpu_spec_and_mapped_file() {
	local d v1 lim_shares free_shares free_period w m a b v
	cgk_need_root || return 0
	if [ -n "$(cgk_mnt cpu)" ] && [ "$(cgk_mnt cpu)" != "$(cgk_mnt unified)" ]; then
		v1=1
		d=$(cgk_sandbox cpu) || { fail "no sandbox"; return 0; }
		mkdir "$d/lim" "$d/free"
		echo 50000 >"$d/lim/cpu.cfs_period_us"
		echo 20000 >"$d/lim/cpu.cfs_quota_us"
		echo 300 >"$d/lim/cpu.shares"
		lim_shares=$(cat "$d/lim/cpu.shares")
		free_shares=$(cat "$d/free/cpu.shares")
		free_period=$(cat "$d/free/cpu.cfs_period_us")
	else
		v1=
		cgk_need_v2 cpu || return 0
		d=$(cgk_sandbox unified) || { fail "no sandbox"; return 0; }
		echo +cpu >"$d/cgroup.subtree_control"
		mkdir "$d/lim" "$d/free"
		echo "20000 50000" >"$d/lim/cpu.max"
		echo 37 >"$d/lim/cpu.weight"
		w=$(cat "$d/lim/cpu.weight")
		lim_shares=$((2 + (w - 1) * 262142 / 9999))
		w=$(cat "$d/free/cpu.weight")
		free_shares=$((2 + (w - 1) * 262142 / 9999))
		free_period=$(cut -d' ' -f2 "$d/free/cpu.max")
	fi
	# cAdvisor's line: 2 + 36 * 262142 / 9999
	assertEquals "300 shares, or weight 37" "$([ -n "$v1" ] && echo 300 || echo 945)" "$lim_shares"
	cgk_capture "$T" -F prometheus --compat=cadvisor -1 --depth=1 "/$S"
	assertEquals "exit" 0 "$rc"
	assertContains "$out" "container_spec_cpu_quota{id=\"/$S/lim\"} 20000"
	assertContains "$out" "container_spec_cpu_period{id=\"/$S/lim\"} 50000"
	assertContains "$out" "container_spec_cpu_shares{id=\"/$S/lim\"} $lim_shares"
	assertContains "$out" "container_spec_cpu_period{id=\"/$S/free\"} $free_period"
	assertContains "$out" "container_spec_cpu_shares{id=\"/$S/free\"} $free_shares"
	assertNotContains "no quota: no sample" "$out" "container_spec_cpu_quota{id=\"/$S/free\"}"
	# cgroup2: a process of the test's in a cgroup of its own maps a file it wrote there (its
	# pages charged to that cgroup): file_mapped is more than 0 and steady
	if [ -z "$v1" ] && grep -qw memory "$d/cgroup.controllers"; then
		echo +memory >"$d/cgroup.subtree_control"
		mkdir "$d/map" "$_cgk_tmp/map"
		# (busybox's sh has sleep built in: its path from bash)
		sh -c 'echo $$ >"$1/cgroup.procs"; cp "$3" "$2/sleep" && exec "$2/sleep" 60' \
			_ "$d/map" "$_cgk_tmp/map" "$(type -P sleep)" &
		_pids+=($!)
		cgk_wait_for awk '$1 == "file_mapped" && $2 > 0 { f = 1 } END { exit !f }' "$d/map/memory.stat" ||
			fail "file_mapped stayed 0: $(cat "$d/map/memory.stat" | tr '\n' ' ')"
		a=$(awk '$1 == "file_mapped" { print $2 }' "$d/map/memory.stat")
		cgk_capture "$T" -F prometheus --compat=cadvisor -1 --depth=1 "/$S"
		assertContains "file_mapped $a of a process's mapping" "$out" \
			"container_memory_mapped_file{id=\"/$S/map\"} $a"
		assertNotEquals "more than 0" 0 "$a"
	fi
	# the root's mapped files, a live figure: within what the file said before and after, plus
	# cgtop2's own mappings (its libraries are charged to the root while it reads: 3.2 MB more
	# in the legacy guest, whose memory.stat before and after saw none of them)
	m=$(cgk_mnt memory)
	if [ -f "$m/memory.stat" ]; then
		a=$(awk '$1 == "total_mapped_file" || $1 == "file_mapped" { print $2 }' "$m/memory.stat")
		cgk_capture "$T" -F prometheus --compat=cadvisor -1 --depth=0 /
		b=$(awk '$1 == "total_mapped_file" || $1 == "file_mapped" { print $2 }' "$m/memory.stat")
		v=$(echo "$out" | sed -n 's/^container_memory_mapped_file{id="\/"} //p')
		assertTrue "container_memory_mapped_file '$v' of the root is memory.stat's ($a, then $b)" \
			"awk -v v='$v' -v a='$a' -v b='$b' 'BEGIN { lo = a < b ? a : b; hi = a < b ? b : a; exit !(v != \"\" && v >= lo * 0.9 && v <= hi * 1.1 + 16777216) }'"
	else
		echo "NOTE ${_shunit_test_:-}: no memory.stat at the root of memory's hierarchy here"
	fi
}

# Label values are the paths as they are, in the exposition and in PromQL: a systemd name with
# \x2d (a backslash in the name) and a space need nothing but the exposition's own escaping; a
# control character or a byte of no UTF-8 cannot be a label value (Prometheus wants UTF-8): the
# table's reversible text with escaped="true". promtool takes both; a real Prometheus scraping
# --listen answers a query that names the path as it is.
LV_NAMES=('foo\x2dbar.service' 'with space' 'quote"d' $'tab\there' $'b\xffd')
# their parent: a cgroup of their own, as other tests add theirs to the sandbox
LV=/$S/lv

label_tree() {
	local n
	cgk_need_root || return 1
	cgk_need_unified || return 1
	U=$(cgk_sandbox unified) || { fail "no sandbox"; return 1; }
	for n in "${LV_NAMES[@]}"; do
		mkdir -p "$U/lv/$n" || { fail "cannot make a cgroup"; return 1; }
	done
}

test_live_label_values_are_paths() {
	label_tree || return 0
	cgk_capture "$T" -F prometheus -1 --depth=1 "$LV"
	assertEquals "exit" 0 "$rc"
	# one backslash of the name is the exposition's \\, once
	assertContains "systemd's \\x2d" "$out" "cgroup_tasks{cgroup=\"$LV/foo\\\\x2dbar.service\",unit=\"foo\\\\x2dbar.service\"} "
	assertContains "a space" "$out" "cgroup_tasks{cgroup=\"$LV/with space\"} "
	assertContains "a quote" "$out" "cgroup_tasks{cgroup=\"$LV/quote\\\"d\"} "
	assertContains "a tab: the table's \\t" "$out" "cgroup_tasks{cgroup=\"$LV/tab\\\\there\",escaped=\"true\"} "
	assertContains "no UTF-8: the table's \\xff" "$out" "cgroup_tasks{cgroup=\"$LV/b\\\\xffd\",escaped=\"true\"} "
	assertNotContains "a plain name is not marked" "$out" "with space\",escaped"
	promtool_clean "$out"
	cgk_capture "$T" -F openmetrics --compat=cadvisor -1 --depth=1 "$LV"
	assertContains "cAdvisor's id alike" "$out" "container_threads{id=\"$LV/foo\\\\x2dbar.service\",unit=\"foo\\\\x2dbar.service\"} "
	assertContains "$out" "container_threads{id=\"$LV/b\\\\xffd\",escaped=\"true\"} "
}

# What PromQL sees: each cgroup's label as Prometheus stored it, from its query API, is the
# cgroup's path (os.listdir's bytes); the escaped ones are the table's text of it, reversibly.
test_live_label_values_in_promql() {
	local cfg=$_cgk_tmp/lvprom end res
	cgk_need_prog prometheus || return 0
	cgk_need_prog python3 "to read the API's JSON" || return 0
	label_tree || return 0
	cgk_listen --depth=1 "$LV" || return 0
	mkdir -p "$cfg"
	cat >"$cfg/prometheus.yml" <<-EOF
		global:
		  scrape_interval: 1s
		  scrape_timeout: 1s
		scrape_configs:
		  - job_name: cgtop2
		    static_configs: [{ targets: ['127.0.0.1:$PORT'] }]
	EOF
	cgk_prometheus "$cfg/prometheus.yml" "$cfg" || return 0
	# a minute: each check is a python3 start, seconds under TCG
	end=$((SECONDS + 60)) # guard
	while :; do
		res=$(lv_check "$U/lv" 2>&1)
		[ "$res" = ok ] || [ $SECONDS -ge $end ] && break # guard
		sleep 0.5
	done
	assertEquals "the label values Prometheus holds" "ok" "$res"
}

# "ok" when every cgroup below $1 is found by a PromQL matcher of its path as it is (a plain
# name) or of the table's text with escaped="true", and the label comes back as that; else what
# is not.
lv_check() {
	PYTHONPATH=$CGKIT_TOP/tests/helpers python3 - "$1" "$LV" "$PROM" <<'PY'
import json, os, sys, urllib.parse, urllib.request
from names import label_value
top, base, prom = os.fsencode(sys.argv[1]), sys.argv[2], sys.argv[3]  # base: top's cgroup path
def promql(s):  # a PromQL string literal of s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
bad = []
names = [n for n in os.listdir(top) if os.path.isdir(os.path.join(top, n))]
if len(names) != 5:
    bad.append("%d cgroups" % len(names))
for n in names:
    v, esc = label_value(n)
    value = base + "/" + v
    q = "cgroup_tasks{cgroup=%s%s}" % (promql(value), ',escaped="true"' if esc else "")
    url = "http://%s/api/v1/query?query=%s" % (prom, urllib.parse.quote(q))
    try:
        r = json.load(urllib.request.urlopen(url, timeout=5))
    except Exception as e:
        bad.append("%s: %s" % (q, e))
        continue
    res = r.get("data", {}).get("result", [])
    if len(res) != 1 or res[0]["metric"].get("cgroup") != value:
        bad.append("%s: %r" % (q, res))
print("\n".join(bad) if bad else "ok")
PY
}

test_live_origin_labels() {
	fleet_tree || return 0
	cgk_capture "$T" -F prometheus -1 --depth=6 "/$S"
	assertEquals "exit" 0 "$rc"
	assertContains "a container of a burstable pod" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/$CTR\",unit=\"cri-containerd-$ID.scope\",slice=\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",container_id=\"$ID\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\"} "
	assertContains "a service's own cgroup" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/system.slice/nginx.service/worker\",unit=\"nginx.service\",slice=\"system.slice\"} "
	assertContains "a machine, unescaped (the path and unit as they are: the exposition's \\\\ is one backslash)" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/machine.slice/machine-qemu\\\\x2d1\\\\x2dvm.scope\",unit=\"machine-qemu\\\\x2d1\\\\x2dvm.scope\",slice=\"machine.slice\",machine=\"qemu-1-vm\"} "
	assertContains "Docker's cgroupfs driver" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/docker/$ID\",container_id=\"$ID\"} "
	assertContains "nothing to say: no label" "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S\"} "
	# every family carries them: the collector errors are the exposition's own
	assertEquals "every cgroup sample is labelled" "" \
		"$(echo "$out" | grep "cgroup=\"/$S/$CTR\"" | grep -v "container_id=\"$ID\"")"
	promtool_clean "$out"
	cgk_capture "$T" -F json -1 --depth=6 "/$S"
	assertContains "JSON carries the same fields" "$out" \
		"{\"path\":\"/$S/$CTR\",\"origin\":{\"unit\":\"cri-containerd-$ID.scope\",\"slice\":\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",\"container_id\":\"$ID\",\"pod_uid\":\"1234abcd-5678-90ef-abcd-1234567890ab\",\"qos\":\"burstable\"},"
	assertContains "an empty origin" "$out" "{\"path\":\"/$S\",\"origin\":{},"
}

test_live_compat_cadvisor() {
	local l
	fleet_tree || return 0
	cgk_capture "$T" -F prometheus --compat=cadvisor -1 --depth=6 "/$S"
	assertEquals "exit" 0 "$rc"
	assertContains "cAdvisor's CPU counter, id and name" "$out" \
		"container_cpu_usage_seconds_total{cpu=\"total\",id=\"/$S/$CTR\",unit=\"cri-containerd-$ID.scope\",slice=\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",container_id=\"$ID\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\",name=\"$ID\"} "
	assertContains "no name without a container" "$out" "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/$S\"} "
	for l in '# TYPE container_cpu_usage_seconds_total counter' \
		'# TYPE container_threads gauge' '# TYPE container_last_seen gauge' \
		'# TYPE cgtop2_cgroups gauge'; do
		assertContains "$l" "$out" "$l"
	done
	assertNotContains "no native family" "$out" "cgroup_cpu_usage_seconds_total"
	assertEquals "container_last_seen is now, in seconds" 1 \
		"$(echo "$out" | awk -v now="$(date +%s)" -v id="id=\"/$S\"}" '$1 ~ /^container_last_seen/ && index($1, id) { d = $2 - now; print (d > -30 && d < 30) }')" # clock: a time the exporter printed, against now
	promtool_clean "$out"
	cgk_capture "$T" -F openmetrics --compat=cadvisor -1 --depth=1 "/$S"
	assertEquals "openmetrics exit" 0 "$rc"
	assertContains "OpenMetrics: a counter family without _total" "$out" \
		"# TYPE container_cpu_usage_seconds counter"
	assertEquals "# EOF" "$(echo "$out" | tail -n 1)"
	# -P: cAdvisor's processes family instead of its threads
	cgk_capture "$T" -F prometheus --compat=cadvisor -P -1 --depth=0 "/$S"
	assertContains "$out" "container_processes{id=\"/$S\"} "
	assertNotContains "$out" "container_threads{"
}

# issue 40: a back-reference (glibc's extension of POSIX EREs) matches in exponential time: a
# usage error naming the pattern; a backslash in a bracket or escaped is none. On the fixture
# tree, so that a binary that takes the pattern ends quickly with exit 0.
test_backref_refused() {
	local re='(.*)(.*)(.*)(.*)(.*)(.*)(.*)\7\6x'
	fx unified -F json -1 --cgroup-include="$re"
	assertEquals "refused: $err" 64 "$rc"
	assertEquals "one line naming the pattern and why" \
		"cgtop2: --cgroup-include takes a POSIX extended regex; '$re': a back-reference (\7 at byte 28) is refused: matching one takes time exponential in the name's length" \
		"$(head -n 1 <<<"$err")"
	assertEquals "nothing written" "" "$out"
	fx unified -F json -1 --cgroup-exclude='(a)\1'
	assertEquals "--cgroup-exclude too: $err" 64 "$rc"
	assertContains "$err" "cgtop2: --cgroup-exclude takes a POSIX extended regex; '(a)\1': a back-reference (\1 at byte 3) is refused"
	# the escapes are the user's bytes, escaped in the line
	fx unified -F json -1 --cgroup-include=$'\e[2J(a)\\1'
	assertEquals "escaped: $err" 64 "$rc"
	assertContains "$err" "'\x1b[2J(a)\1'"
	# a backslash in a bracket expression, or escaped, is no reference
	fx unified -F json -1 --cgroup-include='.*[\1].*' --cgroup-exclude='x\\1'
	assertEquals "[\\1] and \\\\1 taken: $err" 0 "$rc"
}

test_live_include_exclude() {
	fleet_tree || return 0
	cgk_capture "$T" -F prometheus -1 --depth=6 --cgroup-include="/$S/system\\.slice(/.*)?" "/$S"
	assertEquals "exit" 0 "$rc"
	assertEquals "the slice and what is below it" 3 \
		"$(echo "$out" | grep -c '^cgroup_cpu_usage_seconds_total{')"
	assertContains "$out" "cgtop2_cgroups 3"
	# anchored: a part of the path is no match
	cgk_capture "$T" -F prometheus -1 --depth=6 --cgroup-include=system "/$S"
	assertContains "no cgroup" "$out" "cgtop2_cgroups 0"
	# excludes after includes, repeatable
	cgk_capture "$T" -F json -1 --depth=6 --cgroup-include="/$S/(system|machine)\\.slice.*" \
		--cgroup-exclude='.*/worker' --cgroup-exclude='.*\.scope' "/$S"
	assertContains "$out" "\"path\":\"/$S/system.slice/nginx.service\""
	assertNotContains "$out" "worker"
	assertNotContains "$out" "machine-qemu"
	assertContains "$out" "\"path\":\"/$S/machine.slice\""
}

test_live_listen_collect() {
	fleet_tree || return 0
	cgk_need_prog curl "to scrape" || return 0
	cgk_listen --cgroup-exclude="/$S/docker.*" "/$S" || return 0
	get /metrics
	assertEquals "status" 200 "$code"
	assertContains "memory's families" "$out" "cgroup_memory_"
	assertNotContains "--cgroup-exclude applies to --listen" "$out" "/$S/docker"
	get '/metrics?collect%5B%5D=cpu'
	assertEquals "collect[]=cpu" 200 "$code"
	assertContains "the CPU families" "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S\"}"
	assertNotContains "no memory family" "$out" "cgroup_memory_"
	assertNotContains "no PSI family" "$out" "cgroup_pressure_"
	assertContains "the exposition's own" "$out" "cgtop2_cgroups "
	get '/metrics?collect[]=cpu&collect[]=psi'
	assertContains "two collectors" "$out" "cgroup_pressure_"
	get '/metrics?collect[]=disk'
	assertEquals "an unknown collector" 400 "$code"
	assertContains "$out" "collect[] takes cpu, memory, io, iodevice, pids or psi"
	# the shared body is not the filtered one
	get /metrics
	assertContains "the next plain scrape has everything" "$out" "cgroup_memory_"
}

. "$SHUNIT2"
