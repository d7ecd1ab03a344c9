// The algebra's trace (rt/trace.hpp), which `tessera explain` prints: tracing never changes
// a result or an error, every traced step is an expression eval evaluates to the value shown,
// every value-note reads back, and CuTe's textbook derivations come out step by step.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <functional>
#include <string>
#include <vector>

#include "expression_generator.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/trace.hpp"

using namespace tessera::rt;

namespace {

struct Outcome {
  bool ok = false;
  std::string text;  // the value, or the error and its position
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

Outcome run(const std::string& e) {
  try {
    return {true, to_string(evaluate(e))};
  } catch (const Error& err) {
    return {false, std::string(err.what()) + " @" + std::to_string(err.pos())};
  }
}

struct RcRandom {
  std::int64_t operator()(std::int64_t lo, std::int64_t hi) const { return *rc::gen::inRange(lo, hi + 1); }
};

// Calls f on every step, depth first, in order.
void walk(const std::vector<TraceStep>& steps, const std::function<void(const TraceStep&)>& f) {
  for (const TraceStep& s : steps) {
    f(s);
    walk(s.steps, f);
  }
}

const TraceStep* find_op(const std::vector<TraceStep>& steps, const std::string& expr) {
  const TraceStep* hit = nullptr;
  walk(steps, [&](const TraceStep& s) {
    if (!hit && s.kind == TraceStep::Kind::operation && s.expr == expr) hit = &s;
  });
  return hit;
}

}  // namespace

TEST_CASE("trace: no trace is installed unless a session installs one, and sessions nest", "[runtime][trace]") {
  CHECK(active_trace() == nullptr);
  Trace outer, inner;
  {
    const TraceSession a(outer);
    CHECK(active_trace() == &outer);
    {
      const TraceSession b(inner);
      CHECK(active_trace() == &inner);
      (void)evaluate("coalesce((2,2):(1,2))");
    }
    CHECK(active_trace() == &outer);
  }
  CHECK(active_trace() == nullptr);
  CHECK(outer.steps.empty());
  REQUIRE(inner.steps.size() == 1);
  CHECK(inner.steps[0].expr == "coalesce((2,2):(1,2))");
  CHECK(inner.steps[0].result == "4:1");
  // Without a session nothing is recorded anywhere.
  (void)evaluate("logical_divide((4,2,3):(2,1,8), 4:2)");
  CHECK(outer.steps.empty());
}

TEST_CASE("trace: CuTe's logical_divide example, step by step", "[runtime][trace]") {
  // CuTe's layout algebra documentation: logical_divide((4,2,3):(2,1,8), 4:2).
  Trace t;
  {
    const TraceSession s(t);
    CHECK(to_string(evaluate("logical_divide((4,2,3):(2,1,8), 4:2)")) == "((2,2),(2,3)):((4,1),(2,8))");
  }
  const TraceStep* complement = find_op(t.steps, "complement(4:2,24)");
  REQUIRE(complement != nullptr);
  CHECK(complement->result == "(2,3):(1,8)");
  const TraceStep* tile = find_op(t.steps, "composition((4,2,3):(2,1,8),4:2)");
  REQUIRE(tile != nullptr);
  CHECK(tile->result == "(2,2):(4,1)");
  const TraceStep* rest = find_op(t.steps, "composition((4,2,3):(2,1,8),(2,3):(1,8))");
  REQUIRE(rest != nullptr);
  CHECK(rest->result == "(2,3):(2,8)");
  bool concatenation = false;
  walk(t.steps, [&](const TraceStep& s) {
    if (s.kind == TraceStep::Kind::note && s.op == "concatenation (B, complement)") {
      concatenation = true;
      CHECK(s.result == "(4,(2,3)):(2,(1,8))");
      CHECK(s.value);
    }
  });
  CHECK(concatenation);
}

TEST_CASE("trace: a refused composition fails at its own step, with what ran before it", "[runtime][trace]") {
  Trace t;
  {
    const TraceSession s(t);
    CHECK_THROWS_AS(evaluate("logical_divide(composition((2,2):(1,6), (2,2):(1,1)), 2:1)"), Error);
  }
  TraceStep* f = t.innermost_failure();
  REQUIRE(f != nullptr);
  CHECK(f->op == "composition");
  CHECK(f->expr == "composition((2,2):(1,6),(2,2):(1,1))");
  // The coalesce of A ran (and succeeded) inside the refused step.
  REQUIRE(!f->steps.empty());
  CHECK(find_op(f->steps, "coalesce((2,2):(1,6))") != nullptr);
  // The outer call never ran: its argument failed first.
  CHECK(find_op(t.steps, "logical_divide") == nullptr);
}

TEST_CASE("trace: nested expressions are steps in the order they ran", "[runtime][trace]") {
  Trace t;
  {
    const TraceSession s(t);
    CHECK(to_string(evaluate("size(complement(4:2, 24))")) == "6");
  }
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].expr == "complement(4:2,24)");
  CHECK(t.steps[1].expr == "size((2,3):(1,8))");
  CHECK(t.steps[1].result == "6");
}

TEST_CASE("trace: a swizzled operation shows the swizzle's own steps", "[runtime][trace]") {
  Trace t;
  {
    const TraceSession s(t);
    CHECK(to_string(evaluate("right_inverse(Sw<3,3,3> o (8,64):(64,1))")) == "Sw<3,0,-6> o 0 o (64,8):(8,1)");
  }
  REQUIRE(find_op(t.steps, "right_inverse((8,64):(64,1))") != nullptr);
  CHECK(find_op(t.steps, "right_inverse((8,64):(64,1))")->result == "(64,8):(8,1)");
  const TraceStep* c = find_op(t.steps, "composition((64,8):(8,1),Sw<3,3,3>)");
  REQUIRE(c != nullptr);
  CHECK(c->result == "Sw<3,0,-6> o 0 o (64,8):(8,1)");
}

TEST_CASE("trace: explained results are eval's, and every step re-evaluates to what it shows", "[runtime][trace]") {
  rc::prop("generated expressions", [] {
    RcRandom random;
    tessera_test::ExpressionGenerator<RcRandom> gen(random);
    const std::string e = gen.expression();
    const Outcome plain = run(e);
    Trace t;
    Outcome traced;
    {
      const TraceSession s(t);
      traced = run(e);
    }
    RC_ASSERT(traced == plain);
    RC_CLASSIFY(plain.ok, "evaluates");
    RC_CLASSIFY(!plain.ok, "refused");
    if (plain.ok)
      for (const TraceStep& s : t.steps) RC_ASSERT(!s.failed);
    else if (!t.steps.empty() && t.steps.back().failed)
      RC_ASSERT(t.innermost_failure() != nullptr);
    std::vector<const TraceStep*> all;
    walk(t.steps, [&](const TraceStep& s) { all.push_back(&s); });
    for (const TraceStep* s : all) {
      if (s->kind == TraceStep::Kind::note) {
        if (s->value) RC_ASSERT(run(s->result) == (Outcome{true, s->result}));
        continue;
      }
      RC_ASSERT(!s->op.empty());
      if (s->failed) {
        // A refused step's expression is refused by eval too.
        if (!s->expr.empty()) RC_ASSERT(!run(s->expr).ok);
        continue;
      }
      RC_ASSERT(!s->expr.empty());
      const Outcome again = run(s->expr);
      RC_ASSERT(again.ok);
      RC_ASSERT(again.text == s->result);
    }
  });
}
