"""Analyses of how threads touch memory: shared-memory bank conflicts (`tessera banks`) and
global-memory coalescing (`tessera gmem`). The analysis, its text, its JSON and its drawing
are the CLI's C++ (tessera/analysis/report.hpp, the viz builders); this file only names them."""
import json as _json

from . import _core


class _MemoryReport:
    """What `tessera banks` / `tessera gmem` compute for one memory tile and one access."""

    _command = ""

    def __init__(self, core):
        self._core = core

    def to_dict(self, summary_only=False):
        """The CLI's --json document (with --summary when summary_only)."""
        return _json.loads(self._core.json(summary_only))

    def text(self, summary_only=False):
        """What the CLI prints (with --summary when summary_only)."""
        return self._core.text(summary_only)

    def __str__(self):
        return self._core.text(False)

    @property
    def summary(self):
        """The summary line's numbers, as the JSON's "summary" object."""
        return _json.loads(self._core.json(True))["summary"]

    @property
    def instructions(self):
        """One dict per instruction (32 threads x one access step), as the JSON's."""
        return self.to_dict()["instructions"]

    def _tessera_drawing(self, force):
        from ._draw import _check_cells
        _check_cells(self._core.cells, f"the {self._memory} tile {self._core.tile_text}", force)
        return self._core._drawing()

    def __repr__(self):
        return f"<{type(self).__name__} of {self._core.tile_text}: {self.text(True).splitlines()[-1]}>"


class BankConflicts(_MemoryReport):
    """Bank conflicts of an access to a shared-memory tile (`tessera banks`). Drawn, the tile
    is coloured by bank, conflicted cells outlined in red."""

    _memory = "smem"

    @property
    def conflict_free(self):
        return self.summary["conflict_free"]

    @property
    def max_degree(self):
        return self.summary["max_degree"]

    @property
    def conflict_factor(self):
        return self.summary["conflict_factor"]


class Coalescing(_MemoryReport):
    """Coalescing of an access to a global-memory tile (`tessera gmem`): 32-byte sectors and
    128-byte lines per instruction against the minimum. Drawn, the tile is coloured by sector,
    cells in partly used sectors of over-the-minimum instructions outlined in red."""

    _memory = "gmem"

    @property
    def coalesced(self):
        return self.summary["coalesced"]

    @property
    def sector_efficiency(self):
        return self.summary["sector_efficiency"]


def banks(smem, tv=None, *, vec=None, access=None, side=None, bits=None):
    """Bank conflicts of an access to the shared-memory tile `smem` (a layout (M,N):(s,t),
    possibly swizzled): `tessera banks SMEM`. The access is either `tv`, a TV layout
    (thread, value) -> column-major index of the tile, with `vec` consecutive values per access
    (--tv, --vec), or `access`, a TiledCopy (make_tiled_copy, make_tiled_copy_A, ...) whose
    `side` ('src' or 'dst'; default: the atom's shared-memory side) lies in `smem` (--access).
    `bits`: the element width (default 16, or the tiled copy's)."""
    return BankConflicts(_core.banks(smem, tv, vec, access, side, bits))


def gmem(gmem, tv=None, *, vec=None, access=None, side=None, bits=None, base=0):
    """Coalescing of an access to the global-memory tile `gmem` (`tessera gmem GMEM`); the
    access as for `banks` (a tiled copy's side defaults to its source: a load); `base`: the
    tile's base address in bytes (--base)."""
    return Coalescing(_core.gmem(gmem, tv, vec, access, side, bits, base))


class TmaArguments:
    """The cuTensorMapEncodeTiled arguments of a TMA copy of a global tensor's tiles into a
    shared-memory tile (`tessera tma`). str() is what the CLI prints, to_dict() its --json;
    drawn, the tile shows which box (copy) fills each cell."""

    _memory = "smem"

    def __init__(self, core):
        self._core = core

    def to_dict(self):
        return _json.loads(self._core.json())

    def text(self):
        return self._core.text()

    def __str__(self):
        return self._core.text()

    def __getattr__(self, name):
        # globalDim, boxDim, boxes, ...: the fields of to_dict().
        d = self.to_dict()
        if name in d and name not in ("command", "schema_version"):
            return d[name]
        raise AttributeError(f"'TmaArguments' has no attribute '{name}'")

    def _tessera_drawing(self, force):
        from ._draw import _check_cells
        _check_cells(self._core.cells, f"the smem tile {self._core.smem_text}", force)
        return self._core._drawing()

    def __repr__(self):
        d = self.to_dict()
        return f"<TmaArguments: boxDim {d['boxDim']}, {d['boxes']} box(es) of {d['box_bytes']} bytes per tile>"


def tma(gmem, smem, *, bits=None, box=None):
    """The TMA arguments that copy `gmem`'s tiles (a layout with flat modes extent:stride, in
    elements; one mode of stride 1) into the shared-memory tile `smem` (a layout, a swizzled
    layout, or a GMMA atom name such as 'gmma_k_sw128_bf16', which sets `bits`): `tessera tma
    GMEM SMEM`. `bits`: the element width (default 16); `box`: box dims per gmem mode (0:
    derive), checked rather than derived (--box). A copy TMA cannot make raises
    InadmissibleError naming the rule (argument 1: the global tensor's, 2: the tile's)."""
    return TmaArguments(_core.tma(gmem, smem, bits, box))
