"""to_dict(): the forms of docs/json.md, equal to what the CLI's --json prints for the same
object (tests/python compare them with the CLI's output)."""
from . import _core
from ._core import ComposedLayout, Layout, Swizzle, Tiler, TiledCopy, TiledMma

SCHEMA_VERSION = 1


def _int_tuple(t):
    return [_int_tuple(x) for x in t] if isinstance(t, tuple) else t


def _layout(layout):
    return {"text": str(layout), "shape": _int_tuple(layout.shape), "stride": _int_tuple(layout.stride)}


def _swizzle(s):
    return {"B": s.num_bits, "M": s.num_base, "S": s.num_shft}


def _tiler(t):
    form = t._form
    if isinstance(form, Layout):
        return _layout(form)
    out = {"text": str(t), "modes": []}
    for m in form:
        out["modes"].append(_tiler(m) if isinstance(m, Tiler) else _layout(m))
    return out


def value_dict(v):
    """The value form of `tessera eval --json` ("result"): {"kind", "text", ...}."""
    if isinstance(v, bool):
        raise TypeError("a bool is not a value of the algebra")
    if isinstance(v, int):
        return {"kind": "integer", "text": str(v), "value": v}
    if isinstance(v, tuple):
        return {"kind": "int_tuple", "text": str(_core.parse_int_tuple(v)), "value": _int_tuple(v)}
    if isinstance(v, Layout):
        return {"kind": "layout", **_layout(v)}
    if isinstance(v, ComposedLayout):
        if v._swizzle_outside:  # Sw o off o L: the form of L, then the swizzle and offset
            d = {"kind": "swizzled_layout", **_layout(v.outer)}
            d["text"] = str(v)
            d["swizzle"] = _swizzle(v.inner)
            d["offset"] = v.offset
            return d
        d = {"kind": "layout_after_swizzle", **_layout(v.inner)}
        d["text"] = str(v)
        d["offset"] = v.offset
        d["swizzle"] = _swizzle(v.outer)
        return d
    if isinstance(v, Swizzle):
        return {"kind": "swizzle", "text": str(v), **_swizzle(v)}
    if isinstance(v, Tiler):
        return {"kind": "tiler", **_tiler(v)}
    raise TypeError(f"no JSON form for a {type(v).__name__}")


def _document(command):
    return {"command": command, "schema_version": SCHEMA_VERSION}


def mma_dict(t):
    """`tessera mma --json` of a tiled MMA (an atom alone: its 1x1x1 tiled MMA)."""
    a = t.atom
    m, n, k = a.shape_mnk
    d = _document("mma")
    d["atom"] = {"name": a.name, "arch": a.arch, "types": a.types, "m": m, "n": n, "k": k,
                 "threads": a.num_threads}
    d["atom_layout"] = _layout(t.atom_layout_mnk)
    d["permutation"] = [None if p is None else _layout(p) for p in t.permutation_mnk]
    d["ThrID"] = _layout(a.thr_id)
    d["ALayout"] = _layout(a.tv_layout_A)
    d["BLayout"] = _layout(a.tv_layout_B)
    d["CLayout"] = _layout(a.tv_layout_C)
    d["thr_layout_vmnk"] = _layout(t.thr_layout_vmnk)
    d["layoutA_TV"] = _layout(t.tv_layout_A_tiled)
    d["layoutB_TV"] = _layout(t.tv_layout_B_tiled)
    d["layoutC_TV"] = _layout(t.tv_layout_C_tiled)
    d["tile"] = list(t.tile_shape_mnk)
    return d


def copy_dict(c):
    """`tessera copy --json` of a tiled copy."""
    a = c.atom
    d = _document("copy")
    d["atom"] = {"name": a.name, "arch": a.arch, "smem": a.smem_side, "threads": a.num_threads}
    d["bits"] = c.bits
    d["threads"] = c.size
    d["src"] = _layout(c.layout_src_tv_tiled)
    d["dst"] = _layout(c.layout_dst_tv_tiled)
    d["tile"] = _int_tuple(c.tiler_mn)
    return d


def to_dict(obj):
    """The JSON form the CLI prints for `obj` (a value of the algebra, a tiled MMA or copy)."""
    if isinstance(obj, TiledMma):
        return mma_dict(obj)
    if isinstance(obj, TiledCopy):
        return copy_dict(obj)
    return value_dict(obj)


def _install():
    for cls in (Layout, ComposedLayout, Swizzle, Tiler):
        cls.to_dict = value_dict
    TiledMma.to_dict = mma_dict
    TiledCopy.to_dict = copy_dict
