#pragma once
// ArrayEngine<T, N>: the storage of an owning tensor -- N values of T held by value
// (registers on the device), no heap.  A Tensor over an ArrayEngine owns its elements:
// copying the tensor copies them, and slicing it gives a pointer view into them
// (tessera/tensor_fragment.hpp builds such tensors from static, compact layouts).
#include <cstddef>
#include <cstdint>
#include "config.hpp"

namespace tessera {

template <class T, std::size_t N>
struct ArrayEngine {
  static_assert(N > 0, "tessera::ArrayEngine: an owning tensor needs at least one element");
  using value_type = T;
  static constexpr bool owns_storage = true;

  // Value-initialised by the factories (zeros for arithmetic types): deterministic, and
  // readable in constant expressions; the compiler drops the stores a kernel overwrites.
  T storage_[N];

  TESSERA_HOST_DEVICE static constexpr std::size_t size() { return N; }
  TESSERA_HOST_DEVICE constexpr T* begin() { return storage_; }
  TESSERA_HOST_DEVICE constexpr T const* begin() const { return storage_; }
  TESSERA_HOST_DEVICE constexpr T* end() { return storage_ + N; }
  TESSERA_HOST_DEVICE constexpr T const* end() const { return storage_ + N; }
  template <class I> TESSERA_HOST_DEVICE constexpr T& operator[](I const& i) { return storage_[int64_t(i)]; }
  template <class I> TESSERA_HOST_DEVICE constexpr T const& operator[](I const& i) const { return storage_[int64_t(i)]; }
};

// An engine that owns its elements (ArrayEngine), as opposed to an iterator (a view).
template <class E> inline constexpr bool owns_storage_v = [] {
  if constexpr (requires { E::owns_storage; }) return bool(E::owns_storage);
  else return false;
}();

}  // namespace tessera
