#!/usr/bin/env bash
# Regenerates the pictures under docs/ with tessera's own CLI (README links them).
#   tools/make_docs.sh [path/to/tessera]      default: build/bin/tessera
# Every picture is drawn by the built CLI from the command shown next to it; PNGs need
# a build with Cairo. Fails (and leaves the old file in place) when a command fails.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-build/bin/tessera}
[ -x "$T" ] || { echo "error: $T not found: build it first (cmake --build build --target tessera_cli)" >&2; exit 1; }
mkdir -p docs
run() { echo "+ tessera ${*}"; "$T" "$@"; }

# A hierarchical layout: rows mode 0, columns the nested mode (2,4), thicker line every 2 columns.
run render '(4,(2,4)):(2,(1,8))' -o docs/layout.svg
# A swizzled 8x8 shared-memory tile (row-major, Sw<3,0,3>): each row's cells permuted by XOR.
run render 'Sw<3,0,3> o (8,8):(8,1)' -o docs/swizzle.svg
# A TV map: 32 threads x 4 values over a 16x8 tile (the C fragment of SM80's 16x8x8 MMA).
run render '((4,8),(2,2)):((32,1),(16,8))' --tv '(16,8)' -o docs/tv.svg
# An MMA atom: A, B and C of SM80's m16n8k16 (f16 in, f32 accumulate).
run mma SM80_16x8x16_F32F16F16F32_TN -o docs/mma_sm80_16x8x16.svg
# Shared-memory banks: ldmatrix x4 reading rows of an 8x64 fp16 row-major tile is 8-way
# conflicted; the same tile under Sw<3,3,3> is conflict-free. Cells coloured by bank.
run banks '(8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 --bits 16 --summary -o docs/banks_rowmajor.svg
run banks 'Sw<3,3,3> o (8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 --bits 16 --summary \
    -o docs/banks_swizzled.svg
# Global-memory coalescing: rows of 32 floats at a 144-byte pitch straddle sectors; the cells
# in partly used sectors of over-minimum instructions are outlined red. Cells coloured by sector.
run gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 --summary -o docs/gmem_padded.svg
# TMA: a 128x64 swizzled stage tile filled by two 64x64 boxes (one copy each), coloured by box.
run tma '(4096,4096):(1,4096)' 'Sw<3,3,3> o ((64,2),64):((1,4096),64)' -o docs/tma_boxes.svg | tail -n 1
# explain: CuTe's logical_divide example, every input and step a captioned panel.
run explain 'logical_divide((4,2,3):(2,1,8), 4:2)' -o docs/explain_logical_divide.svg | tail -n 1
# diff: a column-major and a row-major 4x8 tile, differing cells marked (status 1 = "differ").
run diff '(4,8):(1,4)' '(4,8):(8,1)' -o docs/diff.svg || [ $? -eq 1 ]
# Colour that carries meaning: a 2x2 tiled MMA coloured by value (atom boundaries in black),
# and a swizzled tile coloured by bank.
run mma SM80_16x8x8_F16F16F16F16_TN --atoms 2x2 --color-by value -o docs/tiled_by_value.svg
run render 'Sw<3,3,3> o (8,64):(64,1)' --color-by bank -o docs/swizzle_by_bank.svg
# Large tiles: heatmaps. An SM90 wgmma atom: A and B are the shared-memory tiles its
# descriptors describe (byte offsets coloured by 16-byte chunk), C the 64x128 accumulator of
# 128 threads (warp boundaries in blue).
run mma SM90_64x128x16_F32BF16BF16_SS -o docs/mma_sm90_64x128x16_ss.svg
run mma SM90_64x64x16_F32BF16BF16_SS --only A -o docs/mma_sm90_smem_a.svg
# The attention kernel's P retile (docs/attention.md): S's accumulator map over one 16-column
# k-block (TiledMmaS: the SS atom, two warpgroups along M) against the A map the RS wgmma of
# O += P V reads P from (TiledMmaO's layoutA_TV), both as the CLI derives them from the atoms.
# Equal, so each thread already holds its P values; diff exits 1 (and this script stops) if not.
s_c=$("$T" mma SM90_64x16x16_F32BF16BF16_SS --atoms 2x1x1 --print-layouts | sed -n 's/^layoutC_TV //p')
o_a=$("$T" mma SM90_64x128x16_F32BF16BF16_RS --atoms 2x1x1 --print-layouts | sed -n 's/^layoutA_TV //p')
run diff "$s_c" "$o_a" --tv '(128,16)' -o docs/attention_p_retile.svg
# An epilogue visitor tree (docs/gemm_epilogue.md): the FP8-scaled SiLU with an amax of D.
run epilogue 'D = store(bf16, silu(acc * sa[m] * sb[n] + bias[n])); amax_d = amax(D)' -o docs/epilogue_tree.svg --no-check
# The interactive page, and a picture of it in a browser (cell T5 V0 of C hovered).
run mma SM80_16x8x16_F32F16F16F32_TN -o docs/mma_sm80_16x8x16.html
# (Debian's python3-selenium lives in /usr/bin/python3's path, which may not be the first python3.)
py=python3
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import selenium' 2>/dev/null; then py=$p; break; fi
done
if "$py" tools/screenshot_html.py docs/mma_sm80_16x8x16.html docs/mma_sm80_16x8x16_html.tmp.png 2 1 1 >/dev/null; then
  mv docs/mma_sm80_16x8x16_html.tmp.png docs/mma_sm80_16x8x16_html.png
  echo "+ tools/screenshot_html.py docs/mma_sm80_16x8x16.html docs/mma_sm80_16x8x16_html.png 2 1 1"
else
  rm -f docs/mma_sm80_16x8x16_html.tmp.png
  echo "note: no screenshot of the HTML page: needs python3-selenium, chromium and chromium-driver"
fi
# The README's notebook picture: the tour notebook as ctest's python_notebook_test executed and
# exported it (build/tests/python/notebook/tour.html), the SM80 atom's C cell (1,1) hovered.
tour=build/tests/python/notebook/tour.html
if [ -f "$tour" ] && "$py" tools/screenshot_html.py --notebook "$tour" docs/notebook_tour.tmp.png 3 2 1 1 >/dev/null; then
  mv docs/notebook_tour.tmp.png docs/notebook_tour.png
  echo "+ tools/screenshot_html.py --notebook $tour docs/notebook_tour.png 3 2 1 1"
else
  rm -f docs/notebook_tour.tmp.png
  echo "note: no notebook picture: run ctest -R python_notebook_test first (needs nbconvert, ipykernel, selenium)"
fi
# PNG through Cairo (when built with it).
if "$T" render '(4,(2,4)):(2,(1,8))' -o docs/layout.png 2>/dev/null; then
  echo "+ tessera render '(4,(2,4)):(2,(1,8))' -o docs/layout.png"
  run mma SM80_16x8x16_F32F16F16F32_TN -o docs/mma_sm80_16x8x16.png
  run render '(256,256):(256,1)' -o docs/heatmap_256x256.png
else
  echo "note: no PNG: this build has no Cairo"
fi
ls -l docs
