#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The monitoring mixin (contrib/mixin): promtool check rules and promtool test rules on both
# rule files; every metric name in every query of the dashboards and the rules is one a real
# scrape of cgtop2 has (cgkit's names and --compat=cadvisor's); a real Prometheus scraping
# cgtop2 --listen loads each rule file, evaluates every rule without error and answers every
# dashboard query; in the unified VM, an OOM kill fires CgroupOOMKilled.
. "$(dirname "$0")/lib.sh"

T=$CGKIT_BIN/cgtop2
S=$SANDBOX_NAME
MIXIN=$(cd "$(dirname "$0")/../contrib/mixin" && pwd)
_pids=()
. "$(dirname "$0")/helpers/netns.sh"

teardown_test() {
	cgk_netns_teardown
}

# Command $1 installed, else cgk_need_prog's skip (a failure in the guests and CI) saying why ($2).
need() {
	cgk_need_prog "$1" "$2"
}

# promtool check rules on both rule files, then promtool test rules on their unit tests.
test_rules_check_and_unit_tests() {
	local f res
	need promtool "checks and tests the rules (Debian: prometheus)" || return 0
	for f in "check rules rules.yml" "check rules rules-cadvisor.yml" \
		"test rules rules_test.yml" "test rules rules-cadvisor_test.yml"; do
		# shellcheck disable=SC2086 # the words of the promtool command
		res=$(cd "$MIXIN" && promtool $f 2>&1)
		assertEquals "promtool $f: $res" 0 $?
		assertContains "promtool $f" "$res" "SUCCESS"
	done
}

# Sandboxes where the families of every collector have a cgroup: the CPU controller's
# hierarchy (throttling), pids (pids.max); the root has memory, IO and PSI.
scrape_tree() {
	local h
	cgk_need_root || return 1
	for h in unified cpu cpuacct pids; do
		[ -n "$(cgk_mnt "$h")" ] && { cgk_sandbox "$h" >/dev/null || return 1; }
	done
	return 0
}

# The metric names queries $2.. use (JSON dashboards, rule YAML) that scrape $1 lacks, one a
# line; names the rule files record, and Prometheus's own (up, scrape_duration_seconds), count.
missing_names() {
	python3 - "$@" <<'PY'
import json, re, sys

scrape = open(sys.argv[1]).read()
have = {l.split("{")[0].split(" ")[0] for l in scrape.splitlines() if l and not l.startswith("#")}
have |= {"up", "scrape_duration_seconds"}
exprs = []
for f in sys.argv[2:]:
    text = open(f).read()
    if f.endswith(".json"):
        def walk(o):
            if isinstance(o, dict):
                for k, v in o.items():
                    if k in ("expr", "definition") and isinstance(v, str):
                        exprs.append(v)
                    else:
                        walk(v)
            elif isinstance(o, list):
                for v in o:
                    walk(v)
        walk(json.loads(text))
    else:
        have |= set(re.findall(r"^\s*- record:\s*(\S+)", text, re.M))
        exprs += re.findall(r"^\s*expr:\s*(?!\|)(.+)$", text, re.M)
        exprs += [m.replace("\n", " ") for m in re.findall(r"expr: \|\n((?:\s{10,}.+\n)+)", text)]
keywords = {"by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool",
            "and", "or", "unless", "Inf", "inf", "NaN", "nan"}
bad = set()
for e in exprs:
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', e)            # strings
    e = re.sub(r"\[[^\]]*\]", "", e)                      # ranges
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", e)
    e = re.sub(r"\{[^}]*\}", "", e)                       # matchers
    e = re.sub(r"\blabel_values\(([^,]*),[^)]*\)", r"\1", e)
    e = re.sub(r"\$\w+", "", e)
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*(?:\s*\()?", e):
        tok = m.group(0)
        if tok.endswith("(") or tok.rstrip() in keywords:
            continue
        if tok not in have:
            bad.add(tok)
if not exprs:
    bad.add("(no query found)")
print("\n".join(sorted(bad)))
PY
}

test_dashboard_and_rule_names_exist() {
	local res
	need python3 "reads the dashboards and the API's JSON" || return 0
	scrape_tree || return 0
	cgk_capture "$T" -F prometheus -1 --collectors=all --depth=1
	assertEquals "scrape exit" 0 "$rc"
	echo "$out" >"$_cgk_tmp/native.prom"
	res=$(missing_names "$_cgk_tmp/native.prom" "$MIXIN/dashboard.json" "$MIXIN/dashboard-k8s.json" \
		"$MIXIN/rules.yml")
	assertEquals "metrics the dashboard and rules name that cgtop2 does not export" "" "$res"
	cgk_capture "$T" -F prometheus --compat=cadvisor -1 --collectors=all --depth=1
	assertEquals "compat scrape exit" 0 "$rc"
	echo "$out" >"$_cgk_tmp/cadvisor.prom"
	res=$(missing_names "$_cgk_tmp/cadvisor.prom" "$MIXIN/dashboard-cadvisor.json" \
		"$MIXIN/dashboard-k8s-cadvisor.json" "$MIXIN/rules-cadvisor.yml")
	assertEquals "--compat=cadvisor: metrics named that cgtop2 does not export" "" "$res"
	# the check itself: a name cgtop2 does not export is found
	echo '{"panels":[{"targets":[{"expr":"rate(cgroup_no_such_total{job=\"x\"}[5m])"}]}]}' >"$_cgk_tmp/bad.json"
	assertEquals "the check finds a wrong name" "cgroup_no_such_total" \
		"$(missing_names "$_cgk_tmp/native.prom" "$_cgk_tmp/bad.json")"
}

# A Prometheus scraping 127.0.0.1:$1 every second as job cgtop2, with rule file $2 evaluated
# every second; sets PROM (host:port) and PROM_PID.
prometheus_start() {
	local cfg=$_cgk_tmp/prom.$RANDOM
	mkdir -p "$cfg"
	cp "$MIXIN/$2" "$cfg/"
	cat >"$cfg/prometheus.yml" <<-EOF
		global:
		  scrape_interval: 1s
		  scrape_timeout: 1s
		  evaluation_interval: 1s
		rule_files: ['$cfg/$2']
		scrape_configs:
		  - job_name: cgtop2
		    static_configs: [{ targets: ['127.0.0.1:$1'] }]
	EOF
	cgk_prometheus "$cfg/prometheus.yml" "$cfg"
}

# Prometheus's answer to API path $1 (GET), into stdout.
prom_api() {
	curl -s --max-time 5 "http://$PROM/api/v1/$1"
}

# Wait until every rule of the loaded file has been evaluated twice (its health known); then
# print each rule that is not "ok", with its error. Nothing: all are.
rules_health() {
	local i js
	for i in $(seq 1 120); do
		js=$(prom_api rules)
		echo "$js" | python3 -c '
import json, sys
g = json.load(sys.stdin)["data"]["groups"]
rules = [r for x in g for r in x["rules"]]
sys.exit(0 if rules and all(r.get("health") in ("ok", "err") and r.get("lastEvaluation", "").find("0001-") != 0 for r in rules) else 1)' 2>/dev/null && break
		sleep 0.5
	done
	sleep 2
	prom_api rules | python3 -c '
import json, sys
g = json.load(sys.stdin)["data"]["groups"]
n = 0
for x in g:
    for r in x["rules"]:
        n += 1
        if r.get("health") != "ok":
            print(r.get("name"), r.get("health"), r.get("lastError"))
if n == 0:
    print("no rule loaded")'
}

# Each dashboard query of $1, its variables set, answered by Prometheus without an error; a
# panel by unit with $unit All shows units only (issue 43: unit=~".*" matched the cgroups of no
# unit, the machine's root the biggest line with an empty legend).
dashboard_queries_fail() {
	python3 - "$1" "$PROM" <<'PY'
import json, sys, urllib.parse, urllib.request
d = json.load(open(sys.argv[1]))
subst = {"$__rate_interval": "1m", "$job": "cgtop2", "$instance": ".*", "$unit": ".*",
         "$container_id": ".*", "$pod_uid": ".*", "$namespace": ".*", "$pod": ".*"}
n = 0
for p in d["panels"]:
    for t in p.get("targets", []):
        q = t["expr"]
        for k, v in subst.items():
            q = q.replace(k, v)
        url = "http://%s/api/v1/query?query=%s" % (sys.argv[2], urllib.parse.quote(q))
        try:
            r = json.load(urllib.request.urlopen(url, timeout=5))
        except Exception as e:
            r = {"status": "error", "error": str(e)}
        n += 1
        if r.get("status") != "success":
            print(p["title"], q, r.get("error"))
        elif "by (instance, unit)" in q:
            for s in r.get("data", {}).get("result", []):
                if not s["metric"].get("unit"):
                    print(p["title"], "a series of no unit:", s["metric"])
if n == 0:
    print("no query")
PY
}

prometheus_evaluates() {
	local rules=$1 dashboard=$2 res d
	shift 2
	cgk_listen "$@" || return 0
	prometheus_start "$PORT" "$rules" || return 0
	res=$(rules_health)
	assertEquals "rules of $rules that Prometheus could not evaluate" "" "$res"
	for d in $dashboard; do
		res=$(dashboard_queries_fail "$MIXIN/$d")
		assertEquals "queries of $d that Prometheus refused, or by unit with a cgroup of none" "" "$res"
	done
	# the rules may be evaluated before the first scrape: up comes with that scrape
	target_up() {
		[ "$(prom_api 'query?query=up%7Bjob%3D%22cgtop2%22%7D' | sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p')" = 1 ]
	}
	CGK_WAIT_TICKS=300 cgk_wait_for target_up
	assertEquals "the target is up" 1 \
		"$(prom_api 'query?query=up%7Bjob%3D%22cgtop2%22%7D' | sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p')"
	kill "$PROM_PID" 2>/dev/null
	wait "$PROM_PID" 2>/dev/null
}

test_prometheus_evaluates_rules() {
	cgk_need_root || return 0
	need python3 "reads the dashboards and the API's JSON" || return 0
	need prometheus "evaluates the rules" || return 0
	need curl "asks Prometheus's API" || return 0
	scrape_tree || return 0
	prometheus_evaluates rules.yml "dashboard.json dashboard-k8s.json" --collectors=all --depth=1
	prometheus_evaluates rules-cadvisor.yml "dashboard-cadvisor.json dashboard-k8s-cadvisor.json" \
		--compat=cadvisor --collectors=all --depth=1
}

# The Kubernetes dashboards on a node's containers (issue 43): kubelet-style cgroups in the
# sandbox, the runtimes' files of tests/fixtures/runtime, a real Prometheus; each dashboard's
# "CPU by pod" and "CPU by container" answer with the pods and containers the files name.
k8s_panels() {
	python3 - "$1" "$PROM" <<'PY'
import json, sys, urllib.parse, urllib.request
d = json.load(open(sys.argv[1]))
subst = {"$__rate_interval": "1m", "$job": "cgtop2", "$instance": ".*", "$namespace": ".*",
         "$pod": ".*"}
out = []
for p in d["panels"]:
    if p["title"] not in ("CPU by pod", "CPU by container"):
        continue
    q = p["targets"][0]["expr"]
    for k, v in subst.items():
        q = q.replace(k, v)
    url = "http://%s/api/v1/query?query=%s" % (sys.argv[2], urllib.parse.quote(q))
    r = json.load(urllib.request.urlopen(url, timeout=5))["data"]["result"]
    out.append(p["title"] + ": " + " ".join(sorted(
        "/".join(s["metric"].get(k, "-") for k in ("namespace", "pod", "container")
                 if k in s["metric"]) for s in r)))
print("; ".join(out))
PY
}

# A node's containers as the kubelet's systemd driver lays them out in the sandbox (a
# containerd container with a sub-cgroup, a CRI-O one), named by tests/fixtures/runtime, and
# what the tests against a real Prometheus need; 1 (after saying why) when not.
k8s_node() {
	local U pod=kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice
	cgk_need_root || return 1
	cgk_need_unified || return 1
	need python3 "reads the dashboards and the API's JSON" || return 1
	need prometheus "answers the queries" || return 1
	need curl "asks Prometheus's API" || return 1
	U=$(cgk_sandbox unified) || { fail "no sandbox"; return 1; }
	mkdir -p "$U/$pod/cri-containerd-$(printf 'a1%.0s' {1..32}).scope/sub" \
		"$U/$pod/crio-$(printf 'b2%.0s' {1..32}).scope" || { fail "cannot make cgroups"; return 1; }
}

test_k8s_dashboards_name_pods() {
	local d res want
	k8s_node || return 0
	want="CPU by pod: shop/cache-0 shop/web-7d9c6b5f4-x2x8q; CPU by container: shop/cache-0/cache shop/web-7d9c6b5f4-x2x8q/web"
	for d in "" --compat=cadvisor; do
		cgk_listen $d --runtime-root="$FIXTURES/runtime" "/$SANDBOX_NAME" || return 0
		prometheus_start "$PORT" rules.yml || return 0
		# the rates need two scrapes of each series
		k8s_ready() { [ "$(k8s_panels "$MIXIN/dashboard-k8s${d:+-cadvisor}.json" 2>/dev/null)" = "$want" ]; }
		CGK_WAIT_TICKS=600 cgk_wait_for k8s_ready
		res=$(k8s_panels "$MIXIN/dashboard-k8s${d:+-cadvisor}.json" 2>&1)
		assertEquals "dashboard-k8s${d:+-cadvisor}.json's pods and containers" "$want" "$res"
		kill "$PROM_PID" 2>/dev/null
		wait "$PROM_PID" 2>/dev/null
		cgk_kill_pids
		_pids=()
	done
}

# The kubernetes-mixin's recording rule for CPU by container (rules/apps.libsonnet, k8s.rules,
# with its default job="cadvisor": the scrape job of cgtop2 is named so here, the rule is
# evaluated as it is written) against cgtop2 --listen --compat=cadvisor on kubelet-style
# cgroups with the fixture runtime files, kube_pod_info from a kube-state-metrics stand-in (a
# static file served over HTTP): the pods' containers, each once, with the node joined; not the
# pod's slice, the pause sandbox nor a container's sub-cgroup.
K8S_CPU_RULE='sum by (cluster, namespace, pod, container) (
  irate(container_cpu_usage_seconds_total{job="cadvisor", image!=""}[5m])
) * on (cluster, namespace, pod) group_left(node) topk by (cluster, namespace, pod) (
  1, max by(cluster, namespace, pod, node) (kube_pod_info{node!=""})
)'

# A kube-state-metrics stand-in (kube_pod_info of the two fixture pods on node-1, a static
# file over python3's http.server) and a Prometheus scraping it and cgtop2 --listen
# --compat=cadvisor $2.. on the sandbox as job cadvisor, evaluating rule file $1 ("": none)
# every 2 s (a loaded machine took a scrape past 1 s); PROM and PROM_PID set, as cgk_prometheus.
k8s_prometheus() {
	local cfg=$_cgk_tmp/k8sprom.$RANDOM rules=$1 ksm kport i
	shift
	ksm=$cfg/ksm
	mkdir -p "$ksm"
	printf '%s\n' '# TYPE kube_pod_info gauge' \
		'kube_pod_info{namespace="shop",pod="web-7d9c6b5f4-x2x8q",uid="1234abcd-5678-90ef-abcd-1234567890ab",node="node-1"} 1' \
		'kube_pod_info{namespace="shop",pod="cache-0",uid="1234abcd-5678-90ef-abcd-1234567890ab",node="node-1"} 1' >"$ksm/metrics"
	# -u: the port line unbuffered; python3 took over 10 s to start in the unified guest (TCG,
	# 9p), so the wait is the hang guard's two minutes
	python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$ksm" >"$ksm/log" 2>&1 &
	_pids+=($!)
	for i in $(seq 1 1200); do
		kport=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$ksm/log" | head -n 1)
		[ -n "$kport" ] && break
		sleep 0.1
	done
	[ -n "$kport" ] || { fail "the kube-state-metrics stand-in did not start"; return 1; }
	cgk_listen --compat=cadvisor --runtime-root="$FIXTURES/runtime" "$@" "/$SANDBOX_NAME" || return 1
	[ -z "$rules" ] || printf '%s\n' "$rules" >"$cfg/rules.yml"
	cat >"$cfg/prometheus.yml" <<-EOF
		global:
		  scrape_interval: 2s
		  scrape_timeout: 2s
		  evaluation_interval: 2s
		rule_files: [${rules:+'$cfg/rules.yml'}]
		scrape_configs:
		  - job_name: cadvisor
		    static_configs: [{ targets: ['127.0.0.1:$PORT'] }]
		  - job_name: kube-state-metrics
		    static_configs: [{ targets: ['127.0.0.1:$kport'] }]
	EOF
	cgk_prometheus "$cfg/prometheus.yml" "$cfg"
}

# Query $1's series, each as the values of labels $2.. joined by "/" ("-" for a label it lacks)
# and "@" the node where it has one, sorted, space-separated; with K8S_POSITIVE set, only those
# whose value is above 0.
k8s_answer() {
	local q=$1
	shift
	curl -s --max-time 5 "http://$PROM/api/v1/query" --data-urlencode "query=$q" |
		python3 -c '
import json, os, sys
r = json.load(sys.stdin)["data"]["result"]
keys = sys.argv[1:]
out = []
for s in r:
    if os.environ.get("K8S_POSITIVE") and not float(s["value"][1]) > 0:
        continue
    m = s["metric"]
    out.append("/".join(m.get(k, "-") for k in keys) + ("@" + m["node"] if "node" in m else ""))
print(" ".join(sorted(out)))' "$@" 2>/dev/null
}

test_kubernetes_mixin_cpu_rule_as_written() {
	local want
	k8s_node || return 0
	k8s_prometheus "" || return 0
	want="shop/cache-0/cache@node-1 shop/web-7d9c6b5f4-x2x8q/web@node-1"
	rule_ready() { [ "$(k8s_answer "$K8S_CPU_RULE" namespace pod container)" = "$want" ]; }
	# irate needs two scrapes of each series
	CGK_WAIT_TICKS=600 cgk_wait_for rule_ready
	assertEquals "the rule's series: namespace/pod/container@node" "$want" \
		"$(k8s_answer "$K8S_CPU_RULE" namespace pod container)"
}

# The kubernetes-mixin's compute-resources recording rules and dashboard queries as they are
# written in kubernetes-monitoring/kubernetes-mixin version-1.5.6 (464d0ae): rules/apps.libsonnet
# (k8s.rules.container_cpu_usage_seconds_total, _memory_working_set_bytes, _memory_rss,
# _memory_cache) and dashboards/resources/queries/pod.libsonnet and namespace.libsonnet
# (cpuUsageByContainer, cpuThrottling, memory by container, network by pod), with the mixin's
# defaults put in (clusterLabel cluster, cadvisorSelector job="cadvisor", networkMultiplier 8)
# and Grafana's variables as a single-cluster Grafana sets them ($cluster empty).
K8S_RULES='groups:
  - name: k8s.rules.container_cpu_usage_seconds_total
    rules:
      - record: node_namespace_pod_container:container_cpu_usage_seconds_total:sum_rate5m
        expr: |
          sum by (cluster, namespace, pod, container) (
            rate(container_cpu_usage_seconds_total{job="cadvisor", image!=""}[5m])
          ) * on (cluster, namespace, pod) group_left(node) topk by (cluster, namespace, pod) (
            1, max by(cluster, namespace, pod, node) (kube_pod_info{node!=""})
          )
  - name: k8s.rules.container_memory_working_set_bytes
    rules:
      - record: node_namespace_pod_container:container_memory_working_set_bytes
        expr: |
          container_memory_working_set_bytes{job="cadvisor", image!=""}
          * on (cluster, namespace, pod) group_left(node) topk by(cluster, namespace, pod) (1,
            max by(cluster, namespace, pod, node) (kube_pod_info{node!=""})
          )
  - name: k8s.rules.container_memory_rss
    rules:
      - record: node_namespace_pod_container:container_memory_rss
        expr: |
          container_memory_rss{job="cadvisor", image!=""}
          * on (cluster, namespace, pod) group_left(node) topk by(cluster, namespace, pod) (1,
            max by(cluster, namespace, pod, node) (kube_pod_info{node!=""})
          )
  - name: k8s.rules.container_memory_cache
    rules:
      - record: node_namespace_pod_container:container_memory_cache
        expr: |
          container_memory_cache{job="cadvisor", image!=""}
          * on (cluster, namespace, pod) group_left(node) topk by(cluster, namespace, pod) (1,
            max by(cluster, namespace, pod, node) (kube_pod_info{node!=""})
          )'
K8S_POD_CPU='sum(max by (cluster, namespace, pod, container)(node_namespace_pod_container:container_cpu_usage_seconds_total:sum_rate5m{namespace="$namespace", pod="$pod", cluster="$cluster", container!=""})) by (container)'
K8S_NS_CPU='sum(max by (cluster, namespace, pod, container)(node_namespace_pod_container:container_cpu_usage_seconds_total:sum_rate5m{cluster="$cluster", namespace="$namespace"})) by (pod)'
K8S_POD_NET_RX='sum((8 * irate(container_network_receive_bytes_total{job="cadvisor", cluster="$cluster", namespace="$namespace", pod=~"$pod"}[$__rate_interval]))) by (pod)'
K8S_POD_NET_TX='sum((8 * rate(container_network_transmit_bytes_total{job="cadvisor", cluster="$cluster", namespace="$namespace", pod=~"$pod"}[$__rate_interval]))) by (pod)'
K8S_NS_NET_RX='sum((8 * rate(container_network_receive_bytes_total{job="cadvisor", cluster="$cluster", namespace="$namespace"}[$__rate_interval]))) by (pod)'
K8S_POD_THROTTLING='sum(increase(container_cpu_cfs_throttled_periods_total{job="cadvisor", namespace="$namespace", pod="$pod", container!="", cluster="$cluster"}[$__rate_interval])) by (container) /sum(increase(container_cpu_cfs_periods_total{job="cadvisor", namespace="$namespace", pod="$pod", container!="", cluster="$cluster"}[$__rate_interval])) by (container)'
K8S_POD_WSS='sum(max by (cluster, namespace, pod, container)(container_memory_working_set_bytes{job="cadvisor", cluster="$cluster", namespace="$namespace", pod="$pod", container!="", image!=""})) by (container)'
K8S_POD_RSS='sum(max by (cluster, namespace, pod, container)(container_memory_rss{job="cadvisor", cluster="$cluster", namespace="$namespace", pod="$pod", container != "", container != "POD"})) by (container)'
K8S_POD_CACHE='sum(max by (cluster, namespace, pod, container)(container_memory_cache{job="cadvisor", cluster="$cluster", namespace="$namespace", pod="$pod", container != "", container != "POD"})) by (container)'
K8S_NS_WSS='sum(max by (cluster, namespace, pod, container)(container_memory_working_set_bytes{job="cadvisor", cluster="$cluster", namespace="$namespace", container!="", image!=""})) by (pod)'

# A dashboard query with Grafana's variables set: the web pod of namespace shop.
k8s_grafana() {
	local q=$1
	q=${q//\$__rate_interval/1m}
	q=${q//\$cluster/}
	q=${q//\$namespace/shop}
	printf '%s' "${q//\$pod/web-7d9c6b5f4-x2x8q}"
}

# Wait (bounded: "hung" past it) until query $1 answers $2 over labels $3..; then assert it.
k8s_expect() {
	local q=$1 want=$2 labels
	shift 2
	labels=("$@")
	# the answer the wait saw, not a new one: a rate over counters that a slow guest's traffic
	# moves now and then answers 0 between two of its steps
	k8s_ready() {
		_k8s_got=$(k8s_answer "$q" "${labels[@]}")
		[ "$_k8s_got" = "$want" ]
	}
	CGK_WAIT_TICKS=600 cgk_wait_for k8s_ready
	assertEquals "$q" "$want" "$_k8s_got"
	[ "$_k8s_got" = "$want" ] && return 0
	# what the exporter had of the query's first family, for the report
	local fam
	fam=$(grep -oE '(container|cgroup|node)_[a-z_]+' <<<"$q" | head -n 1)
	echo "# $fam as cgtop2 exposes it:" >&2
	curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics" | grep "^$fam" | head -n 8 >&2
}

# The stock compute-resources queries on the fixture node: the web container has its own network
# namespace (a veth pair, traffic all along) and a CPU limit it runs into, both containers have
# processes; each query answers with the pods and containers the runtime files name, each once.
# CPU and network everywhere; memory and throttling need cgroup2's memory and cpu controllers,
# which this host's unified hierarchy lacks: by hand, tests/vm/run unified -- tests/run cgtop2_mixin
test_kubernetes_mixin_compute_resources_as_written() {
	local U web cache v2=1 pod=kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234abcd_5678_90ef_abcd_1234567890ab.slice d
	k8s_node || return 0
	cgk_need_netns || return 0
	U=$(cgk_sandbox unified)
	web=$U/$pod/cri-containerd-$(printf 'a1%.0s' {1..32}).scope
	cache=$U/$pod/crio-$(printf 'b2%.0s' {1..32}).scope
	grep -qw memory "$(cgk_mnt unified)/cgroup.subtree_control" &&
		grep -qw cpu "$(cgk_mnt unified)/cgroup.subtree_control" || v2=
	if [ -n "$v2" ]; then
		for d in "$U" "$U/kubepods.slice" "$U/kubepods.slice/kubepods-burstable.slice" "$U/$pod"; do
			echo "+cpu +memory" >"$d/cgroup.subtree_control" || fail "cannot enable cpu, memory in $d"
		done
		echo "1000 100000" >"$web/cpu.max"
	fi
	cgk_netns_start "$web" "unshare -n"
	local ns=$NSPID
	cgk_netns_veth "$ns" || { fail "cannot make the namespace and its veth pair"; return 0; }
	# in the namespace too: the cgroup's first member stands for it; busy only under its limit
	nsenter -t "$ns" -n sh -c 'echo $$ >"$1/cgroup.procs"; dd if=/dev/zero of="$2" bs=1M count=8 2>/dev/null; [ -n "$3" ] && exec sh -c "while :; do :; done"; exec sleep 3600' \
		_ "$web" "$_cgk_tmp/cache.file" "$v2" &
	_pids+=($!)
	cgk_netns_start "$cache"
	( while :; do cgk_netns_traffic "$ns" 1; sleep 0.2; done ) &
	_pids+=($!)
	k8s_prometheus "$K8S_RULES" --collectors=cpu,memory || return 0
	k8s_expect "$(k8s_grafana "$K8S_POD_CPU")" "web" container
	k8s_expect "$(k8s_grafana "$K8S_NS_CPU")" "cache-0 web-7d9c6b5f4-x2x8q" pod
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_POD_NET_RX")" "web-7d9c6b5f4-x2x8q" pod
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_POD_NET_TX")" "web-7d9c6b5f4-x2x8q" pod
	# the namespace's pods with a network namespace of their own: cache's is the host's
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_NS_NET_RX")" "web-7d9c6b5f4-x2x8q" pod
	[ -n "$v2" ] || { cgk_skip "memory and throttling need cgroup2's memory and cpu controllers (tests/vm/run unified)"; return 0; }
	for d in working_set_bytes rss cache; do
		K8S_POSITIVE=1 k8s_expect "node_namespace_pod_container:container_memory_$d" \
			"shop/cache-0/cache@node-1 shop/web-7d9c6b5f4-x2x8q/web@node-1" namespace pod container
	done
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_POD_WSS")" "web" container
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_POD_RSS")" "web" container
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_POD_CACHE")" "web" container
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_NS_WSS")" "cache-0 web-7d9c6b5f4-x2x8q" pod
	K8S_POSITIVE=1 k8s_expect "$(k8s_grafana "$K8S_POD_THROTTLING")" "web" container
}

# The shipped services start with no file of their own: plain HTTP on the loopback. Their
# command lines, run as they are (port 0 for a free one), and systemd-analyze's verdict.
test_services_start_without_tls() {
	local line args unit=$_cgk_tmp/cgtop2.service
	cgk_need_root || return 0
	need curl "asks the service for /metrics" || return 0
	line=$(sed -n 's|^ExecStart=/usr/local/bin/cgtop2 ||p' "$MIXIN/../cgtop2.service")
	assertEquals "the unit's arguments" '--listen=127.0.0.1:10306 $CGTOP2_ARGS' "$line"
	args=$(sed -n 's|^command_args="\(.*\) ${CGTOP2_ARGS}"$|\1|p' "$MIXIN/../cgtop2.openrc")
	assertEquals "the OpenRC service's" "--listen=127.0.0.1:10306" "$args"
	# CGTOP2_ARGS unset: the default line serves plain HTTP on 127.0.0.1
	cgk_listen "${args%:10306}:0" --depth=0 || return 0
	assertEquals "plain HTTP on the loopback" 200 \
		"$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics")"
	if command -v systemd-analyze >/dev/null; then
		sed "s|/usr/local/bin/cgtop2|$T|; /^Documentation=/d" "$MIXIN/../cgtop2.service" >"$unit"
		assertEquals "systemd-analyze verify" "" "$(systemd-analyze verify "$unit" 2>&1)"
	fi
}

# The unified VM, where memory can be limited: a process that outgrows memory.max is killed,
# and Prometheus, scraping cgtop2 and evaluating rules.yml, fires CgroupOOMKilled for its cgroup.
# The alerts are read with grep. By hand:
# CGKIT_VM_MEM=1024 tests/vm/run unified -- tests/run cgtop2_mixin
test_oom_alert_fires() {
	local u i alert=
	cgk_need_vm "an OOM kill needs the memory controller of cgroup2 (tests/vm/run unified)" || return 0
	cgk_need_v2 memory || return 0
	need prometheus "evaluates the rules" || return 0
	need curl "asks Prometheus's API" || return 0
	u=$(cgk_sandbox unified) || { fail "no sandbox"; return 0; }
	echo +memory >"$u/cgroup.subtree_control"
	mkdir "$u/hog"
	echo $((16 << 20)) >"$u/hog/memory.max"
	echo 0 >"$u/hog/memory.swap.max" 2>/dev/null
	cgk_listen --collectors=memory "/$S" || return 0
	prometheus_start "$PORT" rules.yml || return 0
	# the counter's 0 must be scraped before the kill for increase() to see it rise
	for i in $(seq 1 120); do
		prom_api 'query?query=cgroup_memory_oom_kill_events_total' | grep -q "/$S/hog" && break
		sleep 1
	done
	# a shell in the cgroup that grows a string until the OOM killer ends it
	sh -c 'echo $$ > "$1/cgroup.procs"; x=0123456789; while :; do x="$x$x"; done' _ "$u/hog" 2>/dev/null &
	wait $! 2>/dev/null
	assertTrue "the hog was OOM-killed" "grep -q '^oom_kill [1-9]' '$u/hog/memory.events'"
	for i in $(seq 1 120); do
		alert=$(prom_api alerts | tr '{}' '\n\n' | grep '"alertname":"CgroupOOMKilled"' | grep -o "\"cgroup\":\"[^\"]*\"")
		case $alert in *"/$S/hog"*) break ;; esac
		sleep 1
	done
	assertContains "CgroupOOMKilled fires for the hog's cgroup" "$alert" "/$S/hog"
	assertContains "and it fires" "$(prom_api alerts)" '"state":"firing"'
}

. "$SHUNIT2"
