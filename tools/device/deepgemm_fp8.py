#!/usr/bin/env python3
"""DeepGEMM's block-scaled FP8 GEMM beside tessera's and torch._scaled_mm, in one process: the
anchor the FP8 issue names for tessera's block-scaled kernels ("if DeepGEMM builds on the GPU
machine, measure it in the same process").

    python3 tools/device/deepgemm_fp8.py [--reps N] [--tessera] [--profile] [M N K ...]

DeepSeek-V3's recipe on both sides, from the same tensors: A (M x K) e4m3 with one f32 scale per
row and 128-k group (1 x 128), B (N x K) e4m3 with one per 128 x 128 block, D (M x N) bf16
row-major; the scales are made from random bf16 data (amax / 448 per group). A's scales are
passed M-major with the k-groups a TMA-aligned stride apart (the layout DeepGEMM's
get_mn_major_tma_aligned_tensor returns and tessera's ScaleMode::Block reads: docs/gemm.md),
so neither call converts them. Each side's D is checked against an f32 product of
the dequantized inputs (relative Frobenius error; a kernel past 1e-2 is reported as WRONG and its
time is not used).

Timing: bench/torch_pairs.py's time_rotation, as the Python benches: each round runs every call
once behind one GPU sleep (the calls' host work is hidden), the order rotated from round to
round, each launch between two CUDA events; the median of --reps rounds. torch._scaled_mm with per-tensor scales on the same e4m3 operands is timed in the same
rounds: the per-tensor bar of the issue, and a clock reference between runs. --tessera adds
tessera.gemm(scale_mode='block') (the Python module on PYTHONPATH, built with its CUDA part).
--profile prints each call's kernels and their device time (torch.profiler, five calls), so a
conversion kernel inside a call would show, and the kernel's name its configuration.

Exits 1 with a message when torch, CUDA, FP8 or deep_gemm is missing.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from torch_pairs import time_rotation  # noqa: E402  (the Python benches' shared timing)

SHAPES = [(4096, 7168, 16384), (128, 7168, 16384), (64, 7168, 16384)]
GROUP = 128
E4M3_MAX = 448.0


def quantize_rows(torch, x):
    """x (M, K) -> (e4m3 (M, K), f32 scales (M, K / 128)): one scale per row and 128-k group."""
    m, k = x.shape
    g = x.float().view(m, k // GROUP, GROUP)
    s = g.abs().amax(dim=2).clamp(min=1e-4) / E4M3_MAX
    q = (g / s.unsqueeze(2)).to(torch.float8_e4m3fn).view(m, k)
    return q, s


def quantize_blocks(torch, w):
    """w (N, K) -> (e4m3 (N, K), f32 scales (N / 128, K / 128)): one scale per 128 x 128 block."""
    n, k = w.shape
    g = w.float().view(n // GROUP, GROUP, k // GROUP, GROUP)
    s = g.abs().amax(dim=(1, 3)).clamp(min=1e-4) / E4M3_MAX
    q = (g / s[:, None, :, None]).to(torch.float8_e4m3fn).view(n, k)
    return q, s


def tma_aligned_m_major(torch, s):
    """s (M, KB) -> the same values M-major, the k-groups ceil(M / 4) * 4 floats apart (16 bytes,
    TMA's stride alignment): DeepGEMM's get_mn_major_tma_aligned_tensor layout, made here so no
    conversion kernel runs, and the layout tessera's ScaleMode::Block reads (ld_scale_a)."""
    m, kb = s.shape
    t = torch.empty_strided((m, kb), (1, (m + 3) // 4 * 4), device=s.device, dtype=s.dtype)
    t.copy_(s)
    return t


def dequantized_product(torch, a, sa, b, sb):
    m, k = a.shape
    n = b.shape[0]
    af = (a.float().view(m, k // GROUP, GROUP) * sa.unsqueeze(2)).view(m, k)
    bf = (b.float().view(n // GROUP, GROUP, k // GROUP, GROUP) * sb[:, None, :, None]).view(n, k)
    return af @ bf.t()


def rel_error(torch, d, ref):
    return float((d.float() - ref).norm() / ref.norm().clamp(min=1e-30))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--tessera", action="store_true", help="time tessera.gemm(scale_mode='block') too")
    ap.add_argument("--profile", action="store_true", help="list each call's kernels (torch.profiler)")
    ap.add_argument("dims", nargs="*", type=int, help="M N K triples (default: the issue's three shapes)")
    opt = ap.parse_args()
    if len(opt.dims) % 3:
        print("deepgemm_fp8.py: shapes are M N K triples", file=sys.stderr)
        return 1
    shapes = [tuple(opt.dims[i:i + 3]) for i in range(0, len(opt.dims), 3)] or SHAPES
    for m, n, k in shapes:
        if m < 1 or n % GROUP or k % GROUP:
            print(f"deepgemm_fp8.py: {m} x {n} x {k}: N and K must be multiples of {GROUP}, M positive", file=sys.stderr)
            return 1
    try:
        import torch
    except ImportError as e:
        print(f"deepgemm_fp8.py: no torch ({e})", file=sys.stderr)
        return 1
    if not torch.cuda.is_available() or not hasattr(torch, "float8_e4m3fn"):
        print("deepgemm_fp8.py: needs a CUDA GPU and torch with float8", file=sys.stderr)
        return 1
    try:
        import deep_gemm
    except Exception as e:  # an extension that fails to load raises more than ImportError
        print(f"deepgemm_fp8.py: deep_gemm does not import ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    tessera = None
    if opt.tessera:
        try:
            import tessera as tessera_module
            tessera = tessera_module
        except Exception as e:
            print(f"deepgemm_fp8.py: tessera does not import ({type(e).__name__}: {e})", file=sys.stderr)
            return 1

    props = torch.cuda.get_device_properties(0)
    print(f"device: {props.name}, {props.multi_processor_count} SMs; torch {torch.__version__}; "
          f"deep_gemm {getattr(deep_gemm, '__version__', '?')}")
    torch.manual_seed(0)
    print("| M x N x K | kernel | us | TFLOP/s | vs DeepGEMM | rel. error |")
    print("|---|---|---|---|---|---|")
    for m, n, k in shapes:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        a, sa = quantize_rows(torch, x)
        b, sb = quantize_blocks(torch, w)
        sa_tma = tma_aligned_m_major(torch, sa)
        sb = sb.contiguous()
        ref = dequantized_product(torch, a, sa, b, sb)
        one = torch.ones((), device="cuda", dtype=torch.float32)
        outs = {}
        calls = {}

        d_dg = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        calls["DeepGEMM block"] = lambda: deep_gemm.fp8_gemm_nt((a, sa_tma), (b, sb), d_dg, recipe=(1, GROUP, GROUP))
        outs["DeepGEMM block"] = d_dg
        if tessera is not None:
            d_ts = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            calls["tessera block"] = lambda: tessera.gemm(a, b.t(), out=d_ts, scale_a=sa_tma, scale_b=sb, scale_mode="block")
            outs["tessera block"] = d_ts
        d_pt = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

        def scaled_mm():
            torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=True, out=d_pt)

        calls["torch._scaled_mm per-tensor"] = scaled_mm

        errors = {}
        for name, fn in calls.items():
            try:
                fn()
                torch.cuda.synchronize()
            except Exception as e:
                print(f"| {m} x {n} x {k} | {name} | refused: {type(e).__name__}: {str(e).splitlines()[0][:200]} | | | |")
                errors[name] = None
                continue
            errors[name] = rel_error(torch, outs[name], ref) if name in outs else float("nan")
        live = [name for name in calls if errors.get(name) is not None]

        # (DeepGEMM's first call above compiled its kernel; time_rotation warms every call up)
        medians = time_rotation(torch, [calls[name] for name in live], opt.reps, 3, 4_000_000) if live else []
        us_of = {name: ms * 1e3 for name, ms in zip(live, medians)}
        flop = 2.0 * m * n * k
        base = us_of.get("DeepGEMM block")
        for name in live:
            us = us_of[name]
            e = errors[name]
            tag = "" if e != e else (f"{e:.1e}" + (" WRONG" if e > 1e-2 else ""))
            ratio = f"{base / us:.3f}" if base else ""
            print(f"| {m} x {n} x {k} | {name} | {us:.1f} | {flop / us / 1e6:.1f} | {ratio} | {tag} |")
        sys.stdout.flush()

        if opt.profile:
            from torch.profiler import ProfilerActivity, profile
            for name in live:
                try:
                    with profile(activities=[ProfilerActivity.CUDA]) as prof:
                        for _ in range(5):
                            calls[name]()
                        torch.cuda.synchronize()
                    per = {}
                    for ev in prof.events():
                        if getattr(ev.device_type, "name", "") == "CUDA":
                            per.setdefault(ev.name, []).append(ev.time_range.elapsed_us())
                    for kname, ts in per.items():
                        print(f"  {name}: {len(ts)} x {kname[:400]}: median {statistics.median(ts):.1f} us")
                except Exception as e:  # the profile is a side note: never the table's end
                    print(f"  {name}: no profile ({type(e).__name__}: {e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
