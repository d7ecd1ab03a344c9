"""tessera.gemm from Python against torch.matmul, in one process, on the shapes of the C++
SM90 bench (bench/sm90_gemm_bench.cu: bf16 TN, 8192^3, 4096x11008x4096, 1000^3).

Method, as the C++ bench's (bench/timing.hpp): random inputs (never zeros), each result
checked against the other's first (relative Frobenius norm); warm-up pairs, then pairs
launched alternately (tessera, torch), each pair after a GPU sleep that outlasts both sides'
host work, each call timed with CUDA events; the medians and their ratio (torch's time over
tessera's: above 1, tessera is faster). Both calls write into preallocated outputs: the
kernels are timed, not an allocator. Layout TN as the C++ bench: A row-major M x K (K-major),
B column-major K x N (the transpose of a row-major N x K weight), tessera's D column-major as
there. torch's D: column-major too by default (--torch-d col: torch.matmul(b.T, a.T) into D^T,
row-major, which is the cuBLAS call the C++ bench makes, so both ratios have the same anchor
problem), or row-major (--torch-d row: cuBLAS runs D^T = B^T A^T, another kernel choice).

Besides, the host cost of one call (wall clock per call of a loop of calls that queue behind
a long GPU sleep, so only the Python and launch work is timed), which the sleep hides above,
with its two sides apart (tessera's Python, _gemm_cuda.run's C++ and launch) and for out=None.

--fp8 tensor|rowwise: e4m3 TN (A row-major M x K, B the transpose of a row-major N x K weight)
with that scale mode, D bf16 row-major, against torch._scaled_mm (cuBLASLt, its default
accumulation) on the same tensors and scales; _scaled_mm has no out=, so its side includes
the caching allocator's (device-free, after the warm-up) allocation.

usage: PYTHONPATH=build/python python3 bench/python_gemm_bench.py [--reps 30] [--warmup 5]
           [--dtype bf16|f16] [--layout TN|NT|NN|TT] [--torch-d col|row] [--lead-cycles N]
           [--fp8 tensor|rowwise] [M N K ...]"""
import argparse
import sys
import time

import torch

import tessera as ts
from torch_pairs import time_pairs as _time_pairs  # (beside this script)

SHAPES = [(8192, 8192, 8192), (4096, 11008, 4096), (1000, 1000, 1000)]


def operand(rows, cols, dtype, k_major, kdim_first):
    """rows x cols; K-major means the K mode is contiguous (kdim_first: K is the rows mode)."""
    contiguous_cols = k_major != kdim_first
    shape = (rows, cols) if contiguous_cols else (cols, rows)
    x = torch.empty(shape, dtype=dtype, device="cuda").uniform_(-1, 1)
    x[x == 0] = 0.5
    return x if contiguous_cols else x.t()


def print_row(m, n, k, t_mine, t_theirs, err):
    flop = 2.0 * m * n * k
    print(f"{m:>6} {n:>6} {k:>6} {t_mine:>11.4f} {flop / t_mine / 1e9:>8.1f} {t_theirs:>9.4f} "
          f"{flop / t_theirs / 1e9:>8.1f} {t_theirs / t_mine:>6.3f} {err:>8.1e}", flush=True)


def host_cost(f, calls=200, lead_cycles=400_000_000):
    """Seconds of host work per call: the calls queue behind a long sleep, so none waits."""
    torch.cuda.synchronize()
    torch.cuda._sleep(lead_cycles)
    t = time.perf_counter()
    for _ in range(calls):
        f()
    dt = (time.perf_counter() - t) / calls
    torch.cuda.synchronize()
    return dt


def fp8_rows(shapes, mode, args):
    """tessera.gemm against torch._scaled_mm, e4m3 TN -> bf16, scale mode `mode`."""
    print(f"FP8 e4m3 TN -> bf16 row-major, scale_mode={mode}; torch._scaled_mm alongside; median of {args.reps} "
          "alternating pairs")
    print(f"{'M':>6} {'N':>6} {'K':>6} {'tessera ms':>11} {'TFLOP/s':>8} {'torch ms':>9} {'TFLOP/s':>8} "
          f"{'ratio':>6} {'err':>8}")
    for m, n, k in shapes:
        if k % 16:  # (8-bit rows start on 16 bytes for TMA, and torch._scaled_mm wants K % 16 == 0)
            print(f"{m:>6} {n:>6} {k:>6}  skipped: FP8 needs K a multiple of 16", flush=True)
            continue
        a = (torch.randn(m, k, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        b = (torch.randn(n, k, device="cuda") * 0.5).to(torch.float8_e4m3fn).t()
        if mode == "rowwise":
            sa, sb = torch.rand(m, 1, device="cuda") + 0.5, torch.rand(1, n, device="cuda") + 0.5
        else:
            sa, sb = torch.tensor(0.75, device="cuda"), torch.tensor(1.25, device="cuda")
        d_mine = torch.empty((m, n), dtype=torch.bfloat16, device="cuda")

        def mine():
            ts.gemm(a, b, d_mine, scale_a=sa, scale_b=sb, scale_mode=mode)

        def theirs():
            return torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)

        mine()
        d_torch = theirs()
        torch.cuda.synchronize()
        err = ((d_mine.float() - d_torch.float()).norm() / d_torch.float().norm()).item()
        t_mine, t_theirs = _time_pairs(torch, mine, theirs, args.reps, args.warmup, args.lead_cycles)
        print_row(m, n, k, t_mine, t_theirs, err)
        if err > 2e-2:
            print(f"  results differ (relative Frobenius norm {err:.2e})", file=sys.stderr)
            return 1
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--dtype", choices=["bf16", "f16"], default="bf16")
    p.add_argument("--layout", choices=["TN", "NT", "NN", "TT"], default="TN")
    p.add_argument("--lead-cycles", type=int, default=2_000_000, help="GPU sleep before each timed pair (~1 ms)")
    p.add_argument("--torch-d", choices=["col", "row"], default="col",
                   help="torch's D: column-major as tessera's (the C++ bench's cuBLAS call) or row-major")
    p.add_argument("--fp8", choices=["tensor", "rowwise"], help="FP8 e4m3 against torch._scaled_mm (see above)")
    p.add_argument("mnk", nargs="*", type=int)
    args = p.parse_args()
    if len(args.mnk) % 3:
        p.error("shapes come as M N K triples")
    shapes = [tuple(args.mnk[i:i + 3]) for i in range(0, len(args.mnk), 3)] or SHAPES
    if args.fp8:
        return fp8_rows(shapes, args.fp8, args)
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float16
    # BLAS letters: A 'T' = K-major (row-major M x K), B 'N' = K-major (column-major K x N).
    a_kmajor, b_kmajor = args.layout[0] == "T", args.layout[1] == "N"
    dev = torch.cuda.get_device_properties(0)
    print(f"device: {dev.name}, {dev.multi_processor_count} SMs; torch {torch.__version__}; tessera {ts.__version__}; "
          f"{args.dtype} {args.layout}, tessera's D column-major, torch's {args.torch_d}-major, "
          f"median of {args.reps} alternating pairs")
    print(f"{'M':>6} {'N':>6} {'K':>6} {'tessera ms':>11} {'TFLOP/s':>8} {'torch ms':>9} {'TFLOP/s':>8} "
          f"{'ratio':>6} {'err':>8}")
    for m, n, k in shapes:
        a = operand(m, k, dtype, a_kmajor, kdim_first=False)
        b = operand(k, n, dtype, b_kmajor, kdim_first=True)
        d_mine = torch.empty((n, m), dtype=dtype, device="cuda").t()      # column-major
        if args.torch_d == "col":
            d_torch = torch.empty((n, m), dtype=dtype, device="cuda").t()  # D column-major: D^T row-major

            def theirs():
                torch.matmul(b.t(), a.t(), out=d_torch.t())
        else:
            d_torch = torch.empty((m, n), dtype=dtype, device="cuda")

            def theirs():
                torch.matmul(a, b, out=d_torch)

        def mine():
            ts.gemm(a, b, d_mine)

        mine()
        theirs()
        torch.cuda.synchronize()
        err = ((d_mine.float() - d_torch.float()).norm() / d_torch.float().norm()).item()
        t_mine, t_theirs = _time_pairs(torch, mine, theirs, args.reps, args.warmup, args.lead_cycles)
        print_row(m, n, k, t_mine, t_theirs, err)
        if err > 1e-2:
            print(f"  results differ (relative Frobenius norm {err:.2e})", file=sys.stderr)
            return 1
    m, n, k = shapes[-1]
    a = operand(m, k, dtype, a_kmajor, kdim_first=False)
    b = operand(k, n, dtype, b_kmajor, kdim_first=True)
    d = torch.empty((n, m), dtype=dtype, device="cuda").t()
    h_mine = host_cost(lambda: ts.gemm(a, b, d))
    h_theirs = host_cost(lambda: torch.matmul(a, b, out=d))
    print(f"host work per call at {m}x{n}x{k}: tessera.gemm {h_mine * 1e6:.1f} us, torch.matmul {h_theirs * 1e6:.1f} us")
    # Where tessera's goes: the Python side (reading the arrays, checks, the description) and
    # the C++ side (_gemm_cuda.run: checks, placement, scratch, launch), each alone; and
    # tessera.gemm(a, b) as a user writes it first (out=None: torch allocates D).
    p = ts._gemm.plan(a, b, d)
    cuda = ts._gemm._cuda()
    h_plan = host_cost(lambda: ts._gemm.plan(a, b, d))
    h_run = host_cost(lambda: cuda.run(p.spec, p.stream, p.waits, p.auto_workspace))
    h_new = host_cost(lambda: ts.gemm(a, b))
    print(f"  tessera.gemm(a, b, out): Python side (plan) {h_plan * 1e6:.1f} us, C++ side (_gemm_cuda.run) "
          f"{h_run * 1e6:.1f} us; tessera.gemm(a, b) (out=None) {h_new * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
