#!/usr/bin/env python3
"""Two builds of `anchored-edit call` side by side (docs/performance.md): each run
alternates binary A and B on a fresh copy of the file (so every hit writes), timed
around the process; prints median and minimum per binary and call.

Usage: python3 scripts/bench-cli-ab.py A B [RUNS]   (inputs: node scripts/bench-inputs.mjs)
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

a, b = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
inputs = subprocess.run(["node", os.path.join(here, "scripts/bench-inputs.mjs")],
                        stdout=subprocess.PIPE, check=True, text=True).stdout.strip()
cases = json.load(open(os.path.join(inputs, "cases.json")))
work = tempfile.mkdtemp(prefix="bench-cli-ab-")
calls = [
    ("exact hit, one-line file", "tiny.py", None,
     {"tool": "str_replace", "arguments": {"path": "tiny.py", "old_str": "x = 1", "new_str": "x = 2"}}),
    ("big.py exact hit", "big.py", os.path.join(inputs, "big.py"),
     {"tool": "str_replace", "arguments": dict(path="big.py", **cases["big.py"]["exact"])}),
]
times = {}
for i in range(runs + 2):
    for binary in (a, b):
        for label, name, source, request in calls:
            if source:
                shutil.copyfile(source, os.path.join(work, name))
            else:
                open(os.path.join(work, name), "w").write("x = 1\n")
            req = os.path.join(work, ".request.json")
            json.dump(request, open(req, "w"))
            t0 = time.perf_counter()
            p = subprocess.run([binary, "call", "--root", work, "--request", req], stdout=subprocess.PIPE)
            t = (time.perf_counter() - t0) * 1000
            if not json.loads(p.stdout).get("ok"):
                sys.exit(f"{binary} {label}: {p.stdout[:300]!r}")
            if i >= 2:
                times.setdefault((label, binary), []).append(t)
shutil.rmtree(work)
print(f"{runs} runs each; load average {os.getloadavg()[0]:.1f}")
print("call | binary | wall median ms | wall min ms")
print("---|---|---|---")
for (label, binary), ts in times.items():
    print(f"{label} | {binary} | {statistics.median(ts):.2f} | {min(ts):.2f}")
