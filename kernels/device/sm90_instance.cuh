// Definitions of the SM90 host entries (sm90_instance.hpp) and the macro that instantiates
// them, with their kernels, for the listed kernels of one unit (sm90_kernel_list.hpp).
// Included only by kernels/device/sm90_instances_*.cu.
#pragma once

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sm90_gemm.cuh"
#include "sm90_instance.hpp"
#include "sm90_kernel_list.hpp"

namespace tessera::kernels::device::sm90_entry {

template <class Kernel>
GemmResult can_implement(const GemmArguments& g) {
  return sm90::GemmSm90<Kernel>::can_implement(g);
}
template <class Kernel>
std::size_t workspace_size(const GemmArguments& g) {
  return sm90::GemmSm90<Kernel>::workspace_size(g);
}
template <class Kernel>
GemmResult run(const GemmArguments& g, cudaStream_t stream, bool optional, bool* declined) {
  sm90::GemmSm90<Kernel> op;
  const GemmResult r = op.initialize(g);
  // (optional: a kernel that refuses the problem, or a Stream-K kernel whose plan shares
  // nothing or whose workspace is too small, leaves it to the plain kernel, which answers any
  // refusal itself)
  if (optional && (!r || (Kernel::Splits && !op.splits()))) {
    if (declined != nullptr) *declined = true;
    return {};
  }
  if (!r) return r;
  return op.run(stream);
}

// The entries (and so the kernels) of every listed kernel of unit U, in a table that the
// explicit instantiation in that unit's TU (TESSERA_SM90_INSTANCES) defines: its pointers
// make the TU define the entries that the dispatch's calls link to.
template <sm90_set::Unit U, class... S>
auto kernels_of(std::tuple<S...>*)
    -> decltype(std::tuple_cat(std::declval<std::conditional_t<S::unit == U, std::tuple<typename S::Kernel>, std::tuple<>>>()...));
template <class... Kernel>
constexpr std::array<Entries, sizeof...(Kernel)> table_of(std::tuple<Kernel...>*) {
  return {entries<Kernel>()...};
}
template <sm90_set::Unit U>
struct UnitInstances {
  using Kernels = decltype(kernels_of<U>(static_cast<sm90_set::Kernels*>(nullptr)));
  static const std::array<Entries, std::tuple_size_v<Kernels>> table;
};
template <sm90_set::Unit U>
const std::array<Entries, std::tuple_size_v<typename UnitInstances<U>::Kernels>> UnitInstances<U>::table =
    table_of(static_cast<typename UnitInstances<U>::Kernels*>(nullptr));

}  // namespace tessera::kernels::device::sm90_entry

#define TESSERA_SM90_INSTANCES(UNIT) \
  template struct tessera::kernels::device::sm90_entry::UnitInstances<tessera::kernels::device::sm90_set::Unit::UNIT>
