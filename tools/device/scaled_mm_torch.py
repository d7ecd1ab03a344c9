#!/usr/bin/env python3
"""torch._scaled_mm (cuBLASLt's FP8 GEMM) on the FP8 shapes of sm90_gemm_bench --fp8: the anchor
for tessera::gemm's FP8 kernels where cuBLASLt cannot be timed in the bench's process.

    python3 tools/device/scaled_mm_torch.py [--reps N] [--scales tensor|rowwise|block] [--out bf16|e4m3] [M N K ...]

torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=torch.bfloat16, use_fast_accum=...) with a
(M, K) e4m3 row-major, b (K, N) e4m3 column-major (the transposed view of an (N, K) tensor: the
only layout it takes), per-tensor f32 scales on the GPU, D (M, N) bf16 row-major: the product
sm90_gemm_bench --fp8 times (its D is row-major too). Both accumulation modes: use_fast_accum=True
(f32 wgmma accumulators over the whole K, what tessera does) and False (cuBLASLt's promoted
accumulation). TFLOP/s = 2 M N K / time, the median of CUDA-event timings of single calls
after a warm-up, each behind a GPU sleep (torch_timing.py: torch's host work not counted). Exits 1 with a message (no traceback) when torch, CUDA or FP8 is missing.

--scales rowwise: scale_a (M, 1) and scale_b (1, N) f32 (torch's rowwise recipe), both
accumulation modes; --scales block: DeepSeek-V3's recipe, scale_a (M, ceil(K/128)) f32 M-major
(stride (1, M): 1x128 groups of A), scale_b (L4, ceil(N/128)) f32, the transposed view of B's
(ceil(N/128), L4) 128x128 block scales, L4 = ceil(K/128) rounded up to 4 (torch's layout for
cuBLASLt's blockwise modes, CUDA >= 12.9, sm90 only), promoted accumulation only. A torch that
refuses a recipe gets one line saying so (its error), not a traceback. Default shapes for both:
sm90_gemm_bench --fp8 --scales's (4096x7168x16384, 128x7168x16384, 64x7168x16384, 8192^3).

--out e4m3 (per-tensor scales): out_dtype=torch.float8_e4m3fn with scale_result (D's scale, a
device f32), the anchor of sm90_gemm_bench --fp8 --out-e4m3 (tessera's e4m3 D with scale_d and
amax_d). Timed as D alone: the amax is not read here (the bench's own cuBLASLt call sets
AMAX_D_POINTER and compares it).
"""
import argparse
import sys

from torch_timing import time_ms  # (beside this script)

SCALED_SHAPES = [(4096, 7168, 16384), (128, 7168, 16384), (64, 7168, 16384), (8192, 8192, 8192)]
SHAPES = [(8192, 8192, 8192), (4096, 7168, 16384), (320, 32576, 7168), (4096, 24576, 1536), (4096, 2112, 7168),
          (512, 4096, 14336), (128, 7168, 16384), (64, 7168, 16384)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--scales", choices=("tensor", "rowwise", "block"), default="tensor")
    ap.add_argument("--out", choices=("bf16", "e4m3"), default="bf16")
    ap.add_argument("dims", nargs="*", type=int, help="M N K triples (default: the FP8 issue's shapes)")
    args = ap.parse_args()
    if args.out == "e4m3" and args.scales != "tensor":
        print("error: --out e4m3 goes with per-tensor scales (--scales tensor)", file=sys.stderr)
        return 1
    if len(args.dims) % 3 != 0 or any(d <= 0 for d in args.dims):
        print("error: give positive M N K triples", file=sys.stderr)
        return 1
    shapes = [tuple(args.dims[i:i + 3]) for i in range(0, len(args.dims), 3)] or (
        SHAPES if args.scales == "tensor" else SCALED_SHAPES)
    try:
        import torch
    except ImportError:
        print("error: torch is not installed", file=sys.stderr)
        return 1
    if not torch.cuda.is_available() or not hasattr(torch, "float8_e4m3fn") or not hasattr(torch, "_scaled_mm"):
        print("error: no CUDA device, or no FP8 / torch._scaled_mm in this torch", file=sys.stderr)
        return 1
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    dev = "cuda"
    for m, n, k in shapes:
        a = (torch.randn(m, k, device=dev) * 0.5).to(torch.float8_e4m3fn)
        b = (torch.randn(n, k, device=dev) * 0.5).to(torch.float8_e4m3fn).t()  # (K, N) column-major
        groups = (k + 127) // 128
        if args.scales == "tensor":
            sa = torch.tensor(0.75, device=dev)
            sb = torch.tensor(1.5, device=dev)
        elif args.scales == "rowwise":
            sa = torch.full((m, 1), 0.75, device=dev)
            sb = torch.full((1, n), 1.5, device=dev)
        else:
            l4 = (groups + 3) // 4 * 4
            sa = torch.full((groups, m), 0.75, device=dev).t()  # (M, K/128), stride (1, M)
            sb = torch.full(((n + 127) // 128, l4), 1.5, device=dev).t()  # (L4, N/128), stride (1, L4)
        row = []
        out = torch.bfloat16 if args.out == "bf16" else torch.float8_e4m3fn
        extra = {} if args.out == "bf16" else {"scale_result": torch.tensor(448.0 / (4.0 * k ** 0.5), device=dev)}
        for fast in ((True, False) if args.scales != "block" else (False,)):
            call = lambda: torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=out, use_fast_accum=fast, **extra)
            try:
                call()
            except (RuntimeError, NotImplementedError, ValueError) as e:
                row.append(f"fast_accum={fast} refused by torch {torch.__version__}: {str(e).splitlines()[0][:160]}")
                continue
            ms = time_ms(torch, call, args.reps)
            row.append(f"fast_accum={fast} {ms * 1e3:8.1f} us {2.0 * m * n * k / (ms * 1e-3) * 1e-12:7.1f} TFLOP/s")
        print(f"torch._scaled_mm {args.scales} e4m3 TN -> {args.out} row-major {m:5d} x {n:5d} x {k:5d}  " + "  ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
