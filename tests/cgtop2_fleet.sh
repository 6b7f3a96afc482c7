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
	cgk_need_root || return 1
	cgk_need_unified || return 1
	U=$(cgk_sandbox unified) || { fail "no sandbox"; return 1; }
	mkdir -p "$U/$CTR" "$U/system.slice/nginx.service/worker" \
		"$U/machine.slice/machine-qemu\\x2d1\\x2dvm.scope" "$U/docker/$ID" ||
		{ fail "cannot make the fleet's cgroups"; return 1; }
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
	cgk_capture "$T" --help
	assertContains "$out" "--cgroup-include=REGEX"
	assertContains "$out" "--compat=cadvisor"
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
# native families' values in tests/cgtop2_metrics.sh).
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
	# v1: the reservation is the soft limit, the swap limit memory plus swap's, as cAdvisor
	fx legacy -F prometheus --compat=cadvisor --collectors=all -1
	assertContains "$out" 'container_spec_memory_reservation_limit_bytes{id="/svc"} 268435456'
	assertContains "$out" 'container_spec_memory_swap_limit_bytes{id="/svc"} 1073741824'
	assertContains "$out" 'container_memory_failcnt{id="/svc"} 6'
}

test_live_origin_labels() {
	local res
	fleet_tree || return 0
	cgk_capture "$T" -F prometheus -1 --depth=6 "/$S"
	assertEquals "exit" 0 "$rc"
	assertContains "a container of a burstable pod" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/$CTR\",unit=\"cri-containerd-$ID.scope\",slice=\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",container_id=\"$ID\",pod_uid=\"1234abcd-5678-90ef-abcd-1234567890ab\",qos=\"burstable\"} "
	assertContains "a service's own cgroup" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/system.slice/nginx.service/worker\",unit=\"nginx.service\",slice=\"system.slice\"} "
	assertContains "a machine, unescaped (the path and unit: a backslash escaped, reversibly, then for the label)" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/machine.slice/machine-qemu\\\\\\\\x2d1\\\\\\\\x2dvm.scope\",unit=\"machine-qemu\\\\\\\\x2d1\\\\\\\\x2dvm.scope\",slice=\"machine.slice\",machine=\"qemu-1-vm\"} "
	assertContains "Docker's cgroupfs driver" "$out" \
		"cgroup_cpu_usage_seconds_total{cgroup=\"/$S/docker/$ID\",container_id=\"$ID\"} "
	assertContains "nothing to say: no label" "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S\"} "
	# every family carries them: the collector errors are the exposition's own
	assertEquals "every cgroup sample is labelled" "" \
		"$(echo "$out" | grep "cgroup=\"/$S/$CTR\"" | grep -v "container_id=\"$ID\"")"
	if command -v promtool >/dev/null; then
		res=$(echo "$out" | promtool check metrics 2>&1) || fail "promtool: $res"
		assertEquals "promtool says nothing" "" "$res"
	fi
	cgk_capture "$T" -F json -1 --depth=6 "/$S"
	assertContains "JSON carries the same fields" "$out" \
		"{\"path\":\"/$S/$CTR\",\"origin\":{\"unit\":\"cri-containerd-$ID.scope\",\"slice\":\"kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice\",\"container_id\":\"$ID\",\"pod_uid\":\"1234abcd-5678-90ef-abcd-1234567890ab\",\"qos\":\"burstable\"},"
	assertContains "an empty origin" "$out" "{\"path\":\"/$S\",\"origin\":{},"
}

test_live_compat_cadvisor() {
	local res l
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
		"$(echo "$out" | awk -v now="$(date +%s)" -v id="id=\"/$S\"}" '$1 ~ /^container_last_seen/ && index($1, id) { d = $2 - now; print (d > -30 && d < 30) }')"
	if command -v promtool >/dev/null; then
		res=$(echo "$out" | promtool check metrics 2>&1) || fail "promtool: $res"
		assertEquals "promtool says nothing" "" "$res"
	fi
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
