"""tessera.gemm_grouped on an sm_90 GPU against an FP64 reference and torch._grouped_mm (marked
`gpu`: ctest python_gpu_test, skipped without an sm_90 GPU, PyTorch or the module's CUDA part).

Each case fills the output with NaN first (a poisoned output: every row of a group must be
written), computes each group's product in FP64 from the same rounded inputs, and asks that
tessera's error, relative to the size of the terms (|a| @ |b|), stay within what the element
type allows and within a small multiple of torch._grouped_mm's own error where torch runs the
case. Rows past the last offset, and the padding of an output with a longer leading dimension,
must stay NaN: nothing outside the groups' rows of D is written."""
import math

import pytest

import tessera as ts

torch = pytest.importorskip("torch")


def _sm90():
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not (ts.has_cuda and _sm90()),
                                 reason="needs an sm_90 GPU, PyTorch and tessera's CUDA part")]

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}
# Relative error allowed against |a| @ |b|: D's rounding (half an ulp) plus f32 accumulation.
TOL = {torch.bfloat16: 2**-8, torch.float16: 2**-11}

# Tokens per group: uniform, skewed with empty groups (first and last among them), residues
# (no count a multiple of 128), a single non-empty group, all but one empty.
COUNTS = {
    "uniform": [128] * 8,
    "skewed": [0, 300, 1, 0, 77, 513, 0, 200, 0],
    "residues": [65, 129, 255, 3, 191],
    "one": [333],
    "lonely": [0, 0, 0, 250, 0, 0],
}
# (K, N): tile multiples and residues of the 128 x 256 x 64 tile (K and N whole 16 bytes).
SIZES = [(256, 512), (72, 200), (1024, 136)]


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(4321)
    return g


def rand(shape, dtype, gen):
    return (torch.rand(shape, generator=gen, device="cuda") * 2 - 1).to(dtype)


def weights(groups, k, n, dtype, layout, gen):
    """mat_b (G, K, N): the transposed view of a dense (G, N, K) ("gnk", a Linear's weight) or
    a dense (G, K, N) ("gkn")."""
    if layout == "gnk":
        return rand((groups, n, k), dtype, gen).transpose(-2, -1)
    return rand((groups, k, n), dtype, gen)


def offsets(counts):
    ends = []
    total = 0
    for c in counts:
        total += c
        ends.append(total)
    return torch.tensor(ends, dtype=torch.int32, device="cuda"), total


def reference(a, b, counts, alpha=1.0, beta=0.0, c=None):
    """(D in FP64, the scale |alpha| |a| @ |b| + |beta c|) per group, rows past the groups None."""
    rows = sum(counts)
    ref = torch.zeros((rows, b.shape[2]), dtype=torch.float64, device="cuda")
    scale = torch.zeros_like(ref)
    start = 0
    for g, cnt in enumerate(counts):
        x = a[start:start + cnt].double()
        w = b[g].double()
        ref[start:start + cnt] = alpha * (x @ w)
        scale[start:start + cnt] = abs(alpha) * (x.abs() @ w.abs())
        if beta != 0.0:
            ref[start:start + cnt] += beta * c[start:start + cnt].double()
            scale[start:start + cnt] += abs(beta) * c[start:start + cnt].double().abs()
        start += cnt
    return ref, scale


def relative_error(d, ref, scale):
    if d.numel() == 0:
        return 0.0
    return ((d.double() - ref).abs() / scale.clamp_min(1e-30)).max().item()


def torch_grouped(a, b, offs):
    """torch._grouped_mm's answer, or None where this torch has none or refuses the case."""
    if not hasattr(torch, "_grouped_mm") or a.dtype != torch.bfloat16:
        return None
    try:
        d = torch._grouped_mm(a, b, offs=offs)
    except (RuntimeError, TypeError, ValueError, NotImplementedError):
        return None
    torch.cuda.synchronize()
    return d


def check(d, ref, scale, dtype, rows, against=None):
    got = d[:rows]
    assert not torch.isnan(got).any(), "a row of a group was not written"
    err = relative_error(got, ref, scale)
    bound = TOL[dtype]
    if against is not None:
        bound = max(bound, 4 * relative_error(against[:rows], ref, scale))
    assert err <= bound, f"relative error {err:.3g} > {bound:.3g}"
    return err


@pytest.mark.parametrize("counts", list(COUNTS), ids=list(COUNTS))
@pytest.mark.parametrize("k, n", SIZES)
@pytest.mark.parametrize("dt, layout", [("bf16", "gnk"), ("bf16", "gkn"), ("f16", "gnk")])
def test_matches_fp64_and_torch(gen, counts, k, n, dt, layout):
    dtype = DTYPES[dt]
    cnt = COUNTS[counts]
    offs, rows = offsets(cnt)
    extra = 37  # rows past offs[G-1]: never written
    a = rand((rows + extra, k), dtype, gen)
    b = weights(len(cnt), k, n, dtype, layout, gen)
    out = torch.full((rows + extra, n), math.nan, dtype=dtype, device="cuda")
    assert ts.gemm_grouped(a, b, offs, out) is out
    torch.cuda.synchronize()
    ref, scale = reference(a, b, cnt)
    check(out, ref, scale, dtype, rows, torch_grouped(a[:rows], b, offs))
    assert torch.isnan(out[rows:]).all(), "rows past the last offset were written"


@pytest.mark.parametrize("layout", ["gnk", "gkn"])
def test_out_none_allocates_and_matches(gen, layout):
    cnt = COUNTS["skewed"]
    offs, rows = offsets(cnt)
    a = rand((rows, 256), torch.bfloat16, gen)
    b = weights(len(cnt), 256, 384, torch.bfloat16, layout, gen)
    d = ts.gemm_grouped(a, b, offs)
    torch.cuda.synchronize()
    assert isinstance(d, torch.Tensor) and d.shape == (rows, 384) and d.dtype == torch.bfloat16
    assert d.device == a.device and d.stride() == (384, 1)
    ref, scale = reference(a, b, cnt)
    check(d, ref, scale, torch.bfloat16, rows, torch_grouped(a, b, offs))


def test_padded_rows_write_nothing_outside_d(gen):
    cnt = COUNTS["residues"]
    offs, rows = offsets(cnt)
    k, n = 128, 192
    a = rand((rows, k + 24), torch.bfloat16, gen)[:, :k]          # lda = K + 24
    b = weights(len(cnt), k, n, torch.bfloat16, "gnk", gen)
    buf = torch.full((rows, n + 40), math.nan, dtype=torch.bfloat16, device="cuda")
    out = buf[:, :n]                                               # ldd = N + 40
    ts.gemm_grouped(a, b, offs, out)
    torch.cuda.synchronize()
    ref, scale = reference(a, b, cnt)
    check(out, ref, scale, torch.bfloat16, rows)
    assert torch.isnan(buf[:, n:]).all(), "the padding beside D was written"


@pytest.mark.parametrize("in_place", [False, True])
def test_alpha_beta_and_c(gen, in_place):
    cnt = COUNTS["skewed"]
    offs, rows = offsets(cnt)
    k, n = 192, 256
    a = rand((rows, k), torch.bfloat16, gen)
    b = weights(len(cnt), k, n, torch.bfloat16, "gnk", gen)
    c = rand((rows, n), torch.bfloat16, gen)
    ref, scale = reference(a, b, cnt, alpha=0.75, beta=-1.5, c=c)
    if in_place:
        out = c.clone()
        ts.gemm_grouped(a, b, offs, out, alpha=0.75, beta=-1.5, c=out)
    else:
        out = torch.full((rows, n), math.nan, dtype=torch.bfloat16, device="cuda")
        ts.gemm_grouped(a, b, offs, out, alpha=0.75, beta=-1.5, c=c)
    torch.cuda.synchronize()
    check(out, ref, scale, torch.bfloat16, rows)


def test_k_zero_gives_beta_c(gen):
    cnt = [5, 0, 130]
    offs, rows = offsets(cnt)
    a = torch.empty((rows, 0), dtype=torch.bfloat16, device="cuda")
    b = torch.empty((len(cnt), 0, 64), dtype=torch.bfloat16, device="cuda")
    c = rand((rows, 64), torch.bfloat16, gen)
    out = torch.full((rows, 64), math.nan, dtype=torch.bfloat16, device="cuda")
    out2 = torch.full_like(out, math.nan)
    ts.gemm_grouped(a, b, offs, out, beta=2.0, c=c)
    ts.gemm_grouped(a, b, offs, out2)
    torch.cuda.synchronize()
    assert torch.equal(out, (2 * c.float()).to(torch.bfloat16)), "K = 0: D = beta C"
    assert torch.equal(out2, torch.zeros_like(out2)), "K = 0, beta = 0: D = 0"


def test_runs_on_the_given_stream_after_its_producers(gen):
    cnt = COUNTS["uniform"]
    offs, rows = offsets(cnt)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        a = rand((rows, 512), torch.bfloat16, gen)   # produced on the side stream
        b = weights(len(cnt), 512, 256, torch.bfloat16, "gnk", gen)
        out = torch.full((rows, 256), math.nan, dtype=torch.bfloat16, device="cuda")
        ts.gemm_grouped(a, b, offs, out, stream=side)
    side.synchronize()
    ref, scale = reference(a, b, cnt)
    check(out, ref, scale, torch.bfloat16, rows)


def test_repeated_calls_are_bitwise_deterministic(gen):
    cnt = COUNTS["skewed"]
    offs, rows = offsets(cnt)
    a = rand((rows, 640), torch.bfloat16, gen)
    b = weights(len(cnt), 640, 512, torch.bfloat16, "gkn", gen)
    first = ts.gemm_grouped(a, b, offs)
    second = ts.gemm_grouped(a, b, offs)
    torch.cuda.synchronize()
    assert torch.equal(first, second)


def test_f16_with_a_gkn_weight_is_refused_with_the_reason(gen):
    offs, rows = offsets([64, 64])
    a = rand((rows, 64), torch.float16, gen)
    b = weights(2, 64, 64, torch.float16, "gkn", gen)
    with pytest.raises(ts.GemmError, match=r"no kernel for f16 with weights \(G, K, N\)") as e:
        ts.gemm_grouped(a, b, offs)
    assert e.value.status == "unsupported"


def test_offsets_in_host_memory_are_refused(gen):
    a = rand((128, 64), torch.bfloat16, gen)
    b = weights(2, 64, 64, torch.bfloat16, "gnk", gen)
    with pytest.raises(ValueError, match="offs is in CPU memory"):
        ts.gemm_grouped(a, b, torch.tensor([64, 128], dtype=torch.int32))


# ---- the ptr-array form: lists of per-group arrays ------------------------------------------------

# Per-group (M, N, K): residues, an empty M, a K = 0 group (D = beta C, else 0), an N of 8.
LIST_SHAPES = [(300, 256, 192), (0, 64, 64), (77, 136, 72), (1, 8, 1024), (129, 512, 0), (513, 200, 328)]


@pytest.mark.parametrize("layout", ["gnk", "gkn"])
@pytest.mark.parametrize("given", [True, False], ids=["out", "out_none"])
def test_lists_match_fp64_per_group(gen, layout, given):
    a = [rand((m, k), torch.bfloat16, gen) for m, n, k in LIST_SHAPES]
    b = [rand((n, k), torch.bfloat16, gen).t() if layout == "gnk" else rand((k, n), torch.bfloat16, gen)
         for m, n, k in LIST_SHAPES]
    if given:
        out = [torch.full((m, n), math.nan, dtype=torch.bfloat16, device="cuda") for m, n, k in LIST_SHAPES]
        assert ts.gemm_grouped(a, b, out=out) is out
    else:
        out = ts.gemm_grouped(a, b)
        assert [tuple(d.shape) for d in out] == [(m, n) for m, n, k in LIST_SHAPES]
    torch.cuda.synchronize()
    for g, (x, w, d) in enumerate(zip(a, b, out)):
        ref = x.double() @ w.double()
        scale = x.double().abs() @ w.double().abs()
        assert not torch.isnan(d).any(), f"group {g}: an element was not written"
        if x.shape[1] == 0:
            assert torch.equal(d, torch.zeros_like(d)), f"group {g}: K = 0 gives D = 0"
        else:
            assert relative_error(d, ref, scale) <= TOL[torch.bfloat16], f"group {g}"


def test_lists_with_alpha_beta_c_in_place(gen):
    shapes = [(200, 128, 64), (33, 256, 128), (64, 64, 0)]
    a = [rand((m, k), torch.bfloat16, gen) for m, n, k in shapes]
    b = [rand((n, k), torch.bfloat16, gen).t() for m, n, k in shapes]
    c = [rand((m, n), torch.bfloat16, gen) for m, n, k in shapes]
    refs = [0.5 * (x.double() @ w.double()) - 2.0 * y.double() for x, w, y in zip(a, b, c)]
    scales = [0.5 * (x.double().abs() @ w.double().abs()) + 2.0 * y.double().abs() for x, w, y in zip(a, b, c)]
    ts.gemm_grouped(a, b, out=c, alpha=0.5, beta=-2.0, c=c)
    torch.cuda.synchronize()
    for g, (d, ref, scale) in enumerate(zip(c, refs, scales)):
        assert relative_error(d, ref, scale) <= TOL[torch.bfloat16], f"group {g}"


def test_lists_f16(gen):
    shapes = [(130, 64, 256), (5, 128, 64)]
    a = [rand((m, k), torch.float16, gen) for m, n, k in shapes]
    b = [rand((n, k), torch.float16, gen).t() for m, n, k in shapes]
    out = ts.gemm_grouped(a, b)
    torch.cuda.synchronize()
    for x, w, d in zip(a, b, out):
        assert relative_error(d, x.double() @ w.double(), x.double().abs() @ w.double().abs()) <= TOL[torch.float16]


# ---- the fused epilogue: activation(alpha a @ b + bias) -------------------------------------------

F = torch.nn.functional
ACTIVATIONS = {
    None: lambda x: x,
    "relu": torch.relu,
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
}


def fused_reference(ref, scale, counts, bias):
    """The plain reference with group g's bias row added to its rows (and to the scale)."""
    if bias is None:
        return ref, scale
    start = 0
    for g, cnt in enumerate(counts):
        ref[start:start + cnt] += bias[g].double()
        scale[start:start + cnt] += bias[g].double().abs()
        start += cnt
    return ref, scale


# The activations' slopes stay below 1.13, so the pre-activation error passes through scaled by
# at most that; D's own rounding is half an ulp of a value no larger than the scale.
FUSED_TOL = 1.5 * TOL[torch.bfloat16]


@pytest.mark.parametrize("activation", list(ACTIVATIONS), ids=[str(a) for a in ACTIVATIONS])
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no_bias"])
@pytest.mark.parametrize("counts, k, n", [("skewed", 72, 200), ("residues", 1024, 136)])
def test_fused_epilogue_matches_fp64(gen, activation, with_bias, counts, k, n):
    cnt = COUNTS[counts]
    offs, rows = offsets(cnt)
    extra = 37
    a = rand((rows + extra, k), torch.bfloat16, gen)
    b = weights(len(cnt), k, n, torch.bfloat16, "gnk", gen)
    bias = rand((len(cnt), n), torch.bfloat16, gen) if with_bias else None
    out = torch.full((rows + extra, n), math.nan, dtype=torch.bfloat16, device="cuda")
    assert ts.gemm_grouped(a, b, offs, out, alpha=1.5, bias=bias, activation=activation) is out
    torch.cuda.synchronize()
    ref, scale = fused_reference(*reference(a, b, cnt, alpha=1.5), cnt, bias)
    ref = ACTIVATIONS[activation](ref)
    assert not torch.isnan(out[:rows]).any(), "a row of a group was not written"
    err = relative_error(out[:rows], ref, scale)
    assert err <= FUSED_TOL, f"relative error {err:.3g} > {FUSED_TOL:.3g}"
    assert torch.isnan(out[rows:]).all(), "rows past the last offset were written"


def test_fused_bias_rows_may_lie_apart(gen):
    cnt = COUNTS["uniform"]
    offs, rows = offsets(cnt)
    k, n = 256, 512
    a = rand((rows, k), torch.bfloat16, gen)
    b = weights(len(cnt), k, n, torch.bfloat16, "gnk", gen)
    wide = rand((len(cnt), n + 40), torch.bfloat16, gen)
    out = ts.gemm_grouped(a, b, offs, bias=wide[:, :n], activation="silu")
    torch.cuda.synchronize()
    ref, scale = fused_reference(*reference(a, b, cnt), cnt, wide[:, :n])
    assert relative_error(out, F.silu(ref), scale) <= FUSED_TOL


def test_fused_lists_with_none_bias_entries(gen):
    shapes = [(200, 128, 64), (0, 64, 64), (33, 256, 128), (64, 72, 0), (7, 8, 16)]
    a = [rand((m, k), torch.bfloat16, gen) for m, n, k in shapes]
    b = [rand((n, k), torch.bfloat16, gen).t() for m, n, k in shapes]
    bias = [rand((n,), torch.bfloat16, gen) if g % 2 == 0 else None for g, (m, n, k) in enumerate(shapes)]
    out = ts.gemm_grouped(a, b, bias=bias, activation="gelu")
    torch.cuda.synchronize()
    for g, (x, w, v, d) in enumerate(zip(a, b, bias, out)):
        ref = x.double() @ w.double() + (0 if v is None else v.double())
        scale = x.double().abs() @ w.double().abs() + (0 if v is None else v.double().abs())
        assert not torch.isnan(d).any(), f"group {g}: an element was not written"
        assert relative_error(d, F.gelu(ref), scale) <= FUSED_TOL, f"group {g}"


@pytest.mark.parametrize("activation", ["relu", "gelu_tanh"])
def test_fused_one_group_equals_tessera_gemm(gen, activation):
    m, k, n = 1000, 512, 1536
    a = rand((m, k), torch.bfloat16, gen)
    w = rand((1, n, k), torch.bfloat16, gen)
    bias = rand((1, n), torch.bfloat16, gen)
    offs = torch.tensor([m], dtype=torch.int32, device="cuda")
    grouped = ts.gemm_grouped(a, w.transpose(-2, -1), offs, bias=bias, activation=activation)
    single = ts.gemm(a, w[0].t(), bias=bias[0], activation=activation)
    torch.cuda.synchronize()
    diff = (grouped.double() - single.double()).norm() / single.double().norm()
    assert diff < 5e-3, f"grouped vs tessera.gemm: {diff:.3g}"


@pytest.mark.parametrize("dt, layout, text", [("f16", "gnk", "runs bf16 only"), ("bf16", "gkn", r"needs weights \(G, N, K\)")])
def test_fused_refusals_carry_the_reason(gen, dt, layout, text):
    cnt = COUNTS["uniform"]
    offs, rows = offsets(cnt)
    a = rand((rows, 64), DTYPES[dt], gen)
    b = weights(len(cnt), 64, 128, DTYPES[dt], layout, gen)
    with pytest.raises(ts.GemmError, match=text):
        ts.gemm_grouped(a, b, offs, activation="gelu")
