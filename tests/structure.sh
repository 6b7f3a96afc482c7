#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shape ARCHITECTURE.md promises: common/ is layered (no include cycle between its
# subjects), the folders call one another only as its picture allows, no C file grows past what
# a person reads in one sitting, numbers are read by common/base/parse.c alone.
. "$(dirname "$0")/lib.sh"

# The subject a file of common/ belongs to (stats_*.c and stats_*.h are stats, kparse_proc.c is
# kparse, walk.c and cgroup_set.c are cgroup, record_read.c and record_fields.h are record,
# watch_*.c and watch_*.h are watch)
subject() {
	case $1 in
	stats_*) echo stats ;;
	walk | cgroup_set) echo cgroup ;;
	kparse_*) echo kparse ;;
	record_read | record_fields) echo record ;;
	watch_core | watch_files | watch_psi | watch_types) echo watch ;;
	*) echo "$1" ;;
	esac
}

# "a b" lines: subject a includes subject b
include_edges() {
	local f m inc
	for f in "$CGKIT_TOP"/common/*/*.[ch]; do
		m=$(subject "$(basename "${f%.*}")")
		sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
			inc=$(subject "${inc##*/}")
			[ "$inc" != "$m" ] && echo "$m $inc"
		done
	done | sort -u
}

test_no_include_cycle() {
	cgk_need_prog tsort || return 0
	local edges
	edges=$(include_edges)
	assertNotEquals "edges found" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

# "a b" lines: a uses a symbol (a function, a table) that b defines, from the objects' symbol
# tables: a call cycle can hide behind headers that form none. $1: what names a file's node
# (subject: common's subjects; basename: each file one); the objects: common/'s unless given.
call_edges() {
	local of=${1:-subject} o objs
	[ $# -gt 0 ] && shift
	objs=("$@")
	[ $# -gt 0 ] || objs=("$CGKIT_OBJ"/common/*/*.o)
	for o in "${objs[@]}"; do
		nm "$o" | awk -v m="$($of "$(basename "${o%.o}")")" \
			'$1 == "U" { print "U", m, $2 } NF == 3 && $2 ~ /^[TDBR]$/ { print "D", m, $3 }'
	done | awk '$1 == "D" { def[$3] = $2; next } { use[++n] = $2 " " $3 }
		END { for (i = 1; i <= n; i++) { split(use[i], p, " ")
			if ((p[2] in def) && def[p[2]] != p[1]) print p[1], def[p[2]] } }' | sort -u
}

# the objects of a folder and of every folder below it
objs_below() {
	find "$CGKIT_OBJ/$1" -name '*.o' | sort
}

no_call_cycle() {
	local dir=$1 edges
	cgk_need_prog tsort || return 0
	cgk_need_prog nm binutils || return 0
	[ -n "$(objs_below "$dir")" ] || { cgk_skip "no objects in $CGKIT_OBJ/$dir (make first)"; return 0; }
	if [ "$dir" = common ]; then
		edges=$(call_edges subject)
	else
		mapfile -t objs < <(objs_below "$dir")
		edges=$(call_edges basename "${objs[@]}")
	fi
	assertNotEquals "edges found in $dir" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop in $dir: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

test_no_call_cycle() {
	no_call_cycle common
}

# "a b" lines: file a of $1 (common or cmd/cgtop2) uses what file b defines, a file being a .c
# with its own header (foo.c and foo.h are one, foo): a
# function or a table of b's object (nm), or a name b's header defines (a type, an enum's
# constant, a macro, a static inline function), which no symbol table shows: a layer that takes
# the types of the file above it closes a circle with that file's calls down.
use_edges() {
	local dir=$1 h f m names=$_cgk_tmp/names words=$_cgk_tmp/words objs
	for h in $(find "$CGKIT_TOP/$dir" -name '*.h' | sort); do
		m=$(basename "${h%.h}")
		awk -v r="$m" '
			/^#define [A-Za-z_][A-Za-z0-9_]*/ { n = $2; sub(/\(.*/, "", n); if (n !~ /_H$/) print n, r }
			/^(typedef )?(struct|enum|union) [A-Za-z_][A-Za-z0-9_]* *\{/ {
				print $0 ~ /^typedef/ ? $2 "_" $3 : $1 "_" $2, r }
			/^typedef [^(]*[ *][A-Za-z_][A-Za-z0-9_]*;/ { n = $0; sub(/;.*/, "", n); k = split(n, w, /[ *]+/); print w[k], r }
			/^typedef [^(]*\(\*[A-Za-z_][A-Za-z0-9_]*\)/ { n = $0; sub(/^[^(]*\(\*/, "", n); sub(/\).*/, "", n); print n, r }
			/^enum( [A-Za-z_][A-Za-z0-9_]*)? *\{/ { in_enum = 1 }
			in_enum { t = $0; sub(/^enum[^{]*\{/, "", t); sub(/\/\*.*/, "", t); k = split(t, w, /[ ,{}=;\t]+/)
				for (i = 1; i <= k; i++) if (w[i] ~ /^[A-Z_][A-Z0-9_]*$/) print w[i], r
				if ($0 ~ /\}/) in_enum = 0 }
			/^static inline [^(]*[ *][A-Za-z_][A-Za-z0-9_]*\(/ { n = $0; sub(/\(.*/, "", n); k = split(n, w, /[ *]+/); print w[k], r }
		' "$h"
	done | sort -u >"$names"
	cut -d' ' -f1 "$names" | sort -u >"$words"
	for f in $(find "$CGKIT_TOP/$dir" -name '*.[ch]' | sort); do
		m=$(basename "${f%.*}")
		# without comments' and strings' words, a tag joined to its keyword as the names are
		sed 's:/\*.*\*/::g; s:^ *\*.*::; s:^/\*.*::; s:"[^"]*"::g; s/\<\(struct\|enum\|union\) \+\([A-Za-z_]\)/\1_\2/g' "$f" |
			grep -owFf "$words" | sort -u | join - "$names" | awk -v m="$m" '$2 != m { print m, $2 }'
	done
	mapfile -t objs < <(objs_below "$dir")
	call_edges basename "${objs[@]}"
}

no_use_cycle() {
	local dir=$1 edges
	cgk_need_prog tsort || return 0
	cgk_need_prog nm binutils || return 0
	[ -n "$(objs_below "$dir")" ] || { cgk_skip "no objects in $CGKIT_OBJ/$dir (make first)"; return 0; }
	edges=$(use_edges "$dir" | sort -u)
	assertNotEquals "edges found in $dir" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop in $dir: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

# issue 29: cgtop2's files call one way, from main.c down to the sinks, the pipeline and the
# sources, never back up (report_errno in main.c, replay in the recorder, did); the screen's
# files too, their state (struct ui) beneath them all in screen_state.h
test_no_call_cycle_cgtop2() {
	no_use_cycle cmd/cgtop2
}

# "a b" lines: file a of cmd/cgtop2 and its folders (foo.c and foo.h are one, foo) includes b's
# header
cgtop2_include_edges() {
	local f m inc
	for f in $(find "$CGKIT_TOP"/cmd/cgtop2 -name '*.[ch]' | sort); do
		# a split subject (the sampler's, the watcher's, the recording's files) is one node
		m=$(subject "$(basename "${f%.*}")")
		sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
			{ [ -e "$CGKIT_TOP/cmd/cgtop2/$inc.h" ] || [ -e "$(dirname "$f")/$inc.h" ]; } || continue
			inc=$(subject "${inc##*/}")
			[ "$inc" != "$m" ] && echo "$m $inc"
		done
	done | sort -u
}

test_no_include_cycle_cgtop2() {
	cgk_need_prog tsort || return 0
	local edges
	edges=$(cgtop2_include_edges)
	assertNotEquals "edges found" "" "$edges"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

# issue 29: the sampler's files call one way, down through its layers (stats.c and
# stats_sample.c, the collectors, the read layer, the tree, the table), never back up
test_stats_layers_call_down() {
	cgk_need_prog tsort || return 0
	cgk_need_prog nm binutils || return 0
	ls "$CGKIT_OBJ"/cmd/cgtop2/sampler/stats_*.o >/dev/null 2>&1 ||
		{ cgk_skip "no objects in $CGKIT_OBJ/cmd/cgtop2/sampler (make first)"; return 0; }
	local edges
	edges=$(call_edges basename "$CGKIT_OBJ"/cmd/cgtop2/sampler/stats*.o)
	assertContains "the collectors read through the read layer" "$edges" "stats_collect stats_read"
	assertContains "the read layer opens through the tree" "$edges" "stats_read stats_tree"
	cgk_capture tsort <<<"$edges"
	assertEquals "tsort finds no loop: $err" 0 "$rc"
	assertNotContains "$err" "loop"
}

# A subject split into files is layered too: its files call one way (watch.c above watch_files.c
# and watch_psi.c above watch_core.c; stats' files as the test above says), and take the types
# they share from a header beneath them (stats_types.h, stats_state.h, watch_types.h), never
# from the header of a file above.
test_no_call_cycle_between_files() {
	ls "$CGKIT_OBJ"/cmd/cgtop2/watch/*.o >/dev/null 2>&1 || { cgk_skip "no objects in $CGKIT_OBJ/cmd/cgtop2/watch (make first)"; return 0; }
	assertContains "the watcher's files are seen" "$(call_edges basename "$CGKIT_OBJ"/cmd/cgtop2/watch/*.o)" "watch_files watch_core"
	no_use_cycle common
	no_use_cycle cmd/cgtop2/watch
}

# The check sees a circle that only a type closes: the old stats_collect.c took CG_COLL_DEFAULT
# and struct cg_stat_row from stats.h, whose stats.c calls it.
test_use_cycle_seen_through_a_type() {
	local top=$_cgk_tmp/tree edges
	cgk_need_prog cc gcc || return 0
	cgk_need_prog nm binutils || return 0
	mkdir -p "$top/d" "$top/obj/d"
	printf '%s\n' '#define CG_COLL_DEFAULT 3' 'struct cg_stat_row {' '	int x;' '};' >"$top/d/stats.h"
	printf '%s\n' '#include "stats.h"' 'int low(void) { struct cg_stat_row r = { CG_COLL_DEFAULT }; return r.x; }' >"$top/d/stats_collect.c"
	printf '%s\n' 'int low(void);' 'int top(void) { return low(); }' >"$top/d/stats.c"
	cc -c -o "$top/obj/d/stats.o" "$top/d/stats.c" && cc -c -o "$top/obj/d/stats_collect.o" "$top/d/stats_collect.c" ||
		{ fail "cc"; return; }
	edges=$(CGKIT_TOP=$top CGKIT_OBJ=$top/obj use_edges d | sort -u)
	assertContains "$edges" "stats stats_collect"
	assertContains "$edges" "stats_collect stats"
}

# ---- the picture: ARCHITECTURE.md's folders and who may call whom, held against the code ----
# (issues 29, 42) A room is a folder: every source file is in the room of its directory, and
# "Who owns what" names each file in the row of its folder (a stale or missing row fails). The
# allowed edges are the table of "The parts and who may call whom"; an edge is a symbol an
# object uses that another file's object defines (nm) or an include.

arch_section() {
	awk -v want="## $1" '/^## / { in_sec = ($0 == want); next } in_sec' "$CGKIT_TOP/ARCHITECTURE.md"
}

# "FILE FOLDER" lines: the files each row of "Who owns what" names, beneath its folder
picture_rooms() {
	arch_section "Who owns what" | awk -F'|' '/^\| `[^`]+` \| `/ {
		room = $2; gsub(/^ +| +$|`/, "", room)
		n = split($3, part, "`")
		for (i = 2; i <= n; i += 2) {
			f = room "/" part[i]
			if (f ~ /\[ch\]$/) { sub(/\[ch\]$/, "", f); print f "c", room; print f "h", room }
			else print f, room
		} }'
}

# "FROM TO" lines: folder FROM may call or include folder TO
picture_edges() {
	arch_section "The parts and who may call whom" | awk '/^\| `/ {
		n = split($0, part, "`")
		for (i = 4; i <= n; i += 2) print part[2], part[i] }'
}

source_files() {
	(cd "$CGKIT_TOP" && find common cmd -name '*.[ch]' | sort)
}

# "FILE ROOM" for each source file: its folder, or "-" where no row of the table names it
room_of_files() {
	cat >"$_cgk_tmp/rooms"
	source_files | awk 'NR == FNR { room[$1] = $2; next }
		{ d = $1; sub(/\/[^\/]*$/, "", d); print $1, (($1 in room) && room[$1] == d) ? d : "-" }' \
		"$_cgk_tmp/rooms" -
}

# "FROM TO WHAT" lines: file FROM includes TO, or uses a symbol TO's object defines (a tool's
# own objects first: each tool defines main). One awk and one nm for all files: it is run on
# every check.
code_edges() {
	(
		cd "$CGKIT_TOP" || exit
		# as the compiler looks: beside the file, then -Icommon, -Icmd, -Icmd/cgtop2
		source_files >"$_cgk_tmp/sources"
		awk 'FNR == 1 { d = FILENAME; sub(/\/[^\/]*$/, "", d) }
			NR == FNR { have[$0] = 1; next }
			/^#include "/ { h = $0; sub(/^#include "/, "", h); sub(/".*/, "", h)
				n = split(d "/" h " common/" h " cmd/" h " cmd/cgtop2/" h, c, " ")
				for (i = 1; i <= n; i++) if (c[i] in have) { print FILENAME, c[i], "include:" h; break } }' \
			"$_cgk_tmp/sources" $(cat "$_cgk_tmp/sources")
	)
	find "$CGKIT_OBJ"/common "$CGKIT_OBJ"/cmd -name '*.o' -exec nm -A {} + |
		awk -v obj="$CGKIT_OBJ/" 'function tool(f, p) { if (f !~ /^cmd\/[^\/]+\//) return ""; split(f, p, "/"); return p[2] }
		{ f = $1; sub(/:.*/, "", f); sub("^" obj, "", f); sub(/\.o$/, ".c", f) }
		NF == 3 && $2 == "U" { use[++n] = f " " $3; next }
		NF == 3 && $2 ~ /^[TDBRCGS]$/ { def[tool(f) SUBSEP $3] = f }
		END { for (i = 1; i <= n; i++) { split(use[i], p, " ")
			k = tool(p[1]) SUBSEP p[2]
			if (!(k in def)) k = "" SUBSEP p[2]
			if ((k in def) && def[k] != p[1]) print p[1], def[k], "calls:" p[2] } }'
}

# The code edges (stdin) the picture does not allow, one line each: "FROM ROOM -> TO ROOM: FILE
# -> FILE (WHAT)"; a file in no room is one too. Arguments: the rooms and edges files.
room_violations() {
	awk 'FILENAME == ARGV[1] { room[$1] = $2; next } FILENAME == ARGV[2] { ok[$1 " " $2] = 1; next }
		function dir(f) { sub(/\/[^\/]*$/, "", f); return f }
		{ a = ($1 in room) ? room[$1] : dir($1); b = ($2 in room) ? room[$2] : dir($2)
		  if (a == "-" || b == "-") { print "no row in the picture: " (a == "-" ? $1 : $2); next }
		  if (a == b) next
		  if (!ok[a " " b]) print a " -> " b ": " $1 " -> " $2 " (" $3 ")" }' "$1" "$2" -
}

test_rooms_as_pictured() {
	cgk_need_prog nm binutils || return 0
	ls "$CGKIT_OBJ"/common/base/*.o "$CGKIT_OBJ"/cmd/tool.o >/dev/null 2>&1 ||
		{ cgk_skip "no objects in $CGKIT_OBJ (make first)"; return 0; }
	local rooms=$_cgk_tmp/room.files allowed=$_cgk_tmp/room.edges listed gone bad
	picture_rooms | room_of_files >"$rooms"
	picture_edges >"$allowed"
	assertNotEquals "the picture's edges found in ARCHITECTURE.md" "" "$(cat "$allowed")"
	assertEquals "files no row of ARCHITECTURE.md's table names (in their folder's row)" "" \
		"$(awk '$2 == "-" { print $1 }' "$rooms")"
	# a row naming a file that is gone is a stale claim
	gone=$(picture_rooms | while read -r listed _; do
		[ -e "$CGKIT_TOP/$listed" ] || echo "$listed"
	done)
	assertEquals "files ARCHITECTURE.md names that are not there" "" "$gone"
	bad=$(code_edges | room_violations "$rooms" "$allowed" | sort -u)
	assertEquals "edges the picture does not allow" "" "$bad"
}

# The check can fail: an edge the picture has no arrow for (base calling operations, one tool
# calling another's function), added to the real ones, is found and named.
test_rooms_check_fails_on_a_new_edge() {
	local rooms=$_cgk_tmp/room.files allowed=$_cgk_tmp/room.edges bad
	picture_rooms | room_of_files >"$rooms"
	picture_edges >"$allowed"
	bad=$(printf '%s\n' "common/base/parse.c common/ops/drain.c calls:cg_drain" \
		"cmd/cgexec2/main.c cmd/cgtop2/output/render.c calls:put_name" \
		"common/base/error.c cmd/tool.h include:tool.h" "common/kernel/spec.c common/kernel/mount.c calls:x" |
		room_violations "$rooms" "$allowed")
	assertContains "$bad" "common/base -> common/ops: common/base/parse.c -> common/ops/drain.c (calls:cg_drain)"
	assertContains "$bad" "cmd/cgexec2 -> cmd/cgtop2/output: cmd/cgexec2/main.c -> cmd/cgtop2/output/render.c"
	assertContains "$bad" "common/base -> cmd: common/base/error.c -> cmd/tool.h (include:tool.h)"
	assertNotContains "an edge inside a room passes: $bad" "$bad" "common/kernel/spec.c"
}

# A header is named for what it defines (issue 42): a .c's functions that its siblings call are
# in the header of that .c's name, a folder's shared types in one named for them; a *_impl.h
# names who reads it instead. Unit tests and fuzz targets link what they test (libcgtop2.a,
# libcgkit.a, tests/module.mk's fuzz sources): a .c included would build it a second time,
# apart from the objects every other test and tool runs.
headers_named_for_consumers() {
	(cd "$1" && find cmd common -name '*_impl.h' | sort)
}

c_files_included_by_tests() {
	grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]*\.c[">]' "$1"/tests \
		--include='*.c' --include='*.h' | sed "s|^$1/||"
}

test_headers_named_for_what_they_define() {
	assertEquals "*_impl.h headers in cmd/ or common/" "" "$(headers_named_for_consumers "$CGKIT_TOP")"
	assertEquals "tests that #include a .c file" "" "$(c_files_included_by_tests "$CGKIT_TOP")"
}

# The checks see what they look for: a tree with a planted *_impl.h and a test including a .c.
test_header_checks_fail_on_a_planted_tree() {
	local t=$_cgk_tmp/impl_tree
	mkdir -p "$t/cmd/x" "$t/common/base" "$t/tests/unit"
	: >"$t/cmd/x/x_impl.h"
	: >"$t/common/base/y.h"
	printf '#include <stdio.h>\n#include "x/x.h"\n# include "x/x.c"\n' >"$t/tests/unit/z.c"
	assertEquals "the planted header is named" "cmd/x/x_impl.h" "$(headers_named_for_consumers "$t")"
	assertEquals "the planted include is named" 'tests/unit/z.c:3:# include "x/x.c"' \
		"$(c_files_included_by_tests "$t")"
}

# issue 11: 800 (it was 900 until common/ops/migrate.c and cmd/cgexec2/main.c were split)
max_lines=800

test_files_readable_in_one_sitting() {
	local f n big=
	for f in $(find "$CGKIT_TOP"/common "$CGKIT_TOP"/cmd -name '*.c' | sort); do
		n=$(wc -l <"$f")
		[ "$n" -gt "$max_lines" ] && big+=" ${f#"$CGKIT_TOP"/}($n)"
	done
	assertEquals "C files over $max_lines lines:$big" "" "$big"
}

# issue 29: a file read with its own header (foo.c with foo.h beside it) fits the same sitting.
# The tools' rooms only: common/'s stats, watch and cgroup are issue 29's open moves 3 to 5.
test_rooms_readable_in_one_sitting() {
	local f n big=
	for f in $(find "$CGKIT_TOP"/cmd -mindepth 2 -name '*.c' | sort); do
		n=$(cat "$f" "$([ -e "${f%.c}.h" ] && echo "${f%.c}.h" || echo /dev/null)" | wc -l)
		[ "$n" -gt "$max_lines" ] && big+=" ${f#"$CGKIT_TOP"/}($n)"
	done
	assertEquals "C files with their header over $max_lines lines:$big" "" "$big"
}

# The C library's number parsers (strtoul and kin, atoi, sscanf's numbers) take blanks, signs
# and wrap-around that cgkit refuses: common/base/parse.c is the one place that reads a number.
test_numbers_only_through_parse() {
	local hits
	hits=$(grep -nE '\<(strto(u?ll?|d|f|ld|[iu]max)|ato[ifl]l?)[[:space:]]*\(|\<sscanf\(.*%[-0-9]*("[[:space:]]*)?(SCN|[dilux])' \
		$(find "$CGKIT_TOP"/common "$CGKIT_TOP"/cmd -name '*.[ch]' | sort) |
		grep -v '^[^:]*/common/base/parse\.c:' | sed "s|$CGKIT_TOP/||")
	assertEquals "number parsing outside common/base/parse.c" "" "$hits"
}

# A failure is said once, through cmd/tool.c (tool_say, tool_report: one form, escaped); a
# direct fprintf(stderr is a line that is not a failure's, each allowed here with its reason
# as FILE|TEXT OF THE LINE|REASON (issue 42).
stderr_allowed='cmd/tool.c|fprintf(stderr, "%s: %s\n", program_invocation_short_name, cg_quote|tool_say itself
cmd/tool.c|		fprintf(stderr, "%s: %s\n", program_invocation_short_name,|tool_report itself
cmd/tool.c|		fprintf(stderr,|an unknown or abbreviated option, in argp'"'"'s two lines (the error and "Try --help")
cmd/cgexec2/main.c|fprintf(stderr, "cgexec2: stats: %s\n",|-s: the report asked for, not a failure
cmd/cgexec2/main.c|		fprintf(stderr,|-v: a step said, not a failure
cmd/cgtop2/main.c|fprintf(stderr, "%s: %s layout; %s\n"|-v: what is read, not a failure
cmd/cgtop2/main.c|fprintf(stderr, "%s: %zu stat files read without a cached fd (fd limit)\n",|-v: a count at the end, not a failure'

# The direct fprintf(stderr lines of cmd/ and common/ that stderr_allowed does not name.
stderr_unallowed() {
	local hit f text ok
	grep -rn 'fprintf(stderr' "$1"/cmd "$1"/common --include='*.c' --include='*.h' | sed "s|^$1/||" |
		while IFS= read -r hit; do
			f=${hit%%:*}
			text=${hit#*:*:}
			ok=
			while IFS='|' read -r af atext _; do
				[ "$af" = "$f" ] && [[ $text == *"$atext"* ]] && ok=1 && break
			done <<<"$stderr_allowed"
			[ -n "$ok" ] || echo "$hit"
		done
}

test_failures_said_through_tool_say() {
	assertEquals "fprintf(stderr outside tool_say and the allowed lines" "" "$(stderr_unallowed "$CGKIT_TOP")"
}

# The check sees a new direct line: a copy of the tree with one planted in cgmigrate.
test_stderr_check_fails_on_a_new_line() {
	local t=$_cgk_tmp/stderr_tree
	mkdir -p "$t/cmd/cgmigrate" "$t/common"
	cp "$CGKIT_TOP/cmd/tool.c" "$t/cmd/"
	printf '\tfprintf(stderr, "cgmigrate: %%s\\n", strerror(-r));\n' >"$t/cmd/cgmigrate/main.c"
	assertContains "a planted line is named" "$(stderr_unallowed "$t")" 'cmd/cgmigrate/main.c:1:'
	assertEquals "tool.c alone passes" "" "$(stderr_unallowed "$t" | grep tool.c)"
}

# Nothing below main ends the process: a failure returns its code up to main (issue 42). The
# C library's argp may exit on a usage error or --help, as it does; cgkit's own code calls no
# exit(). _exit is not counted: a child after fork (a failed exec), and tool_close_stdout, the
# atexit handler that runs after main has returned.
test_nothing_below_main_exits() {
	local hits
	hits=$(grep -rnE '(^|[^_a-z])exit\(' "$CGKIT_TOP"/cmd "$CGKIT_TOP"/common --include='*.c' |
		grep -vE ':[0-9]+:\s*(/?\*|//)' | sed "s|$CGKIT_TOP/||")
	assertEquals "exit() in cmd/ or common/" "" "$hits"
}

# One tree mirror (issue 42): the one inotify instance is cmd/cgtop2/mirror/mirror.c's, which
# the sampler and the event watcher subscribe to; a second engine would be a second
# inotify_init1 (or inotify_init), however its watches were kept.
test_one_inotify_instance() {
	local hits
	hits=$(grep -rnE '(^|[^_a-z0-9])inotify_init1?\(' "$CGKIT_TOP"/cmd "$CGKIT_TOP"/common --include='*.c' |
		grep -vE ':[0-9]+:\s*(/?\*|//)' | sed "s|$CGKIT_TOP/||")
	assertEquals "one inotify_init1 in cmd/ and common/" 1 "$(printf '%s' "$hits" | grep -c .)"
	assertContains "it is the mirror's" "$hits" "cmd/cgtop2/mirror/mirror.c:"
}

# One loop (issue 42): cgtop2's main thread waits in one place, the scheduler's pipeline_wait
# (pipeline/pipeline.c), which pipeline_run and every sink's wait call: batch, recorder, screen,
# --events and the exporter (serve/serve_sink.c, a sink with no source), the screen's and the
# exporter's through trig_counter_wait (events/triggers.c), where --psi-trigger's wake-ups are
# counted. A wait is a call of poll, ppoll, select, pselect, epoll_wait, epoll_pwait,
# sigtimedwait, sigwaitinfo, sigwait, clock_nanosleep, nanosleep, usleep, sleep, cg_sleep_ns or
# cg_watch_poll in cmd/cgtop2's .c files: pipeline_wait has the one ppoll and the one
# cg_watch_poll (the watcher's wait, which its PSI triggers need); watch/watch.c has what
# cg_watch_poll waits with (epoll_wait) and cg_watch_process's epoll_wait with no timeout (it
# takes what is ready); no other file has any. No thread runs a loop of its own: the one
# pthread_create is serve/serve_auth.c's, a pool of workers that run bcrypt for libmicrohttpd's
# suspended requests and wait on its condition variable (no loop of cgtop2's: it is handed
# work, and its answers resume connections); libmicrohttpd's own threads serve HTTP.
cgtop2_waits() {
	grep -rnE '(^|[^_a-z0-9])(poll|ppoll|select|pselect|epoll_wait|epoll_pwait|sigtimedwait|sigwaitinfo|sigwait|clock_nanosleep|nanosleep|usleep|sleep|cg_sleep_ns|cg_watch_poll)\(' \
		"$1"/cmd/cgtop2 --include='*.c' | grep -vE ':[0-9]+:\s*(/?\*|//)' | sed "s|^$1/||"
}

# The body of C function $2 in file $1 (from its definition's line to the closing brace in
# column 0).
c_function_body() {
	awk -v f="$2" '$0 ~ "^[a-z].*[ *]" f "\\(" && !/;$/ { in_f = 1 } in_f { print } in_f && /^}/ { exit }' "$1"
}

test_one_loop() {
	local waits body threads
	waits=$(cgtop2_waits "$CGKIT_TOP")
	assertEquals "waits outside the scheduler and the watcher" "" \
		"$(grep -vE '^cmd/cgtop2/(pipeline/pipeline\.c|watch/watch\.c):' <<<"$waits" | cut -d: -f1,2)"
	assertEquals "the scheduler's waits: one ppoll, one cg_watch_poll" \
		"$(printf 'cg_watch_poll\nppoll')" \
		"$(grep '^cmd/cgtop2/pipeline/pipeline\.c:' <<<"$waits" | grep -oE '(ppoll|cg_watch_poll)\(' | tr -d '(' | sort)"
	assertEquals "pipeline.c waits with nothing else" 2 "$(grep -c '^cmd/cgtop2/pipeline/pipeline\.c:' <<<"$waits")"
	body=$(c_function_body "$CGKIT_TOP"/cmd/cgtop2/pipeline/pipeline.c pipeline_wait)
	assertContains "ppoll in pipeline_wait" "$body" "ppoll("
	assertContains "cg_watch_poll in pipeline_wait" "$body" "cg_watch_poll("
	assertEquals "watch.c waits only with epoll_wait (and defines cg_watch_poll)" "" \
		"$(grep '^cmd/cgtop2/watch/watch\.c:' <<<"$waits" |
			grep -vE '[^_a-z0-9]epoll_wait\(|^[^:]+:[0-9]+:int cg_watch_poll\(' | cut -d: -f1,2)"
	threads=$(grep -rnE '(^|[^_a-z0-9])(pthread_create|thrd_create|clone3?)\(' "$CGKIT_TOP"/cmd/cgtop2 --include='*.c' |
		grep -vE ':[0-9]+:\s*(/?\*|//)' | sed "s|^$CGKIT_TOP/||" | cut -d: -f1)
	assertEquals "threads: serve_auth.c's worker pool alone" "cmd/cgtop2/serve/serve_auth.c" "$threads"
	assertContains "the exporter is a sink of the scheduler" \
		"$(grep -h 'pipeline_run(' "$CGKIT_TOP"/cmd/cgtop2/serve/*.c)" "pipeline_run(NULL,"
}

# issue 42: the options struct goes whole only to the code that parses it and dispatches on
# it; every door (the renderers, batch output, the recorder, the screen, the exporter, the
# events, the triggers, the live sampler) is passed its own part (pipeline/args.h). It reached
# 32 files.
test_options_reach() {
	assertEquals "files that name struct cgtop2_args" \
		"$(printf 'cmd/cgtop2/main.c\ncmd/cgtop2/options.c\ncmd/cgtop2/options.h\ncmd/cgtop2/pipeline/args.h')" \
		"$(grep -rl 'cgtop2_args' "$CGKIT_TOP"/cmd "$CGKIT_TOP"/common "$CGKIT_TOP"/tests/unit "$CGKIT_TOP"/tests/fuzz |
			sed "s|^$CGKIT_TOP/||" | sort)"
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

# A skip names a fact of the layout (no v1 on unified, no unified on legacy); a program that is
# missing says so through cgk_need_prog, whose "missing program:" skips the VM guests and CI turn
# into failures. A skip of its own for a missing program (a test's `command -v` before a skip, a
# reason like "is not installed", "no python3 to ...", "needs curl", "neither jq nor ...") would
# hide it from both.
test_skips_name_no_missing_program() {
	local bad
	bad=$(grep -nE '(command -v|type -P|have_[a-z]+)[^|&;]*(\|\||&&)[^#]*cgk_skip|cgk_skip "[^"]*(not installed|needs [a-z0-9_-]+ \(|neither [a-z0-9_-]+ nor|no (python3|tmux|curl|jq|zsh|promtool|prometheus|openssl|tsort|nm|runuser|unshare|systemd-run|systemd-nspawn)\b)' \
		"$CGKIT_TOP"/tests/*.sh | grep -v '^[^:]*/lib\.sh:' | sed "s|$CGKIT_TOP/||")
	assertEquals "skips for a missing program (use cgk_need_prog)" "" "$bad"
}

# No wall-clock bound in a functional test (issue 41): a test checks what happened, how long it
# took is bench/'s. A line of a suite that reads the clock (bash's EPOCHREALTIME or SECONDS,
# date +%s) says why on that line: "# guard" (a deadline against a hang, minutes), or "# clock:
# WHY" (a time compared with what a tool printed, a lower bound that load only lengthens, or a
# time printed and not asserted). An assert or fail message with "within N s" or "N ms" as its
# bound is refused whatever the clock.
test_no_wall_clock_bound() {
	local bad
	bad=$(grep -nE 'EPOCHREALTIME|\$SECONDS|\(\(SECONDS|date \+%s' "$CGKIT_TOP"/tests/*.sh |
		grep -vE '^[^:]*/(lib|structure)\.sh:' | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' |
		grep -vE '# (guard|clock:)' | sed "s|$CGKIT_TOP/||")
	assertEquals "clock reads without '# guard' or '# clock: WHY'" "" "$bad"
	bad=$(grep -nE '(assert[A-Za-z]*|fail) "[^"]*(within|in under|under|at most|less than) [0-9.,]+ ?(ms|s|seconds?)\b' \
		"$CGKIT_TOP"/tests/*.sh | grep -v '^[^:]*/structure\.sh:' | sed "s|$CGKIT_TOP/||")
	assertEquals "asserts bounding a time (bench/ measures it; a guard says hung)" "" "$bad"
	# timeout(1) around a tool is a hang guard too: under valgrind at load 13-21 a whole
	# machine's snapshot outlasted 10 s. A shorter one says why on its line ("# clock:").
	bad=$(grep -nE '(^|[^-])\btimeout [0-9]{1,2}(\.[0-9]+)? ' "$CGKIT_TOP"/tests/*.sh |
		grep -vE '^[^:]*/structure\.sh:|--max-time|# clock:' |
		awk -F'timeout ' '{ split($2, w, " "); if (w[1] + 0 < 60) print }' | sed "s|$CGKIT_TOP/||")
	assertEquals "timeout(1) guards under a minute" "" "$bad"
}

# tests/slow names the tests make check (CGKIT_TIER=quick) leaves to make check-full: each
# SUITE:TEST names a test of a suite, SUITE:* a whole suite. A name that is not there (renamed,
# removed) would silently put a slow test back into the quick tier.
test_slow_list_names_tests() {
	local line suite t bad=
	while read -r line; do
		line=${line%%#*}
		line=${line%"${line##*[![:space:]]}"}
		[ -n "$line" ] || continue
		suite=${line%%:*} t=${line#*:}
		if [ "$suite" = "$line" ] || [ ! -f "$CGKIT_TOP/tests/$suite.sh" ]; then
			bad="$bad $line"
		elif [ "$t" != '*' ] && ! grep -q "^$t() {" "$CGKIT_TOP/tests/$suite.sh"; then
			bad="$bad $line"
		fi
	done <"$CGKIT_TOP/tests/slow"
	assertEquals "tests/slow names what is not a suite or test" "" "$bad"
}

# Pairs that were there before the rule (issue 44): a prefix of another option is taken only
# whole by getopt, so they stay; no new pair may join them.
prefix_pairs_grandfathered=" cgmigrate:--thread:--threads-of cgtop2:--record:--record-size "

# getopt_long reads an unambiguous prefix as the option: a new option that is a prefix of
# another (--list beside --listen) would make the longer one's abbreviations ambiguous and
# its own meaning depend on what comes later. Read from each tool's --help, argp's own
# options too.
test_no_long_option_prefix_of_another() {
	local t opts a b bad=
	for t in cgcreate2 cgexec2 cgmigrate cgtop2; do
		opts=$("$CGKIT_BIN/$t" --help | sed -nE 's/^ +(-[^-], )?(--[a-z0-9-]+).*/\2/p' | sort -u)
		assertNotEquals "$t: options read from --help" "" "$opts"
		for a in $opts; do
			for b in $opts; do
				[ "$a" != "$b" ] && [ "${b#"$a"}" != "$b" ] || continue
				[[ $prefix_pairs_grandfathered == *" $t:$a:$b "* ]] || bad+=" $t:$a:$b"
			done
		done
	done
	assertEquals "long options that are a prefix of another of the same tool" "" "$bad"
}

. "$SHUNIT2"
