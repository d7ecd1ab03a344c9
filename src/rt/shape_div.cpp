// shape_div and ceil_div: the integer division of shapes that the algebra relies on.
#include "tessera/rt/algebra.hpp"

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

std::int64_t shape_div(std::int64_t a, std::int64_t b) {
  if (b == 0) throw Error("shape_div: division by zero");
  if (a % b != 0 && (a == 0 || b % a != 0))
    throw Error("shape_div: neither " + str(a) + " nor " + str(b) + " divides the other");
  std::int64_t q = a / b;
  if (q != 0) return q;
  return (a > 0 ? 1 : a < 0 ? -1 : 0) * (b > 0 ? 1 : -1);
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {
      if (a.rank() != b.rank()) throw Error("shape_div: ranks differ: " + to_string(a) + " and " + to_string(b));
      IntTuple out = IntTuple::tuple({});
      auto bi = b.elems().begin();
      for (const IntTuple& ai : a.elems()) out.push_back(shape_div(ai, *bi++));
      return out;
    }
    std::int64_t rest = b.value();
    IntTuple out = IntTuple::tuple({});
    for (const IntTuple& ai : a.elems()) {
      out.push_back(shape_div(ai, IntTuple(rest)));
      rest = shape_div(rest, product(ai));
    }
    return out;
  }
  if (b.is_tuple()) return IntTuple(shape_div(a.value(), product(b)));
  return IntTuple(shape_div(a.value(), b.value()));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  if (b <= 0) throw Error("ceil_div: divisor must be positive");
  if (a <= 0) return a / b;
  return (a - 1) / b + 1;
}

}  // namespace tessera::rt
