# SPDX-License-Identifier: MIT
# Sourced by tests/lib.sh (each suite's EXIT trap) and tests/run (a suite killed before its trap
# ended): the cgroup mounts, and a sandbox removed with what our tests left in it.

cgk_all_mnts() {
	awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break
	       if ($(i + 1) == "cgroup" || $(i + 1) == "cgroup2") print $5 }' /proc/self/mountinfo
}

# Kill by PID whatever our tests left in a sandbox, then remove it bottom-up.
cgk_sandbox_remove() {
	local dir=$1 i pid any
	[ -d "$dir" ] || return 0
	# thaw first: a frozen cgroup keeps its killed tasks alive
	find "$dir" -name cgroup.freeze -exec sh -c 'echo 0 > "$1"' _ {} \; 2>/dev/null
	find "$dir" -name freezer.state -exec sh -c 'echo THAWED > "$1"' _ {} \; 2>/dev/null
	for i in $(seq 1 50); do
		any=0
		while read -r pid; do
			[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null && any=1
		done < <(find "$dir" -name cgroup.procs -exec cat {} + 2>/dev/null)
		[ $any -eq 0 ] && break
		sleep 0.05
	done
	for i in $(seq 1 100); do
		# -execdir: a tree deeper than PATH_MAX (tests/hostile) is removed name by name; the
		# guests' busybox find has only -exec
		if [ -z "${_cgk_execdir:-}" ]; then
			_cgk_execdir=-exec
			find / -maxdepth 0 -execdir true \; 2>/dev/null && _cgk_execdir=-execdir
		fi
		find "$dir" -depth -type d "$_cgk_execdir" rmdir {} \; 2>/dev/null
		[ -d "$dir" ] || return 0
		sleep 0.05
	done
	echo "lib.sh: could not remove sandbox $dir" >&2
	return 1
}
