// Golden files: a test's output compared byte for byte with a file of the repository (an
// area's tests/<area>/data/); TESSERA_UPDATE_GOLDEN=1 rewrites the files instead, after an
// intended change (then review the diff). Shared by the viz, atoms and verify golden tests.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tessera_test {

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool updating_goldens() {
  const char* e = std::getenv("TESSERA_UPDATE_GOLDEN");
  return e && std::string(e) == "1";
}

// CHECKs that `got` is the golden file at `path` (which must exist), or rewrites the file
// (whole: written beside it, then renamed over it) when updating.
inline void check_golden(const std::filesystem::path& path, const std::string& got) {
  INFO("golden file " << path.string() << " (TESSERA_UPDATE_GOLDEN=1 regenerates)");
  if (updating_goldens()) {
    const std::filesystem::path tmp = path.string() + ".new";
    std::ofstream(tmp, std::ios::binary) << got;
    std::filesystem::rename(tmp, path);
    WARN("updated " << path.string());
    return;
  }
  REQUIRE(std::filesystem::exists(path));
  CHECK(got == read_file(path));
}

}  // namespace tessera_test
