#!/bin/sh
# tessera tma, and tessera render of GMMA atoms by name: outputs, known answers, and every
# error path (exit status 1, message on stderr starting error:, caret where located).
# Usage: cli_test.sh TESSERA
T="$1"
. "$(dirname "$0")/../cli_helpers.sh"  # W, fails, bad, expect_ok, expect_err, has_caret..., finish

# --- render by name: the atom's text table, the same as the layout written out
expect_ok render-name "$T" render gmma_k_sw128_bf16
head -n1 "$W/out" | grep -qx 'Sw<3,3,3> o 0 o (8,64):(64,1)' || bad "render gmma_k_sw128_bf16 title ($(head -n1 "$W/out"))"
cp "$W/out" "$W/by_name"
expect_ok render-expr "$T" render 'Sw<3,3,3> o (8,64):(64,1)'
cmp -s "$W/out" "$W/by_name" || bad "render by name differs from the layout written out"
expect_ok render-mn "$T" render gmma_mn_sw32_tf32
head -n1 "$W/out" | grep -qx 'Sw<1,2,3> o 0 o (8,8):(1,8)' || bad "render gmma_mn_sw32_tf32 ($(head -n1 "$W/out"))"
expect_ok render-svg "$T" render gmma_k_inter_e4m3 -o "$W/a.svg"
grep -q '<svg' "$W/a.svg" || bad "render gmma_k_inter_e4m3 -o a.svg wrote no svg"
expect_err render-bad-swizzle "sw32, sw64 or sw128, not 'sw256'" "$T" render gmma_k_sw256_bf16
has_caret_at render-bad-swizzle 7
expect_err render-bad-type "element type" "$T" render gmma_k_sw128_f64
has_caret_at render-bad-type 13
expect_err render-bad-major "k or mn" "$T" render gmma_x_sw128_bf16
"$T" render --help | grep -q 'gmma_<k|mn>_<inter|sw32|sw64|sw128>_<type>' || bad "render --help does not document atom names"

# --- tma: known answers
expect_ok tma-k "$T" tma '(8192,4096):(4096,1)' 'Sw<3,3,3> o (128,64):(64,1)'
has_line tma-k 'tensorRank      2'
has_line tma-k 'globalDim       {4096, 8192}'
has_line tma-k 'globalStrides   {8192}'
has_line tma-k 'boxDim          {64, 128}'
has_line tma-k 'elementStrides  {1, 1}'
has_line tma-k 'swizzle         CU_TENSOR_MAP_SWIZZLE_128B'
has_line tma-k 'interleave      CU_TENSOR_MAP_INTERLEAVE_NONE'
has_line tma-k 'oobFill         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE'
has_line tma-k 'per tile: 1 box of 16384 bytes'
expect_ok tma-atom "$T" tma '(1024,1024):(1024,1)' gmma_k_sw64_tf32
has_line tma-atom 'CU_TENSOR_MAP_DATA_TYPE_UINT32'
has_line tma-atom 'boxDim          {16, 8}'
has_line tma-atom 'CU_TENSOR_MAP_SWIZZLE_64B'
expect_ok tma-batched "$T" tma '(4096,4096,8):(1,4096,16777216)' '(64,32):(1,64)' --bits 16
has_line tma-batched 'globalStrides   {8192, 33554432}'
has_line tma-batched 'boxDim          {64, 32, 1}'
expect_ok tma-boxes "$T" tma '(4096,4096):(1,4096)' 'Sw<3,3,3> o ((64,2),64):((1,4096),64)'
has_line tma-boxes 'per tile: 2 boxes of 8192 bytes ({2, 1} per dim)'
expect_err tma-overlap "two boxes of the smem tile overlap" "$T" tma '(4096,4096):(1,4096)' 'Sw<3,3,3> o ((64,2),64):((1,512),64)'
"$T" --help | grep -q ' tma ' || bad "tessera --help does not list tma"
# --- tma: the boxes drawn over the tile (text: box numbers; svg written atomically)
expect_ok tma-draw "$T" tma '(4096,4096):(1,4096)' 'Sw<3,3,3> o ((64,2),64):((1,4096),64)' -f txt
grep -q 'TMA boxes {64, 64} over' "$W/out" || bad "tma -f txt: no boxes title ($(cat "$W/out"))"
[ "$(grep -c '| 1 |' "$W/out")" -eq 64 ] || bad "tma -f txt: box 1 is not the 64 rows of the second M block"
expect_ok tma-draw-svg "$T" tma '(8192,4096):(4096,1)' 'Sw<3,3,3> o (128,(64,2)):(64,(1,8192))' -o "$W/boxes.svg"
grep -q '<svg' "$W/boxes.svg" || bad "tma -o boxes.svg wrote no svg"
expect_err tma-draw-rank "rank-2 smem tile" "$T" tma '(64,64):(1,64)' '64:1' -f txt
expect_err tma-draw-none "cannot" "$T" tma '(100,64):(1,100)' '(64,8):(1,64)' -o "$W/never.svg"
[ -e "$W/never.svg" ] && bad "tma: a refused copy left a drawing behind"

# --- tma: refusals, each naming its rule
expect_err tma-stride "globalStrides[i] must be a multiple of 16 bytes (mode 1)" "$T" tma '(100,64):(1,100)' '(64,8):(1,64)'
has_caret_at tma-stride 0
expect_err tma-transpose "does not transpose" "$T" tma '(4096,4096):(4096,1)' gmma_mn_sw128_bf16
expect_err tma-rank "tensorRank <= 5" "$T" tma '(2,2,2,2,2,64):(64,32,16,8,4,1)' '64:1'
expect_err tma-box "boxDim[i] must lie in [1, 256]" "$T" tma '(4096,4096):(1,4096)' '(512,2):(1,512)' --box '(512,0)'
expect_err tma-swizzle "smem swizzle must be none or Sw<B, log2(16 bytes / element), 3>" "$T" tma '(64,64):(64,1)' 'Sw<3,4,3> o (8,64):(64,1)'
expect_err tma-contig "needs a contiguous mode" "$T" tma '(64,64):(2,128)' '(8,8):(8,1)'
expect_err tma-align "multiple of 128 bytes" "$T" tma '(4096,4096):(1,4096)' '(64,8):(1,72)'
expect_err tma-bits "contradicts the atom's 16-bit elements" "$T" tma '(64,64):(64,1)' gmma_k_sw128_bf16 --bits 32
expect_err tma-flat "flat modes" "$T" tma '((64,2),64):((1,64),128)' '(64,8):(1,64)'
expect_err tma-parse "GMEM" "$T" tma '(64,64):(64,' '(8,8):(8,1)'
has_caret_at tma-parse 12
expect_err tma-missing "SMEM" "$T" tma '(64,64):(64,1)'
expect_err tma-extra "unexpected argument" "$T" tma '(64,64):(64,1)' '(8,8):(8,1)' extra

# --- the attention kernel's P retile as docs/attention.md draws it (tools/make_docs.sh): S's
# accumulator map over one 16-column k-block and the A map of the RS wgmma that reads P, both
# from the atoms, are the same TV layout; with three warpgroups on S's side they are not.
"$T" mma SM90_64x16x16_F32BF16BF16_SS --atoms 2x1x1 --print-layouts >"$W/s2" || bad "retile: mma SS --print-layouts failed"
"$T" mma SM90_64x16x16_F32BF16BF16_SS --atoms 3x1x1 --print-layouts >"$W/s3" || bad "retile: mma SS 3x1x1 --print-layouts failed"
"$T" mma SM90_64x128x16_F32BF16BF16_RS --atoms 2x1x1 --print-layouts >"$W/o2" || bad "retile: mma RS --print-layouts failed"
s_c=$(sed -n 's/^layoutC_TV //p' "$W/s2")
s3_c=$(sed -n 's/^layoutC_TV //p' "$W/s3")
o_a=$(sed -n 's/^layoutA_TV //p' "$W/o2")
[ -n "$s_c" ] && [ -n "$o_a" ] && [ -n "$s3_c" ] || bad "retile: no layoutC_TV / layoutA_TV line"
expect_ok retile-equal "$T" diff "$s_c" "$o_a" --tv '(128,16)' -o "$W/retile.svg"
grep -q '^equal to the letter: ' "$W/out" || bad "retile: S's k-block map and the RS A map differ ($(cat "$W/out"))"
grep -q '<svg' "$W/retile.svg" || bad "retile: no svg written"
"$T" diff "$s3_c" "$o_a" --tv '(192,16)' --brief >"$W/out" 2>"$W/err"
st=$?
[ "$st" -eq 1 ] || bad "retile: three warpgroups against two: exit $st, want 1 ($(cat "$W/out" "$W/err"))"
grep -q '^differ' "$W/out" || bad "retile: three warpgroups against two: no 'differ' verdict ($(cat "$W/out"))"

finish "tma / gmma CLI"
