// stmatrix.m8n8 .b16 (SM90+): a warp stores 1, 2 or 4 8x8 matrices of 16-bit elements, the
// inverse of ldmatrix (tessera/atom/copy_sm75.hpp): the registers ldmatrix delivers are the
// source here, and the rows ldmatrix reads are written.  So each atom's layouts are the
// ldmatrix atom's with source and destination exchanged:
//   Source (.N): lane l's register j holds row l/4, elements 2*(l%4) and 2*(l%4)+1 of matrix j.
//   Source (.T): lane l's register j, element e, is row 2*(l%4)+e, column l/4 of matrix j.
//   Destination: lanes 8j..8j+7 address rows 0..7 of matrix j (128 bits each); lanes past
//     8*count give no address (their layout repeats the used lanes, stride 0).
// The register side is the reference a tiled copy is built on, as CuTe does.
#pragma once

#include "tessera/atom/copy_sm75.hpp"

namespace tessera {

// stmatrix's reference side is its source (the registers).
TESSERA_COPY_TRAITS(SM90_U32x1_STSM_N, sm75::ThrID, sm75::DstN_x1, sm75::Src_x1, sm75::DstN_x1);
TESSERA_COPY_TRAITS(SM90_U32x2_STSM_N, sm75::ThrID, sm75::DstN_x2, sm75::Src_x2, sm75::DstN_x2);
TESSERA_COPY_TRAITS(SM90_U32x4_STSM_N, sm75::ThrID, sm75::DstN_x4, sm75::Src_x4, sm75::DstN_x4);
TESSERA_COPY_TRAITS(SM90_U16x2_STSM_T, sm75::ThrID, sm75::DstT_x1, sm75::Src_x1, sm75::DstT_x1);
TESSERA_COPY_TRAITS(SM90_U16x4_STSM_T, sm75::ThrID, sm75::DstT_x2, sm75::Src_x2, sm75::DstT_x2);
TESSERA_COPY_TRAITS(SM90_U16x8_STSM_T, sm75::ThrID, sm75::DstT_x4, sm75::Src_x4, sm75::DstT_x4);

}  // namespace tessera
