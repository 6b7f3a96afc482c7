#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Habits users bring from libcgroup, systemd-cgtop and coreutils, one test each: -h is help;
# a write error on stdout is said and fails the tool; cgtop2 into a pipe takes one sample;
# usage errors (an unknown or unmounted controller too) exit 64 in every tool; cgcreate2's
# words for the root and for a path given as /sys/fs/cgroup/...; what -x -R -k -v says.
. "$(dirname "$0")/lib.sh"

C=$CGKIT_BIN/cgcreate2
E=$CGKIT_BIN/cgexec2
M=$CGKIT_BIN/cgmigrate
T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
TOOLS="cgcreate2 cgexec2 cgmigrate cgtop2"
KIDS=()

teardown_test() {
	local p
	for p in "${KIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${KIDS[@]}"; do wait "$p" 2>/dev/null; done
	KIDS=()
}

# -h prints what --help prints, on stdout, and exits 0; -? stays.
test_h_is_help() {
	local t help
	for t in $TOOLS; do
		help=$("$CGKIT_BIN/$t" --help)
		cgk_capture "$CGKIT_BIN/$t" -h
		assertEquals "$t -h: exit" 0 "$rc"
		assertEquals "$t -h: no stderr" "" "$err"
		assertEquals "$t -h: the --help text" "$help" "$out"
		assertContains "$t --help lists -h" "$out" "  -h "
		cgk_capture "$CGKIT_BIN/$t" -?
		assertEquals "$t -?: exit" 0 "$rc"
		assertEquals "$t -?: the --help text" "$help" "$out"
	done
}

# cgtop2 -H stays --threads: -h took no letter a tool already used.
test_cgtop2_H_stays_threads() {
	cgk_capture "$T" --help
	assertContains "$out" "-H, --threads"
}

# What coreutils' close_stdout does: --help, --version and output into a full device fail
# with one line that says it is the write to stdout that failed.
test_write_error_on_stdout() {
	local t want
	for t in $TOOLS; do
		want=1
		[ "$t" = cgexec2 ] && want=125
		cgk_capture "$CGKIT_BIN/$t" --help
		"$CGKIT_BIN/$t" --help >/dev/full 2>"$_cgk_tmp/err"
		rc=$?
		assertEquals "$t --help >/dev/full: exit" "$want" "$rc"
		assertEquals "$t --help >/dev/full: the line" \
			"$t: write error on standard output: No space left on device" "$(cat "$_cgk_tmp/err")"
		"$CGKIT_BIN/$t" --version >/dev/full 2>"$_cgk_tmp/err"
		assertEquals "$t --version >/dev/full: exit" "$want" "$?"
		"$CGKIT_BIN/$t" -h >/dev/full 2>/dev/null
		assertEquals "$t -h >/dev/full: exit" "$want" "$?"
	done
}

# cgtop2's own output buffer: ENOSPC is the output's, not cgroup.max.descendants'.
test_cgtop2_write_error() {
	"$T" -b -n 1 >/dev/full 2>"$_cgk_tmp/err"
	rc=$?
	err=$(cat "$_cgk_tmp/err")
	assertEquals "exit" 1 "$rc"
	assertEquals "the line" "cgtop2: write error on standard output: No space left on device" "$err"
	assertNotContains "no cgroup error" "$err" "max.descendants"
	"$T" -b -n 1 -F json >/dev/full 2>/dev/null
	assertEquals "json: exit" 1 "$?"
}

# A reader that goes away ends cgtop2 quietly, as before: no message, exit 0.
test_cgtop2_closed_pipe_quiet() {
	local st
	"$T" -b -n 50 -d 0.02 2>"$_cgk_tmp/err" | head -1 >/dev/null
	st=${PIPESTATUS[0]}
	assertEquals "exit" 0 "$st"
	assertEquals "no message" "" "$(cat "$_cgk_tmp/err")"
}

# Output the caller closed (>&-) with nothing to write is no error (cgcreate2 -x -q of none).
test_closed_stdout_nothing_written() {
	"$C" -x -q -g "/$S.none" >&- 2>"$_cgk_tmp/err"
	assertEquals "exit" 0 "$?"
	assertEquals "no message" "" "$(cat "$_cgk_tmp/err")"
}

# ---- cgtop2 into a pipe or a file: one snapshot, as systemd-cgtop ---------------------------

# Old code streamed until interrupted: timeout(1) ended it (124) with many snapshots.
test_cgtop2_one_snapshot_into_a_pipe() {
	local n
	n=$(timeout 600 "$T" -b -d 0.05 | grep -c '^CGROUP')
	assertEquals "-b into a pipe: exit" 0 "${PIPESTATUS[0]}"
	assertEquals "-b into a pipe: one snapshot" 1 "$n"
	timeout 600 "$T" -d 0.05 >"$_cgk_tmp/snap" </dev/null
	assertEquals "into a file: exit" 0 "$?"
	assertEquals "into a file: one snapshot" 1 "$(grep -c '^CGROUP' "$_cgk_tmp/snap")"
	n=$(timeout 600 "$T" -F json -d 0.05 | wc -l)
	assertEquals "json: one line" 1 "$n"
}

test_cgtop2_n_overrides() {
	local n
	n=$(timeout 600 "$T" -b -n 3 -d 0.05 | grep -c '^CGROUP')
	assertEquals "-n 3" 3 "$n"
	# -n 0: until interrupted, as the default on a terminal: five snapshots, then grep's exit
	# ends it by SIGPIPE (a count in a time window failed under ASan at load 40; the timeout
	# only guards against a hang)
	n=$(timeout 600 "$T" -b -n 0 -d 0.05 | grep -m 5 -c '^CGROUP')
	assertEquals "-n 0 streams past -n's default" 5 "$n"
	cgk_capture "$T" -b -n x
	assertEquals "-n x: exit" 64 "$rc"
	assertContains "-n x: says 0" "$err" "--iterations takes a number (0: until interrupted), not 'x'"
}

# What streams by design streams into a file too: --record (then --replay shows every sample)
# and --events (until --timeout, not one look).
# At least $1 samples in the recording $2, which may still be written.
replays_samples() {
	[ "$("$T" --replay "$2" -F json 2>/dev/null | wc -l)" -ge "$1" ]
}

test_cgtop2_streams_stay() {
	local t0 t1 pid
	# until the file being written replays three samples (a fixed 5 s gave two under ASan at
	# load 40), then stopped as by ^C: timeout passes its TERM on as INT; the 600 s guard a hang
	timeout -s INT 600 "$T" --record "$_cgk_tmp/rec" -d 0.1 >"$_cgk_tmp/rec.out" 2>&1 &
	pid=$!
	CGK_WAIT_TICKS=2400 cgk_wait_for replays_samples 3 "$_cgk_tmp/rec"
	kill -TERM "$pid"
	wait "$pid"
	assertEquals "--record: nothing on stdout" "" "$(cat "$_cgk_tmp/rec.out")"
	assertTrue "--replay shows every sample" \
		"[ $("$T" --replay "$_cgk_tmp/rec" -F json | wc -l) -gt 2 ]"
	# microseconds from bash itself: the VMs' date has no %N
	t0=${EPOCHREALTIME/[.,]/} # clock: a lower bound (it ran until --timeout), which load only lengthens
	"$T" --events --timeout 0.5 >"$_cgk_tmp/ev" 2>&1
	rc=$?
	t1=${EPOCHREALTIME/[.,]/} # clock: a lower bound
	assertEquals "--events: exit" 0 "$rc"
	assertTrue "--events ran until --timeout" "[ $(((t1 - t0) / 1000)) -ge 450 ]"
}

# ---- usage errors are 64 in every tool, an unknown or unmounted controller too --------------

test_usage_is_64() {
	local t
	for t in $TOOLS; do
		cgk_capture "$CGKIT_BIN/$t" --no-such-option
		assertEquals "$t --no-such-option" 64 "$rc"
	done
	cgk_capture "$E"
	assertEquals "cgexec2 without COMMAND" 64 "$rc"
}

# A layout of plain directories with only a pids hierarchy: memory is a controller this
# system does not mount, nosuch one no system has. Nothing is touched: the spec is refused.
test_controller_not_mounted_is_64() {
	local mi=$_cgk_tmp/mi.pids pid
	mkdir -p "$_cgk_tmp/fx/pids"
	printf '50 31 0:44 / %s/fx/pids rw - cgroup cgroup rw,pids\n' "$_cgk_tmp" >"$mi"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	KIDS+=("$pid")
	for c in memory nosuch; do
		CGKIT_MOUNTINFO=$mi cgk_capture "$C" -g "$c:/x"
		assertEquals "cgcreate2 $c: exit" 64 "$rc"
		assertContains "cgcreate2 $c: why" "$err" "cgcreate2: $c:/x: controller '$c' is not mounted"
		CGKIT_MOUNTINFO=$mi cgk_capture "$E" -g "$c:/x" touch "$_cgk_tmp/ran"
		assertEquals "cgexec2 $c: exit" 64 "$rc"
		assertContains "cgexec2 $c: why" "$err" "cgexec2: $c:/x: controller '$c' is not mounted"
		assertFalse "cgexec2 $c: COMMAND did not run" "[ -e $_cgk_tmp/ran ]"
		CGKIT_MOUNTINFO=$mi cgk_capture "$M" -g "$c:/x" "$pid"
		assertEquals "cgmigrate $c: exit" 64 "$rc"
		assertContains "cgmigrate $c: why" "$err" "cgmigrate: $c:/x: controller '$c' is not mounted"
	done
	assertEquals "nothing made" "" "$(ls "$_cgk_tmp/fx/pids")"
}

# ---- cgcreate2: the root, and a path given as /sys/fs/cgroup/... ----------------------------

# A hierarchy to work in: v1 pids where mounted, else the unified one. Sets PFX and MNT.
pick() {
	cgk_need_root || return 1
	if [ -n "$(cgk_mnt pids)" ] && [ "$(cgk_mnt pids)" != "$(cgk_mnt unified)" ]; then
		PFX=pids: MNT=$(cgk_mnt pids) LABEL=pids
	elif [ -n "$(cgk_mnt unified)" ]; then
		PFX= MNT=$(cgk_mnt unified) LABEL=unified
	else
		cgk_skip "neither a v1 pids nor a unified hierarchy ($(cgk_layout))"
		return 1
	fi
	cgk_sandbox "${LABEL}" >/dev/null || { fail "no sandbox"; return 1; }
}

# Old code: "mkdir: File exists", exit 1.
test_create_root() {
	local mi=$_cgk_tmp/mi.root
	mkdir -p "$_cgk_tmp/fx/pids"
	printf '50 31 0:44 / %s/fx/pids rw - cgroup cgroup rw,pids\n' "$_cgk_tmp" >"$mi"
	for spec in pids: pids:/; do
		CGKIT_MOUNTINFO=$mi cgk_capture "$C" -g "$spec"
		assertEquals "$spec: exit" 64 "$rc"
		assertEquals "$spec: what was meant" "cgcreate2: cgroup / (pids): create: the root cgroup always exists; name a cgroup below it (with -p an existing cgroup, the root too, is no error)" "$err"
	done
	pick || return 0
	cgk_capture "$C" -p -g "$PFX/"
	assertEquals "-p: the root exists, no error" 0 "$rc"
	assertEquals "-p: quiet" "" "$err$out"
}

# Old code: "cgroup /sys (pids): mkdir: the parent cgroup does not exist", exit 1.
test_mount_point_in_path() {
	pick || return 0
	local want="give the path inside the hierarchy: /$S/x" pid
	cgk_capture "$C" -g "$PFX$MNT/$S/x"
	assertEquals "cgcreate2: exit" 64 "$rc"
	assertEquals "cgcreate2: what was meant" "cgcreate2: $PFX$MNT/$S/x: $MNT is where cgroups are mounted, not a cgroup: $want" "$err"
	assertFalse "nothing made" "[ -e $MNT/$S/x ] || [ -e $MNT/sys ]"
	cgk_capture "$C" -p "/sys/fs/cgroup/$S/x"
	assertEquals "bare /sys/fs/cgroup/...: exit" 64 "$rc"
	assertContains "bare /sys/fs/cgroup/...: what was meant" "$err" "$want"
	assertFalse "nothing made" "[ -e $MNT/$S/x ] || [ -e $MNT/sys ]"
	cgk_capture "$E" -g "$PFX$MNT/$S" true
	assertEquals "cgexec2: exit" 64 "$rc"
	assertContains "cgexec2: what was meant" "$err" "give the path inside the hierarchy: /$S"
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	KIDS+=("$pid")
	cgk_capture "$M" -g "$PFX$MNT/$S" "$pid"
	assertEquals "cgmigrate: exit" 64 "$rc"
	assertContains "cgmigrate: what was meant" "$err" "give the path inside the hierarchy: /$S"
}

# ---- cgcreate2 -x -R -k -v: what it removed and which signals it sent -----------------------

test_remove_kill_verbose() {
	pick || return 0
	local sb=$MNT/$S p1 p2 p3 p4
	mkdir -p "$sb/k/a/b" "$sb/one" "$sb/stubborn" || { fail "mkdir"; return; }
	sleep 300 &
	p1=$!
	cgk_execd "$p1" sleep
	sleep 300 &
	p2=$!
	cgk_execd "$p2" sleep
	sleep 300 &
	p3=$!
	cgk_execd "$p3" sleep
	# TERM ignored across exec: only the KILL after the grace ends it
	sh -c 'trap "" TERM; exec sleep 300' &
	p4=$!
	cgk_execd "$p4" sleep
	KIDS+=("$p1" "$p2" "$p3" "$p4")
	echo "$p1" >"$sb/k/a/cgroup.procs" && echo "$p2" >"$sb/k/a/b/cgroup.procs" &&
		echo "$p3" >"$sb/one/cgroup.procs" && echo "$p4" >"$sb/stubborn/cgroup.procs" ||
		{ fail "cannot place the sleeps"; return; }
	# a generous grace where TERM ends every process: the removal goes on as soon as the cgroup is
	# empty, and a loaded machine (CI beside a guest) took more than 0.5 s to run a signalled sleep
	cgk_capture "$C" -x -R -k -v --grace 120 -g "$PFX/$S/k"
	assertEquals "subtree: exit" 0 "$rc"
	assertEquals "subtree: what it did" "sent SIGTERM to 2 processes in cgroup /$S/k ($LABEL)
removed cgroup /$S/k/a/b ($LABEL)
removed cgroup /$S/k/a ($LABEL)
removed cgroup /$S/k ($LABEL)" "$out"
	cgk_capture "$C" -x --kill=HUP -v --grace 120 -g "$PFX/$S/one"
	assertEquals "one: what it did" "sent SIGHUP to 1 process in cgroup /$S/one ($LABEL)
removed cgroup /$S/one ($LABEL)" "$out"
	cgk_capture "$C" -x -k -v --grace 0.3 -g "$PFX/$S/stubborn"
	assertEquals "stubborn: what it did" "sent SIGTERM to 1 process in cgroup /$S/stubborn ($LABEL)
killed 1 process still in cgroup /$S/stubborn ($LABEL) after the grace
removed cgroup /$S/stubborn ($LABEL)" "$out"
	# the cgroups could go only once empty: every sleep ended (reaped here)
	{ wait "$p1" "$p2" "$p3" "$p4"; } 2>/dev/null
	KIDS=()
}

# libcgroup's cgdelete -r is recursive removal: -x -r PATH points at -R, before or after -x, and
# removes nothing (the old code said only "--set takes FILE=VALUE")
test_cgcreate2_x_r_is_recursive_elsewhere() {
	pick || return 0
	mkdir -p "$MNT/$S/d/kid" || { fail "mkdir"; return; }
	local want="cgcreate2: -r is --set FILE=VALUE, not '/$S/d'; to remove a subtree (cgdelete -r) use -x -R
Try \`cgcreate2 --help' or \`cgcreate2 --usage' for more information."
	cgk_capture "$C" -x -r "/$S/d"
	assertEquals "-x -r: exit" 64 "$rc"
	assertEquals "-x -r: the hint" "$want" "$err"
	cgk_capture "$C" -r "/$S/d" --remove
	assertEquals "-r then --remove: exit" 64 "$rc"
	assertEquals "-r then --remove: the hint" "$want" "$err"
	assertTrue "nothing removed" "[ -d $MNT/$S/d/kid ]"
	# without -x, the plain usage line
	cgk_capture "$C" -r "/$S/d"
	assertContains "no -x: plain" "$err" "cgcreate2: --set takes FILE=VALUE, FILE an interface file's name"
}

# cgset -r on an existing cgroup is cgcreate2 -p -r: without -p the error says so
test_cgcreate2_set_existing_needs_p() {
	pick || return 0
	local setting=pids.max=50
	[ "$LABEL" = unified ] && setting=cgroup.max.descendants=5
	mkdir -p "$MNT/$S/e" || { fail "mkdir"; return; }
	cgk_capture "$C" -g "$PFX/$S/e" -r "$setting"
	assertEquals "exit" 1 "$rc"
	assertContains "the hint" "$err" "mkdir: File exists; -p sets the values on an existing cgroup (as cgset -r)"
	cgk_capture "$C" -p -g "$PFX/$S/e" -r "$setting"
	assertEquals "with -p ($err)" 0 "$rc"
}

# Old code: "moved 1 processes (1 threads)".
test_cgmigrate_plurals() {
	pick || return 0
	local pid
	mkdir -p "$MNT/$S/m" || { fail "mkdir"; return; }
	sleep 300 &
	pid=$!
	cgk_execd "$pid" sleep
	KIDS+=("$pid")
	cgk_capture "$M" -v -g "$PFX/$S/m" "$pid"
	assertEquals "exit" 0 "$rc"
	assertEquals "one process" "moved 1 process (1 thread), 0 gone, 0 failed" "$(echo "$out" | grep -v '^into ')"
}

# issue 44: an init script's cgcreate, translated line by line, fails on its second run; the
# error says what to add. Old code: "mkdir: File exists" alone.
test_cgcreate2_existing_says_p() {
	pick || return 0
	mkdir -p "$MNT/$S/again" || { fail "mkdir"; return; }
	cgk_capture "$C" -g "$PFX/$S/again"
	assertEquals "exit" 1 "$rc"
	assertEquals "the line" "cgcreate2: cgroup /$S/again ($LABEL): mkdir: File exists; use -p to take an existing cgroup as made (as cgcreate does)" "$err"
	cgk_capture "$C" -p -g "$PFX/$S/again"
	assertEquals "with -p" 0 "$rc"
}

# issue 44: getopt takes an unambiguous prefix for the option, so "cgtop2 --list" served
# metrics as --listen and "cgcreate2 --rem" removed. An option that serves, acts or writes
# is taken only whole: its abbreviation is a usage error naming it, before anything runs (the
# timeout only guards the old code's server). Old code: cgtop2 served, cgcreate2 removed.
test_acting_option_not_abbreviated() {
	local w
	for w in --lis --liste --liste=127.0.0.1:1 --reco --exe; do
		cgk_capture timeout 60 "$T" -b -n 1 "$w"
		assertEquals "cgtop2 $w: exit" 64 "$rc"
		assertContains "cgtop2 $w: named" "$err" "cgtop2: option '${w%%=*}' abbreviates '--"
		assertContains "cgtop2 $w: the rule" "$err" "write it whole"
		assertEquals "cgtop2 $w: no output" "" "$out"
	done
	cgk_capture timeout 60 "$T" --list
	assertEquals "cgtop2 --list: a usage error" 64 "$rc"
	cgk_capture timeout 60 "$T" -b -n 1 --lis
	assertContains "the full name" "$err" "'--listen'"
	pick || return 0
	mkdir -p "$MNT/$S/keep" || { fail "mkdir"; return; }
	for w in --rem --remo; do
		cgk_capture "$C" "$w" -g "$PFX/$S/keep"
		assertEquals "cgcreate2 $w: exit" 64 "$rc"
		assertContains "cgcreate2 $w: named" "$err" "abbreviates '--remove'"
		assertTrue "cgcreate2 $w: nothing removed" "[ -d $MNT/$S/keep ]"
	done
	cgk_capture "$M" --fro "$PFX/$S/keep" -g "$PFX/$S/keep"
	assertEquals "cgmigrate --fro: exit" 64 "$rc"
	assertContains "cgmigrate --fro: named" "$err" "abbreviates '--from'"
	# written whole, and abbreviations of options that only read, as before
	cgk_capture "$C" --remove -g "$PFX/$S/keep"
	assertEquals "--remove whole ($err)" 0 "$rc"
	assertFalse "removed" "[ -d $MNT/$S/keep ]"
	cgk_capture "$T" --bat --iter 1 --dep 0
	assertEquals "reading options abbreviate ($err)" 0 "$rc"
}

. "$SHUNIT2"
