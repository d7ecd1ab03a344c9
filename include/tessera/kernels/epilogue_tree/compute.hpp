// The inner nodes of an epilogue tree: Compute<Op, Children...> is Op applied to its children's
// values, in f32. The ops are host + device function objects of f32:
//   plus(a, b) = a + b             multiplies(a, b) = a * b       multiply_add(a, b, c) = a * b + c
//   maximum(a, b), minimum(a, b)   absolute(x) = |x|              clamp(x, lo, hi) = min(max(x, lo), hi)
//   relu, gelu, gelu_tanh, silu    PyTorch's activations (epilogue_ops.hpp)
//   convert<T>(x)                  x rounded to T and back (what storing an intermediate in T keeps)
// multiply_add is written a * b + c, the fixed epilogue's expression (a compiler contracts it to
// an FMA where it contracts that one), so that a menu tree computes the menu's bits.
#pragma once

#include <cmath>
#include <type_traits>

#include "tessera/kernels/epilogue_ops.hpp"
#include "tessera/kernels/epilogue_tree/node.hpp"

namespace tessera::kernels::tree {

struct plus {
  TESSERA_HOST_DEVICE float operator()(float a, float b) const { return a + b; }
};
struct multiplies {
  TESSERA_HOST_DEVICE float operator()(float a, float b) const { return a * b; }
};
struct multiply_add {
  TESSERA_HOST_DEVICE float operator()(float a, float b, float c) const { return a * b + c; }
};
// NaN propagates (a NaN operand gives NaN), as torch.maximum / torch.minimum.
struct maximum {
  TESSERA_HOST_DEVICE float operator()(float a, float b) const { return a != a ? a : b != b ? b : a < b ? b : a; }
};
struct minimum {
  TESSERA_HOST_DEVICE float operator()(float a, float b) const { return a != a ? a : b != b ? b : b < a ? b : a; }
};
struct absolute {
  TESSERA_HOST_DEVICE float operator()(float x) const { return ::fabsf(x); }
};
// torch.clamp(x, lo, hi): min(max(x, lo), hi); NaN stays NaN.
struct clamp {
  TESSERA_HOST_DEVICE float operator()(float x, float lo, float hi) const { return minimum{}(maximum{}(x, lo), hi); }
};
struct relu {
  TESSERA_HOST_DEVICE float operator()(float x) const { return epilogue::relu(x); }
};
struct gelu {
  TESSERA_HOST_DEVICE float operator()(float x) const { return epilogue::gelu(x); }
};
struct gelu_tanh {
  TESSERA_HOST_DEVICE float operator()(float x) const { return epilogue::gelu_tanh(x); }
};
struct silu {
  TESSERA_HOST_DEVICE float operator()(float x) const { return epilogue::silu(x); }
};
template <class T>
struct convert {
  TESSERA_HOST_DEVICE float operator()(float x) const { return to_float(from_float<T>(x)); }
};
// The op of an Activation (the fixed menu's run-time choice as a type).
template <Activation A>
struct activation_op {
  TESSERA_HOST_DEVICE float operator()(float x) const { return epilogue::activate<A>(x); }
};

template <class Op, class... Children>
struct Compute {
  static_assert(sizeof...(Children) >= 1, "Compute<Op, Children...>: an op of at least one child");
  static_assert(std::is_invocable_r_v<float, Op const&, std::conditional_t<true, float, Children>...>,
                "Compute<Op, Children...>: Op takes as many f32 values as the node has children");
  struct Arguments {
    Pack<typename Children::Arguments...> children;
    Arguments() = default;
    Arguments(typename Children::Arguments const&... a) : children(a...) {}
  };
  struct Params {
    Pack<typename Children::Params...> children;
  };
  template <int Rows, int Cols>
  struct State {
    Pack<typename Children::template State<Rows, Cols>...> children;
  };
  static constexpr const char* name = "Compute";
  static GemmResult can_implement(TreeShape const& s, Arguments const& a, std::string const& at) {
    return can_implement_children(s, a, at, std::make_integer_sequence<int, int(sizeof...(Children))>{});
  }
  static std::size_t workspace_size(TreeShape const& s, Arguments const& a) {
    return workspace_children(s, a, std::make_integer_sequence<int, int(sizeof...(Children))>{});
  }
  static Params to_underlying_arguments(TreeShape const& s, Arguments const& a, void* workspace) {
    return params_children(s, a, workspace, std::make_integer_sequence<int, int(sizeof...(Children))>{});
  }
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    begin_children(p, s, f, std::make_integer_sequence<int, int(sizeof...(Children))>{});
  }
  template <class S>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const& p, S& s, TreeCoord const& c, float acc) {
    return visit_children(p, s, c, acc, std::make_integer_sequence<int, int(sizeof...(Children))>{});
  }
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    end_children(p, s, f, std::make_integer_sequence<int, int(sizeof...(Children))>{});
  }

 private:
  template <int... I>
  static GemmResult can_implement_children(TreeShape const& s, Arguments const& a, std::string const& at,
                                           std::integer_sequence<int, I...>) {
    GemmResult r;
    // the first refusal, children in order
    ((r ? (void)(r = Children::can_implement(s, child<I>(a.children), detail::child_at(at, I))) : (void)0), ...);
    return r;
  }
  template <int... I>
  static std::size_t workspace_children(TreeShape const& s, Arguments const& a, std::integer_sequence<int, I...>) {
    return (std::size_t(0) + ... + Children::workspace_size(s, child<I>(a.children)));
  }
  template <int... I>
  static Params params_children(TreeShape const& s, Arguments const& a, void* workspace, std::integer_sequence<int, I...>) {
    Params p;
    ((child<I>(p.children) = Children::to_underlying_arguments(s, child<I>(a.children), workspace)), ...);
    return p;
  }
  template <class S, class Frame, int... I>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_children(Params const& p, S& s, Frame const& f, std::integer_sequence<int, I...>) {
    (Children::begin_tile(child<I>(p.children), child<I>(s.children), f), ...);
  }
  template <class S, int... I>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit_children(Params const& p, S& s, TreeCoord const& c, float acc,
                                                                 std::integer_sequence<int, I...>) {
    return Op{}(Children::visit(child<I>(p.children), child<I>(s.children), c, acc)...);
  }
  template <class S, class Frame, int... I>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_children(Params const& p, S& s, Frame const& f, std::integer_sequence<int, I...>) {
    (Children::end_tile(child<I>(p.children), child<I>(s.children), f), ...);
  }
};

// An op of register-only children is register-only (the ops are arithmetic).
template <class Op, class... Children>
struct registers_only<Compute<Op, Children...>> : std::bool_constant<(registers_only_v<Children> && ...)> {};

}  // namespace tessera::kernels::tree
