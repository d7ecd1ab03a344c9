#include "json.hpp"

#include <iostream>
#include <string>

namespace tessera::cli::json {

void print(const Value& v) {
  std::string out = dump(v);
  out += '\n';
  std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
}

}  // namespace tessera::cli::json
