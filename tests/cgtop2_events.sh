#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --events: usage errors; on the live kernel in sandbox cgroups: created, removed,
# populated, empty, frozen, thawed (unified), pids_max (v1 pids), a storm of 1,000 cgroups each
# reported once, an inotify queue overflow answered by a rescan, --exec with a slow command,
# JSON, a hostile name. oom, oom_kill, thresholds and throttled need v2 controllers or a process
# in the v1 memory hierarchy: the VM matrix runs them (on the host they skip and say why).
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
BUSY=$HELPERS/top_busy
_pids=()
_watch=

teardown_test() {
	local p
	for p in "${_pids[@]}" $_watch; do kill -9 "$p" 2>/dev/null; done
	for p in "${_pids[@]}" $_watch; do wait "$p" 2>/dev/null; done
	_pids=()
	_watch=
	return 0
}

# Start the watcher in the background on its arguments; wait until it watches (-v says so).
# Its output in $_cgk_tmp/ev.out, its stderr in ev.err; $_watch is its PID.
watch_start() {
	rm -f "$_cgk_tmp/ev.out" "$_cgk_tmp/ev.err"
	"$T" -v --events "$@" >"$_cgk_tmp/ev.out" 2>"$_cgk_tmp/ev.err" &
	_watch=$!
	cgk_wait_for grep -qs watching "$_cgk_tmp/ev.err" || { fail "the watcher did not start: $(cat "$_cgk_tmp/ev.err")"; return 1; }
}

# Wait for the watcher to end by itself (-n or --timeout), up to $1 seconds: $ev, $everr, $evrc.
watch_end() {
	local i
	for i in $(seq 1 $(($1 * 20))); do
		kill -0 "$_watch" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$_watch" 2>/dev/null && { fail "the watcher did not end"; return 1; }
	wait "$_watch"
	evrc=$?
	_watch=
	ev=$(cat "$_cgk_tmp/ev.out")
	everr=$(cat "$_cgk_tmp/ev.err")
}

# How many lines of the events say cgroup $1 (exactly, hierarchy $2) had event $3.
count_ev() {
	awk -v c="$1" -v h="$2" -v e="$3" '$2 == c && $3 == h && $4 == e { n++ } END { print n + 0 }' \
		"$_cgk_tmp/ev.out"
}

# ---- usage ----------------------------------------------------------------------------------

test_usage_errors() {
	cgk_capture "$T" --exec=true
	assertEquals "--exec alone" 64 "$rc"
	assertContains "$err" "need --events"
	cgk_capture "$T" --events=created,bogus
	assertEquals "unknown kind" 64 "$rc"
	assertContains "$err" "not 'created,bogus'"
	cgk_capture "$T" --events -F csv
	assertEquals "csv" 64 "$rc"
	cgk_capture "$T" --events --memory-threshold=/a:12Q
	assertEquals "bad size" 64 "$rc"
	cgk_capture "$T" --events --timeout=0
	assertEquals "zero timeout" 64 "$rc"
	cgk_capture "$T" --events --memory-threshold=/ab:1M /a
	assertEquals "threshold outside" 64 "$rc"
	assertEquals "cgtop2: --memory-threshold /ab: not in the watched subtree /a" "$err"
}

test_no_such_cgroup() {
	cgk_capture "$T" --events "/$S-none/x"
	assertEquals "exit" 1 "$rc"
	assertEquals "message" "cgtop2: cgroup /$S-none/x: watch: no such cgroup in any mounted hierarchy" "$err"
}

# ---- unified: the directory and cgroup.events ---------------------------------------------

test_unified_lifecycle() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u pid
	u=$(cgk_sandbox unified)
	watch_start --timeout=20 -n 13 "/$S" || return
	mkdir "$u/a" "$u/a/b"
	"$BUSY" -s "$u/a/b/cgroup.procs" &
	pid=$!
	cgk_wait_for grep -q "/$S/a/b unified populated" "$_cgk_tmp/ev.out"
	echo 1 >"$u/a/cgroup.freeze"
	cgk_wait_for grep -q "/$S/a unified frozen" "$_cgk_tmp/ev.out"
	echo 0 >"$u/a/cgroup.freeze"
	cgk_wait_for grep -q "/$S/a unified thawed" "$_cgk_tmp/ev.out"
	kill -9 $pid
	wait $pid 2>/dev/null
	cgk_wait_for grep -q "/$S/a/b unified empty" "$_cgk_tmp/ev.out"
	rmdir "$u/a/b"
	watch_end 20 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "created a" 1 "$(count_ev "/$S/a" unified created)"
	assertEquals "created a/b" 1 "$(count_ev "/$S/a/b" unified created)"
	assertEquals "populated b" 1 "$(count_ev "/$S/a/b" unified populated)"
	assertEquals "populated a" 1 "$(count_ev "/$S/a" unified populated)"
	assertEquals "frozen a" 1 "$(count_ev "/$S/a" unified frozen)"
	assertEquals "frozen b (its parent)" 1 "$(count_ev "/$S/a/b" unified frozen)"
	assertEquals "thawed a" 1 "$(count_ev "/$S/a" unified thawed)"
	assertEquals "empty b" 1 "$(count_ev "/$S/a/b" unified empty)"
	assertEquals "removed b" 1 "$(count_ev "/$S/a/b" unified removed)"
	assertEquals "populated, empty: the sandbox too" 1 "$(count_ev "/$S" unified empty)"
	assertEquals "-n 13: the thirteenth ends it: $ev" 13 "$(echo "$ev" | wc -l)"
}

# A cgroup made inside a new one before its watch exists is still reported (the new one is
# listed once watched); its removal too.
test_unified_nested_burst() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_sandbox unified)
	watch_start --timeout=20 -n 10 --events=created,removed "/$S" || return
	mkdir -p "$u/n/a/b/c/d"
	# (one made and removed again before the watcher could list its new parent is never seen:
	# inotify has no recursive watch; the man page says so)
	cgk_wait_for grep -q "/$S/n/a/b/c/d unified created" "$_cgk_tmp/ev.out"
	rmdir "$u/n/a/b/c/d" "$u/n/a/b/c" "$u/n/a/b" "$u/n/a" "$u/n"
	watch_end 20 || return
	local c
	for c in n n/a n/a/b n/a/b/c n/a/b/c/d; do
		assertEquals "created $c: $ev" 1 "$(count_ev "/$S/$c" unified created)"
		assertEquals "removed $c" 1 "$(count_ev "/$S/$c" unified removed)"
	done
}

# The watched cgroup removed: said (its parent's IN_DELETE), and the watcher ends with 0.
test_top_removed_ends() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_sandbox unified)
	mkdir "$u/top" "$u/top/c"
	watch_start --timeout=20 "/$S/top" || return
	rmdir "$u/top/c" "$u/top"
	watch_end 10 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "c removed" 1 "$(count_ev "/$S/top/c" unified removed)"
	assertEquals "top removed" 1 "$(count_ev "/$S/top" unified removed)"
}

test_json_parses() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u res
	u=$(cgk_sandbox unified)
	watch_start --timeout=20 -n 2 -F json "/$S" || return
	mkdir "$u/j"
	rmdir "$u/j"
	watch_end 20 || return
	if command -v python3 >/dev/null 2>&1; then
		res=$(echo "$ev" | python3 -c '
import json, sys
evs = [json.loads(l) for l in sys.stdin]
assert [e["event"] for e in evs] == ["created", "removed"], evs
for e in evs:
    assert e["schema"] == "cgtop2-events/1" and e["hierarchy"] == "unified", e
    assert e["time_iso"] == e["time"] and isinstance(e["time_unix"], float), e
    assert e["cgroup"].endswith("/j") and e["count"] == 1 and e["source"] == "inotify", e
print("ok")' 2>&1)
	elif command -v jq >/dev/null 2>&1; then
		res=$(echo "$ev" | jq -se '[.[].event] == ["created","removed"] and all(.[]; .schema == "cgtop2-events/1")' >/dev/null && echo ok)
	else
		cgk_need_prog python3 "or jq, to parse JSON"
		return 0
	fi
	assertEquals "JSON: $ev" ok "$res"
}

test_hostile_name() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u name=$'x\e[31mred\tline\xc2\x9b'
	u=$(cgk_sandbox unified)
	watch_start --timeout=20 -n 1 "/$S" || return
	mkdir "$u/$name"
	watch_end 20 || return
	rmdir "$u/$name"
	assertNotContains "no raw ESC" "$ev" $'\e'
	assertContains "escaped" "$ev" '/x\x1b[31mred\tline\xc2\x9b unified created'
	assertEquals "one line" 1 "$(printf '%s\n' "$ev" | wc -l)"
}

# ---- unprivileged, namespaced, out of watches ---------------------------------------------

# A delegated subtree (owned by nobody) watched by nobody: inotify needs only read access.
test_unprivileged_delegated() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_sandbox unified)
	mkdir "$u/deleg"
	chown 65534:65534 "$u/deleg" "$u/deleg/cgroup.procs" "$u/deleg/cgroup.subtree_control" "$u/deleg/cgroup.threads"
	rm -f "$_cgk_tmp/ev.out" "$_cgk_tmp/ev.err"
	"$HELPERS/runas" 65534 65534 "$T" -v --events --timeout=20 -n 2 "/$S/deleg" >"$_cgk_tmp/ev.out" 2>"$_cgk_tmp/ev.err" &
	_watch=$!
	cgk_wait_for grep -q watching "$_cgk_tmp/ev.err" || { fail "not started: $(cat "$_cgk_tmp/ev.err")"; return; }
	"$HELPERS/runas" 65534 65534 mkdir "$u/deleg/mine"
	"$HELPERS/runas" 65534 65534 rmdir "$u/deleg/mine"
	watch_end 20 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "created" 1 "$(count_ev "/$S/deleg/mine" unified created)"
	assertEquals "removed" 1 "$(count_ev "/$S/deleg/mine" unified removed)"
}

# Inside a cgroup namespace rooted at $S/ns (cgroup2 mounted again in a private mount
# namespace): the paths are those the process sees.
test_cgroup_namespace() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u mnt us
	# by path: busybox sh would run its own applet, which has no --cgroup
	cgk_need_prog unshare "a cgroup namespace" || return 0
	us=$(command -v unshare)
	"$us" --cgroup --mount true 2>/dev/null ||
		{ cgk_skip "cannot make a cgroup namespace here (unshare --cgroup --mount fails)"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/ns" "$u/ns/inner"
	mnt=$_cgk_tmp/mnt
	mkdir -p "$mnt"
	rm -f "$_cgk_tmp/ev.out" "$_cgk_tmp/ev.err"
	sh -c 'echo $$ >"$1/ns/cgroup.procs" && exec "$4" --cgroup --mount sh -c "mount -t cgroup2 none \"\$0\" && exec \"\$1\" -v --events --timeout=20 -n 2 /inner" "$2" "$3"' \
		_ "$u" "$mnt" "$T" "$us" >"$_cgk_tmp/ev.out" 2>"$_cgk_tmp/ev.err" &
	_watch=$!
	cgk_wait_for grep -q watching "$_cgk_tmp/ev.err" || { fail "not started: $(cat "$_cgk_tmp/ev.err")"; return; }
	mkdir "$u/ns/inner/x"
	rmdir "$u/ns/inner/x"
	watch_end 20 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "created, as the namespace sees it: $ev" 1 "$(count_ev /inner/x unified created)"
	assertEquals "removed" 1 "$(count_ev /inner/x unified removed)"
}

# Out of inotify watches: one clear line naming the limit. The limit is the whole machine's:
# lowered in the VM only.
test_out_of_watches() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_vm "lowers fs.inotify.max_user_watches, a machine-wide limit: VM only" || return 0
	local u old
	u=$(cgk_sandbox unified)
	mkdir "$u/w"
	(cd "$u/w" && printf 'c%d\n' $(seq 1 40) | xargs mkdir)
	old=$(cat /proc/sys/fs/inotify/max_user_watches)
	echo 30 >/proc/sys/fs/inotify/max_user_watches
	cgk_capture "$T" --events --timeout=5 "/$S/w"
	echo "$old" >/proc/sys/fs/inotify/max_user_watches
	assertEquals "exit" 1 "$rc"
	assertContains "$err" "out of inotify watches: fs.inotify.max_user_watches is 30 for this user"
	assertContains "$err" "raise it with sysctl fs.inotify.max_user_watches=N"
}

# v1 has no cgroup.events: populated and empty as sampled every -d, from the membership.
test_v1_populated_sampled() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local p pid
	p=$(cgk_sandbox pids)
	mkdir "$p/a" "$p/a/b"
	watch_start --timeout=20 -n 4 -d 0.1 --events=populated,empty "/$S/a" || return
	"$BUSY" -s "$p/a/b/cgroup.procs" &
	pid=$!
	cgk_wait_for grep -q "/$S/a/b pids populated" "$_cgk_tmp/ev.out"
	kill -9 $pid
	wait $pid 2>/dev/null
	watch_end 20 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "b populated: $ev" 1 "$(count_ev "/$S/a/b" pids populated)"
	assertEquals "a populated (a descendant)" 1 "$(count_ev "/$S/a" pids populated)"
	assertEquals "b empty" 1 "$(count_ev "/$S/a/b" pids empty)"
	assertEquals "a empty" 1 "$(count_ev "/$S/a" pids empty)"
	assertContains "sampled" "$ev" "source=sampled"
}

# How many lines of the events say cgroup $1 had event $2, in any hierarchy.
count_any() {
	awk -v c="$1" -v e="$2" '$2 == c && $4 == e { n++ } END { print n + 0 }' "$_cgk_tmp/ev.out"
}

# A hybrid layout: the same path in the unified tree and in a v1 hierarchy is one cgroup, so
# each change is one event, not one a hierarchy (the v1 side's populated is sampled: the later
# of the two says empty).
test_hybrid_one_event_per_path() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_v1 pids || return 0
	local u p pid
	u=$(cgk_sandbox unified)
	p=$(cgk_sandbox pids)
	watch_start --timeout=30 -d 0.2 --events=created,removed,populated,empty "/$S" || return
	mkdir "$u/h" "$p/h"
	cgk_wait_for grep -q "/$S/h .* created" "$_cgk_tmp/ev.out"
	"$BUSY" -s "$u/h/cgroup.procs" "$p/h/cgroup.procs" &
	pid=$!
	cgk_wait_for grep -q "/$S/h .* populated" "$_cgk_tmp/ev.out"
	sleep 0.6
	kill -9 $pid
	wait $pid 2>/dev/null
	cgk_wait_for grep -q "/$S/h .* empty" "$_cgk_tmp/ev.out"
	sleep 0.6
	rmdir "$u/h" "$p/h"
	cgk_wait_for grep -q "/$S/h .* removed" "$_cgk_tmp/ev.out"
	sleep 0.3
	kill "$_watch"
	watch_end 10
	assertEquals "created once: $ev" 1 "$(count_any "/$S/h" created)"
	assertEquals "populated once" 1 "$(count_any "/$S/h" populated)"
	assertEquals "empty once" 1 "$(count_any "/$S/h" empty)"
	assertEquals "removed once" 1 "$(count_any "/$S/h" removed)"
}

# Fields split alike for every name: a space is \x20, so the line has its four fields.
test_text_fields_split() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u name=$'my service\\x20 \tz'
	u=$(cgk_sandbox unified)
	mkdir "$u/sp"
	watch_start --timeout=20 -n 1 "/$S/sp" || return
	mkdir "$u/sp/$name"
	watch_end 20 || return
	rmdir "$u/sp/$name"
	assertEquals "four fields: $ev" 4 "$(awk '{ print NF }' <<<"$ev")"
	assertEquals "escaped, reversibly" "/$S/sp/"'my\x20service\\x20\x20\tz' "$(awk '{ print $2 }' <<<"$ev")"
	# undoing the escapes gives the name back
	assertEquals "the name back" "/$S/sp/$name" "$(printf '%b' "$(awk '{ print $2 }' <<<"$ev")")"
}

# ---- v1 pids ------------------------------------------------------------------------------

test_v1_pids_max() {
	cgk_need_root || return 0
	cgk_need_v1 pids || return 0
	local p pid
	p=$(cgk_sandbox pids)
	mkdir "$p/lim"
	echo 2 >"$p/lim/pids.max"
	watch_start --timeout=20 -n 1 -d 0.2 --events=pids_max "/$S" || return
	bash -c 'echo $$ >"$1/lim/cgroup.procs"; exec "$2" 2' _ "$p" "$HELPERS/forkbomb" &
	pid=$!
	_pids+=("$pid")
	watch_end 20 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertContains "$ev" "/$S/lim pids pids_max count="
}

# ---- exactly once -------------------------------------------------------------------------

test_storm_each_once() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u n=1000 bad
	u=$(cgk_sandbox unified)
	mkdir "$u/storm"
	watch_start --timeout=120 -n $((2 * n)) --events=created,removed "/$S/storm" || return
	(cd "$u/storm" && printf 'c%d\n' $(seq 1 $n) | xargs mkdir && printf 'c%d\n' $(seq 1 $n) | xargs rmdir)
	watch_end 120 || return
	assertEquals "exit: $everr" 0 "$evrc"
	bad=$(awk -v n=$n '{ k = $4 " " $2; c[k]++ }
		END { for (i = 1; i <= n; i++) for (e = 0; e < 2; e++) {
			k = (e ? "removed" : "created") " " "/'"$S"'/storm/c" i
			if (c[k] != 1) { print k ": " c[k] + 0; bad++ } }
		      print bad + 0 }' "$_cgk_tmp/ev.out" | tail -n 5)
	assertEquals "each created and removed once" 0 "$(echo "$bad" | tail -n 1)"
}

# The watcher stopped (SIGSTOP) while more happens than its inotify queue holds: the overflow
# is answered by a rescan that reports what differs from what it knew.
test_overflow_rescan() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u q n bad
	q=$(cat /proc/sys/fs/inotify/max_queued_events)
	[ "$q" -le 20000 ] || { cgk_skip "max_queued_events is $q: too many cgroups to make for an overflow"; return 0; }
	u=$(cgk_sandbox unified)
	n=$((q / 2 + 100))
	mkdir "$u/ov" "$u/ov/old1" "$u/ov/old2"
	watch_start --timeout=120 --events=created,removed "/$S/ov" || return
	kill -STOP "$_watch"
	(cd "$u/ov" && printf 't%d\n' $(seq 1 $n) | xargs mkdir && printf 't%d\n' $(seq 1 $n) | xargs rmdir &&
		mkdir keep1 keep2 && rmdir old1)
	kill -CONT "$_watch"
	cgk_wait_for grep -q "/$S/ov/keep2 unified created" "$_cgk_tmp/ev.out"
	sleep 0.5
	kill "$_watch"
	watch_end 5 || return
	assertContains "overflow said" "$everr" "inotify queue overflowed"
	assertEquals "keep1 once" 1 "$(count_ev "/$S/ov/keep1" unified created)"
	assertEquals "keep2 once" 1 "$(count_ev "/$S/ov/keep2" unified created)"
	assertEquals "old1 removed once" 1 "$(count_ev "/$S/ov/old1" unified removed)"
	# what was seen before the overflow, and what the rescan found: never twice
	bad=$(awk '{ c[$4 " " $2]++ } END { for (k in c) if (c[k] > 1) print k }' "$_cgk_tmp/ev.out")
	assertEquals "nothing twice" "" "$bad"
}

# ---- --exec -------------------------------------------------------------------------------

test_exec_slow_one_at_a_time() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u log=$_cgk_tmp/exec.log gate=$_cgk_tmp/exec.gate
	u=$(cgk_sandbox unified)
	mkdir "$u/x" "$u/y"
	: >"$log"
	# x's first command runs until the test opens the gate (2 min at most: a guard), not for a
	# time the watcher must beat
	watch_start --timeout=600 -n 6 --events=frozen,thawed \
		--exec='echo "start $CGROUP $CGROUP_EVENT $CGROUP_HIERARCHY $CGROUP_COUNT" >>'"$log"'; i=0; while [ ! -e '"$gate"' ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done; echo "end $CGROUP" >>'"$log"'; [ "$CGROUP_EVENT" = thawed ] && exit 3; exit 0' \
		"/$S" || return
	# each change waits for its line: a state that flips back before it is read is one read
	echo 1 >"$u/x/cgroup.freeze"
	cgk_wait_for grep -q "/$S/x unified frozen" "$_cgk_tmp/ev.out"
	echo 1 >"$u/y/cgroup.freeze"
	echo 0 >"$u/x/cgroup.freeze"
	cgk_wait_for grep -q "/$S/x unified thawed" "$_cgk_tmp/ev.out"
	echo 1 >"$u/x/cgroup.freeze"
	cgk_wait_for sh -c '[ $(grep -c "/$1/x unified frozen" "$2") = 2 ]' _ "$S" "$_cgk_tmp/ev.out"
	echo 0 >"$u/x/cgroup.freeze"
	echo 0 >"$u/y/cgroup.freeze"
	CGK_WAIT_TICKS=2400 cgk_wait_for sh -c '[ $(wc -l <"$1") = 6 ]' _ "$_cgk_tmp/ev.out"
	# the watcher printed them all while x's first command was still running
	assertEquals "all six printed (hung 2 min): $(cat "$_cgk_tmp/ev.out")" 6 "$(wc -l <"$_cgk_tmp/ev.out")"
	assertEquals "x's first command still running" 0 "$(grep -c "^end /$S/x" "$log")"
	touch "$gate"
	watch_end 60 || return
	assertEquals "exit: $everr" 0 "$evrc"
	# -n 6 waits for the queued commands: x ran 4 (one at a time), y 2
	assertEquals "x ran four: $(cat "$log")" 4 "$(grep -c "^start /$S/x " "$log")"
	assertEquals "y ran two" 2 "$(grep -c "^start /$S/y " "$log")"
	# per cgroup: start, end, start, end ... never two starts in a row
	assertEquals "x one at a time" "" "$(grep " /$S/x" "$log" | awk '{ if ($1 == prev) print NR; prev = $1 }')"
	assertContains "environment" "$(cat "$log")" "start /$S/x frozen unified 1"
	assertContains "failure said" "$everr" "cgroup /$S/x (unified): --exec: the command for thawed exited with status 3"
}

# A cgroup's events while its command runs wait in a queue of 64; more are counted, said, and
# told to the next command (CGROUP_DROPPED); at SIGTERM the queued ones are said, not run.
test_exec_queue_bounded() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u log=$_cgk_tmp/q.log go=$_cgk_tmp/q.go i n
	u=$(cgk_sandbox unified)
	mkdir "$u/q"
	: >"$log"
	rm -f "$go"
	watch_start --events=frozen,thawed \
		--exec='echo "run ${CGROUP_DROPPED:-0}" >>'"$log"'; while [ ! -e '"$go"' ]; do sleep 0.05; done; sleep 1' "/$S" || return
	# the first command holds on until the watcher has printed 70 events or more; each state
	# waits for the watcher's line, as a freeze and thaw faster than it reads are one change
	for i in $(seq 1 40); do
		echo 1 >"$u/q/cgroup.freeze"
		cgk_wait_for sh -c '[ $(wc -l <"$1") -ge "$2" ]' _ "$_cgk_tmp/ev.out" $((2 * i - 1))
		echo 0 >"$u/q/cgroup.freeze"
		cgk_wait_for sh -c '[ $(wc -l <"$1") -ge "$2" ]' _ "$_cgk_tmp/ev.out" $((2 * i))
	done
	cgk_wait_for sh -c '[ $(wc -l <"$1") -ge 70 ]' _ "$_cgk_tmp/ev.out" || fail "fewer than 70 events printed"
	n=$(wc -l <"$_cgk_tmp/ev.out")
	touch "$go"
	cgk_wait_for sh -c '[ $(wc -l <"$1") -ge 2 ]' _ "$log"
	kill -TERM "$_watch"
	watch_end 10 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "the second command was told: $(cat "$log")" "run $((n - 1 - 64))" "$(sed -n 2p "$log")"
	assertContains "dropped said" "$everr" "cgroup /$S/q (unified): --exec: $((n - 1 - 64)) events not run (queue full)"
	assertContains "queued said" "$everr" "--exec: 63 queued events of 1 cgroup not run (interrupted)"
	echo 0 >"$u/q/cgroup.freeze"
}

# A delegated user's mkdir and rmdir of 10,000 unique names under a slow --exec: each name has
# a queue of its own, so only a bound over all of them (count and bytes) keeps root's watcher
# small (it grew by 3.4 kB an event); what that bound refuses is said once, and SIGTERM says
# what waited in one line, not one a cgroup.
test_exec_storm_bounded() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_unwrapped "measures the watcher's resident memory" || return 0
	# ASan keeps freed memory in its quarantine (256 MB): the RSS says nothing of the queue
	if command -v ldd >/dev/null && ldd "$T" 2>/dev/null | grep -q libasan; then
		cgk_skip "measures the watcher's resident memory, which ASan's quarantine inflates"
		return 0
	fi
	local u n=10000 pids=$_cgk_tmp/storm.pids rss0 rss1 p
	u=$(cgk_sandbox unified)
	mkdir "$u/st"
	chown 65534:65534 "$u/st"
	: >"$pids"
	watch_start --events=created,removed --exec='echo $$ >>'"$pids"'; exec sleep 300' "/$S/st" || return
	rss0=$(awk '/^VmRSS/ { print $2 }' "/proc/$_watch/status")
	"$HELPERS/runas" 65534 65534 sh -c 'cd "$1" && seq 1 "$2" | sed "s/^/n/" | xargs mkdir && seq 1 "$2" | sed "s/^/n/" | xargs rmdir' _ "$u/st" $n
	mkdir "$u/st/last"
	# the events come in order: once the last is printed, the storm has been taken in
	CGK_WAIT_TICKS=1200 cgk_wait_for grep -q "/$S/st/last unified created" "$_cgk_tmp/ev.out" ||
		fail "hung: the storm was not taken in in 60 s"
	rss1=$(awk '/^VmRSS/ { print $2 }' "/proc/$_watch/status")
	kill -TERM "$_watch"
	watch_end 10
	while read -r p; do _pids+=("$p"); done <"$pids"
	assertEquals "exit: $everr" 0 "$evrc"
	# 10 MiB: unbounded, the queues grew 3.4 kB an event (34 MB here); the watches themselves
	# cost some: 6.8 MiB before the tree mirror, 7.5 MiB with its hold per watch and their
	# table (one per cgroup of the storm at its height), 8.2 MiB of it in the unified guest
	assertTrue "RSS grew by $((rss1 - rss0)) KiB (from $rss0 KiB), more than 10 MiB" "[ $((rss1 - rss0)) -lt 10240 ]"
	assertEquals "16 commands ran at once" 16 "${#_pids[@]}"
	assertEquals "the full queue said once: $(head -c 600 <<<"$everr")" 1 "$(grep -c 'the most cgtop2 queues' <<<"$everr")"
	assertEquals "one summary line at SIGTERM: $(tail -n 3 <<<"$everr")" 1 "$(grep -c 'interrupted' <<<"$everr")"
	assertEquals "three lines in all" 3 "$(wc -l <<<"$everr")"
	assertContains "the summary" "$everr" "--exec: 1024 queued events of 1024 cgroups not run (interrupted); "
	rmdir "$u/st/last"
}

# The man page's release agent: a cgroup removed by --exec when it becomes empty.
test_exec_release_agent() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u pid
	u=$(cgk_sandbox unified)
	mkdir "$u/jobs" "$u/jobs/j1"
	watch_start --timeout=20 -n 3 --events=empty,removed \
		--exec='[ "$CGROUP_EVENT" = empty ] && [ "$CGROUP" != /'"$S"'/jobs ] && rmdir "$CGROUP_DIR"' \
		"/$S/jobs" || return
	"$BUSY" -s "$u/jobs/j1/cgroup.procs" &
	pid=$!
	# in j1 before it is killed: under ASan at load 30 a fixed 0.3 s ended it before it joined
	# (no empty event, 4 asserts)
	CGK_WAIT_TICKS=2400 cgk_wait_for grep -qx "$pid" "$u/jobs/j1/cgroup.procs" || fail "busy did not join j1"
	kill -9 $pid
	wait $pid 2>/dev/null
	watch_end 20 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertEquals "j1 empty: $ev" 1 "$(count_ev "/$S/jobs/j1" unified empty)"
	assertEquals "jobs empty too (-n 3: j1 empty, jobs empty, j1 removed)" 1 "$(count_ev "/$S/jobs" unified empty)"
	assertEquals "j1 removed by the command" 1 "$(count_ev "/$S/jobs/j1" unified removed)"
	assertFalse "gone" "[ -d '$u/jobs/j1' ]"
	assertTrue "the watched cgroup stays" "[ -d '$u/jobs' ]"
}

# issue 40: standard output is the event stream alone (-F json | jq): a command's own output
# goes to standard error
test_exec_output_to_stderr() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_prog python3 "to parse the JSON stream" || return 0
	local u res
	u=$(cgk_sandbox unified)
	mkdir "$u/hk"
	watch_start --timeout=60 -n 2 -F json --events=created \
		--exec='echo "hook says $CGROUP"; echo "{\"event\": \"forged\"}"' "/$S/hk" || return
	mkdir "$u/hk/a"
	mkdir "$u/hk/b"
	watch_end 60 || return
	assertEquals "exit: $everr" 0 "$evrc"
	res=$(python3 -c '
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(e["event"] for e in evs) == ["created", "created"], evs
assert sorted(e["cgroup"] for e in evs) == [sys.argv[2] + "/a", sys.argv[2] + "/b"], evs
print("ok")' "$_cgk_tmp/ev.out" "/$S/hk" 2>&1)
	assertEquals "stdout holds the events only: $ev" ok "$res"
	assertContains "the hook's text on stderr" "$everr" "hook says /$S/hk/a"
	assertContains "the hook's text on stderr" "$everr" "hook says /$S/hk/b"
}

# ---- PSI triggers ---------------------------------------------------------------------------

test_psi_usage() {
	cgk_capture "$T" --events --psi-trigger=cpu:some:100ms:400ms
	assertEquals "window" 64 "$rc"
	assertContains "$err" "--psi-trigger 'cpu:some:100ms:400ms': the window is 500ms to 10s"
	cgk_capture "$T" --events --psi-trigger=irq:some:100ms:2s
	assertEquals "irq some" 64 "$rc"
	assertContains "$err" "irq.pressure has only a full line"
	cgk_capture "$T" --events --psi-trigger=cpu:some:3s:2s
	assertContains "$err" "the stall is at most the window"
	cgk_capture "$T" --psi-trigger=cpu:some:1s:2s
	assertEquals "without --events, not on a terminal" 64 "$rc"
	assertEquals "the screen's mark needs the screen" "cgtop2: --psi-trigger needs --events, --listen or the screen (a terminal)" "$err"
	cgk_capture "$T" -b --psi-trigger=cpu:some:1s:2s
	assertEquals "-b" 64 "$rc"
	assertContains "$err" "--psi-trigger needs --events, --listen or the screen (not -b, -F, --record or --replay)"
	cgk_capture "$T" --events=created --psi-trigger=cpu:some:1s:2s
	assertEquals "pressure not asked" 64 "$rc"
	assertContains "$err" "--psi-trigger needs --events=pressure (or all)"
	cgk_capture "$T" --events=pressure
	assertEquals "no trigger" 64 "$rc"
	assertContains "$err" "--events=pressure needs a --psi-trigger"
}

# How many of the watcher's fds are open on a pressure file.
pressure_fds() {
	local n=0 f
	for f in /proc/"$_watch"/fd/*; do
		case $(readlink "$f") in *.pressure) n=$((n + 1)) ;; esac
	done
	echo $n
}

# issue 40: a user who can make cgroups in the watched subtree runs root's watcher out of file
# descriptors (a PSI trigger holds one per cgroup): it keeps what it holds, says the first cgroup
# it cannot watch once on stderr, each as an unwatched event, and goes on reporting.
test_out_of_fds_goes_on() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_unwrapped "valgrind needs fds of its own below ulimit -n" || return 0
	local u i n
	u=$(cgk_sandbox unified)
	[ -e "$u/cpu.pressure" ] || { cgk_skip "no cpu.pressure in cgroup2 (CONFIG_PSI off or psi=0)"; return 0; }
	mkdir "$u/fd"
	bash -c 'ulimit -n 60 && exec "$@"' _ "$T" -v --events=pressure,created \
		--psi-trigger=cpu:some:1s:2s "/$S/fd" >"$_cgk_tmp/ev.out" 2>"$_cgk_tmp/ev.err" &
	_watch=$!
	cgk_wait_for grep -qs watching "$_cgk_tmp/ev.err" || { fail "the watcher did not start: $(cat "$_cgk_tmp/ev.err")"; return 1; }
	for i in $(seq 1 80); do mkdir "$u/fd/c$i"; done
	# the events come in order: the last one's line means all were taken in
	cgk_wait_for grep -q "/$S/fd/c80 unified created" "$_cgk_tmp/ev.out" ||
		fail "hung: no created event of c80: $(tail -n 3 "$_cgk_tmp/ev.err")"
	# c1, watched before the limit, still reports what happens in it
	mkdir "$u/fd/c1/after"
	cgk_wait_for grep -q "/$S/fd/c1/after unified created" "$_cgk_tmp/ev.out" ||
		fail "nothing reported after the limit: $(tail -n 3 "$_cgk_tmp/ev.err")"
	assertTrue "still running: $(cat "$_cgk_tmp/ev.err")" "kill -0 $_watch"
	assertEquals "the limit said once: $(cat "$_cgk_tmp/ev.err")" 1 "$(grep -c 'not watched: out of file descriptors (ulimit -n)' "$_cgk_tmp/ev.err")"
	assertEquals "nothing else on stderr: $(cat "$_cgk_tmp/ev.err")" 2 "$(wc -l <"$_cgk_tmp/ev.err")"
	n=$(grep -c " unified unwatched limit=open_files$" "$_cgk_tmp/ev.out")
	assertTrue "unwatched events: $n" "[ $n -ge 1 ]"
	assertTrue "the first cgroups are watched: $n of 81 not" "[ $n -lt 81 ]"
	assertEquals "each cgroup said once" "" "$(awk '$4 == "unwatched" { if (seen[$2]++) print $2 }' "$_cgk_tmp/ev.out")"
	assertEquals "c1 is watched" 0 "$(count_ev "/$S/fd/c1" unified unwatched)"
	assertEquals "every cgroup created is reported" 81 "$(grep -c " unified created$" "$_cgk_tmp/ev.out")"
}

# Three busy threads on two CPUs in one cgroup: the kernel's trigger fires within its window
# (an unprivileged trigger, as root here lacks CAP_SYS_RESOURCE, is checked every 2 s by the
# kernel's averaging work: one period of slack); an idle cgroup beside it fires nothing; the
# cgroup removed gives its trigger's fd back.
test_psi_trigger_cpu() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u line
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || [ -e /proc/pressure/cpu ] ||
		{ cgk_skip "no PSI in this kernel (CONFIG_PSI off or psi=0)"; return 0; }
	# under TCG the busy loops' stalls come late and uneven (19 s for a 2 s window seen): the
	# trigger's timing is tested on the host's kernel; the guests test memory.high's trigger
	cgk_in_vm && { cgk_skip "emulated CPUs (TCG) do not stall on the trigger's clock"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/psi" "$u/psi/busy" "$u/psi/idle"
	watch_start --timeout=60 --events=pressure,removed --psi-trigger=cpu:some:500ms:2s \
		--exec='[ "$CGROUP_EVENT" = pressure ] && echo "$CGROUP $CGROUP_PSI_RESOURCE $CGROUP_PSI_KIND $CGROUP_PSI_STALL_US $CGROUP_PSI_WINDOW_US $CGROUP_COUNT" >>'"$_cgk_tmp/psi.log" \
		"/$S/psi" || return
	assertContains "-v says the triggers" "$(cat "$_cgk_tmp/ev.err")" "with 4 inotify watches and 3 PSI triggers"
	assertEquals "an fd a trigger" 3 "$(pressure_fds)"
	"$BUSY" -n 3 "$u/psi/busy/cgroup.procs" &
	_pids+=($!)
	# how soon it fires is bench/timing.sh's row psi_trigger; 50 s (the watcher's --timeout is
	# 60) only guards a hang
	CGK_WAIT_TICKS=1000 cgk_wait_for grep -q "/$S/psi/busy unified pressure" "$_cgk_tmp/ev.out" ||
		fail "hung: no pressure event in 50 s: $(cat "$_cgk_tmp/ev.out" "$_cgk_tmp/ev.err")"
	line=$(grep -m1 "/$S/psi/busy unified pressure" "$_cgk_tmp/ev.out")
	assertContains "fields: $line" "$line" " resource=cpu kind=some stall_us=500000 window_us=2000000 count=1 avg10="
	assertContains "source" "$line" "source=trigger"
	cgk_wait_for test -s "$_cgk_tmp/psi.log"
	cgk_wait_for grep -q "^/$S/psi/busy " "$_cgk_tmp/psi.log"
	# psi, busy's parent, stalls alike and says so too
	assertEquals "--exec's variables" "/$S/psi/busy cpu some 500000 2000000 1" "$(grep -m1 "^/$S/psi/busy " "$_cgk_tmp/psi.log")"
	cgk_kill_pids
	sleep 2.5
	assertEquals "the idle cgroup: nothing" 0 "$(count_ev "/$S/psi/idle" unified pressure)"
	# at most one event per window: the stalls of 2.5 s give at most 2 or 3
	assertTrue "edge-limited: $(cat "$_cgk_tmp/ev.out")" "[ $(count_ev "/$S/psi/busy" unified pressure) -le 3 ]"
	rmdir "$u/psi/idle"
	cgk_wait_for grep -q "/$S/psi/idle unified removed" "$_cgk_tmp/ev.out"
	cgk_wait_for test "$(pressure_fds)" = 2
	assertEquals "the removed cgroup's trigger released" 2 "$(pressure_fds)"
	kill "$_watch"
	watch_end 10
}

# :sample: avg10 read every -d against stall/window, only when asked; no trigger registered.
test_psi_sample() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/samp"
	watch_start --timeout=30 -n 1 -d 0.2 --events=pressure --psi-trigger=cpu:some:100ms:1s:sample "/$S/samp" || return
	assertContains "no trigger registered" "$(cat "$_cgk_tmp/ev.err")" "and 0 PSI triggers"
	"$BUSY" -n 3 "$u/samp/cgroup.procs" &
	_pids+=($!)
	watch_end 30 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertContains "sampled: $ev" "$ev" "/$S/samp unified pressure resource=cpu kind=some stall_us=100000 window_us=1000000 count=1"
	assertContains "source" "$ev" "source=sampled"
}

# One cgroup watched alone, so its trigger's fd is the only one the kernel wakes: every window of
# a stall that lasts gives its event. cgtop2 polled its epoll fd, which polls the trigger's fd and
# takes the wake-up the kernel says once, before its epoll_wait: no event in 14 s, unless another
# fd woken at once came first in the ready list (issue 34's miss in the unified guest).
test_psi_trigger_alone() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u n
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	cgk_in_vm && { cgk_skip "emulated CPUs (TCG) do not stall on the trigger's clock"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/alone"
	watch_start --timeout=9 --events=pressure --psi-trigger=cpu:some:500ms:2s "/$S/alone" || return
	"$BUSY" -n 3 "$u/alone/cgroup.procs" &
	_pids+=($!)
	watch_end 20 || return
	n=$(count_ev "/$S/alone" unified pressure)
	# 9 s of 2 s windows, the first from the first 2 s: 3 or 4 (2 on a loaded host)
	assertTrue "a wake-up a window: $n in 9 s: $ev $everr" "[ $n -ge 2 ] && [ $n -le 5 ]"
}

# --listen --psi-trigger: the exporter counts the wake-ups of each resource and kind asked.
test_psi_exporter_counts() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_prog curl "to scrape" || return 0
	local u port m i n=0
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/ex" "$u/ex/busy"
	"$T" --listen=127.0.0.1:0 --psi-trigger=cpu:some:500ms:2s --psi-trigger=cpu:some:1s:2s \
		"/$S/ex" >/dev/null 2>"$_cgk_tmp/ex.err" &
	_pids+=($!)
	cgk_wait_for grep -qs 'serving ' "$_cgk_tmp/ex.err" || { fail "not serving: $(cat "$_cgk_tmp/ex.err")"; return; }
	port=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$_cgk_tmp/ex.err")
	m=$(curl -s "http://127.0.0.1:$port/metrics")
	assertContains "the family, at 0: $m" "$m" 'cgroup_pressure_trigger_events_total{resource="cpu",kind="some"} 0'
	assertEquals "only what a trigger asks: one line" 1 "$(grep -c '^cgroup_pressure_trigger_events_total' <<<"$m")"
	"$BUSY" -n 3 "$u/ex/busy/cgroup.procs" &
	_pids+=($!)
	for i in $(seq 1 480); do
		sleep 0.25
		n=$(curl -s -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$port/metrics" |
			sed -n 's/^cgroup_pressure_trigger_events_total{resource="cpu",kind="some"} //p')
		[ "${n:-0}" -gt 0 ] && break
	done
	assertTrue "wake-ups counted (hung: none in 2 min): $n" "[ ${n:-0} -gt 0 ]"
	cgk_kill_pids
}

# issue 42: the exporter counts --psi-trigger's wake-ups in its main thread's wait (the
# scheduler's), with no thread of its own: an exporter with triggers runs as many threads as one
# without (libmicrohttpd's and the password workers'). The counter's thread made one more.
# And the watcher subscribes to the sampler's tree mirror: one inotify instance, not two.
test_psi_exporter_no_thread() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u pid trig n=() ino=() i=0
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/nt"
	for trig in "" --psi-trigger=cpu:some:500ms:2s; do
		i=$((i + 1))
		"$T" --listen=127.0.0.1:0 $trig "/$S/nt" >/dev/null 2>"$_cgk_tmp/nt$i.err" &
		pid=$!
		_pids+=($pid)
		# its threads are made before it says it serves
		cgk_wait_for grep -qs 'serving ' "$_cgk_tmp/nt$i.err" || { fail "not serving: $(cat "$_cgk_tmp/nt$i.err")"; return; }
		n+=("$(ls "/proc/$pid/task" | wc -l)")
		ino+=("$(for f in /proc/"$pid"/fd/*; do readlink "$f"; done | grep -c '^anon_inode:inotify$')")
		cgk_kill_pids
	done
	assertEquals "threads without and with --psi-trigger" "${n[0]} ${n[0]}" "${n[0]} ${n[1]}"
	# the sampler and the triggers' watcher subscribe to one tree mirror: one inotify instance
	assertEquals "inotify instances without and with --psi-trigger" "1 1" "${ino[0]} ${ino[1]}"
}

# The kernel's rule for a process without CAP_SYS_RESOURCE (root on this machine, or a
# delegated user: tests/unpriv.sh): one line naming it, exit 1, nothing left behind.
# issue 40: the exporter's triggers (an fd a cgroup) stop short of the fds its sampler and its
# connections need: cgroups made past that get no trigger (said once), and scrapes are answered.
# The triggers took every fd before (250 cgroups under ulimit -n 200): the watcher failed and
# the server, out of fds, accepted no connection.
test_psi_exporter_out_of_fds() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	cgk_need_prog curl "to scrape" || return 0
	cgk_need_unwrapped "valgrind needs fds of its own below ulimit -n" || return 0
	local u port m i pid
	[ -e "$(cgk_mnt unified)/cpu.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	u=$(cgk_sandbox unified)
	mkdir "$u/xf"
	bash -c 'ulimit -n 200 && exec "$@"' _ "$T" --listen=127.0.0.1:0 --psi-trigger=cpu:some:1s:2s \
		"/$S/xf" >/dev/null 2>"$_cgk_tmp/xf.err" &
	pid=$!
	_pids+=($pid)
	cgk_wait_for grep -qs 'serving ' "$_cgk_tmp/xf.err" || { fail "not serving: $(cat "$_cgk_tmp/xf.err")"; return; }
	port=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$_cgk_tmp/xf.err")
	for i in $(seq 1 250); do mkdir "$u/xf/c$i"; done
	cgk_wait_for grep -q 'no trigger (limit=open_files reached)' "$_cgk_tmp/xf.err" ||
		fail "hung: no line for the cgroups past the limit: $(head -c 600 "$_cgk_tmp/xf.err")"
	# the curl timeout guards a hang only
	m=$(curl -s -m 30 "http://127.0.0.1:$port/metrics")
	assertContains "scraped: $(head -c 600 "$_cgk_tmp/xf.err")" "$m" 'cgroup_pressure_trigger_events_total{resource="cpu",kind="some"}'
	assertContains "every cgroup sampled" "$m" "cgroup_cpu_usage_seconds_total{cgroup=\"/$S/xf/c250\"}"
	assertTrue "still running" "kill -0 $pid"
	assertEquals "said once: $(cat "$_cgk_tmp/xf.err")" 1 "$(grep -c 'no trigger' "$_cgk_tmp/xf.err")"
	assertEquals "the watcher did not fail" 0 "$(grep -c 'the watcher failed' "$_cgk_tmp/xf.err")"
	cgk_kill_pids
}

test_psi_window_rule() {
	cgk_need_root || return 0
	cgk_need_unified || return 0
	local u
	u=$(cgk_sandbox unified)
	mkdir -p "$u/w"
	# CAP_SYS_RESOURCE is bit 24 of the effective set (root in the VM guests has it)
	if (((0x$(awk '/^CapEff:/ { print $2 }' /proc/self/status) >> 24) & 1)); then
		cgk_skip "this process has CAP_SYS_RESOURCE: the kernel takes any window"
		return 0
	fi
	cgk_capture "$T" --events=pressure --psi-trigger=cpu:some:100ms:1s --timeout=5 "/$S/w"
	assertEquals "exit" 1 "$rc"
	assertEquals "the rule" "cgtop2: cgroup /$S/w (unified): PSI trigger cpu:some on cpu.pressure: without CAP_SYS_RESOURCE the kernel (6.5 and later) takes only windows that are a multiple of 2 s, this one is 1000 ms" "$err"
}

# ---- VM matrix: v2 controllers, the v1 memory hierarchy ------------------------------------

test_unified_oom_kill() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	local u pid
	u=$(cgk_sandbox unified)
	echo +memory >"$u/cgroup.subtree_control"
	mkdir "$u/m"
	echo 16M >"$u/m/memory.max"
	echo 0 >"$u/m/memory.swap.max" 2>/dev/null
	watch_start --timeout=60 --events=oom,oom_kill "/$S" || return
	"$BUSY" -s -m 64 "$u/m/cgroup.procs" &
	pid=$!
	wait $pid 2>/dev/null
	cgk_wait_for grep -q "/$S/m unified oom_kill" "$_cgk_tmp/ev.out"
	kill "$_watch"
	watch_end 10
	assertContains "oom: $ev" "$ev" "/$S/m unified oom count="
	assertContains "oom_kill" "$ev" "/$S/m unified oom_kill count=1 total=1"
}

# A memory hog held under memory.high stalls on reclaim: memory:some fires, and --exec runs
# once per window at most (the VM: v2 memory controller).
test_psi_memory_high() {
	cgk_need_root || return 0
	cgk_need_v2 memory || return 0
	local u log=$_cgk_tmp/mh.log n e total gap
	[ -e "$(cgk_mnt unified)/memory.pressure" ] || { cgk_skip "no PSI in this kernel"; return 0; }
	u=$(cgk_sandbox unified)
	echo +memory >"$u/cgroup.subtree_control"
	mkdir "$u/mh"
	echo 8M >"$u/mh/memory.high"
	: >"$log"
	# 20 s: a guest on a loaded host reaches the hog's reclaim late (none in 12 s seen once)
	watch_start --timeout=20 --events=pressure --psi-trigger=memory:some:50ms:2s \
		--exec='echo "$CGROUP $CGROUP_PSI_RESOURCE $CGROUP_COUNT $CGROUP_TIME" >>'"$log" "/$S" || return
	"$BUSY" -m 64 "$u/mh/cgroup.procs" &
	_pids+=($!)
	watch_end 30 || return
	assertEquals "exit: $everr" 0 "$evrc"
	n=$(count_ev "/$S/mh" unified pressure)
	# no event is a miss only if the kernel counted the stall: a guest on a loaded host has
	# run the hog without 50 ms of it in 20 s (seen twice), which no trigger can report
	total=$(sed -n 's/^some .*total=\([0-9]*\)$/\1/p' "$u/mh/memory.pressure")
	if [ "$n" -eq 0 ] && [ "${total:-0}" -lt 50000 ]; then
		cgk_skip "the hog stalled ${total:-0} us in all: no pressure to report"
		return 0
	fi
	# a miss here was the poll of the epoll fd taking the trigger's wake-up (1 run in 3 of the
	# guest reported nothing after 17.7 s of stall): cg_watch_poll
	assertTrue "memory:some fired (the kernel counted ${total:-?} us): $ev" "[ $n -ge 1 ]"
	# 20 s of 2 s windows: at most one a window
	assertTrue "at most one a window: $n" "[ $n -le 11 ]"
	e=$(grep -c "^/$S/mh memory " "$log")
	assertEquals "--exec once an event: $(cat "$log")" "$n" "$e"
	# the runs' times (ISO, ms) about a window apart at least: the least gap, in ms. The time is
	# taken when printed, after the pressure file's read, which the systemd guest under the
	# hog's reclaim took 240 ms longer over once (1,760 ms); an event a wake-up gives < 100 ms
	gap=$(awk -v c="/$S/mh" '$1 == c { split(substr($4, 12, 12), t, ":"); ms = (t[1] * 3600 + t[2] * 60 + t[3]) * 1000
		if (last != "" && (min == "" || ms - last < min)) min = ms - last; last = ms } END { print min == "" ? 2000 : min }' "$log")
	assertTrue "--exec once per window at most: least gap $gap ms: $(cat "$log")" "[ $gap -ge 1500 ]"
}

test_legacy_oom_eventfd() {
	cgk_need_root || return 0
	cgk_need_v1 memory || return 0
	cgk_need_vm "a process in the v1 memory hierarchy: VM only, never on the host" || return 0
	local m pid
	m=$(cgk_sandbox memory)
	mkdir "$m/m"
	echo 16M >"$m/m/memory.limit_in_bytes"
	watch_start --timeout=60 --events=oom,oom_kill "/$S" || return
	"$BUSY" -s -m 64 "$m/m/cgroup.procs" &
	pid=$!
	wait $pid 2>/dev/null
	cgk_wait_for grep -q "/$S/m memory oom_kill" "$_cgk_tmp/ev.out"
	kill "$_watch"
	watch_end 10
	assertContains "oom: $ev $everr" "$ev" "/$S/m memory oom count="
	assertContains "eventfd" "$ev" "source=eventfd"
}

test_memory_threshold() {
	cgk_need_root || return 0
	local h base
	if [ -n "$(cgk_mnt memory)" ] && [ "$(cgk_mnt memory)" != "$(cgk_mnt unified)" ]; then
		cgk_need_vm "a process in the v1 memory hierarchy: VM only, never on the host" || return 0
		h=memory base=$(cgk_sandbox memory)
	else
		cgk_need_v2 memory || return 0
		h=unified base=$(cgk_sandbox unified)
		echo +memory >"$base/cgroup.subtree_control"
	fi
	mkdir "$base/t"
	watch_start --timeout=60 -d 0.2 --events=threshold --memory-threshold="/$S/t:8M" "/$S" || return
	"$BUSY" -s -m 32 "$base/t/cgroup.procs" &
	_pids+=($!)
	cgk_wait_for grep -q "/$S/t $h threshold above" "$_cgk_tmp/ev.out"
	kill -9 "${_pids[@]}"
	cgk_wait_for grep -q "/$S/t $h threshold below" "$_cgk_tmp/ev.out"
	kill "$_watch"
	watch_end 10
	assertContains "above: $ev $everr" "$ev" "/$S/t $h threshold above"
	assertContains "below" "$ev" "/$S/t $h threshold below"
}

test_unified_throttled() {
	cgk_need_root || return 0
	cgk_need_v2 cpu || return 0
	local u
	u=$(cgk_sandbox unified)
	echo +cpu >"$u/cgroup.subtree_control"
	mkdir "$u/c"
	echo "1000 10000" >"$u/c/cpu.max"
	watch_start --timeout=60 -n 1 -d 0.2 --events=throttled "/$S" || return
	"$BUSY" "$u/c/cgroup.procs" &
	_pids+=($!)
	watch_end 60 || return
	assertContains "throttled: $everr" "$ev" "/$S/c unified throttled count="
	assertContains "sampled" "$ev" "source=sampled"
}

# v1 CPU bandwidth (cpu.cfs_quota_us): throttled from the cpu hierarchy's cpu.stat, sampled.
test_v1_throttled() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	local c
	c=$(cgk_sandbox cpu)
	mkdir "$c/c"
	echo 10000 >"$c/c/cpu.cfs_period_us"
	echo 1000 >"$c/c/cpu.cfs_quota_us"
	watch_start --timeout=30 -n 1 -d 0.2 --events=throttled "/$S" || return
	"$BUSY" "$c/c/cgroup.procs" &
	_pids+=($!)
	watch_end 30 || return
	assertEquals "exit: $everr" 0 "$evrc"
	assertContains "throttled: $ev" "$ev" "/$S/c $(basename "$(cgk_mnt cpu)") throttled count="
	assertContains "sampled" "$ev" "source=sampled"
}

# A cgroup throttled for seconds on end: throttled once when it starts and once when it has
# been quiet for 5 samples, with the count of the whole episode, not a line every sample.
test_v1_throttled_edge() {
	cgk_need_root || return 0
	cgk_need_v1 cpu || return 0
	local c h pid started stopped n
	c=$(cgk_sandbox cpu)
	h=$(basename "$(cgk_mnt cpu)")
	mkdir "$c/e"
	echo 10000 >"$c/e/cpu.cfs_period_us"
	echo 1000 >"$c/e/cpu.cfs_quota_us"
	watch_start --timeout=30 -d 0.2 --events=throttled "/$S" || return
	"$BUSY" "$c/e/cgroup.procs" &
	pid=$!
	_pids+=("$pid")
	sleep 3
	kill -9 $pid
	wait $pid 2>/dev/null
	cgk_wait_for grep -q "/$S/e $h throttled .*state=stopped" "$_cgk_tmp/ev.out"
	kill "$_watch"
	watch_end 10
	n=$(count_ev "/$S/e" "$h" throttled)
	assertEquals "two events over 3 s of throttling (15 samples): $ev" 2 "$n"
	started=$(grep "/$S/e $h throttled" "$_cgk_tmp/ev.out" | sed -n 1p)
	stopped=$(grep "/$S/e $h throttled" "$_cgk_tmp/ev.out" | sed -n 2p)
	assertContains "started: $started" "$started" "state=started source=sampled"
	assertContains "stopped: $stopped" "$stopped" "state=stopped source=sampled"
	# the episode's count: about 300 periods of 10 ms, more than the first sample's
	assertTrue "the episode counted: $started / $stopped" \
		"[ $(sed 's/.* count=\([0-9]*\).*/\1/' <<<"$stopped") -gt $(sed 's/.* count=\([0-9]*\).*/\1/' <<<"$started") ]"
}

. "$SHUNIT2"
