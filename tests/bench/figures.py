#!/usr/bin/env python3
"""Runs the solver's benchmark figures in one go and prints them as the README's tables.

    python3 tests/bench/figures.py [--bench PATH] [--runs N] [--no-sweep]

Each run is one pass over the timed scenes, one after another so that the machine's load
falls on all of them alike: the pile of 1000 on one thread with Box2D 2.4.1 in the same
process, the same pile on two threads, and the pile of 100 lying awake with Box2D. Ratios
are taken within a run only (wall times on a shared machine move by a fifth between runs).
The sweeps are deterministic and run once. Exits 1 when a scene fails to run or the two
thread counts end the pile in different states (`state_hash`), 2 for a bad command line.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LEVELS = ["content/levels/harness.level.xml", "tests/scenes/levels/steep.level.xml"]


def bench(path, *args):
    done = subprocess.run([path, "--json", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"figures: {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def millimetres(metres):
    return f"{metres * 1000:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default=os.path.join(ROOT, "build/default/bin/ragdoll_bench"),
                        help="the ragdoll_bench to run (default: the default preset's)")
    parser.add_argument("--runs", type=int, default=3, help="passes over the timed scenes (default 3)")
    parser.add_argument("--no-sweep", action="store_true", help="leave the sweeps out")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    if not os.access(options.bench, os.X_OK):
        parser.error(f"{options.bench}: not found or not executable (build the default preset first)")

    rows = []
    same_state = True
    for run in range(1, options.runs + 1):
        one = bench(options.bench, "--scene", "pile", "--n", "1000", "--steps", "300", "--peer", "box2d")
        two = bench(options.bench, "--scene", "pile", "--n", "1000", "--steps", "300", "--threads", "2")
        awake = bench(options.bench, "--scene", "pile", "--n", "100", "--steps", "600", "--no-sleep", "--peer", "box2d")
        same_state = same_state and one["state_hash"] == two["state_hash"]
        rows.append((run, one, two, awake))
        print(f"run {run} of {options.runs} done", file=sys.stderr)

    print("| run | N=1000 ours / Box2D ms | × Box2D | 2 threads ms | × 1 thread | N=100 awake ours / Box2D ms | × Box2D |")
    print("|---|---|---|---|---|---|---|")
    ratios = {"n1000": [], "threads": [], "n100": []}
    for run, one, two, awake in rows:
        n1000 = one["peer"]["ms_per_step_mean"] / one["ms_per_step_mean"]
        threads = one["ms_per_step_mean"] / two["ms_per_step_mean"]
        n100 = awake["peer"]["ms_per_step_mean"] / awake["ms_per_step_mean"]
        ratios["n1000"].append(n1000)
        ratios["threads"].append(threads)
        ratios["n100"].append(n100)
        print(f"| {run} | {one['ms_per_step_mean']:.1f} / {one['peer']['ms_per_step_mean']:.1f} | {n1000:.2f} "
              f"| {two['ms_per_step_mean']:.1f} | {threads:.2f} "
              f"| {awake['ms_per_step_mean']:.2f} / {awake['peer']['ms_per_step_mean']:.2f} | {n100:.2f} |")
    print(f"| median | | {statistics.median(ratios['n1000']):.2f} | | {statistics.median(ratios['threads']):.2f} "
          f"| | {statistics.median(ratios['n100']):.2f} |")

    one, awake = rows[-1][1], rows[-1][3]
    print()
    print("| pile | stretch mm | limits ° | depth mm | overlap mm | Box2D stretch / limits / depth / overlap | state_hash |")
    print("|---|---|---|---|---|---|---|")
    for name, r in (("N=1000", one), ("N=100 awake", awake)):
        p = r["peer"]
        print(f"| {name} | {r['max_stretch_m'] * 1000:.4f} | {r['max_limit_violation_deg']:.4f} | {millimetres(r['max_depth_m'])} "
              f"| {millimetres(r['max_overlap_m'])} | {millimetres(p['max_stretch_m'])} mm / {p['max_limit_violation_deg']:.1f}° / "
              f"{millimetres(p['max_depth_m'])} mm / {millimetres(p['max_overlap_m'])} mm | {r['state_hash']} |")
    print()
    print("N=1000 on one thread, ms a step by stage (last run): " +
          ", ".join(f"{stage} {ms:.2f}" for stage, ms in sorted(one["profile_ms"].items(), key=lambda kv: -kv[1])))
    print(f"N=1000 state_hash on 1 and 2 threads: {'the same' if same_state else 'DIFFERENT'}")

    if not options.no_sweep:
        print()
        print("| level | rested ≤ 2 s | stopped ≤ 3 s | never rested | slowest rest s | mean rest / stop s "
              "| depth / at rest mm | stretch mm | limits ° | runs_hash |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for level in LEVELS:
            s = bench(options.bench, "--scene", "sweep", "--level", level, "--threads", "2")
            rests = [r["rest_s"] for r in s["runs"] if r["rest_s"] is not None]
            stops = [r["moving_until_s"] for r in s["runs"]]
            print(f"| {os.path.basename(level).split('.')[0]} | {s['rested_within_2s']} of {s['switches']} "
                  f"| {s['stopped_within_3s']} | {s['never_rested']} | {s['slowest_rest_s']:.2f} "
                  f"| {statistics.mean(rests):.2f} / {statistics.mean(stops):.2f} "
                  f"| {millimetres(s['max_depth_m'])} / {millimetres(s['max_rest_depth_m'])} "
                  f"| {s['max_stretch_m'] * 1000:.4f} | {s['max_limit_violation_deg']:.4f} | {s['runs_hash']} |")
    return 0 if same_state else 1


if __name__ == "__main__":
    sys.exit(main())
