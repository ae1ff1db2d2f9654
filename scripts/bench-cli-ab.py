#!/usr/bin/env python3
"""Two builds of `anchored-edit call` side by side (docs/performance.md): each run
alternates binary A and B on a fresh copy of the file (so every hit writes), timed
around the process; prints median and minimum per binary and call. Calls: an exact
hit on a one-line file, and on big.py and big.js an exact hit, a re-indented hit and
a miss, each also with `allow_unbalanced` (the syntax-regression guard skipped).
Peak RSS: `/usr/bin/time -f %M`, median of 3 runs.

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
     {"tool": "str_replace", "arguments": {"path": "tiny.py", "old_str": "x = 1", "new_str": "x = 2"}}, True),
]
for name in ["big.py", "big.js"]:
    for call, ok in [("exact", True), ("reindented", True), ("miss", False)]:
        for guard in [True, False]:
            args = dict(path=name, **cases[name][call])
            if not guard:
                args["allow_unbalanced"] = True
            label = f"{name} {call}" + ("" if guard else ", allow_unbalanced")
            calls.append((label, name, os.path.join(inputs, name),
                          {"tool": "str_replace", "arguments": args}, ok))
def prepare(name, source, request):
    """A fresh copy of the call's file, and its request file's path."""
    if source:
        shutil.copyfile(source, os.path.join(work, name))
    else:
        open(os.path.join(work, name), "w").write("x = 1\n")
    req = os.path.join(work, ".request.json")
    json.dump(request, open(req, "w"))
    return req

times = {}
for i in range(runs + 2):
    for binary in (a, b):
        for label, name, source, request, ok in calls:
            req = prepare(name, source, request)
            t0 = time.perf_counter()
            p = subprocess.run([binary, "call", "--root", work, "--request", req], stdout=subprocess.PIPE)
            t = (time.perf_counter() - t0) * 1000
            if bool(json.loads(p.stdout).get("ok")) != ok:
                sys.exit(f"{binary} {label}: {p.stdout[:300]!r}")
            if i >= 2:
                times.setdefault((label, binary), []).append(t)
# Peak RSS (`/usr/bin/time -f %M`, KiB), median of 3 runs per binary and call.
rss = {}
for label, name, source, request, ok in calls:
    for binary in (a, b):
        kb = []
        for _ in range(3):
            req = prepare(name, source, request)
            p = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "call", "--root", work,
                                "--request", req], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            kb.append(int(p.stderr.decode().strip().splitlines()[-1]))
        rss[(label, binary)] = statistics.median(kb) / 1024
shutil.rmtree(work)
print(f"{runs} runs each; load average {os.getloadavg()[0]:.1f}; A = {a}, B = {b}")
print("call | A median (min) ms | B median (min) ms | A / B peak RSS MiB")
print("---|---|---|---")
for label, *_ in calls:
    row = [f"{statistics.median(times[(label, x)]):.2f} ({min(times[(label, x)]):.2f})" for x in (a, b)]
    print(f"{label} | {row[0]} | {row[1]} | {rss[(label, a)]:.1f} / {rss[(label, b)]:.1f}")
