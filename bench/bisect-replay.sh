#!/bin/sh
# SPDX-License-Identifier: MIT
# memtlb bisect-run on a replayed series (issue 31): 64 commits, commit 0
# good, a 5% step of read_4's ns per block at a commit drawn per bisection,
# noise drawn from a real measurement's per-iteration samples (their ratios
# to their mean, outliers and all). Each bisection is git bisect's binary
# search between commit 0 (good) and 63 (bad), a 125 skipped as git does
# (the next commit inward); each commit it tests is a fresh report of
# MAX iterations, of which bisect-run --from reads the first ones its looks
# ask for. The same draws are judged by a fixed rule too: the mean of the
# first 10 iterations against the threshold. Prints, for both: how many
# bisections found the first bad commit, and the repetitions spent. Goals:
# >= 19 of 20 found, <= 1.5x the fixed rule's repetitions. A benchmark, not
# a test.
#
#   bench/bisect-replay.sh [BISECTIONS [NOISE.json]]   (default 20, measured)
#
# NOISE.json: a stat report whose read_4 samples give the noise; without
# it, `memtlb stat --region 64m -i 10 -j` is run here. The man page's
# figures used bench/data/bisect-noise-i10.json (-i 10, cv 11.9%, tails
# of +26%) and bisect-noise-i30.json (-i 30, 3 of 30 iterations at 30x
# the rest), both of the 2-vCPU build machine, kept so that they can be
# reproduced; MEMTLB=PATH judges with another build (the old rule's). SCALE=F multiplies
# the noise's deviations (SCALE=0.1: a machine ten times as quiet);
# THRESHOLD (default 2.5, half the step), BASE_N (the baseline's
# iterations, default 30), MAX (--max-runs, default 30), SEED.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-20}
memtlb=${MEMTLB:-$top/build/memtlb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

if [ -n "${2-}" ]; then
	cp "$2" "$work/noise.json"
else
	"$memtlb" stat --region 64m -i 10 -j >"$work/noise.json" 2>/dev/null
fi
python3 - "$memtlb" "$work" "$n" "${SCALE:-1}" "${THRESHOLD:-2.5}" "${BASE_N:-30}" \
	"${MAX:-30}" "${SEED:-31}" <<'PY'
import copy, json, random, re, statistics, subprocess, sys

memtlb, work, bisections = sys.argv[1], sys.argv[2], int(sys.argv[3])
scale, threshold = float(sys.argv[4]), float(sys.argv[5])
base_n, max_runs, rng = int(sys.argv[6]), int(sys.argv[7]), random.Random(int(sys.argv[8]))
COMMITS, STEP, FIXED_N, PHASE = 64, 0.05, 10, "read_4"

noise = json.load(open(f"{work}/noise.json"))
res = noise["results"][0]
real = next(p for p in res["phases"] if p["name"] == PHASE)["time_ns"]["samples"]
mean = statistics.mean(real)
ratios = [1 + scale * (x / mean - 1) for x in real]
cv = statistics.stdev(ratios)

def report(level, n, path):
    """The noise report with every phase's times n fresh draws around level x."""
    rep = copy.deepcopy(noise)
    r = rep["results"][0]
    r.pop("iteration_start_ns", None)
    r.pop("iteration_steal_ms", None)
    r.pop("outliers", None)
    for p in r["phases"]:
        m = statistics.mean(p["time_ns"]["samples"])
        s = [max(1, round(m * level * rng.choice(ratios))) for _ in range(n)]
        p["time_ns"] = {"mean": statistics.mean(s), "stddev": statistics.stdev(s),
                        "cv": statistics.stdev(s) / statistics.mean(s), "min": min(s),
                        "median": statistics.median(s), "max": max(s), "n": n,
                        "samples": s}
        for c in p.get("counters", {}).values():
            c.pop("samples", None)
        p.pop("warmup_samples", None)
    rep["config"]["iterations"] = n
    json.dump(rep, open(path, "w"))

report(1.0, base_n, f"{work}/good.json")
base = json.load(open(f"{work}/good.json"))
base_mean = next(p for p in base["results"][0]["phases"]
                 if p["name"] == PHASE)["time_ns"]["mean"]

def judge(commit, step_at):
    """One test of commit: bisect-run's exit and n, and the fixed rule's verdict."""
    path = f"{work}/c.json"
    report(1 + STEP if commit >= step_at else 1.0, max_runs, path)
    p = subprocess.run([memtlb, "bisect-run", "--baseline", f"{work}/good.json",
                        "--from", path, "--threshold", str(threshold),
                        "--max-runs", str(max_runs)], capture_output=True, text=True)
    m = re.search(r"n=(\d+)", p.stderr)
    if p.returncode not in (0, 1, 125) or not m:
        sys.exit(f"bisect-run: exit {p.returncode}: {p.stderr}")
    t = next(q for q in json.load(open(path))["results"][0]["phases"]
             if q["name"] == PHASE)["time_ns"]["samples"][:FIXED_N]
    fixed = 1 if 100 * (statistics.mean(t) / base_mean - 1) > threshold else 0
    return p.returncode, int(m.group(1)), fixed

wrong = {True: 0, False: 0}
skips = 0

def bisect(step_at, seq):
    """git bisect's search, 125 skipped inward; the first bad commit or None."""
    global skips
    good, bad, reps, skipped = 0, COMMITS - 1, 0, set()
    while bad - good > 1:
        mid = (good + bad) // 2
        order = sorted(range(good + 1, bad), key=lambda c: (abs(c - mid), c))
        cands = [c for c in order if c not in skipped]
        if not cands:
            return None, reps
        c = cands[0]
        code, used, fixed = judge(c, step_at)
        if seq:
            reps += used
        else:
            reps += FIXED_N
            code = fixed
        if code != 125:
            wrong[seq] += code != (c >= step_at)
        if code == 125:
            skips += 1
            skipped.add(c)
        elif code == 0:
            good = c
        else:
            bad = c
    return bad, reps

found = {True: 0, False: 0}
reps = {True: 0, False: 0}
for b in range(bisections):
    step_at = rng.randrange(1, COMMITS)
    for seq in (True, False):
        got, used = bisect(step_at, seq)
        found[seq] += got == step_at
        reps[seq] += used
print(f"noise: {len(real)} samples of {PHASE}, cv {100 * cv:.1f}% (x{scale:g}); "
      f"baseline {base_n} iterations; threshold {threshold:g}%")
for seq, name in ((True, "bisect-run"), (False, "fixed n=10")):
    print(f"{name:>11}: {found[seq]}/{bisections} found, {reps[seq]} repetitions "
          f"({reps[seq] / bisections:.1f} per bisection), {wrong[seq]} wrong verdicts"
          + (f", {skips} skips (125)" if seq else ""))
print(f"repetitions: {reps[True] / max(1, reps[False]):.2f}x the fixed rule's")
PY
