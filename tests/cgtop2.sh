#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2: usage errors; a fixture tier on plain file trees for every stat file format and layout
# (unified, legacy with cpu,cpuacct co-mounted, hybrid with split cpu/cpuacct); a live tier on
# the real kernel (busy and idle helpers in sandbox cgroups, a cgroup removed between refreshes,
# memory against memory.usage_in_bytes read-only, threads); the interactive screen under tmux.
# Live tests never place a process in the v1 memory hierarchy.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
BUSY=$HELPERS/top_busy
FX=$FIXTURES/cgtop2
_pids=()

# Our helpers only, by PID.
teardown_test() {
	cgk_kill_pids
	zswap_undo
	iocost_undo
	if [ -n "${_tmux:-}" ]; then
		tmux -L "$_tmux" kill-server 2>/dev/null
		_tmux=
	fi
	return 0
}

# ---- fixture tier ---------------------------------------------------------------------------

# A mountinfo for fixture layout $1 whose mountpoints are under directory $2 (default: FX).
mountinfo() {
	sed "s|@DIR@|${2:-$FX}|" "$FX/$1.mountinfo.in" >"$_cgk_tmp/mi.$1"
	echo "$_cgk_tmp/mi.$1"
}

# cgtop2 on fixture layout $1 with the remaining arguments; sets $rc $out $err.
fx() {
	local mi
	mi=$(mountinfo "$1")
	shift
	cgk_capture env CGKIT_MOUNTINFO="$mi" "$T" "$@"
}

# The CSV columns of the collectors (schema 4), after the limits', as the JSON's keys.
COLLECTED_COLUMNS=cpu_user_seconds,cpu_system_seconds,cpu_periods,cpu_throttled_periods,cpu_throttled_seconds,memory_peak_bytes,memory_anon_bytes,memory_file_bytes,memory_kernel_bytes,memory_shmem_bytes,memory_slab_bytes,memory_sock_bytes,memory_mapped_file_bytes,memory_working_set_bytes,memory_swap_bytes,memory_max_bytes,memory_high_bytes,memory_low_bytes,memory_min_bytes,memory_swap_max_bytes,memory_soft_limit_bytes,memory_memsw_max_bytes,memory_low_events,memory_high_events,memory_max_events,memory_oom_events,memory_oom_kill_events,memory_oom_group_kill_events,memory_under_oom,io_discard_bytes,io_discard_ops,pids_max,pids_max_events,pressure_cpu_full_seconds,pressure_memory_full_seconds,pressure_io_full_seconds,io_devices

# The CSV columns of the kernel's statistics (schema 5, cg_kstats' order) after the collectors';
# in JSON each key is there only where the cgroup has its file.
KSTAT_COLUMNS=memory_stat_kernel_stack_bytes,memory_stat_pagetables_bytes,memory_stat_secondary_pagetables_bytes,memory_stat_percpu_bytes,memory_stat_vmalloc_bytes,memory_stat_zswapped_bytes,memory_stat_file_dirty_bytes,memory_stat_file_writeback_bytes,memory_stat_swapcached_bytes,memory_stat_anon_thp_bytes,memory_stat_file_thp_bytes,memory_stat_shmem_thp_bytes,memory_stat_inactive_anon_bytes,memory_stat_active_anon_bytes,memory_stat_inactive_file_bytes,memory_stat_active_file_bytes,memory_stat_unevictable_bytes,memory_stat_slab_reclaimable_bytes,memory_stat_slab_unreclaimable_bytes,memory_stat_workingset_refault_anon,memory_stat_workingset_refault_file,memory_stat_workingset_activate_anon,memory_stat_workingset_activate_file,memory_stat_workingset_restore_anon,memory_stat_workingset_restore_file,memory_stat_workingset_nodereclaim,memory_stat_pgfault,memory_stat_pgmajfault,memory_stat_pgrefill,memory_stat_pgscan,memory_stat_pgsteal,memory_stat_pgscan_kswapd,memory_stat_pgscan_direct,memory_stat_pgsteal_kswapd,memory_stat_pgsteal_direct,memory_stat_pgactivate,memory_stat_pgdeactivate,memory_stat_pglazyfree,memory_stat_pglazyfreed,memory_stat_zswpin,memory_stat_zswpout,memory_stat_zswpwb,memory_stat_thp_fault_alloc,memory_stat_thp_collapse_alloc,memory_stat_thp_swpout,memory_stat_thp_swpout_fallback,memory_stat_pgpgin,memory_stat_pgpgout,memory_local_low_events,memory_local_high_events,memory_local_max_events,memory_local_oom_events,memory_local_oom_kill_events,memory_local_oom_group_kill_events,memory_swap_high_events,memory_swap_max_events,memory_swap_fail_events,memory_zswap_bytes,memory_memsw_bytes,memory_memsw_peak_bytes,descendants,dying_descendants,cpu_local_throttled_seconds,io_cost_usage_seconds,io_cost_wait_seconds,io_cost_indebt_seconds,io_cost_indelay_seconds,pressure_irq_full_seconds,pids_peak,pids_local_max_events,misc_sev,misc_sev_es,misc_tdx,misc_sev_max_events,misc_sev_es_max_events,misc_tdx_max_events,hugetlb_2mb_bytes,hugetlb_2mb_max_events,hugetlb_1gb_bytes,hugetlb_1gb_max_events,cpu_usage_percpu_seconds

USAGE_TAIL="Try \`cgtop2 --help' or \`cgtop2 --usage' for more information."

# The sampler's fds are its cache: cgtop2 (the tool; the library changes no limit) raises its
# soft limit of open files to the hard limit before it starts sampling.
fd_limit_raised() {
	[ "$(awk '/^Max open files/ { print $4 }' "/proc/$1/limits" 2>/dev/null)" = "$2" ] &&
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = cgtop2 ]
}

test_fd_limit_raised() {
	local hard mi pid
	cgk_need_unwrapped "valgrind has a name and an fd limit of its own" || return 0
	hard=$(ulimit -H -n)
	[ "$hard" != unlimited ] && [ "$hard" -gt 100 ] ||
		{ cgk_skip "the hard limit of open files ($hard) leaves no room below it"; return; }
	mi=$(mountinfo unified)
	bash -c 'ulimit -S -n 100 && exec "$@"' _ env CGKIT_MOUNTINFO="$mi" "$T" -b -n 100 -d 0.1 \
		>/dev/null 2>&1 &
	pid=$!
	_pids+=($pid)
	assertTrue "soft limit 100 raised to the hard limit $hard ($(grep '^Max open files' \
		"/proc/$pid/limits" 2>/dev/null))" "cgk_wait_for fd_limit_raised $pid $hard"
}

test_usage_errors() {
	cgk_capture "$T" --order=bogus
	assertEquals "--order exit" 64 "$rc"
	assertEquals "--order stderr" "cgtop2: --order takes path, tasks, cpu, memory, io, pressure or a number field of --fields=help, not 'bogus'
$USAGE_TAIL" "$err"
	# -n 0 is "until interrupted" (tests/habits.sh), -n -1 no number
	cgk_capture "$T" -n -1
	assertEquals "-n -1 exit" 64 "$rc"
	assertEquals "-n -1 stderr" "cgtop2: --iterations takes a number (0: until interrupted), not '-1'
$USAGE_TAIL" "$err"
	cgk_capture "$T" -d 0
	assertEquals "-d 0 exit" 64 "$rc"
	assertEquals "-d 0 stderr" "cgtop2: --delay takes seconds or a time with us, ms, s or min (more than 0, at most 86400s, fractions allowed), not '0'
$USAGE_TAIL" "$err"
	for d in 0ms 1441min 1min30s 1h; do
		cgk_capture "$T" -d "$d"
		assertEquals "-d $d exit" 64 "$rc"
		assertContains "-d $d stderr" "$err" "not '$d'"
	done
	cgk_capture "$T" --format=xml
	assertEquals "--format exit" 64 "$rc"
	assertEquals "--format stderr" "cgtop2: --format takes table, json, csv, openmetrics or prometheus, not 'xml'
$USAGE_TAIL" "$err"
	cgk_capture "$T" --depth=-1
	assertEquals "--depth exit" 64 "$rc"
	assertEquals "--depth stderr" "cgtop2: --depth takes a number from 0 to 1000, not '-1'
$USAGE_TAIL" "$err"
	cgk_capture "$T" --cpu=ticks
	assertEquals "--cpu exit" 64 "$rc"
	assertEquals "--cpu stderr" "cgtop2: --cpu takes percentage or time, not 'ticks'
$USAGE_TAIL" "$err"
	cgk_capture "$T" -P -k
	assertEquals "-P -k exit" 64 "$rc"
	assertEquals "-P -k stderr" "cgtop2: -P and -k exclude each other
$USAGE_TAIL" "$err"
	cgk_capture "$T" -P --recursive=maybe
	assertEquals "--recursive exit" 64 "$rc"
	assertEquals "--recursive stderr" "cgtop2: --recursive takes yes or no, not 'maybe'
$USAGE_TAIL" "$err"
	cgk_capture "$T" -M t /x
	assertEquals "-M with CGROUP exit" 64 "$rc"
	assertEquals "-M with CGROUP stderr" "cgtop2: -M and CGROUP exclude each other
$USAGE_TAIL" "$err"
	cgk_capture "$T" --machine=../x
	assertEquals "-M .. exit" 64 "$rc"
	assertEquals "-M .. stderr" "cgtop2: --machine takes a machine name, not '../x'
$USAGE_TAIL" "$err"
	cgk_capture "$T" a b
	assertEquals "two cgroups exit" 64 "$rc"
	assertEquals "two cgroups stderr" "cgtop2: only one CGROUP may be given
$USAGE_TAIL" "$err"
	cgk_capture "$T" /a/../b
	assertEquals ".. exit" 64 "$rc"
	assertEquals ".. stderr" "cgtop2: cgroup '/a/../b': '..', control characters, names over 255 bytes and paths over 4095 are not allowed in a cgroup path
$USAGE_TAIL" "$err"
	assertEquals "usage errors print nothing on stdout" "" "$out"
}

# issue 29: the conventions of cmd/tool.c, which every tool shares
test_unknown_options_escaped() {
	cgk_check_unknown_options "$T" -b -n 1
}

# a mount table that cannot be read: its one line (it said "cgroup / (all hierarchies): read
# the mount table: No such file or directory (no such interface file: its controller is not
# enabled ...)", a rule that had nothing to do with it), exit 1, no sample printed
test_mount_table_unreadable() {
	cgk_check_mount_table_failure "$T" 1 true -b -n 1
}

test_help_version() {
	cgk_capture "$T" --help
	assertEquals 0 "$rc"
	assertContains "$out" "Usage: cgtop2 [OPTION...] [CGROUP...]"
	for o in --batch --iterations --delay --format --depth --order --raw --cpu --threads \
		--recursive --machine; do
		assertContains "--help lists $o" "$out" "$o"
	done
	cgk_capture "$T" --version
	assertEquals 0 "$rc"
	assertEquals "cgtop2 (cgkit) " "${out%[0-9]*.[0-9]*.[0-9]*}"
}

test_fixture_unified_table() {
	fx unified -b -1 -p --depth=2 /app
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	assertEquals "table" "CGROUP        TASKS %CPU MEMORY IN/S OUT/S PSI-CPU PSI-MEM PSI-IO
/app              7    - 100.0M    -     -   12.34    2.00   0.00
/app/web          4    -  50.0M    -     -    5.00    0.00   0.00
/app/web/deep     1    -   4.0K    -     -       -       -      -" "$out"
	case $out in *$'\033'*) fail "batch output has escape codes" ;; esac
}

# -k counts the lines of cgroup.procs (cgroup2 first, then v1 pids); a cgroup's descendants
# shown are added unless --recursive=no. (-P needs /proc of live pids: the live tier.)
test_fixture_process_count() {
	fx unified -F csv -1 -k -p --depth=2 /app
	assertEquals "exit" 0 "$rc"
	assertEquals "recursive" "path processes
/app 4
/app/web 2
/app/web/deep 1" "$(echo "$out" | awk -F, '{ print $2, $3 }')"
	fx unified -F csv -1 -k --recursive=no -p --depth=2 /app
	assertEquals "own only" "/app 2
/app/web 1
/app/web/deep 1" "$(echo "$out" | awk -F, 'NR > 1 { print $2, $3 }')"
	fx legacy -F csv -1 -k -p
	assertEquals "v1 pids cgroup.procs; none in the memory-only cgroup; name=systemd's" "/ 3
/only-mem 
/svc 1
/unit.scope 1" "$(echo "$out" | awk -F, 'NR > 1 { print $2, $3 }')"
	fx unified -F csv -1 -p --depth=2 /app
	assertEquals "tasks as before" "/app 7" "$(echo "$out" | awk -F, 'NR == 2 { print $2, $3 }')"
}

# cgroup names are bytes: JSON and OpenMetrics must still be UTF-8 (both: the table's \xNN for
# what is not, reversibly, and a flag saying so)
test_fixture_invalid_utf8() {
	local dir=$_cgk_tmp/u8 mi bad=$'b\xffd' ok=$'caf\xc3\xa9'
	cgk_need_prog python3 "to decode the output" || return
	mkdir -p "$dir"
	cp -R "$FX/unified" "$dir/"
	mkdir "$dir/unified/$bad" "$dir/unified/$ok"
	echo "usage_usec 1" >"$dir/unified/$bad/cpu.stat"
	echo "usage_usec 1" >"$dir/unified/$ok/cpu.stat"
	mi=$(mountinfo unified "$dir")
	cgk_capture env CGKIT_MOUNTINFO="$mi" "$T" -F json -1 --depth=1
	assertEquals "json exit" 0 "$rc"
	# the bad name as the table's text, flagged path_escaped; the good one itself, unflagged
	assertEquals "json decodes, \xff for the bad byte, the good name kept" "ok" "$(printf '%s' "$out" |
		python3 -c 'import json,sys; p=[(c["path"], c.get("path_escaped")) for c in json.loads(sys.stdin.buffer.read().decode("utf-8"))["cgroups"]]; print("ok" if ("/b\\xffd", True) in p and ("/caf\u00e9", None) in p else p)')"
	cgk_capture env CGKIT_MOUNTINFO="$mi" "$T" -F openmetrics -1 --depth=1
	# a label value holds the table's escapes (the byte as \xff), quoted as OpenMetrics quotes,
	# and says so; a name of valid UTF-8 is itself
	assertEquals "openmetrics decodes" "ok" "$(printf '%s' "$out" |
		python3 -c 'import sys; t=sys.stdin.buffer.read().decode("utf-8"); print("ok" if "cgroup=\"/b\\\\xffd\",escaped=\"true\"}" in t and "cgroup=\"/caf\u00e9\"}" in t else t[:200])')"
}

# Checks one format's output ($1: json csv openmetrics table) of the cgroups named in
# $_cgk_tmp/names (NUL-separated raw bytes, "/a/b" each): every name in it once per refresh,
# one row, record or sample line each, written as the man page says; the text is UTF-8 with
# no control character but the newlines that end lines. Prints what is wrong, or "ok".
names_check() {
	PYTHONPATH=$CGKIT_TOP/tests/helpers python3 -c "$(cat <<'PY'
import csv, io, json, re, sys
fmt, names = sys.argv[1], [n for n in open(sys.argv[2], "rb").read().split(b"\0") if n]
raw = sys.stdin.buffer.read()
try:
    text = raw.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit(print("not UTF-8: %s: %r" % (e, raw[max(0, e.start - 20):e.start + 20])))
from names import is_ctl, json_value, label_value, table
ctl = [c for c in text if is_ctl(c) and c != "\n"]
if ctl:
    sys.exit(print("raw control characters: %r" % ctl[:5]))
bad, lines = [], text.splitlines()
if fmt == "json":
    want = sorted(json_value(n) for n in names)
    for l in lines:
        got = sorted(k for k in ((c["path"], c.get("path_escaped") is True)
                                 for c in json.loads(l)["cgroups"]) if k[0] in [w for w, _ in want])
        if got != want:
            bad.append("json paths %r, not %r" % (got, want))
    if not lines:
        bad.append("no JSON")
elif fmt == "csv":
    want = sorted(table(n) for n in names)
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) != len(lines):
        bad.append("%d CSV rows on %d lines" % (len(rows), len(lines)))
    bad += ["CSV row of %d fields: %r" % (len(r), r) for r in rows if len(r) != len(rows[0])]
    got = sorted(r[1] for r in rows[1:] if r[1] in want)
    refreshes = len(set(r[0] for r in rows[1:]))
    if got != sorted(want * refreshes) or not refreshes:
        bad.append("csv paths %r, not %r" % (got, want))
elif fmt == "openmetrics":
    # a label value is the name itself where it is UTF-8 with no control character; else the
    # table's text (\xNN for control bytes, reversible) and the sample says escaped="true"
    want = sorted(v + ("\0" if esc else "") for v, esc in map(label_value, names))
    name = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
    label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\["\\n])*"'
    sample = re.compile(r"^%s(\{%s(,%s)*\})? (-?[0-9]+(\.[0-9]+)?|\+Inf)$" % (name, label, label))
    meta = re.compile(r"^# (TYPE %s (counter|gauge)|UNIT %s [a-z]+|HELP %s .*|EOF)$" % (name, name, name))
    got = []
    for l in lines:
        if not (sample.match(l) or meta.match(l)):
            bad.append("not OpenMetrics: %r" % l)
        m = re.match(r'^cgroup_cpu_usage_seconds_total\{cgroup="((?:[^"\\]|\\.)*)"(,escaped="true")?\}', l)
        if m:
            v = re.sub(r"\\(.)", lambda e: "\n" if e.group(1) == "n" else e.group(1), m.group(1))
            v += "\0" if m.group(2) else ""
            if v in want:
                got.append(v)
    refreshes = lines.count("# EOF")
    if sorted(got) != sorted(want * refreshes) or not refreshes:
        bad.append("openmetrics cgroup labels %r, not %r" % (sorted(got), want))
else:
    want = sorted(table(n) for n in names)
    got = sorted(l.split(" ")[0] for l in lines if l.split(" ")[0] in want)
    refreshes = sum(1 for l in lines if l.startswith("CGROUP "))
    if got != sorted(want * refreshes) or not refreshes:
        bad.append("table paths %r, not %r" % (got, want))
    bad += ["table row of no cgroup: %r" % l for l in lines
            if l and not l.startswith("CGROUP ") and not l.startswith("/")]
print("\n".join(bad[:5]) if bad else "ok")
PY
)" "$1" "$_cgk_tmp/names"
}

# Names with what could forge a line, a record or a field in some format, or reach a terminal
# raw: newline, ESC (a colour sequence), tab, a byte that is no UTF-8, C1 CSI, quotes, commas,
# backslashes. Made in a copy of the fixture (git is no place for such names).
test_fixture_names_escaped() {
	local dir=$_cgk_tmp/names.d mi n f
	local names=($'new\nline' $'esc\033[31mred' $'tab\there' $'b\xffd' $'c1\xc2\x9bx'
		'we"ird,name' 'back\slash' $'a,"b\nc\\')
	cgk_need_prog python3 "to parse the output" || return
	mkdir -p "$dir"
	cp -R "$FX/unified" "$dir/"
	: >"$_cgk_tmp/names"
	for n in "${names[@]}"; do
		mkdir -p "$dir/unified/$n"
		echo "usage_usec 1" >"$dir/unified/$n/cpu.stat"
		printf '/%s\0' "$n" >>"$_cgk_tmp/names"
	done
	mi=$(mountinfo unified "$dir")
	for f in json csv openmetrics table; do
		cgk_capture env CGKIT_MOUNTINFO="$mi" "$T" -F "$f" -n 2 -d 0.1 --depth=1
		assertEquals "$f exit" 0 "$rc"
		assertEquals "$f stderr" "" "$err"
		assertEquals "$f" "ok" "$(names_check "$f" <"$_cgk_tmp/out")"
	done
	# the table's escapes, literally (grep: a failure must not print the raw names either)
	cgk_capture env CGKIT_MOUNTINFO="$mi" "$T" -b -1 -p --depth=1
	for n in '/new\nline ' '/esc\x1b[31mred ' '/tab\there ' '/b\xffd ' '/c1\xc2\x9bx ' \
		'/back\\slash ' '/a,"b\nc\\ '; do
		assertTrue "table shows $n" "grep -qF -- '$n' '$_cgk_tmp/out'"
	done
}

test_fixture_raw() {
	fx unified -b -1 -p -r --depth=1 /app
	assertEquals 0 "$rc"
	assertEquals "raw table" "CGROUP   TASKS %CPU    MEMORY IN/S OUT/S PSI-CPU PSI-MEM PSI-IO
/app         7    - 104857600    -     -   12.34    2.00   0.00
/app/web     4    -  52428800    -     -    5.00    0.00   0.00" "$out"
	fx unified -b -1 -p -r --cpu=time --depth=0 /app
	assertEquals "cpu time raw" "2000000000" "$(echo "$out" | awk 'NR == 2 { print $3 }')"
	assertEquals "cpu time header" "CPU-TIME" "$(echo "$out" | awk 'NR == 1 { print $3 }')"
	fx unified -b -1 -p --cpu=time --depth=0 /app
	assertEquals "cpu time human" "2.0s" "$(echo "$out" | awk 'NR == 2 { print $3 }')"
}

test_fixture_depth_and_path() {
	local paths
	fx unified -b -1 -p
	paths=$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
	assertEquals "default depth 3" '/ /app /app/web /app/web/deep /idle /we"ird,name ' "$paths"
	fx unified -b -1 -p --depth=4
	assertContains "depth 4" "$out" "/app/web/deep/deeper"
	fx unified -b -1 -p --depth=0
	assertEquals "depth 0" "/" "$(echo "$out" | awk 'NR > 1 { print $1 }')"
	for p in app /app/ //app; do
		fx unified -b -1 --depth=0 "$p"
		assertEquals "CGROUP $p exit" 0 "$rc"
		assertEquals "CGROUP $p shown as /app" "/app" "$(echo "$out" | awk 'NR == 2 { print $1 }')"
	done
}

test_fixture_missing_cgroup() {
	fx unified -b -1 /nope
	assertEquals "exit" 1 "$rc"
	assertEquals "stderr" "cgtop2: cgroup /nope (unified): open: no such cgroup in any mounted hierarchy" "$err"
	assertEquals "stdout" "" "$out"
}

test_fixture_order() {
	local paths
	fx unified -b -1 -m --depth=3 /app
	paths=$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
	assertEquals "by memory" "/app /app/web /app/web/deep /app/web/deep/deeper " "$paths"
	fx unified -b -1 -t
	paths=$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
	assertEquals "by tasks" '/ /app /app/web /app/web/deep /we"ird,name /idle ' "$paths"
	fx unified -b -1 -o pressure --depth=1
	paths=$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
	assertEquals "by pressure (unknown last)" '/app / /idle /we"ird,name ' "$paths"
}

test_fixture_json() {
	local l1 l2
	fx unified -F json -n 2 -d 0.1 -p --depth=1 /app
	assertEquals "exit" 0 "$rc"
	assertEquals "one line per iteration" 2 "$(echo "$out" | wc -l | tr -d ' ')"
	l1=$(echo "$out" | sed -n 1p)
	l2=$(echo "$out" | sed -n 2p)
	assertContains "$l1" '{"path":"/app","origin":{},"tasks":7,"cpu_percent":null,"memory_bytes":104857600,"io_read_bytes_per_sec":null,"io_write_bytes_per_sec":null,"pressure":{"cpu":12.34,"memory":2.00,"io":0.00},"cpu_usage_seconds":2.000000000,"io_read_bytes":1500,"io_write_bytes":2048,"io_read_ops":4,"io_write_ops":6,"pressure_some_seconds":{"cpu":0.123456000,"memory":0.123456000,"io":0.123456000},"pressure_averages":{"cpu":{"some":{"avg10":12.34,"avg60":0.50,"avg300":0.10},"full":{"avg10":0.00,"avg60":0.00,"avg300":0.00}},"memory":{"some":{"avg10":2.00,"avg60":0.50,"avg300":0.10},"full":{"avg10":0.00,"avg60":0.00,"avg300":0.00}},"io":{"some":{"avg10":0.00,"avg60":0.50,"avg300":0.10},"full":{"avg10":0.00,"avg60":0.00,"avg300":0.00}}},"limits":{"memory.max":null,"memory.high":null,"memory.low":null,"memory.min":null,"memory.swap.max":null,"cpu.max":null,"cpu.weight":null,"cpuset.cpus":null,"pids.max":null,"io.max":null,"io.weight":null},"cpu_user_seconds":0.000001000,'
	# the files do not change: the second sample has rates, all zero
	assertContains "$l2" '{"path":"/app","origin":{},"tasks":7,"cpu_percent":0.00,"memory_bytes":104857600,"io_read_bytes_per_sec":0,"io_write_bytes_per_sec":0,"pressure":{"cpu":12.34,"memory":2.00,"io":0.00},"cpu_usage_seconds":2.000000000,"io_read_bytes":1500,"io_write_bytes":2048,"io_read_ops":4,"io_write_ops":6,"pressure_some_seconds":{"cpu":0.123456000,"memory":0.123456000,"io":0.123456000},"pressure_averages":{"cpu":{"some":{"avg10":12.34,"avg60":0.50,"avg300":0.10},"full":{"avg10":0.00,"avg60":0.00,"avg300":0.00}},"memory":{"some":{"avg10":2.00,"avg60":0.50,"avg300":0.10},"full":{"avg10":0.00,"avg60":0.00,"avg300":0.00}},"io":{"some":{"avg10":0.00,"avg60":0.50,"avg300":0.10},"full":{"avg10":0.00,"avg60":0.00,"avg300":0.00}}},"limits":{"memory.max":null,"memory.high":null,"memory.low":null,"memory.min":null,"memory.swap.max":null,"cpu.max":null,"cpu.weight":null,"cpuset.cpus":null,"pids.max":null,"io.max":null,"io.weight":null},"cpu_user_seconds":0.000001000,'
	case $l1 in '{"schema":5,"time":'[0-9]*'.'[0-9][0-9][0-9]',"time_unix":'[0-9]*'.'[0-9][0-9][0-9]',"time_iso":"'*'Z","cgroups":[{'*']}') ;; *) fail "JSON frame: $l1" ;; esac
	# schema 2: every PSI average; those of the psi collector null without it
	fx unified -F json -1 --depth=0 --collectors=none /app
	assertContains "PSI averages without the collector" "$out" \
		'"pressure_averages":{"cpu":{"some":{"avg10":12.34,"avg60":null,"avg300":null},"full":{"avg10":null,"avg60":null,"avg300":null}},'
	fx unified -F json -1 --depth=0 '/we"ird,name'
	assertContains "escaped path" "$out" '"path":"/we\"ird,name"'
}

# Every object has exactly the documented keys and the lines parse (python3 or jq).
json_check_keys() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c "$(sed "s/COLLECTED_COLUMNS/$COLLECTED_COLUMNS/; s/KSTAT_COLUMNS/$KSTAT_COLUMNS/" <<'PY'
import json, sys
want = {"path", "tasks", "cpu_percent", "memory_bytes", "io_read_bytes_per_sec",
        "io_write_bytes_per_sec", "pressure", "cpu_usage_seconds", "io_read_bytes",
        "io_write_bytes", "io_read_ops", "io_write_ops", "pressure_some_seconds",
        "pressure_averages", "limits", "origin", "pressure_full_seconds", "io_devices"}
kstat = set("KSTAT_COLUMNS".split(","))
want |= set("COLLECTED_COLUMNS".split(",")) - {"pressure_cpu_full_seconds",
    "pressure_memory_full_seconds", "pressure_io_full_seconds"}
limits = ["memory.max", "memory.high", "memory.low", "memory.min", "memory.swap.max", "cpu.max",
          "cpu.weight", "cpuset.cpus", "pids.max", "io.max", "io.weight"]
n = 0
for line in sys.stdin:
    o = json.loads(line)
    assert set(o) == {"schema", "time", "time_unix", "time_iso", "cgroups"}, o.keys()
    assert o["schema"] == 5
    assert isinstance(o["time"], float) and o["time"] > 1e9
    # every JSON has both conventions (the events too): the same instant
    import datetime
    iso = datetime.datetime.strptime(o["time_iso"], "%Y-%m-%dT%H:%M:%S.%fZ")
    assert o["time_unix"] == o["time"], o
    assert abs(iso.replace(tzinfo=datetime.timezone.utc).timestamp() - o["time_unix"]) < 0.001, o
    for c in o["cgroups"]:
        assert want <= set(c) and set(c) - want <= kstat, sorted(set(c) ^ want)
        assert set(c["pressure"]) == {"cpu", "memory", "io"}
        pa = c["pressure_averages"]
        assert set(pa) == {"cpu", "memory", "io"}, pa
        for r in pa.values():
            assert set(r) == {"some", "full"}, r
            for k in r.values():
                assert set(k) == {"avg10", "avg60", "avg300"}, k
                assert all(v is None or 0 <= v <= 100 for v in k.values()), k
        assert list(c["limits"]) == limits, c["limits"]
        assert all(v is None or isinstance(v, str) for v in c["limits"].values()), c["limits"]
        n += 1
assert n > 0
print(n)
PY
)"
	elif command -v jq >/dev/null 2>&1; then
		jq -e --arg cols "${COLLECTED_COLUMNS//pressure_*_full_seconds,/}" '(keys == ["cgroups","schema","time","time_iso","time_unix"]) and (.schema == 5) and all(.cgroups[];
			(keys | contains(["cpu_percent","cpu_usage_seconds","io_devices","io_read_bytes","io_read_bytes_per_sec","io_read_ops","io_write_bytes","io_write_bytes_per_sec","io_write_ops","limits","memory_bytes","origin","path","pressure","pressure_averages","pressure_full_seconds","pressure_some_seconds","tasks"] + ($cols | split(","))))
			and (.pressure | keys == ["cpu","io","memory"]))' >/dev/null && echo ok
	else
		return 2
	fi
}

test_fixture_json_parses() {
	local res
	fx unified -F json -n 2 -d 0.1
	res=$(echo "$out" | json_check_keys)
	case $? in
	2) cgk_need_prog python3 "or jq, to parse JSON"; return ;;
	0) ;;
	*) fail "JSON does not parse or keys differ: $res" ;;
	esac
	fx unified -F json -1 /app
	res=$(echo "$out" | python3 -c 'import json,sys; o=json.loads(sys.stdin.read()); print(o["cgroups"][0]["memory_bytes"])' 2>/dev/null ||
		echo "$out" | jq '.cgroups[0].memory_bytes')
	assertEquals "memory as a number" 104857600 "$res"
}

# The Prometheus families of issue 42 that JSON must carry too (helpers/families.py checks each
# was compared): throttling, OOM and OOM kills, the memory breakdown, peak, swap, pids events,
# PSI, the devices' IO, limits.
FAMILIES_NEEDED="cgroup_cpu_periods cgroup_cpu_throttled_periods cgroup_cpu_throttled_seconds
cgroup_memory_oom_events cgroup_memory_oom_kill_events cgroup_memory_anon_bytes
cgroup_memory_file_bytes cgroup_memory_kernel_bytes cgroup_memory_shmem_bytes
cgroup_memory_slab_bytes cgroup_memory_sock_bytes cgroup_memory_peak_bytes cgroup_memory_swap_bytes
cgroup_pids_max_events cgroup_pressure_full_avg10_ratio cgroup_pressure_full_seconds
cgroup_io_device_read_bytes cgroup_io_device_discard_ops cgroup_memory_max_bytes cgroup_pids_max"

# $1 (JSON lines) and $2 (an OpenMetrics text) of one refresh: every sample has its JSON key with
# the same value; the families named after them must be among those compared.
families_same() {
	python3 "$CGKIT_TOP/tests/helpers/families.py" "$@"
}

# One sample, every output (issue 42): a fixture cgroup with every file the collectors read
# (tests/fixtures/cgtop2/families: throttled, OOM-killed, swapping, pids refused, PSI full, two
# devices) gives the same value for each family in JSON as in OpenMetrics, each value fixed by
# the files. The old JSON had none of the collectors' keys.
test_fixture_families_json_openmetrics() {
	local c
	cgk_need_prog python3 "to compare the outputs" || return 0
	for c in --collectors=all ""; do
		fx families -F json -1 $c /app
		assertEquals "json exit $c ($err)" 0 "$rc"
		printf '%s\n' "$out" >"$_cgk_tmp/fam.json"
		fx families -F openmetrics -1 $c /app
		assertEquals "openmetrics exit $c ($err)" 0 "$rc"
		printf '%s\n' "$out" >"$_cgk_tmp/fam.om"
		if [ -n "$c" ]; then
			# shellcheck disable=SC2086 # a list of names
			assertEquals "every family, the same value ($c)" ok \
				"$(families_same "$_cgk_tmp/fam.json" "$_cgk_tmp/fam.om" $FAMILIES_NEEDED | cut -d' ' -f1)"
		else
			# the default collectors: what the exposition has, JSON has (devices: neither)
			assertEquals "the default collectors, the same values" ok \
				"$(families_same "$_cgk_tmp/fam.json" "$_cgk_tmp/fam.om" cgroup_cpu_throttled_periods cgroup_memory_oom_kill_events | cut -d' ' -f1)"
		fi
	done
	# the values are the files', not only equal: throttling, OOM kills, swap, a device
	assertContains "throttling" "$(cat "$_cgk_tmp/fam.json")" '"cpu_periods":4000,"cpu_throttled_periods":123,"cpu_throttled_seconds":4.567890000'
	assertContains "oom kills" "$(cat "$_cgk_tmp/fam.json")" '"memory_oom_events":4,"memory_oom_kill_events":5'
	assertContains "a limit without one" "$(cat "$_cgk_tmp/fam.json")" '"memory_high_bytes":"max"'
	fx families -F csv -1 --collectors=all /app
	assertContains "csv: the same values" "$out" ',4000,123,4.567890000,134217728,50331648,'
	assertContains "csv: the devices" "$out" ',8:0 rbytes=1000 wbytes=2000 rios=1 wios=2 dbytes=4096 dios=1; 259:0 '
}

# The same on this host: one recording's refresh replayed as JSON and as OpenMetrics (the
# same numbers, whatever the host does meanwhile), every collector on.
test_live_families_one_refresh() {
	local f=$_cgk_tmp/fam.rec
	cgk_need_prog python3 "to compare the outputs" || return 0
	cgk_capture "$T" --record="$f" -n 1 --depth=1 --collectors=all /
	assertEquals "record exit ($err)" 0 "$rc"
	"$T" --replay="$f" -F json >"$_cgk_tmp/live.json" 2>"$_cgk_tmp/live.err"
	assertEquals "replay json exit ($(cat "$_cgk_tmp/live.err"))" 0 "$?"
	"$T" --replay="$f" -F openmetrics >"$_cgk_tmp/live.om" 2>"$_cgk_tmp/live.err"
	assertEquals "replay openmetrics exit ($(cat "$_cgk_tmp/live.err"))" 0 "$?"
	assertEquals "every family, the same value" ok \
		"$(families_same "$_cgk_tmp/live.json" "$_cgk_tmp/live.om" cgroup_cpu_usage_seconds cgroup_memory_bytes | cut -d' ' -f1)"
}

# contrib/cgtop2-json.schema.json (JSON Schema 2020-12) holds what cgtop2 -b -n 2 -F json writes:
# on the fixtures with every collector and -H, and on this host.
test_json_schema_validates() {
	local a
	cgk_need_prog python3 "to validate" || return 0
	if ! python3 -c 'import jsonschema' 2>/dev/null; then
		if [ -n "${CGKIT_VM:-}" ] || [ -n "${CGKIT_ALL_PROGRAMS:-}" ]; then
			fail "missing python3-jsonschema: CI has every program the tests use"
		else
			cgk_skip "missing python3-jsonschema (to validate)"
		fi
		return 0
	fi
	for a in "families -b -n 2 -d 0.1 --collectors=all" "unified -b -n 2 -d 0.1 -H -P" "legacy -b -n 2 -d 0.1 --cpu=time -k"; do
		# shellcheck disable=SC2086 # the arguments
		fx $a -F json
		assertEquals "exit $a ($err)" 0 "$rc"
		assertEquals "valid: $a" "ok 2" "$(printf '%s\n' "$out" | json_schema_check)"
	done
	cgk_capture "$T" -b -n 2 -d 0.2 -F json --depth=2
	assertEquals "live exit ($err)" 0 "$rc"
	assertEquals "valid on this host" "ok 2" "$(printf '%s\n' "$out" | json_schema_check)"
}

# "ok N" when the N JSON lines on stdin are valid against contrib's schema, else the first error.
json_schema_check() {
	python3 -c '
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
n = 0
for l in sys.stdin:
    for e in v.iter_errors(json.loads(l)):
        sys.exit(print("invalid at %s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:300])))
    n += 1
print("ok %d" % n)
' "$CGKIT_TOP/contrib/cgtop2-json.schema.json"
}

# Issue 45: the kernel's statistics of a fixture cgroup that has every new file, in each output
# (JSON, CSV, --fields, both expositions, cAdvisor's names) and through a recording's replay.
test_fixture_kernel_stats() {
	local json
	fx kstats -F json -1 --depth=0 /app
	assertEquals "exit" 0 "$rc"
	json=$(echo "$out" | tr ',' '\n')
	for kv in memory_stat_kernel_stack_bytes:16384 memory_stat_zswapped_bytes:40960 \
		memory_stat_workingset_refault_file:7 memory_stat_pgmajfault:3 memory_stat_pgscan:11 \
		memory_stat_thp_fault_alloc:2 memory_local_oom_kill_events:1 memory_swap_fail_events:5 \
		memory_zswap_bytes:12288 descendants:3 dying_descendants:1 \
		cpu_local_throttled_seconds:1.500000 io_cost_usage_seconds:0.001000 \
		io_cost_indelay_seconds:0.000005 pressure_irq_full_seconds:2.500000 pids_peak:9 \
		pids_local_max_events:6 misc_sev:2 misc_sev_max_events:1 hugetlb_2mb_bytes:4194304 \
		hugetlb_2mb_max_events:3; do
		assertContains "JSON ${kv%%:*}" "$json" "\"${kv%%:*}\":${kv#*:}"
	done
	assertNotContains "a file the cgroup lacks: no key" "$json" '"hugetlb_1gb_bytes"'
	fx kstats -F csv -1 --depth=0 /app
	assertEquals "CSV descendants column" 3 "$(echo "$out" | awk -F, -v k=descendants 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c }')"
	assertEquals "CSV: an unknown one is empty" "" "$(echo "$out" | awk -F, -v k=hugetlb_1gb_bytes 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c }')"
	fx kstats -F csv -1 --depth=0 --fields=pids_peak,cpu_local_throttled_seconds /app
	assertEquals "--fields" "/app,9,1.500000" "$(echo "$out" | awk -F, 'NR == 2 { print $2 "," $3 "," $4 }')"
	fx kstats -F openmetrics -1 --depth=0 /app
	assertContains "$out" 'cgroup_memory_stat_pgfault_total{cgroup="/app"} 100'
	assertContains "$out" '# UNIT cgroup_pressure_irq_full_seconds seconds'
	assertContains "$out" 'cgroup_descendants{cgroup="/app"} 3'
	fx kstats -F prometheus --compat=cadvisor -1 --depth=0 /app
	assertContains "$out" 'cgkit_memory_swap_fail_events_total{id="/app"} 5'
	fx kstats --record="$_cgk_tmp/k.rec" -n 1 --depth=0 /app
	assertEquals "record" 0 "$rc"
	cgk_capture "$T" --replay="$_cgk_tmp/k.rec" -F json
	assertContains "replayed" "$out" '"memory_stat_pgscan":11'
	assertContains "replayed" "$out" '"pressure_irq_full_seconds":2.500000'
}

# One value, one key: memory.stat's anon, file, kernel, shmem, slab, sock and file_mapped are
# the memory collector's keys (memory_anon_bytes ..., as the exporter and cAdvisor name them),
# never also memory_stat_*; memory.stat zswap is memory.zswap.current's memory_zswap_bytes.
test_fixture_one_key_per_value() {
	local k
	fx kstats -F json -1 --depth=0 /app
	assertEquals "exit" 0 "$rc"
	assertContains "the collector's key" "$out" '"memory_anon_bytes":4096'
	assertContains "the collector's key" "$out" '"memory_file_bytes":8192'
	assertContains "zswap's key" "$out" '"memory_zswap_bytes":12288'
	for k in anon file kernel shmem slab sock file_mapped zswap; do
		assertNotContains "JSON: no memory_stat_${k}_bytes" "$out" "\"memory_stat_${k}_bytes\""
	done
	fx kstats -F openmetrics -1 --depth=0 /app
	assertContains "the exporter's family" "$out" 'cgroup_memory_anon_bytes{cgroup="/app"} 4096'
	assertNotContains "exposition: no twin" "$out" 'cgroup_memory_stat_anon_bytes'
	assertNotContains "exposition: no zswap twin" "$out" 'cgroup_memory_stat_zswap_bytes'
	cgk_capture "$T" --fields=help
	assertNotContains "--fields=help: no twin" "$out" 'memory_stat_anon_bytes'
	assertContains "--fields=help: the kept kstat" "$out" 'memory_stat_kernel_stack_bytes'
}

# Issue 45, live: a load makes the kernel's statistics move where the host has their files:
# three sleepers make pids.peak 3 (v1 or cgroup2 pids), two children make cgroup.stat's
# nr_descendants 2 (cgroup2), in JSON, the exposition and a replay.
test_live_kernel_stats() {
	local p u out2 i
	cgk_need_unified || return 0
	p=$(cgk_sandbox pids) || { cgk_skip "no pids hierarchy"; return 0; }
	[ -f "$p/pids.peak" ] || { cgk_skip "no pids.peak (Linux 6.1+ on cgroup2, 6.11+ on v1)"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir -p "$p/k" "$u/k/a" "$u/k/b"
	for i in 1 2 3; do
		sleep 300 &
		cgk_execd $! sleep
		_pids+=($!)
		echo $! >"$p/k/cgroup.procs"
	done
	cgk_kill_pids
	cgk_capture "$T" -F json -1 --depth=0 "/$S/k"
	assertEquals "exit" 0 "$rc"
	assertContains "pids.peak: 3 at once" "$out" '"pids_peak":3'
	assertContains "two children" "$out" '"descendants":2,'
	cgk_capture "$T" -F openmetrics -1 --depth=0 "/$S/k"
	assertContains "$out" "cgroup_pids_peak{cgroup=\"/$S/k\"} 3"
	cgk_capture "$T" --record="$_cgk_tmp/live.rec" -n 1 --depth=0 "/$S/k"
	cgk_capture "$T" --replay="$_cgk_tmp/live.rec" -F json
	assertContains "replayed" "$out" '"pids_peak":3'
	rmdir "$u/k/a" "$u/k/b"
}

# Cgroup $1 recorded once, then replayed as JSON into $out.
record_replay() {
	cgk_capture "$T" --record="$_cgk_tmp/once.rec" -n 1 --depth=0 "$1"
	assertEquals "record $1" 0 "$rc"
	cgk_capture "$T" --replay="$_cgk_tmp/once.rec" -F json
	rm -f "$_cgk_tmp/once.rec"
}

# Issue 45, live, v1: a busy loop the test started, in a cpuacct cgroup of the sandbox only,
# makes cpuacct.usage_percpu count; cgtop2 says each CPU's time, by the kernel's numbering (at
# least what the kernel said before, each), in JSON, the Prometheus text and a replay.
test_live_cpuacct_percpu() {
	local c before n json i v
	cgk_need_root || return 0
	c=$(cgk_sandbox cpuacct) || { cgk_skip "no v1 cpuacct hierarchy ($(cgk_layout))"; return 0; }
	mkdir -p "$c/p"
	[ -f "$c/p/cpuacct.usage_percpu" ] || { cgk_skip "no cpuacct.usage_percpu"; return 0; }
	start_helper "$c/p/cgroup.procs"
	cgk_wait_for awk '{ for (i = 1; i <= NF; i++) s += $i } END { exit !(s > 0) }' \
		"$c/p/cpuacct.usage_percpu" || { fail "hung: the kernel counted no CPU time"; return 0; }
	read -ra before <"$c/p/cpuacct.usage_percpu"
	n=${#before[@]}
	cgk_capture "$T" -F json -1 --depth=0 "/$S/p"
	assertEquals "exit" 0 "$rc"
	json=$(echo "$out" | sed -n 's/.*"cpu_usage_percpu_seconds":\[\([^]]*\)\].*/\1/p' | tr ',' ' ')
	read -ra json <<<"$json"
	assertEquals "a value per CPU the kernel lists: $out" "$n" "${#json[@]}"
	for ((i = 0; i < n && i < ${#json[@]}; i++)); do
		v=${json[i]/./}
		assertTrue "CPU $i: ${json[i]} s, the kernel said ${before[i]} ns before" \
			"[ $((10#$v)) -ge ${before[i]} ]"
	done
	cgk_capture "$T" -F prometheus -1 --depth=0 "/$S/p"
	assertEquals "a sample per CPU" "$n" \
		"$(echo "$out" | grep -c "^cgroup_cpu_usage_percpu_seconds_total{cgroup=\"/$S/p\",cpu=\"[0-9]*\"} ")"
	record_replay "/$S/p"
	assertTrue "replayed, some CPU above 0: $out" \
		"echo '$out' | grep -qE '\"cpu_usage_percpu_seconds\":\[[^]]*[1-9]'"
	cgk_kill_pids
}

# Issue 45, live: the hugetlb family under load. Two 2 MiB huge pages touched by a process in
# the cgroup (tests/helpers/hugetlb_touch) make hugetlb.2MB.current 4194304, in JSON, the
# Prometheus text and a replay of a recording. Needs cgroup2's hugetlb controller and a huge
# page pool (the unified guest: hugetlb in the root's subtree_control, hugepages=8 on its
# kernel command line).
test_live_hugetlb_stats() {
	local u
	cgk_need_v2 hugetlb || return 0
	[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 2 ] || { cgk_skip "fewer than 2 huge pages (vm.nr_hugepages)"; return 0; }
	u=$(cgk_sandbox unified)
	echo +hugetlb >"$u/cgroup.subtree_control"
	mkdir -p "$u/h"
	[ -f "$u/h/hugetlb.2MB.current" ] || { cgk_skip "no hugetlb.2MB.current (huge pages of another size)"; return 0; }
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 2 "$3"' sh "$u/h" "$CGKIT_OBJ/tests/helpers/hugetlb_touch" "$_cgk_tmp/huge.ready" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/huge.ready" || fail "hung: no huge pages touched"
	assertEquals "the kernel's count" 4194304 "$(cat "$u/h/hugetlb.2MB.current")"
	cgk_capture "$T" -F json -1 --depth=0 "/$S/h"
	assertEquals "exit" 0 "$rc"
	assertContains "JSON" "$out" '"hugetlb_2mb_bytes":4194304'
	cgk_capture "$T" -F prometheus -1 --depth=0 "/$S/h"
	assertContains "Prometheus text" "$out" "cgroup_hugetlb_2mb_bytes{cgroup=\"/$S/h\"} 4194304"
	cgk_capture "$T" --record="$_cgk_tmp/huge.rec" -n 1 --depth=0 "/$S/h"
	assertEquals "record" 0 "$rc"
	cgk_capture "$T" --replay="$_cgk_tmp/huge.rec" -F json
	assertContains "replayed" "$out" '"hugetlb_2mb_bytes":4194304'
	cgk_kill_pids
}

# The guest's swap for test_live_zswap_stats, undone on every path: swap off, the zram device
# reset, zswap as it was.
zswap_undo() {
	[ -n "${_zswap_dev:-}" ] || return 0
	swapoff "$_zswap_dev" 2>/dev/null
	zramctl --reset "$_zswap_dev" 2>/dev/null
	echo "$_zswap_was" >/sys/module/zswap/parameters/enabled
	_zswap_dev=
}

# zswap under load (issue 45): a cgroup whose working set outgrows memory.max has pages
# compressed into zswap; memory.zswap.current and memory.stat's zswapped say so in JSON, in the
# Prometheus text and in a replay. The guest has no swap: a zram device is made swap for the
# test, and zswap turned on.
test_live_zswap_stats() {
	local u n dev
	cgk_need_vm "turns swap (a zram device) and zswap on for the whole guest" || return 0
	cgk_need_v2 memory || return 0
	cgk_need_prog zramctl "makes the swap device (Debian: util-linux)" || return 0
	cgk_need_prog mkswap "formats it (Debian: util-linux)" || return 0
	cgk_need_prog python3 "holds memory that compresses" || return 0
	[ -w /sys/module/zswap/parameters/enabled ] || { cgk_skip "a kernel without zswap"; return 0; }
	modprobe zram 2>/dev/null
	dev=$(zramctl --find --size 128M) || { fail "no zram device"; return 0; }
	_zswap_was=$(cat /sys/module/zswap/parameters/enabled)
	_zswap_dev=$dev
	mkswap "$dev" >/dev/null && swapon "$dev" || { fail "swapon $dev"; return 0; }
	echo Y >/sys/module/zswap/parameters/enabled
	u=$(cgk_sandbox unified)
	echo +memory >"$u/cgroup.subtree_control"
	mkdir -p "$u/z"
	[ -f "$u/z/memory.zswap.current" ] || { cgk_skip "no memory.zswap.current (Linux 5.19 on)"; return 0; }
	echo $((32 << 20)) >"$u/z/memory.max"
	# 48 MiB in pages a quarter random, the rest zeros: they compress to about a third
	# (zswap keeps them; an incompressible page it would refuse, a same-filled one it stores
	# as no bytes). What zswap holds is charged to the cgroup too: with half-random pages
	# under 24 MiB the guest thrashed for minutes and never had them all
	sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "
import os, sys, time
b = [os.urandom(1024) + bytes(3072) for _ in range(12288)]
open(sys.argv[1], \"w\").write(\"1\")
time.sleep(600)" "$2"' sh "$u/z" "$_cgk_tmp/zswap.ready" &
	_pids+=($!)
	CGK_WAIT_TICKS=2400 cgk_wait_for test -s "$_cgk_tmp/zswap.ready" || {
		fail "hung: the memory was not made: $(tr '\n' ' ' <"$u/z/memory.events"), zswap $(cat "$u/z/memory.zswap.current")"
		return 0
	}
	n=$(cat "$u/z/memory.zswap.current")
	assertTrue "the kernel's count: $n bytes in zswap" "[ ${n:-0} -gt 0 ]"
	cgk_capture "$T" -F json -1 --depth=0 "/$S/z"
	assertEquals "exit" 0 "$rc"
	assertTrue "JSON memory_zswap_bytes above 0: $out" \
		"echo '$out' | grep -qE '\"memory_zswap_bytes\":[1-9]'"
	assertTrue "JSON memory_stat_zswapped_bytes above 0" \
		"echo '$out' | grep -qE '\"memory_stat_zswapped_bytes\":[1-9]'"
	cgk_capture "$T" -F prometheus -1 --depth=0 "/$S/z"
	assertTrue "Prometheus text above 0" \
		"echo '$out' | grep -qE '^cgroup_memory_zswap_bytes\{cgroup=\"/$S/z\"\} [1-9]'"
	cgk_capture "$T" --record="$_cgk_tmp/zswap.rec" -n 1 --depth=0 "/$S/z"
	assertEquals "record" 0 "$rc"
	cgk_capture "$T" --replay="$_cgk_tmp/zswap.rec" -F json
	assertTrue "replayed above 0" "echo '$out' | grep -qE '\"memory_zswap_bytes\":[1-9]'"
	cgk_kill_pids
	zswap_undo
}

# The guest's iocost for test_live_iocost_stats, undone on every path: off again on its disk,
# the kernel's debug statistics as they were.
iocost_undo() {
	[ -n "${_iocost_qos:-}" ] || return 0
	echo "$_iocost_dev enable=0" >"$_iocost_qos" 2>/dev/null
	[ -z "${_iocost_debug_was:-}" ] || echo "$_iocost_debug_was" >"$IOCOST_DEBUG" 2>/dev/null
	_iocost_qos=
	_iocost_debug_was=
}
IOCOST_DEBUG=/sys/module/blk_cgroup/parameters/blkcg_debug_stats

# iocost under load (issue 45): with the iocost controller on for the guest's scratch disk
# (io.cost.qos at the cgroup2 root, for the test only), 4 MiB written with O_DIRECT from a
# cgroup make its io.stat's cost.usage above 0, and io_cost_usage_seconds says so in JSON, the
# Prometheus text and a replay. cost.wait, cost.indebt and cost.indelay are there only with the
# kernel's blk_cgroup.blkcg_debug_stats, turned on for the test where it can be: their keys then.
test_live_iocost_stats() {
	local u root mm k
	cgk_need_v2 io || return 0
	cgk_need_vm "turns iocost on for a disk of the whole guest (io.cost.qos at the root)" || return 0
	[ -b "${CGKIT_VM_DISK:-}" ] || { cgk_skip "no scratch disk (tests/vm/run's CGKIT_VM_DISK)"; return 0; }
	root=$(cgk_mnt unified)
	[ -f "$root/io.cost.qos" ] || { cgk_skip "no io.cost.qos (a kernel without CONFIG_BLK_CGROUP_IOCOST)"; return 0; }
	mm=$(printf '%d:%d' "0x$(stat -c %t "$CGKIT_VM_DISK")" "0x$(stat -c %T "$CGKIT_VM_DISK")")
	_iocost_dev=$mm
	_iocost_qos=$root/io.cost.qos
	echo "$mm enable=1" >"$root/io.cost.qos" || { fail "iocost not enabled on $mm"; return 0; }
	if [ -w "$IOCOST_DEBUG" ]; then
		_iocost_debug_was=$(cat "$IOCOST_DEBUG")
		echo Y >"$IOCOST_DEBUG"
	fi
	u=$(cgk_sandbox unified)
	echo +io >"$u/cgroup.subtree_control"
	mkdir -p "$u/c"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=64k count=64 oflag=direct' \
		_ "$u/c" "$CGKIT_VM_DISK" 2>/dev/null || { fail "dd to $CGKIT_VM_DISK"; return 0; }
	# cost.usage is the iocost timer's flush of the cgroup's vtime, a period after the IO
	cgk_wait_for grep -qE "^$mm .*cost\.usage=[1-9]" "$u/c/io.stat" ||
		{ fail "hung: no cost.usage above 0 in io.stat: $(cat "$u/c/io.stat")"; return 0; }
	cgk_capture "$T" -F json -1 --depth=0 "/$S/c"
	assertEquals "exit" 0 "$rc"
	assertTrue "JSON io_cost_usage_seconds above 0: $out" \
		"echo '$out' | grep -qE '\"io_cost_usage_seconds\":(0\.0*[1-9]|[1-9])'"
	if grep -q "cost\.wait=" "$u/c/io.stat"; then
		for k in wait indebt indelay; do
			assertContains "JSON: the debug statistic $k" "$out" "\"io_cost_${k}_seconds\":"
		done
	elif [ -n "${_iocost_debug_was:-}" ]; then
		fail "blkcg_debug_stats on, and no cost.wait in io.stat: $(cat "$u/c/io.stat")"
	fi
	cgk_capture "$T" -F prometheus -1 --depth=0 "/$S/c"
	assertTrue "Prometheus text above 0: $(echo "$out" | grep cost)" \
		"echo '$out' | grep -qE '^cgroup_io_cost_usage_seconds_total\{cgroup=\"/$S/c\"\} (0\.0*[1-9]|[1-9])'"
	record_replay "/$S/c"
	assertTrue "replayed above 0" \
		"echo '$out' | grep -qE '\"io_cost_usage_seconds\":(0\.0*[1-9]|[1-9])'"
	iocost_undo
	assertNotContains "iocost off again" "$(cat "$root/io.cost.qos")" "$mm enable=1"
}

test_fixture_csv() {
	fx unified -F csv -n 2 -d 0.1 -p
	assertEquals "exit" 0 "$rc"
	assertEquals "header" "time,path,tasks,cpu_percent,memory_bytes,io_read_bytes_per_sec,io_write_bytes_per_sec,pressure_cpu,pressure_memory,pressure_io,cpu_usage_seconds,io_read_bytes,io_write_bytes,io_read_ops,io_write_ops,pressure_cpu_some_seconds,pressure_memory_some_seconds,pressure_io_some_seconds,memory.max,memory.high,memory.low,memory.min,memory.swap.max,cpu.max,cpu.weight,cpuset.cpus,pids.max,io.max,io.weight,$COLLECTED_COLUMNS,$KSTAT_COLUMNS" "$(echo "$out" | sed -n 1p)"
	assertEquals "one header only" 1 "$(echo "$out" | grep -c '^time,')"
	assertEquals "6 rows per iteration" 13 "$(echo "$out" | wc -l | tr -d ' ')"
	assertContains "first /app row" "$out" ",/app,7,,104857600,,,12.34,2.00,0.00"
	assertContains "second /app row" "$out" ",/app,7,0.00,104857600,0,0,12.34,2.00,0.00"
	assertContains "quoted path" "$out" ',"/we""ird,name",1,'
	# every row has the header's 66 fields and the kernel's statistics' (the one quoted comma aside)
	assertEquals "fields" "" "$(echo "$out" | grep -v '"' | awk -F, -v n=$((66 + $(echo "$KSTAT_COLUMNS" | tr ',' '\n' | wc -l))) 'NF != n')"
}

# The OpenMetrics text exposition grammar, line by line; the last line is "# EOF".
om_check() {
	local name='[a-zA-Z_:][a-zA-Z0-9_:]*'
	local label='[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\["\\n])*"'
	local num='(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|[+-]Inf)'
	echo "$1" | grep -Ev "^# (TYPE $name (counter|gauge)|UNIT $name [a-z]+|HELP $name .*|EOF)\$" |
		grep -Ev "^$name(\{$label(,$label)*\})? $num\$"
	[ "$(echo "$1" | tail -n 1)" = "# EOF" ] || echo "last line: $(echo "$1" | tail -n 1)"
	[ "$(echo "$1" | grep -c '^# EOF$')" = 1 ] || echo "more than one # EOF"
}

test_fixture_openmetrics() {
	fx unified -F openmetrics -1
	assertEquals "exit" 0 "$rc"
	assertEquals "grammar" "" "$(om_check "$out")"
	assertContains "$out" 'cgroup_cpu_usage_seconds_total{cgroup="/app"} 2.000000000'
	assertContains "$out" 'cgroup_memory_bytes{cgroup="/app/web"} 52428800'
	assertContains "$out" 'cgroup_tasks{cgroup="/app"} 7'
	assertContains "io.stat summed over devices" "$out" 'cgroup_io_read_bytes_total{cgroup="/app"} 1500'
	assertContains "$out" 'cgroup_io_write_bytes_total{cgroup="/app"} 2048'
	assertContains "$out" 'cgroup_pressure_some_avg10_ratio{cgroup="/app",resource="cpu"} 0.1234'
	assertContains "escaped label" "$out" 'cgroup_memory_bytes{cgroup="/we\"ird,name"} 1536'
	assertContains "$out" '# TYPE cgroup_cpu_usage_seconds counter'
	# every sample of a family follows its TYPE line
	assertEquals "families in order" "" "$(echo "$out" | awk '
		/^# TYPE / { fam = $3; next } /^#/ { next }
		{ n = $1; sub(/\{.*/, "", n); sub(/_total$/, "", n); if (n != fam) print }')"
	fx unified -F openmetrics -n 2 -d 0.1 --depth=0
	assertEquals "one # EOF per exposition" 2 "$(echo "$out" | grep -c '^# EOF$')"
}

test_fixture_legacy() {
	fx legacy -F openmetrics -1 -v
	assertEquals "exit" 0 "$rc"
	assertEquals "grammar" "" "$(om_check "$out")"
	assertContains "cpuacct.usage" "$out" 'cgroup_cpu_usage_seconds_total{cgroup="/svc"} 3.000000000'
	assertContains "memory.usage_in_bytes" "$out" 'cgroup_memory_bytes{cgroup="/svc"} 20971520'
	assertContains "pids.current" "$out" 'cgroup_tasks{cgroup="/svc"} 2'
	assertContains "blkio Read over devices, Total lines ignored" "$out" 'cgroup_io_read_bytes_total{cgroup="/svc"} 4196'
	assertContains "blkio Write" "$out" 'cgroup_io_write_bytes_total{cgroup="/svc"} 8192'
	assertContains "a cgroup in one hierarchy only" "$out" 'cgroup_memory_bytes{cgroup="/only-mem"} 4096'
	assertContains "root tasks: its own plus the counted children" "$out" 'cgroup_tasks{cgroup="/"} 6'
	assertContains "a unit only in name=systemd: its tasks" "$out" 'cgroup_tasks{cgroup="/unit.scope",unit="unit.scope"} 3'
	assertContains "-v names the layout" "$err" "cgtop2: legacy layout; cpu: cpu,cpuacct cpuacct.usage; memory: memory memory.usage_in_bytes"
	fx legacy -b -1 -p
	assertEquals "table" "CGROUP TASKS %CPU MEMORY IN/S OUT/S PSI-CPU PSI-MEM PSI-IO" "$(echo "$out" | awk 'NR == 1 { $1 = $1; print }')"
	assertEquals "rows" "/ /only-mem /svc /unit.scope " "$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')"
}

# v1's cpuacct.usage_percpu (issue 45): a CPU's time each, by CPU number, as a JSON list, one
# CSV field, a sample per CPU labelled cpu="N" in both expositions, through a replay.
test_fixture_cpuacct_percpu() {
	fx legacy -F json -1 --depth=1 /svc
	assertEquals "exit" 0 "$rc"
	assertContains "JSON" "$out" '"cpu_usage_percpu_seconds":[1.000000000,2.000000000,0.000000000]'
	fx legacy -F csv -1 --depth=1 /svc
	assertEquals "CSV: the last column" "cpu_usage_percpu_seconds
1.000000000 2.000000000 0.000000000" "$(echo "$out" | awk -F, '{ print $NF }')"
	fx legacy -F openmetrics -1 /
	assertEquals "grammar" "" "$(om_check "$out")"
	assertContains "$out" '# UNIT cgroup_cpu_usage_percpu_seconds seconds'
	assertContains "$out" 'cgroup_cpu_usage_percpu_seconds_total{cgroup="/svc",cpu="0"} 1.000000000'
	assertContains "$out" 'cgroup_cpu_usage_percpu_seconds_total{cgroup="/svc",cpu="2"} 0.000000000'
	assertEquals "no file, no samples" 3 "$(echo "$out" | grep -c '^cgroup_cpu_usage_percpu_seconds_total')"
	fx legacy -F prometheus --compat=cadvisor -1 /svc
	assertContains "$out" 'cgkit_cpu_usage_percpu_seconds_total{id="/svc",cpu="1"} 2.000000000'
	fx legacy --record="$_cgk_tmp/p.rec" -n 1 --depth=1 /svc
	assertEquals "record" 0 "$rc"
	cgk_capture "$T" --replay="$_cgk_tmp/p.rec" -F json
	assertContains "replayed" "$out" '"cpu_usage_percpu_seconds":[1.000000000,2.000000000,0.000000000]'
}

test_fixture_hybrid() {
	fx hybrid -F openmetrics -1 -v
	assertEquals "exit" 0 "$rc"
	assertEquals "grammar" "" "$(om_check "$out")"
	assertContains "CPU from the unified cpu.stat, not cpuacct" "$out" 'cgroup_cpu_usage_seconds_total{cgroup="/svc"} 1.500000000'
	assertContains "PSI from unified" "$out" 'cgroup_pressure_some_avg10_ratio{cgroup="/svc",resource="cpu"} 0.0400'
	assertContains "memory from v1" "$out" 'cgroup_memory_bytes{cgroup="/svc"} 20971520'
	assertContains "io from v1 blkio.throttle" "$out" 'cgroup_io_read_bytes_total{cgroup="/svc"} 4096'
	assertContains "tasks from v1 pids" "$out" 'cgroup_tasks{cgroup="/svc"} 2'
	assertContains "$err" "cgtop2: hybrid layout; cpu: unified cpu.stat, cpuacct cpuacct.usage;"
}

test_fixture_appear_vanish() {
	local dir=$_cgk_tmp/tree mi snaps first last d
	mkdir -p "$dir"
	cp -R "$FX/unified" "$dir/"
	mi=$(mountinfo unified "$dir")
	# under valgrind a refresh may take longer than 0.5 s: the next ones then come at once
	d=$(cgk_wrapped && echo 3 || echo 0.5)
	CGKIT_MOUNTINFO=$mi "$T" -b -n 4 -d "$d" -p >"$_cgk_tmp/o" 2>"$_cgk_tmp/e" &
	_pids+=($!)
	# after the first snapshot (a slow start, under load or valgrind, is no failure)
	cgk_wait_for grep -q '^CGROUP' "$_cgk_tmp/o"
	rm -r "$dir/unified/app/web"
	mkdir "$dir/unified/new"
	echo "usage_usec 1" >"$dir/unified/new/cpu.stat"
	wait "${_pids[0]}"
	rc=$?
	_pids=()
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$(cat "$_cgk_tmp/e")"
	snaps=$(grep -c '^CGROUP' "$_cgk_tmp/o")
	assertEquals "4 snapshots" 4 "$snaps"
	first=$(awk '/^CGROUP/ { n++ } n == 1' "$_cgk_tmp/o")
	last=$(awk '/^CGROUP/ { n++ } n == 4' "$_cgk_tmp/o")
	assertContains "first has /app/web" "$first" "/app/web "
	assertNotContains "last lost /app/web" "$last" "/app/web"
	assertContains "last has /new" "$last" "/new "
}

# ---- live tier ------------------------------------------------------------------------------

# Sandboxes in the hierarchies that serve CPU, tasks and PSI here (never v1 memory): sets
# LIVE (mountpoints of our sandboxes, space separated). v2: the controllers the sandbox has
# are passed on to its children.
live_setup() {
	local h m
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

# The machine is shared (VMs of the test matrix run beside us): give cgroup $1 of our sandbox
# far more than the default CPU weight, so that a busy loop gets its CPU even then.
boost() {
	local s
	for s in $LIVE; do
		[ -f "$s/$1/cpu.shares" ] && echo 65536 >"$s/$1/cpu.shares"
		[ -f "$s/$1/cpu.weight" ] && echo 5000 >"$s/$1/cpu.weight"
	done
	return 0
}

# Start the busy helper with the arguments given; waits until it has joined.
start_helper() {
	local ready=$_cgk_tmp/ready.$RANDOM
	"$BUSY" -r "$ready" "$@" &
	_pids+=($!)
	cgk_wait_for test -e "$ready" || fail "helper did not start: $*"
}

# The JSON object of cgroup $2 in JSON line $1 (no parser needed: cgtop2 writes one per row).
json_row() {
	echo "$1" | grep -o "{\"path\":\"$2\",\"origin\":{[^}]*},[^{]*\"pressure\":{[^}]*}" | head -n 1
}

json_field() {
	echo "$1" | sed -n "s/.*\"$2\":\\([^,}]*\\).*/\\1/p"
}

# The file of sandbox cgroup $1's CPU time that cgtop2 reads first: the unified cpu.stat (its
# usage_usec), else v1 cpuacct.usage (nanoseconds).
cpu_time_file() {
	local s
	for s in $LIVE; do
		[ -f "$s/$1/cpu.stat" ] && grep -q '^usage_usec ' "$s/$1/cpu.stat" && { echo "$s/$1/cpu.stat"; return; }
	done
	for s in $LIVE; do
		[ -f "$s/$1/cpuacct.usage" ] && { echo "$s/$1/cpuacct.usage"; return; }
	done
}

# "UPTIME USAGE": seconds since boot in centiseconds (/proc/uptime has two decimals) and the
# CPU time in file $1 in microseconds, by the shell's builtins alone: a program started here
# takes half a second in a loaded TCG guest and competes with the busy loop for the CPU.
cpu_mark() {
	local up k v u=
	read -r up _ </proc/uptime
	if [[ $1 == */cpu.stat ]]; then
		while read -r k v; do [ "$k" = usage_usec ] && u=$v; done <"$1"
	else
		read -r u <"$1"
		u=$((u / 1000))
	fi
	echo "${up/./} $u"
}

# Run cgtop2 ($@, two samples) and measure the busy cgroup's CPU share as the kernel counts it
# between the moments its two samples are written (each read as it comes: a JSON line or a
# table's header): sets $rc $out $err and $kernel_pct. Over the whole run (start-up and exit
# included) the kernel's share differed from cgtop2's last interval by 44 points in a loaded
# TCG guest, where the busy loop's share changes from second to second.
measured() {
	: >"$_cgk_tmp/marks"
	cgk_capture sample_marks "$_cgk_tmp/marks" "$(cpu_time_file busy)" "$@"
	kernel_pct=$(awk 'NR == 1 { t0 = $1; u0 = $2 } NR == 2 { t1 = $1; u1 = $2 }
		END { printf "%.1f", (t1 > t0 ? (u1 - u0) / (t1 - t0) / 100 : 0) }' "$_cgk_tmp/marks")
}

# $3... with its output passed on, each sample's first line marked in $1 (cpu_mark of file $2);
# its exit status.
sample_marks() (
	marks=$1 file=$2
	shift 2
	set -o pipefail
	"$@" | while IFS= read -r l; do
		case $l in '{'* | CGROUP*) cpu_mark "$file" >>"$marks" ;; esac
		printf '%s\n' "$l"
	done
)

# cgtop2's figure $1 against the kernel's over the run, then the issue's threshold: > 50 %CPU.
check_busy() {
	assertTrue "$2: cgtop2 says $1 %CPU, the kernel $kernel_pct %" \
		"awk 'BEGIN { d = $1 - $kernel_pct; if (d < 0) d = -d; exit !(d <= 25 || d <= $kernel_pct * 0.3) }'"
	if awk "BEGIN { exit !($kernel_pct >= 60) }"; then
		assertTrue "$2: busy > 50 %CPU ($1)" "awk 'BEGIN { exit !($1 > 50) }'"
	else
		BUSY_STARVED="the machine gave the busy loop only $kernel_pct % CPU (load $(cut -d' ' -f1 /proc/loadavg))"
	fi
}

test_live_busy_and_idle() {
	local line busy idle cpu procs kernel_pct BUSY_STARVED=
	live_setup || return 0
	procs=$(live_child busy)
	boost busy
	start_helper -n 2 $procs
	start_helper -s $(live_child idle)
	# cgtop2's rate is over the last interval, the kernel's over the whole run: a long
	# interval makes the two windows nearly the same
	measured "$T" -F json -n 2 -d 2 "/$S"
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	line=$(echo "$out" | sed -n 2p)
	busy=$(json_row "$line" "/$S/busy")
	idle=$(json_row "$line" "/$S/idle")
	assertNotNull "busy row: $line" "$busy"
	assertNotNull "idle row: $line" "$idle"
	check_busy "$(json_field "$busy" cpu_percent)" json
	cpu=$(json_field "$idle" cpu_percent)
	assertTrue "idle about 0 %CPU ($cpu)" "awk 'BEGIN { exit !($cpu < 5) }'"
	assertEquals "busy tasks: main + 2 threads" 3 "$(json_field "$busy" tasks)"
	assertEquals "idle tasks" 1 "$(json_field "$idle" tasks)"
	assertEquals "sandbox tasks" 4 "$(json_field "$(json_row "$line" "/$S")" tasks)"
	assertEquals "first sample has no rate" "null" "$(json_field "$(json_row "$(echo "$out" | sed -n 1p)" "/$S/busy")" cpu_percent)"
	# the same in the batch table, piped: header first, no escape codes
	measured "$T" -b -n 2 -d 2 "/$S"
	assertEquals 0 "$rc"
	assertEquals "header" "CGROUP" "$(echo "$out" | awk 'NR == 1 { print $1 }')"
	cpu=$(echo "$out" | awk -v p="/$S/busy" '/^CGROUP/ { n++ } n == 2 && $1 == p { print $3 }')
	check_busy "${cpu:-0}" table
	case $out in *$'\033'*) fail "batch output has escape codes" ;; esac
	# agreement with the kernel was checked; the threshold needs a machine that gives the CPU
	[ -z "$BUSY_STARVED" ] || cgk_skip "> 50 %CPU not checked: $BUSY_STARVED"
}

test_live_task_count() {
	local line
	live_setup || return 0
	start_helper -s -n 3 $(live_child three)
	cgk_capture "$T" -F json -1 "/$S"
	line=$(json_row "$out" "/$S/three")
	assertEquals "main thread + 3 (as pids.current counts tasks)" 4 "$(json_field "$line" tasks)"
	cgk_capture "$T" -F csv -1 -p "/$S"
	assertContains "$out" ",/$S/three,4,"
}

# -P and -k count processes, as systemd-cgtop: a process with threads counts once, child
# cgroups' processes are included unless --recursive=no, -P leaves kernel threads out.
test_live_process_count() {
	local root_p root_k o k
	live_setup || return 0
	start_helper -s -n 3 $(live_child three)
	start_helper -s $(live_child nest/inner)
	start_helper -s $(live_child nest)
	for o in -P -k; do
		# a key of its own for each count, as each option counts something else
		k=processes
		[ $o = -P ] && k=user_processes
		cgk_capture "$T" -F json -1 $o "/$S"
		assertEquals "$o exit" 0 "$rc"
		assertEquals "$o: a process of 4 tasks counts once" 1 \
			"$(json_field "$(json_row "$out" "/$S/three")" $k)"
		assertEquals "$o: nest and nest/inner" 2 "$(json_field "$(json_row "$out" "/$S/nest")" $k)"
		assertEquals "$o: the sandbox with its children" 3 "$(json_field "$(json_row "$out" "/$S")" $k)"
		assertNotContains "$o: no tasks key" "$out" '"tasks"'
		cgk_capture "$T" -F json -1 $o --recursive=no "/$S"
		assertEquals "$o own only: nest" 1 "$(json_field "$(json_row "$out" "/$S/nest")" $k)"
		assertEquals "$o own only: the sandbox has none itself" 0 \
			"$(json_field "$(json_row "$out" "/$S")" $k)"
	done
	cgk_capture "$T" -b -1 -P "/$S"
	assertEquals "table header" "CGROUP PROCS" "$(echo "$out" | awk 'NR == 1 { print $1, $2 }')"
	cgk_capture "$T" -F csv -1 -k "/$S"
	assertEquals "csv header" "time,path,processes,cpu_percent" "$(echo "$out" | head -n 1 | cut -d, -f1-4)"
	cgk_capture "$T" -F openmetrics -1 -P "/$S"
	assertContains "openmetrics" "$out" "cgroup_user_processes{cgroup=\"/$S/three\"} 1"
	assertNotContains "openmetrics: no tasks gauge" "$out" "cgroup_tasks"
	# kernel threads live in the root cgroup of every hierarchy: -k counts them, -P not
	cgk_capture "$T" -F json -1 --depth=0 -P /
	root_p=$(json_field "$(json_row "$out" /)" user_processes)
	cgk_capture "$T" -F json -1 --depth=0 -k /
	root_k=$(json_field "$(json_row "$out" /)" processes)
	assertTrue "kernel threads: -k ($root_k) > -P ($root_p) at the root" "[ ${root_k:-0} -gt ${root_p:-0} ]"
	assertTrue "-P counts processes at the root ($root_p)" "[ ${root_p:-0} -ge 1 ]"
}

# IO for real needs a disk the test may read and write: the VM's scratch disk. On v1 some
# kernels (the VMs' 6.1; not the host's 6.18) count a cgroup's IO in blkio.throttle.* only while
# the cgroup has a limit on the device: the test sets one far above the disk's speed.
test_live_io() {
	local mm u b procs line rd wr stop=$_cgk_tmp/io.stop
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
	cgk_capture "$T" -1 -F openmetrics "/$S"
	assertEquals "exit" 0 "$rc"
	rd=$(echo "$out" | awk -v k="cgroup_io_read_bytes_total{cgroup=\"/$S/io\"}" '$1 == k { print $2 }')
	wr=$(echo "$out" | awk -v k="cgroup_io_write_bytes_total{cgroup=\"/$S/io\"}" '$1 == k { print $2 }')
	assertTrue "4 MiB read with O_DIRECT, cgtop2 counts ${rd:-none}" "[ ${rd:-0} -ge 4194304 ]"
	assertTrue "2 MiB written with O_DIRECT, cgtop2 counts ${wr:-none}" "[ ${wr:-0} -ge 2097152 ]"
	# a rate while a reader runs through both samples
	sh -c 'echo $$ >"$1"; while [ ! -e "$2" ]; do dd if=/dev/vda of=/dev/null bs=1M count=4 iflag=direct 2>/dev/null; done' \
		sh "$procs" "$stop" &
	_pids+=($!)
	cgk_capture "$T" -F json -n 2 -d 1 "/$S"
	touch "$stop"
	wait "${_pids[${#_pids[@]} - 1]}"
	line=$(json_row "$(echo "$out" | sed -n 2p)" "/$S/io")
	assertTrue "read rate while reading: $line" \
		"awk 'BEGIN { exit !(\"$(json_field "$line" io_read_bytes_per_sec)\" + 0 > 0) }'"
	assertEquals "first sample has no rate" "null" \
		"$(json_field "$(json_row "$(echo "$out" | sed -n 1p)" "/$S/io")" io_read_bytes_per_sec)"
}

# v1 builds a cgroup's member list when the file is opened and reuses it while it is read again
# within a second: counts from v1 tasks and cgroup.procs must still follow joins
test_live_v1_listing_fresh() {
	local p c f=$_cgk_tmp/fresh.csv bg n o g d
	cgk_need_v1 pids || return 0
	cgk_need_v1 cpuacct || return 0
	live_setup || return 0
	# only in these v1 hierarchies: -P counts pids' cgroup.procs, tasks come from cpuacct tasks
	p=$(cgk_mnt pids)/$S/v1procs
	c=$(cgk_mnt cpuacct)/$S/v1tasks
	mkdir "$p" "$c"
	start_helper -s "$p/cgroup.procs" "$c/cgroup.procs"
	n=1
	# under valgrind a refresh may take longer than 0.4 s: the next ones then come at once
	d=$(cgk_wrapped && echo 2 || echo 0.3)
	for o in -P -k ""; do
		# 2.7 s after the first sample for the join (10 refreshes): a loaded TCG guest took
		# over 1.6 s to start the helper
		"$T" -F csv -n 10 -d "$d" $o "/$S" >"$f" &
		bg=$!
		cgk_wait_for grep -q "/$S/v1procs" "$f"
		# one more single-threaded process joins both after the first sample
		start_helper -s "$p/cgroup.procs" "$c/cgroup.procs"
		wait "$bg"
		for g in v1procs v1tasks; do
			assertEquals "${o:-tasks}: $g at the first sample" $n \
				"$(awk -F, -v p="/$S/$g" '$2 == p { print $3; exit }' "$f")"
			assertEquals "${o:-tasks}: $g at the last sample" $((n + 1)) \
				"$(awk -F, -v p="/$S/$g" '$2 == p { v = $3 } END { print v }' "$f")"
		done
		n=$((n + 1))
	done
}

# -M: machined's state file names the scope and the leader; the leader's cgroup, cut after the
# scope, is what is shown. A state file of our own makes a machine out of a sandbox process.
test_live_machine() {
	local h m dir=$_cgk_tmp/machines leader
	cgk_need_root || return 0
	h=unified
	[ -n "$(cgk_mnt unified)" ] || h=name=systemd
	[ -n "$(cgk_mnt "$h")" ] ||
		{ cgk_skip "neither a unified nor a name=systemd hierarchy ($(cgk_layout))"; return 0; }
	m=$(cgk_sandbox "$h") || { fail "cannot make the sandbox in $h"; return 0; }
	mkdir -p "$m/machine-t.scope/payload" "$m/other" "$dir"
	start_helper -s "$m/machine-t.scope/payload/cgroup.procs"
	leader=${_pids[${#_pids[@]} - 1]}
	printf 'NAME=t\nSCOPE=machine-t.scope\nCLASS=container\nLEADER=%d\n' "$leader" >"$dir/t"
	cgk_capture env CGKIT_MACHINES_DIR="$dir" "$T" -M t -1 -F csv -p
	assertEquals "exit: $err" 0 "$rc"
	assertEquals "the scope and below, nothing else" "/$S/machine-t.scope
/$S/machine-t.scope/payload" "$(echo "$out" | awk -F, 'NR > 1 { print $2 }')"
	# UNIT= is taken too, and a value may be quoted (machined escapes what needs it)
	printf 'NAME=t\nUNIT="machine-t.scope"\nLEADER=%d\n' "$leader" >"$dir/t"
	cgk_capture env CGKIT_MACHINES_DIR="$dir" "$T" -M t -1 -F csv -p
	assertEquals "UNIT=: $err" "/$S/machine-t.scope" "$(echo "$out" | awk -F, 'NR == 2 { print $2 }')"
	# a machine name's '-' is "\x2d" in the unit and its cgroup, and machined writes the
	# backslash doubled (systemd 252's state file of machine "t-1")
	mkdir "$m/machine-t\x2d1.scope"
	echo "$leader" >"$m/machine-t\x2d1.scope/cgroup.procs"
	printf 'NAME=t-1\nSCOPE=machine-t\\\\x2d1.scope\nLEADER=%d\n' "$leader" >"$dir/t-1"
	cgk_capture env CGKIT_MACHINES_DIR="$dir" "$T" -M t-1 -1 -F csv -p
	# (CSV shows a backslash of a name doubled)
	assertEquals "a name with '-': $err" "/$S/machine-t\\\\x2d1.scope" "$(echo "$out" | awk -F, 'NR == 2 { print $2 }')"
	echo "$leader" >"$m/machine-t.scope/payload/cgroup.procs"
	printf 'NAME=t\nSCOPE=machine-x.scope\nLEADER=%d\n' "$leader" >"$dir/t"
	cgk_capture env CGKIT_MACHINES_DIR="$dir" "$T" -M t -1
	assertEquals "leader outside the scope" 1 "$rc"
	assertEquals "cgtop2: machine t: the leader, PID $leader, is in /$S/machine-t.scope/payload, not in machine-x.scope" "$err"
	printf 'NAME=t\nSCOPE=machine-t.scope\n' >"$dir/t"
	cgk_capture env CGKIT_MACHINES_DIR="$dir" "$T" -M t -1
	assertEquals "no leader" 1 "$rc"
	assertEquals "cgtop2: machine t: $dir/t names no scope (SCOPE=) or no leader (LEADER=)" "$err"
	cgk_capture env CGKIT_MACHINES_DIR="$dir" "$T" -M gone -1
	assertEquals "no such machine" 1 "$rc"
	assertEquals "cgtop2: machine gone: no such machine (no $dir/gone; is systemd-machined running?)" "$err"
}

test_live_removed_between_iterations() {
	local s first last
	live_setup || return 0
	live_child gone >/dev/null
	live_child stays >/dev/null
	"$T" -b -n 3 -d "$(cgk_wrapped && echo 3 || echo 0.6)" -p "/$S" >"$_cgk_tmp/o" 2>"$_cgk_tmp/e" &
	_pids+=($!)
	# the removal must come after a snapshot that shows it: CI's SAN tier beside the VM matrix
	# once took longer than cgk_wait_for's 5 s to print the first, and once failed the check
	# below after the header was in the file (the snapshot is printed on failure now). A first
	# snapshot without it still fails that check.
	CGK_WAIT_TICKS=300 cgk_wait_for grep -q "^/$S/gone " "$_cgk_tmp/o" ||
		{ fail "no snapshot with /$S/gone in 15 s"; return; }
	for s in $LIVE; do rmdir "$s/gone" || fail "rmdir $s/gone"; done
	wait "${_pids[0]}"
	rc=$?
	_pids=()
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$(cat "$_cgk_tmp/e")"
	first=$(awk '/^CGROUP/ { n++ } n == 1' "$_cgk_tmp/o")
	last=$(awk '/^CGROUP/ { n++ } n == 3' "$_cgk_tmp/o")
	assertContains "first snapshot has it (it was: $first)" "$first" "/$S/gone "
	assertNotContains "last snapshot dropped it" "$last" "/$S/gone"
	assertContains "the sibling stays" "$last" "/$S/stays "
}

# ulimit -n 64 and 500 cgroups: the stat files that do not fit are opened, read and closed each
# time, the tree is whole. A limit too low even for that is a clear error, never a crash.
test_live_fd_limit() {
	local u i rc10
	cgk_need_unwrapped "valgrind needs fds of its own below ulimit -n" || return 0
	cgk_need_unified || return 0
	cgk_need_root || return 0
	cgk_need_prog python3 "to parse JSON" || return 0
	u=$(cgk_sandbox unified) || { fail "cannot make the sandbox"; return 0; }
	mkdir "$u/many"
	for i in $(seq 1 500); do mkdir "$u/many/c$i"; done
	: >"$_cgk_tmp/names"
	for i in $(seq 1 500); do printf '/%s/many/c%d\0' "$S" "$i" >>"$_cgk_tmp/names"; done
	cgk_capture bash -c 'ulimit -n 64 && exec "$@"' _ "$T" -F json -n 2 -d 0.1 -v "/$S/many"
	assertEquals "ulimit -n 64: exit" 0 "$rc"
	assertEquals "ulimit -n 64: every cgroup, every refresh" "ok" "$(names_check json <"$_cgk_tmp/out")"
	assertEquals "ulimit -n 64: 2 refreshes" 2 "$(wc -l <"$_cgk_tmp/out")"
	assertEquals "ulimit -n 64: the second refresh has the CPU of every cgroup" 0 \
		"$(sed -n 2p "$_cgk_tmp/out" | grep -o '"cpu_percent":null' | wc -l)"
	assertContains "-v says files were reopened" "$err" "stat files read without a cached fd (fd limit)"
	# 10: stdio, the hierarchy roots and inotify leave next to nothing
	cgk_capture bash -c 'ulimit -n 10 && exec "$@"' _ "$T" -F json -n 2 -d 0.1 "/$S/many"
	rc10=$rc
	case $rc in
	0)
		assertEquals "ulimit -n 10: every cgroup" "ok" "$(names_check json <"$_cgk_tmp/out")"
		assertEquals "ulimit -n 10: stderr" "" "$err"
		;;
	1)
		assertEquals "ulimit -n 10: one line" 1 "$(wc -l <"$_cgk_tmp/err")"
		assertContains "ulimit -n 10: says why" "$err" "Too many open files (the limit of open files, 10,"
		;;
	*) fail "ulimit -n 10: exit $rc: $err" ;;
	esac
	# and so low that it cannot work where more than one hierarchy is mounted (hybrid): an
	# error, which says so; on unified alone (one root, the unified VM) 5 fds still do
	cgk_capture bash -c 'ulimit -n 5 && exec "$@"' _ "$T" -F json -n 2 -d 0.1 "/$S/many"
	if [ "$rc" = 0 ] && [ "$(cgk_layout)" = unified ]; then
		assertEquals "ulimit -n 5 (unified): every cgroup" "ok" "$(names_check json <"$_cgk_tmp/out")"
		assertEquals "ulimit -n 5 (unified): stderr" "" "$err"
	else
		assertEquals "ulimit -n 5: exit" 1 "$rc"
		assertEquals "ulimit -n 5: stderr" "cgtop2: cgroup /$S/many (hybrid): open: Too many open files (the limit of open files, 5, leaves too few to open the stat files one at a time; raise ulimit -n)" \
			"$(echo "$err" | sed 's/ (\(hybrid\|unified\)): / (hybrid): /')"
	fi
	echo "ulimit -n 10: exit $rc10"
	find "$u/many" -depth -type d -exec rmdir {} +
}

# 200 cgroups made and removed all the time while cgtop2 samples them: a cgroup may vanish
# between the listing and any read. Every refresh is whole JSON, and nothing fails.
test_live_churn() {
	local u i pid stop=$_cgk_tmp/churn.stop
	cgk_need_unified || return 0
	cgk_need_root || return 0
	cgk_need_prog python3 "to parse JSON" || return 0
	u=$(cgk_sandbox unified) || { fail "cannot make the sandbox"; return 0; }
	mkdir "$u/churn"
	(
		while [ ! -e "$stop" ]; do
			for i in $(seq 1 100); do mkdir -p "$u/churn/c$i/a" 2>/dev/null; done
			for i in $(seq 1 100); do rmdir "$u/churn/c$i/a" "$u/churn/c$i" 2>/dev/null; done
		done
	) &
	pid=$!
	_pids+=("$pid")
	cgk_capture "$T" -b -d 50ms -n 100 -F json "/$S"
	churn_check 100 ""
	# the same with the fds running out: cgroups vanish under opens by path too
	cgk_capture bash -c 'ulimit -n 64 && exec "$@"' _ "$T" -b -d 50ms -n 40 -F json "/$S"
	churn_check 40 "ulimit -n 64: "
	touch "$stop"
	wait "$pid"
	find "$u/churn" -depth -type d -exec rmdir {} +
}

# test_live_churn's verdict on a run of $1 refreshes; $2 prefixes the messages.
churn_check() {
	assertEquals "${2}exit" 0 "$rc"
	assertEquals "${2}stderr" "" "$err"
	assertEquals "${2}$1 refreshes" "$1" "$(wc -l <"$_cgk_tmp/out")"
	assertEquals "${2}every line is JSON with the sandbox in it" "ok" "$(python3 -c '
import json, sys
bad = [l for l in sys.stdin if not any(c["path"] == sys.argv[1] for c in json.loads(l)["cgroups"])]
print("ok" if not bad else bad[0][:200])' "/$S/churn" <"$_cgk_tmp/out")"
}

# The same names on the kernel's cgroupfs (which refuses a newline in a name: a cgroup2 rule)
test_live_names_escaped() {
	local u n f made=0
	local names=($'esc\033[31mred' $'tab\there' $'b\xffd' $'c1\xc2\x9bx' 'we"ird,name'
		'back\slash' $'nl\nx')
	cgk_need_unified || return 0
	cgk_need_root || return 0
	cgk_need_prog python3 "to parse the output" || return 0
	u=$(cgk_sandbox unified) || { fail "cannot make the sandbox"; return 0; }
	: >"$_cgk_tmp/names"
	mkdir "$u/names"
	for n in "${names[@]}"; do
		mkdir "$u/names/$n" 2>/dev/null || continue
		printf '/%s/names/%s\0' "$S" "$n" >>"$_cgk_tmp/names"
		made=$((made + 1))
	done
	assertTrue "the kernel took the names but the newline ($made)" "[ $made -ge 6 ]"
	for f in json csv openmetrics table; do
		cgk_capture "$T" -F "$f" -n 2 -d 0.1 "/$S/names"
		assertEquals "$f exit" 0 "$rc"
		assertEquals "$f" "ok" "$(names_check "$f" <"$_cgk_tmp/out")"
	done
	# the later tests of the sandbox parse CSV with awk
	find "$u/names" -depth -type d -exec rmdir {} +
}

test_live_memory() {
	local m u line want got bad=0 n=0
	cgk_need_root || return 0
	m=$(cgk_mnt memory)
	u=$(cgk_mnt unified)
	if [ -n "$m" ] && [ "$m" != "$u" ]; then
		# v1 memory: read only. Compare with the kernel's figure for every memory cgroup
		# down to depth 2 (the machine's own), read right before and right after. Those
		# cgroups hold the machine's builds and tests, whose memory can swing by more than
		# the slack within one sample: a wrong figure is wrong on every try, a swing is not,
		# so up to ten tries, until one compares a cgroup (a helper's run at load 12-17 found
		# both of the machine's memory cgroups moving on three tries: nothing compared)
		local try
		for try in $(seq 1 10); do
			bad=0 n=0
			find "$m" -maxdepth 2 -name memory.usage_in_bytes -exec grep -H . {} + >"$_cgk_tmp/before"
			cgk_capture "$T" -F csv -r -1 --depth=2
			find "$m" -maxdepth 2 -name memory.usage_in_bytes -exec grep -H . {} + >"$_cgk_tmp/after"
			assertEquals 0 "$rc"
			# one awk joins the three readings: a fork per cgroup made this test take
			# 30 s on a machine with a few hundred memory cgroups
			line=$(echo "$out" | awk -F, -v m="$m" -v try="$try" -v B="$_cgk_tmp/before" -v A="$_cgk_tmp/after" '
				function load(file, into,   l, i) {
					while ((getline l <file) > 0) { i = index(l, "/memory.usage_in_bytes:")
						into[substr(l, 1, i - 1)] = substr(l, i + 23) }
				}
				BEGIN { load(B, lo); load(A, hi) }
				$2 == "path" { next }
				{ d = ($2 == "/") ? m : m $2
				  if (!(d in lo) || !(d in hi)) next
				  x = lo[d] + 0; y = hi[d] + 0; if (x > y) { t = x; x = y; y = t }
				  # between the two reads, with slack for what moved meanwhile (4 MiB or 5 %)
				  s = y / 20; if (s < 4194304) s = 4194304
				  # a cgroup that moved by more than the slack between the two reads
				  # (a build starting) says nothing of cgtop2: left out of this try
				  if (y - x > s) next
				  n++
				  if ($5 == "" || $5 < x - s || $5 > y + s) {
					bad++; printf "try %s: memory of %s: cgtop2 %s, memory.usage_in_bytes %s before, %s after\n", try, $2, $5, lo[d], hi[d] > "/dev/stderr" } }
				END { print n + 0, bad + 0 }')
			read -r n bad <<<"$line"
			[ "$bad" -eq 0 ] && [ "$n" -gt 0 ] && break
		done
		if [ "$n" -eq 0 ] && [ "$bad" -eq 0 ]; then
			cgk_skip "every v1 memory cgroup down to depth 2 moved by more than 5 % between two reads on ten tries: nothing to compare with"
			return 0
		fi
		assertEquals "memory figures that differ on ten tries" 0 "$bad"
	elif cgk_v2_has memory; then
		live_setup || return 0
		grep -qw memory "$u/$S/cgroup.subtree_control" ||
			{ cgk_skip "memory controller not available in the sandbox"; return; }
		start_helper -s -m 64 $(live_child mem)
		cgk_capture "$T" -F csv -r -1 "/$S"
		got=$(echo "$out" | awk -F, -v p="/$S/mem" '$2 == p { print $5 }')
		want=$(cat "$u/$S/mem/memory.current")
		assertTrue "64 MiB touched, cgtop2 says $got" "[ \"${got:-0}\" -ge 67108864 ]"
		assertTrue "memory.current $want" "[ \"$want\" -ge 67108864 ]"
	else
		cgk_skip "no memory controller ($(cgk_layout))"
	fi
	return 0
}

test_live_openmetrics() {
	cgk_capture "$T" -F openmetrics -n 2 -d 0.3 --depth=2
	assertEquals "exit" 0 "$rc"
	assertEquals "grammar on the live tree" "" "$(om_check "$(echo "$out" | sed '1,/^# EOF$/d')")"
	assertContains "$out" 'cgroup_cpu_usage_seconds_total{cgroup="/"} '
	assertContains "$out" 'cgroup_tasks{cgroup="/"} '
}

test_live_json_parses() {
	local res
	cgk_capture "$T" -F json -n 2 -d 0.3 --depth=2
	assertEquals "exit" 0 "$rc"
	res=$(echo "$out" | json_check_keys)
	case $? in
	2) cgk_need_prog python3 "or jq, to parse JSON"; return ;;
	0) ;;
	*) fail "JSON does not parse or keys differ: $res" ;;
	esac
}

test_live_threads() {
	local u line th cg sum c procs nf
	cgk_need_unified || return 0
	live_setup || return 0
	u=$(cgk_mnt unified)/$S
	procs=$(live_child tp)
	boost tp
	mkdir "$u/tp/t"
	echo threaded >"$u/tp/t/cgroup.type" || { fail "cannot make a threaded cgroup"; return 0; }
	start_helper -n 2 -T "$u/tp/t/cgroup.threads" $procs
	cgk_capture "$T" -F json -n 2 -d 1 -H "/$S"
	assertEquals 0 "$rc"
	line=$(echo "$out" | sed -n 2p)
	th=$(echo "$line" | grep -o "\"path\":\"/$S/tp/t\",.*\"threads\":\[[^]]*\]")
	assertContains "thread busy-1: $line" "$th" '"comm":"busy-1","cpu_percent":'
	assertContains "thread busy-2" "$th" '"comm":"busy-2","cpu_percent":'
	# the threads' figures (clock ticks of /proc) add up to the cgroup's (cpu.stat)
	cg=$(json_field "$(json_row "$line" "/$S/tp/t")" cpu_percent)
	sum=0
	for c in $(echo "$th" | grep -o '"comm":"busy-[12]","cpu_percent":[0-9.]*' | sed 's/.*://'); do
		assertTrue "a spinning thread uses CPU ($c)" "awk 'BEGIN { exit !($c > 0) }'"
		sum=$(awk -v a="$sum" -v b="$c" 'BEGIN { print a + b }')
	done
	assertTrue "threads $sum %CPU ~ cgroup $cg %CPU" \
		"awk 'BEGIN { d = $sum - $cg; if (d < 0) d = -d; t = $cg / 4; if (t < 10) t = 10; exit !(d <= t) }'"
	assertNotContains "no threads key without -H" "$("$T" -F json -1 "/$S")" '"threads"'
	cgk_capture "$T" -b -n 2 -d 0.5 -H -p "/$S"
	assertContains "table thread rows" "$out" " busy-1"
	# CSV: tid and comm columns; a thread row has its cgroup's path and its own CPU
	cgk_capture "$T" -F csv -n 2 -d 0.5 -H "/$S"
	assertEquals "csv header with -H" "pressure_io_some_seconds,tid,comm,memory.max" "$(echo "$out" | head -n 1 | cut -d, -f18-21)"
	line=$(echo "$out" | awk -F, -v p="/$S/tp/t" 'NR > 1 && $2 == p && $20 == "busy-1" { l = $0 } END { print l }')
	# as many fields as the header names (the statistics grow with the sampler)
	nf=$(echo "$out" | head -n 1 | awk -F, '{ print NF }')
	assertTrue "csv thread row: $line" "echo '$line' | awk -F, 'NF == $nf && \$19 > 0 && \$4 > 0 { ok = 1 } END { exit !ok }'"
	# the limits' and collectors' columns after tid,comm (a cpu list with a comma is quoted: none here)
	assertEquals "every csv row has the header's $nf fields" "" "$(echo "$out" | grep -v '"' | awk -F, -v nf="$nf" 'NF != nf')"
	# OpenMetrics: a counter per thread, labelled with tid and comm
	cgk_capture "$T" -F openmetrics -1 -H "/$S"
	assertContains "openmetrics thread family" "$out" "# TYPE cgroup_thread_cpu_usage_seconds counter"
	assertTrue "openmetrics thread sample" "echo '$out' | grep -Eq '^cgroup_thread_cpu_usage_seconds_total\{cgroup=\"/$S/tp/t\",tid=\"[0-9]+\",comm=\"busy-1\"\} [0-9]+\.[0-9]+$'"
	assertNotContains "no thread family without -H" "$("$T" -F openmetrics -1 "/$S")" "cgroup_thread_"
}

# ---- interactive, through tmux ---------------------------------------------------------------

# Our own tmux server (-L), so that no one else's sessions are touched.
tm() {
	tmux -L "$_tmux" "$@"
}

pane() {
	tm capture-pane -p -t "$_tmux"
}

# Wait until the pane shows $1 (a grep -E pattern).
pane_wait() {
	cgk_wait_for sh -c "tmux -L '$_tmux' capture-pane -p -t '$_tmux' | grep -Eq -- \"\$1\"" _ "$1"
}

# A script for the tmux pane: records the terminal modes before and after cgtop2, its pid and
# exit status, then stays so that the pane can be inspected.
tmux_script() {
	cat >"$_cgk_tmp/tmux-run.sh" <<'EOF'
#!/bin/sh
f=$1
shift
# ^C goes to the whole foreground group: this shell must outlive cgtop2 to record what it left
trap : INT
stty -a >"$f.before"
sh -c 'echo $$ >"$0"; exec "$@"' "$f.pid" "$@"
echo "EXIT=$?" >"$f.exit"
stty -a >"$f.after"
exec sleep 600
EOF
}

# End the session, start cgtop2 again on a new server (socket name + $2): files $1.*, and
# the screen up. $3 names the start in failures.
tmux_restart() {
	rm -f "$1".*
	tm kill-session -t "$_tmux"
	_tmux=$_tmux$2
	tmux -L "$_tmux" new-session -d -s "$_tmux" -x 100 -y 20 sh "$_cgk_tmp/tmux-run.sh" "$1" "$T" -d 0.3 "/$S" ||
		{ fail "tmux, $3 start"; return 1; }
	pane_wait "^CGROUP" || fail "$3 start: $(pane)"
}

test_interactive_tmux() {
	local f=$_cgk_tmp/pane procs
	cgk_need_prog tmux "the screen" || return
	live_setup || return 0
	procs=$(live_child busy)
	boost busy
	start_helper -n 2 $procs
	start_helper -s $(live_child idle)
	tmux_script
	_tmux=cgk$$
	if ! tm new-session -d -s "$_tmux" -x 120 -y 30 sh "$_cgk_tmp/tmux-run.sh" "$f" "$T" -d 0.3 "/$S" 2>"$_cgk_tmp/tmux.err"; then
		# tmux refuses to start without a UTF-8 locale (the VM guests have none)
		if grep -q "LC_ALL, LC_CTYPE or LANG" "$_cgk_tmp/tmux.err"; then
			cgk_skip "tmux cannot start here: $(cat "$_cgk_tmp/tmux.err")"
		else
			fail "tmux: $(cat "$_cgk_tmp/tmux.err")"
		fi
		return 0
	fi
	pane_wait "^cgtop2 /$S .*order cpu" || fail "title: $(pane)"
	pane_wait "^CGROUP +TASKS +%CPU" || fail "header: $(pane)"
	# by CPU the busy cgroup comes before the idle one once rates exist
	pane_wait "/$S/busy +3 +[0-9]{2,3}\.[0-9]" || fail "busy rate: $(pane)"
	assertEquals "by cpu: busy first" "/$S/busy" "$(pane | awk '$1 ~ /\/(busy|idle)$/ { print $1; exit }')"
	tm send-keys -t "$_tmux" P
	pane_wait "counting user processes" || fail "P: $(pane)"
	pane_wait "^CGROUP +PROCS +%CPU" || fail "P header: $(pane)"
	pane_wait "/$S/busy +1 " || fail "P: the busy process once: $(pane)"
	tm send-keys -t "$_tmux" P
	pane_wait "^CGROUP +TASKS +%CPU" || fail "P again: $(pane)"
	tm send-keys -t "$_tmux" p
	pane_wait "order path" || fail "p: $(pane)"
	assertEquals "by path: sandbox first" "/$S" "$(pane | awk 'NR > 2 { print $1; exit }')"
	tm send-keys -t "$_tmux" / i d l e Enter
	pane_wait "filter: idle" || fail "filter: $(pane)"
	assertNotContains "filtered out" "$(pane)" "/$S/busy"
	assertContains "filtered in" "$(pane)" "/$S/idle"
	# paused (z), a shallower depth drops rows: the screen must still be drawn from live ones
	tm send-keys -t "$_tmux" z
	pane_wait "PAUSED" || fail "space: $(pane)"
	tm send-keys -t "$_tmux" -- -
	pane_wait "depth 2  .*PAUSED" || fail "-: $(pane)"
	tm send-keys -t "$_tmux" z
	pane_wait "^cgtop2 /$S  depth 2  order path  every 0.3s  counting tasks  filter: idle" || fail "resume: $(pane)"
	tm send-keys -t "$_tmux" h
	pane_wait "cgtop2 keys" || fail "help: $(pane)"
	tm send-keys -t "$_tmux" x
	pane_wait "^CGROUP" || fail "help closed: $(pane)"
	tm resize-window -t "$_tmux" -x 70 -y 20 2>/dev/null || tm resize-pane -t "$_tmux" -x 70 -y 20 2>/dev/null
	sleep 0.6
	# the sort's mark is one column of three bytes
	assertEquals "lines fit a narrowed window" "" "$(pane | sed 's/▼/v/g' | awk 'length($0) > 70')"
	tm send-keys -t "$_tmux" q
	cgk_wait_for test -s "$f.after" || fail "cgtop2 did not quit on q"
	assertEquals "exit on q" "EXIT=0" "$(cat "$f.exit")"
	# the first line has the window size, which the resize changed
	assertEquals "terminal modes restored" "$(sed 1d "$f.before")" "$(sed 1d "$f.after")"
	assertNotContains "alternate screen left" "$(pane)" "CGROUP"
	# SIGTERM: the same restoring path, in a new session on a server of its own
	tmux_restart "$f" b second || return 0
	kill -TERM "$(cat "$f.pid")"
	cgk_wait_for test -s "$f.after" || fail "cgtop2 did not end on SIGTERM"
	assertEquals "exit on SIGTERM" "EXIT=0" "$(cat "$f.exit")"
	assertEquals "terminal restored after SIGTERM" "$(cat "$f.before")" "$(cat "$f.after")"
	assertNotContains "alternate screen left after SIGTERM" "$(pane)" "CGROUP"
	# ^C: SIGINT from the terminal, once more the same path
	tmux_restart "$f" c third || return 0
	tm send-keys -t "$_tmux" C-c
	cgk_wait_for test -s "$f.after" || fail "cgtop2 did not end on ^C"
	assertEquals "exit on ^C" "EXIT=0" "$(cat "$f.exit")"
	assertEquals "terminal restored after ^C" "$(cat "$f.before")" "$(cat "$f.after")"
}

# ---- libcgroup's kit: --get (cgget), --list-cgroups (lscgroup), --list-controllers ---------

# A cgroup a in the v1 cpu and pids hierarchies, cpu.shares 300, pids.max 7: $CPU, $PIDS.
kit_cgroups() {
	cgk_need_root || return 1
	cgk_need_v1 cpu || return 1
	cgk_need_v1 pids || return 1
	CPU=$(cgk_sandbox cpu) && PIDS=$(cgk_sandbox pids) || { fail "sandbox"; return 1; }
	mkdir -p "$CPU/a/b" "$PIDS/a" || { fail "mkdir"; return 1; }
	echo 300 >"$CPU/a/cpu.shares" && echo 7 >"$PIDS/a/pids.max"
}

# issue 44: cgget's bytes. cgroup-tools 2.0.2 refuses -r beside -g CTRL:PATH ("Wrong input
# parameters"), so cgget is given the PATH form, which reads the same files. Old code: no
# --get ("unrecognized option"), exit 64.
test_get_as_cgget() {
	kit_cgroups || return 0
	cgk_need_prog cgget || return 0
	local want
	want=$(cgget -r cpu.shares -r pids.max "/$S/a"; echo .)
	cgk_capture "$T" --get=cpu.shares,pids.max -g "cpu,pids:/$S/a"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "cgget's bytes (-g)" "$want" "$("$T" --get=cpu.shares,pids.max -g "cpu,pids:/$S/a"; echo .)"
	assertEquals "cgget's bytes (PATH)" "$want" "$("$T" --get=cpu.shares,pids.max "/$S/a"; echo .)"
	assertContains "the values" "$want" "cpu.shares: 300"
	# a value of several lines (cpu.stat), -n and -v, two cgroups
	assertEquals "--bare is -n" "$(cgget -n -r cpu.stat -r cpu.shares "/$S/a"; echo .)" \
		"$("$T" --get=cpu.stat,cpu.shares --bare "/$S/a"; echo .)"
	assertEquals "--values is -v" "$(cgget -v -r cpu.stat -r pids.max "/$S/a" "/$S/a"; echo .)" \
		"$("$T" --get=cpu.stat,pids.max --values "/$S/a" "/$S/a"; echo .)"
	# --get alone: every readable file of the controllers named (cgget -g CTRL:PATH)
	assertEquals "every file of cpu" "$(cgget -g "cpu:/$S/a"; echo .)" "$("$T" --get -g "cpu:/$S/a"; echo .)"
	# failures: cgget's status, nothing printed for that cgroup
	cgk_capture "$T" --get=cpu.nosuch "/$S/a"
	assertEquals "no such file: cgget's status" 96 "$rc"
	assertEquals "no such file: nothing printed" "" "$out"
	assertContains "no such file: named" "$err" "cpu.nosuch"
	cgk_capture "$T" --get=cpu.shares "/$S/nosuch"
	assertEquals "no such cgroup: cgget's status" 96 "$rc"
}

# The other vocabulary's name is translated and says so, the kernel's own value beside it:
# weight 29 alone would write back as shares 297, not 300.
test_get_translated() {
	kit_cgroups || return 0
	cgk_capture "$T" --get=cpu.weight,cpu.max --bare -g "cpu:/$S/a"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "cpu.weight: 29 (translated from cpu.shares: 300)
cpu.max: max 100000 (translated from cpu.cfs_quota_us: -1, cpu.cfs_period_us: 100000)" "$out"
}

# issue 44: --get=memory.max on every layout: v1's memory.limit_in_bytes translated (the
# kernel's own value beside it), v2's file read as cgget reads it. Only a cgroup made and
# limited here, no process moved into it (none ever goes into v1 memory). Old code: no --get.
test_get_memory_max_every_layout() {
	cgk_need_root || return 0
	local m want
	if [ -n "$(cgk_mnt memory)" ] && [ "$(cgk_mnt memory)" != "$(cgk_mnt unified)" ]; then
		m=$(cgk_sandbox memory) && mkdir "$m/getmem" || { fail "mkdir"; return; }
		echo 268435456 >"$m/getmem/memory.limit_in_bytes" || { fail "set"; return; }
		want="memory.max: 268435456 (translated from memory.limit_in_bytes: 268435456)"
	elif cgk_v2_has memory; then
		# a name of its own: the suite's unified sandbox holds other tests' cgroups (mem/ too)
		m=$(cgk_sandbox unified) && echo +memory >"$m/cgroup.subtree_control" &&
			mkdir "$m/getmem" || { fail "mkdir"; return; }
		echo 268435456 >"$m/getmem/memory.max" || { fail "set"; return; }
		want="memory.max: 268435456"
		if command -v cgget >/dev/null; then
			assertEquals "cgget's bytes" "$(cgget -r memory.max "/$S/getmem"; echo .)" \
				"$("$T" --get=memory.max "/$S/getmem"; echo .)"
		fi
	else
		cgk_skip "no memory controller on this machine ($(cgk_layout))"
		return 0
	fi
	cgk_capture "$T" --get=memory.max "/$S/getmem"
	assertEquals "a bare PATH: exit ($err)" 0 "$rc"
	assertEquals "a bare PATH" "/$S/getmem:
$want" "$out"
	cgk_capture "$T" --get=memory.max --bare --values -g "memory:/$S/getmem"
	assertEquals "-g memory: exit ($err)" 0 "$rc"
	assertEquals "-g memory, the value alone" "${want#memory.max: }" "$out"
}

# issue 44: the v2 listing on a unified hierarchy with controllers: one line a cgroup, the
# hierarchy named by the controllers it offers (cgroup.controllers), as lscgroup prints it.
# Old code: no --list-cgroups.
test_list_cgroups_v2() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	local u ctrls
	u=$(cgk_sandbox unified) && mkdir -p "$u/ls/a/b" || { fail "mkdir"; return; }
	ctrls=$(tr ' ' , <"$(cgk_mnt unified)/cgroup.controllers")
	cgk_capture "$T" --list-cgroups -g "memory:/$S/ls"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "the v2 lines" "$ctrls:/$S/ls/
$ctrls:/$S/ls/a
$ctrls:/$S/ls/a/b" "$(sort <<<"$out")"
	if command -v lscgroup >/dev/null; then
		assertEquals "lscgroup's set" "$(lscgroup "memory:/$S/ls" | sort)" "$(sort <<<"$out")"
	fi
}

# issue 44: on a hybrid layout whose cgroup2 root offers no controller (all of them in v1),
# lscgroup lists no line of that hierarchy; --list-cgroups neither, unless -g names it (":/").
# Old code: ":/" and every cgroup2 cgroup in the listing (the hybrid guest's diff).
test_list_cgroups_no_controllerless_v2() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_mnt unified)
	[ -z "$(cat "$u/cgroup.controllers")" ] ||
		{ cgk_skip "the cgroup2 root offers controllers ($(cgk_layout))"; return 0; }
	u=$(cgk_sandbox unified) && mkdir -p "$u/nc/e" || { fail "mkdir"; return; }
	cgk_capture "$T" --list-cgroups
	assertEquals "exit ($err)" 0 "$rc"
	assertNotContains "not in the listing" "$out" ":/$S/nc/e"
	if command -v lscgroup >/dev/null; then
		assertEquals "nor in lscgroup's" "" "$(lscgroup | grep -F ":/$S/nc/e")"
	fi
	cgk_capture "$T" --list-cgroups -g ":/$S/nc"
	assertEquals "named: exit ($err)" 0 "$rc"
	assertEquals "named: listed" ":/$S/nc/
:/$S/nc/e" "$(sort <<<"$out")"
}

# lscgroup's lines, as a set: the cgroup given with a trailing '/', its subtree below it.
# Old code: no --list-cgroups; --list was read as --listen and served.
test_list_cgroups_as_lscgroup() {
	kit_cgroups || return 0
	cgk_need_prog lscgroup || return 0
	# a line names the hierarchy by all its controllers: cpu,cpuacct where they are mounted
	# together (the legacy guest), cpu alone on this host
	local cpu
	cpu=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $2 }' /proc/self/cgroup)
	cgk_capture "$T" --list-cgroups -g "cpu:/$S" -g "pids:/$S"
	assertEquals "exit ($err)" 0 "$rc"
	assertEquals "lscgroup's set" "$(lscgroup "cpu:/$S" "pids:/$S" | sort)" "$(sort <<<"$out")"
	assertContains "the subtree" "$out" "$cpu:/$S/a/b"
	cgk_capture "$T" --list-cgroups "/$S/a"
	assertEquals "a bare PATH: every hierarchy that has it" "$cpu:/$S/a/
$cpu:/$S/a/b
pids:/$S/a/" "$(sort <<<"$out")"
}

# lssubsys's lines: a hierarchy's controllers a line, -m with the mount point, -a with the
# unmounted ones of /proc/cgroups. cgroup-tools 2.0.2 prints blank lines for the mounted
# controllers of a hybrid layout, so the oracle is the mount table, and lssubsys -a's lines
# that are not blank.
test_list_controllers() {
	cgk_need_v1 cpu || return 0
	local m line
	cgk_capture "$T" --list-controllers=mounts
	assertEquals "exit ($err)" 0 "$rc"
	m=$(cgk_mnt pids)
	[ "$m" != "$(cgk_mnt unified)" ] && assertContains "pids with its mount point" "$out" "pids $m"
	assertNotContains "no named hierarchy" "$out" "name="
	cgk_capture "$T" --list-controllers
	assertContains "cpu's hierarchy" "$out" "$(basename "$(cgk_mnt cpu)")"
	cgk_capture "$T" --list-controllers=all
	for line in $(awk 'NR > 1 { print $1 }' /proc/cgroups); do
		assertTrue "$line listed (all)" "grep -q '\\(^\\|,\\)$line\\(,\\|\$\\)' <<<'$out'"
	done
	if command -v lssubsys >/dev/null; then
		for line in $(lssubsys -a | grep .); do
			assertContains "lssubsys -a's $line" "$out" "$line"
		done
	fi
}

# issue 44: cgsnapshot and cgconfigparser in cgkit: snapshot -> remove -> apply gives the same
# tree and limits. Old code: no --snapshot, exit 64.
test_snapshot_remove_apply() {
	kit_cgroups || return 0
	local snap=$_cgk_tmp/snap.conf d
	mkdir -p "$CPU/t/a" "$PIDS/t/b" || { fail "mkdir"; return; }
	echo 300 >"$CPU/t/a/cpu.shares" && echo 50000 >"$CPU/t/a/cpu.cfs_quota_us" &&
		echo 7 >"$PIDS/t/b/pids.max" || { fail "set"; return; }
	# owners other than root's: the directory (admin) and cgroup.procs (task)
	chown 1:1 "$CPU/t/a" && chown 2:2 "$CPU/t/a/cgroup.procs" || { fail "chown"; return; }
	cgk_capture "$T" --snapshot -g "cpu:/$S/t" -g "pids:/$S/t"
	assertEquals "snapshot: exit ($err)" 0 "$rc"
	printf '%s\n' "$out" >"$snap"
	assertContains "the language" "$out" "group $S/t/a {"
	assertContains "a value" "$out" 'cpu.shares = "300";'
	for d in "$CPU/t/a" "$CPU/t/b" "$CPU/t" "$PIDS/t/b" "$PIDS/t"; do
		[ -d "$d" ] && rmdir "$d"
	done
	assertFalse "removed" "[ -e '$CPU/t' ] || [ -e '$PIDS/t' ]"
	cgk_capture "$CGKIT_BIN/cgcreate2" --apply "$snap"
	assertEquals "apply: exit ($err)" 0 "$rc"
	assertEquals "the same shares" 300 "$(cat "$CPU/t/a/cpu.shares")"
	assertEquals "the same quota" 50000 "$(cat "$CPU/t/a/cpu.cfs_quota_us")"
	assertEquals "the same pids.max" 7 "$(cat "$PIDS/t/b/pids.max")"
	assertEquals "the same owners" "1:1 2:2" \
		"$(stat -c %u:%g "$CPU/t/a") $(stat -c %u:%g "$CPU/t/a/cgroup.procs")"
	cgk_capture "$T" --snapshot -g "cpu:/$S/t" -g "pids:/$S/t"
	assertEquals "the same snapshot" "$(cat "$snap")" "$out"
}

# issue 44: the round trip on a unified hierarchy: the v2 limits (memory.max, cpu.max,
# pids.max) of a subtree snapshotted, the subtree removed, applied: the same limits and the
# same snapshot. Old code: no --snapshot.
test_snapshot_remove_apply_v2() {
	cgk_need_root || return 0
	cgk_need_v2 memory cpu pids || return 0
	local u snap=$_cgk_tmp/snap2.conf
	u=$(cgk_sandbox unified) || { fail "sandbox"; return; }
	echo "+memory +cpu +pids" >"$u/cgroup.subtree_control" && mkdir -p "$u/rt/a" &&
		echo "+memory +cpu +pids" >"$u/rt/cgroup.subtree_control" || { fail "mkdir"; return; }
	echo 268435456 >"$u/rt/a/memory.max" && echo "50000 100000" >"$u/rt/a/cpu.max" &&
		echo 9 >"$u/rt/a/pids.max" || { fail "set"; return; }
	cgk_capture "$T" --snapshot -g "memory:/$S/rt"
	assertEquals "snapshot: exit ($err)" 0 "$rc"
	printf '%s\n' "$out" >"$snap"
	assertContains "a v2 value" "$out" 'memory.max = "268435456";'
	rmdir "$u/rt/a" "$u/rt" || { fail "rmdir"; return; }
	cgk_capture "$CGKIT_BIN/cgcreate2" --apply "$snap"
	assertEquals "apply: exit ($err)" 0 "$rc"
	assertEquals "the same limits" "268435456 50000 100000 9" \
		"$(cat "$u/rt/a/memory.max" "$u/rt/a/cpu.max" "$u/rt/a/pids.max" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
	cgk_capture "$T" --snapshot -g "memory:/$S/rt"
	assertEquals "the same snapshot" "$(cat "$snap")" "$out"
}

. "$SHUNIT2"
