#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --record and --replay: usage errors; on the fixture trees (whose values never change)
# a recording replays byte for byte what the live run printed, in every format; times round
# trip; rotation at --record-size; --at; a truncated file, a flipped byte and a newer version;
# a live sandbox subtree recorded and replayed; a recording made in the legacy VM replayed here.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
BUSY=$HELPERS/top_busy
FX=$FIXTURES/cgtop2
R=$_cgk_tmp/rec
_pids=()

teardown_test() {
	cgk_kill_pids
	rm -f "$R" "$R.1"
	return 0
}

USAGE_TAIL="Try \`cgtop2 --help' or \`cgtop2 --usage' for more information."

# cgtop2 on the unified fixture with the remaining arguments; sets $rc $out $err.
fx() {
	sed "s|@DIR@|$FX|" "$FX/unified.mountinfo.in" >"$_cgk_tmp/mi"
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/mi" "$T" "$@"
}

# the wall clock in milliseconds (bash's own: busybox date in the VM has no %N)
now_ms() {
	local t=${EPOCHREALTIME/[.,]/} # clock: the recording's times must fall between two reads
	echo $((t / 1000))
}

# The "time" of each JSON line, in milliseconds.
json_times() {
	sed -n 's/^{\("schema":[0-9]*,\)\{0,1\}"time":\([0-9]*\)\.\([0-9]\{3\}\),.*/\2\3/p'
}

# Output without its times and the exposition's own metrics (the scrape's duration and the
# sampler's error counts, which a replay does not have)
untimed() {
	sed 's/"time":[0-9.]*,/"time":T,/; s/"time_unix":[0-9.]*,/"time_unix":T,/; s/"time_iso":"[^"]*",/"time_iso":T,/; s/^[0-9]*\.[0-9]\{3\},/T,/' | grep -v '^\(# [A-Z]* \)\{0,1\}cgtop2_'
}

test_usage_errors() {
	cgk_capture "$T" --at=@1
	assertEquals "--at alone exit" 64 "$rc"
	assertEquals "--at alone" "cgtop2: --at needs --replay
$USAGE_TAIL" "$err"
	cgk_capture "$T" --record=/dev/null --replay=/dev/null
	assertEquals "both exit" 64 "$rc"
	assertEquals "both" "cgtop2: --record and --replay exclude each other
$USAGE_TAIL" "$err"
	cgk_capture "$T" --record-size=12Q --record=x
	assertEquals "size exit" 64 "$rc"
	assertEquals "size" "cgtop2: --record-size takes bytes with K, M, G or T (powers of 1024), not '12Q'
$USAGE_TAIL" "$err"
	cgk_capture "$T" --replay=x --at='yesterday'
	assertEquals "at exit" 64 "$rc"
	assertEquals "at" "cgtop2: --at takes a local time 'YYYY-MM-DD HH:MM[:SS]', 'today HH:MM[:SS]', 'yesterday HH:MM[:SS]', @SECONDS, now or -DURATION (-10m, -1h30m), not 'yesterday'
$USAGE_TAIL" "$err"
	cgk_capture "$T" --begin=-5m
	assertEquals "--begin alone exit" 64 "$rc"
	assertEquals "--begin alone" "cgtop2: --begin and --end need --replay
$USAGE_TAIL" "$err"
	cgk_capture "$T" --replay=x --begin=-1m --end=-5m
	assertEquals "begin after end exit" 64 "$rc"
	assertEquals "begin after end" "cgtop2: --begin is after --end
$USAGE_TAIL" "$err"
	cgk_capture "$T" --replay=x --end=-5x
	assertEquals "bad --end exit" 64 "$rc"
	assertContains "bad --end" "$err" "cgtop2: --end takes a local time "
	cgk_capture "$T" --replay=x -F csv --fields=cpu.usage,memory.nope
	assertEquals "unknown field exit" 64 "$rc"
	assertEquals "unknown field named" "cgtop2: --fields: no field 'memory.nope' (--fields=help lists them)
$USAGE_TAIL" "$err"
	cgk_capture "$T" --replay=x -b --fields=cpu.usage
	assertEquals "fields in a table exit" 64 "$rc"
	assertEquals "fields in a table" "cgtop2: --fields needs -F json or -F csv
$USAGE_TAIL" "$err"
	cgk_capture "$T" --replay=x --order=memory.nope
	assertEquals "unknown order exit" 64 "$rc"
	cgk_capture "$T" --replay=x --top=many
	assertEquals "bad --top exit" 64 "$rc"
	cgk_capture "$T" --fields=help
	assertEquals "--fields=help exit" 0 "$rc"
	assertContains "--fields=help: a JSON key and its kernel name" "$out" "memory_bytes	memory.current"
	assertContains "--fields=help: a limit" "$out" "memory.max"
	cgk_capture "$T" --help
	for o in --record= --record-size= "--replay[=" --journal= --keep= --cap= --at= --begin= --end= \
		--fields= --top=; do
		assertContains "--help lists $o" "$out" "$o"
	done
}

# The fixture's files never change: a live run and a replay of a recording of the same options
# print the same, line for line, but for the times; and the recorded times are the sampling's.
test_fixture_round_trip() {
	# below the root: the fixture's root memory is the machine's (/proc/meminfo), which moves
	local f live om t0 t1 times opts="-p --depth=3 -n 3 -d 0.1 /app"
	t0=$(now_ms)
	fx --record="$R" $opts
	t1=$(now_ms)
	assertEquals "record exit" 0 "$rc"
	assertEquals "record prints nothing" "" "$out$err"
	cgk_capture "$T" --replay="$R" -F json -p
	assertEquals "replay exit" 0 "$rc"
	assertEquals "replay stderr" "" "$err"
	assertEquals "three samples" 3 "$(echo "$out" | wc -l)"
	times=$(echo "$out" | json_times)
	assertEquals "three times" 3 "$(echo "$times" | wc -l)"
	assertTrue "times between the recording's start and end ($t0 .. $t1): $times" \
		"echo '$times' | awk -v a=$t0 -v b=$t1 '\$1 < a || \$1 > b { bad = 1 } END { exit bad }'"
	# -d 0.1 keeps to a schedule from the start: the first sample, which scans the tree, may
	# be stamped late (under TCG by 60-150 ms; at load 12-17 by 1.4 s, the second then in the
	# same millisecond), the last comes 0.2 s after the start at the earliest. Load only delays:
	# the bound is below, never above
	assertTrue "times in order, the last 0.2 s after the start ($t0): $times" \
		"echo '$times' | awk -v a=$t0 'NR > 1 && \$1 < p { bad = 1 } { p = \$1 } END { exit bad || p - a < 195 }'"
	# a recording has every collector (iodevice too), whatever the format
	for f in json csv openmetrics prometheus table; do
		fx -F "$f" --collectors=all $opts
		live=$(echo "$out" | untimed)
		cgk_capture "$T" --replay="$R" -F "$f" -p
		assertEquals "$f exit" 0 "$rc"
		assertEquals "$f: the replay prints what the live run did" "$live" "$(echo "$out" | untimed)"
		[ "$f" = openmetrics ] && om=$live
	done
	assertContains "a collector's values recorded" "$om" "cgroup_cpu_throttled_periods_total{cgroup=\"/app\"} "
	assertContains "the devices' values recorded" "$om" "cgroup_io_device_read_bytes_total{cgroup=\"/app\",device="
	# the CSV's times are the JSON's
	assertEquals "csv times" "$times" "$("$T" --replay="$R" -F csv | awk -F, 'NR > 1 && !s[$1]++ { sub(/\./, "", $1); print $1 }')"
	# -n stops early; -o sorts the recorded rows as it does live ones
	cgk_capture "$T" --replay="$R" -F json -n 2
	assertEquals "-n 2" 2 "$(echo "$out" | wc -l)"
	fx -b -1 -m --depth=3 /app
	live=$out
	cgk_capture "$T" --replay="$R" -b -m -n 1
	assertEquals "-m over a replay" "$live" "$out"
}

# Appending: a second run adds a session; -P's count mode is the recording's own.
test_fixture_append() {
	fx --record="$R" -n 2 -d 0.05 --depth=1
	fx --record="$R" -n 2 -d 0.05 --depth=1 -k
	cgk_capture "$T" --replay="$R" -F csv
	assertEquals "exit" 0 "$rc"
	assertEquals "4 samples" 4 "$(echo "$out" | awk -F, 'NR > 1 { print $1 }' | sort -u | wc -l)"
	assertEquals "the first session's count titles the output" "time,path,tasks" \
		"$(echo "$out" | head -n 1 | cut -d, -f1-3)"
	printf 'not a recording\n' >"$R"
	fx --record="$R" -1
	assertEquals "append to a stranger exit" 1 "$rc"
	assertEquals "append to a stranger" "cgtop2: recording $R: not a cgtop2 recording; will not append to it" "$err"
	assertEquals "left alone" "not a recording" "$(cat "$R")"
}

# --record never writes through a symbolic link, dangling or not: whoever can write the
# directory would choose the file root creates or appends to (issue 28, item 14).
test_fixture_record_symlink() {
	local victim=$_cgk_tmp/victim
	rm -f "$victim"
	ln -s "$victim" "$R"
	fx --record="$R" -1
	assertEquals "dangling link exit" 1 "$rc"
	assertEquals "dangling link: one line" "cgtop2: recording $R: a symbolic link; will not follow it (name the file itself)" "$err"
	assertFalse "its target not created" "[ -e '$victim' ]"
	printf 'precious\n' >"$victim"
	fx --record="$R" -1
	assertEquals "link to a file exit" 1 "$rc"
	assertEquals "the file left alone" "precious" "$(cat "$victim")"
	rm -f "$R"
	# FILE.1 a link: the rotation renames FILE over it, never writes through it
	ln -s "$victim" "$R.1"
	fx --record="$R" --record-size=3K -n 20 -d 0.01 --depth=3
	assertEquals "rotation exit" 0 "$rc"
	assertFalse "FILE.1 is the recording, no link" "[ -L '$R.1' ]"
	assertEquals "FILE.1 a recording" "CGTOPREC" "$(head -c 8 "$R.1")"
	assertEquals "the link's target left alone" "precious" "$(cat "$victim")"
	rm -f "$victim"
}

# A FIFO named by --replay is refused at once, not waited on (issue 28, item 7).
test_replay_fifo() {
	local f=$_cgk_tmp/fifo
	rm -f "$f"
	mkfifo "$f"
	cgk_capture timeout 300 "$T" --replay="$f" -F json
	assertEquals "exit" 1 "$rc"
	assertEquals "one line" "cgtop2: replay $f: not a regular file" "$err"
	rm -f "$f" "$f.1"
	mkfifo "$f.1"
	printf 'x' >"$f"
	cgk_capture timeout 300 "$T" --replay="$f" -F json
	assertNotEquals "a FIFO as FILE.1 is not waited on" 124 "$rc"
	rm -f "$f" "$f.1"
}

# --record-size: FILE moves to FILE.1 before it would grow beyond SIZE; a replay of FILE
# reads FILE.1 first, and loses only what an older rotation dropped.
test_fixture_rotation() {
	local n1 n all
	# a header (4.2K: the kernel's statistics name a field each) and a few samples a file
	fx --record="$R" --record-size=8K -n 40 -d 0.01 --depth=3
	assertEquals "exit" 0 "$rc"
	assertTrue "FILE.1 made" "[ -f '$R.1' ]"
	assertTrue "FILE at most 8K ($(stat -c %s "$R"))" "[ $(stat -c %s "$R") -le 8192 ]"
	assertTrue "FILE.1 at most 8K ($(stat -c %s "$R.1"))" "[ $(stat -c %s "$R.1") -le 8192 ]"
	assertEquals "both files start with the magic" "CGTOPREC CGTOPREC" \
		"$(head -c 8 "$R.1") $(head -c 8 "$R")"
	cgk_capture "$T" --replay="$R" -F json
	assertEquals "replay exit" 0 "$rc"
	assertEquals "replay stderr" "" "$err"
	all=$(echo "$out" | json_times)
	n=$(echo "$all" | wc -l)
	assertTrue "fewer than 40 samples kept ($n), more than one file's" "[ $n -lt 40 ] && [ $n -gt 2 ]"
	assertEquals "in time order" "$all" "$(echo "$all" | sort -n)"
	mv "$R.1" "$_cgk_tmp/old"
	cgk_capture "$T" --replay="$R" -F json
	n1=$(echo "$out" | wc -l)
	assertTrue "FILE alone: the newest part ($n1 of $n)" "[ $n1 -lt $n ]"
	assertEquals "FILE alone ends as both do" "$(echo "$all" | tail -n 1)" "$(echo "$out" | json_times | tail -n 1)"
	rm -f "$_cgk_tmp/old"
}

# --at: the first sample at or after the time, as @EPOCH or local YYYY-MM-DD HH:MM[:SS].
test_fixture_at() {
	local times first last k mid
	fx --record="$R" -n 5 -d 0.3 --depth=1
	times=$("$T" --replay="$R" -F json | json_times)
	first=$(echo "$times" | head -n 1)
	last=$(echo "$times" | tail -n 1)
	# between two samples (printed to the millisecond; a slow machine may take two at once):
	# from the later one on, for the first such gap after the first sample and the last one
	for k in $(echo "$times" | awk 'NR > 2 && $1 - p >= 10 { print NR } { p = $1 }' | sed -n '1p;$p'); do
		mid=$(echo "$times" | awk -v k=$k 'NR == k - 1 { a = $1 } NR == k { printf "%.0f\n", (a + $1) / 2 }')
		cgk_capture "$T" --replay="$R" -F json --at="@$((mid / 1000)).$(printf %03d $((mid % 1000)))"
		assertEquals "at $mid: from sample $k on" "$(echo "$times" | sed -n "$k,\$p")" "$(echo "$out" | json_times)"
	done
	assertNotNull "a gap between samples" "${k:-}"
	cgk_capture env TZ=UTC "$T" --replay="$R" -F json --at="$(TZ=UTC date -d "@$((first / 1000))" '+%Y-%m-%d %H:%M')"
	assertEquals "the minute of the first: all" "$times" "$(echo "$out" | json_times)"
	cgk_capture env TZ=UTC "$T" --replay="$R" -F json --at="$(TZ=UTC date -d "@$((first / 1000 - 3600))" '+%Y-%m-%d %H:%M:%S')"
	assertEquals "an hour before: all" "$times" "$(echo "$out" | json_times)"
	cgk_capture "$T" --replay="$R" -F json --at="@$((last / 1000 + 1))"
	assertEquals "after the last exit" 1 "$rc"
	assertEquals "after the last" "" "$out"
	assertEquals "after the last says so" "cgtop2: replay $R: no sample at or after that time (5 samples)" "$err"
}

# A cut or flipped file replays what is whole, with one warning; a newer major is refused.
test_fixture_damage() {
	local size all
	fx --record="$R" -n 3 -d 0.05 --depth=3
	all=$("$T" --replay="$R" -F json)
	size=$(stat -c %s "$R")
	head -c $((size - 5)) "$R" >"$_cgk_tmp/cut"
	cgk_capture "$T" --replay="$_cgk_tmp/cut" -F json
	assertEquals "truncated exit" 0 "$rc"
	assertEquals "truncated: the first two samples" "$(echo "$all" | head -n 2)" "$out"
	assertEquals "truncated: one warning" 1 "$(echo "$err" | wc -l)"
	assertContains "truncated: says so" "$err" "cgtop2: replay $_cgk_tmp/cut: "
	assertContains "truncated: what" "$err" "(truncated record); replaying the 2 whole samples"
	# a byte of the second sample's values flipped: the CRC catches it; the first is whole, the
	# rest of the session is lost (it may name cgroups the damaged one defined)
	cp "$R" "$_cgk_tmp/flip"
	local off=$((size - 20))
	printf "$(printf '\\%03o' $(($(od -An -tu1 -j $off -N 1 "$R") ^ 0x40)))" |
		dd of="$_cgk_tmp/flip" bs=1 seek=$off conv=notrunc 2>/dev/null
	cgk_capture "$T" --replay="$_cgk_tmp/flip" -F json
	assertEquals "flipped exit" 0 "$rc"
	assertEquals "flipped: the whole samples" "$(echo "$all" | head -n 2)" "$out"
	assertEquals "flipped: one warning" 1 "$(echo "$err" | wc -l)"
	assertContains "flipped: a checksum" "$err" "(bad checksum)"
	# a session appended after the damage (a recorder killed mid-write, started again) is found
	env CGKIT_MOUNTINFO="$_cgk_tmp/mi" "$T" --record="$_cgk_tmp/flip" -n 2 -d 0.05 --depth=3
	cgk_capture "$T" --replay="$_cgk_tmp/flip" -F json
	assertEquals "appended after damage exit" 0 "$rc"
	assertEquals "appended after damage: 2 + 2 samples" 4 "$(echo "$out" | wc -l)"
	assertEquals "appended after damage: one warning" 1 "$(echo "$err" | wc -l)"
	# the major version (bytes 8-9, little-endian) of the future
	cp "$R" "$_cgk_tmp/new"
	printf '\002\000\007\000' | dd of="$_cgk_tmp/new" bs=1 seek=8 conv=notrunc 2>/dev/null
	cgk_capture "$T" --replay="$_cgk_tmp/new" -F json
	assertEquals "newer exit" 1 "$rc"
	assertEquals "newer: nothing" "" "$out"
	assertEquals "newer: one clear line" "cgtop2: replay $_cgk_tmp/new: format version 2.7 is newer than this cgtop2 reads (1.x); replay it with a newer cgtop2" "$err"
	printf 'CGTOPRE' >"$_cgk_tmp/short"
	cgk_capture "$T" --replay="$_cgk_tmp/short" -F json
	assertEquals "not one exit" 1 "$rc"
	assertEquals "not one" "cgtop2: replay $_cgk_tmp/short: not a cgtop2 recording" "$err"
	cgk_capture "$T" --replay="$_cgk_tmp/nope" -F json
	assertEquals "missing exit" 1 "$rc"
	assertEquals "missing" "cgtop2: replay $_cgk_tmp/nope: No such file or directory" "$err"
}

# A recording of format 1.0 (cgtop2 0.2.0, before each cgroup's tasks were recorded: made from
# the fixture with -p --depth=1 -n 2 -d 0.1 /app) replays as it was recorded.
test_fixture_format_1_0() {
	cgk_capture "$T" --replay="$FX/record-1.0" -F json
	assertEquals "exit" 0 "$rc"
	assertEquals "no warning" "" "$err"
	assertEquals "the recorded times" "1796397040160
1796397040283" "$(echo "$out" | json_times)"
	assertContains "the first sample" "$(echo "$out" | sed -n 1p)" \
		'{"path":"/app","origin":{},"tasks":7,"cpu_percent":null,"memory_bytes":104857600,'
	assertContains "the second, its rates" "$(echo "$out" | sed -n 2p)" \
		'{"path":"/app/web","origin":{},"tasks":4,"cpu_percent":0.00,"memory_bytes":52428800,'
	assertEquals "the major version 1, minor 0" "CGTOPREC 1 0" \
		"$(head -c 8 "$FX/record-1.0") $(od -An -tu2 -j 8 -N 4 "$FX/record-1.0" | xargs)"
}

# A recording of format 1.1 (cgtop2 0.2.0 with every cgroup's tasks, /work/main's before the
# dump options: made from the fixture with -p --depth=1 -n 2 -d 0.1 /app) replays with this one.
test_fixture_format_1_1() {
	cgk_capture "$T" --replay="$FX/record-1.1" -F csv --fields=tasks,memory.current
	assertEquals "exit" 0 "$rc"
	assertEquals "no warning" "" "$err"
	assertEquals "the recorded samples" "time,path,tasks,memory_bytes
1796653332.358,/app,7,104857600
1796653332.358,/app/web,4,52428800
1796653332.437,/app,7,104857600
1796653332.437,/app/web,4,52428800" "$out"
	assertEquals "the major version 1, minor 1" "CGTOPREC 1 1" \
		"$(head -c 8 "$FX/record-1.1") $(od -An -tu2 -j 8 -N 4 "$FX/record-1.1" | xargs)"
}

# The dump: --begin/--end relative to now, --fields, --top and --order=FIELD. A copy of the
# fixture is recorded four times, a sample each, with the test clock moved back and forth
# (CGKIT_TEST_CLOCK_OFFSET): an hour ago, 200 s ago, 150 s ago and in an hour; between them
# /app/web/deep/deeper's memory changes, so that each sample has its own top three. The window
# -5m .. -1m holds the middle two as long as the replay starts within 100 s of the recording.
test_fixture_dump() {
	local fxc=$_cgk_tmp/fxcopy off mem times want
	rm -rf "$fxc"
	cp -r "$FX/unified" "$fxc"
	sed "s|@DIR@/unified|$fxc|" "$FX/unified.mountinfo.in" >"$_cgk_tmp/mic"
	for off in -3600:999999999 -200:9000000 -150:80000000 3600:999999998; do
		echo "${off#*:}" >"$fxc/app/web/deep/deeper/memory.current"
		env CGKIT_MOUNTINFO="$_cgk_tmp/mic" CGKIT_TEST_CLOCK_OFFSET="${off%%:*}" \
			"$T" --record="$R" -n 1 --depth=3 /app ||
			fail "record at ${off%%:*}"
	done
	times=$("$T" --replay="$R" -F json | json_times | sed 's/\(...\)$/.\1/')
	assertEquals "four samples" 4 "$(echo "$times" | wc -l)"
	local t2 t3
	t2=$(echo "$times" | sed -n 2p)
	t3=$(echo "$times" | sed -n 3p)
	cgk_capture "$T" --replay="$R" --begin=-5m --end=-1m --fields=cpu.usage,memory.current \
		--top=3 -F csv -o memory.current
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	want="time,path,cpu_usage_seconds,memory_bytes
$t2,/app,2.000000000,104857600
$t2,/app/web,1.500000000,52428800
$t2,/app/web/deep/deeper,0.000010000,9000000
$t3,/app,2.000000000,104857600
$t3,/app/web/deep/deeper,0.000010000,80000000
$t3,/app/web,1.500000000,52428800"
	assertEquals "the window's two samples, three largest by memory, the fields asked" "$want" "$out"
	# the issue's command: the window and the columns as above, --order's default (cpu, which a
	# single sample has no rate of: the path order breaks the ties)
	cgk_capture "$T" --replay="$R" --begin=-5m --end=-1m --fields=cpu.usage,memory.current \
		--top=3 -F csv
	assertEquals "default order exit" 0 "$rc"
	assertEquals "default order: three rows of each sample" "time,path,cpu_usage_seconds,memory_bytes
$t2,/app,2.000000000,104857600
$t2,/app/web,1.500000000,52428800
$t2,/app/web/deep,0.001000000,4096
$t3,/app,2.000000000,104857600
$t3,/app/web,1.500000000,52428800
$t3,/app/web/deep,0.001000000,4096" "$out"
	# JSON: the same rows and keys; absolute --begin and --end as --at takes them (the times
	# printed are cut to the millisecond: the sample is within one of it)
	cgk_capture "$T" --replay="$R" --begin="@$t3" --end="@$(echo "$t3" | awk '{ printf "%.3f", $1 + 0.001 }')" --fields=memory_bytes,memory.max \
		--top=1 -F json -o memory_bytes
	assertEquals "json exit" 0 "$rc"
	assertEquals "json: one sample, its largest" \
		"{\"time\":$t3,\"time_unix\":$t3,\"time_iso\":\"$(TZ=UTC date -d "@${t3%.*}" +%Y-%m-%dT%H:%M:%S).${t3#*.}Z\",\"cgroups\":[{\"path\":\"/app\",\"memory_bytes\":104857600,\"memory.max\":null}]}" "$out"
	# every format takes the window and --top: the table's rows
	cgk_capture "$T" --replay="$R" --begin=-5m --end=-1m --top=2 -b -m
	assertEquals "table exit" 0 "$rc"
	assertEquals "table: two samples of two rows and their titles" 7 "$(echo "$out" | wc -l)"
	cgk_capture "$T" --replay="$R" --begin=-5m --end=-1m -F openmetrics --top=1 -o memory.current
	assertEquals "openmetrics: only the largest cgroup" "/app" \
		"$(echo "$out" | sed -n 's/^cgroup_memory_bytes{cgroup="\([^"]*\)".*/\1/p' | sort -u)"
	cgk_capture "$T" --replay="$R" --begin=-30s --end=now
	assertEquals "an empty window exit" 1 "$rc"
	assertEquals "an empty window says so" "cgtop2: replay $R: no sample from --begin to --end" "$err"
	rm -rf "$fxc"
}

# --record with -b or -F: what is recorded is printed as it is, in the format asked for.
test_fixture_record_prints() {
	local replay
	fx --record="$R" -F csv -n 2 -d 0.05 --depth=1 -p
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	replay=$("$T" --replay="$R" -F csv -p)
	assertEquals "printed: what the replay prints, times and all" "$replay" "$out"
	assertEquals "the header and two samples of four rows" 9 "$(echo "$out" | wc -l)"
	rm -f "$R"
	fx --record="$R" -b -n 1 --depth=1 -p
	assertEquals "-b exit" 0 "$rc"
	assertEquals "-b: the table" "$("$T" --replay="$R" -b -p)" "$out"
	assertContains "-b: a table's title" "$out" "CGROUP "
}

# ---- live tier ------------------------------------------------------------------------------

# A sandbox subtree with a busy and an idle child in every hierarchy cgtop2 reads CPU and tasks
# from (never v1 memory); the helpers joined.
live_setup() {
	local h m s procs=
	cgk_need_root || return 1
	LIVE=
	for h in unified cpuacct pids; do
		m=$(cgk_mnt "$h")
		[ -n "$m" ] || continue
		case " $LIVE " in *" $m/$S "*) continue ;; esac
		cgk_sandbox "$h" >/dev/null || { fail "cannot make the sandbox in $h"; return 1; }
		LIVE="$LIVE $m/$S"
	done
	[ -n "$LIVE" ] || { cgk_skip "no unified, cpuacct or pids hierarchy"; return 1; }
	for s in $LIVE; do
		mkdir -p "$s/busy" "$s/idle"
		procs="$procs $s/busy/cgroup.procs"
	done
	"$BUSY" -r "$_cgk_tmp/ready" $procs &
	_pids+=($!)
	cgk_wait_for test -e "$_cgk_tmp/ready" || { fail "helper did not start"; return 1; }
}

test_live_round_trip() {
	local t0 t1 times line busy
	live_setup || return 0
	t0=$(now_ms)
	cgk_capture "$T" --record="$R" -n 3 -d 0.5 "/$S"
	t1=$(now_ms)
	assertEquals "record exit" 0 "$rc"
	assertEquals "record quiet" "" "$out$err"
	cgk_capture "$T" --replay="$R" -F json
	assertEquals "replay exit" 0 "$rc"
	assertEquals "replay stderr" "" "$err"
	times=$(echo "$out" | json_times)
	assertEquals "three samples" 3 "$(echo "$times" | wc -l)"
	assertTrue "times within the recording ($t0 .. $t1): $times" \
		"echo '$times' | awk -v a=$t0 -v b=$t1 '\$1 < a || \$1 > b || \$1 <= p { bad = 1 } { p = \$1 } END { exit bad }'"
	for p in "/$S" "/$S/busy" "/$S/idle"; do
		assertEquals "$p in every sample" 3 "$(echo "$out" | grep -c "{\"path\":\"$p\",")"
	done
	line=$(echo "$out" | sed -n 3p)
	busy=$(echo "$line" | grep -o "{\"path\":\"/$S/busy\",\"origin\":{[^}]*},[^{]*" | head -n 1)
	assertContains "busy: one task" "$busy" '"tasks":1,'
	assertTrue "busy: a CPU rate recorded ($busy)" \
		"echo '$busy' | grep -q '\"cpu_percent\":[0-9]*[1-9][0-9]*\.'"
	assertContains "idle: no task" "$(echo "$line" | grep -o "{\"path\":\"/$S/idle\",\"origin\":{[^}]*},[^{]*")" '"tasks":0,'
	cgk_capture "$T" --replay="$R" -F openmetrics -n 1
	assertContains "counters too" "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S/busy\"} "
}

# A recording made in the legacy VM (v1 hierarchies only, another kernel) replays here exactly
# as it replays there. The guest's file comes back through its console, in base64.
test_vm_legacy_round_trip() {
	local vm=$CGKIT_TOP/tests/vm/run got there
	[ -z "${CGKIT_VM:-}" ] || { cgk_skip "inside the VM already"; return 0; }
	[ "${CGKIT_VM_RECORD:-1}" != 0 ] || { cgk_skip "CGKIT_VM_RECORD=0"; return 0; }
	cgk_need_prog qemu-system-x86_64 "the VM" || return 0
	ls /boot/vmlinuz-* >/dev/null 2>&1 || { cgk_skip "no kernel in /boot for the VM"; return 0; }
	cgk_need_prog base64 || return 0
	"$vm" legacy -- sh -c 'cd /cgkit && ./cgtop2 --record=/tmp/r -n 3 -d 0.3 --depth=2 &&
		echo CGKIT-REC-BEGIN && base64 /tmp/r && echo CGKIT-REC-END &&
		echo CGKIT-JSON-BEGIN && ./cgtop2 --replay=/tmp/r -F json && echo CGKIT-JSON-END' \
		>"$_cgk_tmp/vm.out" 2>&1
	assertEquals "VM exit ($(tail -n 3 "$_cgk_tmp/vm.out"))" 0 $?
	tr -d '\r' <"$_cgk_tmp/vm.out" | sed -n '/^CGKIT-REC-BEGIN$/,/^CGKIT-REC-END$/p' |
		sed '1d;$d' | base64 -d >"$R"
	there=$(tr -d '\r' <"$_cgk_tmp/vm.out" | sed -n '/^CGKIT-JSON-BEGIN$/,/^CGKIT-JSON-END$/p' | sed '1d;$d')
	assertEquals "the guest replayed 3 samples" 3 "$(echo "$there" | json_times | wc -l)"
	cgk_capture "$T" --replay="$R" -F json
	assertEquals "host replay exit" 0 "$rc"
	assertEquals "host replay stderr" "" "$err"
	assertEquals "the host replays what the guest did" "$there" "$out"
	got=$(echo "$out" | sed -n 3p)
	assertContains "v1 memory and tasks recorded" "$got" '{"path":"/","origin":{},"tasks":'
	assertTrue "the root's memory recorded: $got" "echo '$got' | grep -q '\"path\":\"/\",\"origin\":{},\"tasks\":[0-9]*,\"cpu_percent\":[0-9.]*,\"memory_bytes\":[0-9]'"
}

. "$SHUNIT2"
