#include "tessera/rt/int_tuple.hpp"

#include <algorithm>
#include <limits>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

IntTuple IntTuple::tuple(std::span<const IntTuple> elems) {
  IntTuple t{Empty{}};
  std::size_t n = 2, k = 0;
  for (const IntTuple& e : elems) {
    n += e.nesting_.size();
    k += e.leaves_.size();
  }
  t.nesting_.reserve(n);
  t.leaves_.reserve(k);
  t.nesting_.push_back(kOpen);
  for (const IntTuple& e : elems) {
    t.nesting_.append(e.nesting_);
    t.leaves_.append(e.leaves_);
  }
  t.nesting_.push_back(kClose);
  return t;
}

IntTuple IntTuple::of_values(std::span<const std::int64_t> values) {
  IntTuple t{Empty{}};
  t.leaves_.append(values);
  t.nesting_.reserve(values.size() + 2);
  t.nesting_.push_back(kOpen);
  t.nesting_.resize(values.size() + 1, kLeaf);
  t.nesting_.push_back(kClose);
  return t;
}

IntTuple IntTuple::with_leaves(const IntTuple& like, std::span<const std::int64_t> values) {
  IntTuple t{Empty{}};
  t.nesting_ = like.nesting_;
  t.leaves_.append(values);
  return t;
}

IntTuple IntTuple::from_nesting(std::string_view nesting, std::span<const std::int64_t> leaves) {
  std::size_t count = 0;
  int open = 0;
  bool well_formed = !nesting.empty() && (nesting[0] == kOpen || nesting.size() == 1);
  for (std::size_t k = 0; k < nesting.size() && well_formed; ++k) {
    const char c = nesting[k];
    if (c == kLeaf) ++count;
    else if (c == kOpen) ++open;
    else if (c == kClose) well_formed = --open >= 0 && (open > 0 || k + 1 == nesting.size());
    else well_formed = false;
  }
  if (!well_formed || open != 0 || count != leaves.size())
    throw Error("'" + std::string(nesting) + "' with " + std::to_string(leaves.size()) +
                " leaves is not the nesting of an integer tuple");
  IntTuple t{Empty{}};
  t.nesting_.append(nesting.data(), nesting.size());
  t.leaves_.append(leaves);
  return t;
}

std::int64_t IntTuple::value() const {
  if (is_tuple()) throw Error("expected an integer, got the tuple " + to_string(*this));
  return leaves_[0];
}

std::size_t IntTuple::mode_end(std::string_view nesting, std::size_t pos, std::size_t& leaf) {
  if (nesting[pos] == kLeaf) {
    ++leaf;
    return pos + 1;
  }
  int open = 0;
  for (std::size_t k = pos;; ++k) {
    const char c = nesting[k];
    if (c == kOpen) {
      ++open;
    } else if (c == kClose) {
      if (--open == 0) return k + 1;
    } else {
      ++leaf;
    }
  }
}

std::size_t IntTuple::rank() const {
  if (is_leaf()) return 1;
  std::size_t r = 0;
  int open = 0;
  for (std::size_t k = 1; k + 1 < nesting_.size(); ++k) {
    const char c = nesting_[k];
    if (open == 0 && c != kClose) ++r;
    if (c == kOpen) ++open;
    else if (c == kClose) --open;
  }
  return r;
}

IntTuple IntTuple::part(std::size_t begin, std::size_t end, std::size_t leaf_begin, std::size_t leaf_end) const {
  IntTuple t{Empty{}};
  t.nesting_.append(nesting_.data() + begin, end - begin);
  t.leaves_.append(leaves_.data() + leaf_begin, leaf_end - leaf_begin);
  return t;
}

bool IntTuple::find_mode(std::size_t i, std::size_t& begin, std::size_t& end, std::size_t& leaf_begin,
                         std::size_t& leaf_end) const {
  const std::string_view n = nesting();
  std::size_t pos = 1, leaf = 0;
  for (std::size_t k = 0; n[pos] != kClose; ++k) {
    leaf_begin = leaf;
    const std::size_t e = mode_end(n, pos, leaf);
    if (k == i) {
      begin = pos;
      end = e;
      leaf_end = leaf;
      return true;
    }
    pos = e;
  }
  return false;
}

IntTuple IntTuple::operator[](std::size_t i) const {
  if (is_leaf()) {
    if (i != 0) throw Error("mode " + std::to_string(i) + " of the integer " + std::to_string(leaves_[0]));
    return *this;
  }
  std::size_t begin, end, leaf_begin, leaf_end;
  if (find_mode(i, begin, end, leaf_begin, leaf_end)) return part(begin, end, leaf_begin, leaf_end);
  throw Error("mode " + std::to_string(i) + " does not exist in " + to_string(*this) + " (rank " +
              std::to_string(rank()) + ")");
}

void IntTuple::push_back(std::int64_t v) {
  if (!is_tuple()) throw Error("push_back on an integer");
  nesting_.back() = kLeaf;
  nesting_.push_back(kClose);
  leaves_.push_back(v);
}

void IntTuple::push_back(const IntTuple& x) {
  if (!is_tuple()) throw Error("push_back on an integer");
  nesting_.pop_back();  // the closing ')' comes back after x
  nesting_.append(x.nesting_);
  nesting_.push_back(kClose);
  leaves_.append(x.leaves_);
}

int depth(const IntTuple& t) {
  int open = 0, deepest = 0;
  for (const char c : t.nesting()) {
    if (c == IntTuple::kOpen) deepest = std::max(deepest, ++open);
    else if (c == IntTuple::kClose) --open;
  }
  return deepest;
}

namespace {
// Fold over the modes at nesting[pos] in the order of the tree, as the recursive definitions
// do (a tuple's value combines its modes' values): overflow is reported at the same operands.
template <class Combine>
std::int64_t fold_at(std::string_view n, const std::int64_t* leaves, std::size_t& pos, std::size_t& leaf,
                     std::int64_t init, Combine&& combine) {
  if (n[pos] == IntTuple::kLeaf) {
    ++pos;
    return leaves[leaf++];
  }
  ++pos;  // '('
  std::int64_t r = init;
  while (n[pos] != IntTuple::kClose) r = combine(r, fold_at(n, leaves, pos, leaf, init, combine));
  ++pos;  // ')'
  return r;
}
}  // namespace

std::int64_t product(const IntTuple& t) {
  // Positive leaves whose product fits: then every grouping the tree makes fits too and gives
  // that product, so the flat loop is the fold. Anything else takes the fold itself, which
  // reports an overflow at the operands where the tree's order meets it.
  std::int64_t p = 1;
  bool flat = true;
  for (const std::int64_t x : t.leaf_values())
    if (x < 1 || __builtin_mul_overflow(p, x, &p)) {
      flat = false;
      break;
    }
  if (flat) return t.is_leaf() ? t.leaf_values()[0] : p;
  std::size_t pos = 0, leaf = 0;
  return fold_at(t.nesting(), t.leaf_values().data(), pos, leaf, 1,
                 [](std::int64_t a, std::int64_t b) { return checked_mul(a, b, "size"); });
}

std::int64_t sum(const IntTuple& t) {
  std::size_t pos = 0, leaf = 0;
  return fold_at(t.nesting(), t.leaf_values().data(), pos, leaf, 0,
                 [](std::int64_t a, std::int64_t b) { return checked_add(a, b, "sum"); });
}

void flatten_into(const IntTuple& t, std::vector<std::int64_t>& out) {
  const auto v = t.leaf_values();
  out.insert(out.end(), v.begin(), v.end());
}

std::vector<std::int64_t> leaves(const IntTuple& t) {
  const auto v = t.leaf_values();
  return {v.begin(), v.end()};
}

IntTuple flatten(const IntTuple& t) {
  if (t.is_leaf()) return t;
  return IntTuple::of_values(t.leaf_values());
}

bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return product(b) == a.value();
  if (b.is_leaf()) return false;
  if (a.rank() != b.rank()) return false;
  auto bi = b.elems().begin();
  for (const IntTuple& ai : a.elems()) {
    if (!compatible(ai, *bi)) return false;
    ++bi;
  }
  return true;
}

IntTuple repeat_like(const IntTuple& like, std::int64_t v) {
  return transform_leaf(like, [v](std::int64_t) { return v; });
}

IntTuple unflatten(const IntTuple& like, std::span<const std::int64_t> flat) {
  const std::size_t n = like.leaf_values().size();
  if (flat.size() < n) throw Error("unflatten: too few leaves");
  if (flat.size() > n) throw Error("unflatten: too many leaves");
  return IntTuple::with_leaves(like, flat);
}

void append_string(const IntTuple& t, std::string& out) {
  const std::string_view n = t.nesting();
  const std::int64_t* leaf = t.leaf_values().data();
  // Written into a buffer that surely holds it (a parenthesis or comma per nesting character,
  // 20 characters per leaf), then appended at once: no capacity check per character.
  const std::size_t bound = 2 * n.size() + 20 * t.leaf_values().size();
  char stack[512];
  std::string heap;
  char* const buf = bound <= sizeof stack ? stack : (heap.resize(bound), heap.data());
  char* o = buf;
  for (std::size_t k = 0; k < n.size(); ++k) {
    const char c = n[k];
    if (c == IntTuple::kClose) {
      *o++ = ')';
      continue;
    }
    if (k > 0 && n[k - 1] != IntTuple::kOpen) *o++ = ',';
    if (c == IntTuple::kOpen) {
      *o++ = '(';
      continue;
    }
    // -2^63 is the '_' of slice coordinates (rt::kUnderscore; no integer takes that value)
    const std::int64_t v = *leaf++;
    if (v >= 0 && v < 10) {
      *o++ = static_cast<char>('0' + v);
    } else if (v == std::numeric_limits<std::int64_t>::min()) {
      *o++ = '_';
    } else {
      char digits[24];
      char* const e = digits + sizeof digits;
      char* p = e;
      std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      do {
        *--p = static_cast<char>('0' + u % 10);
        u /= 10;
      } while (u);
      if (v < 0) *--p = '-';
      while (p != e) *o++ = *p++;
    }
  }
  out.append(buf, static_cast<std::size_t>(o - buf));
}

std::string to_string(const IntTuple& t) {
  std::string s;
  append_string(t, s);
  return s;
}

}  // namespace tessera::rt
