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

test_teardown() {
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

. "$SHUNIT2"
