"""tessera.gemm on a GPU against torch.matmul and an FP64 reference (marked `gpu`: ctest
python_gpu_test, skipped without a GPU, PyTorch or the module's CUDA part).

Each case fills the output with NaN first (a poisoned output: every element must be
written), computes the product in FP64 from the same rounded inputs, and asks that tessera's
error, relative to the size of the terms (|a| @ |b|), stay within what the element type
allows and within a small multiple of torch.matmul's own error on the same inputs. Outputs
inside a larger poisoned buffer check that nothing outside D is written."""
import math

import pytest

import tessera as ts

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not (ts.has_cuda and torch.cuda.is_available()),
                                 reason="needs a GPU and tessera's CUDA part")]

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
# Relative error allowed against |a| @ |b|: the output's rounding (half an ulp of D's type)
# plus f32 accumulation over K (f32: accumulation alone, in an order of the kernel's own);
# tf32 reads inputs with a 10-bit mantissa.
TOL = {torch.bfloat16: 2**-8, torch.float16: 2**-11, torch.float32: 2**-16, "tf32": 2**-10}


def operand(rows, cols, dtype, major, gen, batch=None):
    """A rows x cols matrix (or batch of them) of the given major: a transposed view of a
    row-major tensor when column-major, as torch gives x.T."""
    shape = (rows, cols) if major == "row" else (cols, rows)
    if batch is not None:
        shape = (batch,) + shape
    x = (torch.rand(shape, generator=gen, device="cuda") * 2 - 1).to(dtype)
    return x if major == "row" else x.transpose(-1, -2)


def poisoned(shape, dtype, major="row"):
    out = torch.full(shape if major == "row" else shape[:-2] + (shape[-1], shape[-2]), math.nan, dtype=dtype,
                     device="cuda")
    return out if major == "row" else out.transpose(-1, -2)


def relative_error(d, ref, scale):
    return ((d.double() - ref).abs() / scale.clamp_min(1e-30)).max().item()


def check(d, ref, scale, tol, against=None):
    assert not torch.isnan(d).any(), "an element of D was not written"
    err = relative_error(d, ref, scale)
    bound = tol if against is None else max(tol, 4 * relative_error(against, ref, scale))
    assert err <= bound, f"relative error {err:.3g} > {bound:.3g}"
    return err


GEN_SEED = 1234


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(GEN_SEED)
    return g


SHAPES = [(128, 256, 64), (256, 128, 512), (257, 131, 95), (1000, 1000, 1000), (64, 8, 1024), (1, 1, 8),
          (8, 1, 16), (4096, 64, 64)]
MAJORS = [("row", "col"), ("row", "row"), ("col", "col"), ("col", "row")]   # TN, NT (BLAS), ...


@pytest.mark.parametrize("m, n, k", SHAPES)
@pytest.mark.parametrize("dt", ["bf16", "f16", "f32"])
@pytest.mark.parametrize("a_major, b_major", MAJORS)
def test_matches_fp64_and_torch(gen, m, n, k, dt, a_major, b_major):
    dtype = DTYPES[dt]
    a = operand(m, k, dtype, a_major, gen)
    b = operand(k, n, dtype, b_major, gen)
    out = poisoned((m, n), dtype)
    assert ts.gemm(a, b, out) is out
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    scale = a.double().abs() @ b.double().abs()
    check(out, ref, scale, TOL[dtype], against=torch.matmul(a, b))


@pytest.mark.parametrize("d_major", ["row", "col"])
@pytest.mark.parametrize("dt", ["bf16", "f16", "f32"])
def test_alpha_beta_and_c(gen, dt, d_major):
    dtype = DTYPES[dt]
    m, n, k = 384, 272, 200
    a, b = operand(m, k, dtype, "row", gen), operand(k, n, dtype, "col", gen)
    c = operand(m, n, dtype, d_major, gen)
    out = poisoned((m, n), dtype, d_major)
    ts.gemm(a, b, out, alpha=-1.5, beta=0.75, c=c)
    torch.cuda.synchronize()
    ref = -1.5 * (a.double() @ b.double()) + 0.75 * c.double()
    scale = 1.5 * (a.double().abs() @ b.double().abs()) + 0.75 * c.double().abs()
    check(out, ref, scale, TOL[dtype], against=torch.addmm(c, a, b, beta=0.75, alpha=-1.5))


def test_c_may_be_out(gen):
    m, n, k = 256, 256, 128
    a, b = operand(m, k, torch.bfloat16, "row", gen), operand(k, n, torch.bfloat16, "col", gen)
    d = operand(m, n, torch.bfloat16, "row", gen)
    before = d.double()
    ts.gemm(a, b, d, beta=1.0, c=d)
    torch.cuda.synchronize()
    check(d, a.double() @ b.double() + before, a.double().abs() @ b.double().abs() + before.abs(), 2**-7)


ACT = {"relu": torch.relu, "gelu": lambda x: torch.nn.functional.gelu(x),
       "gelu_tanh": lambda x: torch.nn.functional.gelu(x, approximate="tanh"), "silu": torch.nn.functional.silu,
       None: lambda x: x}


@pytest.mark.parametrize("activation", [None, "relu", "gelu", "gelu_tanh", "silu"])
@pytest.mark.parametrize("bias_mode", [None, "row", "column"])
@pytest.mark.parametrize("dt, out_dt", [("bf16", "bf16"), ("f16", "f16"), ("bf16", "f32")])
def test_fused_epilogues(gen, activation, bias_mode, dt, out_dt):
    if torch.cuda.get_device_capability()[0] != 9:
        pytest.skip("fused epilogues run on the sm_90 kernels")
    dtype, out_dtype = DTYPES[dt], DTYPES[out_dt]
    m, n, k = 512, 384, 256
    a, b = operand(m, k, dtype, "row", gen), operand(k, n, dtype, "col", gen)
    bias = None
    if bias_mode == "column":
        bias = (torch.rand(n, generator=gen, device="cuda") - 0.5).to(out_dtype)
    elif bias_mode == "row":
        bias = (torch.rand(m, 1, generator=gen, device="cuda") - 0.5).to(out_dtype)
    if activation is None and bias is None and out_dtype == dtype:
        pytest.skip("not a fused epilogue")
    out = poisoned((m, n), out_dtype, "col")
    ts.gemm(a, b, out, bias=bias, activation=activation)
    torch.cuda.synchronize()
    pre = a.double() @ b.double() + (0 if bias is None else bias.double())
    ref = ACT[activation](pre)
    scale = a.double().abs() @ b.double().abs() + (0 if bias is None else bias.double().abs())
    theirs = ACT[activation]((a @ b).to(out_dtype) + (0 if bias is None else bias))
    check(out, ref, scale, 2 * TOL[out_dtype] + TOL[dtype], against=theirs)


def test_batched_with_a_shared_operand(gen):
    L, m, n, k = 3, 200, 136, 72
    a = operand(m, k, torch.float16, "row", gen, batch=L)
    w = operand(k, n, torch.float16, "col", gen)   # one B for every batch: batch stride 0
    out = poisoned((L, m, n), torch.float16)
    ts.gemm(a, w, out)
    torch.cuda.synchronize()
    check(out, a.double() @ w.double(), a.double().abs() @ w.double().abs(), TOL[torch.float16],
          against=torch.matmul(a, w))


def test_padded_output_is_written_inside_only(gen):
    m, n, k = 130, 72, 64
    a, b = operand(m, k, torch.bfloat16, "row", gen), operand(k, n, torch.bfloat16, "col", gen)
    buf = torch.full((m + 3, n + 8), math.nan, dtype=torch.bfloat16, device="cuda")
    out = buf[1:m + 1, 4:n + 4]            # ld = n + 8, an offset view
    ts.gemm(a, b, out)
    torch.cuda.synchronize()
    check(out, a.double() @ b.double(), a.double().abs() @ b.double().abs(), TOL[torch.bfloat16])
    inside = torch.zeros_like(buf, dtype=torch.bool)
    inside[1:m + 1, 4:n + 4] = True
    assert torch.isnan(buf[~inside].float()).all(), "an element outside D was written"


def test_tf32(gen):
    m, n, k = 512, 512, 512
    a, b = operand(m, k, torch.float32, "row", gen), operand(k, n, torch.float32, "col", gen)
    out = poisoned((m, n), torch.float32)
    ts.gemm(a, b, out, allow_tf32=True)
    torch.cuda.synchronize()
    check(out, a.double() @ b.double(), a.double().abs() @ b.double().abs(), TOL["tf32"])


def test_out_none_allocates_with_the_inputs_library(gen):
    a, b = operand(96, 64, torch.bfloat16, "row", gen), operand(64, 48, torch.bfloat16, "col", gen)
    d = ts.gemm(a, b)
    assert isinstance(d, torch.Tensor) and d.shape == (96, 48) and d.dtype == torch.bfloat16 and d.is_cuda
    assert d.stride() == (48, 1)
    c = operand(96, 48, torch.bfloat16, "col", gen)
    e = ts.gemm(a, b, beta=1.0, c=c, out_dtype=None)
    assert e.stride() == (1, 96), "out=None follows c's major"
    f = ts.gemm(a, b, out_dtype=torch.float32)
    torch.cuda.synchronize()
    assert f.dtype == torch.float32
    check(f, a.double() @ b.double(), a.double().abs() @ b.double().abs(), TOL[torch.float32])


class OnlyDlpack:
    """A producer that speaks DLPack alone (as JAX arrays may)."""

    def __init__(self, t):
        self.t = t
        self.streams = []

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


class CaiOnStream:
    """A torch tensor seen through a version-3 CUDA Array Interface naming its stream."""

    def __init__(self, t, stream):
        cai = dict(t.__cuda_array_interface__)
        cai.update(version=3, stream=stream.cuda_stream if stream.cuda_stream != 0 else 1)
        self.__cuda_array_interface__ = cai


def test_dlpack_operands(gen):
    a, b = operand(128, 64, torch.bfloat16, "row", gen), operand(64, 32, torch.bfloat16, "col", gen)
    out = poisoned((128, 32), torch.bfloat16)
    pa = OnlyDlpack(a)
    ts.gemm(pa, OnlyDlpack(b), OnlyDlpack(out))
    torch.cuda.synchronize()
    assert pa.streams == [1], "the legacy default stream, as DLPack writes it"
    check(out, a.double() @ b.double(), a.double().abs() @ b.double().abs(), TOL[torch.bfloat16])


def test_runs_on_the_stream_it_is_given(gen):
    s = torch.cuda.Stream()
    a, b = operand(512, 512, torch.float16, "row", gen), operand(512, 512, torch.float16, "col", gen)
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        out = poisoned((512, 512), torch.float16)
        ts.gemm(a, b, out, stream=s)
    s.synchronize()
    check(out, a.double() @ b.double(), a.double().abs() @ b.double().abs(), TOL[torch.float16])


def test_waits_for_the_producers_stream(gen):
    """a is written on stream s1 after a long sleep there; the GEMM runs on s2 and must see the
    new values: it waits for s1 because a's interface names s1."""
    if not hasattr(torch.cuda, "_sleep"):
        pytest.skip("torch.cuda._sleep is not available")
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    m = n = k = 256
    a = torch.zeros((m, k), dtype=torch.float16, device="cuda")
    b = operand(k, n, torch.float16, "col", gen)
    fresh = operand(m, k, torch.float16, "row", gen)
    out = poisoned((m, n), torch.float16)
    torch.cuda.synchronize()
    with torch.cuda.stream(s1):
        torch.cuda._sleep(50_000_000)       # ~25 ms at 2 GHz
        a.copy_(fresh)
    ts.gemm(CaiOnStream(a, s1), b, out, stream=s2)
    torch.cuda.synchronize()
    check(out, fresh.double() @ b.double(), fresh.double().abs() @ b.double().abs(), TOL[torch.float16])


def test_default_stream_is_the_arrays_stream(gen):
    """Without stream=, the GEMM queues on the stream a's interface names: behind a long sleep
    there, so a copy taken at once on a third stream still sees the poison."""
    if not hasattr(torch.cuda, "_sleep"):
        pytest.skip("torch.cuda._sleep is not available")
    s, s3 = torch.cuda.Stream(), torch.cuda.Stream()
    a, b = operand(256, 128, torch.float16, "row", gen), operand(128, 64, torch.float16, "col", gen)
    out = poisoned((256, 64), torch.float16)
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        torch.cuda._sleep(50_000_000)       # ~25 ms at 2 GHz
    ts.gemm(CaiOnStream(a, s), b, out)
    with torch.cuda.stream(s3):
        snapshot = out.clone()
    s3.synchronize()
    assert torch.isnan(snapshot).all(), "the GEMM did not wait behind the sleep on a's stream"
    s.synchronize()
    check(out, a.double() @ b.double(), a.double().abs() @ b.double().abs(), TOL[torch.float16])


def test_can_implement_refusals_on_the_gpu(gen):
    a, b = operand(64, 64, torch.float32, "row", gen), operand(64, 64, torch.float32, "col", gen)
    out = poisoned((64, 64), torch.float32)
    with pytest.raises(ts.GemmError) as e:       # no kernel runs a fused epilogue on f32 inputs
        ts.gemm(a, b, out, activation="relu")
    assert e.value.status == "unsupported" and "fused epilogues" in e.value.message
    host = torch.zeros((64, 64), dtype=torch.float32).pin_memory()

    class HostCai:
        __cuda_array_interface__ = dict(shape=(64, 64), typestr="<f4", data=(host.data_ptr(), False), version=2)

    with pytest.raises(ts.GemmError, match="pinned host memory") as e:
        ts.gemm(HostCai(), b, out)
    assert e.value.status == "not device memory"
    assert torch.isnan(out).all(), "a refused call writes nothing"


def test_workspace_modes(gen):
    """Split-K scratch from the module's pool ("auto"), none, or an array of the caller's: each
    result is right, and a repeated call gives the same bits (the split is deterministic)."""
    m, n, k = 1000, 1000, 4096     # a short last wave: the kernel splits it given scratch
    a, b = operand(m, k, torch.bfloat16, "row", gen), operand(k, n, torch.bfloat16, "col", gen)
    ref, scale = a.double() @ b.double(), a.double().abs() @ b.double().abs()
    scratch = torch.empty(64 << 20, dtype=torch.uint8, device="cuda")
    for workspace in ("auto", None, scratch):
        first, again = poisoned((m, n), torch.bfloat16), poisoned((m, n), torch.bfloat16)
        ts.gemm(a, b, first, workspace=workspace)
        ts.gemm(a, b, again, workspace=workspace)
        torch.cuda.synchronize()
        check(first, ref, scale, TOL[torch.bfloat16], against=torch.matmul(a, b))
        assert torch.equal(first, again)


def test_gemm_tune_chooses_the_fastest_and_gemm_runs_it(gen, tmp_path):
    """gemm_tune times every configuration, returns the fastest (or the rule's, where none beat it
    clearly), writes nothing of the caller's
    (out keeps its NaN poison), records it in the file asked for; gemm afterwards is still right."""
    if torch.cuda.get_device_capability()[0] != 9:
        pytest.skip("gemm_tune chooses among the sm90 kernel's configurations")
    m, n, k = 384, 2048, 1024
    a = operand(m, k, torch.bfloat16, "row", gen)
    b = operand(k, n, torch.bfloat16, "col", gen)
    out = poisoned((m, n), torch.bfloat16)
    cache = tmp_path / "tuning.txt"
    t = ts.gemm_tune(a, b, out, reps=3, cache_file=cache)
    assert torch.isnan(out).all(), "gemm_tune wrote the caller's out"
    assert len(t.timings) >= 2 and t.chosen in t.timings
    assert t.timings[t.chosen] == t.microseconds and t.rounds >= 3
    assert t.chosen == t.rule or t.microseconds == min(t.timings.values()), (t.chosen, t.rule, t.timings)
    assert t.cache_file == str(cache) and t.note == ""
    assert f"m={n}\tn={m}\tk={k}" in cache.read_text()  # (the key as the kernel runs it: D^T for a row-major D)
    ts.gemm(a, b, out)
    ref = a.double() @ b.double()
    check(out, ref, a.double().abs() @ b.double().abs(), TOL[torch.bfloat16], against=(a @ b))


def test_gemm_tune_refusals(gen):
    a = operand(64, 64, torch.float32, "row", gen)
    b = operand(64, 64, torch.float32, "col", gen)
    with pytest.raises(ts.GemmError) as e:  # f32 without TF32 runs on the SIMT kernel: nothing to choose
        ts.gemm_tune(a, b, reps=1)
    assert "gemm_tune" in str(e.value)
    with pytest.raises(ValueError, match="reps"):
        ts.gemm_tune(a, b, reps=0)
