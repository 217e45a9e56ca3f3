#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Builds the compare fixtures from two real reports of this machine:
#   memtlb stat --region 16m --backing anon -i 5 -p 2 \
#     -e minor-faults,major-faults,dTLB-loads,dTLB-load-misses -o raw-16m.json
#   (the same with --region 32m -o raw-32m.json)
# Times are replaced by fixed spreads around the measured medians so that the
# expected verdicts (significant or not) do not depend on a noisy VM.
# Run it in this directory; the outputs are committed.
import copy, json, math

def summary(xs):
    n = len(xs); m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    s = sorted(xs)
    return {"mean": m, "stddev": sd, "cv": sd / m if m else 0.0, "min": s[0],
            "median": s[n // 2], "max": s[-1], "n": n}

def set_times(rep, factors, scale=None):
    for res in rep["results"]:
        for ph in res["phases"]:
            k = (scale or {}).get(ph["name"], 1.0)
            med = ph["time_ns"]["median"] * k
            xs = [round(med * f) for f in factors]
            ph["time_ns"] = dict(summary(xs), samples=xs)

def set_counter(rep, phase, event, xs):
    for res in rep["results"]:
        for ph in res["phases"]:
            if ph["name"] == phase:
                ph["counters"][event] = dict(summary(xs), supported=True, counted=True,
                                             running=1.0)

def derive(rep):
    # the derived metrics as memtlb computes them (stats.c: mt_result_derive)
    for res in rep["results"]:
        blocks = res["params"]["blocks"]
        for ph in res["phases"]:
            c, d = ph["counters"], {}
            d["ns_per_block"] = ph["time_ns"]["mean"] / blocks
            ok = lambda e: c.get(e, {}).get("counted")
            if ok("minor-faults") and (ok("major-faults") or "major-faults" not in c):
                d["faults_per_block"] = (c["minor-faults"]["mean"] +
                                         c.get("major-faults", {}).get("mean", 0)) / blocks
            if ok("dTLB-load-misses"):
                d["misses_per_block"] = c["dTLB-load-misses"]["mean"] / blocks
                if ok("dTLB-loads") and c["dTLB-loads"]["mean"] > 0:
                    d["dtlb_miss_ratio"] = (c["dTLB-load-misses"]["mean"] /
                                            c["dTLB-loads"]["mean"])
            ph["derived"] = d

def save(rep, name):
    derive(rep)
    with open(name, "w") as f:
        json.dump(rep, f, indent=2)
        f.write("\n")

raw = json.load(open("raw-16m.json"))
raw32 = json.load(open("raw-32m.json"))
BASE = [1.00, 1.02, 0.98, 1.01, 0.99]
for r in (raw, raw32):
    r["system"]["host"] = "base-host"
    r["system"]["kernel"] = "6.1.0-base"

base = copy.deepcopy(raw); set_times(base, BASE); save(base, "base.json")

# noise: other samples, same spread, medians within 0.5%: nothing significant
noise = copy.deepcopy(raw); set_times(noise, [1.005, 0.985, 1.015, 0.995, 1.01])
noise["system"]["host"] = "new-host"; noise["system"]["kernel"] = "6.1.0-noise"
save(noise, "noise.json")

# regression: write_0 30% slower, twice the minor faults in write_0
reg = copy.deepcopy(raw); reg["system"]["kernel"] = "6.1.0-slow"
set_times(reg, BASE, {"write_0": 1.30})
set_counter(reg, "write_0", "minor-faults", [8192] * 5)
save(reg, "regression.json")

# improvement: write_0 20% faster (a change in the better direction)
imp = copy.deepcopy(raw); imp["system"]["kernel"] = "6.1.0-fast"
set_times(imp, BASE, {"write_0": 0.80})
save(imp, "improvement.json")

# mismatch: same point, unlike configuration and system
mis = copy.deepcopy(base); mis["system"]["cpu"] = "Intel(R) Xeon(R) Gold 6338"
mis["system"]["thp_enabled"] = "always"; mis["config"]["backing"] = "shared"
mis["config"]["block"] = 8192; mis["memtlb"]["version"] = "0.2.0"
save(mis, "mismatch.json")

# near-zero baseline: read_0 had no faults, now 40 per iteration
nz = copy.deepcopy(base); nz["system"]["kernel"] = "6.1.0-faulty"
set_counter(nz, "read_0", "minor-faults", [38, 41, 40, 42, 39])
save(nz, "nearzero.json")

# hardware counters: the dTLB events counted on this side only
hw = copy.deepcopy(base); hw["system"]["kernel"] = "6.1.0-pmu"; hw["system"]["hw_counters"] = True
for res in hw["results"]:
    for ev in res["events"]:
        ev["supported"] = True
for ph in [p["name"] for p in hw["results"][0]["phases"]]:
    set_counter(hw, ph, "dTLB-loads", [1000000, 1010000, 990000, 1005000, 995000])
    set_counter(hw, ph, "dTLB-load-misses", [4096, 4100, 4090, 4095, 4097])
save(hw, "hwcounters.json")

# a sweep of two points: 16m matches base, 32m is on this side only
sw = copy.deepcopy(raw); sw["command"] = "sweep"
sw["results"].append(copy.deepcopy(raw32["results"][0]))
set_times(sw, [1.01, 0.99, 1.00, 1.02, 0.98]); save(sw, "sweep.json")

# workload: every workload option of a newer memtlb set, on the base's point;
# the options that apply only with others (seed, task mode, ...) not on the base
wl = copy.deepcopy(base); wl["system"]["kernel"] = "6.1.0-workload"
wl["config"].update({"backing": "file", "file_cache": "cold", "pages": "thp",
                     "huge_page_size": 2097152, "reserve": False, "access": "random",
                     "stride": 0, "seed": 7, "populate": True, "read_first": True,
                     "tasks": 4, "task_mode": "process", "task_region": "private"})
save(wl, "workload.json")

# a report of another schema
other = copy.deepcopy(base); other["memtlb"]["schema"] = 2
save(other, "schema2.json")

# Beyond noise (issue 16): a tight base (cv 0.08%) makes small changes
# significant; +0.5% stays under the default 1% noise threshold, +5% calls.
TIGHT = [1.000, 1.001, 0.999, 1.0005, 0.9995]
tight = copy.deepcopy(raw); set_times(tight, TIGHT); save(tight, "tight.json")
for name, k in (("half-pct.json", 1.005), ("five-pct.json", 1.05)):
    r = copy.deepcopy(raw); r["system"]["kernel"] = "6.1.0-" + name.split(".")[0]
    set_times(r, TIGHT, {"write_0": k}); save(r, name)

# Not normal: new is above every base sample but one iteration doubled (a
# steal-time jump): Welch's t is not significant, Mann-Whitney U is
# (every new sample above every base one: exact p = 2 / C(12, 6)).
skb = copy.deepcopy(raw); set_times(skb, [1.00, 1.01, 0.99, 1.005, 0.995, 1.002])
save(skb, "skew-base.json")
skn = copy.deepcopy(raw); skn["system"]["kernel"] = "6.1.0-skew"
set_times(skn, [1.00, 1.01, 0.99, 1.005, 0.995, 1.002])
for res in skn["results"]:
    for ph in res["phases"]:
        if ph["name"] == "write_0":
            med = ph["time_ns"]["median"]
            xs = [round(med * f) for f in (1.03, 1.04, 1.02, 1.035, 1.025, 2.0)]
            ph["time_ns"] = dict(summary(xs), samples=xs)
save(skn, "skew-new.json")
