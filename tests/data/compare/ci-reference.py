#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for compare's 95% CI of a %change (test-compare.c), without
# scipy: the delta method on Welch's standard errors, with Student's t
# quantile found by integrating the t density (Simpson's rule) and bisecting,
# independent of the incomplete beta function memtlb uses.
import math, statistics

def t_cdf(t, df, steps=20000):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    h = t / steps
    s = f(0) + f(t) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, steps))
    return 0.5 + s * h / 3

def t_quantile(p, df):  # two-sided p
    lo, hi = 0.0, 100.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 2 * (1 - t_cdf(mid, df)) > p: lo = mid
        else: hi = mid
    return (lo + hi) / 2

def ci(a, b):
    ma, mb = statistics.mean(a), statistics.mean(b)
    va = statistics.variance(a) / len(a); vb = statistics.variance(b) / len(b)
    r = mb / ma; w = vb + r * r * va
    df = w * w / (vb * vb / (len(b) - 1) + r ** 4 * va * va / (len(a) - 1))
    half = t_quantile(0.05, df) * math.sqrt(w) / abs(ma)
    return 100 * (r - 1 - half), 100 * (r - 1 + half), df

print("t(0.05, 8) = %.10f (table: 2.3060041350)" % t_quantile(0.05, 8))
A = [100, 102, 98, 101, 99]
print("scaled  %.10f %.10f df %.6f" % ci(A, [1.05 * x for x in A]))
print("unequal %.10f %.10f df %.6f" % ci(A, [120, 131, 109, 125, 118, 127]))
