"""Pictures: the CLI's diagrams (tessera render / mma / copy) from Python objects, in every
format the CLI writes, and as notebook output (_repr_svg_, _repr_html_)."""
import html as _html
import os as _os
import re as _re

from . import _core
from ._core import ComposedLayout, Layout, MmaAtom, TiledCopy, TiledMma

# The CLI's limits (tessera/viz/layout_grid.hpp): diagrams over CELL_LIMIT cells need
# force=True (--force), and nothing over HARD_CELL_LIMIT is drawn.
CELL_LIMIT = _core.cell_limit
HARD_CELL_LIMIT = _core.hard_cell_limit

_FORMATS = ("txt", "svg", "tex", "png", "pdf", "html")
_ALIASES = {"text": "txt", "tikz": "tex"}
_EXTENSIONS = {".txt": "txt", ".svg": "svg", ".tex": "tex", ".png": "png", ".pdf": "pdf", ".html": "html"}


def _check_cells(cells, what, force):
    if cells > HARD_CELL_LIMIT:
        raise _core_error(f"{what} has {cells} cells, more than tessera draws ({HARD_CELL_LIMIT}, even with force=True)")
    if cells > CELL_LIMIT and not force:
        raise _core_error(f"{what} has {cells} cells, more than {CELL_LIMIT}: pass force=True to draw it anyway, "
                          "or draw a slice or tile of it")


def _core_error(message):
    from ._errors import Error
    return Error(message)


def _drawing(obj, force):
    """The diagram of a drawable object, after the CLI's size checks."""
    if isinstance(obj, (Layout, ComposedLayout)):
        _check_cells(_core.layout_cells(obj), f"the layout {obj}", force)
        return _core.layout_drawing(obj)
    return obj._tessera_drawing(force)


def _format_of(target, format):
    if format is not None:
        f = _ALIASES.get(format, format)
        if f not in _FORMATS:
            raise ValueError(f"unknown format '{format}': choose txt, svg, tex, png, pdf or html")
        return f
    ext = _os.path.splitext(str(target))[1].lower()
    if ext not in _EXTENSIONS:
        raise ValueError(f"cannot tell the format from '{target}': give format= txt|svg|tex|png|pdf|html "
                         "or use one of those extensions")
    return _EXTENSIONS[ext]


def draw(obj, target="svg", *, format=None, color_by=None, title=None, density=None, force=False):
    """Draws `obj` as the CLI does. `target` is a format name (txt, svg, tex, html: returns
    the text; png, pdf: returns bytes) or a file path (the format from its extension, or
    `format`; written atomically, never left half-written; returns the path).
    color_by: thread, warp, value, offset, bank, chunk or box (the CLI's --color-by);
    density: 'heatmap' or 'labels' (--heatmap / --labels); title: a title above the diagram;
    force: draw past 65536 cells (--force)."""
    name = _ALIASES.get(target, target) if isinstance(target, str) else None
    to_file = name not in _FORMATS
    fmt = _format_of(target, format) if to_file else (_format_of(None, format) if format else name)
    d = _drawing(obj, force)
    doc = d.render(fmt, color_by or "", title or "", density or "")
    if not to_file:
        return doc
    path = _os.fspath(target)
    d.write(path, doc)
    return path


def _repr_svg_(obj):
    try:
        return draw(obj, "svg")
    except Exception:  # too large, or nothing to draw: Jupyter falls back to the text form
        return None


_HEIGHT = _re.compile(r'<svg[^>]*\bheight="([0-9.]+)')


def _repr_html_(obj):
    """The interactive page (hover, isolate a thread, zoom), in an iframe of its own: its ids
    and script cannot clash with another diagram's in the same notebook, and it fetches nothing."""
    try:
        page = draw(obj, "html")
    except Exception:
        return None
    m = _HEIGHT.search(page)
    height = int(float(m.group(1))) + 160 if m else 600
    return (f'<iframe srcdoc="{_html.escape(page, quote=True)}" style="width:100%;height:{height}px;border:none" '
            'sandbox="allow-scripts"></iframe>')


class TvMap:
    """A thread-value layout drawn over the tile it indexes (`tessera render --tv TILE`):
    `tv` maps (thread, value) to an index of `tile`, a shape (M,N) taken column-major or a
    layout (m,n) -> index."""

    def __init__(self, tv, tile):
        self.tv = tv if isinstance(tv, Layout) else _core.value(tv)
        self.tile = tile if not isinstance(tile, str) else _core.value(tile)
        self._cells = _core.tv_cells(self.tv, self.tile)  # checks both now, not at drawing time

    def _tessera_drawing(self, force):
        size, rows, cols, text = self._cells
        _check_cells(rows * cols, f"the tile {text}", force)
        _check_cells(size, f"the TV layout {self.tv}", force)
        return _core.tv_drawing(self.tv, self.tile)

    def __repr__(self):
        return f"TvMap('{self.tv}', '{self.tile}')"


def _mma_drawing(self, force, only=""):
    m, n, k = self.tile_shape_mnk
    cells = (m * k if not only or "A" in only else 0) + (n * k if not only or "B" in only else 0) + \
        (m * n if not only or "C" in only else 0)
    _check_cells(cells, f"the MMA tile {m}x{n}x{k}", force)
    return self._drawing(getattr(self, "_name", self.atom.name), only)


def _copy_drawing(self, force):
    tiler = self.tiler_mn
    m = _core.call("size", tiler[0])
    n = _core.call("size", tiler[1]) if len(tiler) > 1 else 1
    _check_cells(2 * m * n, f"the copy tile {m}x{n}", force)
    return self._drawing(f"{self.atom.name} ({self.bits}-bit)")


def _install():
    from ._analysis import BankConflicts, Coalescing, Diff, EpilogueTree, Explanation, TmaArguments, Verification
    for cls in (Layout, ComposedLayout, TvMap, TiledMma, TiledCopy, MmaAtom, BankConflicts, Coalescing, TmaArguments,
                Explanation, Verification, Diff, EpilogueTree):
        cls.draw = draw
        cls._repr_svg_ = _repr_svg_
        cls._repr_html_ = _repr_html_
    TiledMma._tessera_drawing = _mma_drawing
    TiledCopy._tessera_drawing = _copy_drawing
    MmaAtom._tessera_drawing = lambda self, force: _mma_drawing(_core.make_tiled_mma(self, None, None), force)
