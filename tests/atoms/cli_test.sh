#!/bin/sh
# tessera mma / copy / banks / list: outputs, known answers, and every error path
# (exit status 1, message on stderr, caret where the input is located, no output file).
# Usage: cli_test.sh TESSERA DATA_DIR HAS_CAIRO
T="$1"; DATA="$2"; CAIRO="$3"
. "$(dirname "$0")/../cli_helpers.sh"  # W, fails, bad, expect_ok, expect_err, has_caret..., finish

M=SM80_16x8x16_F32F16F16F32_TN

# --- list
expect_ok list "$T" list atoms
n_mma=$(grep -c '^mma ' "$W/out"); n_copy=$(grep -c '^copy ' "$W/out")
cp "$W/out" "$W/all_mma"
[ "$n_mma" -eq 11325 ] || bad "list: $n_mma MMA atoms, want 11325 (UniversalFMA, 8 SM70, 1 SM75, 9 SM80, 8 SM89, 8 x 32 wgmma, 16 x 32 + 8 x 18 8-bit wgmma, 840 + 9392 tcgen05.mma, 78 SM120, 28 AMD, 48 Intel)"
[ "$n_copy" -eq 169 ] || bad "list: $n_copy copy atoms, want 169 (5 universal, 6 ldmatrix, 6 stmatrix, 4 cp.async, 148 tcgen05.ld/st)"
for name in UniversalFMA SM70_8x8x4_F16F16F16F16_TN SM75_16x8x8_F32F16F16F32_TN SM80_16x8x8_F32TF32TF32F32_TN \
            SM80_8x8x4_F64F64F64F64_TN SM80_16x8x32_S32S8S8S32_TN SM90_64x256x16_F32BF16BF16_RS \
            SM90_64x8x16_F16F16F16_SS SM90_64x256x8_F32TF32TF32_SS SM90_64x8x8_F32TF32TF32_RS 'UniversalCopy<uint128_t>' SM75_U16x8_LDSM_T SM90_U16x8_STSM_T 'SM80_CP_ASYNC_CACHEGLOBAL<16>'; do
  grep -qF " $name " "$W/out" || bad "list: $name missing"
done
expect_ok list-mma "$T" list atoms --mma SM80_16x8x16
grep -q '^copy ' "$W/out" && bad "list --mma printed copy atoms"
[ "$(wc -l <"$W/out")" -eq 3 ] || bad "list --mma SM80_16x8x16: $(wc -l <"$W/out") lines, want 3"
grep -q '^mma  SM80_16x8x16_F32F16F16F32_TN  SM80  16x8x16  D=f32 A=f16 B=f16 C=f32  threads 32$' "$W/out" ||
  bad "list line format ($(cat "$W/out"))"
expect_ok list-copy "$T" list atoms --copy ldsm
[ "$(wc -l <"$W/out")" -eq 6 ] || bad "list --copy ldsm: want 6 lines"
# What a copy atom moves, per side: threads holding distinct data x bits each (PTX ldmatrix:
# .x1/.x2/.x4 take 8/16/32 row addresses of 128 bits, and each of the 32 threads receives
# 1/2/4 32-bit registers; .trans moves the same bits).
for a in 'SM75_U32x1_LDSM_N:8x128:32x32' 'SM75_U32x2_LDSM_N:16x128:32x64' 'SM75_U32x4_LDSM_N:32x128:32x128' \
         'SM75_U16x2_LDSM_T:8x128:32x32' 'SM75_U16x4_LDSM_T:16x128:32x64' 'SM75_U16x8_LDSM_T:32x128:32x128'; do
  atom=${a%%:*}; rest=${a#*:}; src=${rest%%:*}; dst=${rest#*:}
  expect_ok "list-$atom" "$T" list atoms --copy "$atom"
  grep -qx "copy $atom  SM75  src $src bits  dst $dst bits  smem src  threads 32" "$W/out" ||
    bad "list $atom: $(cat "$W/out"), want src $src dst $dst"
done
expect_ok list-universal "$T" list atoms --copy 'UniversalCopy<uint128_t>'
grep -q '  src 1x128 bits  dst 1x128 bits  smem either  threads 1$' "$W/out" || bad "list UniversalCopy_128 ($(cat "$W/out"))"
# Every copy atom moves as many bits out as in.
"$T" list atoms --copy >"$W/all" 2>/dev/null
while read -r _ name _ _ src _ _ dst _; do
  s=$(( ${src%x*} * ${src#*x} )); d=$(( ${dst%x*} * ${dst#*x} ))
  [ "$s" -eq "$d" ] || bad "list $name: src $src and dst $dst move different amounts"
done <"$W/all"
expect_err list-none "no atom matches 'zzz'" "$T" list atoms zzz
expect_err list-what "atoms" "$T" list nothing
# --vendor and --arch, and the count line on standard error (standard output: one atom a line).
expect_ok list-amd "$T" list atoms --vendor amd
[ "$(wc -l <"$W/out")" -eq 28 ] || bad "list --vendor amd: $(wc -l <"$W/out") lines, want 28"
grep -qx '28 atoms: 28 mma, 0 copy (amd 28)' "$W/err" || bad "list --vendor amd: count line ($(cat "$W/err"))"
grep -q '^mma  AMD_CDNA3_MFMA_32x32x8_F32F16F16F32  gfx942  32x32x8  D=f32 A=f16 B=f16 C=f32  threads 64  wave 64$' "$W/out" ||
  bad "list --vendor amd: the MFMA line ($(head -3 "$W/out"))"
expect_ok list-intel "$T" list atoms --vendor intel --arch XE-HPG
[ "$(wc -l <"$W/out")" -eq 24 ] || bad "list --vendor intel --arch xe-hpg: $(wc -l <"$W/out") lines, want 24"
grep -v '  xe-hpg  .*  threads 8  wave 8$' "$W/out" | grep -q . && bad "list --arch xe-hpg: another arch or wave size"
expect_ok list-sm90 "$T" list atoms --arch sm90 --mma
grep -v '  SM90a  ' "$W/out" | grep -q . && bad "list --arch sm90: an atom of another arch"
expect_ok list-all-count "$T" list atoms
grep -qx '11494 atoms: 11325 mma, 169 copy (nvidia 11412, amd 28, intel 48, any 6)' "$W/err" || bad "list: count line ($(cat "$W/err"))"
expect_err list-vendor "--vendor must be nvidia, amd or intel, not 'arm'" "$T" list atoms --vendor arm
expect_err list-arch "no atom matches for arch gfx90a" "$T" list atoms --arch gfx90a
expect_err list-vendor-arch "no atom matches of vendor amd for arch SM80" "$T" list atoms --vendor amd --arch SM80
# A 64-lane MFMA atom drawn: lanes T0..T63, no warp boundary inside the wavefront.
expect_ok mma-mfma "$T" mma AMD_CDNA3_MFMA_16x16x16_F32F16F16F32 -o "$W/mfma.svg"
for t in T0 T31 T32 T63; do grep -q ">$t<" "$W/mfma.svg" || bad "mma MFMA svg lacks $t"; done
grep -q 'warp boundaries' "$W/mfma.svg" && bad "mma MFMA svg draws a warp boundary inside one wavefront"
expect_ok mma-mfma-2 "$T" mma AMD_CDNA3_MFMA_16x16x16_F32F16F16F32 --atoms 2x1 -o "$W/mfma2.svg"
grep -q 'threads 64w to 64w+63' "$W/mfma2.svg" || bad "mma MFMA 2x1 svg: no wavefront boundary legend"
expect_err copy-for-amd "tessera's copy atoms and shared-memory bank model are NVIDIA's" \
  "$T" copy SM75_U32x4_LDSM_N --for-mma AMD_CDNA3_MFMA_16x16x16_F32F16F16F32 --operand A

# --- mma: diagrams equal the golden files the C++ test checks
expect_ok mma-txt "$T" mma $M
cmp -s "$W/out" "$DATA/mma_sm80_16x8x16.txt" || bad "mma txt differs from golden"
expect_ok mma-svg "$T" mma $M -o "$W/m.svg"
cmp -s "$W/m.svg" "$DATA/mma_sm80_16x8x16.svg" || bad "mma svg differs from golden"
expect_ok mma-tex "$T" mma SM80_16x8x8_F16F16F16F16_TN --atoms 2x2x1 -f tex
cmp -s "$W/out" "$DATA/mma_sm80_16x8x8_2x2x1.tex" || bad "tiled mma tex differs from golden"
expect_ok mma-layouts "$T" mma $M --atoms 2x2 --print-layouts
cut -d' ' -f1 "$W/out" | tr '\n' ' ' |
  grep -qx 'ThrID ALayout BLayout CLayout thr_layout_vmnk layoutA_TV layoutB_TV layoutC_TV tile ' ||
  bad "print-layouts line names ($(cat "$W/out"))"
grep -qx 'tile (32,16,16)' "$W/out" || bad "print-layouts tile"
grep -qx 'layoutC_TV ((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))' "$W/out" || bad "print-layouts C"
# The atom's own traits, whatever the tiling (CuTe's SM80_16x8_Row C layout).
grep -qx 'ThrID 32:1' "$W/out" || bad "print-layouts ThrID ($(cat "$W/out"))"
grep -qx 'CLayout ((4,8),(2,2)):((32,1),(16,8))' "$W/out" || bad "print-layouts CLayout ($(cat "$W/out"))"
# Every printed layout evaluates back to itself (scripts re-read them).
for l in $(cut -d' ' -f2 "$W/out" | head -8); do
  [ "$("$T" eval "$l")" = "$l" ] || bad "print-layouts: $l does not round-trip through eval"
done
# SM70's quad pair: the atom's A is over its 8 logical threads (MMA_Traits: ThrID (4,2):(1,16),
# ALayout SM70_8x4_Row), while the tiled get_layoutA_TV, re-indexed by right_inverse(thr),
# covers threads 0-3 of a single atom: each under its own name.
expect_ok mma-sm70-layouts "$T" mma SM70_8x8x4_F32F16F16F32_TN --print-layouts
grep -qx 'ThrID (4,2):(1,16)' "$W/out" || bad "sm70 ThrID ($(cat "$W/out"))"
grep -qx 'ALayout (8,4):(1,8)' "$W/out" || bad "sm70 ALayout ($(cat "$W/out"))"  # SM70_8x4_Row
grep -qx 'CLayout ((2,2,2),(2,2,2)):((1,16,4),(8,2,32))' "$W/out" || bad "sm70 CLayout ($(cat "$W/out"))"
expect_ok mma-sm70-nt "$T" mma SM70_8x8x4_F32F16F16F32_NT --print-layouts
grep -qx 'ALayout ((4,2),4):((8,4),1)' "$W/out" || bad "sm70 NT ALayout ($(cat "$W/out"))"  # SM70_8x4_Col
expect_ok mma-sm70-layouts "$T" mma SM70_8x8x4_F32F16F16F32_TN --print-layouts
a_atom=$(sed -n 's/^ALayout //p' "$W/out"); a_tiled=$(sed -n 's/^layoutA_TV //p' "$W/out")
[ "$("$T" eval "size(get($a_atom,0))")" = 8 ] || bad "sm70 ALayout: not over 8 threads"
[ "$("$T" eval "size(get($a_tiled,0))")" = 4 ] || bad "sm70 layoutA_TV: not over 4 threads ($a_tiled)"
expect_ok mma-permute "$T" mma SM80_16x8x8_F16F16F16F16_TN --atoms 2x2 --permute '32,(8,2,2):(1,16,8),8' --print-layouts
grep -qx 'tile (32,32,8)' "$W/out" || bad "permute tile ($(cat "$W/out"))"
if [ "$CAIRO" = "1" ] || [ "$CAIRO" = "ON" ] || [ "$CAIRO" = "TRUE" ]; then
  expect_ok mma-png "$T" mma $M -o "$W/m.png"
  head -c 4 "$W/m.png" | grep -q PNG || bad "png magic"
  expect_ok mma-pdf "$T" mma SM90_64x16x16_F32F16F16_SS -o "$W/m.pdf"
  head -c 5 "$W/m.pdf" | grep -q '%PDF-' || bad "pdf magic"
fi
expect_err mma-unknown "unknown MMA atom 'SM80_16x8x16_F32F16F16_TN'; did you mean: SM80_16x8x16_F32F16F16F32_TN" \
  "$T" mma SM80_16x8x16_F32F16F16_TN -o "$W/no1.svg"
[ -e "$W/no1.svg" ] && bad "mma-unknown left an output file"
expect_err mma-atoms "expected 'x' between atom counts" "$T" mma $M --atoms 2y2; has_caret mma-atoms
expect_err mma-atoms0 "must be positive" "$T" mma $M --atoms 2x0x1; has_caret mma-atoms0
expect_err mma-atoms4 "two or three atom counts" "$T" mma $M --atoms 1x1x1x1
expect_err mma-perm "not a multiple of atom extent" "$T" mma $M --permute 24,8,16 -o "$W/no2.svg"
[ -e "$W/no2.svg" ] && bad "mma-perm left an output file"
expect_err mma-perm-parse "--permute" "$T" mma $M --permute '(16,8:,16)'; has_caret mma-perm-parse
expect_err mma-format "unknown format 'bmp'" "$T" mma $M -f bmp
expect_err mma-ext "cannot tell the format" "$T" mma $M -o "$W/x.bmp"
expect_err mma-option "unknown option '--bogus'" "$T" mma $M --bogus
expect_err mma-extra "unexpected argument 'extra'" "$T" mma $M extra
expect_err mma-force "pass --force" "$T" mma SM90_64x256x16_F32F16F16_SS --atoms 4x2x1

# --- SM90 shared-memory operands, --only, --smem-layout
SS=SM90_64x64x16_F32BF16BF16_SS
expect_ok mma-ss "$T" mma $SS
grep -q '^A in shared memory Sw<3,3,3> o 0 o (64,64):(64,1)$' "$W/out" || bad "ss: A's smem title ($(head -3 "$W/out"))"
grep -qx 'A desc M 0-63, K 0-15: start 0 B, LBO 16 B (unused), SBO 1024 B, swizzle 128B, base offset 0 (0x4000004000010000)' "$W/out" ||
  bad "ss: A's descriptor ($(grep desc "$W/out"))"
grep -q '^B desc N 0-63, K 0-15: ' "$W/out" || bad "ss: B's descriptor"
grep -q 'T0V0' "$W/out" || bad "ss: C is a TV map"
grep -q '^A ((' "$W/out" && bad "ss: A drawn as a TV map"
# Two atoms along M: each reads its 64 rows of one (128,64) buffer, 8192 B apart.
expect_ok mma-ss-tiled "$T" mma $SS --atoms 2x1x1 --only A
grep -qx 'A desc M 64-127, K 0-15: start 8192 B, LBO 16 B (unused), SBO 1024 B, swizzle 128B, base offset 0 (0x4000004000010200)' "$W/out" ||
  bad "ss 2x1x1: the second atom's descriptor ($(grep desc "$W/out"))"
expect_ok mma-only-c "$T" mma $SS --only C
grep -q 'shared memory' "$W/out" && bad "--only C drew A or B"
grep -q '^C ' "$W/out" || bad "--only C lacks C"
expect_ok mma-only-ab "$T" mma $SS --only a --only B
grep -q '^C ' "$W/out" && bad "--only a --only B drew C"
[ "$(grep -c 'in shared memory' "$W/out")" = 2 ] || bad "--only a --only B: not A and B"
expect_ok mma-only-list "$T" mma $SS --only A,C -o "$W/ac.svg"
grep -q 'A in shared memory' "$W/ac.svg" || bad "--only A,C: no A in the SVG"
grep -q 'B in shared memory' "$W/ac.svg" && bad "--only A,C: B in the SVG"
grep -q 'A desc M 0-63' "$W/ac.svg" || bad "--only A,C: the SVG lacks the descriptor"
expect_ok mma-only-layouts "$T" mma $SS --only C --print-layouts
cut -d' ' -f1 "$W/out" | tr '\n' ' ' | grep -qx 'ThrID CLayout thr_layout_vmnk layoutC_TV tile ' ||
  bad "--only C --print-layouts ($(cat "$W/out"))"
expect_ok mma-rs "$T" mma SM90_64x64x16_F32BF16BF16_RS
grep -q '^A ((' "$W/out" || bad "rs: A is a TV map"
grep -q '^B in shared memory' "$W/out" || bad "rs: B from shared memory"
grep -q '^A desc' "$W/out" && bad "rs: A has no descriptor"
expect_ok mma-smem-mn "$T" mma $SS --smem-layout mn_sw64 --only B
# MN-major 64B bf16 atoms are 32 of N: two along N, 512 B apart (LBO); K groups of 8 at SBO.
grep -qx 'B desc N 0-63, K 0-15: start 0 B, LBO 512 B, SBO 1024 B, swizzle 64B, base offset 0 (0x8000004000200000)' "$W/out" ||
  bad "mn_sw64: B's descriptor ($(grep desc "$W/out"))"
expect_ok mma-smem-full "$T" mma $SS --smem-layout gmma_k_inter_bf16 --only A
# Interleaved 128-byte core matrices, M first: 8-row groups 128 B apart (SBO), K halves 1024 B (LBO).
grep -q 'A desc M 0-63, K 0-15: start 0 B, LBO 1024 B, SBO 128 B, swizzle none' "$W/out" ||
  bad "k_inter: A's descriptor ($(grep desc "$W/out"))"
expect_err mma-only-bad "--only takes A, B and C" "$T" mma $SS --only A,D; has_caret mma-only-bad
expect_err mma-smem-bad "the swizzle is inter, sw32, sw64 or sw128" "$T" mma $SS --smem-layout k_sw48; has_caret mma-smem-bad
expect_err mma-smem-width "holds 32-bit elements" "$T" mma $SS --smem-layout k_sw128_tf32
expect_err mma-smem-reg "reads no operand from shared memory" "$T" mma $M --smem-layout k_sw128
# tf32 wgmma (m64nNk8): K-major operands only (the ISA transposes 16-bit types alone).
expect_ok mma-tf32 "$T" mma SM90_64x16x8_F32TF32TF32_SS --only A
has_line mma-tf32 "A in shared memory Sw<3,2,3> o 0 o (64,32):(32,1)"
has_line mma-tf32 "A desc M 0-63, K 0-7: start 0 B, LBO 16 B (unused), SBO 1024 B, swizzle 128B"
expect_err mma-tf32-mn "reads K-major tf32 operands only" "$T" mma SM90_64x16x8_F32TF32TF32_SS --smem-layout mn_sw64; has_caret_at mma-tf32-mn 0
expect_err mma-tf32-mn2 "reads K-major tf32 operands only" "$T" mma SM90_64x16x8_F32TF32TF32_RS --smem-layout gmma_mn_sw64_tf32
has_caret_at mma-tf32-mn2 5
# 8-bit wgmma (m64nNk32, CuTe's names ending in _TN): K-major operands only; s8/u8 lack N = 40.
[ "$(grep -c '^mma  SM90_64x[0-9]*x32_' "$W/all_mma")" -eq 656 ] || bad "list: $(grep -c '^mma  SM90_64x[0-9]*x32_' "$W/all_mma") 8-bit wgmma atoms, want 656"
grep -qx 'mma  SM90_64x256x32_F16E5M2E4M3_RS_TN  SM90a  64x256x32  D=f16 A=e5m2 B=e4m3 C=f16  threads 128' "$W/all_mma" ||
  bad "list: the f16 e5m2 x e4m3 RS atom ($(grep F16E5M2E4M3_RS "$W/all_mma" | tail -1))"
grep -qx 'mma  SM90_64x48x32_S32U8S8_SS_TN  SM90a  64x48x32  D=s32 A=u8 B=s8 C=s32  threads 128' "$W/all_mma" ||
  bad "list: the u8 x s8 SS atom ($(grep S32U8S8_SS "$W/all_mma" | head -1))"
grep -q 'SM90_64x40x32_S32' "$W/all_mma" && bad "list: an s8/u8 atom with N = 40"
expect_ok mma-fp8 "$T" mma SM90_64x16x32_F32E4M3E4M3_SS_TN --only A
has_line mma-fp8 "A in shared memory Sw<3,4,3> o 0 o (64,128):(128,1)"
has_line mma-fp8 "A desc M 0-63, K 0-31: start 0 B, LBO 16 B (unused), SBO 1024 B, swizzle 128B"
expect_ok mma-fp8-layouts "$T" mma SM90_64x24x32_S32S8U8_RS_TN --print-layouts
has_line mma-fp8-layouts "ALayout ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"
has_line mma-fp8-layouts "BLayout (128,(24,32)):(0,(1,24))"
expect_ok mma-fp8-svg "$T" mma SM90_64x64x32_F16E5M2E5M2_RS_TN -o "$W/fp8.svg"
grep -q 'B desc N 0-63, K 0-31' "$W/fp8.svg" || bad "mma-fp8-svg: B's descriptor missing from the SVG"
expect_ok mma-fp8-k-sw32 "$T" mma SM90_64x16x32_F32E5M2E5M2_SS_TN --smem-layout k_sw32 --only B
has_line mma-fp8-k-sw32 "B desc N 0-15, K 0-31: start 0 B, LBO 16 B (unused), SBO 256 B, swizzle 32B"
expect_err mma-fp8-mn "reads K-major 8-bit operands only" "$T" mma SM90_64x16x32_F32E4M3E5M2_SS_TN --smem-layout mn_sw64
has_caret_at mma-fp8-mn 0
expect_err mma-s8-n40 "unknown MMA atom 'SM90_64x40x32_S32S8S8_SS_TN'" "$T" mma SM90_64x40x32_S32S8S8_SS_TN
expect_err mma-fp8-tn "did you mean: SM90_64x128x32_F32E4M3E4M3_SS_TN" "$T" mma SM90_64x128x32_F32E4M3E4M3_SS
expect_err mma-smem-fit "is 64 (MN) x 8 (K) elements" "$T" mma SM90_64x8x16_F32BF16BF16_SS --smem-layout mn_sw128 -o "$W/no4.svg"
[ -e "$W/no4.svg" ] && bad "mma-smem-fit left an output file"

# --- copy
expect_ok copy-layouts "$T" copy SM75_U32x4_LDSM_N --for-mma $M --operand A --print-layouts
cut -d' ' -f1 "$W/out" | tr '\n' ' ' | grep -qx 'ThrID SrcLayout DstLayout RefLayout src dst tile ' || bad "copy print-layouts names"
grep -qx 'tile (16,16)' "$W/out" || bad "copy tile"
# The destination of ldmatrix for A is the MMA's A fragment, value for value.
a_line=$("$T" mma $M --print-layouts | sed -n 's/^layoutA_TV //p'); d_line=$(sed -n 's/^dst //p' "$W/out")
# Same function: coalesce drops the size-1 modes both print differently.
[ "$("$T" eval "coalesce($a_line)")" = "$("$T" eval "coalesce($d_line)")" ] || bad "copy dst != mma A ($a_line vs $d_line)"
expect_ok copy-txt "$T" copy SM75_U32x4_LDSM_N --for-mma $M --operand A
cmp -s "$W/out" "$DATA/copy_ldsm_x4_a.txt" || bad "copy txt differs from golden"
expect_ok copy-threads "$T" copy UniversalCopy_128 --threads '(4,8):(8,1)' --values '(1,8)' --print-layouts
grep -qx 'tile (4,64)' "$W/out" || bad "copy threads tile ($(cat "$W/out"))"
expect_err copy-unknown "unknown copy atom 'SM75_U32x4_LDSM'; did you mean: SM75_U32x4_LDSM_N" "$T" copy SM75_U32x4_LDSM --threads 32 --values 8
expect_err copy-layout "--threads" "$T" copy UniversalCopy_128 --threads '(4,8):(8,1' --values '(1,8)'; has_caret copy-layout
expect_err copy-vals "not a multiple of the atom's" "$T" copy UniversalCopy_128 --threads '(4,8):(8,1)' --values '(1,4)' -o "$W/no3.svg"
[ -e "$W/no3.svg" ] && bad "copy-vals left an output file"
expect_err copy-both "not both" "$T" copy SM75_U32x4_LDSM_N --threads 32 --values 8 --for-mma $M --operand A
expect_err copy-none "give --threads" "$T" copy SM75_U32x4_LDSM_N
expect_err copy-operand "--operand must be A, B or C" "$T" copy SM75_U32x4_LDSM_N --for-mma $M --operand D
expect_err copy-mma "unknown MMA atom" "$T" copy SM75_U32x4_LDSM_N --for-mma SM80_16x8x16 --operand A
expect_err copy-bits "element width" "$T" copy SM75_U32x4_LDSM_N --for-mma $M --operand A --bits 12

# --- banks: the known answers
TV='((8,4),(8,2)):((1,64),(8,256))'
expect_ok banks-plain "$T" banks '(8,64):(64,1)' --tv "$TV" --vec 8 --bits 16
grep -qx 'summary: instructions 2, wavefronts 64, ideal 8, extra 56, conflict factor 8.00, max degree 8 (8-way conflicted)' "$W/out" ||
  bad "banks 8-way ($(cat "$W/out"))"
[ "$(grep -c '^instr ' "$W/out")" -eq 2 ] || bad "banks: want 2 instruction lines"
expect_ok banks-swz "$T" banks 'Sw<3,3,3> o (8,64):(64,1)' --tv "$TV" --vec 8 --bits 16 -o "$W/b.svg"
grep -q 'extra 0, conflict factor 1.00, max degree 1 (conflict-free)' "$W/out" || bad "banks swizzled ($(cat "$W/out"))"
[ -s "$W/b.svg" ] || bad "banks -o wrote nothing"
expect_ok banks-mma "$T" banks '(32,64):(64,1)' --access ldsm:SM75_U32x4_LDSM_N --for-mma $M --atoms 2x2 --operand A --summary
grep -q 'instructions 16, wavefronts 512, ideal 64, extra 448' "$W/out" || bad "banks ldsm for-mma ($(cat "$W/out"))"
expect_ok banks-cp "$T" banks '(32,64):(64,1)' --access SM80_CP_ASYNC_CACHEALWAYS_16 --threads '(32,4):(4,1)' --values '(1,8)' --summary
grep -q 'max degree 2 (2-way conflicted)' "$W/out" || bad "banks cp.async ($(cat "$W/out"))"
expect_err banks-smem "SMEM" "$T" banks '(8,64):(64,1' --tv "$TV" --vec 8; has_caret banks-smem
expect_err banks-tvparse "--tv" "$T" banks '(8,64):(64,1)' --tv '((8,4),(8,2):((1,64),(8,256))' --vec 8; has_caret banks-tvparse
expect_err banks-noaccess "give the access" "$T" banks '(8,64):(64,1)'
expect_err banks-contig "not consecutive elements" "$T" banks '(8,64):(64,1)' --tv '(32,16):(16,1)' --vec 8 -o "$W/no4.svg"
[ -e "$W/no4.svg" ] && bad "banks error left an output file"
expect_err banks-width "16 bytes" "$T" banks '(8,64):(64,1)' --tv "$TV" --vec 3
expect_err banks-tile "not a whole number" "$T" banks '(8,60):(60,1)' --access SM75_U32x4_LDSM_N --for-mma $M --operand A
expect_err banks-atom "unknown copy atom" "$T" banks '(8,64):(64,1)' --access LDSM --threads 32 --values 8
expect_err banks-side "--side must be src or dst" "$T" banks '(8,64):(64,1)' --access SM75_U32x4_LDSM_N --side up --for-mma $M --operand A
expect_err banks-bits "--bits" "$T" banks '(8,64):(64,1)' --tv "$TV" --vec 8 --bits 12
expect_err banks-vec0 "--vec must be a positive number" "$T" banks '(8,64):(64,1)' --tv "$TV" --vec 0
expect_err banks-vecneg "--vec must be a positive number" "$T" banks '(8,64):(64,1)' --tv "$TV" --vec=-8
expect_err banks-vec-access "--vec goes with --tv" "$T" banks '(8,64):(64,1)' --access SM75_U32x4_LDSM_N --for-mma $M --operand A --vec 1
expect_err banks-int "must be a layout" "$T" banks "(8,64)" --tv "$TV" --vec 8

expect_err banks-huge "more than tessera analyses" "$T" banks '(1048576,1048576):(1,1048576)' --tv '(32,8):(1,32)'
expect_err mma-huge "more than tessera draws" "$T" mma $M --permute '4398046511104,8,16' --force

# --- help texts say what the program does
"$T" copy --help >"$W/out" 2>&1
grep -qF '(m,n) in the thread grid -> thread index' "$W/out" || bad "copy --help: --threads direction"
grep -qF "(m,n) in a thread's block -> value index" "$W/out" || bad "copy --help: --values direction"
grep -qF 'thread index -> (m,n)' "$W/out" && bad "copy --help still says thread index -> (m,n)"
"$T" banks --help >"$W/out" 2>&1
grep -qF 'maximum over the phases' "$W/out" || bad "banks --help: degree by bank"
grep -qF '(worst phase)' "$W/out" && bad "banks --help still says (worst phase)"
# The degree by bank is the maximum over the phases, bank by bank: an 8-byte access has
# 2 phases of 16 threads; 32 threads reading 8 bytes at stride 8 words put both phases'
# words in banks 0,8,16,24 (4 in each phase), so every one of those banks shows 4.
expect_ok banks-phases "$T" banks '(256,1):(1,1)' --tv '(32,2):(8,1)' --vec 2 --bits 32
grep -q '^  degree by bank: 4 4 0 0 0 0 0 0 4 4 0 0 0 0 0 0 4 4 0 0 0 0 0 0 4 4 0 0 0 0 0 0$' "$W/out" ||
  bad "banks by-bank degrees ($(cat "$W/out"))"
# Phases that conflict on different banks: threads 0-15 hit banks 0,1 (16 words each),
# threads 16-31 banks 2,3: all four show 16, though no single phase has more than two.
expect_ok banks-phases2 "$T" banks '(512,1):(1,1)' --tv '((16,2),2):((32,2),1)' --vec 2 --bits 32
grep -q "^  degree by bank: 16 16 16 16$(printf ' 0%.0s' $(seq 1 28))\$" "$W/out" ||
  bad "banks by-bank degrees over two phases ($(cat "$W/out"))"
"$T" list --help >"$W/out" 2>&1
grep -qF 'copy NAME  ARCH  src TxB bits  dst TxB bits' "$W/out" || bad "list --help: copy line format"
grep -qF 'SM75_U32x1_LDSM_N: src 8x128' "$W/out" || bad "list --help: the ldmatrix example"
"$T" mma --help >"$W/out" 2>&1
for w in ThrID ALayout thr_layout_vmnk layoutA_TV; do grep -q "$w" "$W/out" || bad "mma --help lacks $w"; done

# --- every subcommand's help has an example
for c in mma copy banks list; do
  "$T" $c --help >"$W/out" 2>&1 || bad "$c --help exit"
  grep -q "Examples:" "$W/out" || bad "$c --help has no example"
done

finish "atoms CLI"
