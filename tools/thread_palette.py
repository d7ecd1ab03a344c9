#!/usr/bin/env python3
"""Chooses the 64 lane colours of `thread_color` (src/viz/colors.cpp) and prints them as the
C++ table kept there; run it again to check or change them (standard library only).

What is asked of the palette, in CIELAB (D65) with the CIE 1976 colour difference dE76:
  - 64 colours, thread t taking colour t mod 64: the 32 lanes of every warp (colours 0-31 for
    even warps, 32-63 for odd ones) as far apart as possible, and the 64 lanes of a wavefront
    (two neighbouring warps) far apart too: the smallest dE is maximised, a pair from
    different halves counting CROSS times its distance (a warp matters more);
  - every colour inside sRGB, L* in [42, 92]: dark enough to show on white, light enough
    for black lines and labels;
  - lane t's lightness one of LEVELS levels, chosen so that lanes t and t+1, t+2, t+4, t+8,
    t+16 (mod 32; neighbours in MMA fragments) never share one, for grey print.
Prints the smallest dE within lanes 0-31, within lanes 32-63 and within all 64.
"""
import math
import random

L_MIN, L_MAX = 42.0, 92.0


def finv(t):
    return t ** 3 if t > 6 / 29 else 3 * (6 / 29) ** 2 * (t - 4 / 29)


def lab_to_linear(l, a, b):
    fy = (l + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200
    x, y, z = 0.95047 * finv(fx), finv(fy), 1.08883 * finv(fz)
    return (3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
            -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
            0.0556434 * x - 0.2040259 * y + 1.0572252 * z)


def in_gamut(l, a, b, margin=0.004):
    return all(margin <= v <= 1 - margin for v in lab_to_linear(l, a, b))


def max_chroma(l, h):
    lo, hi = 0.0, 150.0
    hr = math.radians(h)
    for _ in range(30):
        mid = (lo + hi) / 2
        if in_gamut(l, mid * math.cos(hr), mid * math.sin(hr)):
            lo = mid
        else:
            hi = mid
    return lo


def project(p):
    l, a, b = p
    l = min(max(l, L_MIN), L_MAX)
    if in_gamut(l, a, b):
        return [l, a, b]
    c = math.hypot(a, b)
    cmax = max_chroma(l, math.degrees(math.atan2(b, a)))
    return [l, a * cmax / c, b * cmax / c]


def de(p, q):
    return math.dist(p, q)


def min_de(points):
    return min(de(p, q) for i, p in enumerate(points) for q in points[i + 1:])


CROSS = 1.45  # a pair from different halves counts as this much farther apart
LEVELS = 5  # lightness levels: lanes side by side differ by (L_MAX - L_MIN) / (LEVELS - 1) L* or more


def scaled(i, j, d):
    return d * (CROSS if (i < 32) != (j < 32) else 1.0)


def score(points):
    """The smallest distance, pairs across the halves scaled by CROSS."""
    return min(scaled(i, j, de(p, q)) for i, p in enumerate(points) for j, q in enumerate(points) if j > i)


def lightness_levels():
    """L* of each of lanes 0-31: LEVELS evenly spaced values in [L_MIN, L_MAX], assigned (a
    search over proper colourings of the graph EDGES) so that neighbouring lanes never share
    a level and the levels are used about equally."""
    levels = [L_MIN + (L_MAX - L_MIN) * k / (LEVELS - 1) for k in range(LEVELS)]
    rng = random.Random(7)
    adj = {t: set() for t in range(32)}
    for a, b in EDGES:
        adj[a].add(b)
        adj[b].add(a)
    best = None
    for _ in range(2000):
        order = list(range(32))
        rng.shuffle(order)
        level = {}
        for t in order:
            free = [k for k in range(LEVELS) if all(level.get(u) != k for u in adj[t])]
            if not free:
                break
            counts = [sum(1 for v in level.values() if v == k) for k in range(LEVELS)]
            level[t] = min(free, key=lambda k: (counts[k], rng.random()))
        if len(level) == 32:
            spread_ = max(sum(1 for v in level.values() if v == k) for k in range(LEVELS))
            if best is None or spread_ < best[0]:
                best = (spread_, dict(level))
    assert best, "no proper colouring of the lane graph with %d levels" % LEVELS
    return [levels[best[1][t]] for t in range(32)]


def spread(n, seed, rounds):
    """n points in gamut, lane t at lightness LIGHTNESS[t % 32], pushed apart in a* and b*
    (the closest pairs, by score's measure, repel most), the best arrangement kept."""
    rng = random.Random(seed)
    pts = [project([LIGHTNESS[i % 32], rng.uniform(-60, 60), rng.uniform(-60, 60)]) for i in range(n)]
    best, best_d = [p[:] for p in pts], score(pts)
    step = 4.0
    for r in range(rounds):
        # Each point moves away from its nearest neighbours (inverse-power weighting).
        moved = []
        for i, p in enumerate(pts):
            f = [0.0, 0.0, 0.0]
            for j, q in enumerate(pts):
                if i == j:
                    continue
                d = scaled(i, j, de(p, q)) + 1e-9
                w = 1 / d ** 6
                for k in range(3):
                    f[k] += (p[k] - q[k]) / d * w
            f[0] = 0.0  # lightness stays the lane's
            norm = math.sqrt(sum(x * x for x in f)) + 1e-30
            moved.append(project([p[k] + step * f[k] / norm for k in range(3)]))
        pts = moved
        d = score(pts)
        if d > best_d:
            best, best_d = [p[:] for p in pts], d
        step = max(0.05, step * 0.995)
    return best, best_d


# Lane pairs that sit side by side in drawings: t and t+1, t+2, t+4, t+8, t+16 (mod 32), the
# neighbours of MMA fragments (rows of 4 or 8 threads; T0, T8, T16, T24 down a column).
STEPS = (1, 2, 4, 8, 16)
EDGES = sorted({tuple(sorted((t, (t + d) % 32))) for t in range(32) for d in STEPS})


def lane_penalty(order, pts):
    """The smallest L* difference over the lane pairs that sit side by side in drawings."""
    return min(abs(pts[order[a]][0] - pts[order[b]][0]) for a, b in EDGES)


LIGHTNESS = lightness_levels()


def main():
    pts, _ = max((spread(64, seed, 800) for seed in range(6)), key=lambda r: r[1])
    warp, more = pts[:32], pts[32:]
    lgap = lgap2 = lane_penalty(list(range(32)), warp)
    lanes = warp + more
    print(f"// min dE76: lanes 0-31 {min_de(warp):.1f}, lanes 32-63 {min_de(more):.1f}, all 64 {min_de(lanes):.1f}; "
          f"min L* step between lanes t and t+1, t+2, t+4, t+8, t+16 (mod 32): {min(lgap, lgap2):.1f}")
    for t, (l, a, b) in enumerate(lanes):
        print(f"    {{{l:.2f}, {a:.2f}, {b:.2f}}},  // lane {t}")


if __name__ == "__main__":
    main()
