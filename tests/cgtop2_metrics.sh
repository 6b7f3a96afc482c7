#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2's metric set and formats (#13): the collectors on fixture trees (unified and legacy
# text of every file they read), files of an off collector left unopened, -F prometheus and
# -F openmetrics grammar, the JSON schema and --cpu=time in JSON and CSV; live: promtool on a
# real sandbox, node_exporter's textfile collector keeping the counter types, a busy cgroup's
# counter rising, and (in the VM matrix only) a cgroup OOM-killed and counted. No process of
# these tests ever joins the host's v1 memory hierarchy.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
BUSY=$HELPERS/top_busy
FX=$FIXTURES/cgtop2_metrics
_pids=()

# Our own processes only, by PID (lib.sh's tearDown calls it).
teardown_test() {
	cgk_kill_pids
	return 0
}

# cgtop2 on fixture layout $1 (unified, legacy) with the remaining arguments; sets $rc $out $err.
fx() {
	local layout=$1
	shift
	sed "s|@DIR@|$FX|" "$FX/$layout.mountinfo.in" >"$_cgk_tmp/mi.$layout"
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/mi.$layout" "$T" "$@"
}

# promtool's verdict on text $1 (exit status 0 and no output when clean); 2 without promtool.
promtool_check() {
	command -v promtool >/dev/null || return 2
	echo "$1" | promtool check metrics 2>&1
}

# The Prometheus text format 0.0.4, line by line: HELP and TYPE name the sample, a counter's
# with _total; no UNIT, no EOF; every sample after its family's TYPE. Prints what is wrong.
prom_check() {
	echo "$1" | awk '
	/^# HELP / { next }
	/^# TYPE / {
		fam = $3; type = $4
		if (type == "counter" && fam !~ /_total$/) print "counter without _total: " $0
		next
	}
	/^#/ { print "not 0.0.4 metadata: " $0; next }
	{
		n = $1; sub(/\{.*/, "", n)
		if (n != fam) print "sample outside its family " fam ": " $0
		if ($NF !~ /^(-?[0-9]+(\.[0-9]+)?|\+Inf)$/) print "value: " $0
	}'
}

# ---- usage ------------------------------------------------------------------------------------

test_usage_collectors() {
	cgk_capture "$T" --collectors=cpu,disk -1
	assertEquals "exit" 64 "$rc"
	assertContains "stderr" "$err" "cgtop2: --collectors takes cpu, memory, io, iodevice, pids, psi, limits, all or none (comma-separated, each maybe with + or -), not 'disk'"
	cgk_capture "$T" --collectors= -1
	assertEquals "empty list" 64 "$rc"
	cgk_capture "$T" -F xml -1
	assertContains "the formats" "$err" "--format takes table, json, csv, openmetrics or prometheus, not 'xml'"
	cgk_capture "$T" --help
	assertContains "--help names the option" "$out" "--collectors=LIST"
	assertContains "--help names the format" "$out" "prometheus"
}

# ---- fixture tier -----------------------------------------------------------------------------

test_fixture_unified_collectors() {
	local l
	fx unified -F prometheus -1 --collectors=all
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	assertEquals "0.0.4 grammar" "" "$(prom_check "$out")"
	for l in \
		'cgroup_cpu_user_seconds_total{cgroup="/svc"} 1.500000000' \
		'cgroup_cpu_system_seconds_total{cgroup="/svc"} 1.000000000' \
		'cgroup_cpu_periods_total{cgroup="/svc"} 40' \
		'cgroup_cpu_throttled_periods_total{cgroup="/svc"} 7' \
		'cgroup_cpu_throttled_seconds_total{cgroup="/svc"} 0.350000000' \
		'cgroup_memory_peak_bytes{cgroup="/svc"} 209715200' \
		'cgroup_memory_anon_bytes{cgroup="/svc"} 41943040' \
		'cgroup_memory_file_bytes{cgroup="/svc"} 52428800' \
		'cgroup_memory_kernel_bytes{cgroup="/svc"} 6291456' \
		'cgroup_memory_shmem_bytes{cgroup="/svc"} 1048576' \
		'cgroup_memory_slab_bytes{cgroup="/svc"} 4194304' \
		'cgroup_memory_sock_bytes{cgroup="/svc"} 8192' \
		'cgroup_memory_working_set_bytes{cgroup="/svc"} 73400320' \
		'cgroup_memory_swap_bytes{cgroup="/svc"} 4096' \
		'cgroup_memory_max_bytes{cgroup="/svc"} +Inf' \
		'cgroup_memory_high_bytes{cgroup="/svc"} 1073741824' \
		'cgroup_memory_low_bytes{cgroup="/svc"} 0' \
		'cgroup_memory_min_bytes{cgroup="/svc"} 16777216' \
		'cgroup_memory_swap_max_bytes{cgroup="/svc"} +Inf' \
		'cgroup_memory_high_events_total{cgroup="/svc"} 12' \
		'cgroup_memory_max_events_total{cgroup="/svc"} 5' \
		'cgroup_memory_oom_events_total{cgroup="/svc"} 2' \
		'cgroup_memory_oom_kill_events_total{cgroup="/svc"} 1' \
		'cgroup_memory_oom_group_kill_events_total{cgroup="/svc"} 0' \
		'cgroup_io_read_ops_total{cgroup="/svc"} 15' \
		'cgroup_io_write_ops_total{cgroup="/svc"} 22' \
		'cgroup_io_discard_bytes_total{cgroup="/svc"} 4096' \
		'cgroup_io_discard_ops_total{cgroup="/svc"} 1' \
		'cgroup_io_device_read_bytes_total{cgroup="/svc",device="259:0",devname="' \
		'cgroup_io_device_write_ops_total{cgroup="/svc",device="8:0",devname="' \
		'cgroup_pids_max{cgroup="/svc"} 100' \
		'cgroup_pids_max_events_total{cgroup="/svc"} 4' \
		'cgroup_pressure_full_avg10_ratio{cgroup="/svc",resource="cpu"} 0.0250' \
		'cgroup_pressure_some_seconds_total{cgroup="/svc",resource="cpu"} 2.500000' \
		'cgroup_pressure_full_seconds_total{cgroup="/svc",resource="cpu"} 1.250000' \
		'cgroup_pressure_some_seconds_total{cgroup="/svc",resource="io"} 0.000010' \
		'cgtop2_cgroups 2' \
		'cgtop2_collector_errors_total{collector="memory"} 0'; do
		assertContains "$l" "$out" "$l"
	done
	assertContains "# TYPE cgroup_memory_oom_kill_events_total counter" "$out" \
		"# TYPE cgroup_memory_oom_kill_events_total counter"
	assertTrue "scrape duration" "echo '$out' | grep -Eq '^cgtop2_scrape_duration_seconds [0-9]+\.[0-9]{9}$'"
	# v1's own limits have no cgroup2 file: none
	assertNotContains "no soft limit on cgroup2" "$out" "cgroup_memory_soft_limit_bytes"
	assertNotContains "no memsw limit on cgroup2" "$out" "cgroup_memory_memsw_max_bytes"
	# the root has no memory.max: no sample, not a made-up one
	assertNotContains "no root limit" "$out" 'cgroup_memory_max_bytes{cgroup="/"}'
	# the device's figures, once per device: 8:0 and 259:0
	assertEquals "devices" 2 "$(echo "$out" | grep -c '^cgroup_io_device_read_bytes_total')"
}

test_fixture_legacy_collectors() {
	local l
	fx legacy -F prometheus -1 --collectors=all
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	assertEquals "0.0.4 grammar" "" "$(prom_check "$out")"
	for l in \
		'cgroup_cpu_user_seconds_total{cgroup="/svc"} 2.000000000' \
		'cgroup_cpu_system_seconds_total{cgroup="/svc"} 1.000000000' \
		'cgroup_cpu_periods_total{cgroup="/svc"} 50' \
		'cgroup_cpu_throttled_periods_total{cgroup="/svc"} 9' \
		'cgroup_cpu_throttled_seconds_total{cgroup="/svc"} 0.123456789' \
		'cgroup_memory_peak_bytes{cgroup="/svc"} 31457280' \
		'cgroup_memory_anon_bytes{cgroup="/svc"} 10485760' \
		'cgroup_memory_file_bytes{cgroup="/svc"} 8388608' \
		'cgroup_memory_working_set_bytes{cgroup="/svc"} 16777216' \
		'cgroup_memory_max_bytes{cgroup="/svc"} +Inf' \
		'cgroup_memory_soft_limit_bytes{cgroup="/svc"} 268435456' \
		'cgroup_memory_memsw_max_bytes{cgroup="/svc"} 1073741824' \
		'cgroup_memory_swap_bytes{cgroup="/svc"} 4194304' \
		'cgroup_memory_kernel_bytes{cgroup="/svc"} 3145728' \
		'cgroup_memory_shmem_bytes{cgroup="/svc"} 4096' \
		'cgroup_memory_max_events_total{cgroup="/svc"} 6' \
		'cgroup_memory_oom_kill_events_total{cgroup="/svc"} 2' \
		'cgroup_memory_under_oom{cgroup="/svc"} 0' \
		'cgroup_io_read_ops_total{cgroup="/svc"} 3' \
		'cgroup_io_write_ops_total{cgroup="/svc"} 4' \
		'cgroup_io_discard_bytes_total{cgroup="/svc"} 512' \
		'cgroup_io_device_write_bytes_total{cgroup="/svc",device="8:0",devname="' \
		'cgroup_pids_max{cgroup="/svc"} +Inf' \
		'cgroup_pids_max_events_total{cgroup="/svc"} 0'; do
		assertContains "$l" "$out" "$l"
	done
	# v1 has no memory.high, kernel, slab or sock figures: unknown, not 0
	assertNotContains "no v1 memory.high" "$out" "cgroup_memory_high_bytes"
	assertNotContains "no v1 slab" "$out" "cgroup_memory_slab_bytes"
	# nor a swap figure where memory.memsw.* is absent (the kernel accounts no swap): the root
	assertNotContains "no swap at the root" "$out" 'cgroup_memory_swap_bytes{cgroup="/"}'
}

# The collectors are opt-in: off, their files are not even opened (strace sees every open).
test_fixture_collectors_off() {
	fx unified -F prometheus -1 --collectors=none
	assertEquals "exit" 0 "$rc"
	assertContains "base family" "$out" 'cgroup_cpu_usage_seconds_total{cgroup="/svc"} 2.500000000'
	assertNotContains "no memory detail" "$out" "cgroup_memory_peak_bytes"
	assertNotContains "no CPU detail" "$out" "cgroup_cpu_user_seconds"
	assertNotContains "no PSI totals" "$out" "cgroup_pressure_some_seconds"
	fx unified -F prometheus -1 --collectors=cpu
	assertContains "cpu on" "$out" "cgroup_cpu_throttled_periods_total"
	assertNotContains "memory off" "$out" "cgroup_memory_peak_bytes"
	assertNotContains "iodevice off by default" "$(fx unified -F prometheus -1; echo "$out")" \
		"cgroup_io_device_"
	fx unified -F prometheus -1 --collectors=+iodevice,-memory
	assertContains "+iodevice" "$out" "cgroup_io_device_read_bytes_total"
	assertNotContains "-memory" "$out" "cgroup_memory_peak_bytes"
	assertContains "the rest of the default set" "$out" "cgroup_pids_max"
	# the table reads no collector by default
	cgk_need_prog strace "to see which files are opened" || return 0
	sed "s|@DIR@|$FX|" "$FX/unified.mountinfo.in" >"$_cgk_tmp/mi.u"
	CGKIT_MOUNTINFO=$_cgk_tmp/mi.u strace -f -qq -e trace=openat -o "$_cgk_tmp/trace" \
		"$T" -F prometheus -n 2 -d 0.1 --collectors=none >/dev/null 2>&1
	assertEquals "no collector file opened with none" "" \
		"$(grep -E 'memory\.(stat|peak|max|high|low|min|events|swap)|pids\.(max|events)' "$_cgk_tmp/trace")"
	CGKIT_MOUNTINFO=$_cgk_tmp/mi.u strace -f -qq -e trace=openat -o "$_cgk_tmp/trace" \
		"$T" -b -n 2 -d 0.1 >/dev/null 2>&1
	assertEquals "nor by the table" "" \
		"$(grep -E 'memory\.(stat|peak|max|events)|pids\.(max|events)' "$_cgk_tmp/trace")"
	CGKIT_MOUNTINFO=$_cgk_tmp/mi.u strace -f -qq -e trace=openat -o "$_cgk_tmp/trace" \
		"$T" -F prometheus -n 2 -d 0.1 --collectors=memory >/dev/null 2>&1
	assertEquals "memory.stat of /svc opened once for two samples (a kept fd)" 1 \
		"$(grep '"memory\.stat"' "$_cgk_tmp/trace" | grep -vc ENOENT)"
	assertEquals "pids files not opened with memory only" "" \
		"$(grep -E 'pids\.(max|events)' "$_cgk_tmp/trace")"
}

# OpenMetrics stays exact: TYPE names the family, UNIT for a unit, one # EOF at the end.
test_fixture_openmetrics_exact() {
	fx unified -F openmetrics -1 --collectors=all
	assertEquals "exit" 0 "$rc"
	assertContains "$out" "# TYPE cgroup_memory_oom_kill_events counter"
	assertContains "$out" "# TYPE cgroup_cpu_throttled_seconds counter"
	assertContains "$out" "# UNIT cgroup_cpu_throttled_seconds seconds"
	assertContains "$out" "# UNIT cgroup_memory_working_set_bytes bytes"
	assertContains "$out" 'cgroup_memory_oom_kill_events_total{cgroup="/svc"} 1'
	assertEquals "last line" "# EOF" "$(echo "$out" | tail -n 1)"
	assertEquals "one # EOF" 1 "$(echo "$out" | grep -c '^# EOF$')"
	# a unit is the end of its family's name (OpenMetrics 1.0)
	assertEquals "units end the names" "" "$(echo "$out" | awk '$2 == "UNIT" && $3 !~ ("_" $4 "$")')"
	# every sample follows its family's TYPE line
	assertEquals "families in order" "" "$(echo "$out" | awk '
		/^# TYPE / { fam = $3; next } /^#/ { next }
		{ n = $1; sub(/\{.*/, "", n); sub(/_total$/, "", n); if (n != fam) print }')"
	# and the Prometheus text format has none of OpenMetrics' own lines
	fx unified -F prometheus -1 --collectors=all
	assertNotContains "no UNIT" "$out" "# UNIT"
	assertNotContains "no EOF" "$out" "# EOF"
	assertContains "HELP names the sample" "$out" "# HELP cgroup_cpu_usage_seconds_total "
	assertContains "TYPE names the sample" "$out" "# TYPE cgroup_cpu_usage_seconds_total counter"
}

# issue 46: batch expositions keep each cgroup's lines across refreshes (the exporter's cache):
# a refresh whose lines came from the cache is the exposition a single refresh writes, in both
# formats (aside from what moves on a fixture: cgtop2's own duration, the root's memory, which
# is the host's /proc/meminfo).
test_fixture_refreshes_from_cache() {
	local fmt one three
	for fmt in openmetrics prometheus; do
		fx unified -F "$fmt" -1 --collectors=all
		assertEquals "$fmt: exit" 0 "$rc"
		one=$(echo "$out" | grep -v '^cgtop2_scrape_duration_seconds \|^cgroup_memory.*{cgroup="/"}')
		fx unified -F "$fmt" -n 3 -d 0.05 --collectors=all
		assertEquals "$fmt: exit, 3 refreshes" 0 "$rc"
		three=$(echo "$out" | grep -v '^cgtop2_scrape_duration_seconds \|^cgroup_memory.*{cgroup="/"}')
		assertEquals "$fmt: 3 refreshes, each the single one" "$one
$one
$one" "$three"
	done
}

test_fixture_promtool() {
	local res
	fx unified -F prometheus -1 --collectors=all
	res=$(promtool_check "$out")
	case $? in
	2) cgk_need_prog promtool; return 0 ;;
	0) assertEquals "promtool says nothing" "" "$res" ;;
	*) fail "promtool check metrics: $res" ;;
	esac
	fx legacy -F prometheus -1 --collectors=all -H
	res=$(promtool_check "$out") || fail "promtool on legacy: $res"
}

test_fixture_json_schema_and_cpu_time() {
	local line
	fx unified -F json -1 --depth=1
	assertEquals "exit" 0 "$rc"
	case $out in '{"schema":5,"time":'*) ;; *) fail "schema first: ${out:0:40}" ;; esac
	assertContains "cumulative CPU" "$out" '"cpu_usage_seconds":2.500000000'
	assertContains "IO totals" "$out" '"io_read_bytes":1500,"io_write_bytes":2048,"io_read_ops":15,"io_write_ops":22'
	assertContains "PSI totals" "$out" '"pressure_some_seconds":{"cpu":2.500000000,"memory":0.000010000,"io":0.000010000}'
	assertContains "a rate key stays" "$out" '"cpu_percent":null'
	fx unified -F json -1 --depth=1 --cpu=time
	assertNotContains "--cpu=time: no percentage" "$out" '"cpu_percent"'
	assertContains "--cpu=time: the time" "$out" '"cpu_usage_seconds":2.500000000'
	fx unified -F csv -1 --depth=1 --cpu=time -p
	assertEquals "csv header with --cpu=time" \
		"time,path,tasks,cpu_usage_seconds,memory_bytes,io_read_bytes_per_sec,io_write_bytes_per_sec,pressure_cpu,pressure_memory,pressure_io,io_read_bytes,io_write_bytes,io_read_ops,io_write_ops,pressure_cpu_some_seconds,pressure_memory_some_seconds,pressure_io_some_seconds,$LIMIT_COLUMNS,cpu_user_seconds" \
		"$(echo "$out" | head -n 1 | cut -d, -f1-29)"
	line=$(echo "$out" | grep ',/svc,')
	assertEquals "csv /svc row" "/svc,3,2.500000000,104857600,,,12.34,0.00,0.00,1500,2048,15,22,2.500000,0.000010,0.000010,max,1073741824,0,16777216,max,,,,100,," \
		"$(echo "$line" | cut -d, -f2-28)"
	fx unified -F csv -1 --depth=1 -p
	assertEquals "csv /svc row with the percentage" "/svc,3,,104857600,,,12.34,0.00,0.00,2.500000000,1500,2048,15,22,2.500000,0.000010,0.000010,max,1073741824,0,16777216,max,,,,100,," \
		"$(echo "$out" | grep ',/svc,' | cut -d, -f2-29)"
}

LIMIT_COLUMNS=memory.max,memory.high,memory.low,memory.min,memory.swap.max,cpu.max,cpu.weight,cpuset.cpus,pids.max,io.max,io.weight
LFX=$FIXTURES/cgtop2/limits

# The limits object of cgroup $2 in cgtop2's JSON of fixture layout $1 (extra arguments after)
# into $got; sets $rc $out $err.
limits_of() {
	local layout=$1 path=$2
	shift 2
	sed "s|@DIR@|$LFX|" "$LFX/$layout.mountinfo.in" >"$_cgk_tmp/lmi.$layout"
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/lmi.$layout" "$T" -F json -1 "$@"
	got=$(echo "$out" | grep -o "\"path\":\"$path\",.*" | grep -o '"limits":{[^}]*}' | head -n 1)
}

# One limits object on every layout: the v2 files as they read, and v1's twins (legacy; hybrid:
# the unified tree has no controller) translated back to the same values, as cgcreate2 -r wrote
# them (tests/fixtures/cgtop2/limits: the same limits in both vocabularies).
test_fixture_limits_every_layout() {
	local l got io
	io='"io.max":"8:0 rbps=max wbps=1048576 riops=max wiops=max\u000a8:16 rbps=2097152 wbps=max riops=max wiops=100","io.weight":"default 100\u000a8:0 200"'
	limits_of unified /web
	assertEquals "exit" 0 "$rc"
	assertEquals "unified" '"limits":{"memory.max":"536870912","memory.high":"max","memory.low":"268435456","memory.min":"0","memory.swap.max":"268435456","cpu.max":"50000 100000","cpu.weight":"50","cpuset.cpus":"0-1","pids.max":"100",'"$io}" "$got"
	for l in legacy hybrid; do
		limits_of $l /web
		assertEquals "$l exit" 0 "$rc"
		# v1 has no memory.high or memory.min: null, never a made-up value
		assertEquals "$l" '"limits":{"memory.max":"536870912","memory.high":null,"memory.low":"268435456","memory.min":null,"memory.swap.max":"268435456","cpu.max":"50000 100000","cpu.weight":"50","cpuset.cpus":"0-1","pids.max":"100",'"$io}" "$got"
		# no limit written: v1's no-limit values read as v2's (cfs_quota_us -1, shares 1024)
		limits_of $l /free
		assertContains "$l unlimited" "$got" '"memory.max":"max","memory.high":null,"memory.low":"max","memory.min":null,"memory.swap.max":"max","cpu.max":"max 100000","cpu.weight":"100","cpuset.cpus":"0-1","pids.max":"max","io.max":"","io.weight":null'
	done
	# no such files (controllers not enabled): null, as any unknown value
	limits_of unified /free
	assertEquals "unified, nothing enabled" '"limits":{"memory.max":null,"memory.high":null,"memory.low":null,"memory.min":null,"memory.swap.max":null,"cpu.max":null,"cpu.weight":null,"cpuset.cpus":null,"pids.max":null,"io.max":null,"io.weight":null}' "$got"
	# the collector off: every limit unknown
	limits_of legacy /web --collectors=-limits,-memory,-pids
	assertContains "off" "$got" '"cpu.max":null'
	assertContains "off, memory" "$got" '"memory.max":null'
	# on alone, the memory and pids limits are read for it
	limits_of legacy /web --collectors=limits
	assertContains "limits alone" "$got" '"memory.max":"536870912","memory.high":null,"memory.low":"268435456"'
	assertContains "limits alone, pids" "$got" '"pids.max":"100"'
	# CSV: the same values in the limits' columns (the collectors' come after them), a device's
	# lines joined by "; "
	limits_of hybrid /web -F csv
	assertEquals "csv header: the limits after the totals" ",$LIMIT_COLUMNS,cpu_user_seconds" \
		"$(echo "$out" | head -n 1 | grep -o ',memory\.max,.*,io\.weight,cpu_user_seconds')"
	assertContains "csv /web" "$out" ',536870912,,268435456,,268435456,50000 100000,50,0-1,100,8:0 rbps=max wbps=1048576 riops=max wiops=max; 8:16 rbps=2097152 wbps=max riops=max wiops=100,default 100; 8:0 200'
	assertEquals "one line a row" 4 "$(echo "$out" | wc -l)"
}

# ---- live tier --------------------------------------------------------------------------------

# The sandbox in every hierarchy with CPU statistics (never the v1 memory hierarchy's for a
# process); prints nothing, sets LIVE.
live_setup() {
	local h m c
	cgk_need_root || return 1
	LIVE=
	for h in unified cpu cpuacct pids; do
		m=$(cgk_mnt "$h")
		[ -n "$m" ] || continue
		case " $LIVE " in *" $m/$S "*) continue ;; esac
		cgk_sandbox "$h" >/dev/null || { fail "cannot make the sandbox in $h"; return 1; }
		LIVE="$LIVE $m/$S"
		if [ "$h" = unified ]; then
			for c in $(cat "$m/$S/cgroup.controllers"); do
				case $c in cpu | memory | pids | io) echo "+$c" >"$m/$S/cgroup.subtree_control" ;; esac
			done
		fi
	done
	[ -n "$LIVE" ] || { cgk_skip "no hierarchy for CPU statistics ($(cgk_layout))"; return 1; }
}

# mkdir $1 in every live sandbox; print the membership files for a process.
live_child() {
	local s
	for s in $LIVE; do
		mkdir -p "$s/$1"
		echo "$s/$1/cgroup.procs"
	done
}

start_busy() {
	local ready=$_cgk_tmp/ready.$RANDOM
	"$BUSY" -r "$ready" "$@" &
	_pids+=($!)
	cgk_wait_for test -e "$ready" || fail "helper did not start: $*"
}

test_live_promtool() {
	local res
	live_setup || return 0
	start_busy -n 1 $(live_child busy)
	cgk_need_prog promtool || return 0
	cgk_capture "$T" -F prometheus -1 --collectors=all --depth=2
	assertEquals "exit" 0 "$rc"
	assertContains "the sandbox is there" "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S/busy\"}"
	res=$(promtool_check "$out") || fail "promtool check metrics on the live tree: $res"
	assertEquals "promtool says nothing" "" "$res"
	assertEquals "0.0.4 grammar" "" "$(prom_check "$out")"
	# OpenMetrics is not what promtool reads: its counters lose their TYPE there, as the issue
	# said; checked against the grammar instead (tests/cgtop2.sh's om_check does the same)
	cgk_capture "$T" -F openmetrics -1 --collectors=all --depth=2
	assertEquals "openmetrics exit" 0 "$rc"
	assertEquals "openmetrics ends in # EOF" "# EOF" "$(echo "$out" | tail -n 1)"
}

# GET http://127.0.0.1:$1$2 into stdout, with curl or bash's /dev/tcp.
http_get() {
	if command -v curl >/dev/null; then
		curl -sf --max-time 5 "http://127.0.0.1:$1$2"
	else
		exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
		printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
		sed '1,/^\r$/d' <&3
		exec 3<&-
	fi
}

test_live_node_exporter_textfile() {
	local ne dir port pid i got=
	ne=$(command -v prometheus-node-exporter || command -v node_exporter) ||
		{ cgk_need_prog prometheus-node-exporter "or node_exporter"; return 0; }
	live_setup || return 0
	start_busy -n 1 $(live_child busy)
	dir=$_cgk_tmp/textfile
	mkdir -p "$dir"
	"$T" -1 -F prometheus "/$S" >"$dir/cgroups.prom.tmp" && mv "$dir/cgroups.prom.tmp" "$dir/cgroups.prom"
	for i in 1 2 3; do
		port=$(cgk_free_port) || { fail "no free port"; return 0; }
		"$ne" --collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$dir" --web.listen-address="127.0.0.1:$port" \
			>"$_cgk_tmp/ne.log" 2>&1 &
		pid=$!
		_pids+=($pid)
		if cgk_wait_for http_get "$port" /metrics >/dev/null 2>&1; then
			got=$(http_get "$port" /metrics)
			break
		fi
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	assertNotNull "node_exporter served /metrics" "$got"
	assertContains "counter type kept" "$got" "# TYPE cgroup_cpu_usage_seconds_total counter"
	assertContains "a counter of a collector" "$got" "# TYPE cgroup_cpu_user_seconds_total counter"
	assertContains "gauge" "$got" "# TYPE cgroup_tasks gauge"
	assertContains "the sample" "$got" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S/busy\"}"
	assertNotContains "nothing untyped" "$got" "# TYPE cgroup_cpu_usage_seconds_total untyped"
	assertEquals "the file read without error" "node_textfile_scrape_error 0" \
		"$(echo "$got" | grep '^node_textfile_scrape_error ')"
}

# The value of sample $2 (a full name with labels) in exposition $1.
sample_of() {
	echo "$1" | awk -v s="$2" 'index($0, s " ") == 1 { print $NF }'
}

test_live_cpu_counter_rises() {
	local a b line
	live_setup || return 0
	start_busy -n 1 $(live_child busy)
	cgk_capture "$T" -F prometheus -1 "/$S"
	a=$(sample_of "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S/busy\"}")
	sleep 1
	cgk_capture "$T" -F prometheus -1 "/$S"
	b=$(sample_of "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S/busy\"}")
	assertNotNull "a sample ($a)" "$a"
	assertTrue "the counter rises: $a -> $b" "awk 'BEGIN { exit !($b > $a) }'"
	# the user and system split adds up to the usage, about (clock ticks on v1)
	a=$(sample_of "$out" "cgroup_cpu_user_seconds_total{cgroup=\"/$S/busy\"}")
	assertNotNull "user seconds" "$a"
	# JSON and CSV carry the same cumulative value, --cpu=time there too
	cgk_capture "$T" -F json -1 --cpu=time "/$S"
	assertNotContains "no percentage with --cpu=time" "$out" '"cpu_percent"'
	line=$(echo "$out" | grep -o "{\"path\":\"/$S/busy\",\"origin\":{[^}]*},[^{]*{[^}]*},\"cpu_usage_seconds\":[0-9.]*")
	a=${line##*:}
	assertTrue "json cpu_usage_seconds $a >= $b" "awk 'BEGIN { exit !($a >= $b) }'"
	cgk_capture "$T" -F csv -1 --cpu=time "/$S"
	a=$(echo "$out" | awk -F, -v p="/$S/busy" '$2 == p { print $4 }')
	assertTrue "csv cpu_usage_seconds $a >= $b" "awk 'BEGIN { exit !($a >= $b) }'"
}

# Per device, named: the VM's scratch disk read and written with O_DIRECT in a sandbox cgroup
# (v1 blkio: some kernels count only while the cgroup has a limit on the device: one far above).
test_live_iodevice_named() {
	local mm u b procs v
	cgk_need_root || return 0
	cgk_in_vm && [ -b /dev/vda ] ||
		{ cgk_skip "needs the VM's scratch disk /dev/vda (make check-vm): no disk of this machine is a test's to use"; return 0; }
	mm=$(cat /sys/block/vda/dev)
	live_setup || return 0
	u=$(cgk_mnt unified)
	if [ -n "$u" ] && grep -qw io "$u/$S/cgroup.subtree_control" 2>/dev/null; then
		mkdir -p "$u/$S/io"
		procs=$u/$S/io/cgroup.procs
	elif [ -n "$(cgk_mnt blkio)" ] && [ "$(cgk_mnt blkio)" != "$u" ]; then
		b=$(cgk_sandbox blkio) || { fail "cannot make the blkio sandbox"; return 0; }
		mkdir -p "$b/io"
		echo "$mm 1000000000000" >"$b/io/blkio.throttle.read_bps_device"
		echo "$mm 1000000000000" >"$b/io/blkio.throttle.write_bps_device"
		procs=$b/io/cgroup.procs
	else
		cgk_skip "no io controller in the sandbox and no v1 blkio ($(cgk_layout))"
		return 0
	fi
	sh -c 'echo $$ >"$1" && dd if=/dev/vda of=/dev/null bs=1M count=4 iflag=direct 2>/dev/null &&
		dd if=/dev/zero of=/dev/vda bs=1M count=2 oflag=direct 2>/dev/null' sh "$procs" ||
		{ fail "dd in the io cgroup failed"; return 0; }
	cgk_capture "$T" -1 -F prometheus --collectors=+iodevice "/$S"
	assertEquals "exit" 0 "$rc"
	v=$(sample_of "$out" "cgroup_io_device_read_bytes_total{cgroup=\"/$S/io\",device=\"$mm\",devname=\"vda\"}")
	assertTrue "4 MiB read from vda, named (${v:-none}): $(echo "$out" | grep "/$S/io\"," | head -n 12)" \
		"[ ${v:-0} -ge 4194304 ]"
	v=$(sample_of "$out" "cgroup_io_device_write_ops_total{cgroup=\"/$S/io\",device=\"$mm\",devname=\"vda\"}")
	assertTrue "write operations on vda (${v:-none})" "[ ${v:-0} -ge 1 ]"
	v=$(sample_of "$out" "cgroup_io_read_ops_total{cgroup=\"/$S/io\"}")
	assertTrue "read operations summed (${v:-none})" "[ ${v:-0} -ge 1 ]"
}

# What cgroup $1's file of v2 name $2 says, v1's twin translated by hand (shell arithmetic, not
# the code under test): cpu.max from cfs_quota_us and cfs_period_us, cpu.weight from cpu.shares
# (the kernel's rounding), the sizes' page-counter maximum as max.
limit_file() {
	local p=$1 f=$2 u d q per sh
	u=$(cgk_mnt unified)
	if [ -n "$u" ] && [ -f "$u$p/$f" ]; then
		cat "$u$p/$f"
		return
	fi
	case $f in
	cpu.max | cpu.weight)
		d=$(cgk_mnt cpu)$p
		q=$(cat "$d/cpu.cfs_quota_us") per=$(cat "$d/cpu.cfs_period_us") sh=$(cat "$d/cpu.shares")
		[ "$q" = -1 ] && q=max
		if [ $f = cpu.max ]; then echo "$q $per"; else echo $(((sh * 100 + 512) / 1024)); fi
		;;
	memory.max) q=$(cat "$(cgk_mnt memory)$p/memory.limit_in_bytes")
		[ "$q" -ge 9223372036854767616 ] && q=max
		echo "$q" ;;
	memory.low) q=$(cat "$(cgk_mnt memory)$p/memory.soft_limit_in_bytes")
		[ "$q" -ge 9223372036854767616 ] && q=max
		echo "$q" ;;
	io.max)
		d=$(cgk_mnt blkio)$p
		# one device in the test: the order of devices does not arise
		for q in read_bps write_bps read_iops write_iops; do
			sed "s/^/$q /" "$d/blkio.throttle.${q}_device"
		done | awk '{ v[$2, $1] = $3; dev[$2] = 1 }
		     END { for (x in dev) { printf "%s", x; split("read_bps write_bps read_iops write_iops", f, " ")
		           split("rbps wbps riops wiops", k, " ")
		           for (i = 1; i <= 4; i++) printf " %s=%s", k[i], ((x, f[i]) in v) ? v[x, f[i]] : "max"
		           print "" } }' ;;
	*) cat "$(cgk_mnt "${f%%.*}")$p/$f" ;;
	esac
}

# The value of limit $2 in the JSON limits object $1 ("null" when unknown; \u000a a newline).
limit_in() {
	echo "$1" | grep -o "\"$2\":\(null\|\"[^\"]*\"\)" | sed 's/^[^:]*://; s/^"//; s/"$//'
}

# cgget -r's job: what cgcreate2 -r wrote, read back by cgtop2 in the v2 vocabulary on every
# layout (hybrid: from the v1 twins -r made), checked against the kernel's files, then written
# again with cgcreate2 -r to a second cgroup, whose files come out the same. Memory limits only
# in the VM (a v1 memory cgroup of the host is not a test's to make); io.max only on the VM's
# scratch disk.
test_live_limits_read_back() {
	local args=() f got v mm keys="cpu.max cpu.weight pids.max cpuset.cpus" again=()
	cgk_need_root || return 0
	args=(-r cpu.weight=50 -r "cpu.max=50000 100000" -r pids.max=100 -r cpuset.cpus=0)
	if cgk_in_vm; then
		args+=(-r memory.max=512M -r memory.low=64M)
		keys="$keys memory.max memory.low"
		if [ -b /dev/vda ]; then
			mm=$(cat /sys/block/vda/dev)
			args+=(-r "io.max=$mm wbps=1048576 riops=500")
			keys="$keys io.max"
		fi
	fi
	cgk_capture "$CGKIT_BIN/cgcreate2" -p "${args[@]}" "/$S/lim"
	assertEquals "cgcreate2 -r: $err" 0 "$rc"
	[ "$rc" = 0 ] || return 0
	cgk_capture "$T" -F json -1 "/$S/lim"
	assertEquals "cgtop2 exit" 0 "$rc"
	got=$(echo "$out" | grep -o '"limits":{[^}]*}')
	for f in $keys; do
		v=$(limit_in "$got" $f)
		assertEquals "$f against the files ($(cgk_layout))" "$(limit_file "/$S/lim" $f)" "$v"
		again+=(-r "$f=$v")
	done
	assertEquals "cpu.max as written" "50000 100000" "$(limit_in "$got" cpu.max)"
	assertEquals "cpu.weight as written" 50 "$(limit_in "$got" cpu.weight)"
	assertEquals "pids.max as written" 100 "$(limit_in "$got" pids.max)"
	assertEquals "cpuset.cpus as written" 0 "$(limit_in "$got" cpuset.cpus)"
	if cgk_in_vm; then
		assertEquals "memory.max as written" 536870912 "$(limit_in "$got" memory.max)"
		[ -n "$mm" ] && assertEquals "io.max as written" "$mm rbps=max wbps=1048576 riops=500 wiops=max" \
			"$(limit_in "$got" io.max)"
	fi
	# what was read, written again: the same files
	cgk_capture "$CGKIT_BIN/cgcreate2" -p "${again[@]}" "/$S/lim2"
	assertEquals "cgcreate2 -r with the values read: $err" 0 "$rc"
	for f in $keys; do
		assertEquals "$f written back" "$(limit_file "/$S/lim" $f)" "$(limit_file "/$S/lim2" $f)"
	done
	# and a limit lifted reads as v2's no-limit
	cgk_capture "$CGKIT_BIN/cgcreate2" -p -r cpu.max=max -r pids.max=max "/$S/lim"
	cgk_capture "$T" -F json -1 "/$S/lim"
	got=$(echo "$out" | grep -o '"limits":{[^}]*}')
	assertEquals "cpu.max lifted" "max 100000" "$(limit_in "$got" cpu.max)"
	assertEquals "pids.max lifted" max "$(limit_in "$got" pids.max)"
}

# The kernel's figures of every v1 memory cgroup down to depth 2 (the machine's own), one line
# each: "PATH KEY VALUE". Read-only, and by awk alone: a fork per file is seconds on a machine
# with hundreds of cgroups.
v1_memory_snapshot() {
	find "$1" -maxdepth 2 -type d | awk -v m="$1" '
	function one(d, file, key,   l) {
		if ((getline l < (d "/" file)) > 0) print p, key, l
		close(d "/" file)
	}
	{
		d = $0; p = substr(d, length(m) + 1); if (p == "") p = "/"
		one(d, "memory.usage_in_bytes", "usage")
		one(d, "memory.memsw.usage_in_bytes", "memsw")
		one(d, "memory.limit_in_bytes", "limit")
		one(d, "memory.soft_limit_in_bytes", "soft")
		one(d, "memory.memsw.limit_in_bytes", "memsw_limit")
		one(d, "memory.kmem.usage_in_bytes", "kmem")
		one(d, "memory.failcnt", "failcnt")
		f = d "/memory.oom_control"
		while ((getline l < f) > 0) { split(l, w, " "); if (w[1] == "under_oom" || w[1] == "oom_kill") print p, w[1], w[2] }
		close(f)
		f = d "/memory.stat"
		while ((getline l < f) > 0) { split(l, w, " "); if (w[1] ~ /^total_(rss|cache|shmem)$/) print p, w[1], w[2] }
		close(f)
	}'
}

# The v1-only memory figures against the kernel's files on this machine's v1 memory hierarchy,
# read-only (no cgroup made there, no process moved): limits (+Inf for the no-limit value),
# swap (memsw minus usage), kmem, the memory.stat fields of the v2 names, failcnt and
# memory.oom_control, every one for every memory cgroup down to depth 2. A figure must lie
# between the readings right before and right after (the sizes with 4 MiB or 5 % of slack:
# the machine's builds run there); a wrong figure is wrong on every try, a swing is not: up
# to three tries. The sizes of the memory cgroup cgtop2 runs in and of its ancestors are not
# compared: cgtop2's own open files and buffers are charged there while it reads (30 MB of
# kmem with a thousand cgroups), and gone when the kernel's files are read after it.
test_live_v1_memory_files() {
	local m u try line n bad res own
	cgk_need_root || return 0
	m=$(cgk_mnt memory)
	u=$(cgk_mnt unified)
	[ -n "$m" ] && [ "$m" != "$u" ] ||
		{ cgk_skip "no v1 memory hierarchy ($(cgk_layout)): the v2 figures have tests of their own"; return 0; }
	own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	# a wrong figure is wrong on every try, a swing of the machine's cgroups is not
	for try in $(seq 1 10); do
		v1_memory_snapshot "$m" >"$_cgk_tmp/before"
		cgk_capture "$T" -F prometheus -1 --collectors=memory --depth=2
		v1_memory_snapshot "$m" >"$_cgk_tmp/after"
		assertEquals "exit" 0 "$rc"
		line=$(echo "$out" | awk -v try="$try" -v B="$_cgk_tmp/before" -v A="$_cgk_tmp/after" -v own="$own" '
		function load(file, into,   l, w) {
			while ((getline l < file) > 0) { split(l, w, " "); into[w[1] SUBSEP w[2]] = w[3]; paths[w[1]] = 1 }
		}
		# the kernel value of k at path p as the exposition writes it (+Inf: no limit)
		function lim(v) { return v + 0 >= 4611686018427387904 ? "+Inf" : v }
		function complain(p, fam, why) { bad++; printf "try %s: %s of %s: %s\n", try, fam, p, why > "/dev/stderr" }
		# value got within [lo, hi] of before/after (slack s)
		function within(p, fam, got, x, y, s,   t) {
			n++
			if (x > y) { t = x; x = y; y = t }
			if (got == "" || got + 0 < x - s || got + 0 > y + s)
				complain(p, fam, "cgtop2 " (got == "" ? "none" : got) ", kernel " x " .. " y)
		}
		function slack(v) { v = v / 20; return v < 4194304 ? 4194304 : v }
		# p is where cgtop2 itself is charged: its memory cgroup or an ancestor
		function ours(p) { return p == "/" || own == p || index(own, p "/") == 1 }
		# there, a figure is all that is asked
		function present(p, fam) { n++; if (!((fam SUBSEP p) in got)) complain(p, fam, "none") }
		BEGIN { load(B, lo); load(A, hi) }
		/^cgroup_memory_/ {
			fam = $1; sub(/\{.*/, "", fam)
			p = $1; sub(/^[^"]*"/, "", p); sub(/"\}$/, "", p)
			got[fam SUBSEP p] = $2
		}
		END {
			split("limit:cgroup_memory_max_bytes soft:cgroup_memory_soft_limit_bytes memsw_limit:cgroup_memory_memsw_max_bytes", L, " ")
			split("kmem:cgroup_memory_kernel_bytes total_rss:cgroup_memory_anon_bytes total_cache:cgroup_memory_file_bytes total_shmem:cgroup_memory_shmem_bytes", S, " ")
			split("failcnt:cgroup_memory_max_events_total oom_kill:cgroup_memory_oom_kill_events_total under_oom:cgroup_memory_under_oom", C, " ")
			for (p in paths) {
				for (i in L) { split(L[i], kf, ":"); k = kf[1]; f = kf[2]
					if (!((p SUBSEP k) in lo) || !((p SUBSEP k) in hi)) continue
					n++; g = got[f SUBSEP p]; x = lim(lo[p SUBSEP k]); y = lim(hi[p SUBSEP k])
					if (g != x && g != y) complain(p, f, "cgtop2 " (g == "" ? "none" : g) ", kernel " x " then " y)
				}
				for (i in S) { split(S[i], kf, ":"); k = kf[1]; f = kf[2]
					if (!((p SUBSEP k) in lo) || !((p SUBSEP k) in hi)) continue
					if (ours(p)) { present(p, f); continue }
					within(p, f, got[f SUBSEP p], lo[p SUBSEP k], hi[p SUBSEP k], slack(hi[p SUBSEP k]))
				}
				for (i in C) { split(C[i], kf, ":"); k = kf[1]; f = kf[2]
					if (!((p SUBSEP k) in lo) || !((p SUBSEP k) in hi)) continue
					within(p, f, got[f SUBSEP p], lo[p SUBSEP k], hi[p SUBSEP k], 0)
				}
				# swap: memsw minus usage, where the kernel accounts swap
				if (ours(p)) {
					if ((p SUBSEP "memsw") in lo) present(p, "cgroup_memory_swap_bytes")
				} else if ((p SUBSEP "memsw") in lo && (p SUBSEP "memsw") in hi) {
					x = lo[p SUBSEP "memsw"] - lo[p SUBSEP "usage"]; y = hi[p SUBSEP "memsw"] - hi[p SUBSEP "usage"]
					if (x < 0) x = 0
					if (y < 0) y = 0
					within(p, "cgroup_memory_swap_bytes", got["cgroup_memory_swap_bytes" SUBSEP p], x, y, slack(hi[p SUBSEP "usage"]))
				} else if (("cgroup_memory_swap_bytes" SUBSEP p) in got) {
					complain(p, "cgroup_memory_swap_bytes", "a figure where the kernel accounts no swap")
				}
			}
			print n + 0, bad + 0
		}')
		read -r n bad <<<"$line"
		[ "$bad" -eq 0 ] && break
	done
	assertTrue "compared some figures ($n)" "[ ${n:-0} -gt 0 ]"
	assertEquals "v1 memory figures that differ on ten tries" 0 "$bad"
	# and the whole exposition with them is what promtool reads
	cgk_need_prog promtool || return 0
	res=$(promtool_check "$out") || fail "promtool check metrics with the v1 memory figures: $res"
}

# A cgroup with a small memory limit and a process that exceeds it: OOM-killed, and counted.
# Only in the VM matrix on v1 (no process of ours joins the host's v1 memory hierarchy); on
# cgroup2 wherever the memory controller is enabled (the unified VM).
test_live_oom_kill_counted() {
	local m cg procs pid st v k
	cgk_need_root || return 0
	if cgk_v2_has memory && grep -qw memory "$(cgk_mnt unified)/cgroup.subtree_control" 2>/dev/null; then
		m=$(cgk_sandbox unified) || { fail "no sandbox"; return 0; }
		echo +memory >"$m/cgroup.subtree_control"
		cg=$m/oom
		mkdir -p "$cg"
		echo $((32 << 20)) >"$cg/memory.max"
		[ -f "$cg/memory.swap.max" ] && echo 0 >"$cg/memory.swap.max"
	elif cgk_in_vm && [ -n "$(cgk_mnt memory)" ]; then
		m=$(cgk_sandbox memory) || { fail "no sandbox"; return 0; }
		cg=$m/oom
		mkdir -p "$cg"
		echo $((32 << 20)) >"$cg/memory.limit_in_bytes"
	else
		cgk_skip "needs the memory controller of cgroup2 or the VM's v1 memory hierarchy (tests/vm/run unified|legacy): a process of a test never joins the host's v1 memory hierarchy"
		return 0
	fi
	procs=$cg/cgroup.procs
	# the helper joins, then touches 128 MiB: the kernel kills it
	sh -c 'echo $$ >"$1" && exec "$2" -s -m 128' sh "$procs" "$BUSY" &
	pid=$!
	_pids+=($pid)
	# (bash would say "Killed" on stderr)
	wait "$pid" 2>/dev/null
	st=$?
	assertEquals "killed by SIGKILL" 137 "$st"
	cgk_capture "$T" -F prometheus -1 --collectors=memory "/$S"
	assertEquals "exit" 0 "$rc"
	k=$(sample_of "$out" "cgroup_memory_oom_kill_events_total{cgroup=\"/$S/oom\"}")
	assertEquals "oom_kill counted: $(echo "$out" | grep "/$S/oom" | head -n 20)" 1 "$k"
	v=$(sample_of "$out" "cgroup_memory_max_bytes{cgroup=\"/$S/oom\"}")
	assertEquals "the limit" $((32 << 20)) "$v"
	v=$(sample_of "$out" "cgroup_memory_max_events_total{cgroup=\"/$S/oom\"}")
	assertTrue "the limit was hit ($v)" "[ '${v:-0}' -ge 1 ]"
	cgk_capture "$T" -F prometheus -1 --collectors=memory "/$S"
	v=$(sample_of "$out" "cgroup_memory_peak_bytes{cgroup=\"/$S/oom\"}")
	assertTrue "the peak reached near the limit ($v)" "[ '${v:-0}' -ge $((16 << 20)) ]"
}

. "$SHUNIT2"
