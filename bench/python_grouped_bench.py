"""tessera.gemm_grouped from Python against torch._grouped_mm, in one process, on the MoE shapes
of sm90_gemm_bench --grouped (tools/device/grouped_mm_torch.py's): E experts, T tokens per expert
(uniform, or with --skew a quarter of the experts without tokens and expert 0 a third of all),
K, N; bf16, both weight layouts (a (E, N, K) weight viewed transposed, and a dense (E, K, N)).

Method: random inputs in [-1, 1); offsets int32 on the GPU. Each result is checked against the
other's first (max |difference| over the groups' rows). Warm-up pairs, then pairs whose order
alternates, each behind a GPU sleep, each call timed with CUDA events (torch_pairs.py); the
medians, TFLOP/s (2 T_total N K) and their ratio (torch's time over tessera's: above 1, tessera
is faster). tessera writes into a preallocated output; torch._grouped_mm allocates its own (its
API has no out=), which the caching allocator serves without a device allocation after the
warm-up. tessera's time includes its workspace allocation on the stream (pool-backed).

usage: PYTHONPATH=build/python python3 bench/python_grouped_bench.py [--reps 30] [--warmup 5] [--skew]
           [--lead-cycles N] [E T K N ...]"""
import argparse
import sys

import torch

import tessera as ts
from torch_pairs import time_pairs as _time_pairs  # (beside this script)


def counts_of(experts, tokens_per, skew):
    """Tokens per expert, as sm90_gemm_bench --grouped and grouped_mm_torch.py count them."""
    total = experts * tokens_per
    if not skew:
        return [tokens_per] * experts
    counts = [0] * experts
    counts[0] = total // 3
    takers = [e for e in range(1, experts) if e % 4 != 3]
    for e in takers:
        counts[e] = (total - total // 3) // len(takers)
    counts[0] += total - sum(counts)
    return counts


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--skew", action="store_true")
    p.add_argument("--lead-cycles", type=int, default=4_000_000, help="GPU sleep before each timed pair (~2 ms)")
    p.add_argument("shapes", type=int, nargs="*", help="E T K N quadruples (experts, tokens per expert, K, N)")
    args = p.parse_args()
    shapes = args.shapes or [8, 2048, 4096, 14336, 64, 512, 2048, 1536, 128, 512, 2048, 1536]
    if len(shapes) % 4 != 0:
        print("error: shapes come as E T K N quadruples", file=sys.stderr)
        return 1
    if not torch.cuda.is_available() or not ts.has_cuda or not hasattr(torch, "_grouped_mm"):
        print(f"error: needs a GPU, tessera's CUDA part and torch._grouped_mm (torch {torch.__version__})",
              file=sys.stderr)
        return 1
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}  bf16, "
          f"{'skewed' if args.skew else 'uniform'} experts; medians of {args.reps} alternating pairs (CUDA events)")
    for i in range(0, len(shapes), 4):
        experts, tokens_per, k, n = shapes[i:i + 4]
        counts = counts_of(experts, tokens_per, args.skew)
        total = sum(counts)
        offs = torch.tensor(counts, device="cuda", dtype=torch.int32).cumsum(0, dtype=torch.int32)
        a = torch.empty((total, k), device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
        w_nk = torch.empty((experts, n, k), device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
        out = torch.empty((total, n), device="cuda", dtype=torch.bfloat16)
        flop = 2.0 * total * n * k
        for name, b in (("GNK^T", w_nk.transpose(-2, -1)), ("GKN", w_nk.transpose(-2, -1).contiguous())):
            def mine():
                ts.gemm_grouped(a, b, offs, out)

            def theirs():
                return torch._grouped_mm(a, b, offs=offs)

            mine()
            try:
                ref = theirs()
            except RuntimeError as e:
                print(f"E {experts:4d} T/E {tokens_per:5d} K {k:5d} N {n:6d} weight {name:6s} torch refused: "
                      f"{str(e).splitlines()[0]}")
                continue
            diff = (out.float() - ref.float()).abs().max().item()
            ms_mine, ms_theirs = _time_pairs(torch, mine, theirs, args.reps, args.warmup, args.lead_cycles)
            print(f"E {experts:4d} T/E {tokens_per:5d} K {k:5d} N {n:6d} weight {name:6s}  tessera {ms_mine:8.3f} ms "
                  f"{flop / ms_mine / 1e9:6.1f} TFLOP/s   torch {ms_theirs:8.3f} ms {flop / ms_theirs / 1e9:6.1f} "
                  f"TFLOP/s   torch/tessera {ms_theirs / ms_mine:5.2f}x   max|diff| {diff:.2e}")
        a = w_nk = out = ref = None  # (freed before the next shape's tensors)
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
