#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgkit against Performance Co-Pilot (Debian's pcp: pmcd with the proc PMDA's cgroup.* metrics,
# pmlogger, pmrep, pmproxy) on the same tree of empty cgroups, in the systemd guest of
# tests/vm/run (systemd as PID 1, unified cgroup2): pcp is never installed on the host, whose
# dpkg its maintainer scripts (systemctl) would leave half-configured without systemd as PID 1.
#
# On the host: the packages pcp needs that the host lacks (apt-get -s says which) are
# downloaded, not installed, into CGKIT_PCP_DEBS (tests/vm/cache/pcp-debs, which the guest sees
# over 9p), and the guest is booted with this script as its command; it skips, saying why, where
# the guest or the download cannot be had. In the guest (CGKIT_VM set): dpkg -i of those
# packages into the guest's throwaway overlay, pmcd and pmproxy started with systemctl, then for
# each size a sandbox cgkit-test.PID of N children with cpu, memory, io and pids enabled:
#   record  CPU and bytes per sample of `cgtop2 --record` against pmlogger logging the PMDA's
#           cgroup.cpu.stat, cgroup.memory.current, cgroup.memory.stat, cgroup.io.stat (and
#           cgroup.pids, where the PMDA has it) at the same interval (INTERVAL s): each
#           recorder measured running, over K s after its first sample and three intervals
#           and 2.5 s more (schedstat, the files' growth), a sample being INTERVAL s of that,
#           median of 3;
#           PCP's CPU is pmlogger's plus what pmcd and pmdaproc spent meanwhile
#           (/proc/PID/task/*/schedstat)
#   seek    an "hour" recorded by both at once (HOUR samples taken at 0.1 s: 360 is an hour at
#           10 s),
#           then the wall time to seek to the 9/10 point and print one sample of every cgroup:
#           `cgtop2 --replay --at=@T -n 1 -F json` against `pmrep -a ARCHIVE -S @T -s 1 -u -r
#           -o csv` of the same metrics, median of 3
#   scrape  CPU and latency of a scrape (SCRAPES on one keep-alive connection after WARM,
#           median) of
#           `cgtop2 --listen --collectors=cpu,memory,io,pids` (every scrape sampling afresh)
#           against pmproxy's /metrics?names= of the same PCP metrics; PCP's CPU is pmproxy's,
#           pmcd's and pmdaproc's
# The guest is emulated (QEMU TCG on a loaded host): read the ratios, not the absolute times.
# Environment: CGKIT_PCP_SIZES (1000), CGKIT_PCP_K (10), CGKIT_PCP_INTERVAL (1 s, whole
# seconds, at most K/3: pmdaproc's fetch of 10,000 cgroups takes seconds), CGKIT_PCP_HOUR (120 samples),
# CGKIT_PCP_HOUR_DELAY (0.1), CGKIT_PCP_HOUR_SIZES (as SIZES), CGKIT_PCP_SCRAPES (3),
# CGKIT_PCP_WARM (1), CGKIT_PCP_ROWS ("record scrape seek": which rows), CGKIT_PCP_DEBS,
# CGKIT_VM_MEM (2048 here; 4096 for 10,000 memory cgroups).
# The defaults take 12-14 min under TCG at load 1 (2026-12-07: 746 s in make bench): pmproxy
# took a minute of CPU a scrape of 1,000 cgroups and pmdaproc 0.76 s a fetch. 10,000 took 39 min
# with CGKIT_PCP_INTERVAL=10, K=60, SCRAPES=1, HOUR=20 and CGKIT_VM_MEM=4096 (CONTRIBUTING has
# the line: pmproxy 9.6 min a scrape there); 360 samples of an "hour" add a quarter of an hour
# at 1,000.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
say() { echo "pcp: $*"; }

if [ -z "${CGKIT_VM:-}" ]; then
	OBJ=${CGKIT_OBJ:-$top/.obj}
	[ "$(id -u)" -eq 0 ] || { say "skipped: needs root (tests/vm/run)"; exit 0; }
	[ -x "${CGKIT_BIN:-$top}/cgtop2" ] && [ -x "$OBJ/bench/cgtop2_floor" ] ||
		{ say "skipped: build first (make bench builds it)"; exit 0; }
	command -v qemu-system-x86_64 >/dev/null || { say "skipped: qemu-system-x86_64 is missing (the bench runs in the systemd guest)"; exit 0; }
	ls /boot/vmlinuz-* >/dev/null 2>&1 || { say "skipped: no kernel in /boot for the guest"; exit 0; }
	[ -x /lib/systemd/systemd ] || { say "skipped: no systemd on this host for the systemd guest"; exit 0; }
	command -v apt-get >/dev/null || { say "skipped: no apt-get to download pcp"; exit 0; }
	debs=${CGKIT_PCP_DEBS:-${CGKIT_VM_CACHE:-$top/tests/vm/cache}/pcp-debs}
	mkdir -p "$debs" || exit 1
	# what installing pcp would add here, without installing it (nothing is locked or changed)
	pkgs=$(apt-get -s install --no-install-recommends pcp 2>/dev/null | awk '$1 == "Inst" { print $2 }')
	if [ -z "$pkgs" ]; then
		say "skipped: apt-get -s install pcp names no package to add (no pcp in the sources, or installed here)"
		exit 0
	fi
	missing=
	for p in $pkgs; do ls "$debs/${p}_"*.deb >/dev/null 2>&1 || missing="$missing $p"; done
	# shellcheck disable=SC2086 # one package a word
	if [ -n "$missing" ] && ! (cd "$debs" && apt-get download $missing >"$debs/download.log" 2>&1); then
		say "skipped: apt-get download$missing failed: $(tail -n 1 "$debs/download.log")"
		exit 0
	fi
	say "host $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null)"
	say "packages for the guest: $(echo $pkgs)"
	# apt's order: dpkg -i takes its files in turn, and gawk pre-depends on libsigsegv2
	export CGKIT_PCP_DEBS=$debs CGKIT_PCP_FLOOR=$OBJ/bench/cgtop2_floor CGKIT_PCP_PKGS="$pkgs"
	# dpkg and the hour's recording at 10,000 cgroups print nothing for minutes under TCG
	CGKIT_VM_MEM=${CGKIT_VM_MEM:-2048} CGKIT_VM_TIMEOUT=${CGKIT_VM_TIMEOUT:-5400} CGKIT_VM_SILENCE=${CGKIT_VM_SILENCE:-2400} \
		"$top/tests/vm/run" systemd -- bash "$here/pcp.sh" 2>&1 | grep -E --line-buffered '^pcp|^vm: '
	rc=${PIPESTATUS[0]}
	say "host load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	exit "$rc"
fi

# ---- in the guest ----------------------------------------------------------------------------
[ "$(cat /proc/1/comm)" = systemd ] || { say "skipped: PID 1 is not systemd"; exit 0; }
SIZES=${CGKIT_PCP_SIZES:-1000}
HOUR_SIZES=${CGKIT_PCP_HOUR_SIZES:-$SIZES}
K=${CGKIT_PCP_K:-10}
INTERVAL=${CGKIT_PCP_INTERVAL:-1}
[[ $INTERVAL =~ ^[1-9][0-9]*$ ]] && [ $((INTERVAL * 3)) -le "$K" ] ||
	{ say "FAILED: CGKIT_PCP_INTERVAL=$INTERVAL: whole seconds, at most K/3 ($K)"; exit 1; }
HOUR=${CGKIT_PCP_HOUR:-120}
HOUR_DELAY=${CGKIT_PCP_HOUR_DELAY:-0.1}
SCRAPES=${CGKIT_PCP_SCRAPES:-3}
ROWS=${CGKIT_PCP_ROWS:-record scrape seek}
for w in $ROWS; do
	case $w in record | scrape | seek) ;; *) say "FAILED: CGKIT_PCP_ROWS: no row '$w' (record, scrape, seek)"; exit 1 ;; esac
done
row() { [[ " $ROWS " == *" $1 "* ]]; }
# scrapes before the measured ones
WARM=${CGKIT_PCP_WARM:-1}
T=$CGKIT_BIN/cgtop2
FLOOR=$CGKIT_PCP_FLOOR
bench=pcp
main=/sys/fs/cgroup
name=cgkit-test.$$
tmp=$(mktemp -d)
chmod 1777 "$tmp" # pmlogger writes its archive as user pcp
. "$here/lib.sh"
server=
cleanup() {
	[ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }
	bench_remove_sandbox
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
stamp() { say "$(cut -d' ' -f1 /proc/uptime) s: $*"; }

stamp "guest up, load $(cut -d' ' -f1-3 /proc/loadavg)"
# dpkg -i as a user would, but: no man-db trigger (it rebuilds the index of every page over 9p:
# minutes under TCG), and pcp's postinst's 70 dpkg-maintscript-helper rm_conffile/mv_conffile
# calls (each parses the whole dpkg status: more than 10 minutes under TCG; they only matter on
# an upgrade) answered by a stub that says the helper supports nothing
rm -f /var/lib/man-db/auto-update
# pcp's postinst starts pmcd and the primary pmlogger (set -e: a start that fails fails the
# install). pmcd's first start rebuilds the PMNS, longer than the guest's 60 s default start
# timeout under TCG; the primary logger (pmlogger_check, pmlogconf) is not measured and
# would fetch during the measures: a start that does nothing.
for u in pmcd pmproxy pmlogger pmie; do
	mkdir -p "/etc/systemd/system/$u.service.d"
	printf '[Service]\nTimeoutStartSec=infinity\n' >"/etc/systemd/system/$u.service.d/cgkit-bench.conf"
done
printf '[Service]\nType=oneshot\nRestart=no\nRemainAfterExit=yes\nPIDFile=\nExecStart=\nExecStart=/bin/true\nExecStop=\n' \
	>>"/etc/systemd/system/pmlogger.service.d/cgkit-bench.conf"
mkdir -p "$tmp/shim"
printf '#!/bin/sh\n[ "$1" = supports ] && exit 1\nexit 0\n' >"$tmp/shim/dpkg-maintscript-helper"
chmod 755 "$tmp/shim/dpkg-maintscript-helper"
# A package that pre-depends on another of the set (gawk on libsigsegv2) is refused until that
# one is configured, which dpkg -i of them all does after unpacking the rest: a second dpkg -i
# takes what the first left out (and what depends on it, pcp on gawk).
dpkg_i() {
	PATH=$tmp/shim:$PATH dpkg -i --path-exclude='/usr/share/man/*' --path-exclude='/usr/share/doc/*' \
		"$@" >>"$tmp/dpkg.log" 2>&1
}
not_installed() {
	local p
	for p in $CGKIT_PCP_PKGS; do
		[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] ||
			echo "$CGKIT_PCP_DEBS/${p}_"*.deb
	done
}
files=()
for p in $CGKIT_PCP_PKGS; do files+=("$CGKIT_PCP_DEBS/${p}_"*.deb); done
dpkg_i "${files[@]}" || { stamp "dpkg -i: a second pass"; mapfile -t files < <(not_installed); dpkg_i "${files[@]}"; }
if [ -n "$(not_installed)" ]; then
	say "FAILED: dpkg -i in the guest:"
	sed 's/^/pcp:   /' "$tmp/dpkg.log" | grep -vE 'mkdir|Selecting|Preparing|Unpacking' | tail -n 40
	exit 1
fi
stamp "dpkg -i done; pcp $(dpkg-query -W -f='${Version}' pcp) installed; pmcd $(systemctl is-active pmcd), pmlogger $(systemctl is-active pmlogger)"
# the primary logger and pmie would fetch from pmcd during the measures
systemctl stop pmlogger pmie 2>/dev/null
# What PCP takes past a thousand cgroups under TCG: pmdaproc's fetch of 10,000 takes longer
# than pmcd's 5 s for an agent (pmcd would drop it: pmcd.options says to raise -t for slow
# agents) and than a client's 10 s request timeout (PMCD_REQUEST_TIMEOUT: pmlogger, pmproxy,
# pminfo, pmrep). Neither changes what a fetch costs.
echo "-t 600" >>/etc/pcp/pmcd/pmcd.options
printf '[Service]\nEnvironment=PMCD_REQUEST_TIMEOUT=600\n' >"/etc/systemd/system/pmproxy.service.d/cgkit-timeout.conf"
export PMCD_REQUEST_TIMEOUT=600
systemctl daemon-reload
systemctl restart pmcd pmproxy || { say "FAILED: systemctl start pmcd pmproxy"; journalctl -u pmcd -u pmproxy | tail -n 20 | sed 's/^/pcp:   /'; exit 1; }
stamp "pmcd $(systemctl is-active pmcd), pmproxy $(systemctl is-active pmproxy)"
pmcd=$(pidof -s pmcd)
proc=$(pidof -s pmdaproc)
pmproxy=$(pidof -s pmproxy)
[ -n "$pmcd" ] && [ -n "$proc" ] && [ -n "$pmproxy" ] || { say "FAILED: pmcd ($pmcd), pmdaproc ($proc), pmproxy ($pmproxy)"; exit 1; }
daemons_us() { # pmcd's and pmdaproc's CPU, and $1's (pmproxy) if given
	local s=0 p
	for p in "$pmcd" "$proc" "$@"; do s=$((s + $(bench_cpu_us "$p"))); done
	echo "$s"
}

# the PMDA's cgroup2 metrics for CPU, memory, IO, pids: the leaves that exist in this version
mkdir "$main/$name" || exit 1
ctl=$(for c in cpu memory io pids; do grep -qw "$c" "$main/$name/cgroup.controllers" && printf '+%s ' "$c"; done)
echo "$ctl" >"$main/$name/cgroup.subtree_control" || { say "FAILED: $ctl in $main/$name"; exit 1; }
grow 2
metrics=$(pminfo cgroup.cpu.stat cgroup.memory.current cgroup.memory.stat cgroup.io.stat cgroup.pids 2>/dev/null)
[ -n "$metrics" ] || { say "FAILED: pminfo lists no cgroup.* metric"; pminfo cgroup | head | sed 's/^/pcp:   /'; exit 1; }
nm=$(echo "$metrics" | wc -l)
say "PCP metrics ($nm): $(echo $metrics)"
have=$(pminfo -f cgroup.cpu.stat.usage | grep -c "/$name/c0000")
[ "$have" -ge 2 ] || { say "FAILED: pmdaproc has no value for /$name's children"; pminfo -f cgroup.cpu.stat.usage | head -n 20 | sed 's/^/pcp:   /'; exit 1; }
cols="cpu,memory,io,pids"

# pmlogger's configuration: $1 the interval
logcfg() {
	echo "log mandatory on $1 {"
	echo "$metrics" | sed 's/^/	/'
	echo "}"
}

# The recorders are measured running, between two looks K s apart after a warm-up (their
# first samples read every file of every cgroup, and under TCG that start-up varied by more than
# ten samples' worth: differences of whole runs came out negative): CPU from schedstat (every
# thread), bytes from the files' growth, per sample = over K at -d INTERVAL s, median of 3. The
# warm-up is three intervals and 2.5 s after the first sample: cgtop2's second sample reads
# every file again (a cgroup is known quiet after two equal samples), which at 10,000 cgroups
# and a 10 s interval fell inside a 2.5 s warm-up's window and made 5 s a sample of it.
# $1: a recorder's pid, $2: the file its first sample makes, $3: the prefix of every file it
# writes. Prints a sample's "CPU us of the recorder, of pmcd and pmdaproc meanwhile, bytes";
# returns 1 when $2 did not come within 60 s.
steady() {
	local p=$1 i a b d0 d1 s0 s1
	for i in $(seq 1 600); do [ -s "$2" ] && break; kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
	[ -s "$2" ] || return 1
	sleep "$((INTERVAL * 3 + 2)).5"
	a=$(bench_cpu_us "$p") d0=$(daemons_us) s0=$(sizes "$3")
	sleep "$K"
	b=$(bench_cpu_us "$p") d1=$(daemons_us) s1=$(sizes "$3")
	echo "$(((b - a) * INTERVAL / K)) $(((d1 - d0) * INTERVAL / K)) $(((s1 - s0) * INTERVAL / K))"
}
sizes() { cat "$1"* 2>/dev/null | wc -c; }
# cgtop2 --record: its CPU us and bytes a sample
rec_one() {
	local p r
	rm -f "$tmp/rec"
	"$T" --record="$tmp/rec" --record-size=0 --collectors=$cols -d "$INTERVAL" "/$name" -n 0 2>"$tmp/stderr.rec" &
	p=$!
	r=$(steady "$p" "$tmp/rec" "$tmp/rec")
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	[ -n "$r" ] || { say "FAILED: cgtop2 --record wrote nothing in 60 s: $(head -c 300 "$tmp/stderr.rec")" >&2; return 1; }
	echo "$r" | cut -d' ' -f1,3
}
# pmlogger logging every INTERVAL s: "pmlogger daemons bytes", each a sample
log_split() {
	local p r
	rm -f "$tmp"/arch.*
	pmlogger -c "$tmp/log1.cfg" -l "$tmp/pmlogger.log" "$tmp/arch" &
	p=$!
	r=$(steady "$p" "$tmp/arch.0" "$tmp/arch.")
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	if [ -z "$r" ]; then
		say "FAILED: pmlogger wrote no archive in 60 s; its log:" >&2
		sed 's/^/pcp:   /' "$tmp/pmlogger.log" | tail -n 20 >&2
		return 1
	fi
	echo "$r"
}
# fields of function $1's line: medians of 3 runs
median3() {
	local f=$1 i
	for i in 1 2 3; do $f || return 1; done >"$tmp/ps"
	for i in $(seq 1 "$(head -n 1 "$tmp/ps" | wc -w)"); do
		cut -d' ' -f"$i" "$tmp/ps" | median
	done | tr '\n' ' '
}
# three significant digits: a ratio of 0.0008 is a result, not "0.00"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3g", a / b; else print "n/a" }'; }
ms() { case $1 in timeout | failed) echo "$1" ;; *) awk -v u="$1" 'BEGIN { printf "%.1f ms", u / 1000 }' ;; esac; }
# wall us of a command (stdout to /dev/null), median of 3; "timeout" past $1 s
wall3() {
	local lim=$1 i s
	shift
	for i in 1 2 3; do
		s=$(date +%s%N)
		timeout "$lim" "$@" >/dev/null 2>"$tmp/wall.err"
		case $? in 0) ;; 124) echo timeout; return ;; *) echo failed; return ;; esac
		echo $((($(date +%s%N) - s) / 1000))
	done | median
}

# A scrape of URL $1 after WARM: "wall_us cpu_us bytes http_code", the wall time the median of
# SCRAPES, the CPU theirs over SCRAPES as the command $2... counts it (microseconds so far),
# the size and code the last one's
scrape_cost() {
	local u=$1 c0
	shift
	bench_scrapes "$WARM" "$u" >/dev/null
	c0=$("$@")
	BENCH_SCRAPE_ALL=1 bench_scrapes "$SCRAPES" "$u" >"$tmp/scrapes"
	echo "$(awk '{ printf "%d\n", $1 * 1000000 }' "$tmp/scrapes" | median) $((($("$@") - c0) / SCRAPES)) $(tail -n 1 "$tmp/scrapes" | cut -d' ' -f2-)"
}

logcfg "$INTERVAL sec" >"$tmp/log1.cfg"
for n in $SIZES; do
	grow "$n"
	ncg=$(pminfo -f cgroup.cpu.stat.usage | grep -c 'inst \[')
	stamp "--- $n cgroups in /$name (PCP's instances: $ncg, the guest's own with them), load $(cut -d' ' -f1-3 /proc/loadavg)"

	# record
	if row record; then
		stamp "record: cgtop2 --record, then pmlogger, at $INTERVAL s, each measured 3 times over $K s after a warm-up"
		read -r c_cpu c_bytes <<<"$(median3 rec_one)"
		read -r l_cpu l_dcpu l_bytes <<<"$(median3 log_split)"
		grep -qi error "$tmp/pmlogger.log" && sed 's/^/pcp:   pmlogger.log: /' "$tmp/pmlogger.log" | grep -i error | head -n 3
		say "record $n: cgtop2 --record $(ms "$c_cpu") CPU, $c_bytes bytes per sample; pmlogger $(ms "$l_cpu") + pmcd/pmdaproc $(ms "$l_dcpu") CPU, $l_bytes bytes per sample"
		say "ratio record CPU per sample cgkit/PCP at $n: $(ratio "$c_cpu" $((l_cpu + l_dcpu))) (pmlogger alone: $(ratio "$c_cpu" "$l_cpu"))"
		say "ratio record bytes per sample cgkit/PCP at $n: $(ratio "$c_bytes" "$l_bytes")"
	fi

	# scrape
	if row scrape; then
		stamp "scrape: cgtop2 --listen, $WARM + $SCRAPES scrapes"
		bench_serve_start --collectors=$cols
		read -r c_w c_c c_b _ <<<"$(scrape_cost "$url" bench_cpu_us "$server")"
		bench_serve_stop
		purl="http://127.0.0.1:44322/metrics?names=$(echo $metrics | tr ' ' ,)"
		stamp "scrape: pmproxy, $WARM + $SCRAPES scrapes"
		read -r p_w p_c p_b p_code <<<"$(scrape_cost "$purl" daemons_us "$pmproxy")"
		say "scrape $n: cgtop2 --listen $(ms "$c_w") wall, $(ms "$c_c") CPU, $c_b bytes; pmproxy (HTTP $p_code) $(ms "$p_w") wall, $(ms "$p_c") CPU (with pmcd, pmdaproc), $p_b bytes"
		say "ratio scrape CPU cgkit/PCP at $n: $(ratio "$c_c" "$p_c"); latency: $(ratio "$c_w" "$p_w")"
	fi

	# seek in an hour
	if row seek && [[ " $HOUR_SIZES " == *" $n "* ]]; then
		rm -f "$tmp/hour" "$tmp"/hour.*
		ms_delay=$(awk -v d="$HOUR_DELAY" 'BEGIN { printf "%d", d * 1000 }')
		logcfg "$ms_delay msec" >"$tmp/logh.cfg"
		s=$SECONDS
		pmlogger -c "$tmp/logh.cfg" -s "$HOUR" -l "$tmp/pmloggerh.log" "$tmp/hour" &
		lg=$!
		"$T" --record="$tmp/hour" --record-size=0 --collectors=$cols -d "$HOUR_DELAY" "/$name" -n "$HOUR"
		wait "$lg"
		# the 9/10 point of cgtop2's recording, a whole second (pmrep's @ takes seconds)
		"$T" --replay="$tmp/hour" -F csv --collectors=none | cut -d, -f1 | grep '^[0-9]' | sort -un >"$tmp/times"
		n_s=$(wc -l <"$tmp/times")
		t9=$(sed -n "$((n_s * 9 / 10))p" "$tmp/times")
		at=${t9%.*}
		stamp "hour $n: $HOUR samples each in $((SECONDS - s)) s; cgtop2's $(stat -c %s "$tmp/hour") bytes, PCP's $(cat "$tmp"/hour.* | wc -c); seek to $t9"
		if [ -n "$at" ]; then
			# shellcheck disable=SC2046 # one metric a word
			c_seek=$(wall3 600 "$T" --replay="$tmp/hour" --at="@$at" -n 1 -F json)
			p_seek=$(wall3 600 pmrep -a "$tmp/hour" -S "@$(date -d "@$at" '+%a %b %e %H:%M:%S %Y')" -s 1 -u -r -o csv $(echo $metrics))
			case $p_seek in timeout | failed) say "pmrep $p_seek: $(head -c 300 "$tmp/wall.err")" ;; esac
			say "seek $n: cgtop2 --replay --at $(ms "$c_seek"), pmrep -S $(ms "$p_seek") (wall, median of 3)"
			say "ratio seek and print one sample cgkit/PCP at $n: $(ratio "$c_seek" "$p_seek")"
		else
			say "seek $n: no time to seek to in cgtop2's replay ($(head -n 2 "$tmp/times" | tr '\n' ' '))"
		fi
		rm -f "$tmp/hour" "$tmp"/hour.*
	fi
done
stamp "done, load $(cut -d' ' -f1-3 /proc/loadavg)"
