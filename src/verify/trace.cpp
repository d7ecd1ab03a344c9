// Trace format: parser (every error with file:line:col and a caret) and writer.
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "tessera/rt/checked.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parse.hpp"
#include "tessera/verify/trace.hpp"

namespace tessera::verify {

namespace {

std::string display_line(std::string_view text) {
  // As rt::format_error: tabs as spaces, other non-printable bytes as '?', so the caret lines up.
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) out += c == '\t' ? ' ' : (std::isprint(c) ? static_cast<char>(c) : '?');
  return out;
}

std::string format_diagnostic(const std::string& file, std::size_t line, std::size_t col, const std::string& msg,
                              const std::string& text) {
  std::string out = file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (col > 0) out += ':' + std::to_string(col);
  }
  out += ": error: " + msg + "\n";
  if (line > 0 && col > 0) {
    out += "  " + display_line(text) + "\n  ";
    out.append(col - 1, ' ');
    out += "^\n";
  }
  return out;
}

std::string quote_text(std::string_view s) {
  std::string out = "'";
  out += display_line(s.size() > 40 ? s.substr(0, 40) : s);
  if (s.size() > 40) out += "...";
  return out + "'";
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// A name (of a map) as the format holds it: non-empty, no whitespace or control bytes.
// Returns the offset of the first bad byte, or npos when the name is fine.
std::size_t bad_name_byte(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c <= 0x20 || c == 0x7f) return i;
  }
  return std::string_view::npos;
}

struct Field {
  std::string_view text;
  std::size_t col = 0;  // 0-based byte offset in the line
};

// Where a record for a map that has not been declared (yet) was first seen.
struct PendingRec {
  std::size_t line, col;
  std::string text;
};

class Parser {
 public:
  Parser(std::istream& in, const std::string& file) : in_(in), file_(file) {}

  Trace run() {
    Trace t;
    bool header = false, kernel = false;
    std::size_t kernel_line = 0;
    std::unordered_map<std::string, std::size_t> map_line;  // name -> line of its `map`
    std::unordered_map<std::string, PendingRec> pending;     // recs of names not declared so far
    std::string raw;
    while (std::getline(in_, raw)) {
      ++lineno_;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      line_ = raw;
      split();
      if (fields_.empty() || fields_[0].text[0] == '#') continue;
      const Field& d = fields_[0];
      if (!header) {
        if (d.text != "tessera-trace")
          fail(d.col, "expected the header 'tessera-trace 1' first, found " + quote_text(d.text));
        if (fields_.size() < 2) fail(line_.size(), "expected the version after 'tessera-trace' (this tessera reads 1)");
        const std::int64_t version = integer(fields_[1], "the version");
        if (version != 1)
          fail(fields_[1].col, "unsupported trace version " + std::to_string(version) + ": this tessera reads version 1");
        no_extra(2, "the header");
        header = true;
        continue;
      }
      if (d.text == "rec") {
        if (fields_.size() < 6) fail(line_.size(), "expected " + std::string(kRecFields[fields_.size()]) +
                                                        ": a record is 'rec NAME THREAD VALUE ROW COL'");
        no_extra(6, "a record");
        Record r;
        name(fields_[1], "the map name");
        r.map = std::string(fields_[1].text);
        r.thread = integer(fields_[2], "the thread");
        r.value = integer(fields_[3], "the value");
        r.row = integer(fields_[4], "the row");
        r.col = integer(fields_[5], "the column");
        r.line = lineno_;
        if (!map_line.count(r.map)) pending.try_emplace(r.map, PendingRec{lineno_, fields_[1].col + 1, line_});
        t.records.push_back(std::move(r));
      } else if (d.text == "map") {
        if (fields_.size() < 4) fail(line_.size(), "expected " + std::string(kMapFields[fields_.size()]) +
                                                        ": a map is 'map NAME TILE TV'");
        no_extra(4, "a map");
        Map m;
        name(fields_[1], "the map name");
        m.name = std::string(fields_[1].text);
        if (auto it = map_line.find(m.name); it != map_line.end())
          fail(fields_[1].col, "map " + quote_text(m.name) + " is already declared at line " + std::to_string(it->second));
        if (auto it = pending.find(m.name); it != pending.end())
          throw TraceError(file_, it->second.line, it->second.col,
                           "record for map " + quote_text(m.name) + " comes before its map line (line " +
                               std::to_string(lineno_) + ")",
                           it->second.text);
        m.tile = tile(fields_[2]);
        m.tv = tv(fields_[3], m.tile);
        map_line.emplace(m.name, lineno_);
        t.maps.push_back(std::move(m));
      } else if (d.text == "kernel") {
        if (kernel) fail(d.col, "a second kernel line (the first is at line " + std::to_string(kernel_line) + ")");
        kernel = true;
        kernel_line = lineno_;
        std::size_t b = d.col + d.text.size();
        while (b < line_.size() && is_blank(line_[b])) ++b;
        t.kernel = line_.substr(b);
      } else if (d.text == "tessera-trace") {
        fail(d.col, "a second header line: the header comes once, first");
      } else {
        fail(d.col, "unknown directive " + quote_text(d.text) + ": expected kernel, map or rec (or # for a comment)");
      }
    }
    if (in_.bad()) throw TraceError(file_, 0, 0, "read error after line " + std::to_string(lineno_), "");
    if (!header) {
      line_.clear();
      throw TraceError(file_, lineno_ + 1, 1, "empty trace: expected the header 'tessera-trace 1'", "");
    }
    return t;
  }

 private:
  static constexpr const char* kRecFields[] = {"", "the map name", "the thread", "the value", "the row", "the column"};
  static constexpr const char* kMapFields[] = {"", "the map name", "the tile, e.g. (16,8)",
                                               "the TV layout, e.g. ((4,8),(2,2)):((32,1),(16,8))"};

  std::istream& in_;
  const std::string& file_;
  std::size_t lineno_ = 0;
  std::string line_;
  std::vector<Field> fields_;

  [[noreturn]] void fail(std::size_t col0, const std::string& msg) const {
    throw TraceError(file_, lineno_, col0 + 1, msg, line_);
  }

  void split() {
    fields_.clear();
    std::size_t i = 0;
    const std::string_view s = line_;
    while (i < s.size()) {
      while (i < s.size() && is_blank(s[i])) ++i;
      if (i >= s.size()) break;
      const std::size_t b = i;
      while (i < s.size() && !is_blank(s[i])) ++i;
      fields_.push_back(Field{s.substr(b, i - b), b});
    }
  }

  void no_extra(std::size_t n, const char* what) const {
    if (fields_.size() > n) fail(fields_[n].col, "unexpected " + quote_text(fields_[n].text) + " after " + what);
  }

  void name(const Field& f, const char* what) const {
    const std::size_t bad = bad_name_byte(f.text);
    if (bad != std::string_view::npos) fail(f.col + bad, std::string(what) + " contains a control character");
  }

  // A decimal integer, optionally negative; overflow is an error, never wrapped.
  std::int64_t integer(const Field& f, const char* what) const {
    const std::string_view s = f.text;
    std::size_t i = 0;
    const bool neg = s[0] == '-';
    if (neg) ++i;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i])))
      fail(f.col + i, std::string("expected ") + what + " (a decimal integer), found " + quote_text(s.substr(i)));
    const std::size_t digits = i;
    std::int64_t v = 0;  // accumulated negative so INT64_MIN fits
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      const int d = s[i] - '0';
      if (v < (std::numeric_limits<std::int64_t>::min() + d) / 10)
        fail(f.col + digits, std::string(what) + " " + quote_text(s) + " does not fit in 64 bits");
      v = v * 10 - d;
    }
    if (i < s.size())
      fail(f.col + i, "unexpected " + quote_text(s.substr(i, 1)) + " in " + what + ": expected a decimal integer");
    if (!neg) {
      if (v == std::numeric_limits<std::int64_t>::min())
        fail(f.col + digits, std::string(what) + " " + quote_text(s) + " does not fit in 64 bits");
      v = -v;
    }
    return v;
  }

  rt::Node parse_node(const Field& f) const {
    try {
      return rt::parse(f.text);
    } catch (const rt::Error& e) {
      fail(f.col + (e.pos() == rt::npos ? 0 : std::min(e.pos(), f.text.size())), e.what());
    }
  }

  // An IntTuple from a node of integers and tuples; `positive` for shapes.
  rt::IntTuple int_tuple(const rt::Node& n, const Field& f, const char* what, bool positive) const {
    switch (n.kind) {
      case rt::Node::Kind::Int:
        if (positive && n.value <= 0)
          fail(f.col + n.pos, std::string("the extents of ") + what + " must be positive, found " + std::to_string(n.value));
        return rt::IntTuple(n.value);
      case rt::Node::Kind::Tuple: {
        std::vector<rt::IntTuple> elems;
        elems.reserve(n.children.size());
        for (const auto& c : n.children) elems.push_back(int_tuple(c, f, what, positive));
        return rt::IntTuple::tuple(std::move(elems));
      }
      case rt::Node::Kind::Underscore:
        fail(f.col + n.pos, std::string("'_' is not an integer in ") + what);
      default:
        fail(f.col + n.pos, std::string(what) + " must be integers and tuples of integers");
    }
  }

  rt::IntTuple tile(const Field& f) const {
    const rt::Node n = parse_node(f);
    if (n.kind == rt::Node::Kind::Layout)
      fail(f.col, "the tile is a shape (rows,cols) such as (16,8), not a layout");
    rt::IntTuple t = int_tuple(n, f, "the tile", true);
    if (t.is_leaf() || t.rank() != 2)
      fail(f.col, "the tile must have rank 2, (rows,cols), but " + rt::to_string(t) + " has rank " +
                      std::to_string(t.rank()));
    try {
      (void)rt::product(t);
    } catch (const rt::Error& e) {
      fail(f.col, std::string("the tile's size: ") + e.what());
    }
    return t;
  }

  rt::Layout tv(const Field& f, const rt::IntTuple& tile) const {
    const rt::Node n = parse_node(f);
    rt::Layout l;
    if (n.kind == rt::Node::Kind::Layout) {
      rt::IntTuple shape = int_tuple(n.children[0], f, "the TV layout's shape", true);
      rt::IntTuple stride = int_tuple(n.children[1], f, "the TV layout's stride", false);
      try {
        l = rt::Layout(std::move(shape), std::move(stride));
      } catch (const rt::Error& e) {
        fail(f.col + n.children[1].pos, e.what());
      }
    } else {
      // Any expression that evaluates to a layout, e.g. a composition.
      rt::Value v;
      try {
        v = rt::evaluate(n);
      } catch (const rt::Error& e) {
        fail(f.col + (e.pos() == rt::npos ? 0 : std::min(e.pos(), f.text.size())), e.what());
      }
      if (v.kind() != rt::Value::Kind::Layout)
        fail(f.col, "the TV layout must be a layout ((threads),(values)):(strides), but this is " + rt::describe(v));
      l = std::move(v.layout());
    }
    Map m{"", tile, l};
    const std::string why = check_map(m);
    if (!why.empty()) fail(f.col, why);
    return l;
  }
};

}  // namespace

TraceError::TraceError(std::string file, std::size_t line, std::size_t col, std::string message,
                       std::string line_text)
    : rt::Error(format_diagnostic(file, line, col, message, line_text)),
      file_(std::move(file)),
      line_(line),
      col_(col),
      message_(std::move(message)) {}

std::int64_t num_threads(const Map& m) { return rt::product(m.tv.shape[0]); }
std::int64_t num_values(const Map& m) { return rt::product(m.tv.shape[1]); }

std::string check_map(const Map& m) {
  try {
    if (m.tile.is_leaf() || m.tile.rank() != 2)
      return "the tile must have rank 2, (rows,cols), but " + rt::to_string(m.tile) + " has rank " +
             std::to_string(m.tile.rank());
    for (std::int64_t e : rt::leaves(m.tile))
      if (e <= 0) return "the tile " + rt::to_string(m.tile) + " has an extent " + std::to_string(e) + ": extents must be positive";
    const std::int64_t cells = rt::product(m.tile);
    if (m.tv.shape.is_leaf() || m.tv.rank() != 2)
      return "the TV layout must have rank 2, ((threads),(values)), but " + rt::to_string(m.tv) + " has rank " +
             std::to_string(m.tv.rank());
    const std::int64_t n = m.tv.size();
    if (n > kMaxMapSize)
      return "the TV layout " + rt::to_string(m.tv) + " has " + std::to_string(n) +
             " (thread,value) pairs, more than tessera verifies (" + std::to_string(kMaxMapSize) + ")";
    const std::int64_t nt = num_threads(m);
    std::int64_t i = 0;
    std::string why;
    rt::for_each_offset(m.tv, [&](std::int64_t off) {
      if (why.empty() && (off < 0 || off >= cells))
        why = "the TV layout " + rt::to_string(m.tv) + " sends (thread " + std::to_string(i % nt) + ", value " +
              std::to_string(i / nt) + ") to index " + std::to_string(off) + ", outside the tile " +
              rt::to_string(m.tile) + " of " + std::to_string(cells) + " elements";
      ++i;
    });
    return why;
  } catch (const rt::Error& e) {
    return e.what();
  }
}

Map make_map(std::string name, rt::IntTuple tile, rt::Layout tv) {
  Map m{std::move(name), std::move(tile), std::move(tv)};
  if (m.name.empty() || bad_name_byte(m.name) != std::string_view::npos)
    throw std::invalid_argument("map name " + quote_text(m.name) + " must be non-empty, without whitespace");
  const std::string why = check_map(m);
  if (!why.empty()) throw std::invalid_argument("map " + quote_text(m.name) + ": " + why);
  return m;
}

Coord expected_coord(const Map& m, std::int64_t thread, std::int64_t value) {
  const std::int64_t nt = num_threads(m), nv = num_values(m);
  if (thread < 0 || thread >= nt || value < 0 || value >= nv)
    throw std::out_of_range("(thread " + std::to_string(thread) + ", value " + std::to_string(value) +
                            ") is outside the map " + m.name + " (" + std::to_string(nt) + " threads x " +
                            std::to_string(nv) + " values)");
  const std::int64_t idx = m.tv(thread + nt * value);
  const std::int64_t rows = rt::product(m.tile[0]);
  return Coord{idx % rows, idx / rows};
}

std::vector<Record> expected_records(const Map& m) {
  const std::int64_t nt = num_threads(m), rows = rt::product(m.tile[0]);
  std::vector<Record> out;
  out.reserve(static_cast<std::size_t>(m.tv.size()));
  std::int64_t i = 0;
  rt::for_each_offset(m.tv, [&](std::int64_t off) {
    out.push_back(Record{m.name, i % nt, i / nt, off % rows, off / rows});
    ++i;
  });
  return out;
}

Trace parse_trace(std::istream& in, const std::string& source_name) { return Parser(in, source_name).run(); }

Trace read_trace_file(const std::string& path) {
  if (path == "-") return parse_trace(std::cin, "<stdin>");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw TraceError(path, 0, 0, "cannot read the trace: it is a directory", "");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw TraceError(path, 0, 0, std::string("cannot open the trace: ") + std::strerror(errno), "");
  return parse_trace(f, path);
}

void write_trace(std::ostream& out, const Trace& t) {
  for (char c : t.kernel)
    if (c == '\n' || c == '\r') throw std::invalid_argument("the kernel text has a line break");
  if (!t.kernel.empty() && is_blank(t.kernel.front()))
    throw std::invalid_argument("the kernel text starts with whitespace, which a trace cannot keep");
  auto check_name = [](const std::string& n) {
    if (n.empty() || bad_name_byte(n) != std::string_view::npos)
      throw std::invalid_argument("map name " + quote_text(n) + " must be non-empty, without whitespace");
  };
  std::string buf = "tessera-trace 1\n";
  if (!t.kernel.empty()) buf += "kernel " + t.kernel + "\n";
  for (const Map& m : t.maps) {
    check_name(m.name);
    const std::string why = check_map(m);
    if (!why.empty()) throw std::invalid_argument("map " + quote_text(m.name) + ": " + why);
    buf += "map " + m.name + " " + rt::to_string(m.tile) + " " + rt::to_string(m.tv) + "\n";
  }
  out << buf;
  buf.clear();
  for (const Record& r : t.records) {
    check_name(r.map);
    buf += "rec ";
    buf += r.map;
    for (std::int64_t x : {r.thread, r.value, r.row, r.col}) {
      buf += ' ';
      buf += std::to_string(x);
    }
    buf += '\n';
    if (buf.size() > (1u << 16)) {
      out << buf;
      buf.clear();
    }
  }
  out << buf;
}

std::string to_string(const Trace& t) {
  std::ostringstream s;
  write_trace(s, t);
  return s.str();
}

}  // namespace tessera::verify
