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
        # global_dim, box_dim, swizzle, boxes, ...: the fields of to_dict().
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
        return f"<TmaArguments: box_dim {d['box_dim']}, {d['boxes']} box(es) of {d['box_bytes']} bytes per tile>"


def tma(gmem, smem, *, bits=None, box=None):
    """The TMA arguments that copy `gmem`'s tiles (a layout with flat modes extent:stride, in
    elements; one mode of stride 1) into the shared-memory tile `smem` (a layout, a swizzled
    layout, or a GMMA atom name such as 'gmma_k_sw128_bf16', which sets `bits`): `tessera tma
    GMEM SMEM`. `bits`: the element width (default 16); `box`: box dims per gmem mode (0:
    derive), checked rather than derived (--box). A copy TMA cannot make raises
    InadmissibleError naming the rule (argument 1: the global tensor's, 2: the tile's)."""
    return TmaArguments(_core.tma(gmem, smem, bits, box))


class Explanation:
    """An expression's derivation, step by step, as the algebra ran it (`tessera explain`):
    a sequence of its top-level steps (dicts as in the JSON: "step", "operation", "expression",
    "inputs", "refused", "result", "items" with notes and inner steps). str() is the CLI's
    text, to_dict() its --json; `value` is the result (None when refused), `error` the refusal
    as a tessera error (None when it evaluates). Drawn: every input layout and every step whose
    value is a layout, one captioned panel each."""

    def __init__(self, core, depth):
        self._core = core
        self._depth = depth

    @property
    def expression(self):
        return self._core.expression

    @property
    def value(self):
        return self._core.value

    @property
    def error(self):
        r = self._core.refusal
        if r is None:
            return None
        from ._errors import InadmissibleError, IntegerOverflowError
        message, column, overflow = r
        display = _core.format_error(self.expression, column or 0, message)
        display = display[7:] if display.startswith("error: ") else display
        cls = IntegerOverflowError if overflow else InadmissibleError
        return cls(message, self.expression, column, None, display.rstrip("\n"))

    @property
    def ok(self):
        return self._core.refusal is None

    @property
    def steps(self):
        return self.to_dict()["steps"]

    def __iter__(self):
        return iter(self.steps)

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, i):
        return self.steps[i]

    def to_dict(self):
        return _json.loads(self._core.json(self._depth))

    def text(self):
        return self._core.text(self._depth)

    def __str__(self):
        return self.text()

    def _tessera_drawing(self, force):
        return self._core._drawing(self._depth, force)

    def __repr__(self):
        last = self.text().rstrip("\n").splitlines()[-1]
        return f"<Explanation of {self.expression}: {len(self)} step(s), {last}>"


def explain(expression, *, depth=0):
    """The derivation of `expression` (text in `tessera eval`'s notation), as `tessera explain`
    gives it; `depth`: operations shown down to this nesting level (0: all; --depth). Malformed
    text raises ParseError; a refused expression is explained up to the refusal (see `error`)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth takes a count of levels (0: all), not {depth!r}")
    if not isinstance(expression, str):
        raise TypeError(f"explain takes the expression as text, not a {type(expression).__name__}")
    if not expression.strip():
        raise ValueError("the expression is empty: give one such as 'logical_divide((4,2,3):(2,1,8), 4:2)'")
    return Explanation(_core.explain(expression), depth)


class Verification:
    """A partition trace checked against the TV maps it declares (`tessera verify`): `ok`,
    str() the CLI's report, to_dict() its --json (maps with their counts and first findings).
    Drawn: the expected and the recorded tile of the map in focus (`focus`: the one asked
    for, else the first with findings, else the first)."""

    _memory = "trace"

    def __init__(self, core):
        self._core = core

    @property
    def ok(self):
        return self._core.ok

    @property
    def focus(self):
        return self._core.focus

    @property
    def maps(self):
        return self.to_dict()["maps"]

    def to_dict(self):
        return _json.loads(self._core.json())

    def text(self):
        return self._core.text()

    def __str__(self):
        return self._core.text()

    def __bool__(self):
        return self._core.ok

    def _tessera_drawing(self, force):
        from ._draw import _check_cells
        _check_cells(self._core.cells, f"the tile of map {self.focus}", force)
        return self._core._drawing()

    def __repr__(self):
        return f"<Verification of {self._core.name}: {'OK' if self.ok else 'FAILED'}>"


def verify(trace=None, *, text=None, max=10, map=None):
    """Checks a partition trace (`tessera verify TRACE`): `trace` a path to the trace file, or
    `text=` the trace itself; every (thread, value) of each declared map must be recorded
    exactly once at the coordinate the map gives it. `max`: findings listed per map (--max);
    `map`: check only that map (--map). A malformed or unreadable trace raises ParseError with
    the reader's message (file:line:col), as the CLI prints it."""
    if (trace is None) == (text is None):
        raise TypeError("give the trace as a path, or as text=, not both")
    if isinstance(max, bool) or not isinstance(max, int):
        raise TypeError(f"max takes a count, not {max!r}")
    if text is not None:
        return Verification(_core.verify_text(text, "<text>", max, map or ""))
    import os
    return Verification(_core.verify_file(os.fspath(trace), max, map or ""))


class Diff:
    """Two layouts, or two TV maps over a tile, compared as functions (`tessera diff`): the
    verdict ("equal_to_the_letter", "equal_as_functions" or "differ"), `equal`, and str() the
    one-line verdict the CLI prints; to_dict() is its --json (with the first `max` differing
    cells). Drawn: A and B side by side, differing cells marked, the verdict below (what
    `tessera diff -o FILE` writes)."""

    def __init__(self, core, width):
        self._core = core
        self._width = width

    @property
    def equal(self):
        return self._core.equal

    @property
    def verdict(self):
        return self.to_dict()["verdict"]

    @property
    def summary(self):
        return self._core.line

    @property
    def cells(self):
        return self.to_dict()["cells"]

    def to_dict(self):
        return _json.loads(self._core.json())

    def __str__(self):
        return self._core.line

    def __bool__(self):
        return self._core.equal

    def _tessera_drawing(self, force):
        from ._draw import _check_cells
        for what, cells in self._core.drawn_cells:
            _check_cells(cells, what, force)
        return self._core._drawing(self._width)

    def __repr__(self):
        return f"<Diff: {self._core.line}>"


def diff(a, b, *, tv=None, max=100, width=120):
    """Compares `a` and `b` as `tessera diff A B` does: layouts, swizzled layouts or shapes
    (their column-major layouts) at every 1-D index, or, with `tv` a tile (a shape (M,N) or a
    layout), TV layouts at every (thread, value) (--tv TILE). `max`: differing cells listed in
    to_dict() (--max); `width`: the text drawing puts A and B side by side within this many
    columns (--width; 0: B below A)."""
    if isinstance(max, bool) or not isinstance(max, int):
        raise TypeError(f"max takes a count, not {max!r}")
    if isinstance(width, bool) or not isinstance(width, int) or width < 0:
        raise ValueError(f"width takes a count of columns (0: B below A), not {width!r}")
    return Diff(_core.diff(a, b, tv, max), width)


class EpilogueCheck:
    """One output of an epilogue tree's host check (a row of `tessera epilogue --check`):
    `name` ("D", an aux store's or a reduction's output), `kind` ("D", "AuxStore",
    "RowReduction", "ColumnReduction", "ScalarReduction"), `type` (the element type, or the
    reduction: amax, max, sum), `count` (values compared), `max_error` (the largest
    |emulated - reference|), `ratio` (the largest error / bound: at most 1 passes; inf where
    a value is NaN or infinite and the math is finite), `bound` (the bound at the element of
    that worst ratio, not necessarily the element of the largest error) and `passed`."""

    __slots__ = ("name", "kind", "type", "count", "max_error", "ratio", "bound", "passed")

    def __init__(self, name, kind, type, count, max_error, ratio, bound, passed):
        self.name, self.kind, self.type, self.count = name, kind, type, count
        self.max_error, self.ratio, self.bound, self.passed = max_error, ratio, bound, passed

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return (f"<EpilogueCheck {self.name}: {self.kind} {self.type}, max error {self.max_error:.3g}, "
                f"{self.ratio:.3g} of the bound, {'pass' if self.passed else 'FAIL'}>")


class EpilogueCheckResult:
    """The host check of an epilogue tree on an m x n tile (`tessera epilogue --check MxN
    --seed S`): `outputs`, one EpilogueCheck per output in the tree's order; `passed` (and
    bool()) when every output is within its bound; iterable over the outputs."""

    def __init__(self, m, n, seed, outputs):
        self.m, self.n, self.seed = m, n, seed
        self.outputs = [EpilogueCheck(*o) for o in outputs]

    @property
    def passed(self):
        return all(o.passed for o in self.outputs)

    def __bool__(self):
        return self.passed

    def __iter__(self):
        return iter(self.outputs)

    def __len__(self):
        return len(self.outputs)

    def __repr__(self):
        return (f"<EpilogueCheckResult {self.m}x{self.n} seed {self.seed}: "
                f"{'pass' if self.passed else 'FAIL'} ({len(self.outputs)} outputs)>")


class _EpilogueDrawing:
    """An epilogue tree as draw() renders and writes it: its own document (boxes and edges),
    not the cell grid of the other drawings, so txt, svg, tex and html only, no color_by or
    density."""

    def __init__(self, core):
        self._core = core

    def render(self, format, color_by="", title="", density=""):
        if color_by or density:
            raise ValueError("an epilogue tree is drawn as boxes, not cells: color_by and density do not apply")
        return self._core.document(format, title)

    def write(self, path, content):
        self._core.write(path, content)


class EpilogueTree:
    """An epilogue visitor tree read from text as `tessera epilogue TREE` reads it (the grammar:
    docs/cli.md, "tessera epilogue"): str() is the tree in the grammar, one statement per sink
    plus D's (it reads back to the same tree); `cpp` is its C++ type (what --cpp prints);
    to_dict() is --json's document without the check; check() runs --check's host check.
    Drawn as --svg/-o draws it: the root D on top, each node a box (draw(), _repr_svg_)."""

    def __init__(self, core):
        self._core = core

    @property
    def cpp(self):
        """The tree's C++ type (tessera::kernels::tree's names), as `tessera epilogue --cpp`."""
        return self._core.cpp

    @property
    def output(self):
        """D's element type: f32, bf16, f16, e4m3 or e5m2."""
        return self._core.output

    def to_dict(self):
        """`tessera epilogue --json --no-check`'s document: the tree, D's type, the C++ type and
        the nodes (position, kind, label, annotation, cpp, children)."""
        return _json.loads(self._core.json())

    def check(self, m=16, n=24, *, seed=1):
        """The CLI's host check (--check MxN --seed S): the tree evaluated on an m x n tile of
        generated inputs through the nodes' own f32 host ops and compared with the math in
        double, each output within its rounding and the activations' stated bounds. Returns an
        EpilogueCheckResult (true when every output passes)."""
        for what, v in (("m", m), ("n", n), ("seed", seed)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{what} takes an integer, not {v!r}")
        if seed < 0:
            raise ValueError(f"seed takes a non-negative integer, not {seed}")
        return EpilogueCheckResult(m, n, seed, self._core.check(m, n, seed))

    def __str__(self):
        return self._core.text

    def __eq__(self, other):
        return isinstance(other, EpilogueTree) and self._core == other._core

    __hash__ = None

    def _tessera_drawing(self, force):
        return _EpilogueDrawing(self._core)

    def __repr__(self):
        return f"epilogue_tree('{self._core.text}')"


def epilogue_tree(text):
    """Reads an epilogue visitor tree (statements separated by ';', e.g.
    'store(bf16, silu(acc * sa[m] * sb[n] + bias[n]))'; docs/cli.md, "tessera epilogue").
    Malformed text raises ParseError with the column and a caret, as the CLI prints it."""
    if not isinstance(text, str):
        raise TypeError(f"epilogue_tree takes the tree's text, not {type(text).__name__}")
    return EpilogueTree(_core.epilogue_tree(text))
