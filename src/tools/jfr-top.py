#!/usr/bin/env python3
"""Aggregates a JFR recording's CPU samples (jdk.ExecutionSample) and allocation samples
(jdk.ObjectAllocationSample) by thread, top frame, first non-JDK frame and io.tablesql frame,
leaving out what was sampled before the benchmark's load finished (see BENCHMARKS.md).

usage: python3 src/tools/jfr-top.py file.jfr [thread-name-part]"""
import json, subprocess, sys, collections
f = sys.argv[1]
tfilter = sys.argv[2] if len(sys.argv) > 2 else None
def events(kind):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "24", "--events", kind, f],
                         capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]
def name(fr):
    m = fr["method"]
    return (m["type"]["name"] + "." + m["name"]).replace("/", ".")
def thread(e, key):
    t = e["values"].get(key) or {}
    return (t.get("javaName") or t.get("osName") or "?")
def norm(t):
    import re
    return re.sub(r"\d+", "N", t)
ex = events("jdk.ExecutionSample")
def frames_of(e): return (e["values"].get("stackTrace") or {}).get("frames") or []
loads = [e["values"]["startTime"] for e in ex if any(name(fr).startswith("io.tablesql.bench.Benchmark.load") for fr in frames_of(e))]
after = max(loads) if loads else ""
ex = [e for e in ex if e["values"]["startTime"] > after]
print("measured after", after)
if tfilter: ex = [e for e in ex if tfilter in thread(e, "sampledThread")]
n = len(ex)
selfc = collections.Counter(); incl = collections.Counter(); thr = collections.Counter(); pkg = collections.Counter()
for e in ex:
    frames = (e["values"].get("stackTrace") or {}).get("frames") or []
    thr[norm(thread(e, "sampledThread"))] += 1
    if frames:
        selfc[name(frames[0])] += 1
        top_own = next((name(fr) for fr in frames if name(fr).startswith("io.tablesql")), None)
        seen = set()
        for fr in frames:
            nm = name(fr)
            if nm not in seen:
                seen.add(nm); incl[nm] += 1
        # first frame outside java./jdk./sun.
        lib = next((name(fr) for fr in frames if not name(fr).startswith(("java.", "jdk.", "sun."))), "(jdk only)")
        pkg[".".join(lib.split(".")[:3])] += 1
print(f"== {f}: {n} CPU samples")
print("-- by thread"); [print(f"{c:6d} {100*c/n:5.1f}%  {k}") for k, c in thr.most_common(12)]
print("-- self (top frame)"); [print(f"{c:6d} {100*c/n:5.1f}%  {k}") for k, c in selfc.most_common(25)]
print("-- first non-JDK frame, by package"); [print(f"{c:6d} {100*c/n:5.1f}%  {k}") for k, c in pkg.most_common(15)]
print("-- inclusive, io.tablesql frames")
for k, c in [x for x in incl.most_common() if x[0].startswith("io.tablesql")][:30]:
    print(f"{c:6d} {100*c/n:5.1f}%  {k}")
al = events("jdk.ObjectAllocationSample")
al = [e for e in al if e["values"]["startTime"] > after]
if tfilter: al = [e for e in al if tfilter in thread(e, "eventThread")]
tot = sum(e["values"]["weight"] for e in al) or 1
bycls = collections.Counter(); bysite = collections.Counter(); byown = collections.Counter()
for e in al:
    w = e["values"]["weight"]
    bycls[e["values"]["objectClass"]["name"]] += w
    frames = (e["values"].get("stackTrace") or {}).get("frames") or []
    site = next((name(fr) for fr in frames if not name(fr).startswith(("java.", "jdk.", "sun."))), "(jdk only)")
    bysite[site] += w
    own = next((name(fr) for fr in frames if name(fr).startswith("io.tablesql")), None)
    if own: byown[own] += w
print(f"-- allocation (sampled weight) total {tot/1e6:.0f} MB")
print("-- by class"); [print(f"{w/1e6:9.1f} MB {100*w/tot:5.1f}%  {k}") for k, w in bycls.most_common(15)]
print("-- by first non-JDK frame"); [print(f"{w/1e6:9.1f} MB {100*w/tot:5.1f}%  {k}") for k, w in bysite.most_common(20)]
print("-- by innermost io.tablesql frame"); [print(f"{w/1e6:9.1f} MB {100*w/tot:5.1f}%  {k}") for k, w in byown.most_common(15)]
