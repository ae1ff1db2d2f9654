#!/usr/bin/env python3
"""scripts/bench-peers-aider.py — aider's search/replace on the speed inputs, for
scripts/bench-peers.mjs (docs/performance.md, "Peers in the same run").

Loads `replace_most_similar_chunk` and `find_similar_lines` from aider's own
aider/coders/editblock_coder.py in the checkout given (nothing of aider is in this
repository). The module is loaded by path without running aider's package __init__ files
(they import the whole application: litellm, packaging, ...). Imports the two functions
do not use are stubbed: `aider.utils` (an empty module: only the coder class uses it) and
`aider.coders.base_coder` (`Coder = object`: the base of the coder class). `aider.dump`
and `aider.coders.editblock_prompts` (with its `shell` and `base_prompts`) are aider's
own files.

Times, per file of target/bench-inputs/cases.json, the three str_replace calls as aider
makes them from an edit block (`replace_most_similar_chunk(whole, part, replace)`: the
file's text in, the new text out, None on a miss), and on the miss also
`find_similar_lines(part, whole)`, the "Did you mean" lines aider's coder adds to the
message it sends back. Each figure: the median of the calls of a round, the lowest of
ROUNDS rounds, in wall-clock and in CPU time. Checks each hit's text equals the file with old_str replaced by new_str at
its place (the exact call's new text for the re-indented call) and the miss gives None.

Usage: python3 scripts/bench-peers-aider.py AIDER_DIR INPUTS_DIR NAMES ITERATIONS ROUNDS
Prints one JSON object: {"commit": ..., "python": ..., "rows": {name: {call: {"wall": ms, "cpu": ms}}}}
(wall-clock and process CPU time, user + system).
"""

import importlib.util
import json
import os
import subprocess
import sys
import time
import types


def load(aider_dir):
    """aider.coders.editblock_coder from `aider_dir`, its package __init__ files not run."""
    pkg = os.path.join(aider_dir, "aider")
    source = os.path.join(pkg, "coders", "editblock_coder.py")
    if not os.path.isfile(source):
        raise SystemExit(f"bench-peers-aider: {source} missing (scripts/fetch-peers)")
    for name, path in (("aider", pkg), ("aider.coders", os.path.join(pkg, "coders"))):
        module = types.ModuleType(name)
        module.__path__ = [path]
        sys.modules[name] = module
    utils = types.ModuleType("aider.utils")
    sys.modules["aider.utils"] = utils
    sys.modules["aider"].utils = utils
    base = types.ModuleType("aider.coders.base_coder")
    base.Coder = object
    sys.modules["aider.coders.base_coder"] = base
    spec = importlib.util.spec_from_file_location("aider.coders.editblock_coder", source)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def commit(aider_dir):
    """The checkout's commit: its own git HEAD, else the .peer-commit file scripts/fetch-peers wrote."""
    marker = os.path.join(aider_dir, ".peer-commit")
    if os.path.isfile(marker):
        return open(marker).read().strip()

    def git(*args):
        run = subprocess.run(["git", "-C", aider_dir, *args], capture_output=True, text=True, check=True)
        return run.stdout.strip()

    try:
        if os.path.realpath(git("rev-parse", "--show-toplevel")) == os.path.realpath(aider_dir):
            return git("rev-parse", "HEAD")
    except (OSError, subprocess.CalledProcessError):
        pass
    return None


def replaced(text, old, new):
    at = text.index(old)
    return text[:at] + new + text[at + len(old) :]


def measure(fn, iterations, rounds):
    """Median wall-clock and CPU time (ms) of `fn`, the lowest of `rounds` rounds' medians."""
    per = max(1, -(-iterations // rounds))
    best = {"wall": float("inf"), "cpu": float("inf")}
    fn()  # warm-up
    for _ in range(rounds):
        wall, cpu = [], []
        for _ in range(per):
            c0, t0 = time.process_time(), time.perf_counter()
            fn()
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        best["wall"] = min(best["wall"], sorted(wall)[len(wall) // 2])
        best["cpu"] = min(best["cpu"], sorted(cpu)[len(cpu) // 2])
    return best


def main():
    aider_dir, inputs, names, iterations, rounds = sys.argv[1:6]
    iterations, rounds = int(iterations), int(rounds)
    eb = load(aider_dir)
    cases = json.load(open(os.path.join(inputs, "cases.json"), encoding="utf-8"))
    rows = {}
    for name in names.split(","):
        with open(os.path.join(inputs, name), encoding="utf-8", newline="") as f:
            text = f.read()
        c = cases[name]
        want = replaced(text, c["exact"]["old_str"], c["exact"]["new_str"])
        row = {}
        for call in ("exact", "reindented", "miss"):
            part, repl = c[call]["old_str"], c[call]["new_str"]
            got = eb.replace_most_similar_chunk(text, part, repl)
            expected = None if call == "miss" else want
            if got != expected:
                raise SystemExit(f"bench-peers-aider: {name} {call}: aider's result is not the expected text")
            row[call] = measure(lambda: eb.replace_most_similar_chunk(text, part, repl), iterations, rounds)
        part = c["miss"]["old_str"]
        row["miss_message"] = measure(lambda: eb.find_similar_lines(part, text), 1, 1)
        rows[name] = row
    print(json.dumps({"commit": commit(aider_dir), "python": sys.version.split()[0], "rows": rows}))


if __name__ == "__main__":
    main()
