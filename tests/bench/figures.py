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
    command = " ".join(args)
    try:
        done = subprocess.run([path, "--json", *args], cwd=ROOT, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"figures: {path} does not run: {error}")
    if done.returncode != 0:
        sys.exit(f"figures: {command} failed ({done.returncode}): {done.stderr.strip()}")
    try:
        return json.loads(done.stdout)
    except ValueError as error:
        sys.exit(f"figures: {command} printed no JSON ({error})")


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
    # As typed, from where it was typed: the benches run from the repository's root.
    options.bench = os.path.abspath(options.bench)
    if not os.path.isfile(options.bench) or not os.access(options.bench, os.X_OK):
        parser.error(f"{options.bench}: not found or not executable (build the default preset first)")

    rows = []
    for run in range(1, options.runs + 1):
        one = bench(options.bench, "--scene", "pile", "--n", "1000", "--steps", "300", "--peer", "box2d")
        two = bench(options.bench, "--scene", "pile", "--n", "1000", "--steps", "300", "--threads", "2")
        awake = bench(options.bench, "--scene", "pile", "--n", "100", "--steps", "600", "--no-sleep", "--peer", "box2d")
        rows.append((one, two, awake))
        print(f"run {run} of {options.runs} done", file=sys.stderr)
    same_state = all(one["state_hash"] == two["state_hash"] for one, two, _ in rows)

    def ms(result):
        return result["ms_per_step_mean"]

    ratios = [(ms(one["peer"]) / ms(one), ms(one) / ms(two), ms(awake["peer"]) / ms(awake)) for one, two, awake in rows]
    print("| run | N=1000 ours / Box2D ms | × Box2D | 2 threads ms | × 1 thread | N=100 awake ours / Box2D ms | × Box2D |")
    print("|---|---|---|---|---|---|---|")
    for run, ((one, two, awake), (n1000, threads, n100)) in enumerate(zip(rows, ratios), 1):
        print(f"| {run} | {ms(one):.1f} / {ms(one['peer']):.1f} | {n1000:.2f} | {ms(two):.1f} | {threads:.2f} "
              f"| {ms(awake):.2f} / {ms(awake['peer']):.2f} | {n100:.2f} |")
    medians = [statistics.median(column) for column in zip(*ratios)]
    print(f"| median | | {medians[0]:.2f} | | {medians[1]:.2f} | | {medians[2]:.2f} |")

    one, _, awake = rows[-1]
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
          ", ".join(f"{stage} {stage_ms:.2f}" for stage, stage_ms in sorted(one["profile_ms"].items(), key=lambda kv: -kv[1])))
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
            mean_rest = f"{statistics.mean(rests):.2f}" if rests else "–"
            mean_stop = f"{statistics.mean(stops):.2f}" if stops else "–"
            slowest = f"{s['slowest_rest_s']:.2f}" if rests else "–"
            print(f"| {os.path.basename(level).split('.')[0]} | {s['rested_within_2s']} of {s['switches']} "
                  f"| {s['stopped_within_3s']} | {s['never_rested']} | {slowest} | {mean_rest} / {mean_stop} "
                  f"| {millimetres(s['max_depth_m'])} / {millimetres(s['max_rest_depth_m'])} "
                  f"| {s['max_stretch_m'] * 1000:.4f} | {s['max_limit_violation_deg']:.4f} | {s['runs_hash']} |")
    return 0 if same_state else 1


if __name__ == "__main__":
    sys.exit(main())
