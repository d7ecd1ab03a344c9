#!/usr/bin/env python3
"""The coefficients of the device's GELU (erf) formula (include/tessera/kernels/epilogue_ops.hpp,
epilogue::fast::gelu), recomputed.

GELU(x) = x Phi(x) = x sigmoid(g(x)), g = logit(Phi) = ln(Phi(x) / Phi(-x)), an odd function.
g(x) ~ x P(x^2) with P of degree DEG on [0, X], fitted to minimise the largest error in Phi,
|dPhi| = Phi(1 - Phi) |dg| (a weighted minimax fit by Lawson's iterations: weighted least
squares whose weights grow where the error is largest), in 40-digit arithmetic (mpmath).
Prints the largest error in Phi and P's coefficients times -log2(e) as f32 literals, highest
degree first (the kernel's Horner order: t = x P'(x^2) is the exponent of 2 in
x / (1 + 2^t)).

  python3 tools/fit_gelu_logit.py [X=6] [DEG=6]
"""
import struct
import sys

from mpmath import erfc, log, matrix, lu_solve, mp, mpf, sqrt, cos, pi

mp.dps = 40
X = mpf(sys.argv[1]) if len(sys.argv) > 1 else mpf(6)
DEG = int(sys.argv[2]) if len(sys.argv) > 2 else 6
N = 300


def phi(x):
    return erfc(-x / sqrt(2)) / 2


def logit_phi(x):
    return log(phi(x)) - log(phi(-x))


# points: Chebyshev nodes on [0, X] (dense at both ends) and a uniform grid
xs = sorted(set([X * (1 - cos(pi * (i + mpf(1) / 2) / N)) / 2 for i in range(N)] + [X * i / N for i in range(1, N + 1)]))
target = [logit_phi(x) for x in xs]
weight = [phi(x) * phi(-x) for x in xs]  # dPhi/dg
basis = [[x * (x * x) ** k for k in range(DEG + 1)] for x in xs]
lawson = [mpf(1)] * len(xs)
best = None
for _ in range(60):
    a = matrix(DEG + 1, DEG + 1)
    b = matrix(DEG + 1, 1)
    for bs, g, w, l in zip(basis, target, weight, lawson):
        for r in range(DEG + 1):
            b[r] += l * w * w * bs[r] * g
            for c in range(DEG + 1):
                a[r, c] += l * w * w * bs[r] * bs[c]
    coef = lu_solve(a, b)
    err = [w * (sum(coef[k] * bs[k] for k in range(DEG + 1)) - g) for bs, g, w in zip(basis, target, weight)]
    worst = max(abs(e) for e in err)
    if best is None or worst < best[0]:
        best = (worst, [coef[k] for k in range(DEG + 1)])
    total = sum(l * abs(e) for l, e in zip(lawson, err))
    lawson = [l * abs(e) / total for l, e in zip(lawson, err)]

print(f"X = {X}, degree {DEG}: max |dPhi| = {mp.nstr(best[0], 5)}")
for c in reversed(best[1]):
    f = struct.unpack("f", struct.pack("f", float(-c / log(2))))[0]
    print(f"{f!r}f")
