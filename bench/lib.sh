# SPDX-License-Identifier: MIT
# Sourced by the bench scripts. Those that grow flat trees of empty cgroups set $main, the
# hierarchy's mount point, and $name, the sandbox (cgkit-test.PID) directly below it.

# How many of the pids listed in file $1 exist (for the message when sleepers cannot be placed).
bench_alive() {
	local p n=0
	while read -r p; do [ -d "/proc/$p" ] && n=$((n + 1)); done <"$1"
	echo "$n"
}

# The sandbox and its children (empty cgroups: rmdir is the whole removal).
bench_remove_sandbox() {
	if [ -d "$main/$name" ]; then
		find "$main/$name" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$main/$name"
	fi
}

# At least $1 children c00000... in the sandbox (one mkdir for the lot).
grow() {
	local n=$1 have
	[ -d "$main/$name" ] || mkdir "$main/$name" || exit 1
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$have" -lt "$n" ] || return 0
	seq "$have" $((n - 1)) | awk -v d="$main/$name" '{ printf "%s/c%05d\n", d, $1 }' | xargs mkdir || exit 1
}

# The median of the numbers on stdin, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
