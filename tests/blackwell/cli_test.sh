#!/bin/sh
# tessera list / mma / copy on the Blackwell atoms: the registry's counts, the traits
# --print-layouts prints under CuTe's names, tensor memory drawn as lanes x columns (cells the
# ISA's fragment figures give), and the error paths.
# Usage: cli_test.sh TESSERA
T="$1"
. "$(dirname "$0")/../cli_helpers.sh"  # W, fails, bad, expect_ok, expect_err, has_line, finish

# --- list: 840 + 9392 tcgen05.mma atoms (f16, tf32, i8; f8f6f4 8000, mxf8f6f4 1200, mxf4 and
# mxf4nvf4 192), 148 tcgen05.ld/st atoms
expect_ok list-mma "$T" list atoms --mma SM100_
[ "$(wc -l <"$W/out")" -eq 10232 ] || bad "list --mma SM100_: $(wc -l <"$W/out") atoms, not 10232"
expect_ok list-f8f6f4 "$T" list atoms --mma SM100_MMA_F8F6F4_
[ "$(wc -l <"$W/out")" -eq 8000 ] || bad "list --mma SM100_MMA_F8F6F4_: $(wc -l <"$W/out") atoms, not 8000"
expect_ok list-mxf "$T" list atoms --mma SM100_MMA_MXF
[ "$(wc -l <"$W/out")" -eq 1392 ] || bad "list --mma SM100_MMA_MXF: $(wc -l <"$W/out") atoms, not 1392"
expect_ok list-f8f6f4-one "$T" list atoms SM100_MMA_F8F6F4_2x1SM_TS_256x64x32_F16E2M1E3M2
has_line list-f8f6f4-one 'SM100a  256x64x32  D=f16 A=e2m1 B=e3m2 C=f16  threads 2'
# --json: the instruction descriptor, by the ISA's table: A e2m1 (1, .kind::mxf4nvf4), B e2m1,
# N 64 (8 << 17), scale type ue4m3 (0 at bit 23), M 128 (8 << 24): 128 + 1024 + 1048576 + 134217728.
expect_ok list-json-idesc "$T" list atoms SM100_MMA_MXF4_SS_128x64x64_F32E2M1E2M1_UE4M3x16 --json
grep -q '"idesc":135267456' "$W/out" || bad "list --json: idesc of the mxf4nvf4 atom ($(cat "$W/out"))"
grep -q '"scale_factors":{"type":"ue4m3","vector":16}' "$W/out" || bad "list --json: scale factors ($(cat "$W/out"))"
# --print-layouts: the scale factors after the A/B/C layouts.
expect_ok mma-sf "$T" mma SM100_MMA_MXF4_SS_128x64x64_F32E2M1E2M1_UE4M3x16 --print-layouts
has_line mma-sf 'ALayout (1,(128,64)):(0,(1,128))'
has_line mma-sf 'SFALayout (1,(128,64)):(0,(1,128))'
has_line mma-sf 'SFVecSize 16'
has_line mma-sf 'SfAtom ((32,4),(16,4)):((16,4),(0,1))'
has_line mma-sf 'TmemLayoutSFA (((32,4),4),(16,4)):(((1,512),32),(0,128))'
has_line mma-sf 'TmemLayoutSFB (((32,4),4),(16,4)):(((1,512),32),(0,128))'
expect_ok mma-sf-256 "$T" mma SM100_MMA_MXF8F6F4_SS_128x256x32_F32E4M3E5M2_UE8M0x32 --print-layouts --only B
has_line mma-sf-256 'TmemLayoutSFB (((32,8),4),(32,1)):(((1,512),32),(0,128))'
grep -q '^TmemLayoutSFA' "$W/out" && bad "mma --only B printed TmemLayoutSFA"
# The drawing: the scale factors in tensor memory below the rest; row 33 of A (33 % 32 = 1,
# 33 / 32 = 1) keeps its K block 1 in byte 4 * 1 + 1 = 5 of lane 1, and of lanes 33, 65, 97.
expect_ok mma-sf-txt "$T" mma SM100_MMA_MXF4_SS_128x64x64_F32E2M1E2M1_UE4M3x16 --only A
grep -q '^scale factors of A in tensor memory' "$W/out" || bad "mma txt lacks the scale-factor panel"
grep -E '^ *33  \|' "$W/out" | tail -n1 | awk -F'|' '{ gsub(/ /, "", $7); print $7 }' | grep -qx 'm33s1' || bad "mma txt: lane 33 byte 5 is not SFA(33, 1)"
grep -E '^ *97  \|' "$W/out" | tail -n1 | awk -F'|' '{ gsub(/ /, "", $7); print $7 }' | grep -qx 'm33s1' || bad "mma txt: lane 97 byte 5 is not SFA(33, 1)"
grep -E '^ *1  \|' "$W/out" | tail -n1 | awk -F'|' '{ gsub(/ /, "", $3); print $3 }' | grep -qx 'm1s1' || bad "mma txt: lane 1 byte 1 is not SFA(1, 1)"
grep -q '^scale factors of B' "$W/out" && bad "mma --only A drew B's scale factors"
expect_ok mma-sf-svg "$T" mma SM100_MMA_MXF8F6F4_SS_128x64x32_F32E4M3E5M2_UE8M0x32 -o "$W/sf.svg"
grep -q 'scale factors of B in tensor memory' "$W/sf.svg" || bad "mma svg lacks B's scale factors"
expect_ok mma-sf-pair "$T" mma SM100_MMA_MXF4_2x1SM_SS_256x128x64_F32E2M1E2M1_UE8M0x32 --print-layouts
has_line mma-sf-pair 'SfAtom ((32,4),(32,4)):((16,4),(0,1))'
# A CTA pair: each CTA's scale factors (CuTe's FrgTypeSFA / FrgTypeSFB), A's own 128 rows, all of B's
# columns, the 4x1 data path at M 256 and the 2x2 one for B at M 128.
has_line mma-sf-pair 'TmemLayoutSFA (((32,4),4),(32,2)):(((1,512),32),(0,128))'
has_line mma-sf-pair 'TmemLayoutSFB (((32,4),4),(32,2)):(((1,512),32),(0,128))'
expect_ok mma-sf-2x2 "$T" mma SM100_MMA_MXF4_2x1SM_SS_128x128x64_F32E2M1E2M1_UE8M0x32 --print-layouts
has_line mma-sf-2x2 'TmemLayoutSFA (((32,2),4),(32,2)):(((1,512),32),(0,128))'
has_line mma-sf-2x2 'TmemLayoutSFB ((((32,2),2),2),(32,2)):((((1,512),64),32),(0,128))'
expect_ok mma-sf-2x2-json "$T" mma SM100_MMA_MXF4_2x1SM_SS_128x128x64_F32E2M1E2M1_UE8M0x32 --json
grep -q '"TmemLayoutSFB":' "$W/out" || bad "mma --json on a CTA pair lacks TmemLayoutSFB"
# The drawing: column 65 of B (second half, 65 - 64 = 1) keeps its K block 1 in byte 1 of lane
# 64 + 1 and of lane 97 (its one copy); column 1 in lanes 1 and 33; column 33 in byte 5 of lane 1.
expect_ok mma-sf-2x2-txt "$T" mma SM100_MMA_MXF4_2x1SM_SS_128x128x64_F32E2M1E2M1_UE8M0x32 --only B
grep -q "^scale factors of B in each CTA's tensor memory" "$W/out" || bad "mma txt lacks the pair's scale-factor panel"
for lane_byte_sf in 65:3:n65s1 97:3:n65s1 1:3:n1s1 33:3:n1s1 1:7:n33s1; do
  lane=${lane_byte_sf%%:*}; rest=${lane_byte_sf#*:}; col=${rest%%:*}; want=${rest#*:}
  grep -E "^ *$lane  \|" "$W/out" | tail -n1 | awk -F'|' -v c="$col" '{ gsub(/ /, "", $c); print $c }' | grep -qx "$want" ||
    bad "mma txt: lane $lane field $col is not $want"
done
expect_ok list-copy "$T" list atoms --copy SM100_TMEM_
[ "$(wc -l <"$W/out")" -eq 148 ] || bad "list --copy SM100_TMEM_: $(wc -l <"$W/out") atoms, not 148"
expect_ok list-one "$T" list atoms SM100_MMA_F16BF16_2x1SM_SS_256x128x16_F32BF16BF16
has_line list-one 'SM100a  256x128x16  D=f32 A=bf16 B=bf16 C=f32  threads 2'

# --- mma --print-layouts: CuTe's trait names; a CTA pair's ThrID counts CTAs
expect_ok mma-layouts "$T" mma SM100_MMA_F16BF16_2x1SM_SS_256x128x16_F32BF16BF16 --print-layouts
has_line mma-layouts 'ThrID 2:1'
has_line mma-layouts 'ALayout (2,(128,16)):(128,(1,256))'
has_line mma-layouts 'BLayout (2,(64,16)):(64,(1,128))'
has_line mma-layouts 'CLayout (2,(128,128)):(128,(1,256))'
has_line mma-layouts 'TmemLayoutC (128,128):(1,128)'
expect_ok mma-layouts-64 "$T" mma SM100_MMA_TF32_SS_64x16x8_F32TF32TF32 --print-layouts --only C
has_line mma-layouts-64 'TmemLayoutC ((16,4),16):((1,32),128)'
grep -q '^ALayout' "$W/out" && bad "mma --only C printed ALayout"
# The drawing: A, B, C and C in tensor memory (rows of M = 64 in lanes 0-15, 32-47, ...).
expect_ok mma-svg "$T" mma SM100_MMA_F16BF16_SS_64x8x16_F32F16F16 -o "$W/mma.svg"
grep -q 'C in tensor memory' "$W/mma.svg" || bad "mma svg lacks the tensor-memory panel"
expect_ok mma-txt "$T" mma SM100_MMA_F16BF16_SS_64x8x16_F32F16F16 --only C
# lane 33 holds row 17 (17 % 16 + 32 * (17 / 16) = 33); column 5 holds n = 5 (the last panel).
grep -E '^ *33  \|' "$W/out" | tail -n1 | awk -F'|' '{ gsub(/ /, "", $7); print $7 }' | grep -qx 'm17n5' || bad "mma txt: lane 33 column 5 is not C(17,5)"

expect_err mma-smem "the shared-memory tiles are drawn for SM90's _SS and _RS atoms" "$T" mma SM100_MMA_TF32_SS_64x8x8_F32TF32TF32 --smem-layout k_sw128
has_caret mma-smem

# --- copy: a tensor-memory atom alone, lanes x columns
expect_ok copy-layouts "$T" copy SM100_TMEM_LOAD_32dp32b1x --print-layouts
has_line copy-layouts 'ThrID 32:1'
has_line copy-layouts 'ValID (32,32):(1,2097152)'
has_line copy-layouts 'SrcLayout (32,1024):(0,1)'
has_line copy-layouts 'DstLayout (32,32):(32,1)'
has_line copy-layouts 'RefLayout (32,1024):(0,1)'
expect_ok copy-store "$T" copy SM100_TMEM_STORE_16dp64b2x --print-layouts
has_line copy-store 'SrcLayout ((2,2,8),(32,2)):((1024,32,128),(1,64))'
has_line copy-store 'RefLayout (32,2048):(0,1)'
# .16x128b: thread t holds lanes t/4 and t/4 + 8, column t % 4: lane 9, column 2 is T6's R1.
expect_ok copy-txt "$T" copy SM100_TMEM_LOAD_16dp128b1x
head -n1 "$W/out" | grep -qx 'SM100_TMEM_LOAD_16dp128b1x' || bad "copy txt title ($(head -n1 "$W/out"))"
grep -E '^ *9  \|' "$W/out" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }' | grep -qx 'T6R1' || bad "copy txt: lane 9 column 2 is not T6R1"
# .32x32b: lane l is thread l's, every column of the row.
expect_ok copy-32 "$T" copy SM100_TMEM_LOAD_32dp32b2x
grep -E '^ *31  \|' "$W/out" | grep -q 'T31R0 *| *T31R1' || bad "copy txt: lane 31 is not thread 31's"
# .pack::16b: a cell is half a register.
expect_ok copy-16b "$T" copy SM100_TMEM_LOAD_32dp32b1x_16b
grep -E '^ *0  \|' "$W/out" | grep -q 'T0R0.lo *| *T0R0.hi' || bad "copy txt 16b: lane 0 is not T0's R0 halves"
expect_ok copy-svg "$T" copy SM100_TMEM_STORE_16dp256b1x -o "$W/st.svg"
grep -q 'tensor memory, 16 lanes x 8 columns' "$W/st.svg" || bad "copy svg title"
# Tiled as any copy atom with --threads/--values.
expect_ok copy-tiled "$T" copy SM100_TMEM_LOAD_32dp32b1x --bits 32 --threads '(32,1)' --values '(1,32)' --print-layouts
cut -d' ' -f1 "$W/out" | tr '\n' ' ' | grep -qx 'ThrID ValID SrcLayout DstLayout RefLayout src dst tile ' || bad "copy-tiled: print-layouts names ($(cat "$W/out"))"
expect_err copy-json "a tensor-memory atom alone has no tiled copy" "$T" copy SM100_TMEM_LOAD_32dp32b1x --json
expect_err copy-bits "--bits goes with --threads/--values" "$T" copy SM100_TMEM_LOAD_32dp32b1x --bits 16
expect_err copy-unknown "unknown copy atom 'SM100_TMEM_LOAD_32dp32b3x'" "$T" copy SM100_TMEM_LOAD_32dp32b3x
# Tensor memory is neither shared nor global memory: banks and gmem refuse the atoms.
expect_err banks-tmem "has no shared-memory side" "$T" banks '(32,32):(32,1)' --access SM100_TMEM_LOAD_32dp32b1x --bits 32 --threads '(32,1)' --values '(1,32)'
has_caret banks-tmem
expect_err gmem-tmem "has no global-memory side" "$T" gmem '(32,32):(32,1)' --access SM100_TMEM_STORE_32dp32b1x --bits 32 --threads '(32,1)' --values '(1,32)'

finish
