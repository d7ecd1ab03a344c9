#include "tessera/rt/int_tuple.hpp"

#include <algorithm>
#include <limits>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

IntTuple IntTuple::tuple(std::vector<IntTuple> elems) {
  IntTuple t;
  t.is_tuple_ = true;
  t.elems_ = std::move(elems);
  return t;
}

std::int64_t IntTuple::value() const {
  if (is_tuple_) throw Error("expected an integer, got the tuple " + to_string(*this));
  return value_;
}

const IntTuple& IntTuple::operator[](std::size_t i) const {
  if (!is_tuple_) {
    if (i != 0) throw Error("mode " + std::to_string(i) + " of the integer " + std::to_string(value_));
    return *this;
  }
  if (i >= elems_.size())
    throw Error("mode " + std::to_string(i) + " does not exist in " + to_string(*this) + " (rank " +
                std::to_string(elems_.size()) + ")");
  return elems_[i];
}

void IntTuple::push_back(IntTuple x) {
  if (!is_tuple_) throw Error("push_back on an integer");
  elems_.push_back(std::move(x));
}

bool operator==(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple_ != b.is_tuple_) return false;
  if (!a.is_tuple_) return a.value_ == b.value_;
  return a.elems_ == b.elems_;
}

int depth(const IntTuple& t) {
  if (t.is_leaf()) return 0;
  int d = 0;
  for (const auto& e : t.elems()) d = std::max(d, depth(e));
  return d + 1;
}

std::int64_t product(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  std::int64_t p = 1;
  for (const auto& e : t.elems()) p = checked_mul(p, product(e), "size");
  return p;
}

std::int64_t sum(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  std::int64_t s = 0;
  for (const auto& e : t.elems()) s = checked_add(s, sum(e), "sum");
  return s;
}

void flatten_into(const IntTuple& t, std::vector<std::int64_t>& out) {
  if (t.is_leaf()) {
    out.push_back(t.value());
    return;
  }
  for (const auto& e : t.elems()) flatten_into(e, out);
}

std::vector<std::int64_t> leaves(const IntTuple& t) {
  std::vector<std::int64_t> out;
  flatten_into(t, out);
  return out;
}

IntTuple flatten(const IntTuple& t) {
  if (t.is_leaf()) return t;
  std::vector<IntTuple> out;
  for (auto v : leaves(t)) out.emplace_back(v);
  return IntTuple::tuple(std::move(out));
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf()) return a.is_leaf() && b.is_leaf();
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a.elems()[i], b.elems()[i])) return false;
  return true;
}

bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return product(b) == a.value();
  if (b.is_leaf()) return false;
  if (a.rank() != b.rank()) return false;
  for (std::size_t i = 0; i < a.rank(); ++i)
    if (!compatible(a.elems()[i], b.elems()[i])) return false;
  return true;
}

IntTuple repeat_like(const IntTuple& like, std::int64_t v) {
  return transform_leaf(like, [v](std::int64_t) { return v; });
}

static IntTuple unflatten_at(const IntTuple& like, const std::vector<std::int64_t>& flat, std::size_t& i) {
  if (like.is_leaf()) {
    if (i >= flat.size()) throw Error("unflatten: too few leaves");
    return IntTuple(flat[i++]);
  }
  std::vector<IntTuple> out;
  out.reserve(like.rank());
  for (const auto& e : like.elems()) out.push_back(unflatten_at(e, flat, i));
  return IntTuple::tuple(std::move(out));
}

IntTuple unflatten(const IntTuple& like, const std::vector<std::int64_t>& flat) {
  std::size_t i = 0;
  IntTuple r = unflatten_at(like, flat, i);
  if (i != flat.size()) throw Error("unflatten: too many leaves");
  return r;
}

void append_string(const IntTuple& t, std::string& out) {
  if (t.is_leaf()) {
    // -2^63 is the '_' of slice coordinates (rt::kUnderscore; no integer takes that value)
    if (t.value() == std::numeric_limits<std::int64_t>::min()) out += '_';
    else out += std::to_string(t.value());
    return;
  }
  out += '(';
  for (std::size_t i = 0; i < t.rank(); ++i) {
    if (i) out += ',';
    append_string(t.elems()[i], out);
  }
  out += ')';
}

std::string to_string(const IntTuple& t) {
  std::string s;
  append_string(t, s);
  return s;
}

}  // namespace tessera::rt
