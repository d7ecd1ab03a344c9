#pragma once
// Helpers shared by the runtime algebra's operations (src/rt/<operation>.cpp, one file per
// operation as include/tessera/algebra/ has one per concept): the flat working form of a
// layout, layouts built from modes, the notation of traced steps, and the steps one
// operation takes from another (composition's mode-by-mode walk, the zipped forms).
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/small_vector.hpp"
#include "tessera/rt/trace.hpp"

namespace tessera::rt::detail {

// A list of integers (shapes, strides, indices) as the algorithms build them: inline up to 8.
using Ints = SmallVector<std::int64_t, 8>;

// Positions of modes (a sort order).
using Indices = SmallVector<std::size_t, 8>;

// A flat list of modes (shape, stride), the working form of most algorithms: a view of a
// layout's leaves, so the layout must outlive it (flat_of a temporary does not compile).
struct Flat {
  std::span<const std::int64_t> s, d;
  std::size_t rank() const { return s.size(); }
};

inline Flat flat_of(const Layout& l) { return Flat{l.shape.leaf_values(), l.stride.leaf_values()}; }
Flat flat_of(const Layout&& l) = delete;

// A list of modes as a layout: one mode is an integer layout, several a flat tuple.
inline Layout layout_of(std::span<const std::int64_t> s, std::span<const std::int64_t> d) {
  if (s.size() == 1) return Layout(IntTuple(s[0]), IntTuple(d[0]));
  return Layout(IntTuple::of_values(s), IntTuple::of_values(d));
}

// make_layout(m0, m1, ...) built one mode at a time.
class ModeList {
 public:
  void push_back(const Layout& m) {
    shape_.push_back(m.shape);
    stride_.push_back(m.stride);
  }
  std::size_t size() const { return shape_.rank(); }
  // As make_layout: the modes are layouts already; only the size is checked again.
  Layout layout() && {
    Layout l;
    l.shape = std::move(shape_);
    l.stride = std::move(stride_);
    (void)product(l.shape);
    return l;
  }

 private:
  IntTuple shape_ = IntTuple::tuple({}), stride_ = IntTuple::tuple({});
};

inline std::string str(std::int64_t v) { return std::to_string(v); }

// Notation for traced steps (only formatted while a trace is installed).
inline std::string mode_text(std::int64_t s, std::int64_t d) { return str(s) + ":" + str(d); }
inline std::string modes_text(std::span<const std::int64_t> s, std::span<const std::int64_t> d) {
  std::string r;
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + mode_text(s[i], d[i]);
  return r;
}
inline std::string tiler_text(const Tiler& t) { return tiler_expression(t); }
inline std::string call_text(const char* op, const std::string& a, const std::string& b = {}) {
  return std::string(op) + "(" + a + (b.empty() ? "" : "," + b) + ")";
}
// The step's result; `r` is the caller's temporary, moved into its return value once.
inline Layout&& traced(TraceScope& s, Layout&& r) {
  if (s) s.close(to_string(r));
  return std::move(r);
}

// Apply f to each mode of l at a leaf of the profile (modes past the profile's rank stay).
template <class F>
Layout transform_with_profile(const Layout& l, const IntTuple& profile, F&& f, const char* op) {
  if (profile.is_leaf()) return f(l, profile);
  if (profile.rank() > l.rank())
    throw Error(std::string(op) + ": the profile " + to_string(profile) + " has more modes than the layout " +
                to_string(l));
  ModeList modes;
  const std::size_t p = profile.rank();
  std::size_t i = 0;
  l.for_each_mode([&](const Layout& m) {
    modes.push_back(i < p ? transform_with_profile(m, profile[i], f, op) : m);
    ++i;
  });
  return std::move(modes).layout();
}

// coalesce's loop on flat modes (coalesce.cpp): the result's modes, front to back (1:0 for
// an all-ones layout); `scope`, when traced, gets the drops and merges.
void coalesce_modes(std::span<const std::int64_t> s, std::span<const std::int64_t> d, Ints& ns, Ints& nd,
                    TraceScope* scope);
// The flat modes of coalesce(l): by the traced operation while a trace is open (it is a step
// there), by the loop alone otherwise.
void coalesced_modes(const Layout& l, Ints& s, Ints& d);
// coalesce(layout_of(s, d)) (traced as that while a trace is open), without the layout between.
Layout coalesce_of_modes(std::span<const std::int64_t> s, std::span<const std::int64_t> d);
// coalesce that keeps the function outside the domain too, and its flat modes (as coalesced_modes).
Layout coalesce_x(const Layout& l);
void coalesce_x_modes(const Layout& l, Ints& s, Ints& d);

// Composition's walk (composition.cpp): B's leaves laid over the flat A `a` one by one (CuTe's
// walk, its divisibility conditions checked), `usage` collecting what rule 1 needs: the digits
// each leaf puts into A's modes (no two may carry into each other: checked in O(rank)), or,
// where a leaf's walk is no split into digits (a negative stride, a stride below a mode's size
// that does not divide it), that rule 1 must be checked point by point.
struct Usage {
  Ints digits;
  bool pointwise = false;
  explicit Usage(std::size_t rank) : digits(rank, 0) {}
};
Layout compose_tree(const Flat& a, const IntTuple& s, const IntTuple& d, Usage& usage);
// The same walk for `usage` alone (the same checks and errors; no layout is made).
void compose_usage(const Flat& a, const IntTuple& s, const IntTuple& d, Usage& usage);
// A o B with rule 1 checked (docs/notation.md): R(i) == A(B(i)) at every index of B, A read
// past its size as CuTe reads it (its last flat mode continued).
Layout composition_impl(const Layout& a, const Layout& b);
// (A o b0, A o b1) as CuTe's divide makes it, each part on its own, rule 1 left to the caller
// (`usage` gets both parts'); `fa` is coalesce_x(A).
Layout composition_of_pair(const Flat& fa, const Layout& b0, const Layout& b1, Usage& usage);
// A o b traced as composition() traces it (for the divide's trace), rule 1 left to the caller;
// `usage` (empty, or of coalesce_x(A)'s rank) gets this part's.
Layout composition_part_traced(const Layout& a, const Layout& b, Usage& usage);
// A read at any integer x as CuTe's crd2idx reads it: flat modes s:d, the last one unbounded.
std::int64_t evaluate_extended(std::span<const std::int64_t> s, std::span<const std::int64_t> d, std::int64_t x);
// The first index i of B where agrees(R(i), B(i)) fails, or -1: R = A o B as composed (its
// flat modes enumerate B's indices in B's order). A B longer than kPointwiseBudget indices (2^26:
// a fraction of a second) is not walked: an inadmissible Error says so.
inline constexpr std::int64_t kPointwiseBudget = std::int64_t(1) << 26;
std::int64_t first_mismatch(const Layout& r, const Layout& b,
                            const std::function<bool(std::int64_t, std::int64_t)>& agrees);

// The divide and product families' shared forms (divide.cpp).
void check_tiler_rank(const Layout& l, const Tiler& t, const char* op);
Layout zipped_form(const char* op, const char* logical, Layout (*f)(const Layout&, const Tiler&), const Layout& l,
                   const Tiler& t);
Layout unpacked_form(const char* op, const char* zipped, Layout (*f)(const Layout&, const Tiler&), bool first,
                     const Layout& l, const Tiler& t);

// append<R>: pad with 1:0 modes up to rank R (product.cpp).
Layout pad_to_rank(const Layout& l, std::size_t R);

}  // namespace tessera::rt::detail
