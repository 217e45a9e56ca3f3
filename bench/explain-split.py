#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Splits a sweep whose first --vary is the injected cause (a sysfs tunable)
# into one report per value, the key dropped from every point: what two
# kernels' reports of the same sweep would be, so that compare matches
# their points. Usage: explain-split.py SWEEP.json KEY VALUE OUT.json
import json, sys

src, key, value, out = sys.argv[1:5]
rep = json.load(open(src))
kept = []
for res in rep["results"]:
    if res["params"].get(key) != value:
        continue
    del res["params"][key]
    kept.append(res)
rep["results"] = kept
json.dump(rep, open(out, "w"), indent=1)
