#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The plan search's best plan against the published plan of every run in the validation test data,
# both timed by the model: prints one line per run and a median / lowest per source (the README's
# "Validation" table). Usage: scripts/plan-vs-published.py [build/app/trainscope]
import glob
import json
import os
import statistics
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else "build/app/trainscope"
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "validation", "scenarios")


def run(*args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    return json.loads(out.stdout) if out.stdout.strip() else None


def shape(plan, training):
    v = plan.get("virtual_stages", 1) if plan.get("schedule") == "interleaved" else 1
    return "TP{} PP{} CP{} DP{} v{} b{}".format(plan["tp"], plan["pp"], plan.get("cp", 1), plan.get("dp"), v,
                                                 training.get("micro_batch", plan.get("micro_batch")))


by_source = {}
for path in sorted(glob.glob(os.path.join(root, "*.json"))):
    name = os.path.basename(path)[:-5]
    if name.startswith("seed"):
        continue
    published = run("eval", path, "--format", "json")
    search = run("plan", path, "--top", "1", "--format", "json")
    if not published or not search or not search.get("plans") or not published.get("feasible"):
        print(f"{name:50} no plan found")
        continue
    best = search["plans"][0]
    ratio = best["step_time_s"] / published["step_time_s"]
    scenario = json.load(open(path))
    print(f"{name:50} {ratio:5.2f}  published {shape(scenario['plan'], scenario['training'])}"
          f"  best {shape(best, best)} ({best['framework']})")
    by_source.setdefault(name.split("-")[0], []).append((ratio, name))

print()
for source, rows in by_source.items():
    ratios = sorted(r for r, _ in rows)
    print(f"{source:10} {len(rows):3} runs  median {statistics.median(ratios):.2f}  lowest {ratios[0]:.2f} ({min(rows)[1]})")
