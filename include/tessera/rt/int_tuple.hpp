#pragma once
// IntTuple: an integer, or a tuple of IntTuples (CuTe's hierarchical integers).
// `8` and `(8)` differ: the second is a rank-1 tuple holding the integer 8.
//
// Stored flat: the leaves left to right, and the nesting as a bracket string in which '('
// opens a tuple, ')' closes it and '.' stands for one leaf. (4,(2,2)) is the leaves 4,2,2
// with the nesting "(.(..))"; the integer 8 is the leaf 8 with the nesting ".". So two
// tuples are congruent exactly when their nestings are equal, the leaves are one span (what
// most of the algebra walks), a mode is a slice of both, and a tuple of up to 8 leaves
// and 24 nesting characters is one object with no allocation.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/rt/small_vector.hpp"

namespace tessera::rt {

namespace detail {
struct SyntaxTree;
}

class IntTuple {
 public:
  static constexpr char kOpen = '(', kClose = ')', kLeaf = '.';

  IntTuple() : IntTuple(0) {}                 // the integer 0
  IntTuple(std::int64_t v) {                  // NOLINT: an integer is an IntTuple
    leaves_.push_back(v);
    nesting_.push_back(kLeaf);
  }
  IntTuple(const IntTuple&) = default;
  IntTuple& operator=(const IntTuple&) = default;
  // A moved-from IntTuple is still an IntTuple: the same one when it was inline (a copy is
  // as cheap as a move there), the integer 0 when its storage moved.
  IntTuple(IntTuple&& o) noexcept : leaves_(std::move(o.leaves_)), nesting_(std::move(o.nesting_)) {
    o.repair_after_move();
  }
  IntTuple& operator=(IntTuple&& o) noexcept {
    if (this != &o) {
      leaves_ = std::move(o.leaves_);
      nesting_ = std::move(o.nesting_);
      o.repair_after_move();
    }
    return *this;
  }

  static IntTuple tuple(std::span<const IntTuple> elems);
  static IntTuple tuple(std::initializer_list<IntTuple> elems) { return tuple(std::span(elems.begin(), elems.size())); }
  // (v0,v1,...): the tuple of these integers (a rank-n tuple of leaves, also for n == 1).
  static IntTuple of_values(std::span<const std::int64_t> values);
  // A tuple with `like`'s nesting and these leaves (as many as `like` has).
  static IntTuple with_leaves(const IntTuple& like, std::span<const std::int64_t> values);
  // The tuple with this nesting (as nesting() spells it) and these leaves, one per '.'.
  // Anything else (unbalanced, not one mode, a leaf count that differs) is an Error.
  static IntTuple from_nesting(std::string_view nesting, std::span<const std::int64_t> leaves);

  bool is_leaf() const { return nesting_[0] == kLeaf; }
  bool is_tuple() const { return !is_leaf(); }
  std::int64_t value() const;                 // the integer of a leaf (error on a tuple)

  // rank: number of top-level modes (1 for an integer); mode i (an integer is its own mode 0).
  std::size_t rank() const;
  IntTuple operator[](std::size_t i) const;

  // The leaves left to right, and the nesting (see above): borrowed from this tuple.
  std::span<const std::int64_t> leaf_values() const { return leaves_; }
  std::string_view nesting() const { return {nesting_.data(), nesting_.size()}; }

  // The top-level modes of a tuple, in order, each an IntTuple (a copy of that part).
  class Modes;
  Modes elems() const;

  void push_back(const IntTuple& x);          // appends a mode to a tuple (error on an integer)
  void push_back(std::int64_t v);             // the same for an integer mode

  friend bool operator==(const IntTuple& a, const IntTuple& b) {
    return a.nesting_ == b.nesting_ && a.leaves_ == b.leaves_;
  }
  friend bool operator!=(const IntTuple& a, const IntTuple& b) { return !(a == b); }

 private:
  SmallVector<std::int64_t, 8> leaves_;
  SmallVector<char, 24> nesting_;

  struct Empty {};
  explicit IntTuple(Empty) {}  // no nesting yet: only while being built
  // A part that was on the heap (>24 nesting characters, or >8 leaves) moved out: what is
  // left is made the integer 0. (No leaves is also what "()" has: the cold path tells.)
  void repair_after_move() noexcept {
    if (nesting_.empty() || leaves_.empty()) [[unlikely]] repair_cold();
  }
  [[gnu::cold, gnu::noinline]] void repair_cold() noexcept {
    bool has_leaf = false;
    for (const char c : nesting_) has_leaf = has_leaf || c == kLeaf;
    if (!nesting_.empty() && !has_leaf) return;
    leaves_.clear();
    leaves_.push_back(0);
    nesting_.clear();
    nesting_.push_back(kLeaf);
  }
  // The part of this tuple with the nesting [begin, end) and the leaves [leaf_begin, leaf_end).
  IntTuple part(std::size_t begin, std::size_t end, std::size_t leaf_begin, std::size_t leaf_end) const;
  // Where mode i of a tuple lies (false when it has fewer modes).
  bool find_mode(std::size_t i, std::size_t& begin, std::size_t& end, std::size_t& leaf_begin,
                 std::size_t& leaf_end) const;
  friend struct Layout;  // a layout's mode: one walk over the nesting its shape and stride share
  friend struct detail::SyntaxTree;  // integer tuples the parser spelled, well formed by construction

 public:
  // The end of the mode that starts at nesting[pos], counting its leaves into `leaf`.
  static std::size_t mode_end(std::string_view nesting, std::size_t pos, std::size_t& leaf);
};

class IntTuple::Modes {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = IntTuple;
    using difference_type = std::ptrdiff_t;
    using reference = IntTuple;
    using pointer = void;
    iterator() = default;
    iterator(const IntTuple* t, std::size_t pos, std::size_t leaf) : t_(t), pos_(pos), leaf_(leaf) { find_end(); }
    IntTuple operator*() const { return t_->part(pos_, end_, leaf_, end_leaf_); }
    iterator& operator++() {
      pos_ = end_;
      leaf_ = end_leaf_;
      find_end();
      return *this;
    }
    iterator operator++(int) {
      iterator r = *this;
      ++*this;
      return r;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.pos_ == b.pos_; }

   private:
    const IntTuple* t_ = nullptr;
    std::size_t pos_ = 0, leaf_ = 0, end_ = 0, end_leaf_ = 0;
    void find_end() {
      end_leaf_ = leaf_;
      const std::string_view n = t_ ? t_->nesting() : std::string_view();
      end_ = pos_ < n.size() && n[pos_] != kClose ? mode_end(n, pos_, end_leaf_) : pos_;
    }
  };

  explicit Modes(const IntTuple& t) : t_(&t) {}
  // An integer has no modes to list: Modes of a leaf is empty (rank() says 1, as CuTe's).
  iterator begin() const { return t_->is_leaf() ? end() : iterator(t_, 1, 0); }
  iterator end() const { return iterator(t_, t_->nesting_.size() - (t_->is_leaf() ? 0 : 1), t_->leaves_.size()); }
  std::size_t size() const { return t_->is_leaf() ? 0 : t_->rank(); }
  bool empty() const { return size() == 0; }
  IntTuple operator[](std::size_t i) const { return (*t_)[i]; }

 private:
  const IntTuple* t_;
};

inline IntTuple::Modes IntTuple::elems() const { return Modes(*this); }

// depth: 0 for an integer, 1 + max depth of the elements for a tuple (0-tuple has depth 1).
int depth(const IntTuple& t);
// product of all leaves (checked); the empty tuple has product 1.
std::int64_t product(const IntTuple& t);
// sum of all leaves (checked).
std::int64_t sum(const IntTuple& t);
// All leaves left to right, as a tuple of integers (an integer flattens to itself).
IntTuple flatten(const IntTuple& t);
void flatten_into(const IntTuple& t, std::vector<std::int64_t>& out);
// The leaves as a vector of their own (t.leaf_values() borrows them instead).
std::vector<std::int64_t> leaves(const IntTuple& t);
// Same tree structure (leaf where leaf, same ranks).
inline bool congruent(const IntTuple& a, const IntTuple& b) {
  const std::string_view x = a.nesting(), y = b.nesting();
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k)  // short: compared in place, no call
    if (x[k] != y[k]) return false;
  return true;
}
// b can index a: a is an integer with size(a) == size(b) or, recursively, same rank and compatible modes.
bool compatible(const IntTuple& a, const IntTuple& b);
// Same tree as `like`, every leaf replaced by v.
IntTuple repeat_like(const IntTuple& like, std::int64_t v);
// Every leaf mapped (left to right).
template <class F>
IntTuple transform_leaf(const IntTuple& t, F&& f) {
  const std::span<const std::int64_t> in = t.leaf_values();
  SmallVector<std::int64_t, 8> out;
  out.reserve(in.size());
  for (const std::int64_t v : in) out.push_back(f(v));
  return IntTuple::with_leaves(t, out);
}
// Rebuild a tree shaped like `like` from a flat list of leaves (consumed in order).
IntTuple unflatten(const IntTuple& like, std::span<const std::int64_t> flat);

// CuTe print format: integers as-is, tuples as (a,b,...), no spaces.
std::string to_string(const IntTuple& t);
void append_string(const IntTuple& t, std::string& out);

}  // namespace tessera::rt
