#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shell completion: completions/cgkit.bash driven the way bash drives it (COMP_WORDS split on
# COMP_WORDBREAKS, COMP_LINE, COMP_POINT), against the built tools' --help and the live tree;
# completions/zsh/_cgkit through a real interactive zsh in tmux.
. "$(dirname "$0")/lib.sh"

PATH=$CGKIT_BIN:$PATH
. "$CGKIT_TOP/completions/cgkit.bash"

# Complete the end of line $1 as bash would: words split on blanks and on ':' and '=', which
# are words of their own (bash's COMP_WORDBREAKS); the candidates land in $got, one a line.
complete_line() {
	local line=$1 w
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMP_WORDS=()
	for w in $line; do
		while [[ $w =~ ^([^:=]*)([:=])(.*)$ ]]; do
			[[ -n ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
			COMP_WORDS+=("${BASH_REMATCH[2]}")
			w=${BASH_REMATCH[3]}
		done
		[[ -n $w ]] && COMP_WORDS+=("$w")
	done
	# right after a blank, ':' or '=', bash's current word is empty (checked against bash 5.2)
	[[ $line == *[[:space:]:=] ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_cgkit "${COMP_WORDS[0]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}")
}

assert_has() {
	grep -qxF -- "$2" <<<"$got" || fail "[$1]: no '$2' among: $(tr '\n' ' ' <<<"$got")"
}

test_registered() {
	local t
	for t in cgcreate2 cgexec2 cgmigrate cgtop2; do
		assertContains "complete -p $t" "$(complete -p "$t")" "-F _cgkit"
	done
}

test_options_from_help() {
	complete_line 'cgtop2 --ord'
	assert_has 'cgtop2 --ord' '--order='
	complete_line 'cgcreate2 -x --k'
	assert_has 'cgcreate2 -x --k' '--kill'
	complete_line 'cgmigrate --thr'
	assert_has 'cgmigrate --thr' '--threads-of='
	# options that are not there are not offered
	complete_line 'cgexec2 --no-such'
	assertEquals "nothing for --no-such" "" "$got"
}

test_option_values() {
	complete_line 'cgtop2 -o me'
	assert_has 'cgtop2 -o me' memory
	# "--format=pr": bash's word is "pr", after the '='
	complete_line 'cgtop2 --format=pr'
	assert_has 'cgtop2 --format=pr' prometheus
	complete_line 'cgtop2 --cpu='
	assert_has 'cgtop2 --cpu=' time
	complete_line 'cgcreate2 -x --kill=TE'
	assert_has 'cgcreate2 --kill=TE' TERM
	complete_line 'cgtop2 --cpu='
	assertNotContains "no '=' doubled" "$got" "="

}

test_controllers_and_paths() {
	local sb m c
	# a controller the host really has, and a sandbox in its hierarchy
	for c in pids cpu memory; do
		m=$(cgk_mnt "$c")
		[ -n "$m" ] && break
	done
	[ -n "$m" ] || m=$(cgk_mnt unified) c=
	[ -n "$m" ] || { cgk_skip "no cgroup hierarchy is mounted"; return; }
	[ -w "$m" ] || { cgk_skip "cannot create a sandbox in $m"; return; }
	sb=$(cgk_sandbox "${c:-unified}")
	mkdir "$sb/web" "$sb/db"
	if [ -n "$c" ]; then
		complete_line "cgcreate2 -g ${c:0:2}"
		assert_has "cgcreate2 -g ${c:0:2}" "$c:"
		# after the ':', bash's word is the path only
		complete_line "cgcreate2 -g $c:/$SANDBOX_NAME/w"
		assert_has "-g $c:/.../w" "/$SANDBOX_NAME/web/"
		complete_line "cgmigrate -F $c:$SANDBOX_NAME/"
		assert_has "-F $c:.../" "$SANDBOX_NAME/db/"
	fi
	if [ -z "$c" ] || [ "$(cgk_layout)" = unified ]; then
		complete_line "cgtop2 /$SANDBOX_NAME/"
		assert_has "cgtop2 /.../" "/$SANDBOX_NAME/web/"
	fi
}

test_pids_for_cgmigrate() {
	sleep 30 &
	local pid=$!
	complete_line "cgmigrate $pid"
	assert_has "cgmigrate $pid" "$pid"
	complete_line "cgmigrate --threads-of $pid"
	assert_has "cgmigrate --threads-of $pid" "$pid"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
}

test_cgexec2_command() {
	# the word after the options is a command; the ones after it are its own
	complete_line 'cgexec2 -g pids:/ ech'
	assert_has 'cgexec2 ... ech' echo
	complete_line 'cgexec2 -s -- ech'
	assert_has 'cgexec2 -- ech' echo
	complete_line 'cgexec2 -g pids:/ echo --ord'
	assertNotContains "no cgtop2 options after COMMAND" "$got" "--order="
}

# A real zsh, interactive in tmux, completes what is typed.
test_zsh() {
	command -v zsh >/dev/null || { cgk_skip "zsh is not installed"; return; }
	command -v tmux >/dev/null || { cgk_skip "tmux is not installed"; return; }
	local z=$_cgk_tmp/zsh sock=cgkit-comp-$$ pane want
	mkdir -p "$z"
	cat >"$z/.zshrc" <<ZRC
PS1='%% '
fpath=($CGKIT_TOP/completions/zsh \$fpath)
path=($CGKIT_BIN \$path)
autoload -U compinit && compinit -u -D
ZRC
	tmux -L "$sock" new-session -d -x 150 -y 20 "env ZDOTDIR=$z zsh -i"
	# shellcheck disable=SC2317
	zsh_line() { # type $1, Tab, and wait for the line to read $2
		want=$2
		tmux -L "$sock" send-keys C-u "$1" Tab
		cgk_wait_for eval 'tmux -L "$sock" capture-pane -p | grep -qF -- "$want"'
	}
	zsh_line 'cgtop2 --ord' '% cgtop2 --order' || fail "zsh: --ord did not become --order"
	tmux -L "$sock" send-keys C-u
	zsh_line 'cgtop2 --order=mem' '% cgtop2 --order=memory' || fail "zsh: --order=mem"
	tmux -L "$sock" send-keys C-u
	zsh_line 'cgexec2 ech' '% cgexec2 echo' || fail "zsh: cgexec2 COMMAND"
	pane=$(tmux -L "$sock" capture-pane -p)
	tmux -L "$sock" kill-server
	assertNotContains "zsh reported an error" "$pane" "_cgkit:"
}

. "$SHUNIT2"
