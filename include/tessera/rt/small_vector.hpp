#pragma once
// SmallVector<T, N>: a vector of trivially copyable T whose first N elements live inside the
// object. The runtime tier's values are small (a shape of a few modes, a layout's flat
// modes), so keeping them inline spares an allocation for nearly every one; longer ones
// move to the heap and behave the same.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace tessera::rt {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector copies its elements bytewise");
  static_assert(N > 0 && N < 0x10000);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() noexcept = default;
  explicit SmallVector(std::size_t n, const T& v = T{}) { assign(n, v); }
  SmallVector(std::initializer_list<T> init) { append(init.begin(), init.size()); }
  explicit SmallVector(std::span<const T> s) { append(s.data(), s.size()); }
  SmallVector(const SmallVector& o) { copy_from(o); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      size_ = 0;
      copy_from(o);
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }
  operator std::span<const T>() const noexcept { return {data_, size_}; }  // NOLINT: a view of the elements

  void clear() noexcept { size_ = 0; }
  void push_back(const T& v) {
    if (size_ == capacity_) grow(size_ + 1);
    data_[size_++] = v;
  }
  void pop_back() noexcept { --size_; }
  void append(const T* p, std::size_t n) {
    if (n == 0) return;
    if (size_ + n > capacity_) grow(size_ + n);
    T* d = data_ + size_;
    // Short runs, the usual ones, without a call to the library's memcpy.
    if (n * sizeof(T) <= 64)
      for (std::size_t i = 0; i < n; ++i) d[i] = p[i];
    else
      std::memcpy(d, p, n * sizeof(T));
    size_ = static_cast<std::uint32_t>(size_ + n);
  }
  void append(std::span<const T> s) { append(s.data(), s.size()); }
  void assign(std::size_t n, const T& v) {
    size_ = 0;
    resize(n, v);
  }
  void resize(std::size_t n, const T& v = T{}) {
    if (n > capacity_) grow(n);
    for (std::size_t i = size_; i < n; ++i) data_[i] = v;
    size_ = static_cast<std::uint32_t>(n);
  }
  void reserve(std::size_t n) {
    if (n > capacity_) grow(n);
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) noexcept {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0);
  }

 private:
  // Raw bytes, not T[N]: a T with default member initializers would otherwise be
  // initialized N times over for every vector made.
  alignas(T) unsigned char storage_[N * sizeof(T)];
  T* data_ = inline_data();
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = N;

  T* inline_data() noexcept { return std::launder(reinterpret_cast<T*>(storage_)); }
  bool on_heap() const noexcept { return data_ != reinterpret_cast<const T*>(storage_); }
  void release() noexcept {
    if (on_heap()) std::free(data_);
    data_ = inline_data();
    size_ = 0;
    capacity_ = N;
  }
  // A moved-from vector is empty when its elements were on the heap (they moved), and
  // keeps them when they were inline (copied: leaving them costs nothing).
  void steal(SmallVector& o) noexcept {
    if (o.on_heap()) [[unlikely]] {
      data_ = o.data_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.data_ = o.inline_data();
      o.capacity_ = N;
      o.size_ = 0;
    } else {
      copy_inline(o);
    }
  }
  void copy_from(const SmallVector& o) {
    if (o.size_ <= N && !on_heap()) copy_inline(o);
    else append(o.data_, o.size_);
  }
  // A small inline buffer is copied whole: a copy of constant size, which the compiler
  // unrolls (the bytes past size() are copied too, unread).
  void copy_inline(const SmallVector& o) noexcept {
    if constexpr (sizeof storage_ <= 128) std::memcpy(storage_, o.data_, sizeof storage_);
    else std::memcpy(storage_, o.data_, o.size_ * sizeof(T));
    size_ = o.size_;
  }
  void grow(std::size_t need) {
    if (need > 0xFFFFFFFFu) throw std::length_error("tessera: a tuple of more than 2^32 elements");
    std::size_t cap = std::size_t{capacity_} * 2;
    if (cap < need) cap = need;
    if (cap > 0xFFFFFFFFu) cap = 0xFFFFFFFFu;
    T* p = static_cast<T*>(std::malloc(cap * sizeof(T)));
    if (!p) throw std::bad_alloc();
    if (size_) std::memcpy(p, data_, size_ * sizeof(T));
    if (on_heap()) std::free(data_);
    data_ = p;
    capacity_ = static_cast<std::uint32_t>(cap);
  }
};

}  // namespace tessera::rt
