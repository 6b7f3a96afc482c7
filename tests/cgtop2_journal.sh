#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --journal (cgkit-record.service's recorder) on the unified fixture tree: the day files
# and the move to the next one when the test clock jumps past midnight, a replay across two
# days (and of the newest alone), --keep's and --cap's removals, a day file cut short by a
# SIGKILL appended to again, one closed whole by SIGTERM, and the usage errors. The test clock
# is CGKIT_TEST_CLOCK_OFFSET naming a file (re-read at each sample), the time zone UTC.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
FX=$FIXTURES/cgtop2
J=$_cgk_tmp/journal
CLK=$_cgk_tmp/clock
_pids=()
export TZ=UTC

USAGE_TAIL="Try \`cgtop2 --help' or \`cgtop2 --usage' for more information."

sed "s|@DIR@|$FX|" "$FX/unified.mountinfo.in" >"$_cgk_tmp/mi"

teardown_test() {
	cgk_kill_pids
	rm -rf "$J"
	return 0
}

# the test clock at local (UTC) time $1: the offset from now into $CLK
clock_at() {
	echo $(($(date -d "$1" +%s) - ${EPOCHSECONDS})) >"$CLK"
}

# cgtop2 on the fixture with the test clock; sets $rc $out $err
jt() {
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/mi" CGKIT_TEST_CLOCK_OFFSET="$CLK" "$T" "$@"
}

# the dates (UTC) of the samples a replay of $1 gives, one line each
sample_days() {
	"$T" --replay="$1" -F csv --fields=tasks 2>/dev/null | awk -F, 'NR > 1 && $2 == "/" { print $1 }' |
		while read -r t; do date -d "@${t%.*}" +%Y-%m-%d; done
}

# at least $2 samples in day file $1
has_samples() {
	[ -f "$1" ] && [ "$(sample_days "$1" | wc -l)" -ge "$2" ]
}

test_usage_errors() {
	cgk_capture "$T" --keep=7d
	assertEquals "--keep alone exit" 64 "$rc"
	assertEquals "--keep alone" "cgtop2: --keep and --cap need --journal
$USAGE_TAIL" "$err"
	cgk_capture "$T" --journal="$J" --keep=7w
	assertEquals "bad --keep exit" 64 "$rc"
	assertEquals "bad --keep" "cgtop2: --keep takes days: 7d or 7 (0: keep all), not '7w'
$USAGE_TAIL" "$err"
	cgk_capture "$T" --journal="$J" --cap=1Q
	assertEquals "bad --cap exit" 64 "$rc"
	assertEquals "bad --cap" "cgtop2: --cap takes bytes with K, M, G or T (powers of 1024), not '1Q'
$USAGE_TAIL" "$err"
	cgk_capture "$T" --journal="$J" --record=x
	assertEquals "with --record exit" 64 "$rc"
	assertContains "with --record" "$err" "cgtop2: --journal excludes --record,"
	# --journal writes: an abbreviation is refused (TOOL_OPTION_WHOLE)
	cgk_capture "$T" --jour="$J" -n 1
	assertEquals "abbreviated exit" 64 "$rc"
	assertFalse "nothing recorded by an abbreviation" "[ -e '$J' ]"
	cgk_capture "$T" --replay="$J"
	assertEquals "no journal exit" 1 "$rc"
	assertEquals "no journal" "cgtop2: replay $J: No such file or directory" "$err"
	mkdir -p "$J"
	cgk_capture "$T" --replay="$J"
	assertEquals "empty journal exit" 1 "$rc"
	assertEquals "empty journal" "cgtop2: replay $J: no journal's day file (cgtop2-YYYY-MM-DD.rec.gz) there" "$err"
}

# The recorder runs across midnight: the clock jumps from 23:59:50 to 00:00:30 of the next day
# while it records; the samples before go to the first day's file, those after to the second's.
test_midnight() {
	local a=$J/cgtop2-2030-01-10.rec.gz b=$J/cgtop2-2030-01-11.rec.gz pid na nb
	clock_at "2030-01-10 23:59:50"
	env CGKIT_MOUNTINFO="$_cgk_tmp/mi" CGKIT_TEST_CLOCK_OFFSET="$CLK" "$T" --journal="$J" \
		-d 0.1 -n 0 >"$_cgk_tmp/out" 2>"$_cgk_tmp/err" &
	pid=$!
	_pids+=("$pid")
	CGK_WAIT_TICKS=1200 cgk_wait_for has_samples "$a" 2 || fail "hung: no samples on the first day"
	clock_at "2030-01-11 00:00:30"
	CGK_WAIT_TICKS=1200 cgk_wait_for has_samples "$b" 2 || fail "hung: no day file after midnight"
	kill -TERM "$pid"
	wait "$pid"
	_pids=()
	assertEquals "nothing on stdout" "" "$(cat "$_cgk_tmp/out")"
	assertEquals "nothing on stderr" "" "$(cat "$_cgk_tmp/err")"
	assertEquals "two day files" "cgtop2-2030-01-10.rec.gz
cgtop2-2030-01-11.rec.gz" "$(ls "$J")"
	assertEquals "the first day's file: its day's samples only" "2030-01-10" "$(sample_days "$a" | sort -u)"
	assertEquals "the second day's file: its day's samples only" "2030-01-11" "$(sample_days "$b" | sort -u)"
	assertTrue "gzip files" "gzip -dc '$a' | head -c 8 | grep -q CGTOPREC"
	na=$(sample_days "$a" | wc -l)
	nb=$(sample_days "$b" | wc -l)
	# the directory alone: the newest day; a window: both days in order, as one run
	assertEquals "--replay=DIR: the newest day" "$(sample_days "$b")" "$(sample_days "$J")"
	cgk_capture "$T" --replay="$J" --begin="2030-01-10 00:00" --end="2030-01-11 23:59" -F csv --fields=tasks
	assertEquals "window exit" 0 "$rc"
	assertEquals "window stderr" "" "$err"
	assertEquals "the window: both days' samples" "$((na + nb))" "$(echo "$out" | awk -F, '$2 == "/"' | wc -l)"
	assertEquals "in time order" "$(echo "$out" | awk -F, '$2 == "/" { print $1 }' | sort -n)" \
		"$(echo "$out" | awk -F, '$2 == "/" { print $1 }')"
	cgk_capture "$T" --replay="$J" --begin="2030-01-11 00:00" -F csv --fields=tasks
	assertEquals "a window of the second day: its samples" "$nb" "$(echo "$out" | awk -F, '$2 == "/"' | wc -l)"
	# --replay without a word after it, --replay FILE as before
	cgk_capture "$T" --replay "$b" -F csv --fields=tasks
	assertEquals "--replay FILE exit" 0 "$rc"
	assertEquals "--replay FILE: the file" "$nb" "$(echo "$out" | awk -F, '$2 == "/"' | wc -l)"
}

# --keep=7d on 2030-01-11: the day files whose day ended more than seven days ago go (01-03 and
# before), 01-04 on stay; what is not a day file stays.
test_keep() {
	local d
	mkdir -p "$J"
	for d in 01 02 03 04 05 10; do
		: >"$J/cgtop2-2030-01-$d.rec.gz"
	done
	: >"$J/notes.txt"
	: >"$J/cgtop2-2029-01-01.rec.gz.bak"
	clock_at "2030-01-11 12:00"
	jt --journal="$J" --keep=7d -n 1
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	assertEquals "older than 7 days removed" "cgtop2-2029-01-01.rec.gz.bak
cgtop2-2030-01-04.rec.gz
cgtop2-2030-01-05.rec.gz
cgtop2-2030-01-10.rec.gz
cgtop2-2030-01-11.rec.gz
notes.txt" "$(ls "$J")"
	jt --journal="$J" --keep=0 -n 1
	assertEquals "--keep=0 removes nothing" 6 "$(ls "$J" | wc -l)"
}

# --cap: the oldest day files go while all weigh more; the day's own file alone over it starts
# the day again (one line)
test_cap() {
	local d
	mkdir -p "$J"
	for d in 08 09 10; do
		head -c 6000 /dev/zero >"$J/cgtop2-2030-01-$d.rec.gz"
	done
	clock_at "2030-01-11 12:00"
	jt --journal="$J" --keep=0 --cap=13000 -n 1
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	assertEquals "the oldest removed" "cgtop2-2030-01-09.rec.gz
cgtop2-2030-01-10.rec.gz
cgtop2-2030-01-11.rec.gz" "$(ls "$J")"
	jt --journal="$J" --cap=1 -n 3 -d 0.05
	assertEquals "alone exit" 0 "$rc"
	assertEquals "alone: said once" "cgtop2: journal cgtop2-2030-01-11.rec.gz: over --cap=1 bytes alone; starting the day's file again" "$err"
	assertEquals "alone: the others removed" "cgtop2-2030-01-11.rec.gz" "$(ls "$J")"
	assertEquals "alone: the last sample kept" 1 "$(sample_days "$J/cgtop2-2030-01-11.rec.gz" | wc -l)"
}

# systemd stops cgkit-record.service with SIGTERM: the recorder closes the day's file (gzip's
# trailer written, gzip -t passes) and exits 0, and a replay reads every sample it wrote. HUP the
# same (INT too, but bash ignores it in a job it starts in the background).
test_term_closes_day_file() {
	local f=$J/cgtop2-2030-01-11.rec.gz pid sig before
	clock_at "2030-01-11 12:00"
	for sig in TERM HUP; do
		rm -rf "$J"
		env CGKIT_MOUNTINFO="$_cgk_tmp/mi" CGKIT_TEST_CLOCK_OFFSET="$CLK" "$T" --journal="$J" \
			-d 0.1 -n 0 >"$_cgk_tmp/out" 2>"$_cgk_tmp/err" &
		pid=$!
		_pids+=("$pid")
		CGK_WAIT_TICKS=1200 cgk_wait_for has_samples "$f" 3 || fail "hung: no samples"
		# the samples on disk when the signal is sent (each is flushed whole)
		before=$(sample_days "$f" | wc -l)
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		_pids=()
		assertEquals "$sig: exit" 0 "$rc"
		assertEquals "$sig: stderr" "" "$(cat "$_cgk_tmp/err")"
		assertTrue "$sig: gzip's trailer" "gzip -t '$f'"
		cgk_capture "$T" --replay="$f" -F csv --fields=tasks
		assertEquals "$sig: replay exit" 0 "$rc"
		assertEquals "$sig: replay stderr" "" "$err"
		assertTrue "$sig: the replay reads every sample written ($before before the signal)" \
			"[ $(echo "$out" | awk -F, '$2 == "/"' | wc -l) -ge $before ]"
	done
}

# A recorder killed (SIGKILL) leaves the day's file without gzip's trailer; the next one on the
# same day appends after its samples, and a replay reads both runs'.
test_killed_then_appended() {
	local f=$J/cgtop2-2030-01-11.rec.gz pid
	clock_at "2030-01-11 12:00"
	env CGKIT_MOUNTINFO="$_cgk_tmp/mi" CGKIT_TEST_CLOCK_OFFSET="$CLK" "$T" --journal="$J" \
		-d 0.1 -n 0 >/dev/null 2>&1 &
	pid=$!
	_pids+=("$pid")
	CGK_WAIT_TICKS=1200 cgk_wait_for has_samples "$f" 3 || fail "hung: no samples"
	cgk_kill_pids
	assertFalse "cut short: no trailer" "gzip -t '$f' 2>/dev/null"
	local before
	before=$(sample_days "$f" | wc -l)
	jt --journal="$J" -n 2 -d 0.05
	assertEquals "exit" 0 "$rc"
	assertEquals "stderr" "" "$err"
	assertTrue "whole again" "gzip -t '$f'"
	assertEquals "both runs' samples" "$((before + 2))" "$(sample_days "$f" | wc -l)"
}

. "$SHUNIT2"
