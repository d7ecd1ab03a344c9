"""Hypothesis strategies for tessera's objects (needs Debian's python3-hypothesis):

    from hypothesis import given
    from tessera.strategies import layouts

    @given(layouts())
    def test_coalesce_keeps_the_function(L):
        assert tessera.equal_as_functions(tessera.coalesce(L), L)

Shapes are nested tuples of small positive extents, strides small integers, so that every
layout can be walked element by element."""
from hypothesis import strategies as st

from ._algebra import make_composed_layout, make_layout
from ._core import Swizzle


def shapes(max_rank=3, max_depth=2, max_extent=8, max_size=4096):
    """Nested tuples of positive integers (an integer at depth 0) of at most `max_size` elements."""
    leaf = st.integers(1, max_extent)

    def nest(depth):
        if depth == 0:
            return leaf
        return st.one_of(leaf, st.lists(nest(depth - 1), min_size=1, max_size=max_rank).map(tuple))

    return nest(max_depth).filter(lambda s: _size(s) <= max_size)


def _size(s):
    if isinstance(s, int):
        return s
    n = 1
    for e in s:
        n *= _size(e)
    return n


def _like(shape, ints):
    """A tuple shaped like `shape`, leaves drawn from `ints`."""
    if isinstance(shape, int):
        return ints
    return st.tuples(*[_like(e, ints) for e in shape])


@st.composite
def layouts(draw, max_rank=3, max_depth=2, max_extent=8, max_size=4096, max_stride=64, negative=False):
    """Any layout: a shape from `shapes` and a congruent stride in [0, max_stride] (or
    [-max_stride, max_stride] with negative=True)."""
    shape = draw(shapes(max_rank, max_depth, max_extent, max_size))
    stride = draw(_like(shape, st.integers(-max_stride if negative else 0, max_stride)))
    return make_layout(shape, stride=stride)


@st.composite
def compact_layouts(draw, max_rank=3, max_depth=2, max_extent=8, max_size=4096):
    """Bijective layouts of [0, size): a shape and the strides of a permutation of its modes,
    so complements and inverses are admissible."""
    shape = draw(shapes(max_rank, max_depth, max_extent, max_size))
    flat = list(_flat(shape))
    order = draw(st.permutations(range(len(flat))))
    strides, span = [0] * len(flat), 1
    for k in order:
        strides[k] = span if flat[k] != 1 else 0
        span *= flat[k]
    return make_layout(shape, stride=_unflat(shape, iter(strides)))


def _flat(t):
    if isinstance(t, int):
        yield t
    else:
        for e in t:
            yield from _flat(e)


def _unflat(shape, it):
    return next(it) if isinstance(shape, int) else tuple(_unflat(e, it) for e in shape)


@st.composite
def swizzles(draw, max_bits=3, max_base=4):
    """Swizzle<B,M,S> with B <= max_bits, M <= max_base and |S| >= B."""
    b = draw(st.integers(0, max_bits))
    m = draw(st.integers(0, max_base))
    s = draw(st.integers(b, b + 3)) * draw(st.sampled_from([1, -1]))
    if m + min(s, 0) < 0:  # the source bits must lie above bit 0
        s = abs(s)
    return Swizzle(b, m, s)


@st.composite
def swizzled_layouts(draw, max_size=4096):
    """Sw o 0 o L with L compact (the shared-memory tiles of CuTe's GMMA atoms are of this form)."""
    return make_composed_layout(draw(swizzles()), 0, draw(compact_layouts(max_size=max_size)))


def _tile_extents(shape):
    """The extents a tile of a mode of this shape may have so that it divides the mode in its
    mixed radix (CuTe's divisibility condition): a product of leading extents times a divisor
    of the next one."""
    out, prefix = {1}, 1
    for e in _flat(shape):
        out |= {prefix * d for d in range(1, e + 1) if e % d == 0}
        prefix *= e
    return sorted(out)


@st.composite
def dividing_tilers(draw, layout):
    """A tiler of `layout` (one extent per top-level mode) that divides each mode in its mixed
    radix, so the divide family is admissible on it."""
    shape = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    return tuple(draw(st.sampled_from(_tile_extents(m))) for m in shape)


__all__ = ["compact_layouts", "dividing_tilers", "layouts", "shapes", "swizzled_layouts", "swizzles"]
