#!/usr/bin/python3
"""welchcal.py - the prototype of what stats_tl_contrast_v now does
exactly (Imhof's integral rather than this Monte-Carlo; docs/research/intervals.md,
tests/fixtures/stats/gen_welchq.py): the --pool trials
delta of trials of unequal size with Welch's t quantile replaced by the
Welch statistic's own 97.5 % quantile under the trials' estimated
variances tau^2 + c / n_t (DerSimonian-Laird, as stats_tl_values uses
for the pooled estimate), simulated per draw from normal values
(4000 simulations).  docs/research/coverage.md, "What is still outside the
band".  Dev-time only (numpy, scipy):

    /usr/bin/python3 tests/sim/welchcal.py SIZES SIGMA_B DRAWS
    /usr/bin/python3 tests/sim/welchcal.py 300,300,40 0 1500

Prints, for p25 and p50, the coverage of Welch's interval and of the
calibrated one (seed 5).
"""
import numpy as np, sys
from scipy import stats
rng=np.random.default_rng(5)
sig=0.3
def cellvals(ns,sb,R,scale,p):
    T=len(ns); n=np.array(ns,float)
    b=sb*rng.normal(size=(R,T))
    u=np.empty((R,T)); slope=np.empty(R)
    allx=[]
    for t,k in enumerate(ns):
        x=np.sort(scale*np.exp(b[:,t:t+1]+sig*rng.normal(size=(R,k))),axis=1)
        u[:,t]=np.quantile(x,p,axis=1); allx.append(x)
    allx=np.sort(np.concatenate(allx,1),axis=1); N=n.sum()
    h=max(np.sqrt(p*(1-p)/N),1/N)
    slope=(np.quantile(allx,p+h,axis=1)-np.quantile(allx,p-h,axis=1))/(2*h)
    c=slope**2*p*(1-p)
    w0=n[None,:]/c[:,None]; m0=(w0*u).sum(1)/w0.sum(1)
    Q=(w0*(u-m0[:,None])**2).sum(1)
    tau2=np.maximum(0,(Q-(T-1))/(w0.sum(1)-(w0**2).sum(1)/w0.sum(1)))
    v=tau2[:,None]+c[:,None]/n[None,:]
    return u,v
M=4000
def calq(va,vb,ratio_scale=None):
    # va, vb: (T,) relative variances; welch stat quantile
    T=len(va)
    za=rng.normal(size=(M,T))*np.sqrt(va); zb=rng.normal(size=(M,T))*np.sqrt(vb)
    sa=za.var(1,ddof=1)/T; sb=zb.var(1,ddof=1)/T
    t=np.abs(za.mean(1)-zb.mean(1))/np.sqrt(sa+sb)
    return np.quantile(t,0.95)
ns=tuple(int(x) for x in sys.argv[1].split(',')); sb=float(sys.argv[2]); R=int(sys.argv[3])
for p in (.25,.5):
    ua,vA=cellvals(ns,sb,R,1.3,p); ub,vB=cellvals(ns,sb,R,1.0,p)
    # truth by big MC
    tr=0
    for k in ns:
        x=np.sort(np.exp(sig*rng.normal(size=(20000,k))),axis=1); tr+=np.quantile(x,p,axis=1).mean()
    tr=tr/len(ns)*np.exp(sb**2/2); d=0.3*tr
    T=len(ns)
    ea=ua.mean(1);eb=ub.mean(1)
    sa=ua.var(1,ddof=1)/T; sb_=ub.var(1,ddof=1)/T; se=np.sqrt(sa+sb_)
    df=(sa+sb_)**2/(sa**2/(T-1)+sb_**2/(T-1)); tw=stats.t.ppf(.975,df)
    err=np.abs(ea-eb-d)
    cw=np.mean(err<=tw*se)
    tq=np.array([calq(vA[i],vB[i]) for i in range(R)])
    cc=np.mean(err<=tq*se)
    print(ns,sb,"p%g"%(100*p),"welch %.1f calibrated %.1f  (mean tq %.2f vs welch %.2f)"%(100*cw,100*cc,tq.mean(),tw.mean()))
