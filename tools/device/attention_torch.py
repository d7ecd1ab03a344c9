#!/usr/bin/env python3
"""torch.nn.functional.scaled_dot_product_attention at the attention issue's shapes (bf16,
B4 H16, S 4096/8192/16384, D 128, 64 and 256, causal and not), per backend (cuDNN, flash)
through torch.nn.attention.sdpa_kernel (a backend that refuses a shape, as an older cuDNN may
at D 256, prints its reason and a row of dashes): median milliseconds and TFLOP/s (4*B*H*S*S*D, halved when
causal; each call behind a GPU sleep, so torch's host work is not counted: torch_timing.py), the
anchors tessera's attention_bench is read against.

With --compare DIR (the files `attention_bench --dump DIR` writes), tessera's outputs are
compared with torch's (the math backend in f32 over the same bf16 inputs): max |O - O_torch|
and max |LSE - LSE_torch|, and a non-zero exit when they are off.

  python3 tools/device/attention_torch.py [--reps N] [--compare DIR]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_timing import time_ms  # noqa: E402


def compare(torch, F, directory):
    bad = 0
    with open(os.path.join(directory, "attn_dump.txt")) as f:
        lines = [line.split() for line in f if line.strip()]
    for stem, B, S, H, D, causal in lines:
        B, S, H, D, causal = int(B), int(S), int(H), int(D), causal == "1"

        def load(what, dtype, shape):
            t = torch.from_file(os.path.join(directory, f"{stem}.{what}.bin"), dtype=dtype, size=int(torch.tensor(shape).prod()))
            return t.reshape(shape).cuda()

        q, k, v, o = (load(w, torch.bfloat16, (B, S, H, D)) for w in ("q", "k", "v", "o"))
        lse = load("lse", torch.float32, (B, H, S))
        qf, kf, vf = (x.float().transpose(1, 2) for x in (q, k, v))  # (B, H, S, D)
        scale = D ** -0.5
        s = (qf @ kf.transpose(-1, -2)) * scale
        if causal:
            s = s.masked_fill(torch.ones(S, S, dtype=torch.bool, device="cuda").triu(1), float("-inf"))
        ref_lse = torch.logsumexp(s, dim=-1)
        ref = (torch.softmax(s, dim=-1) @ vf).transpose(1, 2)
        with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
            sdpa = F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal).transpose(1, 2)
        e_o = (o.float() - ref).abs().max().item()
        e_sdpa = (sdpa - ref).abs().max().item()
        e_lse = (lse - ref_lse).abs().max().item()
        ok = e_o <= 2e-2 and e_lse <= 1e-3
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {stem}: max |O - torch| {e_o:.2e} (torch math SDPA vs f32: {e_sdpa:.2e}), max |LSE - torch| {e_lse:.2e}")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--compare", metavar="DIR")
    args = ap.parse_args()
    try:
        import torch
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError as e:
        print(f"torch not available ({e}): skipped")
        return 77
    if not torch.cuda.is_available():
        print("no CUDA device: skipped")
        return 77
    bad = compare(torch, F, args.compare) if args.compare else 0
    print(f"device: {torch.cuda.get_device_name()} torch {torch.__version__}")
    print(f"{'shape (bf16)':<24} {'backend':<8} {'full ms':>9} {'TFLOP/s':>8} {'causal ms':>10} {'TFLOP/s':>8}")
    backends = [("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)]
    for D in (128, 64, 256):
        for S in (4096, 8192, 16384):
            B, H = 4, 16
            q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16) for _ in range(3))
            flop = 4.0 * B * H * S * S * D
            for name, backend in backends:
                row = []
                for causal in (False, True):
                    try:
                        with sdpa_kernel(backend):
                            ms = time_ms(torch, lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal), args.reps)
                        row.append((ms, flop / (2 if causal else 1) / ms * 1e-9))
                    except RuntimeError as e:
                        row.append(None)
                        print(f"  ({name} {'causal' if causal else 'full'}: {str(e).splitlines()[0]})")
                cells = "".join(f" {r[0]:9.3f} {r[1]:8.1f}" if r else f" {'-':>9} {'-':>8}" for r in row)
                print(f"{f'B{B} H{H} S{S} D{D}':<24} {name:<8}{cells}")
            del q, k, v
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
