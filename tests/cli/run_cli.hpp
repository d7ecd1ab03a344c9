// Runs the built tessera binary as a user would (explain and diff tests): arguments quoted
// for the shell, standard input from a string, status and both outputs captured.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
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

inline std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("tessera_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline Result run(const std::vector<std::string>& args, const std::string& input = "") {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = scratch_dir();
  const std::string tag = std::to_string(counter++);
  const fs::path in = dir / ("in" + tag), out = dir / ("out" + tag), err = dir / ("err" + tag);
  {
    std::ofstream f(in, std::ios::binary);
    f << input;
  }
  std::string cmd = quote(TESSERA_CLI);
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
