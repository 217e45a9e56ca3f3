#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for mannwhitneyu without scipy: exact p by enumerating every
# split of the pooled ranks (itertools), asymptotic p by scipy's formula.
import itertools, math
def ranks(v):
    s = sorted(v); r = {}
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]: j += 1
        r[s[i]] = (i + 1 + j) / 2; i = j
    return r, s
def mwu(x, y, method="auto"):
    n1, n2 = len(x), len(y); pool = x + y
    r, s = ranks(pool)
    U1 = sum(r[v] for v in x) - n1 * (n1 + 1) / 2
    U = max(U1, n1 * n2 - U1)
    ties = len(set(pool)) < len(pool)
    if method == "auto":
        method = "asymptotic" if (n1 > 8 and n2 > 8) or ties else "exact"
    if method == "exact":
        n = n1 + n2; cnt = tot = 0
        for c in itertools.combinations(range(n), n1):
            u = sum(i + 1 for i in c) - n1 * (n1 + 1) / 2
            tot += 1; cnt += u >= U
        p = 2 * cnt / tot
    else:
        from collections import Counter
        t = Counter(pool).values(); n = n1 + n2
        tie = sum(k**3 - k for k in t)
        sd = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1))))
        z = (U - n1 * n2 / 2 - 0.5) / sd
        p = math.erfc(z / math.sqrt(2))
    return U1, min(1.0, max(0.0, p)), method
cases = {
 "scipy_doc": ([19, 22, 16, 29, 24], [20, 11, 17, 12]),
 "separated": ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]),
 "interleaved": ([1.1, 3.2, 5.3, 7.4, 9.5, 11.6], [2.2, 4.1, 6.3, 8.2, 10.1]),
 "small_large": ([10.5, 12.25, 9.75], [1.0*i for i in range(1, 13)]),
 "ties": ([1, 2, 2, 3, 4], [2, 3, 3, 5, 6]),
 "large": ([1.0*i for i in range(0, 20, 2)], [1.0*i + 0.5 for i in range(3, 23, 2)]),
}
for k, (x, y) in cases.items():
    print(k, "%.17g %.17g %s" % mwu(list(map(float, x)), list(map(float, y))))
print("doc asymptotic", "%.17g %.17g %s" % mwu([19., 22, 16, 29, 24], [20., 11, 17, 12], "asymptotic"))
