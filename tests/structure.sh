#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shape ARCHITECTURE.md promises: common/ is layered (no include cycle between its
# subjects), no C file grows past what a person reads in one sitting, numbers are read by
# common/parse.c alone.
. "$(dirname "$0")/lib.sh"

# The subject a file of common/ belongs to (stats_tree.c, stats_collect.c, stats_members.c and
# stats_impl.h are stats, walk.c is cgroup, record_read.c and record_impl.h are record,
# watch_files.c and watch_impl.h are watch)
subject() {
	case $1 in
	stats_tree | stats_collect | stats_limits | stats_members | stats_impl) echo stats ;;
	walk) echo cgroup ;;
	record_read | record_impl) echo record ;;
	watch_files | watch_psi | watch_impl) echo watch ;;
	*) echo "$1" ;;
	esac
}

# "a b" lines: subject a includes subject b
include_edges() {
	local f m inc
	for f in "$CGKIT_TOP"/common/*.[ch]; do
		m=$(subject "$(basename "${f%.*}")")
		sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
			[ "$inc" = stats_impl ] && inc=stats
			[ "$inc" = record_impl ] && inc=record
			[ "$inc" = watch_impl ] && inc=watch
			[ "$inc" != "$m" ] && echo "$m $inc"
		done
	done | sort -u
}

test_no_include_cycle() {
	command -v tsort >/dev/null || { cgk_skip "no tsort(1)"; return 0; }
	local edges
	edges=$(include_edges)
	assertNotEquals "edges found" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

# "a b" lines: a uses a symbol (a function, a table) that b defines, from the symbol tables of
# the objects in $CGKIT_OBJ/$1 (common: a and b are subjects; elsewhere each file is one): a
# call cycle can hide behind headers that form none
call_edges() {
	local dir=$1 o m
	for o in "$CGKIT_OBJ/$dir"/*.o; do
		m=$(basename "${o%.o}")
		[ "$dir" = common ] && m=$(subject "$m")
		nm "$o" | awk -v m="$m" \
			'$1 == "U" { print "U", m, $2 } NF == 3 && $2 ~ /^[TDBR]$/ { print "D", m, $3 }'
	done | awk '$1 == "D" { def[$3] = $2; next } { use[++n] = $2 " " $3 }
		END { for (i = 1; i <= n; i++) { split(use[i], p, " ")
			if ((p[2] in def) && def[p[2]] != p[1]) print p[1], def[p[2]] } }' | sort -u
}

no_call_cycle() {
	local dir=$1 edges
	command -v tsort >/dev/null || { cgk_skip "no tsort(1)"; return 0; }
	command -v nm >/dev/null || { cgk_skip "no nm(1) (binutils)"; return 0; }
	ls "$CGKIT_OBJ/$dir"/*.o >/dev/null 2>&1 || { cgk_skip "no objects in $CGKIT_OBJ/$dir (make first)"; return 0; }
	edges=$(call_edges "$dir")
	assertNotEquals "edges found in $dir" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop in $dir: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

test_no_call_cycle() {
	no_call_cycle common
}

# issue 29: cgtop2's files call one way, from main.c down to the sinks, the pipeline and the
# sources, never back up (report_errno in main.c, replay in the recorder, did)
test_no_call_cycle_cgtop2() {
	no_call_cycle cmd/cgtop2
}

# "a b" lines: file a of cmd/cgtop2 (foo.c and foo.h are one, foo) includes b's header
cgtop2_include_edges() {
	local f m inc
	for f in "$CGKIT_TOP"/cmd/cgtop2/*.[ch]; do
		m=$(basename "${f%.*}")
		sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
			[ -e "$CGKIT_TOP/cmd/cgtop2/$inc.h" ] && [ "$inc" != "$m" ] && echo "$m $inc"
		done
	done | sort -u
}

test_no_include_cycle_cgtop2() {
	command -v tsort >/dev/null || { cgk_skip "no tsort(1)"; return 0; }
	local edges
	edges=$(cgtop2_include_edges)
	assertNotEquals "edges found" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

# issue 11: 800 (it was 900 until common/migrate.c and cmd/cgexec2/main.c were split)
max_lines=800

test_files_readable_in_one_sitting() {
	local f n big=
	for f in "$CGKIT_TOP"/common/*.c "$CGKIT_TOP"/cmd/*/*.c; do
		n=$(wc -l <"$f")
		[ "$n" -gt "$max_lines" ] && big+=" ${f#"$CGKIT_TOP"/}($n)"
	done
	assertEquals "C files over $max_lines lines:$big" "" "$big"
}

# issue 29: a file read with its own header (foo.c with foo.h beside it) fits the same sitting.
# The tools' rooms only: common/'s stats, watch and cgroup are issue 29's open moves 3 to 5.
test_rooms_readable_in_one_sitting() {
	local f n big=
	for f in "$CGKIT_TOP"/cmd/*/*.c; do
		n=$(cat "$f" "$([ -e "${f%.c}.h" ] && echo "${f%.c}.h" || echo /dev/null)" | wc -l)
		[ "$n" -gt "$max_lines" ] && big+=" ${f#"$CGKIT_TOP"/}($n)"
	done
	assertEquals "C files with their header over $max_lines lines:$big" "" "$big"
}

# The C library's number parsers (strtoul and kin, atoi, sscanf's numbers) take blanks, signs
# and wrap-around that cgkit refuses: common/parse.c is the one place that reads a number.
test_numbers_only_through_parse() {
	local hits
	hits=$(grep -nE '\<(strto(u?ll?|d|f|ld|[iu]max)|ato[ifl]l?)[[:space:]]*\(|\<sscanf\(.*%[-0-9]*("[[:space:]]*)?(SCN|[dilux])' \
		"$CGKIT_TOP"/common/*.[ch] "$CGKIT_TOP"/cmd/*.h "$CGKIT_TOP"/cmd/*/*.[ch] |
		grep -v '^[^:]*/common/parse\.c:' | sed "s|$CGKIT_TOP/||")
	assertEquals "number parsing outside common/parse.c" "" "$hits"
}

# lib.sh's setUp/tearDown end a skip and time the test: a suite that defined its own would
# turn one skip into silently skipped asserts for every later test. The suite's hook is
# setup_test and teardown_test: shunit2 runs every function named test* as a test, one that
# cannot fail.
test_suites_keep_lib_hooks() {
	local bad
	bad=$(grep -l '^\(tearDown\|setUp\|test_teardown\)()' "$CGKIT_TOP"/tests/*.sh | grep -v '/lib\.sh$')
	assertEquals "suites defining tearDown/setUp (use teardown_test)" "" "$bad"
}

# A test that may run only in the VM guests says so with cgk_need_vm or cgk_in_vm, never by
# reading CGKIT_VM before a skip itself: the guest of the host's own layout runs only the tests
# that ask for the VM by those names (tests/vm/check), so a hand-made gate would never run there.
test_vm_gates_by_name() {
	local bad
	bad=$(grep -nE '\[ -n "\$\{CGKIT_VM:-\}"? *\] *(\|\||&&).*cgk_skip' "$CGKIT_TOP"/tests/*.sh |
		grep -v '^[^:]*/lib\.sh:' | sed "s|$CGKIT_TOP/||")
	assertEquals "VM-only tests gated by hand (use cgk_need_vm)" "" "$bad"
}

. "$SHUNIT2"
