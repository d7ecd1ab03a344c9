#pragma once
// `--cpp`: the CuTe C++ type of a value, spelled as CuTe spells it, for pasting into a kernel:
//   (4,8):(1,4)                  Layout<Shape<_4,_8>,Stride<_1,_4>>
//   8:1                          Layout<_8,_1>
//   Sw<3,3,3> o 0 o (8,64):(64,1) ComposedLayout<Swizzle<3,3,3>,_0,Layout<Shape<_8,_64>,Stride<_64,_1>>>
// Every integer tessera reads from text is static (docs/notation.md), so every value has a
// fully static type; `Type{}` is the value. Integers are CuTe's aliases where CuTe defines one
// (_0.._10, _12, _16, _24, _32, ..., _m1, ...), else Int<N>, or C<N> outside int's range.
#include <cstdint>
#include <string>

#include "tessera/rt/eval.hpp"

namespace tessera::cli {

// A static integer: _8, _m1, Int<11>, C<4294967296>.
std::string cute_int(std::int64_t v);
// An integer, or a tuple spelled `tuple_name<...>` (Shape, Stride), nested alike.
std::string cute_int_tuple(const rt::IntTuple& t, const char* tuple_name);
std::string cute_type(const rt::Layout& l);             // Layout<Shape,Stride>
std::string cute_type(const rt::Swizzle& s);            // Swizzle<B,M,S>
std::string cute_type(const rt::SwizzledLayout& s);     // ComposedLayout<Swizzle<B,M,S>,Offset,Layout<..>>
std::string cute_type(const rt::LayoutAfterSwizzle& s); // ComposedLayout<Layout<..>,Offset,Swizzle<B,M,S>>
std::string cute_type(const rt::Tiler& t);              // Tile<Layout<..>,...>, nested Tile<..> for nested tilers
// Any value of eval: integers as Int (_8), integer tuples as Shape<...>.
std::string cute_type(const rt::Value& v);

}  // namespace tessera::cli
