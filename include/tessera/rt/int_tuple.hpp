#pragma once
// IntTuple: an integer, or a tuple of IntTuples (CuTe's hierarchical integers).
// `8` and `(8)` differ: the second is a rank-1 tuple holding the integer 8.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace tessera::rt {

class IntTuple {
 public:
  IntTuple() = default;                       // the integer 0
  IntTuple(std::int64_t v) : value_(v) {}     // NOLINT: an integer is an IntTuple
  static IntTuple tuple(std::vector<IntTuple> elems);
  static IntTuple tuple(std::initializer_list<IntTuple> elems) { return tuple(std::vector<IntTuple>(elems)); }

  bool is_leaf() const { return !is_tuple_; }
  bool is_tuple() const { return is_tuple_; }
  std::int64_t value() const;                 // the integer of a leaf (error on a tuple)
  const std::vector<IntTuple>& elems() const { return elems_; }
  std::vector<IntTuple>& elems() { return elems_; }

  // rank: number of top-level modes (1 for an integer); mode i (an integer is its own mode 0).
  std::size_t rank() const { return is_tuple_ ? elems_.size() : 1; }
  const IntTuple& operator[](std::size_t i) const;

  void push_back(IntTuple x);                 // turns a leaf into... only valid on tuples

  friend bool operator==(const IntTuple& a, const IntTuple& b);
  friend bool operator!=(const IntTuple& a, const IntTuple& b) { return !(a == b); }

 private:
  std::int64_t value_ = 0;
  bool is_tuple_ = false;
  std::vector<IntTuple> elems_;
};

// depth: 0 for an integer, 1 + max depth of the elements for a tuple (0-tuple has depth 1).
int depth(const IntTuple& t);
// product of all leaves (checked); the empty tuple has product 1.
std::int64_t product(const IntTuple& t);
// sum of all leaves (checked).
std::int64_t sum(const IntTuple& t);
// All leaves left to right, as a tuple of integers (an integer flattens to itself).
IntTuple flatten(const IntTuple& t);
void flatten_into(const IntTuple& t, std::vector<std::int64_t>& out);
std::vector<std::int64_t> leaves(const IntTuple& t);
// Same tree structure (leaf where leaf, same ranks).
bool congruent(const IntTuple& a, const IntTuple& b);
// b can index a: a is an integer with size(a) == size(b) or, recursively, same rank and compatible modes.
bool compatible(const IntTuple& a, const IntTuple& b);
// Same tree as `like`, every leaf replaced by v.
IntTuple repeat_like(const IntTuple& like, std::int64_t v);
// Every leaf mapped.
template <class F>
IntTuple transform_leaf(const IntTuple& t, F&& f) {
  if (t.is_leaf()) return IntTuple(f(t.value()));
  std::vector<IntTuple> out;
  out.reserve(t.rank());
  for (const auto& e : t.elems()) out.push_back(transform_leaf(e, f));
  return IntTuple::tuple(std::move(out));
}
// Rebuild a tree shaped like `like` from a flat list of leaves (consumed in order).
IntTuple unflatten(const IntTuple& like, const std::vector<std::int64_t>& flat);

// CuTe print format: integers as-is, tuples as (a,b,...), no spaces.
std::string to_string(const IntTuple& t);
void append_string(const IntTuple& t, std::string& out);

}  // namespace tessera::rt
