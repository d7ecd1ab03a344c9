"""tessera.attention on an sm_90 GPU against an FP64 reference and torch's
scaled_dot_product_attention (marked `gpu`: ctest python_gpu_test, skipped without an sm_90
GPU, PyTorch or the module's CUDA part).

Each case fills `out` with NaN first (a poisoned output: every element must be written) and
compares O and the LSE with softmax(Q K^T * scale [+ mask]) V computed in FP64 from the same
rounded inputs: O within what the element type allows (P enters the second product rounded to
the inputs' type, as in FlashAttention) and within a small multiple of SDPA's own error on the
same inputs; every LSE element within 1e-3 of the reference (a garbage or unwritten element
cannot match), -inf for rows that see no key."""
import itertools
import math

import pytest

import tessera as ts

torch = pytest.importorskip("torch")
F = torch.nn.functional


def _sm90():
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not (ts.has_cuda and _sm90()),
                                 reason="needs an sm_90 GPU, PyTorch and tessera's CUDA part")]

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}
# Max |O - O_ref| allowed (V in [-1, 1], so O too): P rounded to the inputs' type before P V,
# the output's rounding.
TOL = {torch.bfloat16: 2**-6, torch.float16: 2**-9}


@pytest.fixture
def gen():
    g = torch.Generator(device="cuda")
    g.manual_seed(4321)
    return g


def rand(shape, dtype, gen):
    return (torch.rand(shape, generator=gen, device="cuda") * 2 - 1).to(dtype)


def reference(q, k, v, causal, scale):
    """O and LSE in FP64 of one (seqlen, heads, head_dim) sequence: q (sq, h, d), k, v (sk, hkv, d)."""
    sq, h, d = q.shape
    sk, hkv = k.shape[0], k.shape[1]
    qd = q.double().transpose(0, 1)                                   # (h, sq, d)
    kd = k.double().transpose(0, 1).repeat_interleave(h // hkv, 0)   # (h, sk, d)
    vd = v.double().transpose(0, 1).repeat_interleave(h // hkv, 0)
    s = qd @ kd.transpose(1, 2) * scale
    if causal:
        i = torch.arange(sq, device=q.device)[:, None]
        j = torch.arange(sk, device=q.device)[None, :]
        s = s.masked_fill(j > i + sk - sq, -math.inf)
    lse = torch.logsumexp(s, dim=-1)                                  # (h, sq); -inf where no key is seen
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    o = (p @ vd).transpose(0, 1)                                      # (sq, h, d)
    return o, lse


def sdpa(q, k, v, causal, scale):
    """torch's SDPA on (batch, seqlen, heads, dim) tensors, with the bottom-right causal mask."""
    h, hkv = q.shape[2], k.shape[2]
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
    kt, vt = kt.repeat_interleave(h // hkv, 1), vt.repeat_interleave(h // hkv, 1)
    mask = None
    if causal:
        sq, sk = q.shape[1], k.shape[1]
        mask = torch.ones(sq, sk, dtype=torch.bool, device=q.device).tril(sk - sq)
    return F.scaled_dot_product_attention(qt, kt, vt, attn_mask=mask, scale=scale).transpose(1, 2)


def check(o, lse, refs, dtype, against=None):
    assert not torch.isnan(o).any(), "an element of O was not written"
    err = max((o[b].double() - r[0]).abs().max().item() for b, r in enumerate(refs))
    bound = TOL[dtype]
    if against is not None:
        masked = [torch.isinf(r[1]).all(0) for r in refs]  # (rows no head sees: SDPA gives NaN there)
        their = max(((against[b].double() - r[0])[~masked[b]]).abs().max().item() if (~masked[b]).any() else 0.0
                    for b, r in enumerate(refs))
        bound = max(bound, 4 * their)
    assert err <= bound, f"max |O - O_ref| = {err:.3g} > {bound:.3g}"
    if lse is not None:
        for b, r in enumerate(refs):
            ref = r[1]
            inf = torch.isinf(ref)
            assert torch.equal(torch.isinf(lse[b]) & (lse[b] < 0), inf), "LSE -inf exactly where a row sees no key"
            if (~inf).any():
                assert ((lse[b].double() - ref)[~inf]).abs().max().item() <= 1e-3
    return err


CASES = [  # (batch, sq, sk, heads, kv_heads)
    (2, 128, 128, 4, 4), (1, 1, 1, 2, 2), (2, 17, 129, 4, 2), (1, 129, 17, 8, 2), (2, 300, 1000, 8, 4),
    (1, 1000, 300, 4, 1)]


@pytest.mark.parametrize("b, sq, sk, h, hkv", CASES)
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("dt", ["bf16", "f16"])
@pytest.mark.parametrize("causal", [False, True])
def test_matches_fp64_and_sdpa(gen, b, sq, sk, h, hkv, d, dt, causal):
    dtype = DTYPES[dt]
    q, k, v = rand((b, sq, h, d), dtype, gen), rand((b, sk, hkv, d), dtype, gen), rand((b, sk, hkv, d), dtype, gen)
    out = torch.full_like(q, math.nan)
    scale = 1 / math.sqrt(d)
    r, lse = ts.attention(q, k, v, out, causal=causal, return_lse=True)
    assert r is out and lse.shape == (b, h, sq) and lse.dtype == torch.float32
    refs = [reference(q[i], k[i], v[i], causal, scale) for i in range(b)]
    check(out, lse, refs, dtype, against=sdpa(q, k, v, causal, scale))


def test_scale_and_out_none(gen):
    q, k, v = (rand((2, 200, 4, 64), torch.bfloat16, gen) for _ in range(3))
    o = ts.attention(q, k, v, scale=0.3)
    assert o.shape == q.shape and o.dtype == q.dtype and o.device == q.device
    check(o, None, [reference(q[i], k[i], v[i], False, 0.3) for i in range(2)], torch.bfloat16,
          against=sdpa(q, k, v, False, 0.3))


def test_views_of_a_packed_qkv_tensor(gen):
    b, s, h, d = 2, 257, 4, 128
    qkv = rand((b, s, 3, h, d), torch.bfloat16, gen)
    q, k, v = qkv.unbind(2)  # (b, s, h, d) views, row stride 3*h*d
    out = torch.full((b, s, h, d), math.nan, dtype=torch.bfloat16, device="cuda")
    ts.attention(q, k, v, out, causal=True)
    check(out, None, [reference(q[i], k[i], v[i], True, d**-0.5) for i in range(b)], torch.bfloat16)


def test_padded_output_is_written_inside_only(gen):
    q, k, v = (rand((1, 100, 2, 64), torch.float16, gen) for _ in range(3))
    big = torch.full((1, 100, 4, 64), math.nan, dtype=torch.float16, device="cuda")
    out = big[:, :, 1:3]  # heads 1 and 2 of a 4-head buffer
    ts.attention(q, k, v, out)
    assert torch.isnan(big[:, :, 0]).all() and torch.isnan(big[:, :, 3]).all(), "written outside out"
    check(out, None, [reference(q[0], k[0], v[0], False, 64**-0.5)], torch.float16)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("d", [64, 128, 256])
def test_varlen(gen, causal, d):
    lens_q, lens_k = [1, 17, 129, 300], [5, 17, 200, 100]
    h, hkv, dtype = 8, 2, torch.bfloat16
    cu_q = torch.tensor([0, *itertools.accumulate(lens_q)], dtype=torch.int32, device="cuda")
    cu_k = torch.tensor([0, *itertools.accumulate(lens_k)], dtype=torch.int32, device="cuda")
    q = rand((sum(lens_q), h, d), dtype, gen)
    k, v = rand((sum(lens_k), hkv, d), dtype, gen), rand((sum(lens_k), hkv, d), dtype, gen)
    out = torch.full_like(q, math.nan)
    _, lse = ts.attention(q, k, v, out, causal=causal, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k,
                          max_seqlen_q=max(lens_q), max_seqlen_k=max(lens_k), return_lse=True)
    assert lse.shape == (h, sum(lens_q))
    assert not torch.isnan(out).any(), "an element of O was not written"
    for i in range(len(lens_q)):
        a, e = int(cu_q[i]), int(cu_q[i + 1])
        c, f = int(cu_k[i]), int(cu_k[i + 1])
        o_ref, lse_ref = reference(q[a:e], k[c:f], v[c:f], causal, d**-0.5)
        assert (out[a:e].double() - o_ref).abs().max().item() <= TOL[dtype], f"sequence {i}"
        got = lse[:, a:e]
        inf = torch.isinf(lse_ref)
        assert torch.equal(torch.isinf(got), inf)
        if (~inf).any():
            assert (got.double() - lse_ref)[~inf].abs().max().item() <= 1e-3, f"sequence {i}"


def test_runs_on_the_current_stream_and_waits_for_producers(gen):
    q, k, v = (rand((2, 512, 4, 128), torch.bfloat16, gen) for _ in range(3))
    ref = ts.attention(q, k, v)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        q2 = q * 1  # produced on `side`
        out = torch.full_like(q, math.nan)
        ts.attention(q2, k, v, out)  # the interface names `side`: the launch goes there
    side.synchronize()
    assert torch.equal(out, ref), "the same call on another stream gives the same bits"
    out2 = torch.full_like(q, math.nan)
    ts.attention(q2, k, v, out2, stream=torch.cuda.current_stream())
    torch.cuda.synchronize()
    assert torch.equal(out2, ref)


def test_refusals_on_the_gpu(gen):
    q, k, v = (rand((1, 64, 2, 128), torch.bfloat16, gen) for _ in range(3))
    with pytest.raises(ValueError, match="stride 2 along head_dim"):
        ts.attention(rand((1, 64, 2, 256), torch.bfloat16, gen)[..., ::2], k, v)
    with pytest.raises(ValueError, match="CPU memory"):
        ts.attention(q.cpu(), k, v)
    with pytest.raises(ValueError, match="float16 or bfloat16"):
        ts.attention(q.float(), k.float(), v.float())
    with pytest.raises(ts.AttentionError, match="head_dim must be 64, 128 or 256") as e:
        ts.attention(*(rand((1, 64, 2, 96), torch.bfloat16, gen) for _ in range(3)))
    assert e.value.status == "unsupported"
    big = rand((1, 64, 2, 136), torch.bfloat16, gen)
    with pytest.raises(ts.AttentionError, match="16-byte aligned|multiples of 8"):
        ts.attention(big[..., 4:132], k, v)  # (8 bytes off)
    with pytest.raises(ts.AttentionError, match="multiple of kv_heads"):
        ts.attention(rand((1, 64, 3, 128), torch.bfloat16, gen), k, v)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_arrays_on_two_devices_are_refused(gen):
    q, k, v = (rand((1, 64, 2, 128), torch.bfloat16, gen) for _ in range(3))
    with pytest.raises(ValueError, match="device"):
        ts.attention(q, k.to("cuda:1"), v)


# ---- the grid and the tile counter ---------------------------------------------------------------

def sdpa_math(q, k, v, causal):
    """torch's SDPA, math backend in f32, on (batch, seqlen, heads, dim) tensors (sq == sk)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    h, hkv = q.shape[2], k.shape[2]
    qt, kt, vt = (x.float().transpose(1, 2) for x in (q, k, v))
    kt, vt = kt.repeat_interleave(h // hkv, 1), vt.repeat_interleave(h // hkv, 1)
    with sdpa_kernel(SDPBackend.MATH):
        return F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal).transpose(1, 2)


def lent():
    """Counters the module has lent on the current device."""
    from tessera import _gemm_cuda
    return _gemm_cuda.attention_counters_lent(torch.cuda.current_device())


def counter_of(stream):
    """The address of the counter the module lent to `stream`, 0 when none."""
    from tessera import _gemm_cuda
    return _gemm_cuda.attention_counter_of(torch.cuda.current_device(), stream.cuda_stream)


def run(q, k, v, **kw):
    out = torch.full_like(q, math.nan)
    _, lse = ts.attention(q, k, v, out, return_lse=True, **kw)
    return out, lse


# Every way the grid can cover the tiles: the module's counter (Auto, and Persistent with as many
# CTAs as resident or 3: most tiles then go through the counter), a caller's workspace, strided
# persistent CTAs (no workspace), a CTA per tile.
GRIDS = [dict(grid="auto"), dict(grid="persistent"), dict(grid="persistent", persistent_ctas=3),
         dict(grid="persistent", persistent_ctas=3, workspace="caller"), dict(grid="auto", workspace="caller"),
         dict(grid="persistent", workspace=None), dict(grid="auto", workspace=None)]


@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("dt", ["bf16", "f16"])
@pytest.mark.parametrize("causal", [True, False])
def test_every_grid_writes_the_per_tile_bits(gen, d, dt, causal):
    dtype = DTYPES[dt]
    b, s, h, hkv = 2, 1000, 8, 2  # (more work tiles than an H100/H200 holds CTAs at once: 2*8*8 causal at D 128)
    q, k, v = rand((b, s, h, d), dtype, gen), rand((b, s, hkv, d), dtype, gen), rand((b, s, hkv, d), dtype, gen)
    ref_o, ref_lse = run(q, k, v, causal=causal, grid="per_tile")
    assert not torch.isnan(ref_o).any()
    math_o = sdpa_math(q, k, v, causal)
    err = (ref_o.float() - math_o).abs().max().item()
    their = (sdpa(q, k, v, causal, d**-0.5).float() - math_o).abs().max().item()  # (torch's own in the type)
    bound = max(TOL[dtype], 4 * their)
    assert err <= bound, f"per tile against SDPA's math backend (f32): {err:.3g} > {bound:.3g}"
    for kw in GRIDS:
        kw = dict(kw)
        ws = None
        if kw.get("workspace") == "caller":
            ws = kw["workspace"] = torch.zeros(8, dtype=torch.uint8, device="cuda")
        o, lse = run(q, k, v, causal=causal, **kw)
        assert torch.equal(o, ref_o) and torch.equal(lse, ref_lse), f"{kw}: not the per-tile grid's bits"
        if ws is not None:
            torch.cuda.synchronize()
            assert not ws.any(), "each launch leaves the counter zero for the next"


def test_varlen_on_the_counter_writes_the_per_tile_bits(gen):
    lens = [1, 700, 129, 1000, 33]
    h, hkv, d, dtype = 8, 4, 128, torch.bfloat16
    cu = torch.tensor([0, *itertools.accumulate(lens)], dtype=torch.int32, device="cuda")
    q, k, v = rand((sum(lens), h, d), dtype, gen), rand((sum(lens), hkv, d), dtype, gen), rand((sum(lens), hkv, d), dtype, gen)
    common = dict(cu_seqlens_q=cu, cu_seqlens_k=cu, max_seqlen_q=max(lens), max_seqlen_k=max(lens))
    for causal in (False, True):
        ref = run(q, k, v, causal=causal, grid="per_tile", **common)
        for kw in (dict(grid="persistent"), dict(grid="persistent", persistent_ctas=3), dict(grid="auto")):
            got = run(q, k, v, causal=causal, **kw, **common)
            assert torch.equal(got[0], ref[0]) and torch.equal(got[1], ref[1]), f"{kw} causal={causal}"


def test_a_caller_workspace_is_the_counter(gen):
    # A counter that does not start at zero hands out tickets past the first ones: the tiles they
    # skip stay unwritten. So the kernel really counts in the caller's workspace, and the launch
    # still leaves it zero for the next.
    q, k, v = (rand((2, 2048, 8, 128), torch.bfloat16, gen) for _ in range(3))
    ref, _ = run(q, k, v, causal=True, grid="per_tile")
    ws = torch.zeros(2, dtype=torch.int32, device="cuda")
    ws[0] = 5  # (`next`: five tiles never drawn)
    out, _ = run(q, k, v, causal=True, grid="persistent", persistent_ctas=3, workspace=ws)
    torch.cuda.synchronize()
    assert torch.isnan(out).any(), "a non-zero counter skips tiles (the workspace was not used?)"
    assert not ws.any(), "the launch zeroes the counter at its end"
    out, _ = run(q, k, v, causal=True, grid="persistent", persistent_ctas=3, workspace=ws)
    assert torch.equal(out, ref)


def test_the_module_lends_one_counter_per_stream(gen):
    # (torch.cuda.Stream() hands out streams of a pool: one may have its counter from an earlier
    # test, so the test reads which counter each stream holds rather than how many were lent)
    q, k, v = (rand((1, 1024, 4, 64), torch.bfloat16, gen) for _ in range(3))
    ref, _ = run(q, k, v, causal=True, grid="per_tile")
    streams = [torch.cuda.Stream() for _ in range(2)]
    held = {}
    for s in streams:
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            # (the launches go where stream= says: PyTorch's tensors name no stream, so without
            # it they would run on the legacy default stream, whatever stream is current)
            before, had = lent(), counter_of(s)
            run(q, k, v, causal=False, stream=s)  # (full attention uses no counter: none lent)
            run(q, k, v, causal=True, workspace=None, stream=s)
            assert (lent(), counter_of(s)) == (before, had)
            out, _ = run(q, k, v, causal=True, stream=s)
            held[s.cuda_stream] = counter_of(s)
            assert held[s.cuda_stream] != 0, "the stream's causal call takes a counter"
            assert lent() == before + (had == 0), "one counter per stream, lent at its first causal call"
            assert had in (0, held[s.cuda_stream]), "a stream keeps its counter"
            out2, _ = run(q, k, v, causal=True, stream=s)
            assert (lent(), counter_of(s)) == (before + (had == 0), held[s.cuda_stream]), "its next calls reuse it"
        s.synchronize()
        assert torch.equal(out, ref) and torch.equal(out2, ref)
    if len(held) == 2:
        a, b = held.values()
        assert abs(a - b) >= 128, "two streams, two counters (a line apart at least)"


def test_concurrent_streams_on_the_module_counters(gen):
    # Calls on several streams at once, each on its stream's counter: a shared counter would
    # hand one launch's tiles to the other and leave rows unwritten.
    q, k, v = (rand((2, 4096, 16, 128), torch.bfloat16, gen) for _ in range(3))
    ref, _ = run(q, k, v, causal=True, grid="per_tile")
    streams = [torch.cuda.Stream() for _ in range(4)]
    outs = [[torch.full_like(q, math.nan) for _ in range(3)] for _ in streams]
    for s in streams:
        s.wait_stream(torch.cuda.current_stream())
    for r in range(3):
        for s, o in zip(streams, outs):
            with torch.cuda.stream(s):
                ts.attention(q, k, v, o[r], causal=True, stream=s)
    torch.cuda.synchronize()
    for o in outs:
        for x in o:
            assert torch.equal(x, ref)


def test_graph_capture(gen):
    # While a stream captures, the module lends no counter (the graph may run beside the stream's
    # own calls); a caller's workspace goes into the graph and serves every replay.
    q, k, v = (rand((2, 1024, 8, 128), torch.bfloat16, gen) for _ in range(3))
    ref, _ = run(q, k, v, causal=True, grid="per_tile")
    ws = torch.zeros(8, dtype=torch.uint8, device="cuda")
    outs = [torch.full_like(q, math.nan) for _ in range(2)]
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # (warm-up off the capture: the kernels' attributes set)
        ts.attention(q, k, v, outs[0], causal=True, workspace=ws, stream=side)
        ts.attention(q, k, v, outs[1], causal=True, workspace=None, stream=side)
    side.synchronize()
    before = lent()
    g = torch.cuda.CUDAGraph()
    for o in outs:
        o.fill_(math.nan)
    with torch.cuda.graph(g):  # (it captures on a stream of its own: the current one inside)
        capturing = torch.cuda.current_stream()
        ts.attention(q, k, v, outs[0], causal=True, workspace=ws, stream=capturing)
        ts.attention(q, k, v, outs[1], causal=True, stream=capturing)
    assert lent() == before, "no counter lent to a capturing stream"
    for _ in range(3):
        for o in outs:
            o.fill_(math.nan)
        g.replay()
        torch.cuda.synchronize()
        assert torch.equal(outs[0], ref) and torch.equal(outs[1], ref)
        assert not ws.any()
