#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Smoke: the binaries exist, --help and --version work, usage errors exit 64.
. "$(dirname "$0")/lib.sh"

test_tools_built() {
	local t
	for t in cgcreate2 cgexec2 cgmigrate cgtop2; do
		[ -x "$CGKIT_BIN/$t" ] || { fail "$t is not built"; continue; }
		cgk_capture "$CGKIT_BIN/$t" --help
		assertEquals "$t --help exit" 0 "$rc"
		assertContains "$t --help" "$out" "Usage: $t"
		cgk_capture "$CGKIT_BIN/$t" --version
		assertEquals "$t --version exit" 0 "$rc"
		assertTrue "$t --version: $out" "[[ \$out =~ ^$t\ \(cgkit\)\ [0-9]+\.[0-9]+ ]]"
		cgk_capture "$CGKIT_BIN/$t" --no-such-option
		# every tool, cgexec2 too (its own failures are 125, env(1)'s convention)
		assertEquals "$t bad option exit" 64 "$rc"
	done
}

. "$SHUNIT2"
