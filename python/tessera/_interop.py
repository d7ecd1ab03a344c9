"""Interop: numpy arrays of offsets, pycute's Layout, CuTe DSL's printed layouts, and the
GF(2) bases Triton's LinearLayout uses. numpy and pycute are optional: imported when asked."""
import re as _re

from . import _core
from ._algebra import coalesce, make_layout, rank, size
from ._core import Layout
from ._errors import InadmissibleError

# A numpy array or a list of offsets is built element by element: at most this many.
MAX_ELEMENTS = 1 << 24


def to_numpy(layout):
    """The offsets of `layout` as a numpy array over its coordinate grid: element
    [i0, i1, ...] is layout((i0, i1, ...)), each i_k the index within top-level mode k
    (an integer shape gives a 1-D array)."""
    import numpy as np
    flat = np.array(_core.offsets(layout, MAX_ELEMENTS), dtype=np.int64)
    shape = layout.shape if isinstance(layout, Layout) else layout.outer.shape
    dims = [size(layout, [k]) for k in range(rank(layout))] if isinstance(shape, tuple) else [size(layout)]
    return flat.reshape(dims, order="F")  # CuTe's index order: the first mode fastest


def from_pycute(layout):
    """A pycute Layout (anything with `shape` and `stride`) as a tessera Layout."""
    try:
        shape, stride = layout.shape, layout.stride
    except AttributeError:
        raise TypeError(f"from_pycute: a {type(layout).__name__} has no shape and stride") from None
    return make_layout(shape, stride=stride)


def to_pycute(layout):
    """The pycute Layout of a tessera Layout (needs pycute importable)."""
    import pycute
    if not isinstance(layout, Layout):
        raise TypeError("to_pycute: pycute's Layout holds a plain layout; this is a " + type(layout).__name__)
    return pycute.Layout(_plain(layout.shape), _plain(layout.stride))


def _plain(t):
    return tuple(_plain(x) for x in t) if isinstance(t, tuple) else t


_DSL_SWIZZLE = _re.compile(r"\bS<")


def from_cute_dsl(text):
    """A layout as CuTe DSL prints it: "(4,2):(1,4)", "S<3,4,3> o 0 o (8,64):(64,1)". A dynamic
    value (printed "?") has no value to read: refused."""
    if "?" in text:
        raise InadmissibleError("from_cute_dsl: the layout holds dynamic values ('?'), which CuTe DSL does not print",
                                text, text.index("?") + 1, None,
                                _core.format_error(text, text.index("?") + 1,
                                                   "the layout holds dynamic values ('?')")[7:].rstrip("\n"))
    return _core.value(_DSL_SWIZZLE.sub("Sw<", text))


def to_cute_dsl(obj):
    """The text CuTe DSL prints for a layout, swizzle or composed layout."""
    return str(obj).replace("Sw<", "S<")


def _log2(n):
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


def to_f2(layout):
    """The GF(2) matrix of `layout` as Triton's LinearLayout writes it: one basis per bit of the
    index, basis k = [layout(2^k)], so that layout(i) is the xor of the bases of i's set bits.
    Refused (InadmissibleError, naming an index where it fails) when the size is not a power
    of two or the layout is not linear over GF(2), e.g. (2,2):(1,1), whose index 3 gives 2."""
    n = size(layout)
    bits = _log2(n)
    if bits is None:
        raise InadmissibleError(f"to_f2: {layout} has size {n}, not a power of two")
    off = _core.offsets(layout, MAX_ELEMENTS)
    bases = [off[1 << k] for k in range(bits)]
    for i, o in enumerate(off):
        x = 0
        for k in range(bits):
            if i >> k & 1:
                x ^= bases[k]
        if x != o:
            raise InadmissibleError(f"to_f2: {layout} is not linear over GF(2): index {i} gives {o}, "
                                    f"but the xor of its bases gives {x}")
    return [[b] for b in bases]


def from_f2(bases):
    """The layout whose GF(2) bases (one per index bit, Triton's [[b0], [b1], ...]) are
    `bases`, when a layout has them: (2,2,...):(b0,b1,...) coalesced. Refused when the
    bases' xor is not their sum somewhere (no layout is that map; a swizzle may be)."""
    flat = []
    for b in bases:
        b = b[0] if isinstance(b, (list, tuple)) and len(b) == 1 else b
        if not isinstance(b, int) or isinstance(b, bool) or b < 0:
            raise TypeError("from_f2: each basis is a non-negative integer [b] (one output dimension)")
        flat.append(b)
    if not flat:
        return make_layout(1, stride=0)
    L = make_layout(tuple([2] * len(flat)), stride=tuple(flat))
    off = _core.offsets(L, MAX_ELEMENTS)
    for i, o in enumerate(off):
        x = 0
        for k, b in enumerate(flat):
            if i >> k & 1:
                x ^= b
        if x != o:
            raise InadmissibleError(f"from_f2: no layout has these bases: index {i} is {x} by xor, "
                                    f"but {o} by the sum of the strides {L}")
    return coalesce(L)


__all__ = ["from_cute_dsl", "from_f2", "from_pycute", "to_cute_dsl", "to_f2", "to_numpy", "to_pycute"]
