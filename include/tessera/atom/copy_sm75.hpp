// ldmatrix.m8n8 .b16 (SM75+): a warp loads 1, 2 or 4 8x8 matrices of 16-bit elements.
// The data's bit index: matrix j, row r (16 bytes each), bit b -> 1024*j + 128*r + b.
//   Source: lanes 8j..8j+7 address rows 0..7 of matrix j; each address names 128 bits.
//     Lanes beyond 8*count give no address: their layout repeats the used lanes (stride 0).
//   Destination (.N): lane l's register j holds row l/4, elements 2*(l%4) and 2*(l%4)+1:
//     bits 1024*j + 32*l + b.
//   Destination (.T): lane l's register j holds, as element e, the element at row
//     2*(l%4)+e, column l/4 of the stored matrix: bits 1024*j + 256*(l%4) + 16*(l/4) + 128*e + b.
#pragma once

#include "tessera/atom/copy_atom.hpp"

namespace tessera {

namespace sm75 {
using ThrID = Layout<_32, _1>;
using Src_x1 = Layout<tuple<tuple<_8, _4>, _128>, tuple<tuple<_128, _0>, _1>>;
using Src_x2 = Layout<tuple<tuple<_16, _2>, _128>, tuple<tuple<_128, _0>, _1>>;
using Src_x4 = Layout<tuple<_32, _128>, tuple<_128, _1>>;
using DstN_x1 = Layout<tuple<_32, _32>, tuple<_32, _1>>;
using DstN_x2 = Layout<tuple<_32, tuple<_32, _2>>, tuple<_32, tuple<_1, _1024>>>;
using DstN_x4 = Layout<tuple<_32, tuple<_32, _4>>, tuple<_32, tuple<_1, _1024>>>;
using DstT_x1 = Layout<tuple<tuple<_4, _8>, tuple<_16, _2>>, tuple<tuple<_256, _16>, tuple<_1, _128>>>;
using DstT_x2 = Layout<tuple<tuple<_4, _8>, tuple<_16, _2, _2>>, tuple<tuple<_256, _16>, tuple<_1, _128, _1024>>>;
using DstT_x4 = Layout<tuple<tuple<_4, _8>, tuple<_16, _2, _4>>, tuple<tuple<_256, _16>, tuple<_1, _128, _1024>>>;
}  // namespace sm75

// ldmatrix's reference side is its destination (the registers).
TESSERA_COPY_TRAITS(SM75_U32x1_LDSM_N, sm75::ThrID, sm75::Src_x1, sm75::DstN_x1, sm75::DstN_x1);
TESSERA_COPY_TRAITS(SM75_U32x2_LDSM_N, sm75::ThrID, sm75::Src_x2, sm75::DstN_x2, sm75::DstN_x2);
TESSERA_COPY_TRAITS(SM75_U32x4_LDSM_N, sm75::ThrID, sm75::Src_x4, sm75::DstN_x4, sm75::DstN_x4);
TESSERA_COPY_TRAITS(SM75_U16x2_LDSM_T, sm75::ThrID, sm75::Src_x1, sm75::DstT_x1, sm75::DstT_x1);
TESSERA_COPY_TRAITS(SM75_U16x4_LDSM_T, sm75::ThrID, sm75::Src_x2, sm75::DstT_x2, sm75::DstT_x2);
TESSERA_COPY_TRAITS(SM75_U16x8_LDSM_T, sm75::ThrID, sm75::Src_x4, sm75::DstT_x4, sm75::DstT_x4);

}  // namespace tessera
