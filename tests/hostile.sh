#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile input, the start of a corpus: what an attacker (or a buggy admin) can plant under a
# cgroup or pass as an argument. A tmpfs mounted over a sandbox cgroup in a private mount
# namespace (cgroupfs itself allows no FIFO and no fake file) with a fake cgroup.procs or
# FIFOs named like interface files; cgroup names and -r values with ESC, newlines, C1
# controls and invalid UTF-8 echoed in error lines. Nothing outside the sandbox is touched;
# the only processes signalled are the sleepers a test starts, by PID.
. "$(dirname "$0")/lib.sh"

C=$CGKIT_BIN/cgcreate2
M=$CGKIT_BIN/cgmigrate
T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
KIDS=()

teardown_test() {
	local p
	for p in "${KIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	KIDS=()
}

can_unshare() {
	cgk_need_prog unshare "a mount namespace" || return 1
	unshare -m --propagation private true 2>/dev/null ||
		{ cgk_skip "cannot make a mount namespace here (unshare -m fails)"; return 1; }
}

# A sleeper of our own, left where the test runs (never moved): its PID in $SLEEPER.
sleeper() {
	sleep 300 &
	SLEEPER=$!
	cgk_execd "$SLEEPER" sleep
	KIDS+=("$SLEEPER")
}

# In a private mount namespace: a tmpfs over directory $1, the shell code $2 run inside it to
# plant files, then the rest under `timeout 10`. Sets $rc $out $err; 124 is a hang.
over_tmpfs() {
	local dir=$1 plant=$2
	shift 2
	cgk_capture unshare -m --propagation private bash -c '
		dir=$1 plant=$2
		shift 2
		mount -t tmpfs cgkit-hostile "$dir" || exit 99
		(cd "$dir" && eval "$plant") || exit 98
		exec timeout -k 5 10 "$@"' _ "$dir" "$plant" "$@"
}

# stderr is one line, and no byte of it is a control character other than its newline. The
# shell's own patterns, byte by byte in the C locale, where grep and wc cost four processes a
# check: the corpus asks this hundreds of times, and a TCG guest pays milliseconds a process.
# The od dump is made only for a failure.
assert_one_safe_line() {
	local LC_ALL=C line=${err//$'\n'/} ok=0
	[[ $err != *$'\n'* ]] || { fail "$1: one line on stderr: $err"; ok=1; }
	[[ $line != *[[:cntrl:]]* ]] ||
		{ fail "$1: a raw control byte on stderr: $(printf '%s' "$err" | od -c | head -n 3)"; ok=1; }
	[[ $err != *$'\xc2'[$'\x80'-$'\x9f']* && $err != *$'\xff'* ]] ||
		{ fail "$1: a raw C1 control or invalid UTF-8 on stderr"; ok=1; }
	return $ok
}

# (a) a fake cgroup.procs on a tmpfs over a cgroup: -x -R -k must not signal what it lists.
kill_through_tmpfs() {
	local h=$1 spec=$2 sb
	sb=$(cgk_mnt "$h")/$S
	mkdir "$sb/victim" || { fail "mkdir $sb/victim"; return; }
	sleeper
	over_tmpfs "$sb/victim" \
		"echo $SLEEPER >cgroup.procs; echo $SLEEPER >tasks; printf 'populated 1\n' >cgroup.events" \
		"$C" -x -R -k --grace=0 "$spec"
	assertTrue "$h: the listed sleeper is alive" "kill -0 $SLEEPER"
	assertEquals "$h: exit ($err)" 1 "$rc"
	assert_one_safe_line "$h"
	assertTrue "$h: says it is not cgroupfs: $err" \
		"printf '%s' \"\$err\" | grep -qE 'not a cgroup filesystem|not this hierarchy.s cgroupfs'"
	rmdir "$sb/victim"
}

test_kill_through_tmpfs_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	can_unshare || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	kill_through_tmpfs unified "/$S/victim"
}

test_kill_through_tmpfs_v1() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	can_unshare || return 0
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	kill_through_tmpfs pids "pids:/$S/victim"
}

# (b) FIFOs named like interface files: nothing may block on them.
FIFOS="mkfifo cgroup.procs cgroup.threads tasks cgroup.events cgroup.freeze cgroup.kill \
cgroup.type cgroup.controllers cgroup.subtree_control cgroup.stat cpu.stat cpu.pressure \
memory.current memory.stat memory.pressure io.stat io.pressure pids.current freezer.state"

test_fifo_does_not_block() {
	local sb
	cgk_need_root || return 0
	cgk_need_unified || return 0
	can_unshare || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	sb=$(cgk_mnt unified)/$S
	mkdir "$sb/fifo" || { fail "mkdir"; return; }

	over_tmpfs "$sb/fifo" "$FIFOS" "$C" -x "/$S/fifo"
	assertEquals "cgcreate2 -x: exit, 124 is a hang ($err)" 1 "$rc"
	assert_one_safe_line "cgcreate2 -x"
	assertContains "cgcreate2 -x: why" "$err" "cgcreate2: cgroup /$S/fifo (unified): "

	over_tmpfs "$sb/fifo" "$FIFOS" "$M" -z -F "/$S/fifo" -g "/$S"
	assertEquals "cgmigrate -z: exit, 124 is a hang ($err)" 1 "$rc"
	assert_one_safe_line "cgmigrate -z"
	assertContains "cgmigrate -z: why" "$err" "cgmigrate: cgroup /$S/fifo (unified): "

	# the sampler opens its files itself (cmd/cgtop2/sampler/stats.c): no hang, nothing read from a FIFO
	over_tmpfs "$sb/fifo" "$FIFOS" "$T" -b -n 1 "/$S/fifo"
	assertNotEquals "cgtop2: no hang" 124 "$rc"
	assertTrue "cgtop2: exit 0 or 1 ($rc: $err)" "[ $rc -le 1 ]"
	rmdir "$sb/fifo"
}

# -r onto a file planted on a tmpfs: refused (writes were checked before; they stay so).
test_regular_file_planted_is_not_written() {
	local sb
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	can_unshare || return 0
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	sb=$(cgk_mnt pids)/$S
	mkdir "$sb/w" || { fail "mkdir"; return; }
	over_tmpfs "$sb/w" ": >pids.max" "$C" -p -g "pids:/$S/w" -r pids.max=5
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "-r on tmpfs"
	rmdir "$sb/w"
}

# Quoting: values and names the user or the kernel hands over, echoed in one safe line.
test_quote_set_value() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	cgk_capture "$C" -g "pids:/$S/q" -r "pids.max=$(printf '\e[31mbad\e[0m\nsecond line')"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "-r value"
	assertContains "escaped" "$err" '\x1b[31mbad\x1b[0m'
}

test_quote_set_file_name() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	cgk_capture "$C" -r "$(printf 'cpu.we\e]0;owned\aight')=1" "/$S/q"
	# no interface file's name: refused with the arguments (argp's "Try" line follows)
	assertEquals "exit ($err)" 64 "$rc"
	assertEquals "argp's hint second" "Try \`cgcreate2 --help' or \`cgcreate2 --usage' for more information." "$(sed -n 2p <<<"$err")"
	err=$(head -n 1 <<<"$err")
	assert_one_safe_line "-r file"
	assertFalse "nothing made" "[ -e '$(cgk_mnt unified)/$S/q' ]"
	assertContains "escaped" "$err" 'cpu.we\x1b]0;owned\x07ight'
}

# Names that pass the spec check (no C0 control) but are not printable UTF-8.
test_quote_argument_name() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	cgk_capture "$C" -x "/$S/$(printf 'no\xc2\x9b2J\xffpe')"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "argument"
	assertContains "escaped" "$err" 'no\xc2\x9b2J\xffpe'
}

# A cgroup name from the kernel's listing: anything but "/" is a valid cgroup name.
test_quote_kernel_name() {
	local sb name
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	sb=$(cgk_mnt unified)/$S
	# the kernel refuses a newline in a cgroup name, not ESC or a tab
	name=$(printf 'k\e[7mX\e[2Kforged: line\t')
	mkdir -p "$sb/p/$name" || { fail "mkdir"; return; }
	sleeper
	echo "$SLEEPER" >"$sb/p/$name/cgroup.procs" || { fail "move"; return; }
	cgk_capture "$C" -x -R "/$S/p"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "listed name"
	assertContains "escaped" "$err" 'k\x1b[7mX\x1b[2Kforged: line\t'
	kill -9 "$SLEEPER"
	cgk_wait_for test ! -s "$sb/p/$name/cgroup.procs"
}

# No byte of $2 (lines on stdout) is a control character but the newlines, a C1 control or
# invalid UTF-8 ($1 names the check).
assert_safe_text() {
	local LC_ALL=C text=${2//$'\n'/}
	[[ $text != *[[:cntrl:]]* && $text != *$'\xc2'[$'\x80'-$'\x9f']* && $text != *$'\xff'* ]] ||
		fail "$1: raw bytes on stdout: $(printf '%s' "$2" | od -c | head -n 5)"
}

# $2 holds the text $3 (both escaped already); a failure shows them as od does, never raw
has_text() {
	[[ $2 == *"$3"* ]] ||
		fail "$1: not found: $(printf '%s' "$3" | od -c | head -n 3); in: $(printf '%s' "$2" | od -c | head -n 8)"
}

# -v names every cgroup it creates, signals, kills, moves from and removes escaped, as the
# error lines do: cgcreate2 -x -R -v printed listed names raw (an OSC title, a screen clear, a
# tab, a C1 CSI and invalid UTF-8 reached the terminal). All under qv/: later tests make d and m.
test_quote_verbose_names() {
	local sb osc clear c1 qosc qclear qc1
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_sandbox unified >/dev/null || { fail "no unified sandbox"; return; }
	sb=$(cgk_mnt unified)/$S/qv
	osc=$(printf 'o\e]0;owned\a') clear=$(printf 'c\e[2J\e[H\tT') c1=$(printf 'x\xc2\x9b2J\xffy')
	qosc='o\x1b]0;owned\x07' qclear='c\x1b[2J\x1b[H\tT' qc1='x\xc2\x9b2J\xffy'
	mkdir -p "$sb/v/$c1/$osc/$clear" "$sb/m/$c1/$osc" || { fail "mkdir"; return; }
	sleeper
	echo "$SLEEPER" >"$sb/v/$c1/$osc/cgroup.procs" || { fail "move"; return; }
	cgk_capture "$C" -x -R -k --grace=0 -v "/$S/qv/v/$c1"
	assertEquals "-x -R -k: exit" 0 "$rc"
	assertFalse "-x -R -k: removed" "[ -e '$sb/v/$c1' ]"
	assert_safe_text "-x -R -k -v" "$out"
	has_text "-x -R -k -v: the signal" "$out" "process in cgroup /$S/qv/v/$qc1 (unified)"
	has_text "-x -R -k -v: removed (C1)" "$out" "removed cgroup /$S/qv/v/$qc1 (unified)"
	has_text "-x -R -k -v: removed (OSC)" "$out" "removed cgroup /$S/qv/v/$qc1/$qosc (unified)"
	has_text "-x -R -k -v: removed (clear)" "$out" "removed cgroup /$S/qv/v/$qc1/$qosc/$qclear (unified)"

	sleeper
	echo "$SLEEPER" >"$sb/m/$c1/$osc/cgroup.procs" || { fail "move"; return; }
	cgk_capture "$C" -x -R -v --migrate-to-parent "/$S/qv/m/$c1"
	assertEquals "--migrate-to-parent: exit" 0 "$rc"
	assert_safe_text "--migrate-to-parent -v" "$out"
	has_text "--migrate-to-parent -v: moved" "$out" "from cgroup /$S/qv/m/$qc1 (unified) and its subtree to its parent /$S/qv/m"
	has_text "--migrate-to-parent -v: removed" "$out" "removed cgroup /$S/qv/m/$qc1/$qosc (unified)"

	cgk_capture "$C" -p -v "/$S/qv/c/$c1/z"
	assertEquals "create: exit" 0 "$rc"
	assert_safe_text "create -v" "$out"
	has_text "create -v" "$out" "created cgroup /$S/qv/c/$qc1/z (unified)"

	# cgmigrate's drain names its source the same way
	mkdir -p "$sb/d/$c1" || { fail "mkdir"; return; }
	sleeper
	echo "$SLEEPER" >"$sb/d/$c1/cgroup.procs" || { fail "move"; return; }
	cgk_capture "$M" -v -F "/$S/qv/d/$c1" -g "/$S/qv/d"
	assertEquals "cgmigrate -F: exit" 0 "$rc"
	assert_safe_text "cgmigrate -F -v" "$out"
	has_text "cgmigrate -F -v" "$out" "; /$S/qv/d/$qc1 (unified) empty after 1 round"
}

# 100 KB of value (an argument's limit is 128 KB) is cut, with "...", not echoed whole.
test_quote_bound() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	cgk_sandbox pids >/dev/null || { fail "no pids sandbox"; return; }
	cgk_capture "$C" -g "pids:/$S/q" -r "pids.max=$(head -c 100000 /dev/zero | tr '\0' '\033')"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "100 KB value"
	assertTrue "bounded: ${#err} bytes" "[ ${#err} -lt 4096 ]"
	assertContains "cut with ..." "$err" '...'
}

# --- The path corpus: every tool, every hostile path ---------------------------------------
#
# Each path goes to cgcreate2 (create, -x), cgexec2 -g, cgmigrate -g and -F and cgtop2, in
# the unified hierarchy and in v1 pids, from a scratch working directory. A refused path: the
# documented exit (64), one safe line naming the cgroup, and the trees unchanged: the sandbox
# in full, the tops of every hierarchy, the scratch directory and /tmp. A path that only needs
# normalising (a/./b, //, trailing /) names the same cgroup as its clean form, which the run
# creates, uses and removes; nothing else appears.

E=$CGKIT_BIN/cgexec2
MARK=cgkmark.$$
REASON=

# 254 'b's: a component of 255 bytes with its "/" (or with one more 'b')
B254=$(printf '%0254d' 0 | tr 0 b)

# A path "/$S/..." of exactly $1 bytes made of 255-byte components (and a shorter last one).
path_of_len() {
	local want=$1 p="/$S"
	# strictly less: a last component of at least one byte must fit ("/$S" of 15 bytes, the
	# guests' 3-digit pids, made 4096 come out as 4095 with <=)
	while [ $((${#p} + 256)) -lt "$want" ]; do p="$p/$B254"; done
	[ $((want - ${#p} - 1)) -gt 0 ] && p="$p/$(printf '%0*d' $((want - ${#p} - 1)) 0 | tr 0 c)"
	printf '%s' "$p"
}

# What may differ between two snapshots is nothing: the sandbox of every hierarchy in full and
# the scratch directory (after each call), plus (after each path, "snapshot all") the top of
# every hierarchy (other runs' sandboxes, cgkit-test.* whatever follows the dot, come and go:
# left out) and anything named like our marker in /tmp, /var/tmp and /.
# One find for the tops and one for the sandboxes: the corpus takes hundreds of snapshots, and
# a find per hierarchy (thirteen in the legacy guest) is thirteen slow process starts under TCG.
snapshot() {
	local m tops=() sbs=()
	while read -r m; do
		tops+=("$m")
		[ -d "$m/$S" ] && sbs+=("$m/$S")
	done < <(cgk_all_mnts)
	[ "$1" = all ] && find "${tops[@]}" -maxdepth 1 -type d | grep -v '/cgkit-test\.[^/]*$'
	find "${sbs[@]}" "$SCRATCH"
	[ "$1" = all ] && find /tmp /var/tmp / -maxdepth 2 -name "*$MARK*" 2>/dev/null
}

assert_same_trees() {
	[ "$2" = "$3" ] && return 0
	fail "$1: the trees changed: $(diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") |
		head -c 600 | od -c | head -n 8)"
}

# Run one tool on a path in the scratch directory: $rc $out $err; the trees must not change.
# In the TCG guests only the case's own snapshots (corpus_refused's, before and after all nine
# tools) are taken: two more per tool made the suite outrun its 900 s there. The property is
# the same; a change is then named by the case, not by the tool.
corpus_run() {
	local what=$1 before here
	shift
	[ -n "${CGKIT_VM:-}" ] || before=$(snapshot)
	here=$PWD
	cd "$SCRATCH" || { fail "cd $SCRATCH"; return; }
	cgk_capture "$@"
	cd "$here" || fail "cd $here"
	[ -n "${CGKIT_VM:-}" ] || assert_same_trees "$what" "$before" "$(snapshot)"
}

# One refused call: 64, one safe line that names the cgroup ($2), the trees unchanged.
refused() {
	local what=$1 named=$2
	shift 2
	corpus_run "$what $named" "$@"
	assertEquals "$what $named: exit ($err)" 64 "$rc"
	# a usage error: the line, then argp's pointer to --help (dropped in the shell: no process)
	local l kept=() try='^Try `[a-z0-9]* --help'"'"' or `[a-z0-9]* --usage'"'"' for more information\.$'
	while IFS= read -r l; do [[ $l =~ $try ]] || kept+=("$l"); done <<<"$err"
	printf -v err '%s\n' "${kept[@]}"
	cgk_trim err
	assert_one_safe_line "$what $named"
	[[ $err == *"$named"* ]] || fail "$what: names the cgroup $named: $err"
	[ -z "$REASON" ] || [[ $err =~ $REASON ]] || fail "$what: says why ($REASON): $err"
}

# A refused path $2 in hierarchy $1, named $3 in the line, through every tool.
corpus_refused() {
	local h=$1 p=$2 named=$3 spec to before
	spec=$p to=/$S
	[ "$h" != unified ] && spec=$h:$p to=$h:/$S
	before=$(snapshot all)
	sleeper
	refused "$h cgcreate2" "$named" "$C" "$spec"
	refused "$h cgcreate2 -p" "$named" "$C" -p "$spec"
	refused "$h cgcreate2 -x" "$named" "$C" -x "$spec"
	refused "$h cgcreate2 -x -R -k" "$named" "$C" -x -R -k --grace=0 "$spec"
	refused "$h cgexec2 -g" "$named" "$E" -g "$spec" touch "$SCRATCH/ran"
	refused "$h cgexec2 -t -g" "$named" "$E" -t -g "$spec" touch "$SCRATCH/ran"
	refused "$h cgmigrate -g" "$named" "$M" -g "$spec" "$SLEEPER"
	refused "$h cgmigrate -F" "$named" "$M" -F "$spec" -g "$to"
	refused "$h cgtop2" "$named" "$T" -b -n 1 "$p"
	assertEquals "$h $named: the sleeper did not move" "$SLEEPER_AT" \
		"$(cgk_cgroup_of "$SLEEPER" "$h")"
	assert_same_trees "$h $named" "$before" "$(snapshot all)"
}

# A refused path never reaches the kernel: the tools' parser turns it away first, the same code
# on every layout and kernel. The host runs every case (and the fuzzer the parser); a TCG guest,
# where the nine tool starts of a case cost seconds, one case of each kind (a climb out, a
# length, a control byte) on its own layout's spellings.
corpus_paths() {
	local h=$1 sb=$2 long all=1
	[ -z "${CGKIT_VM:-}" ] || all=
	SLEEPER_AT=$(cgk_cgroup_of $$ "$h")
	corpus_refused "$h" "/$S/a/../.." "/$S/a/../.."
	if [ -n "$all" ]; then
		corpus_refused "$h" "/$S/.." "/$S/.."
		corpus_refused "$h" "/$S/a/.." "/$S/a/.."
		corpus_refused "$h" "/../x" "/../x"
		corpus_refused "$h" "/$S/./.." "/$S/./.."
		corpus_refused "$h" "/$S/../../../../../../tmp/$MARK" "/$S/../../../../../../tmp/$MARK"
		corpus_refused "$h" "../../../../tmp/$MARK" "../../../../tmp/$MARK"
	fi
	# the line gives the length as the reason (a 4096-byte path has no name over 255 bytes)
	REASON='4095|too long'
	corpus_refused "$h" "$(path_of_len 4097)" "/$S/bbbb"
	if [ -n "$all" ]; then
		corpus_refused "$h" "/$S/${B254}bb" "/$S/bbbb"
		corpus_refused "$h" "$(path_of_len 4096)" "/$S/bbbb"
		corpus_refused "$h" "$(path_of_len 8192)" "/$S/bbbb"
		long=$(path_of_len 20000)
		corpus_refused "$h" "$long" "/$S/bbbb"
	fi
	REASON=
	corpus_refused "$h" "/$S/$(printf 'e\e[2J')" "/$S/e\\x1b[2J"
	if [ -n "$all" ]; then
		corpus_refused "$h" "/$S/$(printf 'n\nl')" "/$S/n\\nl"
		corpus_refused "$h" "/$S/$(printf 't\tab')" "/$S/t\\tab"
		corpus_refused "$h" "/$S/$(printf 'd\x7fel')" "/$S/d\\x7fel"
	fi
}

# A path that names /$S/$2 once normalised: created by cgcreate2 -p, used by cgexec2, cgmigrate
# and cgtop2, removed by cgcreate2 -x; nothing else appears.
corpus_normalised() {
	local h=$1 p=$2 clean=$3 sb=$4 spec before cg
	spec=$p
	[ "$h" != unified ] && spec=$h:$p
	before=$(snapshot all)
	cgk_capture "$C" -p "$spec"
	assertEquals "$h create $clean: exit ($err)" 0 "$rc"
	assertTrue "$h create: $sb/$clean exists" "(cd \"\$sb\" && [ -d \"\$clean\" ])"
	cgk_capture "$E" -g "$spec" cat /proc/self/cgroup
	assertEquals "$h cgexec2 $clean: exit ($err)" 0 "$rc"
	cg=$(printf '%s\n' "$out" | if [ "$h" = unified ]; then sed -n 's/^0:://p'; else
		awk -F: -v c="$h" '$2 == c { print $3 }'; fi)
	assertEquals "$h cgexec2 ran in the clean path" "/$S/$clean" "$cg"
	sleeper
	cgk_capture "$M" -g "$spec" "$SLEEPER"
	assertEquals "$h cgmigrate -g $clean: exit ($err)" 0 "$rc"
	assertEquals "$h cgmigrate moved it" "/$S/$clean" "$(cgk_cgroup_of "$SLEEPER" "$h")"
	cgk_capture "$T" -b -n 1 "$p"
	assertEquals "$h cgtop2 $clean: exit ($err)" 0 "$rc"
	if [ "$h" = unified ]; then
		cgk_capture "$M" -F "$spec" -g "/$S"
	else
		cgk_capture "$M" -F "$spec" -g "$h:/$S"
	fi
	assertEquals "$h cgmigrate -F $clean: exit ($err)" 0 "$rc"
	assertEquals "$h cgmigrate -F drained it" "/$S" "$(cgk_cgroup_of "$SLEEPER" "$h")"
	cgk_capture "$C" -x "$spec"
	assertEquals "$h remove $clean: exit ($err)" 0 "$rc"
	assertFalse "$h remove: $sb/$clean is gone" "(cd \"\$sb\" && [ -d \"\$clean\" ])"
	# what -p made above the leaf stays (-x removes the leaf): undo it by hand, then compare;
	# relative to the sandbox, as the path with the mount point is over PATH_MAX
	while [ "$clean" != . ] && [ "$clean" != "${clean%/*}" ]; do
		clean=${clean%/*}
		(cd "$sb" && rmdir "$clean" 2>/dev/null)
	done
	assert_same_trees "$h $clean: nothing else made" "$before" "$(snapshot all)"
}

corpus() {
	local h=$1 sb
	sb=$(cgk_sandbox "$h") || { fail "no $h sandbox"; return; }
	SCRATCH=$_cgk_tmp/scratch
	mkdir -p "$SCRATCH"
	corpus_paths "$h" "$sb"
	# The spellings of one path are the parser's (the host's run and the fuzzer cover every
	# one); each costs a guest under TCG about 12 s of tool starts and snapshots, so a guest
	# takes one of them, beside the cases whose bytes and lengths meet its kernel.
	corpus_normalised "$h" "/$S/a/./b" a/b "$sb"
	if [ -z "${CGKIT_VM:-}" ]; then
		corpus_normalised "$h" "/$S/a//b" a/b "$sb"
		corpus_normalised "$h" "/$S///a" a "$sb"
		corpus_normalised "$h" "/$S/a/b/" a/b "$sb"
		corpus_normalised "$h" "/$S/a/b//" a/b "$sb"
		corpus_normalised "$h" "/$S/./a" a "$sb"
		corpus_normalised "$h" "//$S/a" a "$sb"
		corpus_normalised "$h" "$S/a" a "$sb"
	fi
	corpus_normalised "$h" "/$S/${B254}b" "${B254}b" "$sb"
	corpus_normalised "$h" "/$S/$(printf 'u\xff\xc2\x9b\xe2\x80\xae')" \
		"$(printf 'u\xff\xc2\x9b\xe2\x80\xae')" "$sb"
	# the longest path the kernel takes below the sandbox: 4095 bytes, 16 levels deep
	corpus_normalised "$h" "$(path_of_len 4095)" "$(path_of_len 4095 | cut -d/ -f3-)" "$sb"
	rmdir "$SCRATCH"
}

test_corpus_unified() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	corpus unified
}

test_corpus_v1_pids() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	corpus pids
}

# --- Faults: the kernel's limits, hit on purpose ----------------------------------------------

# The kernel refuses a mkdir beyond cgroup.max.descendants or .max.depth with EAGAIN (not
# ENOSPC): the line names the rule, and what the call made on the way down is removed.
test_mkdir_beyond_max_descendants() {
	local sb before
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sb=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	# a cgroup of its own: what earlier tests left in the sandbox counts as descendants
	mkdir "$sb/lim" && echo 1 >"$sb/lim/cgroup.max.descendants" ||
		{ fail "set max.descendants"; return; }
	before=$(find "$sb" -type d)
	cgk_capture "$C" -p "/$S/lim/a/b/c"
	assertEquals "exit ($err)" 1 "$rc"
	assert_one_safe_line "max.descendants"
	assertContains "names the cgroup: $err" "$err" "cgcreate2: cgroup /$S/lim/a/b (unified): mkdir: "
	assertContains "names the rule: $err" "$err" "cgroup.max.descendants"
	assertEquals "the parents it made are removed" "$before" "$(find "$sb" -type d)"
}

test_transient_beyond_max_depth() {
	local sb before
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sb=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	mkdir "$sb/d" && echo 0 >"$sb/d/cgroup.max.depth" || { fail "set max.depth"; return; }
	before=$(find "$sb" -type d)
	cgk_capture "$E" -t -g "/$S/d" touch "$_cgk_tmp/ran"
	assertEquals "exit ($err)" 125 "$rc"
	assert_one_safe_line "max.depth"
	assertContains "names the cgroup: $err" "$err" "cgexec2: cgroup /$S/d/cgexec2-"
	assertContains "names the rule: $err" "$err" "cgroup.max.depth"
	assertFalse "the command did not run" "[ -e \"\$_cgk_tmp/ran\" ]"
	assertEquals "no cgroup left" "$before" "$(find "$sb" -type d)"
}

# A source that does not exist is said so, not "no such interface file" (what the ENOENT of
# an interface file means), in both kinds of hierarchy.
test_drain_missing_source() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_v1 pids || return 0
	cgk_sandbox unified >/dev/null && cgk_sandbox pids >/dev/null || { fail "sandbox"; return; }
	cgk_capture "$M" -F "/$S/nope" -g "/$S"
	assertEquals "unified: exit ($err)" 1 "$rc"
	assertEquals "unified: the line" \
		"cgmigrate: cgroup /$S/nope (unified): drain: No such file or directory (the cgroup does not exist)" \
		"$err"
	cgk_capture "$M" -F "pids:/$S/nope" -g "pids:/$S"
	assertEquals "pids: exit ($err)" 1 "$rc"
	assertEquals "pids: the line" \
		"cgmigrate: cgroup /$S/nope (pids): drain: No such file or directory (the cgroup does not exist)" \
		"$err"
}

# Address space too small for malloc (ulimit -v; no ASan, which cannot run so): from the
# least that loads the binary up, every run of cgtop2 over 200 cgroups ends 0 or 1 with at
# most one safe line, never a signal. argp_parse's ENOMEM was ignored: cgtop2 went on with
# default arguments and crashed (SIGSEGV) reporting the mount table's ENOMEM.
test_cgtop2_low_address_space() {
	local sb lo v crashes=0 failed=0 tried=0
	cgk_need_root || return 0
	cgk_need_unified || return 0
	case $(ldd "$T" 2>/dev/null) in *libasan*) cgk_skip "ASan cannot run under ulimit -v"; return 0 ;; esac
	sb=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	mkdir "$sb/m" && (cd "$sb/m" && mkdir $(seq 1 200 | sed "s/^/c/")) || { fail "mkdir"; return; }
	# the least (in steps of 256 KB) under which the dynamic loader maps every library
	for lo in $(seq 4096 256 65536); do
		(ulimit -v "$lo" && exec "$T" --version) >/dev/null 2>&1 && break
	done
	# steps of 128 KB (512 in the VM guests, where each run takes seconds under TCG and the
	# host has covered the range): the failures worth seeing are each allocation's first
	# ENOMEM, which move with the libraries' sizes anyway
	local step=128
	[ -z "${CGKIT_VM:-}" ] || step=512
	for v in $(seq $((lo - 512)) "$step" $((lo + 4096))); do
		cgk_capture bash -c 'ulimit -v "$1" && exec "$2" -b -n 2 -d 0.05 "$3"' _ "$v" "$T" "/$S/m"
		tried=$((tried + 1))
		[ "$rc" = 127 ] && continue # the loader's own failure, before any of our code
		if [ "$rc" -gt 1 ]; then
			crashes=$((crashes + 1))
			fail "ulimit -v $v: exit $rc ($err)"
			continue
		fi
		# a library's constructor (GnuTLS, for the exporter) says its own failure first
		err=$(printf '%s\n' "$err" | grep -v '^Error in GnuTLS initialization: ')
		[ "$rc" = 1 ] && failed=$((failed + 1)) && assert_one_safe_line "ulimit -v $v" &&
			assertContains "ulimit -v $v: $err" "$err" "cgtop2: "
	done
	echo "# ulimit -v: $tried runs from $((lo - 512)) KB, $failed clean failures, $crashes crashes"
	assertTrue "some runs failed cleanly ($failed)" "[ $failed -gt 0 ]"
}

# pids.max=1 in the v1 pids hierarchy, used by a sleeper of ours. The kernel limits forks, not
# moves (a move is never refused for pids.max in v1): cgexec2's placement is a move, so
# COMMAND runs, its own fork fails and its status is cgexec2's (not 125); -t leaves no cgroup;
# cgmigrate's move goes through. COMMAND's /bin/true is not its last command: busybox sh (the
# guests') execs the last command of -c in place without a fork, which passed the limit.
test_pids_max_reached_v1() {
	local sb before s2
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	sb=$(cgk_sandbox pids) || { fail "no pids sandbox"; return; }
	mkdir "$sb/p" && echo 1 >"$sb/p/pids.max" || { fail "pids.max"; return; }
	sleeper
	echo "$SLEEPER" >"$sb/p/cgroup.procs" || { fail "move the sleeper"; return; }
	before=$(find "$sb" -type d)
	cgk_capture "$E" -g "pids:/$S/p" sh -c '/bin/true; echo forked'
	assertTrue "the command's fork failed: its status, not 125 ($rc: $err)" \
		"[ $rc -ne 0 ] && [ $rc -ne 125 ]"
	assertContains "the shell says so" "$err" "fork"
	assertNotContains "the shell stopped at the fork" "$out" "forked"
	cgk_capture "$E" -t -g "pids:/$S/p" sh -c '/bin/true; echo forked'
	assertTrue "-t: the command's status, not 125 ($rc: $err)" "[ $rc -ne 0 ] && [ $rc -ne 125 ]"
	assertEquals "-t: no cgroup left" "$before" "$(find "$sb" -type d)"
	sleep 300 &
	s2=$!
	cgk_execd "$s2" sleep
	KIDS+=("$s2")
	cgk_capture "$M" -g "pids:/$S/p" "$s2"
	assertEquals "cgmigrate: v1 moves past pids.max ($err)" 0 "$rc"
	assertEquals "moved" "/$S/p" "$(cgk_cgroup_of "$s2" pids)"
}

# --- Cgroups removed while a tool works on them -----------------------------------------------

# A loop of ours making and removing cgroups $2.. under directory $1, until killed: $CHURN.
churn() {
	local dir=$1
	shift
	(
		while :; do
			for n in "$@"; do mkdir "$dir/$n" 2>/dev/null; done
			for n in "$@"; do rmdir "$dir/$n" 2>/dev/null; done
		done
	) &
	CHURN=$!
	KIDS+=("$CHURN")
}

# An exit a tool documents, and when it failed, its one safe line.
assert_documented() {
	local what=$1 ok=$2
	assertTrue "$what: exit $rc is one of $ok ($err)" "[[ \" $ok \" == *\" $rc \"* ]]"
	if [ "$rc" != 0 ]; then
		assert_one_safe_line "$what"
		assertContains "$what: the tool's line: $err" "$err" "${what%% *}: "
	fi
}

# cgmigrate -F SRC --recursive while children of SRC come and go: no crash, exit 0 or 1 with
# one line, and the sleepers in SRC's lasting child end up in the target.
test_drain_recursive_while_children_removed() {
	local sb i p moved=0
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sb=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	mkdir -p "$sb/src/stay" "$sb/dst" || { fail "mkdir"; return; }
	churn "$sb/src" c1 c2 c3 c4 c5 c6 c7 c8
	for i in $(seq 1 20); do
		sleeper
		echo "$SLEEPER" >"$sb/src/stay/cgroup.procs" || { fail "move"; break; }
		cgk_capture "$M" -F "/$S/src" -g "/$S/dst" --recursive
		assert_documented "cgmigrate -F --recursive, run $i" "0 1"
		[ "$(cgk_cgroup_of "$SLEEPER" unified)" = "/$S/dst" ] && moved=$((moved + 1))
	done
	kill -9 "$CHURN"
	wait "$CHURN" 2>/dev/null
	echo "# drain under churn: $moved of 20 moved"
	assertEquals "every sleeper moved" 20 "$moved"
}

# cgexec2 -g X while X is removed and made again: the check and the move race. Exit 0 (it
# ran) or 125 with one line, never a crash, never the command run elsewhere.
test_exec_while_cgroup_removed() {
	local sb i ran=0 refused=0
	cgk_need_root || return 0
	cgk_need_unified || return 0
	sb=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	churn "$sb" x
	# 20 runs see both outcomes; each move waits for the kernel's threadgroup lock against
	# the churn (up to a second or two on a loaded machine, more under TCG)
	for i in $(seq 1 20); do
		cgk_capture "$E" -g "/$S/x" cat /proc/self/cgroup
		assert_documented "cgexec2 -g, run $i" "0 125"
		if [ "$rc" = 0 ]; then
			ran=$((ran + 1))
			assertEquals "run $i: it ran in X" "/$S/x" "$(printf '%s\n' "$out" | sed -n 's/^0:://p')"
		else
			refused=$((refused + 1))
		fi
	done
	kill -9 "$CHURN"
	wait "$CHURN" 2>/dev/null
	echo "# cgexec2 under churn: $ran ran, $refused refused"
}

# --- JSON keeps names apart ---------------------------------------------------------------

# The JSON strings (decoded) of the names below cgroup $1, from the JSON lines on stdin (the
# samples' "path", the events' "cgroup"): a string flagged KEY_escaped reverses (names.py
# unescape) to the bytes of one name of $_cgk_tmp/jnames, an unflagged one is the name's bytes as
# they are (valid UTF-8); every name once, and a valid name is never flagged. Prints what is
# wrong, or "ok".
json_names_check() {
	PYTHONPATH=$CGKIT_TOP/tests/helpers python3 -c '
import json, sys
from names import unescape
top, want = sys.argv[1], sorted(n for n in open(sys.argv[2], "rb").read().split(b"\0") if n)
got, bad = set(), []
def take(p, esc):
    if not p.startswith(top + "/"):
        return
    b = unescape(p) if esc else p.encode("utf-8")
    try:
        b.decode("utf-8")
        if esc:
            bad.append("%r flagged escaped, its name is UTF-8" % p)
    except UnicodeDecodeError:
        pass
    got.add((p, b))
for l in sys.stdin.buffer.read().decode("utf-8").splitlines():
    d = json.loads(l)
    for c in d.get("cgroups", []):
        take(c["path"], c.get("path_escaped") is True)
    take(d.get("cgroup", ""), d.get("cgroup_escaped") is True)
back = sorted(b for _, b in got)
if bad:
    print(bad)
else:
    print("ok" if back == want and len(got) == len(want) else "strings %r give %r, not %r" % (sorted(got), back, want))
' "$1" "$_cgk_tmp/jnames"
}

# Two names that differ in one byte of no UTF-8 (0xff, 0xfe) and then hold the text \xff: JSON
# wrote both as "\ufffd\\xff". And a valid name holding a backslash, systemd's escape as text
# (a\x2db.service): it is itself in JSON (4a26b23 doubled its backslash). Every JSON writer (a
# sample, its replay, an event) gives strings that parse, stay distinct and give the names'
# bytes back: the invalid ones as the table's text, flagged KEY_escaped, the valid one as is.
test_json_names_distinct() {
	local u n f=$_cgk_tmp/jrec names=($'\xff\\xff' $'\xfe\\xff' 'a\x2db.service')
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_prog python3 "to parse the JSON" || return 0
	u=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	mkdir "$u/j" || { fail "mkdir"; return; }
	: >"$_cgk_tmp/jnames"
	"$T" -v --events=created -F json -n 3 --timeout=120 "/$S/j" >"$_cgk_tmp/jev" 2>"$_cgk_tmp/jev.err" &
	KIDS+=($!)
	cgk_wait_for grep -qs watching "$_cgk_tmp/jev.err" || { fail "the watcher did not start: $(cat "$_cgk_tmp/jev.err")"; return; }
	for n in "${names[@]}"; do
		mkdir "$u/j/$n" || { fail "mkdir"; return; }
		printf '/%s/j/%s\0' "$S" "$n" >>"$_cgk_tmp/jnames"
	done
	cgk_capture "$T" -F json -1 "/$S/j"
	assertEquals "json exit ($err)" 0 "$rc"
	assertEquals "json" "ok" "$(json_names_check "/$S/j" <"$_cgk_tmp/out")"
	assertContains "the valid name as it is" "$out" "\"path\":\"/$S/j/a\\\\x2db.service\",\"origin\""
	cgk_capture "$T" --record="$f" -n 1 "/$S/j"
	assertEquals "record exit ($err)" 0 "$rc"
	cgk_capture "$T" --replay="$f" -F json
	assertEquals "replay exit ($err)" 0 "$rc"
	assertEquals "replay json" "ok" "$(json_names_check "/$S/j" <"$_cgk_tmp/out")"
	wait "${KIDS[-1]}"
	assertEquals "events exit ($(cat "$_cgk_tmp/jev.err"))" 0 "$?"
	assertEquals "events json" "ok" "$(json_names_check "/$S/j" <"$_cgk_tmp/jev")"
	rmdir "$u/j/"*/ "$u/j"
}

# Container runtimes' state files under --runtime-root are data written by others (names/runtime.c):
# escapes, newlines, quotes and invalid UTF-8 in names; a symlink out of the root (a file's and
# a directory's, containerd's namespace too); a FIFO; a file past the size cap; nesting
# thousands deep. A one-shot sample in JSON and in Prometheus's text must end (timeout: a hang
# is 124), read nothing from outside the root, keep every label parseable (promtool) and every
# name distinct: a name of no UTF-8 is the table's text flagged KEY_escaped in JSON (it came
# out unflagged, the same string as the text \xff).
rt_id() {
	printf "$1%.0s" {1..64}
}

rt_docker() {
	mkdir -p "$R/var/lib/docker/containers/$1" &&
		printf '%s' "$2" >"$R/var/lib/docker/containers/$1/config.v2.json"
}

test_runtime_state_files_hostile() {
	local u R=$_cgk_tmp/rtroot out2 id k ids=() outside=$_cgk_tmp/rtoutside
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_prog python3 "to parse the JSON" || return 0
	cgk_need_prog promtool "to check the exposition" || return 0
	u=$(cgk_sandbox unified) || { fail "no unified sandbox"; return; }
	for k in 1 2 3 4 5 6 7 8 9; do
		id=$(rt_id "$k")
		ids+=("$id")
		mkdir -p "$u/rt/docker-$id.scope" || { fail "mkdir"; return; }
	done
	mkdir -p "$outside/ns/${ids[7]}" "$outside/dir"
	printf '%s' '{"Name":"/leaked","Config":{"Image":"leaked"}}' >"$outside/leak.json"
	printf '%s' '{"Name":"/leaked","Config":{"Image":"leaked"}}' >"$outside/dir/config.v2.json"
	printf '%s' '{"annotations":{"io.kubernetes.cri.container-name":"leaked","io.kubernetes.cri.sandbox-name":"leaked"}}' \
		>"$outside/ns/${ids[7]}/config.json"
	# 1: escapes, a newline, quotes, braces and a backslash, as JSON's escapes
	rt_docker "${ids[0]}" '{"Name":"/a\u001b[2J\u001b]2;pwned\u0007\nb\"}\\c","Config":{"Image":"i\u009bj","Labels":{"io.kubernetes.pod.name":"p\"o\nd","io.kubernetes.container.name":"c=\"x\",y=\"z"}}}'
	# 2 and 3: bytes of no UTF-8, and the text \xff: two names, two strings
	rt_docker "${ids[1]}" $'{"Name":"/n\xff","Config":{"Image":"img\xfe"}}'
	rt_docker "${ids[2]}" '{"Name":"/n\\xff","Config":{"Image":"img\\xfe"}}'
	# 4: a symlink out of the root; 5: a directory that is one
	mkdir -p "$R/var/lib/docker/containers/${ids[3]}"
	ln -s "$outside/leak.json" "$R/var/lib/docker/containers/${ids[3]}/config.v2.json"
	ln -s "$outside/dir" "$R/var/lib/docker/containers/${ids[4]}"
	# 6: a FIFO nobody writes
	mkdir -p "$R/var/lib/docker/containers/${ids[5]}"
	mkfifo "$R/var/lib/docker/containers/${ids[5]}/config.v2.json"
	# 7: past the size cap (1 MiB), valid JSON
	rt_docker "${ids[6]}" "" && python3 -c 'import sys; sys.stdout.write("{\"Name\":\"/big\",\"Config\":{\"Image\":\"" + "a" * (2 << 20) + "\"}}")' \
		>"$R/var/lib/docker/containers/${ids[6]}/config.v2.json"
	# 8: containerd's namespace a symlink out of the root
	mkdir -p "$R/run/containerd/io.containerd.runtime.v2.task"
	ln -s "$outside/ns" "$R/run/containerd/io.containerd.runtime.v2.task/evil"
	# 9: nesting 100,000 deep
	rt_docker "${ids[8]}" "" && python3 -c 'print("{\"Name\":\"/deep\",\"Config\":" + "[" * 100000 + "]" * 100000 + "}")' \
		>"$R/var/lib/docker/containers/${ids[8]}/config.v2.json"
	cgk_capture timeout -k 5 120 "$T" -F json -1 --depth=3 --runtime-root="$R" "/$S/rt"
	assertEquals "json: exit (124: hung) $err" 0 "$rc"
	assertNotContains "json: nothing from outside the root" "$out" "leaked"
	assertNotContains "json: nothing past the cap or the nesting" "$out" '"name":"big"'
	assertEquals "json: parses, names kept, distinct, flagged" "ok" "$(python3 -c '
import json, sys
d = json.loads(sys.stdin.read().splitlines()[0])
o = {c["path"].rsplit("/", 1)[1][7:15]: c["origin"] for c in d["cgroups"] if "docker-" in c["path"]}
want = {
 "11111111": {"name": "a\x1b[2J\x1b]2;pwned\x07\nb\"}\\c", "image": "i\x9bj", "pod": "p\"o\nd",
              "container": "c=\"x\",y=\"z"},
 "22222222": {"name": "n\\xff", "name_escaped": True, "image": "img\\xfe", "image_escaped": True},
 "33333333": {"name": "n\\xff", "image": "img\\xfe"},
}
bad = []
for k, w in want.items():
    for f, v in w.items():
        if o.get(k, {}).get(f) != v:
            bad.append("%s %s: %r" % (k, f, o.get(k, {}).get(f)))
for k in ("44444444", "55555555", "66666666", "77777777", "88888888", "99999999"):
    if any(f in o.get(k, {}) for f in ("name", "image", "pod", "container")):
        bad.append("%s named: %r" % (k, o[k]))
print(bad or "ok")' <"$_cgk_tmp/out")"
	cgk_capture timeout -k 5 120 "$T" -F prometheus -1 --depth=3 --compat=cadvisor --runtime-root="$R" "/$S/rt"
	assertEquals "prometheus: exit (124: hung) $err" 0 "$rc"
	assertNotContains "prometheus: nothing from outside the root" "$out" "leaked"
	out2=$(promtool check metrics <"$_cgk_tmp/out" 2>&1 | grep -v -e 'counter metrics should have "_total" suffix' -e 'no help text')
	assertEquals "prometheus: promtool parses every label" "" "$out2"
	assertContains "prometheus: the escapes as text, the label's own" "$out" 'pod="p\"o\\nd",image="i\\xc2\\x9bj",name="a\\x1b[2J\\x1b]2;pwned\\x07\\nb\"}\\\\c",escaped="true"}'
	find "$u/rt" -depth -type d -exec rmdir {} +
}

. "$SHUNIT2"
