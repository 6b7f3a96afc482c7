# SPDX-License-Identifier: MIT
# Sourced by the bench scripts that grow flat trees of empty cgroups: $main is the hierarchy's
# mount point, $name the sandbox (cgkit-test.PID) directly below it.

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
