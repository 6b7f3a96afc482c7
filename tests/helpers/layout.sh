# SPDX-License-Identifier: MIT
# Layout discovery from /proc/self/mountinfo, no side effects: sourced by tests/lib.sh and
# tests/vm/check.

# Mountpoint of the hierarchy serving $1: a v1 controller ("cpu"), "name=systemd", or
# "unified". Empty when not mounted. Reads /proc/self/mountinfo like common/kernel/mount.c does.
cgk_mnt() {
	awk -v want="$1" '
	{
		for (i = 7; i <= NF; i++) if ($i == "-") break
		fs = $(i + 1); opts = "," $(i + 3) ","
		if (want == "unified") { if (fs == "cgroup2") { print $5; exit } ; next }
		if (fs == "cgroup" && index(opts, "," want ",")) { print $5; exit }
	}' /proc/self/mountinfo
}

# "unified", "legacy", "hybrid" or "none"
cgk_layout() {
	local u v1
	u=$(cgk_mnt unified)
	v1=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break; if ($(i + 1) == "cgroup") { print; exit } }' /proc/self/mountinfo)
	if [ -n "$u" ] && [ -n "$v1" ]; then echo hybrid
	elif [ -n "$u" ]; then echo unified
	elif [ -n "$v1" ]; then echo legacy
	else echo none; fi
}
