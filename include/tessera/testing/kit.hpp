#pragma once
// The testing kit for your own layouts, in one include:
//   claims about layouts with first-counterexample messages (claims.hpp, no framework needed),
//   Catch2 matchers over them (matchers.hpp), rapidcheck generators (generators.hpp),
//   printing of layouts in CuTe notation for Catch (matchers.hpp) and rapidcheck (layout_arg.hpp).
// Link tessera::testing (it brings tessera::runtime, Catch2 and rapidcheck).
#include "tessera/testing/layout_arg.hpp"
#include "tessera/testing/claims.hpp"
#include "tessera/testing/matchers.hpp"
#include "tessera/testing/generators.hpp"
