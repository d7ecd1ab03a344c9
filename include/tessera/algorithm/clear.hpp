// clear(tensor): see tessera/algorithm/fill.hpp (clear is fill with the zero element).
#pragma once
#include "tessera/algorithm/fill.hpp"
