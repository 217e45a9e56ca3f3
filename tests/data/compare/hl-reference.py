#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Reference for mt_stats_hl (tests/unit/test-mwu.c): the Hodges-Lehmann
# shift as the median of every difference, its interval from the exact U
# counts of every split of the pooled ranks (itertools), or from the normal
# approximation with continuity correction where both sides exceed 8.
import itertools, math, statistics
def exact_counts(m, n):
    # U of x over y by enumeration of rank splits (no ties)
    N=m+n; cnt={}
    for comb in itertools.combinations(range(N), m):
        u=sum(r for r in comb)-m*(m-1)//2  # ranks 0-based: U = sum ranks - m(m-1)/2
        cnt[u]=cnt.get(u,0)+1
    return cnt, math.comb(N,m)
def hl(x,y,alpha):
    m,n=len(x),len(y); mn=m*n
    d=sorted(a-b for a in x for b in y)
    med=d[mn//2] if mn%2 else (d[mn//2-1]+d[mn//2])/2
    tail=alpha/2
    if min(m,n)<=8:
        cnt,tot=exact_counts(m,n)
        c=0
        for cc in range(0,(mn+1)//2+1):
            p=sum(v for u,v in cnt.items() if u<=cc-1)/tot
            if p<=tail: c=cc
    else:
        from statistics import NormalDist
        z=NormalDist().inv_cdf(1-tail)
        s=math.sqrt(mn*(m+n+1)/12)
        c=max(0,min((mn+1)//2,math.floor(mn/2+0.5-z*s)))
    lo=d[c-1] if c else -math.inf; hi=d[mn-c] if c else math.inf
    return med,lo,hi,c
males=[19,22,16,29,24]; females=[20,11,17,12]
print(hl(males,females,0.05))
e=[10.5,12.25,9.75]; f=list(range(1,13))
print(hl(e,f,0.05), hl(e,f,0.01))
g=[1.5*i%17+0.1*i for i in range(1,13)]; h=[(7*i)%13+0.05*i for i in range(1,11)]
print(g,h,hl(g,h,0.05))
print(hl([1,2],[3,4],0.05))
