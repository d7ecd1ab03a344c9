// The fused epilogue's element-wise functions (tessera/kernels/epilogue_ops.hpp) against
// their definitions evaluated in double, and PyTorch's values at a few points; the device's
// branch-free formulas (epilogue::fast, here with their host fallbacks for ex2 and rcp) against
// the same definitions, within their stated bounds.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>
#include <limits>

#include "../../tools/harness/activation_reference.hpp"
#include "tessera/kernels/epilogue_ops.hpp"

using namespace tessera::kernels;
namespace ep = tessera::kernels::epilogue;

namespace {

double ref(Activation a, double x) { return reference::activate(a, x); }

// |f32 result - double reference| within a few f32 ulps of the larger of |ref| and |x|: the
// f32 formulas compute x/2 (1 + erf(..)) and the like, whose bracket is rounded near 1 when
// it is small (x << 0), an absolute error of about |x| eps/2 (PyTorch's f32 kernels compute the
// same formula).
bool close(double got, double want, double x) {
  return std::fabs(got - want) <= 8 * std::numeric_limits<float>::epsilon() * std::fmax(std::fmax(std::fabs(want), std::fabs(x)), 1e-30);
}

constexpr Activation all[] = {Activation::Identity, Activation::ReLU, Activation::GELU, Activation::GELUTanh, Activation::SiLU};

}  // namespace

TEST_CASE("activations at PyTorch's values") {
  // torch.nn.functional.gelu(torch.tensor([1., -1., 3.])), approximate='none' and 'tanh';
  // torch.nn.functional.silu; printed to 7 digits.
  CHECK(ep::gelu(1.0f) == Approx(0.8413447).epsilon(1e-6));
  CHECK(ep::gelu(-1.0f) == Approx(-0.1586553).epsilon(1e-6));
  CHECK(ep::gelu(3.0f) == Approx(2.9959502).epsilon(1e-6));
  CHECK(ep::gelu_tanh(1.0f) == Approx(0.8411920).epsilon(1e-6));
  CHECK(ep::gelu_tanh(-1.0f) == Approx(-0.1588080).epsilon(1e-6));
  CHECK(ep::silu(1.0f) == Approx(0.7310586).epsilon(1e-6));
  CHECK(ep::silu(-1.0f) == Approx(-0.2689414).epsilon(1e-6));
  CHECK(ep::relu(-2.5f) == 0.0f);
  CHECK(ep::relu(2.5f) == 2.5f);
  // the tails: no inf/inf, no NaN from exp overflow
  CHECK(ep::silu(-100.0f) == 0.0f);
  CHECK(ep::silu(100.0f) == 100.0f);
  CHECK(ep::gelu(-20.0f) == 0.0f);
  CHECK(ep::gelu_tanh(20.0f) == 20.0f);
  // NaN propagates (torch.relu(nan) is nan)
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (auto a : all) CHECK(std::isnan(ep::activate(a, nan)));
}

TEST_CASE("activations agree with their definitions in double, run-time and compile-time selection alike") {
  rc::prop("activate(a, x) ~ definition(x)", [](float raw) {
    const float x = std::isfinite(raw) ? std::fmod(raw, 40.0f) : 0.5f;
    for (auto a : all) {
      const float got = ep::activate(a, x);
      RC_ASSERT(close(got, ref(a, double(x)), x));
    }
    RC_ASSERT(ep::activate<Activation::ReLU>(x) == ep::activate(Activation::ReLU, x));
    RC_ASSERT(ep::activate<Activation::GELU>(x) == ep::activate(Activation::GELU, x));
    RC_ASSERT(ep::activate<Activation::GELUTanh>(x) == ep::activate(Activation::GELUTanh, x));
    RC_ASSERT(ep::activate<Activation::SiLU>(x) == ep::activate(Activation::SiLU, x));
    RC_ASSERT(ep::activate<Activation::Identity>(x) == x);
  });
  // a dense sweep over where the functions bend
  for (int i = -4000; i <= 4000; ++i) {
    const float x = float(i) / 500.0f;
    for (auto a : all) CHECK(close(ep::activate(a, x), ref(a, double(x)), x));
  }
}

TEST_CASE("properties of the activations") {
  rc::prop("relu and silu/gelu bounds", [](float raw) {
    const float x = std::isfinite(raw) ? std::fmod(raw, 60.0f) : 1.0f;
    RC_ASSERT(ep::relu(x) >= 0.0f);
    RC_ASSERT(ep::relu(x) == (x > 0 ? x : 0.0f));
    // x*Phi(x), x*sigmoid(x): between min(x, 0) and max(x, 0) (up to rounding)
    for (float y : {ep::gelu(x), ep::gelu_tanh(x), ep::silu(x)}) {
      RC_ASSERT(y <= std::fmax(x, 0.0f) * (1 + 1e-6f) + 1e-30f);
      RC_ASSERT(y >= std::fmin(x, 0.0f) * (1 + 1e-6f) - 1e-30f);
    }
    // odd part identity: f(x) - f(-x) = x for x*g(x) with g(x) + g(-x) = 1
    RC_ASSERT(std::fabs((ep::gelu(x) - ep::gelu(-x)) - x) <= 1e-5f * std::fmax(1.0f, std::fabs(x)));
    RC_ASSERT(std::fabs((ep::silu(x) - ep::silu(-x)) - x) <= 1e-5f * std::fmax(1.0f, std::fabs(x)));
  });
}

TEST_CASE("the epilogue value: act(alpha*acc + beta*c + bias), bias broadcast along its mode") {
  rc::prop("value = definition", [](int8_t ia, int8_t ib, int8_t iacc, int8_t ic, int8_t ibias) {
    const float alpha = ia / 16.0f, beta = ib / 16.0f, acc = iacc / 8.0f, c = ic / 8.0f, bias = ibias / 8.0f;
    const double pre = double(alpha) * acc + double(beta) * c + bias;  // exact in float too (small dyadics)
    RC_ASSERT(ep::value<Activation::Identity>(alpha, acc, beta, c, bias) == float(pre));
    RC_ASSERT(ep::value<Activation::ReLU>(alpha, acc, beta, c, bias) == float(pre > 0 ? pre : 0));
    RC_ASSERT(close(ep::value<Activation::GELU>(alpha, acc, beta, c, bias), ref(Activation::GELU, pre), pre));
    RC_ASSERT(close(ep::value<Activation::SiLU>(alpha, acc, beta, c, bias), ref(Activation::SiLU, pre), pre));
  });
  rc::prop("bias_index picks m for per-row, n for per-column", [](int64_t m, int64_t n) {
    RC_ASSERT(ep::bias_index(Bias::PerRow, m, n) == m);
    RC_ASSERT(ep::bias_index(Bias::PerColumn, m, n) == n);
  });
  CHECK(std::string(to_string(Activation::GELUTanh)) == "gelu_tanh");
  CHECK(std::string(to_string(Bias::PerRow)) == "per-row");
}

namespace {

// The device formulas' bound on the host: |fast(x) - f(x)| <= 2 eps |x| (their comments: the
// fit and t's rounding, about 1.4 eps |x| at worst; the device's ex2.approx and rcp.approx add
// at most 3 ulp of the value, <= 3 eps |x|, to the host fallbacks' error).
bool fast_close(double got, double want, double x) {
  return std::fabs(got - want) <= 2 * double(std::numeric_limits<float>::epsilon()) * std::fabs(x) + 1e-38;
}
float fast(Activation a, float x) {
  switch (a) {
    case Activation::GELU: return ep::fast::gelu(x);
    case Activation::GELUTanh: return ep::fast::gelu_tanh(x);
    default: return ep::fast::silu(x);
  }
}
constexpr Activation smooth[] = {Activation::GELU, Activation::GELUTanh, Activation::SiLU};

}  // namespace

TEST_CASE("the device's fast activations agree with their definitions (dense sweep, host fallbacks of ex2 and rcp)") {
  const double eps = std::numeric_limits<float>::epsilon();
  for (auto a : smooth) {
    INFO(to_string(a));
    double worst = 0, worst_rel = 0;
    // [-40, 40] in steps of 2^-10 (81921 points, every f32 exponent from 2^-10 to 2^5), then
    // [-1, 1] in steps of 2^-20: near 0 the value is x/2 to first order
    for (int i = -40 * 1024; i <= 40 * 1024; ++i) {
      const float x = float(i) / 1024.0f;
      const double want = ref(a, double(x)), got = fast(a, x);
      CHECK(fast_close(got, want, x));
      if (x != 0) worst = std::fmax(worst, std::fabs(got - want) / (eps * std::fabs(x)));
      // relative: a few ulp of the value wherever the value is not a tail's cancellation
      // (x >= -2: x/2 (1 + erf) or x sigmoid; below, the bracket is small and its absolute
      // error, as the f32 library formula's, is what the bound above states)
      if (x >= -2.0f && x != 0) worst_rel = std::fmax(worst_rel, std::fabs(got - want) / (eps * std::fabs(want)));
    }
    for (int i = -(1 << 20); i <= (1 << 20); i += 7) {
      const float x = float(i) / float(1 << 20);
      CHECK(fast_close(fast(a, x), ref(a, double(x)), x));
    }
    CHECK(worst <= 2.0);
    CHECK(worst_rel <= 16.0);
    // (a wrong constant shows: the bound is within a factor of 2 of the measured error)
    CHECK(worst >= 0.25);
  }
  rc::prop("fast(x) ~ definition(x), |x| < 1e4", [](float raw) {
    const float x = std::isfinite(raw) ? std::fmod(raw, 1e4f) : 0.25f;
    for (auto a : smooth) RC_ASSERT(fast_close(fast(a, x), ref(a, double(x)), x));
  });
}

TEST_CASE("the device's fast activations: limits, signs, NaN, and the tails") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (auto a : smooth) {
    INFO(to_string(a));
    // x -> +inf: x (exactly, once the logistic rounds to 1)
    for (float x : {20.0f, 100.0f, 1e10f, 1e30f, std::numeric_limits<float>::max(), inf}) CHECK(fast(a, x) == x);
    // x -> -inf: -0 (the exact value is below any f32 for these x)
    for (float x : {-100.0f, -1e10f, -1e30f, -std::numeric_limits<float>::max()}) {
      CHECK(fast(a, x) == 0.0f);
      CHECK(std::signbit(fast(a, x)));
    }
    // -inf itself: NaN, as the library formulas (-inf * 0) give
    CHECK(std::isnan(fast(a, -inf)));
    CHECK(std::isnan(ep::activate(a, -inf)));
    CHECK(std::isnan(fast(a, nan)));
    CHECK(std::isnan(fast(a, -nan)));
    // zero keeps its sign; f(x) has x's sign
    CHECK(fast(a, 0.0f) == 0.0f);
    CHECK(!std::signbit(fast(a, 0.0f)));
    CHECK(std::signbit(fast(a, -0.0f)));
    for (float x : {1e-30f, 1e-3f, 0.5f, 3.0f}) {
      CHECK(fast(a, x) > 0.0f);
      CHECK(fast(a, -x) < 0.0f);
    }
  }
  // PyTorch's values (as the library versions above)
  CHECK(ep::fast::gelu(1.0f) == Approx(0.8413447).epsilon(1e-6));
  CHECK(ep::fast::gelu(-1.0f) == Approx(-0.1586553).epsilon(1e-6));
  CHECK(ep::fast::gelu(3.0f) == Approx(2.9959502).epsilon(1e-6));
  CHECK(ep::fast::gelu_tanh(1.0f) == Approx(0.8411920).epsilon(1e-6));
  CHECK(ep::fast::gelu_tanh(-1.0f) == Approx(-0.1588080).epsilon(1e-6));
  CHECK(ep::fast::silu(1.0f) == Approx(0.7310586).epsilon(1e-6));
  CHECK(ep::fast::silu(-1.0f) == Approx(-0.2689414).epsilon(1e-6));
  // GELU's polynomial past |x| = 6 (x^2 clamped): x for x > 6, below |x| 2^-29 for x < -6
  for (float x = 6.0f; x < 200.0f; x *= 1.1f) {
    CHECK(ep::fast::gelu(x) == x);
    CHECK(std::fabs(ep::fast::gelu(-x)) <= std::ldexp(x, -29));
  }
  // the odd part: f(x) - f(-x) = x (x Phi(x) and x sigmoid(s(x)) with s odd)
  for (int i = 1; i <= 4000; ++i) {
    const float x = float(i) / 500.0f;
    for (auto a : smooth) CHECK(std::fabs((fast(a, x) - fast(a, -x)) - x) <= 4 * std::numeric_limits<float>::epsilon() * x);
  }
}
