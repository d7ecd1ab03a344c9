#pragma once
// The testing kit for your own layouts, in one include:
//   Catch2 matchers (matchers.hpp), rapidcheck generators (generators.hpp),
//   printing of layouts in CuTe notation for Catch and rapidcheck (layout_arg.hpp).
// Link tessera::testing (it brings tessera::runtime, Catch2 and rapidcheck).
#include "tessera/testing/layout_arg.hpp"
#include "tessera/testing/matchers.hpp"
#include "tessera/testing/generators.hpp"
