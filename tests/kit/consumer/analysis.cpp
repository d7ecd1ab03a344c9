// tessera::analysis from the installed package: the bank analysis of the runtime library
// agrees with the static tier's on ldmatrix rows over an 8x64 fp16 tile, plain and swizzled.
#include <cstdio>

#include <tessera/analysis/bank_analysis.hpp>
#include <tessera/analysis/banks.hpp>
#include <tessera/swizzle.hpp>

using namespace tessera;

namespace {
rt::IntTuple tup(std::vector<rt::IntTuple> v) { return rt::IntTuple::tuple(std::move(v)); }

bool same(analysis::BankSummary const& a, analysis::BankSummary const& b) {
  return a.ok() && b.ok() && a.instructions == b.instructions && a.wavefronts == b.wavefronts &&
         a.ideal_wavefronts == b.ideal_wavefronts && a.max_degree == b.max_degree;
}
}  // namespace

int main() {
  // Lane t addresses row t%8 of matrix t/8; (thread, value) -> m + 8n of the 8x64 tile.
  const rt::Layout tv(tup({tup({8, 4}), tup({8, 2})}), tup({tup({1, 64}), tup({8, 256})}));
  const rt::Layout row_major(tup({8, 64}), tup({64, 1}));
  const auto access = analysis::access_of_tv(tv, 8, 64, 8);
  const auto plain = analysis::analyze_banks(analysis::smem_tile(row_major), access, 16);
  const auto swizzled =
      analysis::analyze_banks(analysis::smem_tile(rt::SwizzledLayout{rt::Swizzle(3, 3, 3), row_major}), access, 16);

  const auto smem = make_layout(make_shape(_8{}, _64{}), LayoutRight{});
  const auto tv_static = make_layout(make_shape(make_shape(_8{}, _4{}), make_shape(_8{}, _2{})),
                                     make_stride(make_stride(_1{}, _64{}), make_stride(_8{}, _256{})));
  const auto plain_static = analysis::analyze_smem_access(smem, tv_static, 8, 64, 16, 8);
  const auto swizzled_static = analysis::analyze_smem_access(composition(Swizzle<3, 3, 3>{}, smem), tv_static, 8, 64, 16, 8);

  std::printf("plain: %lld wavefronts, swizzled: %lld\n", static_cast<long long>(plain.summary.wavefronts),
              static_cast<long long>(swizzled.summary.wavefronts));
  return same(plain.summary, plain_static) && same(swizzled.summary, swizzled_static) &&
                 plain.summary.max_degree > swizzled.summary.max_degree
             ? 0
             : 1;
}
