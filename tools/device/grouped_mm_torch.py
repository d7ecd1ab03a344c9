#!/usr/bin/env python3
"""torch._grouped_mm on the MoE shapes of sm90_gemm_bench --grouped: the anchor for tessera::gemm_grouped.

    python3 tools/device/grouped_mm_torch.py [--reps N] [--skew] [E T K N ...]

torch._grouped_mm(mat_a, mat_b, offs=None, bias=None, out_dtype=None) (PyTorch 2.11), 2D x 3D:
mat_a (tokens, K) bf16 row-major sorted by expert, mat_b (E, K, N), offs int32 cumulative ends of
the experts' rows (on the GPU). Two layouts of mat_b are timed: the transposed view of a weight
stored (E, N, K) (what a Linear's weight.transpose(-2, -1) gives: tessera's b_major Col) and a
dense (E, K, N) (b_major Row). TFLOP/s = 2 T N K / time, T the tokens. Token counts as the bench's:
uniform, or with --skew a quarter of the experts without tokens, expert 0 a third of all, the rest
evenly. Each time is the median of CUDA-event timings of single calls after a warm-up, each behind a GPU
sleep so that torch's host work is not counted (torch_timing.py).
Exits 1 with a message (no traceback) when torch, CUDA or torch._grouped_mm is missing.
"""
import argparse
import sys

from torch_timing import time_ms  # (beside this script)


def counts_of(experts, tokens_per, skew):
    total = experts * tokens_per
    if not skew:
        return [tokens_per] * experts
    counts = [0] * experts
    counts[0] = total // 3
    takers = [e for e in range(1, experts) if e % 4 != 3]
    left = total - total // 3
    for e in takers:
        counts[e] = left // len(takers)
    counts[0] += total - sum(counts)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--skew", action="store_true")
    ap.add_argument("shapes", nargs="*", type=int, help="E T K N quadruples (experts, tokens per expert, K, N)")
    args = ap.parse_args()
    shapes = args.shapes or [8, 2048, 4096, 14336, 64, 512, 2048, 1536, 128, 512, 2048, 1536]
    if len(shapes) % 4 != 0:
        print("error: shapes come as E T K N quadruples", file=sys.stderr)
        return 1
    try:
        import torch
    except ImportError:
        print("error: torch is not installed", file=sys.stderr)
        return 1
    if not torch.cuda.is_available() or not hasattr(torch, "_grouped_mm"):
        print("error: needs a CUDA GPU and torch._grouped_mm (torch %s)" % torch.__version__, file=sys.stderr)
        return 1
    print("device: %s, torch %s" % (torch.cuda.get_device_name(), torch.__version__))
    for i in range(0, len(shapes), 4):
        experts, tokens_per, k, n = shapes[i:i + 4]
        counts = counts_of(experts, tokens_per, args.skew)
        total = sum(counts)
        offs = torch.tensor(counts, device="cuda", dtype=torch.int32).cumsum(0, dtype=torch.int32)
        a = torch.randn(total, k, device="cuda", dtype=torch.bfloat16)
        w_nk = torch.randn(experts, n, k, device="cuda", dtype=torch.bfloat16)
        layouts = {"GNK^T": w_nk.transpose(-2, -1), "GKN": w_nk.transpose(-2, -1).contiguous()}
        flops = 2.0 * total * n * k
        for name, b in layouts.items():
            try:
                ms = time_ms(torch, lambda: torch._grouped_mm(a, b, offs=offs), args.reps)
            except RuntimeError as e:
                print("torch._grouped_mm %-7s E=%-4d T/E=%-5d K=%-5d N=%-6d weight %-6s refused: %s"
                      % ("skewed" if args.skew else "uniform", experts, tokens_per, k, n, name, str(e).splitlines()[0]))
                continue
            print("torch._grouped_mm %-7s E=%-4d T/E=%-5d K=%-5d N=%-6d weight %-6s %8.3f ms %7.1f TFLOP/s"
                  % ("skewed" if args.skew else "uniform", experts, tokens_per, k, n, name, ms, flops / ms * 1e-9))
        del a, w_nk, layouts
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
