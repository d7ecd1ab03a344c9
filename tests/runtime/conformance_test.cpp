// Every line of CuTe's answers (tests/data/conformance/*.jsonl) through the evaluator,
// compared as exact strings (shape and stride).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tessera/rt/eval.hpp"

namespace {

// The value of "key": "..." in a one-line JSON object (handles \" and \\ escapes).
bool json_string(const std::string& line, const std::string& key, std::string& out) {
  const std::string k = "\"" + key + "\"";
  std::size_t p = line.find(k);
  if (p == std::string::npos) return false;
  p = line.find(':', p + k.size());
  if (p == std::string::npos) return false;
  p = line.find('"', p + 1);
  if (p == std::string::npos) return false;
  out.clear();
  for (++p; p < line.size(); ++p) {
    if (line[p] == '\\' && p + 1 < line.size()) {
      out += line[++p];
    } else if (line[p] == '"') {
      return true;
    } else {
      out += line[p];
    }
  }
  return false;
}

}  // namespace

TEST_CASE("CuTe conformance vectors, exactly", "[runtime][conformance]") {
  namespace fs = std::filesystem;
  const fs::path dir(TESSERA_CONFORMANCE_DIR);
  // The vectors are part of the repository (tests/data/conformance): a clone without them
  // is broken, so their absence fails the test rather than skipping it.
  INFO("conformance folder: " << dir.string());
  REQUIRE(fs::is_directory(dir));
  std::size_t total = 0, passed = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream in(entry.path());
    std::string line;
    std::size_t lineno = 0;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      std::string expr, want;
      REQUIRE(json_string(line, "expr", expr));
      REQUIRE(json_string(line, "result", want));
      ++total;
      std::string got;
      try {
        got = tessera::rt::to_string(tessera::rt::evaluate(expr));
      } catch (const tessera::rt::Error& e) {
        got = std::string("error: ") + e.what();
      }
      if (got == want) {
        ++passed;
      } else {
        FAIL_CHECK(entry.path().filename().string() << ":" << lineno << "\n  expr:     " << expr
                                                    << "\n  expected: " << want << "\n  got:      " << got);
      }
    }
  }
  INFO("passed " << passed << " of " << total);
  CHECK(total >= 3806);
  CHECK(passed == total);
}
