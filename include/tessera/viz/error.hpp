// The one exception type of the diagram library: a message saying what is wrong
// (which layout, which cell, which file), ready to print after "error: ".
#pragma once

#include <stdexcept>

namespace tessera::viz {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tessera::viz
