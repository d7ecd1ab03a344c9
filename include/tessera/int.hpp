#pragma once
// Static integers C<N>: arithmetic between them stays static (so results can be
// checked with static_assert); mixing with dynamic integers gives int64_t.
#include <cstdint>
#include <type_traits>
#include <utility>
#include "config.hpp"

namespace tessera {

template <int64_t N>
struct C {
  using value_type = int64_t;
  static constexpr int64_t value = N;
  TESSERA_HOST_DEVICE constexpr operator int64_t() const { return N; }
};

template <int64_t N> using Int = C<N>;
template <bool B> using bool_constant = C<B ? 1 : 0>;
using true_type  = C<1>;
using false_type = C<0>;

using _0 = C<0>;
using _1 = C<1>;
using _2 = C<2>;
using _3 = C<3>;
using _4 = C<4>;
using _5 = C<5>;
using _6 = C<6>;
using _7 = C<7>;
using _8 = C<8>;
using _9 = C<9>;
using _10 = C<10>;
using _11 = C<11>;
using _12 = C<12>;
using _13 = C<13>;
using _14 = C<14>;
using _15 = C<15>;
using _16 = C<16>;
using _17 = C<17>;
using _18 = C<18>;
using _19 = C<19>;
using _20 = C<20>;
using _21 = C<21>;
using _22 = C<22>;
using _23 = C<23>;
using _24 = C<24>;
using _25 = C<25>;
using _26 = C<26>;
using _27 = C<27>;
using _28 = C<28>;
using _29 = C<29>;
using _30 = C<30>;
using _31 = C<31>;
using _32 = C<32>;
using _33 = C<33>;
using _34 = C<34>;
using _35 = C<35>;
using _36 = C<36>;
using _37 = C<37>;
using _38 = C<38>;
using _39 = C<39>;
using _40 = C<40>;
using _41 = C<41>;
using _42 = C<42>;
using _43 = C<43>;
using _44 = C<44>;
using _45 = C<45>;
using _46 = C<46>;
using _47 = C<47>;
using _48 = C<48>;
using _49 = C<49>;
using _50 = C<50>;
using _51 = C<51>;
using _52 = C<52>;
using _53 = C<53>;
using _54 = C<54>;
using _55 = C<55>;
using _56 = C<56>;
using _57 = C<57>;
using _58 = C<58>;
using _59 = C<59>;
using _60 = C<60>;
using _61 = C<61>;
using _62 = C<62>;
using _63 = C<63>;
using _64 = C<64>;
using _65 = C<65>;
using _66 = C<66>;
using _67 = C<67>;
using _68 = C<68>;
using _69 = C<69>;
using _70 = C<70>;
using _71 = C<71>;
using _72 = C<72>;
using _73 = C<73>;
using _74 = C<74>;
using _75 = C<75>;
using _76 = C<76>;
using _77 = C<77>;
using _78 = C<78>;
using _79 = C<79>;
using _80 = C<80>;
using _81 = C<81>;
using _82 = C<82>;
using _83 = C<83>;
using _84 = C<84>;
using _85 = C<85>;
using _86 = C<86>;
using _87 = C<87>;
using _88 = C<88>;
using _89 = C<89>;
using _90 = C<90>;
using _91 = C<91>;
using _92 = C<92>;
using _93 = C<93>;
using _94 = C<94>;
using _95 = C<95>;
using _96 = C<96>;
using _97 = C<97>;
using _98 = C<98>;
using _99 = C<99>;
using _100 = C<100>;
using _101 = C<101>;
using _102 = C<102>;
using _103 = C<103>;
using _104 = C<104>;
using _105 = C<105>;
using _106 = C<106>;
using _107 = C<107>;
using _108 = C<108>;
using _109 = C<109>;
using _110 = C<110>;
using _111 = C<111>;
using _112 = C<112>;
using _113 = C<113>;
using _114 = C<114>;
using _115 = C<115>;
using _116 = C<116>;
using _117 = C<117>;
using _118 = C<118>;
using _119 = C<119>;
using _120 = C<120>;
using _121 = C<121>;
using _122 = C<122>;
using _123 = C<123>;
using _124 = C<124>;
using _125 = C<125>;
using _126 = C<126>;
using _127 = C<127>;
using _128 = C<128>;
using _129 = C<129>;
using _130 = C<130>;
using _131 = C<131>;
using _132 = C<132>;
using _133 = C<133>;
using _134 = C<134>;
using _135 = C<135>;
using _136 = C<136>;
using _137 = C<137>;
using _138 = C<138>;
using _139 = C<139>;
using _140 = C<140>;
using _141 = C<141>;
using _142 = C<142>;
using _143 = C<143>;
using _144 = C<144>;
using _145 = C<145>;
using _146 = C<146>;
using _147 = C<147>;
using _148 = C<148>;
using _149 = C<149>;
using _150 = C<150>;
using _151 = C<151>;
using _152 = C<152>;
using _153 = C<153>;
using _154 = C<154>;
using _155 = C<155>;
using _156 = C<156>;
using _157 = C<157>;
using _158 = C<158>;
using _159 = C<159>;
using _160 = C<160>;
using _161 = C<161>;
using _162 = C<162>;
using _163 = C<163>;
using _164 = C<164>;
using _165 = C<165>;
using _166 = C<166>;
using _167 = C<167>;
using _168 = C<168>;
using _169 = C<169>;
using _170 = C<170>;
using _171 = C<171>;
using _172 = C<172>;
using _173 = C<173>;
using _174 = C<174>;
using _175 = C<175>;
using _176 = C<176>;
using _177 = C<177>;
using _178 = C<178>;
using _179 = C<179>;
using _180 = C<180>;
using _181 = C<181>;
using _182 = C<182>;
using _183 = C<183>;
using _184 = C<184>;
using _185 = C<185>;
using _186 = C<186>;
using _187 = C<187>;
using _188 = C<188>;
using _189 = C<189>;
using _190 = C<190>;
using _191 = C<191>;
using _192 = C<192>;
using _193 = C<193>;
using _194 = C<194>;
using _195 = C<195>;
using _196 = C<196>;
using _197 = C<197>;
using _198 = C<198>;
using _199 = C<199>;
using _200 = C<200>;
using _201 = C<201>;
using _202 = C<202>;
using _203 = C<203>;
using _204 = C<204>;
using _205 = C<205>;
using _206 = C<206>;
using _207 = C<207>;
using _208 = C<208>;
using _209 = C<209>;
using _210 = C<210>;
using _211 = C<211>;
using _212 = C<212>;
using _213 = C<213>;
using _214 = C<214>;
using _215 = C<215>;
using _216 = C<216>;
using _217 = C<217>;
using _218 = C<218>;
using _219 = C<219>;
using _220 = C<220>;
using _221 = C<221>;
using _222 = C<222>;
using _223 = C<223>;
using _224 = C<224>;
using _225 = C<225>;
using _226 = C<226>;
using _227 = C<227>;
using _228 = C<228>;
using _229 = C<229>;
using _230 = C<230>;
using _231 = C<231>;
using _232 = C<232>;
using _233 = C<233>;
using _234 = C<234>;
using _235 = C<235>;
using _236 = C<236>;
using _237 = C<237>;
using _238 = C<238>;
using _239 = C<239>;
using _240 = C<240>;
using _241 = C<241>;
using _242 = C<242>;
using _243 = C<243>;
using _244 = C<244>;
using _245 = C<245>;
using _246 = C<246>;
using _247 = C<247>;
using _248 = C<248>;
using _249 = C<249>;
using _250 = C<250>;
using _251 = C<251>;
using _252 = C<252>;
using _253 = C<253>;
using _254 = C<254>;
using _255 = C<255>;
using _256 = C<256>;
using _512 = C<512>;
using _1024 = C<1024>;
using _2048 = C<2048>;
using _4096 = C<4096>;
using _8192 = C<8192>;
using _16384 = C<16384>;
using _32768 = C<32768>;
using _65536 = C<65536>;
using _m1 = C<-1>;

// ---- traits ---------------------------------------------------------------
template <class T> struct is_static_int : std::false_type {};
template <int64_t N> struct is_static_int<C<N>> : std::true_type {};

template <class T> struct is_dynamic_int
    : std::bool_constant<std::is_integral_v<T> && !std::is_same_v<T, bool>> {};

// static or dynamic integer (bool counts: comparisons of dynamic values give bool)
template <class T> inline constexpr bool is_integral_v =
    is_static_int<std::remove_cvref_t<T>>::value || std::is_integral_v<std::remove_cvref_t<T>>;

// is_static is extended to tuples in int_tuple.hpp
template <class T, class = void> struct is_static : std::false_type {};
template <int64_t N> struct is_static<C<N>> : std::true_type {};
template <class T> inline constexpr bool is_static_v = is_static<std::remove_cvref_t<T>>::value;

// is_constant<N, T>: T is the static integer N
template <int64_t N, class T> struct is_constant : std::false_type {};
template <int64_t N, int64_t M> struct is_constant<N, C<M>> : std::bool_constant<N == M> {};
template <int64_t N, class T> struct is_constant<N, T const> : is_constant<N, T> {};
template <int64_t N, class T> struct is_constant<N, T&> : is_constant<N, T> {};
template <int64_t N, class T> inline constexpr bool is_constant_v = is_constant<N, std::remove_cvref_t<T>>::value;

// ---- arithmetic that stays static -------------------------------------------
// Overflow of static values is a compile error (non-constant template argument).
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<A + B> operator+(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<A - B> operator-(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<A * B> operator*(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr auto operator/(C<A>, C<B>) {
  static_assert(B != 0, "tessera: static division by zero");
  return C<A / B>{};
}
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr auto operator%(C<A>, C<B>) {
  static_assert(B != 0, "tessera: static modulo by zero");
  return C<A % B>{};
}
template <int64_t A> TESSERA_HOST_DEVICE constexpr C<-A> operator-(C<A>) { return {}; }
template <int64_t A> TESSERA_HOST_DEVICE constexpr C<A> operator+(C<A>) { return {}; }
template <int64_t A> TESSERA_HOST_DEVICE constexpr C<!A> operator!(C<A>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A == B)> operator==(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A != B)> operator!=(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A < B)> operator<(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A <= B)> operator<=(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A > B)> operator>(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A >= B)> operator>=(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A && B)> operator&&(C<A>, C<B>) { return {}; }
template <int64_t A, int64_t B> TESSERA_HOST_DEVICE constexpr C<(A || B)> operator||(C<A>, C<B>) { return {}; }

// Dynamic operands: everything is computed in int64_t.
template <class T> TESSERA_HOST_DEVICE constexpr int64_t to_i64(T const& t) { return static_cast<int64_t>(t); }

// Function objects and helpers that keep static operands static.
#define TESSERA_STATIC_OR_DYNAMIC(NAME, EXPR)                                              \
  template <class A, class B>                                                              \
  TESSERA_HOST_DEVICE constexpr auto NAME(A const& a, B const& b) {                        \
    if constexpr (is_static_v<A> && is_static_v<B>) {                                      \
      constexpr int64_t x = std::remove_cvref_t<A>::value, y = std::remove_cvref_t<B>::value; \
      return C<(EXPR)>{};                                                                  \
    } else {                                                                               \
      int64_t x = to_i64(a), y = to_i64(b);                                                \
      return int64_t(EXPR);                                                                \
    }                                                                                      \
  }

namespace detail {
TESSERA_HOST_DEVICE constexpr int64_t gcd_(int64_t a, int64_t b) {
  a = a < 0 ? -a : a; b = b < 0 ? -b : b;
  while (b != 0) { int64_t t = a % b; a = b; b = t; }
  return a;
}
}  // namespace detail

TESSERA_STATIC_OR_DYNAMIC(min, (x < y ? x : y))
TESSERA_STATIC_OR_DYNAMIC(max, (x < y ? y : x))
TESSERA_STATIC_OR_DYNAMIC(gcd, detail::gcd_(x, y))
TESSERA_STATIC_OR_DYNAMIC(lcm, ((x == 0 || y == 0) ? 0 : (x / detail::gcd_(x, y)) * y))

template <class A>
TESSERA_HOST_DEVICE constexpr auto abs(A const& a) {
  if constexpr (is_static_v<A>) return C<(A::value < 0 ? -A::value : A::value)>{};
  else return to_i64(a) < 0 ? -to_i64(a) : to_i64(a);
}
template <class A>
TESSERA_HOST_DEVICE constexpr auto signum(A const& a) {
  if constexpr (is_static_v<A>) return C<(A::value > 0) - (A::value < 0)>{};
  else return int64_t((to_i64(a) > 0) - (to_i64(a) < 0));
}

// Static product with overflow detection for dynamic values in debug host builds.
template <class A, class B>
TESSERA_HOST_DEVICE constexpr auto checked_mul(A const& a, B const& b) {
  if constexpr (is_static_v<A> && is_static_v<B>) return a * b;
  else {
    int64_t r = 0;
    [[maybe_unused]] bool ovf = __builtin_mul_overflow(to_i64(a), to_i64(b), &r);
    TESSERA_EXPECTS(!ovf, "tessera: integer overflow in a product");
    return r;
  }
}

// conditional_return<B>(a, b): a if B else b (types may differ)
template <bool B, class T, class F>
TESSERA_HOST_DEVICE constexpr auto conditional_return(T const& t, F const& f) {
  if constexpr (B) return t; else return f;
}

}  // namespace tessera
