#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cgtop2 --listen: usage and --web-config errors; the endpoint over curl, or where there is
# none (the VM guests' busybox) over bash's /dev/tcp (index, /metrics in both exposition
# formats, gzip, HEAD, 404, 405, header limits, a shared sample, slow-loris clients); TLS with
# basic auth and client certificates, SIGHUP (curl only); a real Prometheus server scraping a
# busy sandbox cgroup every second, in plain HTTP and through TLS with basic auth.
# CGKIT_TEST_NO_CURL=1 takes the /dev/tcp client where curl is installed too.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
BUSY=$HELPERS/top_busy
LORIS=$HELPERS/slowloris
_pids=()

# Under valgrind (CGKIT_WRAP) a first sample of a host's whole tree takes minutes (8.5 min for
# 40,000 cgroups on the shared machine): the server then watches a sandbox cgroup, which
# stands for the root in the checks.
# An idle sandbox's CPU does not move: a sample is told from another by its duration.
SERVE_CG=()
ROOT=/
SAMPLE_LINE='^cgroup_cpu_usage_seconds_total{cgroup="/"}'
if cgk_wrapped && [ "$(id -u)" -eq 0 ] && [ -n "$(cgk_mnt unified)" ] &&
	cgk_sandbox unified >/dev/null; then
	SERVE_CG=("/$S")
	ROOT=/$S
	SAMPLE_LINE='^cgtop2_scrape_duration_seconds '
fi

# Our processes only, by PID.
teardown_test() {
	cgk_kill_pids
	return 0
}

have_curl() {
	[ -z "${CGKIT_TEST_NO_CURL:-}" ] && command -v curl >/dev/null
}

# What only curl does here: TLS ($1 says what for).
need_curl() {
	[ -z "${CGKIT_TEST_NO_CURL:-}" ] ||
		{ cgk_skip "$1: CGKIT_TEST_NO_CURL is set (the plain HTTP tests use bash's /dev/tcp)"; return 1; }
	cgk_need_prog curl "$1" || return 1
}

# Start cgtop2 --listen on a free port of 127.0.0.1 with the arguments given; sets $PORT,
# $SERVE_PID, $SERVE_ERR (its stderr) and $URL (http or https://127.0.0.1:PORT).
serve() {
	local i
	SERVE_ERR=$_cgk_tmp/serve.err.$RANDOM
	"$T" --listen=127.0.0.1:0 "${SERVE_CG[@]}" "$@" 2>"$SERVE_ERR" &
	SERVE_PID=$!
	_pids+=("$SERVE_PID")
	# the first sample comes before the socket is served: long on a machine with many cgroups
	for i in $(seq 1 300); do
		grep -q 'serving ' "$SERVE_ERR" && break
		kill -0 "$SERVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	grep -q 'serving ' "$SERVE_ERR" || { fail "cgtop2 --listen did not start: $(cat "$SERVE_ERR")"; return 1; }
	PORT=$(sed -n 's|.*serving https*://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$SERVE_ERR")
	URL=$(sed -n 's|.*serving \(https*://127\.0\.0\.1:[0-9]*\)/metrics$|\1|p' "$SERVE_ERR")
	[ -n "$PORT" ] || { fail "no port in: $(cat "$SERVE_ERR")"; return 1; }
}

# An HTTP/1.0 request over bash's /dev/tcp with the curl options the tests use (-H, -X, -d,
# -I, -w with %{http_code} and %{size_download}, --max-time, --path-as-is, -g; plain http:// only),
# into the files curl writes: $_cgk_tmp/hdr (status line and headers), body, code.
tcp_get() {
	local method= data= url= fmt='%{http_code}' max=20 hdrs=() h line status size hostport path req
	while [ $# -gt 0 ]; do
		case $1 in
		-H) hdrs+=("$2"); shift ;;
		-X) method=$2; shift ;;
		-d) data=$2; shift ;;
		-I) method=HEAD ;;
		-w) fmt=$2; shift ;;
		--max-time) max=$2; shift ;;
		--path-as-is | -g) ;;
		http://*) url=$1 ;;
		*) echo "tcp_get: $1 is curl's alone" >&2; return 2 ;;
		esac
		shift
	done
	[ -n "$method" ] || { [ -n "$data" ] && method=POST || method=GET; }
	hostport=${url#http://}
	path=/${hostport#*/}
	[ "$path" = "/$hostport" ] && path=/
	hostport=${hostport%%/*}
	: >"$_cgk_tmp/hdr"
	: >"$_cgk_tmp/body"
	echo 000 >"$_cgk_tmp/code"
	exec 3<>"/dev/tcp/${hostport%:*}/${hostport##*:}" || return 7
	req=$(printf '%s %s HTTP/1.0\r\nHost: %s\r\nUser-Agent: cgkit-test\r\n' "$method" "$path" "$hostport"
		for h in "${hdrs[@]}"; do printf '%s\r\n' "$h"; done
		[ -n "$data" ] && printf 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %s\r\n' "${#data}"
		printf '\r\n%sX' "$data")
	# one write; SIGPIPE ignored for it: a server that answers and closes before the request
	# is all read (431) must not end this shell
	trap '' PIPE
	printf '%s' "${req%X}" >&3 2>/dev/null
	trap - PIPE
	# bash reads a socket a byte at a time: what is left after the headers is the body. Few
	# forks: the slow-loris test times a scrape, on a loaded machine.
	status=
	while IFS= read -r -t "$max" line <&3; do
		printf '%s\n' "$line" >>"$_cgk_tmp/hdr"
		[ -n "$status" ] || { status=${line#* }; status=${status%% *}; }
		[ -z "${line%$'\r'}" ] && break
	done
	[ "$method" = HEAD ] || timeout "$max" cat <&3 >"$_cgk_tmp/body"
	exec 3<&-
	[ -n "$status" ] || return 52
	fmt=${fmt//'%{http_code}'/$status}
	case $fmt in *'%{size_download}'*) size=$(wc -c <"$_cgk_tmp/body"); fmt=${fmt//'%{size_download}'/$((size))} ;; esac
	printf '%s' "$fmt" >"$_cgk_tmp/code"
}

# curl $@ (or tcp_get) with a time limit; sets $rc $out (body) $hdr (headers, CR removed) $code.
get() {
	if have_curl; then
		curl -s --max-time 20 -D "$_cgk_tmp/hdr" -o "$_cgk_tmp/body" -w '%{http_code}' "$@" >"$_cgk_tmp/code"
	else
		tcp_get "$@"
	fi
	rc=$?
	out=$(tr -d '\0' <"$_cgk_tmp/body" 2>/dev/null)
	hdr=$(tr -d '\r' <"$_cgk_tmp/hdr" 2>/dev/null)
	code=$(cat "$_cgk_tmp/code")
}

header() {
	echo "$hdr" | sed -n "s/^$1: //Ip" | tail -n 1
}

# ---- usage and web config errors ---------------------------------------------------------

test_usage() {
	cgk_capture "$T" --listen=nine
	assertEquals "bad --listen exit" 64 "$rc"
	assertContains "bad --listen" "$err" "cgtop2: --listen takes [ADDR:]PORT (PORT, :PORT, ADDR:PORT, [IPV6]:PORT), not 'nine'"
	cgk_capture "$T" --listen=::1:9
	assertEquals "bare IPv6 exit" 64 "$rc"
	cgk_capture "$T" --listen=127.0.0.1:65536
	assertEquals "port range exit" 64 "$rc"
	cgk_capture "$T" --web-config=/nonexistent
	assertEquals "--web-config alone exit" 64 "$rc"
	assertContains "--web-config alone" "$err" "cgtop2: --web-config needs --listen"
	# issue 32: -F was ignored, the server started
	cgk_capture timeout 300 "$T" --listen=127.0.0.1:0 -F json
	assertEquals "--listen -F exit" 64 "$rc"
	assertEquals "--listen -F: one line" "cgtop2: --listen excludes -F: each scrape gets the format its Accept header asks for (OpenMetrics 1.0.0 or the text format 0.0.4)" "$(echo "$err" | head -n 1)"
}

# web config text $1 -> cgtop2's stderr and exit in $err $rc
webconfig_error() {
	printf '%s' "$1" >"$_cgk_tmp/web.yml"
	cgk_capture timeout 300 "$T" --listen=127.0.0.1:0 --web-config="$_cgk_tmp/web.yml" "${SERVE_CG[@]}"
}

test_webconfig_errors() {
	local f=$_cgk_tmp/web.yml
	webconfig_error $'tls_config:\n  cert_file: a\n'
	assertEquals "unknown key exit" 1 "$rc"
	assertEquals "unknown key: one line naming key and file" \
		"cgtop2: --web-config $f: line 1: unknown key 'tls_config' (known: tls_server_config, http_server_config, basic_auth_users)" "$err"
	webconfig_error $'tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n'
	assertEquals "unsupported key" "cgtop2: --web-config $f: line 4: tls_server_config: key 'cipher_suites' is not supported by cgtop2 (GnuTLS's defaults apply; remove it)" "$err"
	webconfig_error $'basic_auth_users:\n  alice: secret\n'
	assertEquals "plain password" "cgtop2: --web-config $f: line 2: basic_auth_users: 'alice': not a bcrypt hash (\$2y\$10\$ and 53 characters, e.g. from htpasswd -nBC 10)" "$err"
	webconfig_error $'tls_server_config:\n  key_file: k.pem\n'
	assertEquals "no cert" "cgtop2: --web-config $f: tls_server_config: cert_file (or cert) is missing" "$err"
	webconfig_error $'tls_server_config:\n  cert_file: nothere.pem\n  key_file: k.pem\n'
	assertEquals "missing cert file" "cgtop2: --web-config $f: cert_file $_cgk_tmp/nothere.pem: No such file or directory" "$err"
	webconfig_error $'http_server_config:\n  headers:\n    Set-Cookie: a\n'
	assertContains "header refused" "$err" "line 3: headers: 'Set-Cookie' cannot be set"
	webconfig_error $'basic_auth_users: [\n'
	assertEquals "YAML error exit" 1 "$rc"
	assertContains "YAML error" "$err" "cgtop2: --web-config $f: line "
	webconfig_error $'basic_auth_users:\n  "\\e[31mred": x\n'
	assertNotContains "no raw escape reaches the terminal" "$err" $'\e'
	cgk_capture "$T" --listen=127.0.0.1:0 --web-config="$_cgk_tmp/none.yml"
	assertEquals "missing file" "cgtop2: --web-config $_cgk_tmp/none.yml: No such file or directory" "$err"
	assertEquals "missing file exit" 1 "$rc"
}

test_listen_busy_port() {
	serve || return 0
	cgk_capture timeout 60 "$T" --listen="127.0.0.1:$PORT" "${SERVE_CG[@]}"
	assertEquals "port in use exit" 1 "$rc"
	assertEquals "port in use" "cgtop2: --listen 127.0.0.1:$PORT: Address already in use" "$err"
	# said before the tree is scanned (a first scan of a large tree takes seconds, minutes
	# under valgrind): so before a cgroup that does not exist is found missing
	cgk_capture timeout 60 "$T" --listen="127.0.0.1:$PORT" /cgkit-no-such-cgroup.$$
	assertEquals "port in use before the scan" "cgtop2: --listen 127.0.0.1:$PORT: Address already in use" "$err"
	cgk_capture "$T" --listen=127.0.0.1:0 --web-config="$_cgk_tmp/none.yml" /cgkit-no-such-cgroup.$$
	assertEquals "web config before the scan" "cgtop2: --web-config $_cgk_tmp/none.yml: No such file or directory" "$err"
}

# ---- the endpoint --------------------------------------------------------------------------

test_index_404_405() {
	serve || return 0
	get "$URL/"
	assertEquals "index status" 200 "$code"
	assertEquals "index type" "text/html; charset=utf-8" "$(header Content-Type)"
	assertContains "index links /metrics" "$out" '<a href="metrics">metrics</a>'
	get "$URL/metrics/x"
	assertEquals "404" 404 "$code"
	get "$URL/../etc/passwd" --path-as-is
	assertEquals "404 for a climb" 404 "$code"
	get -X POST -d a=b "$URL/metrics"
	assertEquals "POST" 405 "$code"
	assertEquals "Allow" "GET, HEAD" "$(header Allow)"
	get -X DELETE "$URL/metrics"
	assertEquals "DELETE" 405 "$code"
}

test_metrics_text_promtool() {
	serve || return 0
	get "$URL/metrics"
	assertEquals "status" 200 "$code"
	assertEquals "text 0.0.4 by default" "text/plain; version=0.0.4; charset=utf-8" "$(header Content-Type)"
	assertEquals "Vary" "Accept, Accept-Encoding" "$(header Vary)"
	assertContains "typed counter" "$out" "# TYPE cgroup_cpu_usage_seconds_total counter"
	assertNotContains "no EOF in 0.0.4" "$out" "# EOF"
	assertContains "the default collectors, as in -F prometheus" "$out" "# TYPE cgroup_cpu_user_seconds_total counter"
	assertContains "the exporter's own families" "$out" "# TYPE cgtop2_cgroups gauge"
	printf '%s\n' "$out" | grep -Eq '^cgtop2_scrape_duration_seconds [0-9]+\.[0-9]{9}$'
	assertTrue "how long the sample took" $?
	assertContains "the collectors' errors" "$out" "# TYPE cgtop2_collector_errors_total counter"
	get -H 'Accept: text/plain;version=0.0.4;q=0.5,*/*;q=0.1' "$URL/metrics"
	assertEquals "explicit text" "text/plain; version=0.0.4; charset=utf-8" "$(header Content-Type)"
	if cgk_need_prog promtool; then
		cgk_capture promtool check metrics <"$_cgk_tmp/body"
		assertEquals "promtool check metrics: $out$err" 0 "$rc"
	fi
}

test_metrics_openmetrics() {
	serve || return 0
	# what Prometheus 2.x sends
	get -H 'Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' "$URL/metrics"
	assertEquals "status" 200 "$code"
	assertEquals "OpenMetrics" "application/openmetrics-text; version=1.0.0; charset=utf-8" "$(header Content-Type)"
	assertEquals "ends with EOF" "# EOF" "$(echo "$out" | tail -n 1)"
	assertContains "UNIT" "$out" "# UNIT cgroup_cpu_usage_seconds seconds"
	get -H 'Accept: application/openmetrics-text; version=1.0.0; q=0.2, text/plain; q=0.9' "$URL/metrics"
	assertEquals "text preferred by q" "text/plain; version=0.0.4; charset=utf-8" "$(header Content-Type)"
	get -H 'Accept: application/openmetrics-text; version=2.0.0' "$URL/metrics"
	assertEquals "unknown version: text" "text/plain; version=0.0.4; charset=utf-8" "$(header Content-Type)"
}

test_gzip_head() {
	serve || return 0
	get -H 'Accept-Encoding: gzip' "$URL/metrics"
	assertEquals "gzip" "gzip" "$(header Content-Encoding)"
	assertContains "gunzips" "$(gzip -dc <"$_cgk_tmp/body")" "# TYPE cgroup_cpu_usage_seconds_total counter"
	assertEquals "length of the gzipped body" "$(stat -c %s "$_cgk_tmp/body")" "$(header Content-Length)"
	get -H 'Accept-Encoding: gzip;q=0, *' "$URL/metrics"
	assertEquals "gzip;q=0 refuses it" "" "$(header Content-Encoding)"
	assertContains "plain" "$out" "# TYPE cgroup_cpu_usage_seconds_total counter"
	# curl -I writes the headers where the body would go: count what was downloaded instead
	get -I -w '%{http_code} %{size_download}' "$URL/metrics"
	assertEquals "HEAD, and no body" "200 0" "$code"
	assertEquals "HEAD type" "text/plain; version=0.0.4; charset=utf-8" "$(header Content-Type)"
	assertTrue "HEAD has a length" "[ -n '$(header Content-Length)' ]"
}

# The sandbox's series of exposition $1 (names and labels, no values), sorted
sandbox_series() {
	grep "cgroup=\"/$S" "$1" | sed 's/ [^ ]*$//' | sort
}

# The gzipped body is made of chunks kept from the last scrape and chunks deflated again
# (serve_io.c gz_chunks_gzip): scrape after scrape, while a cgroup's CPU moves and cgroups go
# and come, its CRC and length hold (gzip -t), curl --compressed reads it, promtool takes it,
# and it has the series of the plain body scraped after it; OpenMetrics too.
test_gzip_follows_change() {
	local m i r gz=$_cgk_tmp/body.gz txt=$_cgk_tmp/gz.txt plain=$_cgk_tmp/plain.txt
	cgk_need_root || return 0
	need_curl "gzip over curl" || return 0
	m=$(cgk_sandbox unified) || { cgk_skip "no cgroup2 hierarchy ($(cgk_layout))"; return 0; }
	for i in $(seq 0 39); do mkdir "$m/g$i" || { fail "mkdir $m/g$i"; return 1; }; done
	"$BUSY" -r "$_cgk_tmp/gzbusy.ready" "$m/g7/cgroup.procs" &
	_pids+=($!)
	cgk_wait_for test -e "$_cgk_tmp/gzbusy.ready" || { fail "busy helper did not start"; return 1; }
	serve "/$S" || return 0
	for r in 1 2 3 4 5 6; do
		case $r in
		3) rmdir "$m/g3" "$m/g20" ;;
		4) mkdir "$m/g40" "$m/g41" ;;
		5) mkdir "$m/g3" ;;
		esac
		# past the 250 ms a sample is shared for: each round is sampled afresh
		sleep 0.3
		curl -s --max-time 20 -H 'Accept-Encoding: gzip' -o "$gz" "$URL/metrics"
		gzip -t "$gz" 2>"$_cgk_tmp/gzip.err"
		assertTrue "round $r: gzip -t: $(cat "$_cgk_tmp/gzip.err")" $?
		gzip -dc <"$gz" >"$txt"
		curl -s --max-time 20 --compressed -o "$_cgk_tmp/cc.txt" "$URL/metrics"
		assertTrue "round $r: curl --compressed" $?
		assertTrue "round $r: curl --compressed reads an exposition" \
			"grep -q '^# TYPE cgroup_cpu_usage_seconds_total counter' '$_cgk_tmp/cc.txt'"
		curl -s --max-time 20 -o "$plain" "$URL/metrics"
		assertEquals "round $r: the series of the plain body" "$(sandbox_series "$plain")" "$(sandbox_series "$txt")"
		if [ "$r" -eq 1 ] && cgk_need_prog promtool; then
			cgk_capture promtool check metrics <"$txt"
			assertEquals "promtool check metrics on the gunzipped body: $out$err" 0 "$rc"
		fi
	done
	assertTrue "a cgroup that came is there" "grep -q 'cgroup=\"/$S/g41\"' '$txt'"
	assertFalse "a cgroup that went is not" "grep -q 'cgroup=\"/$S/g20\"' '$txt'"
	assertTrue "one that came back is" "grep -q 'cgroup=\"/$S/g3\"' '$txt'"
	curl -s --max-time 20 -H 'Accept-Encoding: gzip' -o "$gz" \
		-H 'Accept: application/openmetrics-text; version=1.0.0' "$URL/metrics"
	gzip -t "$gz"
	assertTrue "OpenMetrics: gzip -t" $?
	assertEquals "OpenMetrics ends with EOF" "# EOF" "$(gzip -dc <"$gz" | tail -n 1)"
}

test_request_limits() {
	local big
	serve || return 0
	big=$(head -c 40000 /dev/zero | tr '\0' a)
	get -H "X-Big: $big" "$URL/metrics"
	assertEquals "a 40 KB header is refused" 431 "$code"
	get "$URL/metrics?$big"
	assertTrue "a 40 KB URL is refused ($code)" "[ '$code' = 414 ] || [ '$code' = 431 ]"
	get "$URL/metrics"
	assertEquals "and the next scrape is served" 200 "$code"
}

# Issue 40, item 5: a query of 2,000 parameters was never answered (libmicrohttpd filed them
# until its pool ran out, then waited); past 4096 bytes it is 414, past 64 parameters 400.
test_query_bounds() {
	local q
	serve --depth=0 || return 0
	q=$(printf 'collect[]=cpu&%.0s' $(seq 1 2000))
	get -g --max-time 60 "$URL/metrics?$q"
	[ "$code" != 000 ] || fail "2,000 parameters: no answer (the request hung until a deadline closed it)"
	assertEquals "2,000 parameters (28 KB): 414" 414 "$code"
	assertEquals "and why" "URI Too Long: the query exceeds 4096 bytes" "$out"
	q=$(printf 'a&%.0s' $(seq 1 64))
	get --max-time 60 "$URL/metrics?${q}collect%5B%5D=cpu"
	assertEquals "65 short parameters: 400" 400 "$code"
	assertEquals "and why" "Bad Request: more than 64 query parameters" "$out"
	q=$(printf 'collect%%5B%%5D=cpu&%.0s' $(seq 1 63))
	get --max-time 60 "$URL/metrics?${q}collect%5B%5D=io"
	assertEquals "64 parameters: served" 200 "$code"
	assertContains "the collectors named" "$out" "# TYPE cgroup_cpu_usage_seconds_total counter"
	assertNotContains "and only them" "$out" "cgroup_memory_"
	get --max-time 60 "$URL/metrics"
	assertEquals "the next request is served" 200 "$code"
}

# Concurrent scrapes read one sample; a scrape a second later samples afresh.
test_shared_sample() {
	local a b c gap=1
	if cgk_wrapped || [ -n "${CGKIT_VM:-}" ]; then
		# under valgrind, and in a TCG guest beside CI's host tiers, the two requests of one
		# client came further apart than 250 ms
		CGKIT_SERVE_REUSE_MS=3000 serve || return 0
		gap=4
	else
		serve || return 0
	fi
	# two connections at once from one client: separate processes start too far apart on a
	# loaded machine
	if have_curl; then
		curl -s -Z --parallel-immediate -o "$_cgk_tmp/a" "$URL/metrics" -o "$_cgk_tmp/b" "$URL/metrics" >/dev/null
	else
		# both requests sent before either answer is read
		exec 4<>"/dev/tcp/127.0.0.1/$PORT" 5<>"/dev/tcp/127.0.0.1/$PORT"
		printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&4
		printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&5
		# read side by side, as curl does: the sample of a loaded machine's tree can be long
		timeout 60 cat <&4 >"$_cgk_tmp/a" &
		timeout 60 cat <&5 >"$_cgk_tmp/b"
		wait $!
		exec 4<&- 5<&-
	fi
	a=$(grep "$SAMPLE_LINE" "$_cgk_tmp/a")
	b=$(grep "$SAMPLE_LINE" "$_cgk_tmp/b")
	assertNotEquals "a value" "" "$a"
	assertEquals "two concurrent scrapes, one sample" "$a" "$b"
	sleep "$gap"
	get "$URL/metrics"
	c=$(echo "$out" | grep "$SAMPLE_LINE")
	assertNotEquals "a second later, a new sample" "$a" "$c"
}

# Connections that never finish their request: from another address they hit its own limit,
# from the scraper's address they stay under it; a scrape is served either way.
test_slowloris() {
	serve || return 0
	"$LORIS" -b 127.0.0.2 -n 80 -r "$_cgk_tmp/loris1" 127.0.0.1 "$PORT" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/loris1" || fail "slowloris did not start"
	"$LORIS" -n 6 -r "$_cgk_tmp/loris2" 127.0.0.1 "$PORT" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/loris2" || fail "slowloris did not start"
	sleep 1.5
	# how long it takes is bench/timing.sh's row serve_slowloris; 120 s only guards a hang
	get --max-time 120 "$URL/metrics"
	assertEquals "scrape beside 86 stalled connections answered (000: hung 120 s)" 200 "$code"
	assertContains "the limit was hit and said" "$(cat "$SERVE_ERR")" "cgtop2: http: "
}

# A request timed: get's arguments; sets $code and $ms, curl's time of the request (the few
# processes get starts take hundreds of ms on the shared machine), or bash's clock around
# tcp_get (busybox date has no %N).
timed_get() {
	local t0 t1 r
	if have_curl; then
		r=$(curl -s -o /dev/null --max-time 120 -w '%{http_code} %{time_total}' "$@")
		code=${r% *}
		r=${r#* }
		ms=$((10#${r%.*} * 1000 + 10#$(printf '%.3s' "${r#*.}000")))
		return
	fi
	t0=${EPOCHREALTIME/[.,]/} # clock: printed, not asserted
	tcp_get --max-time 120 "$@"
	code=$(cat "$_cgk_tmp/code")
	t1=${EPOCHREALTIME/[.,]/} # clock: printed, not asserted
	ms=$(((t1 - t0) / 1000))
}

# $1 scrapes of $URL/metrics half a second apart (the rest: get's arguments): the slowest one's
# time in $worst (ms; 99999 when one was not answered 200), all of them in $all.
scrapes() {
	local n=$1 i
	shift
	worst=0 all=
	for i in $(seq 1 "$n"); do
		timed_get "$@" "$URL/metrics"
		all="$all $code/${ms}ms"
		[ "$code" = 200 ] || ms=99999
		[ "$ms" -gt "$worst" ] && worst=$ms
		sleep 0.5
	done
}

# Scrapes (get's arguments) each answered 200 while what $1 names runs beside: call before it
# starts (the same scrapes alone: they must be answered too), then with $2 = beside. Their times
# are printed; how long they take beside against alone is bench/timing.sh's row serve_idle.
scrapes_answered() {
	local what=$1 when=$2
	shift 2
	if [ "$when" = alone ]; then
		scrapes 3 "$@"
		echo "NOTE ${_shunit_test_:-}: scrapes alone:$all"
		return
	fi
	scrapes 6 "$@"
	echo "NOTE ${_shunit_test_:-}: scrapes beside $what:$all"
	assertTrue "scrapes beside $what each answered 200 (99999ms: not answered in 120 s, hung):$all" \
		"[ $worst -lt 99999 ]"
}

# Issue 28, item 6: 1,000 idle connections from 100 loopback addresses (opened again as the
# server closes them) stop no scrape from another address.
test_idle_connections_many_addresses() {
	serve --depth=0 || return 0
	scrapes_answered "" alone
	"$LORIS" -b 127.0.0.2 -a 100 -n 1000 -m idle -R -r "$_cgk_tmp/idle.ready" \
		-s "$_cgk_tmp/idle.status" -t 60 127.0.0.1 "$PORT" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/idle.ready" || { fail "slowloris did not start"; return 0; }
	sleep 1
	scrapes_answered "1,000 idle connections from 100 addresses" beside
	assertContains "the per-address cap still holds (8 of 10 each)" "$(cat "$SERVE_ERR")" "cgtop2: http: "
}

# Header lines trickled from 40 addresses (5 each, under the per-address cap): each connection
# is closed 5 s after it opened, as Go's ReadHeaderTimeout, not kept alive by its trickle.
test_header_deadline() {
	local i st
	serve --depth=0 || return 0
	scrapes_answered "" alone
	"$LORIS" -b 127.0.0.2 -a 40 -n 200 -m trickle -r "$_cgk_tmp/trickle.ready" \
		-s "$_cgk_tmp/trickle.status" -t 60 127.0.0.1 "$PORT" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/trickle.ready" || { fail "slowloris did not start"; return 0; }
	assertEquals "all 200 connected" "200 0" "$(cat "$_cgk_tmp/trickle.ready")"
	sleep 2
	assertEquals "open 2 s later: the deadline is 5 s" "open 200 closed 0" "$(cat "$_cgk_tmp/trickle.status")"
	scrapes_answered "200 trickling connections from 40 addresses" beside
	for i in $(seq 1 30); do
		st=$(cat "$_cgk_tmp/trickle.status")
		[ "$st" = "open 0 closed 200" ] && break
		sleep 0.5
	done
	assertEquals "every trickling connection closed by the server" "open 0 closed 200" "$st"
	# the guard's own line, or libmicrohttpd's closures (its idle timeout can come first, and
	# its lines can fill the rate-limited log before the guard's sweep): one is said
	assertContains "and said" "$(cat "$SERVE_ERR")" "cgtop2: http: "
}

# The connection limit follows the fd limit: half of what is over a 64-fd margin.
test_connection_limit_from_fd_limit() {
	local st
	cgk_need_unwrapped "valgrind keeps fds of its own below the limit: the count is the program's" || return 0
	SERVE_ERR=$_cgk_tmp/serve.err.$RANDOM
	(ulimit -n 300 && exec "$T" --listen=127.0.0.1:0 -v --depth=0 "${SERVE_CG[@]}") 2>"$SERVE_ERR" &
	SERVE_PID=$!
	_pids+=("$SERVE_PID")
	cgk_wait_for grep -q 'serving ' "$SERVE_ERR" || { fail "did not start: $(cat "$SERVE_ERR")"; return 0; }
	assertContains "-v says the limit" "$(cat "$SERVE_ERR")" ": at most 118 connections (from the fd limit), 8 from one address"
	PORT=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$SERVE_ERR")
	# 130 from 17 addresses, 7 or 8 each: only the total limit refuses
	"$LORIS" -b 127.0.0.2 -a 17 -n 130 -m idle -r "$_cgk_tmp/lim.ready" -s "$_cgk_tmp/lim.status" \
		-t 30 127.0.0.1 "$PORT" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/lim.status" || { fail "slowloris did not start"; return 0; }
	# the rest wait in the listen backlog until the header deadline frees room
	st=$(ls -l "/proc/$SERVE_PID/fd" | grep -c 'socket:')
	assertTrue "at most 118 connections held, and the listener ($st sockets)" "[ $st -ge 110 ] && [ $st -le 120 ]"
}

# Reading cgroupfs needs no privilege: served as nobody, the same families.
test_unprivileged() {
	local port
	cgk_need_root || return 0
	"$HELPERS/runas" 65534 65534 "$T" --listen=127.0.0.1:0 "${SERVE_CG[@]}" \
		2>"$_cgk_tmp/nobody.err" &
	_pids+=($!)
	cgk_wait_for grep -qs 'serving ' "$_cgk_tmp/nobody.err" ||
		{ cgk_skip "cgtop2 does not start as nobody here (the tree not readable?): $(head -c 200 "$_cgk_tmp/nobody.err")"; return 0; }
	port=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$_cgk_tmp/nobody.err")
	assertEquals "runs as nobody" 65534 "$(awk '$1 == "Uid:" { print $2 }' "/proc/$!/status" 2>/dev/null)"
	get "http://127.0.0.1:$port/metrics"
	assertEquals "served" 200 "$code"
	assertContains "the root's CPU" "$out" "cgroup_cpu_usage_seconds_total{cgroup=\"$ROOT\"} "
}

# ---- TLS, basic auth, SIGHUP -------------------------------------------------------------

# A bcrypt hash of $1 at cost $2 (default 5: the tests' time), with what this machine has.
bcrypt_hash() {
	local cost=${2:-5}
	if command -v htpasswd >/dev/null; then
		htpasswd -nbBC "$cost" "" "$1" | tr -d ':\n'
	elif command -v mkpasswd >/dev/null && mkpasswd -m help 2>/dev/null | grep -q bcrypt; then
		mkpasswd -m bcrypt -R "$cost" "$1"
	elif command -v python3 >/dev/null && python3 -W ignore -c 'import crypt' 2>/dev/null; then
		python3 -W ignore -c 'import crypt, sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << int(sys.argv[2]))))' "$1" "$cost"
	else
		return 1
	fi
}

# A CA, a server certificate for 127.0.0.1 and a client certificate, in $_cgk_tmp.
make_certs() {
	[ -f "$_cgk_tmp/server.pem" ] && return 0
	command -v openssl >/dev/null || return 1
	(
		cd "$_cgk_tmp" || exit 1
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
			-keyout ca.key -out ca.pem -days 2 -subj /CN=cgkit-test-ca &&
			openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
				-keyout server.key -out server.csr -subj /CN=127.0.0.1 &&
			printf 'subjectAltName=IP:127.0.0.1\n' >server.ext &&
			openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
				-out server.pem -days 2 -extfile server.ext &&
			openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
				-keyout client.key -out client.csr -subj /CN=scraper &&
			openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
				-out client.pem -days 2 &&
			openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
				-keyout other.key -out other.pem -days 2 -subj /CN=stranger
	) >/dev/null 2>&1
}

# A web config with TLS and user scraper:$1 in $_cgk_tmp/web.yml ($2: more tls_server_config)
tls_config() {
	local h
	h=$(bcrypt_hash "$1") || return 1
	cat >"$_cgk_tmp/web.yml" <<-EOF
		tls_server_config:
		  cert_file: server.pem
		  key_file: server.key
		  min_version: TLS12
		$2
		http_server_config:
		  headers:
		    X-Content-Type-Options: nosniff
		basic_auth_users:
		  scraper: '$h'
	EOF
}

# A certificate and a bcrypt hash to serve TLS with basic auth.
need_certs() {
	cgk_need_prog openssl "a certificate to test with" || return 1
	make_certs || { fail "openssl made no certificate"; return 1; }
	bcrypt_hash x >/dev/null || { cgk_skip "nothing here makes a bcrypt hash (htpasswd, mkpasswd, python3 crypt)"; return 1; }
}

# The same, and curl to talk TLS to it.
need_tls() {
	need_curl "a TLS request" && need_certs
}

test_tls_basic_auth() {
	need_tls || return 0
	tls_config right || return 0
	serve --web-config="$_cgk_tmp/web.yml" || return 0
	assertContains "https" "$URL" "https://"
	get --cacert "$_cgk_tmp/ca.pem" "$URL/metrics"
	assertEquals "no password: 401" 401 "$code"
	assertContains "a Basic challenge" "$(header WWW-Authenticate)" "Basic realm="
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:wrong "$URL/metrics"
	assertEquals "wrong password: 401" 401 "$code"
	get --cacert "$_cgk_tmp/ca.pem" -u nobody:right "$URL/metrics"
	assertEquals "unknown user: 401" 401 "$code"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:right "$URL/metrics"
	assertEquals "right password: 200" 200 "$code"
	assertEquals "configured header" "nosniff" "$(header X-Content-Type-Options)"
	assertContains "metrics" "$out" "# TYPE cgroup_cpu_usage_seconds_total counter"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:right "$URL/metrics"
	assertEquals "again (cached check): 200" 200 "$code"
	get "${URL/https/http}/metrics"
	assertNotEquals "plain HTTP to the TLS port" 200 "$code"
	get --cacert "$_cgk_tmp/ca.pem" --tls-max 1.1 -u scraper:right "$URL/metrics"
	assertNotEquals "TLS 1.1 under min_version TLS12" 200 "$code"
}

test_client_certificates() {
	need_tls || return 0
	tls_config right $'  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem' || return 0
	serve --web-config="$_cgk_tmp/web.yml" || return 0
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:right "$URL/metrics"
	assertNotEquals "no client certificate" 200 "$code"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:right --cert "$_cgk_tmp/other.pem" --key "$_cgk_tmp/other.key" "$URL/metrics"
	assertNotEquals "a certificate of another CA" 200 "$code"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:right --cert "$_cgk_tmp/client.pem" --key "$_cgk_tmp/client.key" "$URL/metrics"
	assertEquals "the CA's client certificate" 200 "$code"
}

test_sighup() {
	need_tls || return 0
	tls_config first || return 0
	serve --web-config="$_cgk_tmp/web.yml" || return 0
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:first "$URL/metrics"
	assertEquals "first password" 200 "$code"
	tls_config second
	kill -HUP "$SERVE_PID"
	cgk_wait_for grep -q 're-read' "$SERVE_ERR" || fail "no re-read: $(cat "$SERVE_ERR")"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:second "$URL/metrics"
	assertEquals "second password after SIGHUP" 200 "$code"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:first "$URL/metrics"
	assertEquals "first password refused" 401 "$code"
	echo "bogus: 1" >>"$_cgk_tmp/web.yml"
	kill -HUP "$SERVE_PID"
	cgk_wait_for grep -q 'kept the previous configuration' "$SERVE_ERR" || fail "bad file not reported"
	assertContains "the bad key named" "$(cat "$SERVE_ERR")" "unknown key 'bogus'"
	get --cacert "$_cgk_tmp/ca.pem" -u scraper:second "$URL/metrics"
	assertEquals "still served on the old config" 200 "$code"
	assertTrue "still running" "kill -0 $SERVE_PID"
	kill -TERM "$SERVE_PID"
	wait "$SERVE_PID"
	assertEquals "SIGTERM: exit 0" 0 $?
}

# "Authorization: Basic" with user:password $1 (printf's escapes: \0 is a NUL)
auth_header() {
	printf 'Authorization: Basic %s' "$(printf "$1" | base64 | tr -d '\n')"
}

# A web config with basic auth only, user scraper with hash $1.
auth_config() {
	printf 'basic_auth_users:\n  scraper: %s\n' "'$1'" >"$_cgk_tmp/web.yml"
}

# Issue 28, items 3 and 4: bcrypt costs outside 4..14 are refused, at start and on SIGHUP.
test_bcrypt_cost_bounds() {
	local h f=$_cgk_tmp/web.yml
	h=$(bcrypt_hash right) || { cgk_skip "nothing here makes a bcrypt hash (htpasswd, mkpasswd, python3 crypt)"; return 0; }
	webconfig_error "basic_auth_users:
  scraper: '${h:0:4}31${h:6}'
"
	assertEquals "cost 31 exit" 1 "$rc"
	assertEquals "cost 31: one line" "cgtop2: --web-config $f: line 2: basic_auth_users: 'scraper': bcrypt cost 31 is above 14, the most cgtop2 takes (a check at 31 takes 2^21 times one at 10, about 70 ms); make the hash again, e.g. htpasswd -nBC 10" "$err"
	webconfig_error "basic_auth_users:
  scraper: '${h:0:4}15${h:6}'
"
	assertEquals "cost 15 exit" 1 "$rc"
	webconfig_error "basic_auth_users:
  scraper: '${h:0:4}03${h:6}'
"
	assertEquals "cost 03 exit" 1 "$rc"
	assertEquals "cost 03: one line" "cgtop2: --web-config $f: line 2: basic_auth_users: 'scraper': bcrypt cost 3 is below 4, bcrypt's least (every login would fail); make the hash again, e.g. htpasswd -nBC 10" "$err"
	auth_config "$h"
	serve --depth=0 --web-config="$f" || return 0
	get -H "$(auth_header scraper:right)" "$URL/metrics"
	assertEquals "cost 5: served" 200 "$code"
	auth_config "${h:0:4}31${h:6}"
	kill -HUP "$SERVE_PID"
	cgk_wait_for grep -q 'kept the previous configuration' "$SERVE_ERR" || fail "cost 31 on SIGHUP not refused: $(cat "$SERVE_ERR")"
	assertContains "SIGHUP: the cost named" "$(cat "$SERVE_ERR")" "bcrypt cost 31 is above 14"
	timed_get -H "$(auth_header scraper:right)" "$URL/metrics"
	assertEquals "still served on the old config" 200 "$code"
}

# Issue 28, item 3: 16 clients sending wrong passwords (cost 11, about 0.13 s a check idle)
# from their own addresses delay no scrape whose password passed before.
test_wrong_passwords_keep_scrapes() {
	local h c i pids=()
	cgk_need_prog python3 "the clients with wrong passwords" || return 0
	h=$(bcrypt_hash right 11) || { cgk_skip "nothing here makes a bcrypt hash (htpasswd, mkpasswd, python3 crypt)"; return 0; }
	auth_config "$h"
	serve --depth=0 --web-config="$_cgk_tmp/web.yml" || return 0
	timed_get -u scraper:right "$URL/metrics"
	assertEquals "the first scrape (one bcrypt)" 200 "$code"
	echo "NOTE ${_shunit_test_:-}: the first scrape, one cost-11 bcrypt: ${ms} ms"
	scrapes_answered "" alone -u scraper:right
	# 16 clients from 127.0.0.2-17, each a thread of one process sending its requests one
	# after the other on a kept-alive connection for 8 s: their answers counted in wrong.out
	python3 - "$PORT" >"$_cgk_tmp/wrong.out" 2>&1 <<-'EOF' &
		import base64, collections, http.client, sys, threading, time
		port, end, codes, lock = int(sys.argv[1]), time.time() + 8, collections.Counter(), threading.Lock()
		def client(n):
		    auth = "Basic " + base64.b64encode(b"scraper:wrong%d" % n).decode()
		    conn = None
		    while time.time() < end:
		        try:
		            if conn is None:
		                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20,
		                                                  source_address=("127.0.0.%d" % n, 0))
		            conn.request("GET", "/metrics", headers={"Authorization": auth})
		            r = conn.getresponse()
		            r.read()
		            code = r.status
		        except Exception as e:
		            code, conn = type(e).__name__, None
		        with lock:
		            codes[code] += 1
		threads = [threading.Thread(target=client, args=(n,)) for n in range(2, 18)]
		for t in threads: t.start()
		for t in threads: t.join()
		print(" ".join("%s:%d" % kv for kv in sorted(codes.items(), key=str)))
	EOF
	pids+=($!)
	_pids+=($!)
	sleep 2
	scrapes_answered "16 clients sending wrong passwords" beside -u scraper:right
	wait "${pids[@]}"
	echo "NOTE ${_shunit_test_:-}: answers to the wrong passwords (status:count): $(cat "$_cgk_tmp/wrong.out")"
	assertNotContains "no wrong password let in" " $(cat "$_cgk_tmp/wrong.out")" " 200:"
	assertTrue "wrong passwords were checked and refused: $(cat "$_cgk_tmp/wrong.out")" \
		"awk '{ for (i = 1; i <= NF; i++) if (split(\$i, a, \":\") == 2 && a[1] == 401 && a[2] >= 4) ok = 1 } END { exit !ok }' '$_cgk_tmp/wrong.out'"
}

# cgtop2_password_checks_total{result="$1"} in $out (a scrape's body), or nothing
password_checks() {
	echo "$out" | sed -n "s/^cgtop2_password_checks_total{result=\"$1\"} \([0-9]*\)\$/\1/p"
}

# Issue 40, item 3: wrong passwords from 6 addresses (127.0.0.3-8), each a client that sends
# new ones one after the other, run bcrypt within the budget of failures and are refused (429)
# beyond it; a scraper from another address is checked and served all the same; a wrong
# password sent again is refused without bcrypt; the check of the right one is remembered over
# a SIGHUP that leaves its entry as it is, and not over one that changes its hash.
test_wrong_password_budget() {
	local h t0 t1 failed passed
	cgk_need_prog python3 "the clients with wrong passwords" || return 0
	# the mechanism, not bcrypt's cost: the least cost
	h=$(bcrypt_hash right 4) || { cgk_skip "nothing here makes a bcrypt hash (htpasswd, mkpasswd, python3 crypt)"; return 0; }
	auth_config "$h"
	t0=${EPOCHREALTIME%[.,]*} # clock: the budget allows one failure a second: the bound below
	CGKIT_SERVE_REUSE_MS=0 serve --depth=0 --web-config="$_cgk_tmp/web.yml" || return 0
	rm -f "$_cgk_tmp/flood.stop" "$_cgk_tmp/flood.ready"
	python3 "$CGKIT_TOP/tests/helpers/pwflood.py" "$PORT" 3 8 "$_cgk_tmp/flood.stop" \
		"$_cgk_tmp/flood.ready" 3000 >"$_cgk_tmp/flood.out" 2>&1 &
	_pids+=($!)
	CGK_WAIT_TICKS=2400 cgk_wait_for test -e "$_cgk_tmp/flood.ready" ||
		fail "hung: the budget refused no client (a guard of 120 s): $(cat "$_cgk_tmp/flood.out")"
	# the scraper's first check, while the flood goes on
	get --max-time 120 -H "$(auth_header scraper:right)" "$URL/metrics"
	t1=${EPOCHREALTIME%[.,]*} # clock: as t0
	touch "$_cgk_tmp/flood.stop"
	wait "${_pids[-1]}"
	[ "$code" != 000 ] || fail "the right password beside the flood: no answer (hung: a guard of 120 s)"
	assertEquals "the right password beside the flood" 200 "$code"
	echo "NOTE ${_shunit_test_:-}: the flood's answers (status:count): $(cat "$_cgk_tmp/flood.out")"
	assertNotContains "no wrong password let in" " $(cat "$_cgk_tmp/flood.out")" " 200:"
	failed=$(password_checks failed)
	passed=$(password_checks passed)
	echo "NOTE ${_shunit_test_:-}: bcrypt checks failed $failed, throttled $(password_checks throttled), over $((t1 - t0)) s"
	assertEquals "one bcrypt check passed" 1 "$passed"
	assertTrue "wrong passwords were refused without bcrypt: $(password_checks throttled)" "[ '$(password_checks throttled)' -gt 0 ]"
	# the budget: a first check per address, 8 at once and one a second of those that failed
	assertTrue "bcrypt failures within the budget: $failed <= 6 + 8 + $((t1 - t0 + 1))" \
		"[ '$failed' -ge 6 ] && [ '$failed' -le $((6 + 8 + t1 - t0 + 1)) ]"
	assertEquals "nothing cached yet" 0 "$(password_checks cached)"
	# a wrong password again: 401 without bcrypt (a check the flood left queued may still end
	# after the count above: at least one more failure, and the second is cached_wrong)
	get --max-time 120 -H "$(auth_header scraper:again)" "$URL/metrics"
	assertEquals "a wrong password" 401 "$code"
	get --max-time 120 -H "$(auth_header scraper:again)" "$URL/metrics"
	assertEquals "the same again" 401 "$code"
	get --max-time 120 -H "$(auth_header scraper:right)" "$URL/metrics"
	assertTrue "bcrypt for the first" "[ '$(password_checks failed)' -ge $((failed + 1)) ]"
	assertEquals "not for the second" 1 "$(password_checks cached_wrong)"
	assertEquals "the right password remembered" 1 "$(password_checks cached)"
	# the file as it was: the success is kept
	kill -HUP "$SERVE_PID"
	cgk_wait_for grep -q 're-read' "$SERVE_ERR" || fail "no re-read: $(cat "$SERVE_ERR")"
	get --max-time 120 -H "$(auth_header scraper:right)" "$URL/metrics"
	assertEquals "after SIGHUP" 200 "$code"
	assertEquals "no bcrypt after a SIGHUP that changed nothing" 1 "$(password_checks passed)"
	assertEquals "the remembered check" 2 "$(password_checks cached)"
	# another hash of the same password: checked again
	auth_config "$(bcrypt_hash right 4)"
	kill -HUP "$SERVE_PID"
	cgk_wait_for eval '[ "$(grep -c re-read "$SERVE_ERR")" = 2 ]' || fail "no second re-read: $(cat "$SERVE_ERR")"
	get --max-time 120 -H "$(auth_header scraper:right)" "$URL/metrics"
	assertEquals "after SIGHUP with a new hash" 200 "$code"
	assertEquals "bcrypt again for a new hash" 2 "$(password_checks passed)"
	assertEquals "not from the cache" 2 "$(password_checks cached)"
}

# Issue 28, item 5: "right\0zz" is not "right" (crypt() stopped at the NUL), cached or not.
test_password_with_nul() {
	local h
	h=$(bcrypt_hash right) || { cgk_skip "nothing here makes a bcrypt hash (htpasswd, mkpasswd, python3 crypt)"; return 0; }
	auth_config "$h"
	serve --depth=0 --web-config="$_cgk_tmp/web.yml" || return 0
	get -H "$(auth_header 'scraper:right\0zz')" "$URL/metrics"
	assertEquals "a NUL in the password" 401 "$code"
	get -H "$(auth_header 'scraper:right')" "$URL/metrics"
	assertEquals "the password" 200 "$code"
	get -H "$(auth_header 'scraper:right\0zz')" "$URL/metrics"
	assertEquals "a NUL in the password, once the password is cached" 401 "$code"
	get -H "$(auth_header 'scraper\0x:right')" "$URL/metrics"
	assertEquals "a NUL in the user" 401 "$code"
	get -H 'Authorization: Basic %%%%' "$URL/metrics"
	assertEquals "not base64" 401 "$code"
}

# Issue 28, item 7: a FIFO as the web config, at start or in its place at SIGHUP, is refused at
# once; SIGTERM is obeyed after it.
test_webconfig_fifo() {
	local f=$_cgk_tmp/web.yml i
	rm -f "$_cgk_tmp/web.fifo"
	mkfifo "$_cgk_tmp/web.fifo"
	cgk_capture timeout 300 "$T" --listen=127.0.0.1:0 --web-config="$_cgk_tmp/web.fifo"
	assertEquals "FIFO at start exit" 1 "$rc"
	assertEquals "FIFO at start: one line" "cgtop2: --web-config $_cgk_tmp/web.fifo: not a regular file" "$err"
	printf 'http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff\n' >"$f"
	serve --depth=0 --web-config="$f" || return 0
	rm -f "$f"
	mkfifo "$f"
	kill -HUP "$SERVE_PID"
	cgk_wait_for grep -q 'kept the previous configuration' "$SERVE_ERR" || fail "a FIFO at SIGHUP not refused: $(cat "$SERVE_ERR")"
	assertContains "said" "$(cat "$SERVE_ERR")" "cgtop2: --web-config $f: not a regular file"
	get "$URL/metrics"
	assertEquals "still served" 200 "$code"
	assertEquals "with the old headers" nosniff "$(header X-Content-Type-Options)"
	kill -TERM "$SERVE_PID"
	for i in $(seq 1 1200); do
		kill -0 "$SERVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$SERVE_PID" 2>/dev/null; then
		fail "hung: SIGTERM not obeyed in 2 min"
		return 0
	fi
	wait "$SERVE_PID"
	assertEquals "SIGTERM: exit 0" 0 $?
	rm -f "$f" "$_cgk_tmp/web.fifo"
}

# Issue 28, item 6: 100 TLS handshakes left half done from 20 addresses starve no scrape with a
# client certificate.
test_tls_half_handshakes() {
	need_tls || return 0
	tls_config right $'  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem' || return 0
	serve --depth=0 --web-config="$_cgk_tmp/web.yml" || return 0
	scrapes_answered "" alone --cacert "$_cgk_tmp/ca.pem" -u scraper:right --cert "$_cgk_tmp/client.pem" \
		--key "$_cgk_tmp/client.key"
	"$LORIS" -b 127.0.0.2 -a 20 -n 100 -m tls -R -r "$_cgk_tmp/tls.ready" -t 60 127.0.0.1 "$PORT" &
	_pids+=($!)
	cgk_wait_for test -s "$_cgk_tmp/tls.ready" || { fail "slowloris did not start"; return 0; }
	sleep 1
	scrapes_answered "100 half TLS handshakes from 20 addresses" beside --cacert "$_cgk_tmp/ca.pem" \
		-u scraper:right --cert "$_cgk_tmp/client.pem" --key "$_cgk_tmp/client.key"
}

# ---- a real Prometheus -------------------------------------------------------------------

# Sandboxes serving CPU here (never v1 memory); a busy helper in cgroup "busy" of each.
busy_sandbox() {
	local h m procs=()
	for h in unified cpu cpuacct; do
		m=$(cgk_mnt "$h")
		[ -n "$m" ] || continue
		[ "$h" = unified ] && ! grep -qw cpu "$m/cgroup.subtree_control" 2>/dev/null &&
			[ -n "$(cgk_mnt cpuacct)" ] && continue
		m=$(cgk_sandbox "$h") || { fail "cannot make the sandbox in $h"; return 1; }
		mkdir -p "$m/busy"
		# the machine is shared: far more than the default weight, for the sandbox and its child
		for c in "$m" "$m/busy"; do
			[ -f "$c/cpu.shares" ] && echo 65536 >"$c/cpu.shares"
			[ -f "$c/cpu.weight" ] && echo 5000 >"$c/cpu.weight"
		done
		case " ${procs[*]} " in *" $m/busy/cgroup.procs "*) ;; *) procs+=("$m/busy/cgroup.procs") ;; esac
	done
	[ ${#procs[@]} -gt 0 ] || { cgk_skip "no hierarchy serves CPU ($(cgk_layout))"; return 1; }
	"$BUSY" -r "$_cgk_tmp/busy.ready" "${procs[@]}" &
	_pids+=($!)
	cgk_wait_for test -e "$_cgk_tmp/busy.ready" || { fail "busy helper did not start"; return 1; }
}

# CPU time of the busy cgroup in ns as the kernel counts it (what cgtop2 reads first)
busy_cpu_ns() {
	local u c
	u=$(cgk_mnt unified)
	if [ -n "$u" ] && [ -f "$u/$S/busy/cpu.stat" ] && grep -q '^usage_usec ' "$u/$S/busy/cpu.stat"; then
		awk '$1 == "usage_usec" { print $2 * 1000 }' "$u/$S/busy/cpu.stat"
		return
	fi
	c=$(cgk_mnt cpuacct)
	cat "$c/$S/busy/cpuacct.usage"
}

# The value of instant query $1 on the Prometheus at $PROM, or nothing.
prom_query() {
	prom_get "$1"
	echo "$out" | sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}

# When the last sample of series $1 was scraped, in s since the epoch; 0: none yet.
prom_query_ts() {
	local t
	t=$(prom_query "timestamp($1)")
	echo "${t:-0}"
}

prom_get() {
	local q
	# the query URL-encoded (what curl's --data-urlencode does)
	q=$(printf '%s' "$1" | od -An -tx1 -v | tr -s ' \n' ' ' | sed 's/^ //; s/ $//; s/ /%/g; s/^./%&/')
	get --max-time 5 "http://$PROM/api/v1/query?query=$q" >/dev/null 2>&1
}

test_prometheus_scrapes() {
	local plain tls cfg i v v_plain v_tls q_plain q_tls up_wrong k0 k1 t0
	cgk_need_root || return 0
	cgk_need_prog prometheus || return 0
	# Prometheus speaks TLS itself: certificates, no curl
	need_certs || return 0
	busy_sandbox || return 0
	serve || return 0
	plain=$PORT
	tls_config right || return 0
	serve --web-config="$_cgk_tmp/web.yml" || return 0
	tls=$PORT
	cfg=$_cgk_tmp/prometheus.yml
	cat >"$cfg" <<-EOF
		global:
		  scrape_interval: 1s
		  scrape_timeout: 1s
		scrape_configs:
		  - job_name: plain
		    static_configs: [{ targets: ['127.0.0.1:$plain'] }]
		  - job_name: tls
		    scheme: https
		    tls_config: { ca_file: '$_cgk_tmp/ca.pem' }
		    basic_auth: { username: scraper, password: right }
		    static_configs: [{ targets: ['127.0.0.1:$tls'] }]
		  - job_name: wrong
		    scheme: https
		    tls_config: { ca_file: '$_cgk_tmp/ca.pem' }
		    basic_auth: { username: scraper, password: wrong }
		    static_configs: [{ targets: ['127.0.0.1:$tls'] }]
	EOF
	cgk_prometheus "$cfg" "$_cgk_tmp" || return 0
	# a rate over 5 s of 1 s scrapes: wait for its samples (Prometheus starts in a few seconds)
	q_plain="cgroup_cpu_usage_seconds_total{job=\"plain\",cgroup=\"/$S/busy\"}"
	q_tls="cgroup_cpu_usage_seconds_total{job=\"tls\",cgroup=\"/$S/busy\"}"
	for i in $(seq 1 60); do
		v_plain=$(prom_query "rate(${q_plain}[5s])")
		v_tls=$(prom_query "rate(${q_tls}[5s])")
		[ -n "$v_plain" ] && [ -n "$v_tls" ] && [ "$(prom_query "count_over_time(up{job=\"plain\"}[10s])")" -ge 7 ] 2>/dev/null && break
		sleep 0.5
	done
	# The counter as Prometheus stored it lies between two readings of the kernel's: one before
	# the exporter's sample (-d 1 s: a scrape more than 3 s after the first reading
	# serves a sample taken after it), one after the query. No rate against a wall-clock
	# window: on a loaded machine Prometheus's scrapes and the kernel's seconds drift apart.
	k0=$(busy_cpu_ns)
	t0=$(date +%s.%N) # clock: to tell a scrape after the reading (timestamp()), no bound
	for i in $(seq 1 120); do # hung: no scrape in 60 s
		awk -v a="$(prom_query_ts "$q_plain")" -v b="$(prom_query_ts "$q_tls")" -v t="$t0" \
			'BEGIN { exit !(a > t + 3 && b > t + 3) }' && break
		sleep 0.5
	done
	v_plain=$(prom_query "$q_plain")
	v_tls=$(prom_query "$q_tls")
	k1=$(busy_cpu_ns)
	for v in "$v_plain" "$v_tls"; do
		assertTrue "the scraped counter '$v' s is the kernel's, between $k0 and $k1 ns" \
			"awk -v v='$v' -v a=$k0 -v b=$k1 'BEGIN { exit !(v != \"\" && v * 1e9 >= a - 1 && v * 1e9 <= b + 1) }'"
	done
	# and rate() over them (15 s: a loaded machine skips scrapes): the busy cgroup burns CPU
	v_plain=$(prom_query "rate(${q_plain}[15s])")
	v_tls=$(prom_query "rate(${q_tls}[15s])")
	for v in "$v_plain" "$v_tls"; do
		assertTrue "rate() of the busy cgroup above 0: '$v'" "awk -v v='$v' 'BEGIN { exit !(v != \"\" && v > 0) }'"
	done
	echo "NOTE ${_shunit_test_:-}: counters between $k0 and $k1 ns; rate() plain $v_plain, TLS $v_tls"
	up_wrong=$(prom_query 'up{job="wrong"}')
	assertEquals "a wrong password: the target is down" 0 "$up_wrong"
	# OpenMetrics was negotiated: Prometheus files the type under the family's name
	assertEquals "the series arrived as a counter" "counter" \
		"$(get "http://$PROM/api/v1/metadata?metric=cgroup_cpu_usage_seconds"; echo "$out" | sed -n 's/.*"type":"\([a-z]*\)".*/\1/p')"
}

. "$SHUNIT2"
