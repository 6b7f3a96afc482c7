#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --record: the CPU time (user+sys) a recorded sample costs over 1,000 empty cgroups in a
# sandbox, beside what sampling alone costs (-b -F json to /dev/null is sampling plus writing
# JSON), the bytes a sample adds to the file, and what --replay takes to read them back; and
# --journal's (cgkit-record.service: the same sample gzip-compressed, flushed each sample, no
# tasks) CPU and bytes a sample.
#
# Per sample = (cost of 2+K samples - cost of 2) / K, the median of 3 tries: start-up, the first
# scan and the first full reads drop out. Each run records into a fresh file.
# Target (issue 14): cheap enough to leave running at -d 5s: the recorder's own work (the
# encoding and the write) a small part of the sampling it records.
set -u
BIN=${CGKIT_BIN:-$(cd "$(dirname "$0")/.." && pwd)}
OBJ=${CGKIT_OBJ:-$BIN/.obj}
T=$BIN/cgtop2
FLOOR=$OBJ/bench/cgtop2_floor
SIZES=${CGTOP2_RECORD_BENCH_SIZES:-1000}
K=${CGTOP2_RECORD_BENCH_K:-30}
bench=cgtop2_record

. "$(dirname "$0")/lib.sh"
bench_preflight
main=$(bench_mount unified cpuacct)
[ -n "$main" ] || { echo "cgtop2_record bench: no cgroup2 or cpuacct hierarchy; skipped"; exit 0; }
name=cgkit-test.$$
tmp=$(mktemp -d)

cleanup() {
	bench_remove_sandbox
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# CPU microseconds of one run (stdout to /dev/null); a recording starts from an empty file
cpu_us() {
	rm -rf "$tmp/rec" "$tmp/rec.1" "$tmp/j"
	"$FLOOR" rusage "$@" | cut -d' ' -f1
}

# per sample, steady state: median of 3 x ((2+k) - 2) / k; $1 is k, then the command, whose
# last argument is -n (the count follows)
per_sample_us() {
	local k=$1 a b i
	shift
	for i in 1 2 3; do
		a=$(cpu_us "$@" 2) || return 1
		b=$(cpu_us "$@" $((k + 2))) || return 1
		echo $(((b - a) / k))
	done | sort -n | sed -n 2p
}

us() {
	awk -v u="$1" 'BEGIN { printf "%.2f ms", u / 1000 }'
}

echo "hierarchy $main ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
mkdir "$main/$name" || exit 1
for n in $SIZES; do
	have=$(find "$main/$name" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$have" -lt "$n" ] && seq "$have" $((n - 1)) |
		awk -v d="$main/$name" '{ printf "%s/c%05d\n", d, $1 }' | xargs mkdir
	sample=$(per_sample_us "$K" "$T" -b -d 0.01 "/$name" -n) || exit 1
	json=$(per_sample_us "$K" "$T" -F json -d 0.01 "/$name" -n) || exit 1
	rec=$(per_sample_us "$K" "$T" --record="$tmp/rec" --record-size=0 -d 0.01 "/$name" -n) || exit 1
	rm -f "$tmp/rec"
	"$T" --record="$tmp/rec" --record-size=0 -d 0.01 "/$name" -n 1
	one=$(stat -c %s "$tmp/rec")
	"$T" --record="$tmp/rec" --record-size=0 -d 0.01 "/$name" -n $((K + 1))
	more=$(stat -c %s "$tmp/rec")
	replay=$("$FLOOR" rusage "$T" --replay="$tmp/rec" -F json | cut -d' ' -f1)
	jour=$(per_sample_us "$K" "$T" --journal="$tmp/j" -d 0.01 "/$name" -n) || exit 1
	rm -rf "$tmp/j"
	"$T" --journal="$tmp/j" -d 0.01 "/$name" -n 1
	jone=$(du -cb "$tmp/j" | tail -n 1 | cut -f1)
	rm -rf "$tmp/j"
	"$T" --journal="$tmp/j" -d 0.01 "/$name" -n $((K + 1))
	jmore=$(du -cb "$tmp/j" | tail -n 1 | cut -f1)
	echo "== $n cgroups, $K samples"
	echo "cgtop2 -b (sample + table)        $(us "$sample") CPU per sample"
	echo "cgtop2 -F json (sample + JSON)    $(us "$json") CPU per sample"
	echo "cgtop2 --record (sample + record) $(us "$rec") CPU per sample"
	echo "recording over the table: $(awk -v a="$rec" -v b="$sample" 'BEGIN { printf "%+.2f ms", (a - b) / 1000 }') per sample; at -d 5s the recorder uses $(awk -v a="$rec" 'BEGIN { printf "%.3f", a / 5e6 * 100 }') % of one CPU"
	echo "file: $(((more - one) / K)) bytes per sample ($(((more - one) / K / n)) per cgroup; the first, naming every cgroup, $one with the header); $(awk -v b=$(((more - one) / K)) 'BEGIN { printf "%.1f", b * 17280 / 1048576 }') MiB a day at -d 5s"
	echo "replay of $((K + 2)) samples as JSON: $(us "$replay") CPU"
	echo "cgtop2 --journal (sample + gzip)  $(us "$jour") CPU per sample; $(((jmore - jone) / K)) bytes per sample compressed; $(awk -v b=$(((jmore - jone) / K)) 'BEGIN { printf "%.1f", b * 2880 / 1048576 }') MiB a day at the service's -d 30"
done
