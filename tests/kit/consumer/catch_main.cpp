// Catch2's runner, for a Catch2 2 without its prebuilt Catch2::Catch2WithMain.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
