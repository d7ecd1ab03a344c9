#pragma once
// The command line as the user typed it, so that an error about an option (or an argument
// the command does not take) shows the line with a caret under the word at fault, in
// tessera's words whichever layer found the mistake (CLI11's parser, a validator, or the
// command itself). Also the exit status of an error, which `diff` and `verify` keep apart
// from their "differ"/"failed" answer.
#include <cctype>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::cli {

inline std::vector<std::string>& command_line() {
  static std::vector<std::string> args;
  return args;
}
inline void remember_command_line(int argc, char** argv) {
  command_line().assign(argv, argv + argc);
  if (!command_line().empty()) command_line()[0] = "tessera";
}

// The subcommand named on the command line (the first word after `tessera` that is not an
// option), or empty.
inline std::string command_name() {
  const auto& a = command_line();
  for (std::size_t i = 1; i < a.size(); ++i)
    if (!a[i].empty() && a[i][0] != '-') return a[i];
  return {};
}

// `diff` and `verify` answer a question with 0/1 (same/differ, verified/failed), so a script
// must tell an error apart: 2 there; 1 for every other command.
inline int error_status(std::string_view command) { return command == "diff" || command == "verify" ? 2 : 1; }
inline int error_status() { return error_status(command_name()); }

// A word as a POSIX shell reads it back: bare when safe, else '...', or $'...' with \xNN
// escapes when it holds control characters or bytes that are not printable ASCII or UTF-8.
inline std::string shell_word(const std::string& w) {
  if (w.empty()) return "''";
  bool bare = true, plain = true;
  for (unsigned char c : w) {
    if (c < 0x20 || c == 0x7f) plain = false;
    if (!(std::isalnum(c) || std::string_view("_./:=,+-@%^").find(static_cast<char>(c)) != std::string_view::npos))
      bare = false;
  }
  if (bare) return w;
  // Bytes >= 0x80 print as they are only when the word is well-formed UTF-8.
  for (std::size_t i = 0; i < w.size() && plain;) {
    const unsigned char c = static_cast<unsigned char>(w[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > w.size()) plain = false;
    for (std::size_t k = 1; plain && k < n; ++k)
      if ((static_cast<unsigned char>(w[i + k]) >> 6) != 2) plain = false;
    i += n == 0 ? 1 : n;
  }
  std::string o;
  if (plain) {
    o = "'";
    for (char c : w) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
  }
  static const char* hexdigits = "0123456789abcdef";
  o = "$'";
  for (unsigned char c : w) {
    if (c == '\'' || c == '\\') o += std::string("\\") + static_cast<char>(c);
    else if (c < 0x20 || c >= 0x7f) o += std::string("\\x") + hexdigits[c >> 4] + hexdigits[c & 15];
    else o += static_cast<char>(c);
  }
  return o + "'";
}

// Columns a terminal gives `s` (UTF-8: one per code point).
inline std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// The index of the last word that gives option `names` ("-o", "--output": "-o x", "-ox",
// "--output x", "--output=x"), or none.
inline std::optional<std::size_t> option_word(const std::vector<std::string>& names) {
  const auto& a = command_line();
  for (std::size_t i = a.size(); i-- > 1;) {
    if (a[i] == "--") continue;
    for (const std::string& n : names) {
      if (n.empty()) continue;
      if (a[i] == n) return i;
      const bool long_name = n.size() > 2 && n[1] == '-';
      if (long_name ? a[i].rfind(n + "=", 0) == 0 : (a[i].size() > n.size() && a[i].rfind(n, 0) == 0 && a[i][1] != '-'))
        return i;
    }
  }
  return std::nullopt;
}
inline std::optional<std::size_t> option_word(const std::string& name) { return option_word(std::vector<std::string>{name}); }
// The index of the last word equal to `word`, or none.
inline std::optional<std::size_t> argument_word(const std::string& word) {
  const auto& a = command_line();
  for (std::size_t i = a.size(); i-- > 1;)
    if (a[i] == word) return i;
  return std::nullopt;
}

// `error: MESSAGE`, then the command line with a caret under word `index`. A line longer
// than a terminal shows the part around the caret.
inline std::string command_line_error(const std::string& message, std::size_t index) {
  const auto& a = command_line();
  std::string line;
  std::size_t caret = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i) line += ' ';
    if (i == index) caret = display_width(line);
    line += shell_word(a[i]);
  }
  constexpr std::size_t kWidth = 100, kBefore = 40;
  std::string shown = line;
  std::size_t at = caret;
  if (display_width(line) > kWidth) {
    // Cut on code point boundaries: skip `from` columns, keep kWidth - 6.
    const std::size_t from = caret > kBefore ? caret - kBefore : 0;
    std::size_t col = 0, begin = 0, end = line.size();
    for (std::size_t b = 0; b < line.size(); ++b) {
      if ((static_cast<unsigned char>(line[b]) & 0xC0) == 0x80) continue;
      if (col == from) begin = b;
      if (col == from + kWidth - 6) { end = b; break; }
      ++col;
    }
    shown = (from ? "..." : "") + line.substr(begin, end - begin) + (end < line.size() ? "..." : "");
    at = caret - from + (from ? 3 : 0);
  }
  return "error: " + message + "\n  " + shown + "\n  " + std::string(at, ' ') + "^\n";
}

// `error: MESSAGE`, with the caret under option `names` when the command line gives it.
inline std::string option_error(const std::string& message, const std::vector<std::string>& names) {
  if (const auto i = option_word(names)) return command_line_error(message, *i);
  return "error: " + message + "\n";
}

// A whole integer in [lo, hi] (decimal, optional '-'), else none.
inline std::optional<std::int64_t> integer_in(std::string_view s, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace tessera::cli
