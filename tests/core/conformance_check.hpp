#pragma once
// Shared by the generated conformance sources (tools/gen_static_conformance.py).
#include <catch2/catch.hpp>
#include <string>
#include <tessera/tessera.hpp>
