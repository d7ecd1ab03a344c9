// Runs the built tessera binary (TESSERA_CLI) as a user would: arguments quoted for the shell,
// standard input from a string, status and both outputs captured. The one runner of the CLI
// tests (tests/cli) and the verify tests (tests/verify).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace tessera_test {

struct Result {
  int status = -1;
  std::string out, err;
};

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A golden file of the test's area (tests/<area>/data/NAME).
inline std::string golden(const std::string& name) {
  return slurp(std::filesystem::path(TESSERA_TEST_DATA_DIR) / name);
}

// This test process's scratch directory: created empty on first use, removed at exit.
inline std::filesystem::path scratch_dir() {
  struct Scratch {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("tessera_cli_" + std::to_string(::getpid()));
    Scratch() {
      std::filesystem::remove_all(dir);
      std::filesystem::create_directories(dir);
    }
    ~Scratch() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static const Scratch scratch;
  return scratch.dir;
}

// `tessera ARGS` with `input` on standard input, run in `cwd` (empty: the test's own directory).
inline Result run_in(const std::filesystem::path& cwd, const std::vector<std::string>& args,
                     const std::string& input = "") {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = scratch_dir();
  const std::string tag = std::to_string(counter++);
  const fs::path in = dir / ("in" + tag), out = dir / ("out" + tag), err = dir / ("err" + tag);
  std::ofstream(in, std::ios::binary) << input;
  std::string cmd = cwd.empty() ? std::string() : "cd " + quote(cwd.string()) + " && ";
  cmd += quote(TESSERA_CLI);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " < " + quote(in.string()) + " > " + quote(out.string()) + " 2> " + quote(err.string());
  const int rc = std::system(cmd.c_str());
  Result r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove(in);
  fs::remove(out);
  fs::remove(err);
  return r;
}

inline Result run(const std::vector<std::string>& args, const std::string& input = "") { return run_in({}, args, input); }

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string l;
  while (std::getline(ss, l)) v.push_back(l);
  return v;
}

inline std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

}  // namespace tessera_test
