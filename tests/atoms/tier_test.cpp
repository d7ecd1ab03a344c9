// Tier agreement: the runtime tiled MMA / tiled copy (tessera/rt/tiled.hpp, used by the CLI)
// give the same TV layouts as the static ones (include/tessera/tiled_*.hpp), for every
// (thread, value), and print identically.
#include <catch2/catch.hpp>

#include <string>

#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/rt/to_runtime.hpp"
#include "tessera/atom/mma_sm90_8bit.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"

using namespace tessera;

namespace {

template <class L>
void same_map(L const& static_tv, const rt::Layout& rt_tv, const std::string& what) {
  INFO(what << ": static " << to_string(static_tv) << " runtime " << rt::to_string(rt_tv));
  const rt::Layout conv = rt::to_runtime(static_tv);
  REQUIRE(conv.size() == rt_tv.size());
  REQUIRE(conv.mode(0).size() == rt_tv.mode(0).size());
  int bad = 0;
  const int64_t n = rt_tv.size();
  for (int64_t i = 0; i < n; ++i) bad += int64_t(static_tv(i)) != rt_tv(i);
  CHECK(bad == 0);
  CHECK(rt::to_string(conv) == rt::to_string(rt_tv));
}

template <class TM>
void check_mma(TM const& tm, const std::string& name, const std::string& atoms, const std::string& perm) {
  const rt::MmaAtomInfo* info = rt::find_mma(name);
  REQUIRE(info != nullptr);
  rt::Permutation p;
  if (!perm.empty()) p = rt::parse_permutation(perm);
  const rt::TiledMma t = rt::make_tiled_mma(*info, rt::parse_atom_layout(atoms), p);
  INFO(name << " " << atoms << " " << perm);
  CHECK(t.tile[0] == int64_t(tm.template tile_size_mnk<0>()));
  CHECK(t.tile[1] == int64_t(tm.template tile_size_mnk<1>()));
  CHECK(t.tile[2] == int64_t(tm.template tile_size_mnk<2>()));
  same_map(tm.get_thr_layout_vmnk(), t.thr_layout_vmnk, "thr");
  same_map(tm.get_layoutA_TV(), t.layout_a_tv, "A");
  same_map(tm.get_layoutB_TV(), t.layout_b_tv, "B");
  same_map(tm.get_layoutC_TV(), t.layout_c_tv, "C");
}

template <class TC>
void check_copy(TC const& tc, const rt::TiledCopy& c) {
  same_map(tc.get_layoutS_TV(), c.layout_s_tv, "src");
  same_map(tc.get_layoutD_TV(), c.layout_d_tv, "dst");
  CHECK(rt::to_string(rt::to_runtime(typename TC::Tiler_MN{})) == rt::to_string(c.tiler));
}

rt::CopyAtomView view(const char* name, int bits) {
  const rt::CopyAtomInfo* a = rt::find_copy(name);
  REQUIRE(a != nullptr);
  return rt::copy_atom_view(*a, bits);
}

}  // namespace

TEST_CASE("runtime tiled MMA agrees with the static one", "[atoms][tier]") {
  check_mma(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{}))),
            "SM80_16x8x16_F32F16F16F32_TN", "2x2x1", "");
  check_mma(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                           make_tile(_64{}, _32{}, _16{})),
            "SM80_16x8x16_F32F16F16F32_TN", "2x2", "(64,32,16)");
  check_mma(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                           make_tile(_32{}, make_layout(make_shape(_8{}, _2{}, _2{}), make_stride(_1{}, _16{}, _8{})), _16{})),
            "SM80_16x8x16_F32F16F16F32_TN", "2x2x1", "(32,(8,2,2):(1,16,8),16)");
  check_mma(make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, make_layout(make_shape(_2{}, _1{}, _1{})),
                           make_tile(make_layout(make_shape(_2{}, _16{}), make_stride(_16{}, _1{})), _, _)),
            "SM80_16x8x8_F32TF32TF32F32_TN", "2x1x1", "((2,16):(16,1),_,_)");
  check_mma(make_tiled_mma(SM70_8x8x4_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{}))),
            "SM70_8x8x4_F32F16F16F32_TN", "2x2x1", "");
  check_mma(make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, make_layout(make_shape(_1{}, _2{}, _2{}))),
            "SM80_16x8x32_S32S8S8S32_TN", "1x2x2", "");
  check_mma(make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_16{}, _8{}, _1{}))), "UniversalFMA",
            "16x8x1", "");
  check_mma(make_tiled_mma(SM90_64xNx16_F32BF16BF16_RS<8>{}, make_layout(make_shape(_1{}, _2{}, _1{}))),
            "SM90_64x8x16_F32BF16BF16_RS", "1x2x1", "");
  check_mma(make_tiled_mma(SM90_64xNx16_F32F16F16_SS<16>{}), "SM90_64x16x16_F32F16F16_SS", "1x1x1", "");
  check_mma(make_tiled_mma(SM90_64xNx32_S32U8S8_RS<24>{}, make_layout(make_shape(_2{}, _1{}, _1{}))),
            "SM90_64x24x32_S32U8S8_RS_TN", "2x1x1", "");
}

TEST_CASE("runtime tiled copy agrees with the static one", "[atoms][tier]") {
  SECTION("UniversalCopy<uint128_t>, 32x8 row-major threads, 1x8 values") {
    auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                              make_layout(make_shape(_32{}, _8{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
    check_copy(tc, rt::make_tiled_copy(view("UniversalCopy_128", 16), rt::Layout(rt::IntTuple::tuple({32, 8}), rt::IntTuple::tuple({8, 1})),
                                          rt::Layout::column_major(rt::IntTuple::tuple({1, 8}))));
  }
  SECTION("cp.async 16 bytes, 32-bit elements, column-major value block") {
    auto tc = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<16>, float>{},
                              make_layout(make_shape(_8{}, _16{})), make_layout(make_shape(_4{}, _1{})));
    check_copy(tc, rt::make_tiled_copy(view("SM80_CP_ASYNC_CACHEALWAYS_16", 32),
                                          rt::Layout::column_major(rt::IntTuple::tuple({8, 16})),
                                          rt::Layout::column_major(rt::IntTuple::tuple({4, 1}))));
  }
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                           make_tile(_32{}, _32{}, _16{}));
  const rt::TiledMma rtm = rt::make_tiled_mma(*rt::find_mma("SM80_16x8x16_F32F16F16F32_TN"),
                                                    rt::parse_atom_layout("2x2x1"),
                                                    rt::parse_permutation("(32,32,16)"));
  SECTION("ldmatrix x4 for A") {
    check_copy(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm),
               rt::make_tiled_copy_for(view("SM75_U32x4_LDSM_N", 16), rtm, 'A'));
  }
  SECTION("ldmatrix x4 .trans for B") {
    check_copy(make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, tm),
               rt::make_tiled_copy_for(view("SM75_U16x8_LDSM_T", 16), rtm, 'B'));
  }
  SECTION("ldmatrix x2 for B") {
    check_copy(make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, tm),
               rt::make_tiled_copy_for(view("SM75_U32x2_LDSM_N", 16), rtm, 'B'));
  }
  SECTION("UniversalCopy<uint32_t> for C") {
    check_copy(make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, tm),
               rt::make_tiled_copy_for(view("UniversalCopy_32", 16), rtm, 'C'));
  }
}
