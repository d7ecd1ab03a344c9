"""tessera.attention from Python against torch's scaled_dot_product_attention, in one process,
on the shapes of the C++ attention bench (bench/attention_bench.cu: B 4, H 16, bf16, head dims
128 and 64, causal and not).

Method: random inputs in [-1, 1), laid out (batch, seqlen, heads, head_dim) as tessera takes
them; SDPA reads the same tensors through transpose(1, 2) views ((batch, heads, seqlen, dim),
no copy). Each result is checked against the other's first (max |difference|). Warm-up pairs,
then pairs whose order alternates (tessera first in even rounds, SDPA first in odd ones), each
after a GPU sleep that outlasts both sides' host work, each call timed with CUDA events; the
medians, TFLOP/s (4 B H Sq Sk D, halved when causal) and their ratio (SDPA's time over
tessera's: above 1, tessera is faster). tessera writes into a preallocated output; SDPA
allocates its own (its API has no out=), which the caching allocator serves without a
device allocation after the warm-up.

usage: PYTHONPATH=build/python python3 bench/python_attention_bench.py [--reps 30] [--warmup 5]
           [--backend default|flash|cudnn|efficient] [--dtype bf16|f16] [--lead-cycles N] [S ...]"""
import argparse
import contextlib
import sys

import torch
import torch.nn.functional as F

import tessera as ts
from torch_pairs import time_pairs as _time_pairs  # (beside this script)

BATCH, HEADS = 4, 16


def sdpa_context(backend):
    if backend == "default":
        return contextlib.nullcontext()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel({"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
                        "efficient": SDPBackend.EFFICIENT_ATTENTION}[backend])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--dtype", choices=["bf16", "f16"], default="bf16")
    p.add_argument("--backend", choices=["default", "flash", "cudnn", "efficient"], default="default",
                   help="SDPA's backend (torch.nn.attention.sdpa_kernel); default: torch's own choice")
    p.add_argument("--lead-cycles", type=int, default=4_000_000, help="GPU sleep before each timed pair (~2 ms)")
    p.add_argument("seqlens", type=int, nargs="*", default=[4096, 8192])
    args = p.parse_args()
    if not torch.cuda.is_available() or not ts.has_cuda:
        print("error: needs a GPU and tessera's CUDA part", file=sys.stderr)
        return 1
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float16
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}  SDPA backend: {args.backend}  "
          f"B {BATCH} H {HEADS} {args.dtype}; medians of {args.reps} alternating pairs (CUDA events)")
    for s in args.seqlens:
        for d in (128, 64):
            for causal in (False, True):
                q, k, v = (torch.empty((BATCH, s, HEADS, d), dtype=dtype, device="cuda").uniform_(-1, 1)
                           for _ in range(3))
                out = torch.empty_like(q)
                qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))

                def mine():
                    ts.attention(q, k, v, out, causal=causal)

                def theirs():
                    with sdpa_context(args.backend):
                        return F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal)

                mine()
                diff = (out.float() - theirs().transpose(1, 2).float()).abs().max().item()
                ms_mine, ms_theirs = _time_pairs(torch, mine, theirs, args.reps, args.warmup, args.lead_cycles)
                flop = 4 * BATCH * HEADS * s * s * d / (2 if causal else 1)
                print(f"S {s:6d} D {d:3d} {'causal ' if causal else 'full   '}  tessera {ms_mine:8.3f} ms "
                      f"{flop / ms_mine / 1e9:6.1f} TFLOP/s   SDPA {ms_theirs:8.3f} ms {flop / ms_theirs / 1e9:6.1f} "
                      f"TFLOP/s   SDPA/tessera {ms_theirs / ms_mine:5.2f}x   max|diff| {diff:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
