# SPDX-License-Identifier: MIT
# One sample, every output (cgtop2(1), OUTPUT FORMATS): every sample of an OpenMetrics
# exposition of cgtop2 has its JSON key, with the same value, in the JSON of the same refresh.
# Usage: families.py JSON_LINES OPENMETRICS [FAMILY...]: compares the last frame of each, the
# rows of every cgroup; each FAMILY named must have been compared for some cgroup. Prints "ok
# N values, M families" or what differs.
import json
import re
import sys

jtext, omtext, need = open(sys.argv[1]).read(), open(sys.argv[2]).read(), set(sys.argv[3:])
frame = json.loads(jtext.strip().splitlines()[-1])
rows = {(c["path"], c.get("path_escaped") is True): c for c in frame["cgroups"]}
exps = [e for e in omtext.split("# EOF\n") if e.strip()]
label = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
dev_keys = {"read_bytes": "rbytes", "write_bytes": "wbytes", "read_ops": "rios",
            "write_ops": "wios", "discard_bytes": "dbytes", "discard_ops": "dios"}


def om_unquote(v):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), v)


def json_of(c, base, lab):
    """The JSON value for the family cgroup_<base> with labels lab in cgroup object c."""
    res = lab.get("resource")
    if base == "pressure_some_avg10_ratio":
        return c["pressure"][res], 100
    if base == "pressure_full_avg10_ratio":
        return c["pressure_averages"][res]["full"]["avg10"], 100
    if base in ("pressure_some_seconds", "pressure_full_seconds"):
        return c[base][res], 1
    if base.startswith("io_device_"):
        d = [d for d in c["io_devices"] if d["device"] == lab["device"]]
        if not d:
            raise KeyError(lab["device"])
        return d[0][dev_keys[base[len("io_device_"):]]], 1
    if base == "cpu_usage_percpu_seconds":
        return c[base][int(lab["cpu"])], 1
    return c[base], 1


bad, fams, n = [], set(), 0
for line in exps[-1].splitlines() if exps else []:
    if line.startswith("#") or not line.startswith("cgroup_"):
        continue
    m = re.match(r"^(\w+)\{(.*)\} (\S+)$", line)
    if not m:
        bad.append("no labels: %s" % line)
        continue
    name, lab, val = m.group(1), dict((k, om_unquote(v)) for k, v in label.findall(m.group(2))), m.group(3)
    fam = name[:-len("_total")] if name.endswith("_total") else name
    c = rows.get((lab.get("cgroup"), lab.get("escaped") == "true"))
    if c is None:
        bad.append("%s: no JSON row %r" % (line, lab.get("cgroup")))
        continue
    try:
        j, scale = json_of(c, fam[len("cgroup_"):], lab)
    except KeyError as e:
        bad.append("%s: no JSON key (%s)" % (line, e))
        continue
    if val == "+Inf":
        ok = j == "max"
    elif j is None or isinstance(j, str):
        ok = False
    else:
        ok = abs(float(val) - float(j) / scale) <= (1e-6 if scale != 1 else 1e-9)
    if not ok:
        bad.append("%s: JSON has %r" % (line, j))
    fams.add(fam)
    n += 1
missing = sorted(need - fams)
if missing:
    bad.append("families never compared: %s" % missing)
if not n:
    bad.append("no sample compared")
print("; ".join(bad[:10]) if bad else "ok %d values, %d families" % (n, len(fams)))
