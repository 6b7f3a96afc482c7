# SPDX-License-Identifier: MIT
# Shared by the shunit2 suites: binaries, layout discovery, the sandbox, skips, the report.
# A suite sources this file, defines test functions, then: . cgk_run_shunit2 (see bottom).
#
# Sandbox rules: every cgroup a test makes lives under cgkit-test.<pid> at the top of the
# hierarchy it uses; an EXIT trap kills what runs there (our own processes only) and removes
# it depth-first. Nothing outside the sandbox is ever written.

CGKIT_TOP=${CGKIT_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
CGKIT_BIN=${CGKIT_BIN:-$CGKIT_TOP}
CGKIT_OBJ=${CGKIT_OBJ:-$CGKIT_TOP/.obj}
HELPERS=$CGKIT_OBJ/tests/helpers
FIXTURES=$CGKIT_TOP/tests/fixtures
SANDBOX_NAME=cgkit-test.$$
SHUNIT_COLOR=none
_cgk_skipped=0
_cgk_tmp=$(mktemp -d)
export SHUNIT_COLOR

# CGKIT_WRAP: a command the suites run the four tools under (`make valgrind`: valgrind with
# --error-exitcode=99). $CGKIT_BIN becomes a directory of scripts that exec it on the real
# binaries, so a tool keeps its PID (kill, /proc) and every suite needs no change.
if [ -n "${CGKIT_WRAP:-}" ]; then
	mkdir "$_cgk_tmp/wrap"
	for _cgk_t in cgcreate2 cgexec2 cgmigrate cgtop2; do
		printf '#!/bin/sh\nexec %s %q "$@"\n' "$CGKIT_WRAP" "$CGKIT_BIN/$_cgk_t" >"$_cgk_tmp/wrap/$_cgk_t"
		chmod 755 "$_cgk_tmp/wrap/$_cgk_t"
	done
	# tests/unpriv runs them as another uid
	chmod 711 "$_cgk_tmp"
	chmod 755 "$_cgk_tmp/wrap"
	CGKIT_BIN=$_cgk_tmp/wrap
fi

cgk_wrapped() {
	[ -n "${CGKIT_WRAP:-}" ]
}

# Skip a test that measures what a wrapper changes (speed, the process's name, its fd limit).
cgk_need_unwrapped() {
	[ -z "${CGKIT_WRAP:-}" ] || { cgk_skip "$* (run under CGKIT_WRAP)"; return 1; }
}

# cgk_mnt, cgk_layout: tests/helpers/layout.sh (tests/vm/check uses them too)
. "$(dirname "${BASH_SOURCE[0]}")/helpers/layout.sh"


# v2 controllers the unified root offers
cgk_v2_has() {
	local u
	u=$(cgk_mnt unified)
	[ -n "$u" ] && grep -qw -- "$1" "$u/cgroup.controllers" 2>/dev/null
}

# Every cgroup mountpoint (v1 and v2), one a line.
# cgk_all_mnts and cgk_sandbox_remove, which tests/run uses too
. "$(dirname "${BASH_SOURCE[0]}")/sandbox.sh"


# Make (once) and print the sandbox in the hierarchy serving $1. Usually called in $(...),
# a subshell, so the cleanup finds sandboxes by name instead of remembering them.
cgk_sandbox() {
	local m
	m=$(cgk_mnt "$1")
	[ -n "$m" ] || return 1
	if [ ! -d "$m/$SANDBOX_NAME" ]; then
		mkdir "$m/$SANDBOX_NAME" || return 1
		# v1 cpuset: a cgroup without cpus/mems accepts no task (v2 roots have no such file)
		if [ -f "$m/cpuset.cpus" ] && [ -f "$m/$SANDBOX_NAME/cpuset.cpus" ]; then
			cat "$m/cpuset.cpus" >"$m/$SANDBOX_NAME/cpuset.cpus"
			cat "$m/cpuset.mems" >"$m/$SANDBOX_NAME/cpuset.mems"
		fi
	fi
	echo "$m/$SANDBOX_NAME"
}

cgk_cleanup() {
	local m
	# only from the shell that made the sandbox, not from a subshell's exit
	[ "$BASHPID" = "$$" ] || return 0
	while read -r m; do
		cgk_sandbox_remove "$m/$SANDBOX_NAME"
	done < <(cgk_all_mnts)
	rm -rf "$_cgk_tmp"
}
trap cgk_cleanup EXIT
trap 'exit 130' INT TERM

# The processes a suite started and listed in _pids: killed by PID and reaped, the list emptied.
cgk_kill_pids() {
	local p i left
	# under a wrapper, TERM first: valgrind checks for leaks only a tool that ends by itself
	if cgk_wrapped && [ ${#_pids[@]} -gt 0 ]; then
		for p in "${_pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
		for i in $(seq 1 100); do
			left=0
			for p in "${_pids[@]}"; do
				grep -qs '^State:[[:space:]]*[^Z]' "/proc/$p/status" && left=1
			done
			[ $left -eq 0 ] && break
			sleep 0.1
		done
	fi
	for p in "${_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${_pids[@]}"; do wait "$p" 2>/dev/null; done
	_pids=()
}

# Skip the rest of the current test, saying why. Counted as skipped, never as passed.
# Use as `cgk_need_root || return 0`: shunit2 counts a test that returns non-zero as failed.
cgk_skip() {
	echo "SKIP ${_shunit_test_:-?}: $*"
	_cgk_skipped=$((_cgk_skipped + 1))
	startSkipping
}

cgk_need_root() {
	[ "$(id -u)" -eq 0 ] || { cgk_skip "needs root"; return 1; }
}

cgk_need_v1() {
	[ -n "$(cgk_mnt "$1")" ] && [ "$(cgk_mnt "$1")" != "$(cgk_mnt unified)" ] ||
		{ cgk_skip "no v1 hierarchy for $1 on this machine ($(cgk_layout))"; return 1; }
}

# A test that would change this machine (a kernel thread's pid, /etc/cgrules.conf, a
# machine-wide limit, a process in the v1 memory hierarchy, the scratch disk) runs only in the
# VM guests, and says so with these: tests/vm/check finds such tests by them.
cgk_in_vm() {
	[ -n "${CGKIT_VM:-}" ]
}

cgk_need_vm() {
	cgk_in_vm || { cgk_skip "$*"; return 1; }
}

cgk_need_unified() {
	[ -n "$(cgk_mnt unified)" ] || { cgk_skip "no unified hierarchy ($(cgk_layout))"; return 1; }
}

# v2 controllers enabled for children of the root: the unified VM has them, this host not.
cgk_need_v2() {
	local c u
	u=$(cgk_mnt unified)
	[ -n "$u" ] || { cgk_skip "no unified hierarchy ($(cgk_layout))"; return 1; }
	for c in "$@"; do
		grep -qw -- "$c" "$u/cgroup.subtree_control" 2>/dev/null ||
			{ cgk_skip "v2 controller $c is not enabled at the unified root ($(cgk_layout))"; return 1; }
	done
}

# A test that drives a real program (tmux, python3, curl, promtool, ...) asks for it with this,
# never with a skip of its own (tests/structure.sh): where the program is missing the test skips
# with "missing program: PROG (WHY)", a line tests/structure.sh and a reader tell from a skip
# that names a fact of the layout. The VM guests run on the host's own programs and CI installs
# every one (CGKIT_ALL_PROGRAMS=1): there a missing program fails the test instead.
cgk_need_prog() {
	local p=$1
	shift
	command -v "$p" >/dev/null 2>&1 && return 0
	if [ -n "${CGKIT_VM:-}" ] || [ -n "${CGKIT_ALL_PROGRAMS:-}" ]; then
		fail "missing program: $p${*:+ ($*)}: the VM guests and CI have every program the tests use"
	else
		cgk_skip "missing program: $p${*:+ ($*)}"
	fi
	return 1
}

# Wait up to ~5 s for a command to succeed (the kernel's updates are asynchronous at times);
# 30 s under a wrapper (valgrind starts a tool in seconds on a loaded machine).
# CGK_WAIT_TICKS=N for one call: N tries 50 ms apart instead of 100 (600 under a wrapper)
cgk_wait_for() {
	local i n=${CGK_WAIT_TICKS:-100}
	[ -z "${CGK_WAIT_TICKS:-}" ] && cgk_wrapped && n=600
	for i in $(seq 1 $n); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# cgk_execd PID COMM: wait until PID runs COMM. The child bash forks for `sleep 300 &` runs a
# copy of the suite, shunit2's traps included, until its exec: a signal a test sends it before
# then is lost in the copy, or runs shunit2's handler there (CI saw a lost TERM and a stray
# "unknown failure" from its exit). Call it before a tool signals what the test started.
cgk_execd() {
	cgk_wait_for _cgk_comm_is "$1" "$2" || echo "cgk_execd: pid $1 never ran $2" >&2
}

_cgk_comm_is() {
	local c
	read -r c <"/proc/$1/comm" 2>/dev/null && [ "$c" = "$2" ]
}

# The cgroup path (relative to the hierarchy root, leading /) of pid $1 in hierarchy $2
# ("unified" or a v1 controller name).
cgk_cgroup_of() {
	if [ "$2" = unified ]; then
		sed -n 's/^0::\(.*\)/\1/p' "/proc/$1/cgroup"
	else
		awk -F: -v c="$2" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' "/proc/$1/cgroup"
	fi
}

# File $2 into variable $1 without its trailing newlines, as $(cat "$2") gives it but without
# a process: read is a builtin, and the suites capture thousands of times (a fork and an exec
# cost a TCG guest milliseconds each). read stops at a NUL byte, where $(...) drops it and goes
# on: a file with one (read found its delimiter) takes the old way.
cgk_slurp() {
	local _cgk_s
	IFS= read -r -d '' _cgk_s <"$2" && _cgk_s=$(cat "$2")
	printf -v "$1" '%s' "$_cgk_s"
	cgk_trim "$1"
}

# Variable $1 without its trailing newlines, as $(...) would leave it.
cgk_trim() {
	local -n _cgk_v=$1
	local nl=$'\n'
	_cgk_v=${_cgk_v%"${_cgk_v##*[!$nl]}"}
}

# Run a command, keeping stdout/stderr/exit in $_cgk_tmp/{out,err} and $rc.
cgk_capture() {
	"$@" >"$_cgk_tmp/out" 2>"$_cgk_tmp/err"
	rc=$?
	cgk_slurp out "$_cgk_tmp/out"
	cgk_slurp err "$_cgk_tmp/err"
}

# Called by shunit2 at the end: report for tests/run, then the suite's own teardown.
oneTimeTearDown() {
	type suite_teardown >/dev/null 2>&1 && suite_teardown
	cgk_cleanup
	if [ -n "${CGKIT_RESULTS:-}" ]; then
		local passed=$((__shunit_testsPassed - _cgk_skipped))
		[ $passed -lt 0 ] && passed=0
		echo "passed=$passed failed=$__shunit_testsFailed skipped=$_cgk_skipped" >>"$CGKIT_RESULTS"
	fi
}

# shunit2 2.1 counts its asserts with expr in command substitutions: two processes for every
# assert, a suite's largest cost after the tools themselves in the TCG guests. shunit2 defines
# its functions and then calls oneTimeSetUp, so its counters are replaced here by the same
# sums in bash arithmetic, only while they are still the expr ones this was written against.
oneTimeSetUp() {
	local f
	# shunit2's EXIT trap also runs in a copy of the suite that a signal ends before its exec
	# (see cgk_execd), and printed "unknown failure" into the report of a test that passed
	trap '[ "$BASHPID" = "$$" ] && _shunit_cleanup EXIT' 0
	for f in _shunit_assertPass _shunit_incFailedCount _shunit_assertSkip; do
		[[ $(declare -f "$f") == *'__shunit_assertsTotal=`expr '* ]] || return 0
	done
	_shunit_assertPass() {
		__shunit_assertsPassed=$((__shunit_assertsPassed + 1))
		__shunit_assertsTotal=$((__shunit_assertsTotal + 1))
	}
	_shunit_incFailedCount() {
		__shunit_assertsFailed=$((__shunit_assertsFailed + 1))
		__shunit_assertsTotal=$((__shunit_assertsTotal + 1))
	}
	_shunit_assertSkip() {
		__shunit_assertsSkipped=$((__shunit_assertsSkipped + 1))
		__shunit_assertsTotal=$((__shunit_assertsTotal + 1))
	}
	return 0
}

setUp() {
	_cgk_test_start=$SECONDS
	type setup_test >/dev/null 2>&1 && setup_test
	return 0
}

# shunit2 counts a test that skipped as passed; we count it as skipped instead. Suites hook
# teardown_test, never tearDown itself: without endSkipping, one skip would silently skip
# the asserts of every later test. A test of 10 s (CGKIT_SLOW_S) or more says so, to show
# where a tier's minutes go (the VM guests run the suites several times slower).
tearDown() {
	type teardown_test >/dev/null 2>&1 && teardown_test
	endSkipping
	# shunit2 calls tearDown once more at exit, outside any test: no start time then
	[ -n "${_cgk_test_start:-}" ] || return 0
	local took=$((SECONDS - _cgk_test_start))
	_cgk_test_start=
	[ "$took" -lt "${CGKIT_SLOW_S:-10}" ] || echo "# slow: ${_shunit_test_:-?} took $took s"
}

# A TCP port of 127.0.0.1 nobody listens on now (for servers that cannot take port 0 and tell).
cgk_free_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((20000 + RANDOM % 30000))
		ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return 0; }
	done
	return 1
}

# Prometheus with configuration file $1, its data and log in directory $2, on a free port of
# 127.0.0.1, in the background (killed with the suite's _pids); sets PROM (host:port), PROM_PID.
cgk_prometheus() {
	local p
	p=$(cgk_free_port) || { fail "no free port for Prometheus"; return 1; }
	PROM=127.0.0.1:$p
	prometheus --config.file="$1" --storage.tsdb.path="$2/tsdb" --web.listen-address="$PROM" \
		>"$2/prometheus.log" 2>&1 &
	PROM_PID=$!
	_pids+=("$PROM_PID")
}

# cgtop2 --listen on 127.0.0.1, port 0, with the arguments given, in the background (killed
# with the suite's _pids); sets PORT once it serves (the first sample comes before), and
# LISTEN_ERR to the file its stderr goes to (one per start: a test that looked for the newest
# of them by mtime read an earlier test's in a unified guest)
cgk_listen() {
	local i err=$_cgk_tmp/listen.err.$((++_cgk_listen_n))
	LISTEN_ERR=$err
	: >"$err"
	"$CGKIT_BIN/cgtop2" --listen=127.0.0.1:0 "$@" 2>"$err" &
	_pids+=($!)
	for i in $(seq 1 300); do
		grep -q 'serving ' "$err" && break
		sleep 0.1
	done
	PORT=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$err")
	[ -n "$PORT" ] || { fail "cgtop2 --listen did not start: $(cat "$err")"; return 1; }
}

# cmd/tool.c's answer to hostile option names, the same in every tool (TOOL ARGS...: what else
# the call needs to get as far as argp): an unknown long option holding an OSC sequence and a
# BEL, an unknown short option after a known one in a C1 CSI byte, each named escaped in argp's
# words, exit 64, no raw control byte. getopt echoed them raw before issue 29, except cgexec2's.
cgk_check_unknown_options() {
	local tool=$1 name=${1##*/} i
	local raw=($'--bogus\e]0;x\a' $'-v\x9b') shown=('--bogus\x1b]0;x\x07' '-v\x9b')
	local what=("a long option with OSC and BEL" "a short option in a C1 byte")
	shift
	# shunit2 echoes its messages with escapes interpreted: they name the case, never the bytes
	for i in 0 1; do
		cgk_capture "$tool" "${raw[i]}" "$@"
		assertEquals "$name, ${what[i]}: exit" 64 "$rc"
		assertEquals "$name, ${what[i]}: stderr, escaped" \
			"$name: unrecognized option '${shown[i]}'"$'\n'"Try \`$name --help' or \`$name --usage' for more information." \
			"$err"
	done
}

# cmd/tool.c's one line for a mount table that cannot be read (TOOL STATUS CHECK ARGS...): the
# fixture knob naming a file that is not there, and, as root, the real thing: in a private mount
# namespace /proc hidden by an empty tmpfs (a chroot or container without /proc). STATUS is the
# tool's failure status; CHECK, a shell test that holds when the run did nothing, is asserted
# after each run, with nothing on stdout.
cgk_check_mount_table_failure() {
	local tool=$1 status=$2 check=$3 name=${1##*/}
	shift 3
	cgk_capture env CGKIT_MOUNTINFO="$_cgk_tmp/no-mountinfo" "$tool" "$@"
	assertEquals "$name, no mount table file: exit ($err)" "$status" "$rc"
	assertEquals "$name, no mount table file: stderr" \
		"$name: read the mount table $_cgk_tmp/no-mountinfo: No such file or directory" "$err"
	assertEquals "$name, no mount table file: stdout" "" "$out"
	assertTrue "$name, no mount table file: nothing done ($check)" "$check"
	[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
		unshare -m --propagation private true 2>/dev/null || {
		cgk_skip "no private mount namespace here (root and unshare -m)"
		return 0
	}
	# without /proc ASan warns on stderr (it reads /proc/self/exe), and valgrind needs it
	case $(ldd "$CGKIT_BIN/$name" 2>/dev/null) in *libasan*) cgk_skip "ASan needs /proc"; return 0 ;; esac
	cgk_need_unwrapped "valgrind needs /proc" || return 0
	cgk_capture unshare -m --propagation private sh -c \
		'mount -t tmpfs cgkit-no-proc /proc || exit 99; exec "$@"' sh "$tool" "$@"
	assertEquals "$name, /proc hidden: exit ($err)" "$status" "$rc"
	assertEquals "$name, /proc hidden: stderr" \
		"$name: read the mount table /proc/self/mountinfo: No such file or directory" "$err"
	assertEquals "$name, /proc hidden: stdout" "" "$out"
	assertTrue "$name, /proc hidden: nothing done ($check)" "$check"
}

# CGKIT_VM_ONLY=1 (tests/vm/check, in the guest of the host's own layout, whose make check ran
# everything else): only the tests that ask for the VM, in their own body or in a function they
# call. CGKIT_LAYOUT_ONLY=1 (tests/vm/check, in the unified and legacy guests): a test that
# begins by asking for what the layout lacks is left out, as it could only skip there and
# another guest runs it: in legacy (no cgroup2 mounted) cgk_need_unified or cgk_need_v2, in
# unified (no v1 hierarchy) cgk_need_v1. It begins so when its first command (after its locals,
# empty assignments, cgk_need_root and cgk_need_prog; or its first function's), or its suite's
# setup_test's, is the gate. One line says how many, which is not a skip line. shunit2 calls
# suite() before it would list every test itself; in the file's order.
_cgk_gate=
if [ -n "${CGKIT_LAYOUT_ONLY:-}" ] && [ -z "${CGKIT_VM_ONLY:-}" ]; then
	case $(cgk_layout) in
	legacy) _cgk_gate='cgk_need_unified|cgk_need_v2' ;;
	unified) _cgk_gate='cgk_need_v1' ;;
	esac
fi
# CGKIT_TIER=quick (make check): the tests tests/slow names for this suite are left to make
# check-full, with one line saying how many.
_cgk_slow=
if [ "${CGKIT_TIER:-}" = quick ]; then
	_cgk_slow=" $(sed -n "s/^$(basename "$0" .sh):\(test_[A-Za-z0-9_]*\).*/\1/p" "$CGKIT_TOP/tests/slow" 2>/dev/null | tr '\n' ' ') "
	[ "$_cgk_slow" = "  " ] && _cgk_slow=
fi
# CGKIT_TIER=slow (make check-slow): only those tests, what make check leaves out, so that make
# check and make check-slow together are make check-full with no test run twice (CI). A suite
# that tests/slow names whole (SUITE:*) runs whole.
_cgk_only=
if [ "${CGKIT_TIER:-}" = slow ] && ! grep -qE "^$(basename "$0" .sh):\*([[:space:]#]|\$)" "$CGKIT_TOP/tests/slow"; then
	_cgk_only=" $(sed -n "s/^$(basename "$0" .sh):\(test_[A-Za-z0-9_]*\).*/\1/p" "$CGKIT_TOP/tests/slow" 2>/dev/null | tr '\n' ' ') "
fi
if [ -n "${CGKIT_VM_ONLY:-}" ] || [ -n "$_cgk_gate" ] || [ -n "$_cgk_slow" ] || [ -n "$_cgk_only" ]; then
	_cgk_asks_vm() {
		local body w
		body=$(declare -f "$1")
		[[ $body == *cgk_need_vm* || $body == *cgk_in_vm* ]] && return 0
		[ "$2" = deep ] || return 1
		for w in $body; do
			[[ $w =~ ^[a-z_][a-z0-9_]*$ ]] && [ "$w" != "$1" ] && declare -F "$w" >/dev/null &&
				_cgk_asks_vm "$w" shallow && return 0
		done
		return 1
	}
	# Whether function $1 begins with the layout's gate ($2 = deep: or with a call of a function
	# that does): the first line of its body that is not a local, an empty assignment or a gate
	# every guest passes.
	_cgk_gated() {
		local first w gate="^[[:space:]]*($_cgk_gate)([[:space:]]|;|\$)"
		first=$(declare -f "$1" | sed -n '3,$p' |
			grep -vE '^[[:space:]]*(local( |;|$)|[A-Za-z_][A-Za-z0-9_]*=;?$|cgk_need_(root|prog) .*\|\| return)' |
			head -n 1)
		[[ $first =~ $gate ]] && return 0
		[ "$2" = deep ] || return 1
		w=${first#"${first%%[![:space:]]*}"}
		w=${w%%[ ;]*}
		[[ $w =~ ^[a-z_][a-z0-9_]*$ ]] && [ "$w" != "$1" ] && declare -F "$w" >/dev/null &&
			_cgk_gated "$w" shallow
	}
	suite() {
		local t out=0 all= slow=0 quick=0
		# a suite whose every test's set-up (setup_test) begins with the gate
		[ -n "$_cgk_gate" ] && declare -F setup_test >/dev/null && _cgk_gated setup_test deep && all=1
		for t in $(sed -n 's/^\(test_[A-Za-z0-9_]*\)().*/\1/p' "$0"); do
			if [[ $_cgk_slow == *" $t "* ]]; then
				slow=$((slow + 1))
			elif [ -n "$_cgk_only" ] && [[ $_cgk_only != *" $t "* ]]; then
				quick=$((quick + 1))
			elif [ -n "${CGKIT_VM_ONLY:-}" ]; then
				_cgk_asks_vm "$t" deep && suite_addTest "$t"
			elif [ -n "$_cgk_gate" ] && { [ -n "$all" ] || _cgk_gated "$t" deep; }; then
				out=$((out + 1))
			else
				suite_addTest "$t"
			fi
		done
		[ "$out" -eq 0 ] ||
			echo "# CGKIT_LAYOUT_ONLY: $out tests of $(basename "$0") begin by asking for what this layout ($(cgk_layout)) lacks: left out"
		[ "$slow" -eq 0 ] ||
			echo "# quick tier: $slow tests of $(basename "$0") left to make check-full (tests/slow)"
		[ "$quick" -eq 0 ] ||
			echo "# slow tier: $quick tests of $(basename "$0") left to make check (not in tests/slow)"
		# none: shunit2 would run every test; one that says why instead
		[ -n "${__shunit_suite:-}" ] && return 0
		if [ -n "$_cgk_only" ] && [ -z "${CGKIT_VM_ONLY:-}" ] && [ -z "$_cgk_gate" ]; then
			cgk_asks_no_vm() { cgk_skip "no test of $(basename "$0") is in tests/slow: make check runs them"; }
		elif [ -z "${CGKIT_VM_ONLY:-}" ] && [ -z "$_cgk_gate" ]; then
			cgk_asks_no_vm() { cgk_skip "every test of $(basename "$0") is in tests/slow: make check-full runs them"; }
		elif [ -n "${CGKIT_VM_ONLY:-}" ]; then
			cgk_asks_no_vm() { cgk_skip "CGKIT_VM_ONLY: no test of $(basename "$0") asks for the VM"; }
		else
			cgk_asks_no_vm() { cgk_skip "every test of $(basename "$0") needs what this layout ($(cgk_layout)) lacks"; }
			# its set-up would say so once more
			[ -z "$all" ] || setup_test() { :; }
		fi
		suite_addTest cgk_asks_no_vm
	}
fi

SHUNIT2=${SHUNIT2:-$(command -v shunit2 || echo /usr/share/shunit2/shunit2)}
