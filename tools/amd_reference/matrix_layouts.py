#!/usr/bin/env python3
"""Prints tests/data/amd_matrix_layouts.jsonl: where AMD's Matrix Instruction Calculator
(github.com/ROCm/amd_matrix_instruction_calculator, matrix_calculator.py) puts every element of
the A, B and D matrices of each AMD atom tessera has, as the calculator's --register-layout
prints it.

Usage: matrix_layouts.py PATH/TO/matrix_calculator.py > tests/data/amd_matrix_layouts.jsonl

One line per (atom, operand): {"atom", "instruction", "arch", "operand" (A, B or D), "rows",
"cols", "cells"}; "cells" is the calculator's table read row by row (A[M][K], B[K][N], D[M][N]),
cells separated by spaces, each cell the calculator's register and lane text (v<register>{<lane>}
with .[hi:lo] when the element is part of a register), several lanes holding one element joined
by '|' (RDNA3's duplicated half-wave). Nothing is computed here: tests/atoms/vendor_atoms_test.cpp
reads the lanes and registers and compares them with the atoms' TV layouts.

The calculator prints its tables with the tabulate package; it runs here with a stand-in that
writes one line per row, tab-separated, so that the tables parse the same whether tabulate is
installed or not.
"""
import json
import os
import subprocess
import sys
import tempfile

# (tessera atom, calculator architecture, instruction), in the registry's order.
ATOMS = [
    ("AMD_CDNA3_MFMA_32x32x2_F32F32F32F32", "cdna3", "v_mfma_f32_32x32x2_f32"),
    ("AMD_CDNA3_MFMA_16x16x4_F32F32F32F32", "cdna3", "v_mfma_f32_16x16x4_f32"),
    ("AMD_CDNA3_MFMA_32x32x8_F32F16F16F32", "cdna3", "v_mfma_f32_32x32x8_f16"),
    ("AMD_CDNA3_MFMA_16x16x16_F32F16F16F32", "cdna3", "v_mfma_f32_16x16x16_f16"),
    ("AMD_CDNA3_MFMA_32x32x8_F32BF16BF16F32", "cdna3", "v_mfma_f32_32x32x8_bf16"),
    ("AMD_CDNA3_MFMA_16x16x16_F32BF16BF16F32", "cdna3", "v_mfma_f32_16x16x16_bf16"),
    ("AMD_CDNA3_MFMA_32x32x16_S32S8S8S32", "cdna3", "v_mfma_i32_32x32x16_i8"),
    ("AMD_CDNA3_MFMA_16x16x32_S32S8S8S32", "cdna3", "v_mfma_i32_16x16x32_i8"),
    ("AMD_CDNA3_MFMA_32x32x16_F32FP8FP8F32", "cdna3", "v_mfma_f32_32x32x16_fp8_fp8"),
    ("AMD_CDNA3_MFMA_16x16x32_F32FP8FP8F32", "cdna3", "v_mfma_f32_16x16x32_fp8_fp8"),
    ("AMD_CDNA3_MFMA_32x32x16_F32FP8BF8F32", "cdna3", "v_mfma_f32_32x32x16_fp8_bf8"),
    ("AMD_CDNA3_MFMA_16x16x32_F32FP8BF8F32", "cdna3", "v_mfma_f32_16x16x32_fp8_bf8"),
    ("AMD_CDNA3_MFMA_32x32x16_F32BF8FP8F32", "cdna3", "v_mfma_f32_32x32x16_bf8_fp8"),
    ("AMD_CDNA3_MFMA_16x16x32_F32BF8FP8F32", "cdna3", "v_mfma_f32_16x16x32_bf8_fp8"),
    ("AMD_CDNA3_MFMA_32x32x16_F32BF8BF8F32", "cdna3", "v_mfma_f32_32x32x16_bf8_bf8"),
    ("AMD_CDNA3_MFMA_16x16x32_F32BF8BF8F32", "cdna3", "v_mfma_f32_16x16x32_bf8_bf8"),
    ("AMD_RDNA3_WMMA_16x16x16_F32F16F16F32", "rdna3", "v_wmma_f32_16x16x16_f16"),
    ("AMD_RDNA3_WMMA_16x16x16_F32BF16BF16F32", "rdna3", "v_wmma_f32_16x16x16_bf16"),
    ("AMD_RDNA3_WMMA_16x16x16_F16F16F16F16", "rdna3", "v_wmma_f16_16x16x16_f16"),
    ("AMD_RDNA3_WMMA_16x16x16_S32S8S8S32", "rdna3", "v_wmma_i32_16x16x16_iu8"),
    ("AMD_RDNA4_WMMA_16x16x16_F32F16F16F32", "rdna4", "v_wmma_f32_16x16x16_f16"),
    ("AMD_RDNA4_WMMA_16x16x16_F32BF16BF16F32", "rdna4", "v_wmma_f32_16x16x16_bf16"),
    ("AMD_RDNA4_WMMA_16x16x16_F16F16F16F16", "rdna4", "v_wmma_f16_16x16x16_f16"),
    ("AMD_RDNA4_WMMA_16x16x16_S32S8S8S32", "rdna4", "v_wmma_i32_16x16x16_iu8"),
    ("AMD_RDNA4_WMMA_16x16x16_F32E4M3E4M3F32", "rdna4", "v_wmma_f32_16x16x16_fp8_fp8"),
    ("AMD_RDNA4_WMMA_16x16x16_F32E4M3E5M2F32", "rdna4", "v_wmma_f32_16x16x16_fp8_bf8"),
    ("AMD_RDNA4_WMMA_16x16x16_F32E5M2E4M3F32", "rdna4", "v_wmma_f32_16x16x16_bf8_fp8"),
    ("AMD_RDNA4_WMMA_16x16x16_F32E5M2E5M2F32", "rdna4", "v_wmma_f32_16x16x16_bf8_bf8"),
]

STAND_IN = '''def tabulate(rows, headers=(), **kw):
    cell = lambda c: str(c).replace("\\n", "|")
    out = ["\\t".join(cell(h) for h in headers)] if headers else []
    out += ["\\t".join(cell(c) for c in r) for r in rows]
    return "\\n".join(out)
'''


def table(calculator, stand_in_dir, arch, instruction, operand):
    """The calculator's --register-layout table of one operand: a list of rows of cell texts."""
    env = dict(os.environ, PYTHONPATH=stand_in_dir)
    out = subprocess.run([sys.executable, calculator, "-a", arch, "-i", instruction, "--register-layout", "-" + operand],
                         env=env, check=True, capture_output=True, text=True).stdout.splitlines()
    header = next(i for i, line in enumerate(out) if line.startswith(operand + "["))
    return [line.split("\t")[1:] for line in out[header + 1:] if line.strip()]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    calculator = sys.argv[1]
    with tempfile.TemporaryDirectory() as stand_in_dir:
        with open(os.path.join(stand_in_dir, "tabulate.py"), "w") as f:
            f.write(STAND_IN)
        for atom, arch, instruction in ATOMS:
            for operand in "ABD":
                rows = table(calculator, stand_in_dir, arch, instruction, operand)
                print(json.dumps({"atom": atom, "instruction": instruction, "arch": arch, "operand": operand,
                                  "rows": len(rows), "cols": len(rows[0]),
                                  "cells": " ".join(" ".join(r) for r in rows)}))


if __name__ == "__main__":
    main()
