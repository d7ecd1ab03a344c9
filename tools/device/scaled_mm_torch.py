#!/usr/bin/env python3
"""torch._scaled_mm (cuBLASLt's FP8 GEMM) on the FP8 shapes of sm90_gemm_bench --fp8: the anchor
for tessera::gemm's FP8 kernels where cuBLASLt cannot be timed in the bench's process.

    python3 tools/device/scaled_mm_torch.py [--reps N] [M N K ...]

torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=torch.bfloat16, use_fast_accum=...) with a
(M, K) e4m3 row-major, b (K, N) e4m3 column-major (the transposed view of an (N, K) tensor: the
only layout it takes), per-tensor f32 scales on the GPU, D (M, N) bf16 row-major: the product
sm90_gemm_bench --fp8 times (its D is row-major too). Both accumulation modes: use_fast_accum=True
(f32 wgmma accumulators over the whole K, what tessera does) and False (cuBLASLt's promoted
accumulation). TFLOP/s = 2 M N K / time, the median of CUDA-event timings of single calls
after a warm-up. Exits 1 with a message (no traceback) when torch, CUDA or FP8 is missing.
"""
import argparse
import sys

from torch_timing import time_ms  # (beside this script)

SHAPES = [(8192, 8192, 8192), (4096, 7168, 16384), (320, 32576, 7168), (4096, 24576, 1536), (4096, 2112, 7168),
          (512, 4096, 14336), (128, 7168, 16384), (64, 7168, 16384)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("dims", nargs="*", type=int, help="M N K triples (default: the FP8 issue's shapes)")
    args = ap.parse_args()
    if len(args.dims) % 3 != 0 or any(d <= 0 for d in args.dims):
        print("error: give positive M N K triples", file=sys.stderr)
        return 1
    shapes = [tuple(args.dims[i:i + 3]) for i in range(0, len(args.dims), 3)] or SHAPES
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
        sa = torch.tensor(0.75, device=dev)
        sb = torch.tensor(1.5, device=dev)
        row = []
        for fast in (True, False):
            ms = time_ms(torch, lambda: torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                                         use_fast_accum=fast), args.reps)
            row.append(f"fast_accum={fast} {ms * 1e3:8.1f} us {2.0 * m * n * k / (ms * 1e-3) * 1e-12:7.1f} TFLOP/s")
        print(f"torch._scaled_mm e4m3 TN -> bf16 row-major {m:5d} x {n:5d} x {k:5d}  " + "  ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
