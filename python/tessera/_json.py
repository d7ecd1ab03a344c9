"""to_dict(): the forms of docs/json.md, written by the same C++ as the CLI's --json
(tessera/rt/json.hpp), so both print the same document for the same object."""
import json as _json

from . import _core
from ._core import ComposedLayout, Layout, Swizzle, Tiler, TiledCopy, TiledMma


def to_dict(obj):
    """The JSON form the CLI prints for `obj`: a value of the algebra (eval's "result"), a
    tiled MMA (`tessera mma --json`), a tiled copy (`tessera copy --json`) or an analysis."""
    if not isinstance(obj, (Layout, ComposedLayout, Swizzle, Tiler, TiledMma, TiledCopy)) and \
            hasattr(obj, "to_dict"):
        return obj.to_dict()
    return _json.loads(_core.to_json(obj))


def _install():
    for cls in (Layout, ComposedLayout, Swizzle, Tiler, TiledMma, TiledCopy):
        cls.to_dict = to_dict
