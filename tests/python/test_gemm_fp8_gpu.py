"""tessera.gemm with FP8 inputs on an sm_90 GPU against an FP64 reference of the dequantized
inputs and torch._scaled_mm (marked `gpu`: ctest python_gpu_test, skipped without an sm_90 GPU,
PyTorch with float8, or the module's CUDA part).

Each case fills the output with NaN first, dequantizes the FP8 bytes exactly (float8 -> f64,
times the scales of the mode) and asks that tessera's error, relative to the size of the terms
(|A_deq| @ |B_deq|), stay within D's rounding plus Hopper's FP8 accumulation and within a
small multiple of torch._scaled_mm's error where torch runs the same recipe."""
import math

import pytest

import tessera as ts

torch = pytest.importorskip("torch")


def _ready():
    return (ts.has_cuda and torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0) and
            hasattr(torch, "float8_e4m3fn"))


pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not _ready(), reason="needs an sm_90 GPU, PyTorch with float8 "
                                                                      "and tessera's CUDA part")]
E4M3 = getattr(torch, "float8_e4m3fn", None)
E5M2 = getattr(torch, "float8_e5m2", None)
OUT = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
# D's rounding (half an ulp) plus the FP8 wgmma's accumulation (fewer mantissa bits than f32's
# adds; no promotion over K in the per-tensor and rowwise kernels): the C++ GPU test's bounds
# (tests/kernels/gemm_gpu_test.cu).
TOL = {torch.bfloat16: 1e-2, torch.float16: 1e-2, torch.float32: 5e-3}


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(99)
    return g


def fp8(rows, cols, dtype, gen):
    """A rows x cols row-major FP8 matrix of standard normal values, its rows 16 bytes apart at
    least (TMA's rule for the leading dimension: any K is then accepted). (Unit variance keeps
    an f16 D of K = 8192 with scales up to 2^6 well inside f16's range.)"""
    padded = -(-cols // 16) * 16
    return torch.randn((rows, padded), generator=gen, device="cuda").to(dtype)[:, :cols]


def scaled_mm(*args, **kw):
    """torch._scaled_mm, or None where this torch does not run the call (its own limits on
    shapes, strides and recipes)."""
    if not hasattr(torch, "_scaled_mm"):
        return None
    try:
        return torch._scaled_mm(*args, **kw)
    except (RuntimeError, ValueError, TypeError):
        return None


def scales(shape, gen):
    """f32 scales in [2^-3, 2^3)."""
    return torch.exp2(torch.rand(shape, generator=gen, device="cuda") * 6 - 3)


def check(d, a_deq, b_deq, tol, against=None):
    assert not torch.isnan(d).any(), "an element of D was not written"
    ref = a_deq @ b_deq
    size = a_deq.abs() @ b_deq.abs()
    err = ((d.double() - ref).abs() / size.clamp_min(1e-30)).max().item()
    bound = tol
    if against is not None:
        bound = max(tol, 4 * ((against.double() - ref).abs() / size.clamp_min(1e-30)).max().item())
    assert err <= bound, f"relative error {err:.3g} > {bound:.3g}"


SHAPES = [(128, 256, 128), (257, 131, 200), (64, 512, 1024), (1, 16, 32), (1000, 1000, 1000), (128, 128, 8192)]


@pytest.mark.parametrize("m, n, k", SHAPES)
@pytest.mark.parametrize("out", ["bf16", "f16", "f32"])
def test_per_tensor(gen, m, n, k, out):
    a, w = fp8(m, k, E4M3, gen), fp8(n, k, E4M3, gen)
    b = w.t()  # (K, N) column-major: TN
    sa, sb = scales((), gen), scales((1,), gen)
    d = torch.full((m, n), math.nan, dtype=OUT[out], device="cuda")
    assert ts.gemm(a, b, d, scale_a=sa, scale_b=sb) is d
    their = scaled_mm(a, b, scale_a=sa, scale_b=sb.reshape(()), out_dtype=torch.bfloat16) if out == "bf16" else None
    check(d, a.double() * sa.double(), b.double() * sb.double(), TOL[OUT[out]], their)


@pytest.mark.parametrize("ta, tb", [("e4m3", "e5m2"), ("e5m2", "e4m3")])
def test_mixed_pairs(gen, ta, tb):
    types = {"e4m3": E4M3, "e5m2": E5M2}
    a, b = fp8(200, 96, types[ta], gen), fp8(160, 96, types[tb], gen).t()
    d = ts.gemm(a, b)  # out=None: bf16
    assert d.dtype == torch.bfloat16 and d.shape == (200, 160)
    check(d, a.double(), b.double(), TOL[torch.bfloat16])


def test_uint8_views_with_the_override_give_the_same_bits(gen):
    a, b = fp8(256, 128, E4M3, gen), fp8(192, 128, E4M3, gen).t()
    sa, sb = scales((), gen), scales((), gen)
    d1 = ts.gemm(a, b, scale_a=sa, scale_b=sb)
    d2 = ts.gemm(a.view(torch.uint8), b.view(torch.uint8), scale_a=sa, scale_b=sb, a_dtype="e4m3", b_dtype=E4M3)
    assert torch.equal(d1, d2)


@pytest.mark.parametrize("m, n, k", [(128, 256, 256), (257, 131, 200), (64, 7168, 512), (1, 100, 64)])
@pytest.mark.parametrize("out", ["bf16", "f32"])
def test_rowwise(gen, m, n, k, out):
    a, b = fp8(m, k, E4M3, gen), fp8(n, k, E4M3, gen).t()
    sa, sb = scales((m, 1), gen), scales((1, n), gen)
    d = torch.full((m, n), math.nan, dtype=OUT[out], device="cuda")
    ts.gemm(a, b, d, scale_a=sa, scale_b=sb, scale_mode="rowwise")
    their = scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16) if out == "bf16" else None
    check(d, a.double() * sa.double(), b.double() * sb.double(), TOL[OUT[out]], their)


@pytest.mark.parametrize("m, n, k, ld", [(128, 256, 512, None), (200, 300, 333, 204), (1, 128, 256, None),
                                         (64, 7168, 1024, None)])
def test_block(gen, m, n, k, ld):
    kb, nb = -(-k // 128), -(-n // 128)
    a, w = fp8(m, k, E4M3, gen), fp8(n, k, E4M3, gen)
    lda = ld if ld is not None else (m + 3) // 4 * 4
    sa = scales((kb, lda), gen)[:, :m].t()  # (M, KB), M-major, k-groups lda apart
    sb = scales((nb, kb), gen)
    d = torch.full((m, n), math.nan, dtype=torch.bfloat16, device="cuda")
    ts.gemm(a, w.t(), d, scale_a=sa, scale_b=sb, scale_mode="block")
    kk = torch.arange(k, device="cuda") // 128
    nn = torch.arange(n, device="cuda") // 128
    a_deq = a.double() * sa.double()[:, kk]
    b_deq = (w.double() * sb.double()[nn][:, kk]).t()
    check(d, a_deq, b_deq, TOL[torch.bfloat16])


def test_refusals_on_the_gpu(gen):
    a, b = fp8(64, 64, E5M2, gen), fp8(64, 64, E5M2, gen).t()
    with pytest.raises(ts.GemmError, match="e5m2") as e:
        ts.gemm(a, b)  # e5m2 x e5m2: no kernel is built for it
    assert e.value.status == "unsupported"
    a4 = fp8(64, 64, E4M3, gen)
    with pytest.raises(ts.GemmError, match="column-major"):
        ts.gemm(a4.t(), fp8(64, 64, E4M3, gen).t())
    with pytest.raises(ValueError, match="float32"):
        ts.gemm(a4, fp8(64, 64, E4M3, gen).t(), scale_a=torch.ones((), dtype=torch.float16, device="cuda"))
    with pytest.raises(ValueError, match="CPU memory"):
        ts.gemm(a4, fp8(64, 64, E4M3, gen).t(), scale_a=torch.ones(()))


@pytest.mark.parametrize("m, n, k", [(128, 256, 128), (257, 131, 200), (1000, 1000, 1024), (1, 16, 32)])
def test_an_e4m3_d_with_scale_d_and_amax(gen, m, n, k):
    """D = e4m3(clamp(z scale_d, +-448)), z = scale_a scale_b a @ b: the same bits as the f32-D
    kernel's z (same mainloop) scaled, saturated and rounded by torch; amax_d = max |z| exactly
    (order-independent max), overwritten by the library (the NaN poisoned into it goes)."""
    a, b = fp8(m, k, E4M3, gen), fp8(n, k, E4M3, gen).t()
    sa, sb = scales((), gen), scales((1,), gen)
    z = torch.full((m, n), math.nan, dtype=torch.float32, device="cuda")
    ts.gemm(a, b, z, scale_a=sa, scale_b=sb)
    scale_d = 300.0 / z.abs().max().reshape(1) * 2  # some elements saturate at 448
    d = torch.full((m, n), math.nan, dtype=torch.float32, device="cuda").to(E4M3)
    amax = torch.full((1,), math.nan, dtype=torch.float32, device="cuda")
    assert ts.gemm(a, b, d, scale_a=sa, scale_b=sb, scale_d=scale_d, amax_d=amax) is d
    want = (z * scale_d).clamp(-448, 448).to(E4M3)
    assert torch.equal(d.view(torch.uint8), want.view(torch.uint8))
    assert amax.item() == z.abs().max().item()
    # out=None with out_dtype: a float8_e4m3fn D
    d2 = ts.gemm(a, b, scale_a=sa, scale_b=sb, out_dtype=E4M3, scale_d=scale_d)
    assert d2.dtype == E4M3 and torch.equal(d2.view(torch.uint8), want.view(torch.uint8))
