// The JSON writer and the JSON forms of tessera's values (tessera/rt/json.hpp).
#include "tessera/rt/json.hpp"

#include <charconv>
#include <cmath>

namespace tessera::rt::json {

namespace {

[[noreturn]] void wrong_kind(const char* wanted) { throw std::logic_error(std::string("json: not ") + wanted); }

// The length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;        // overlong
    else if (b0 == 0xED) hi = 0x9F;   // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;        // overlong
    else if (b0 == 0xF4) hi = 0x8F;   // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

void append(const Value& v, std::string& out) {
  switch (v.kind()) {
    case Value::Kind::Null: out += "null"; return;
    case Value::Kind::Bool: out += v.as_bool() ? "true" : "false"; return;
    case Value::Kind::Int: out += std::to_string(v.as_int()); return;
    case Value::Kind::Double: {
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, v.as_double());  // shortest round trip
      std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
      out += text;
      // A double reads back as a double: 1 is written 1.0.
      if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
      return;
    }
    case Value::Kind::String: append_quoted(v.as_string(), out); return;
    case Value::Kind::Array: {
      out += '[';
      bool first = true;
      for (const Value& x : v.items()) {
        if (!first) out += ',';
        first = false;
        append(x, out);
      }
      out += ']';
      return;
    }
    case Value::Kind::Object: {
      out += '{';
      bool first = true;
      for (const auto& [key, x] : v.members()) {
        if (!first) out += ',';
        first = false;
        append_quoted(key, out);
        out += ':';
        append(x, out);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

Value::Value(double d) : kind_(Kind::Double), double_(d) {
  if (!std::isfinite(d)) throw std::domain_error("json: a number must be finite");
}

Value Value::object(std::initializer_list<Member> members) {
  Value v = object();
  for (const auto& [key, x] : members) v.set(key, x);
  return v;
}

Value& Value::push(Value v) {
  if (kind_ == Kind::Null) kind_ = Kind::Array;
  if (kind_ != Kind::Array) wrong_kind("an array");
  items_.push_back(std::move(v));
  return items_.back();
}

Value& Value::set(std::string_view key, Value v) {
  if (kind_ == Kind::Null) kind_ = Kind::Object;
  if (kind_ != Kind::Object) wrong_kind("an object");
  for (auto& [k, x] : members_)
    if (k == key) return x = std::move(v);
  members_.emplace_back(std::string(key), std::move(v));
  return members_.back().second;
}

bool Value::as_bool() const {
  if (kind_ != Kind::Bool) wrong_kind("a boolean");
  return int_ != 0;
}
std::int64_t Value::as_int() const {
  if (kind_ != Kind::Int) wrong_kind("an integer");
  return int_;
}
double Value::as_double() const {
  if (kind_ != Kind::Double) wrong_kind("a double");
  return double_;
}
const std::string& Value::as_string() const {
  if (kind_ != Kind::String) wrong_kind("a string");
  return string_;
}
const std::vector<Value>& Value::items() const {
  if (kind_ != Kind::Array) wrong_kind("an array");
  return items_;
}
const std::vector<Value::Member>& Value::members() const {
  if (kind_ != Kind::Object) wrong_kind("an object");
  return members_;
}
const Value* Value::find(std::string_view key) const {
  for (const auto& [k, x] : members())
    if (k == key) return &x;
  return nullptr;
}
std::size_t Value::size() const { return kind_ == Kind::Array ? items().size() : members().size(); }

void append_quoted(std::string_view s, std::string& out) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER for a byte that is not UTF-8
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

std::string dump(const Value& v) {
  std::string out;
  append(v, out);
  return out;
}

Value document(std::string_view command) {
  Value d = Value::object();
  d.set("command", command);
  d.set("schema_version", kSchemaVersion);
  return d;
}

Value int_tuple(const rt::IntTuple& t) {
  if (t.is_leaf()) return t.value();
  Value a = Value::array();
  for (const rt::IntTuple& e : t.elems()) a.push(int_tuple(e));
  return a;
}

Value layout(const rt::Layout& l) {
  return Value::object({{"text", rt::to_string(l)}, {"shape", int_tuple(l.shape)}, {"stride", int_tuple(l.stride)}});
}

Value swizzle(const rt::Swizzle& s) { return Value::object({{"B", s.bits}, {"M", s.base}, {"S", s.shift}}); }

Value swizzled_layout(const rt::SwizzledLayout& s) {
  Value v = layout(s.layout);
  v.set("text", rt::to_string(s));
  v.set("swizzle", swizzle(s.swizzle));
  v.set("offset", s.offset);
  return v;
}

namespace {

// A tiler: a layout (its JSON form), or {"text", "modes": [tiler...]}.
Value tiler(const rt::Tiler& t) {
  if (t.is_layout) return layout(t.layout);
  Value modes = Value::array();
  for (const rt::Tiler& e : t.elems) modes.push(tiler(e));
  return Value::object({{"text", rt::to_string(t)}, {"modes", std::move(modes)}});
}

// {"kind": kind} followed by the members of `form`.
Value tagged(std::string_view kind, const Value& form) {
  Value v = Value::object({{"kind", kind}});
  for (const auto& [key, x] : form.members()) v.set(key, x);
  return v;
}

}  // namespace

Value value(const rt::Value& v) {
  using K = rt::Value::Kind;
  switch (v.kind()) {
    case K::IntTuple:
      return Value::object({{"kind", v.tuple().is_leaf() ? "integer" : "int_tuple"},
                            {"text", rt::to_string(v.tuple())},
                            {"value", int_tuple(v.tuple())}});
    case K::Layout: return tagged("layout", layout(v.layout()));
    case K::Swizzled: return tagged("swizzled_layout", swizzled_layout(v.swizzled()));
    case K::Swizzle:
      return tagged("swizzle", Value::object({{"text", rt::to_string(v.swizzle())}, {"B", v.swizzle().bits},
                                              {"M", v.swizzle().base}, {"S", v.swizzle().shift}}));
    case K::LayoutAfterSwizzle: {
      Value f = layout(v.after_swizzle().layout);
      f.set("text", rt::to_string(v.after_swizzle()));
      f.set("offset", v.after_swizzle().offset);
      f.set("swizzle", swizzle(v.after_swizzle().swizzle));
      return tagged("layout_after_swizzle", f);
    }
    case K::Tiler: return tagged("tiler", tiler(v.tiler()));
  }
  throw std::logic_error("json: unknown value kind");
}

Value tiled_mma(const rt::TiledMma& t) {
  const rt::MmaAtomInfo& atom = *t.atom;
  Value d = document("mma");
  d.set("atom", Value::object({{"name", atom.name},
                               {"arch", atom.arch},
                               {"vendor", atom.vendor},
                               {"types", atom.types},
                               {"m", atom.m},
                               {"n", atom.n},
                               {"k", atom.k},
                               {"threads", atom.thr_id.size()},
                               {"wave_size", atom.wave_size}}));
  d.set("atom_layout", layout(t.atom_layout));
  Value perm = Value::array();
  for (const auto& p : t.perm) perm.push(p ? layout(*p) : Value());
  d.set("permutation", std::move(perm));
  d.set("ThrID", layout(atom.thr_id));
  d.set("ALayout", layout(atom.a_tv));
  d.set("BLayout", layout(atom.b_tv));
  d.set("CLayout", layout(atom.c_tv));
  if (atom.cta_group) d.set("TmemLayoutC", layout(atom.tmem_c));  // tcgen05.mma: C in tensor memory
  if (atom.sf_vec) {  // block-scaled atoms (SM120, SM100): the scale factors' TV layouts
    d.set("SFALayout", layout(atom.sfa_tv));
    d.set("SFBLayout", layout(atom.sfb_tv));
    d.set("SFVecSize", atom.sf_vec);
    if (atom.cta_group) {  // tcgen05.mma: CUTLASS's scale-factor block, the scale factors in tensor memory
      d.set("SfAtom", layout(atom.sf_atom));
      if (atom.tmem_sfa.size() > 1) d.set("TmemLayoutSFA", layout(atom.tmem_sfa));
      if (atom.tmem_sfb.size() > 1) d.set("TmemLayoutSFB", layout(atom.tmem_sfb));
    }
  }
  d.set("thr_layout_vmnk", layout(t.thr_layout_vmnk));
  d.set("layoutA_TV", layout(t.layout_a_tv));
  d.set("layoutB_TV", layout(t.layout_b_tv));
  d.set("layoutC_TV", layout(t.layout_c_tv));
  d.set("tile", Value::array({t.tile[0], t.tile[1], t.tile[2]}));
  return d;
}

Value tiled_copy(const rt::TiledCopy& c) {
  const rt::CopyAtomInfo& atom = *c.atom.atom;
  Value d = document("copy");
  d.set("atom", Value::object({{"name", atom.name},
                               {"arch", atom.arch},
                               {"smem", atom.smem_side},
                               {"threads", atom.thr_id.size()}}));
  d.set("bits", c.atom.bits);
  d.set("threads", c.num_threads());
  d.set("src", layout(c.layout_s_tv));
  d.set("dst", layout(c.layout_d_tv));
  d.set("tile", int_tuple(c.tiler));
  return d;
}

}  // namespace tessera::rt::json
