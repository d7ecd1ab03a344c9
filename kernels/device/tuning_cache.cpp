// The tuning cache's file: format, parsing, locked replace-by-rename (tuning_cache.hpp).
#include "tuning_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <system_error>
#include <thread>

#ifndef TESSERA_VERSION
#error "TESSERA_VERSION must be defined (the project's version)"
#endif

namespace tessera::kernels {

namespace {

constexpr const char* kHeader = "# tessera tuning cache, format 3";
// (earlier formats' records lack fields of the key: each is ignored with its format's reason,
// tuning_cache.hpp)
struct OldFormat {
  const char* header;
  const char* record;
};
constexpr OldFormat kOldFormats[] = {
    {"# tessera tuning cache, format 1",
     "a format-1 record, whose key names neither B's element, the FP8 scale mode, whether C is read, how D is stored nor "
     "whether operand rows start on 32-byte sectors (it could be the winner of a problem that runs other kernels); ignored: "
     "gemm_tune records it again in format 3"},
    {"# tessera tuning cache, format 2",
     "a format-2 record, whose key does not say whether operand rows start on 32-byte sectors (it could be the winner of "
     "a problem whose kernels run at other speeds relative to each other); ignored: gemm_tune records it again in format 3"},
};
constexpr std::size_t kMaxLine = 4096;

std::uint32_t crc32(const std::string& s) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char ch : s) {
    c ^= ch;
    for (int i = 0; i < 8; ++i) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

const char* major_name(Major m) { return m == Major::Row ? "row" : "col"; }
const char* rows_name(bool off_sectors) { return off_sectors ? "off-sectors" : "sectors"; }

bool parse_int(const std::string& v, std::int64_t& out) {
  const char* end = v.data() + v.size();
  const auto r = std::from_chars(v.data(), end, out);
  return r.ec == std::errc{} && r.ptr == end && out > 0;
}

// A field that names one of `values` as to_string spells it.
template <class E>
bool parse_named(const std::string& v, E& out, std::initializer_list<E> values) {
  for (const E c : values)
    if (v == to_string(c)) return out = c, true;
  return false;
}

bool parse_element(const std::string& v, Element& e) {
  return parse_named(v, e, {Element::F32, Element::F16, Element::BF16, Element::E4M3, Element::E5M2});
}

bool parse_major(const std::string& v, Major& m) {
  if (v == "row") return m = Major::Row, true;
  if (v == "col") return m = Major::Col, true;
  return false;
}

// "AxB" or "AxBxC" of positive ints below 2^16.
bool parse_dims(const std::string& v, int* out, int count) {
  std::size_t pos = 0;
  for (int i = 0; i < count; ++i) {
    const std::size_t x = i + 1 < count ? v.find('x', pos) : v.size();
    if (x == std::string::npos) return false;
    std::int64_t d = 0;
    if (!parse_int(v.substr(pos, x - pos), d) || d >= 65536) return false;
    out[i] = int(d);
    pos = x + 1;
  }
  return true;
}


bool printable_field(const std::string& s) {
  if (s.empty() || s.size() > 256) return false;
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7F) return false;  // no tabs, newlines or other control characters
  return true;
}

// The record's line without its crc field.
std::string body(const TuningRecord& r) {
  const TuningProblem& p = r.key.problem;
  const auto& s = p.shape;
  std::ostringstream o;
  o.imbue(std::locale::classic());
  o.precision(17);
  o << "version=" << r.key.version << "\tdevice=" << r.key.device << "\tm=" << s.m << "\tn=" << s.n << "\tk=" << s.k
    << "\tbatch=" << s.batch << "\telement=" << to_string(s.element) << "\telement_b=" << to_string(p.element_b)
    << "\toutput=" << to_string(s.output) << "\ta=" << major_name(s.a) << "\tb=" << major_name(s.b)
    << "\trows=" << rows_name(s.rows_off_sectors) << "\tscales=" << to_string(p.scales) << "\tc=" << to_string(p.c) << "\tstore=" << to_string(p.store)
    << "\tepilogue=" << p.epilogue << "\ttile=" << r.tile_m << "x" << r.tile_n << "x" << r.tile_k << "\tcluster=" << r.cluster.m
    << "x" << r.cluster.n << "\tscheduler=" << to_string(r.scheduler);
  if (r.d == Major::Row) o << "\td=row";  // (absent for a column-major D)
  o << "\tus=" << r.microseconds;
  return o.str();
}

std::string line_of(const TuningRecord& r) {
  const std::string b = body(r);
  char crc[16];
  std::snprintf(crc, sizeof crc, "%08x", unsigned(crc32(b)));
  return b + "\tcrc=" + crc;
}

// Parses one record line; on failure returns false with `why` set.
bool parse_line(const std::string& line, TuningRecord& r, std::string& why) {
  static const char* keys[] = {"version", "device", "m",     "n",     "k",        "batch", "element",
                               "element_b", "output", "a",   "b",     "rows",     "scales",   "c",     "store",
                               "epilogue", "tile",   "cluster", "scheduler", "us",   "crc"};
  constexpr int kFields = int(sizeof keys / sizeof keys[0]);
  constexpr int kUs = kFields - 2;  // (the optional d field comes just before us)
  const std::string count = std::to_string(kFields);
  std::string values[kFields];
  std::size_t pos = 0;
  r.d = Major::Col;
  for (int i = 0; i < kFields; ++i) {
    std::size_t tab = line.find('\t', pos);
    std::string field = line.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos);
    if (i == kUs && field.compare(0, 2, "d=") == 0) {  // the optional D major, between scheduler and us
      if (field != "d=row") return why = "bad d '" + field.substr(2) + "'", false;
      r.d = Major::Row;
      if (tab == std::string::npos) return why = "only " + std::to_string(kUs) + " of " + count + " fields (the record was cut short)", false;
      pos = tab + 1;
      tab = line.find('\t', pos);
      field = line.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos);
    }
    const std::string want = std::string(keys[i]) + "=";
    if (field.compare(0, want.size(), want) != 0) return why = "field " + std::to_string(i + 1) + " is not " + keys[i] + "=...", false;
    values[i] = field.substr(want.size());
    if (tab == std::string::npos) {
      if (i + 1 != kFields) return why = "only " + std::to_string(i + 1) + " of " + count + " fields (the record was cut short)", false;
    } else if (i + 1 == kFields) {
      return why = "more than " + count + " fields", false;
    }
    pos = tab + 1;
  }
  const std::size_t crc_at = line.rfind("\tcrc=");
  char want_crc[16];
  std::snprintf(want_crc, sizeof want_crc, "%08x", unsigned(crc32(line.substr(0, crc_at))));
  if (values[kFields - 1] != want_crc) return why = "CRC mismatch (the record was cut or edited)", false;
  const auto at = [&](const char* key) -> const std::string& {
    for (int i = 0; i < kFields; ++i)
      if (std::strcmp(keys[i], key) == 0) return values[i];
    return values[kFields - 1];  // (not reached: every key asked for is in `keys`)
  };
  TuningProblem& p = r.key.problem;
  auto& s = p.shape;
  std::int64_t* ints[] = {&s.m, &s.n, &s.k, &s.batch};
  const char* int_keys[] = {"m", "n", "k", "batch"};
  for (int i = 0; i < 4; ++i)
    if (!parse_int(at(int_keys[i]), *ints[i])) return why = std::string("bad ") + int_keys[i] + " '" + at(int_keys[i]) + "'", false;
  r.key.version = at("version");
  r.key.device = at("device");
  if (!parse_element(at("element"), s.element) || !parse_element(at("element_b"), p.element_b) || !parse_element(at("output"), s.output))
    return why = "bad element type", false;
  if (!parse_major(at("a"), s.a) || !parse_major(at("b"), s.b)) return why = "bad major", false;
  if (at("rows") != rows_name(false) && at("rows") != rows_name(true)) return why = "bad rows '" + at("rows") + "'", false;
  s.rows_off_sectors = at("rows") == rows_name(true);
  if (!parse_named(at("scales"), p.scales, {ScaleMode::PerTensor, ScaleMode::Rowwise, ScaleMode::Block}))
    return why = "bad scales '" + at("scales") + "'", false;
  if (!parse_named(at("c"), p.c, {SourceC::None, SourceC::Read})) return why = "bad c '" + at("c") + "'", false;
  if (!parse_named(at("store"), p.store, {StoreD::Tma, StoreD::Direct})) return why = "bad store '" + at("store") + "'", false;
  p.epilogue = at("epilogue");
  int tile[3], cluster[2];
  if (!parse_dims(at("tile"), tile, 3)) return why = "bad tile '" + at("tile") + "'", false;
  if (!parse_dims(at("cluster"), cluster, 2)) return why = "bad cluster '" + at("cluster") + "'", false;
  r.tile_m = tile[0], r.tile_n = tile[1], r.tile_k = tile[2];
  r.cluster = {cluster[0], cluster[1]};
  if (!parse_named(at("scheduler"), r.scheduler, {Decomposition::DataParallel, Decomposition::SplitK, Decomposition::StreamK})) return why = "bad scheduler '" + at("scheduler") + "'", false;
  const std::string& us_text = at("us");
  const char* us_end = us_text.data() + us_text.size();
  const auto us = std::from_chars(us_text.data(), us_end, r.microseconds);
  if (us.ec != std::errc{} || us.ptr != us_end || !(r.microseconds > 0)) return why = "bad time '" + us_text + "'", false;
  if (!printable_field(r.key.version) || !printable_field(r.key.device) || !printable_field(p.epilogue))
    return why = "empty or unprintable version, device or epilogue", false;
  return true;
}

bool same_key(const TuningKey& a, const TuningKey& b) {
  return a.version == b.version && a.device == b.device && a.problem == b.problem;
}

// An exclusive flock on a file, released on destruction.
class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& p) {
    fd_ = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        ::close(fd_);
        fd_ = -1;
        return;
      }
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace

const char* tuning_cache_tessera_version() { return TESSERA_VERSION; }

const char* to_string(SourceC c) { return c == SourceC::Read ? "read" : "none"; }
const char* to_string(StoreD s) { return s == StoreD::Direct ? "direct" : "tma"; }

std::string epilogue_key(const EpilogueArguments& e) {
  std::string s;
  if (e.activation != Activation::Identity) s = to_string(e.activation);
  if (e.bias != Bias::None) s += (s.empty() ? "bias_" : "+bias_") + std::string(e.bias == Bias::PerRow ? "row" : "column");
  return s.empty() ? "identity" : s;
}

std::filesystem::path default_tuning_cache_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return std::filesystem::path(xdg) / "tessera" / "tuning.txt";
  const char* home = std::getenv("HOME");
  if (home && home[0] != '\0') return std::filesystem::path(home) / ".cache" / "tessera" / "tuning.txt";
  return {};
}

TuningCacheContents read_tuning_cache(const std::filesystem::path& file) {
  TuningCacheContents out;
  std::error_code ec;
  const auto st = std::filesystem::status(file, ec);
  if (ec || st.type() == std::filesystem::file_type::not_found) return out;
  const std::string where = file.string();
  if (st.type() != std::filesystem::file_type::regular) {
    out.problems.push_back(where + ": not a regular file; ignored");
    return out;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    out.problems.push_back(where + ": cannot be read (" + std::strerror(errno) + "); ignored");
    return out;
  }
  out.exists = true;
  std::string line;
  const bool got = bool(std::getline(in, line));
  const OldFormat* old = nullptr;
  for (const OldFormat& f : kOldFormats)
    if (got && line == f.header) old = &f;
  if (!got || (line != kHeader && !old)) {
    out.problems.push_back(where + ":1: not a tessera tuning cache of format 3 (first line must be '" + kHeader +
                           "'); the file is ignored");
    return out;
  }
  for (std::int64_t n = 2; std::getline(in, line); ++n) {
    const std::string at = where + ":" + std::to_string(n) + ": ";
    if (in.eof()) {  // the last line has no newline: a write was cut short
      out.problems.push_back(at + "no end of line (a record cut short); ignored");
      break;
    }
    if (line.empty() || line[0] == '#') continue;
    if (old) {
      out.problems.push_back(at + old->record);
      continue;
    }
    if (line.size() > kMaxLine) {
      out.problems.push_back(at + "line longer than " + std::to_string(kMaxLine) + " characters; ignored");
      continue;
    }
    TuningRecord r;
    std::string why;
    if (parse_line(line, r, why))
      out.records.push_back(std::move(r));
    else
      out.problems.push_back(at + why + "; ignored");
  }
  return out;
}

TuningLookup find_tuning_record(const TuningCacheContents& cache, const TuningKey& key) {
  TuningLookup out;
  for (const TuningRecord& r : cache.records) {
    if (same_key(r.key, key)) {
      out.hit = r;
    } else {
      out.stale += r.key.problem == key.problem ? 1 : 0;
    }
  }
  return out;
}

std::string write_tuning_record(const std::filesystem::path& file, const TuningRecord& record) {
  if (!printable_field(record.key.version) || !printable_field(record.key.device) || !printable_field(record.key.problem.epilogue))
    return "the record's version, device and epilogue must be non-empty printable text without tabs or newlines";
  const auto& s = record.key.problem.shape;
  if (s.m <= 0 || s.n <= 0 || s.k <= 0 || s.batch <= 0 || record.tile_m <= 0 || record.tile_n <= 0 || record.tile_k <= 0 ||
      record.cluster.m <= 0 || record.cluster.n <= 0 || !(record.microseconds > 0))
    return "the record's sizes, tile, cluster and time must be positive";
  if (file.empty()) return "no tuning cache file (neither XDG_CACHE_HOME nor HOME is set)";
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return "cannot create " + file.parent_path().string() + ": " + ec.message();
  FileLock lock(file.string() + ".lock");
  if (!lock.held()) return "cannot lock " + file.string() + ".lock: " + std::strerror(errno);
  // Under the lock: the file as it is now (its unreadable lines dropped), with our record.
  TuningCacheContents now = read_tuning_cache(file);
  bool replaced = false;
  for (TuningRecord& r : now.records)
    if (same_key(r.key, record.key)) r = record, replaced = true;
  if (!replaced) now.records.push_back(record);
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path tmp = file.string() + ".tmp." + std::to_string(::getpid()) + "." +
                                    std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 1000000) + "." +
                                    std::to_string(counter++);
  std::string text = std::string(kHeader) + "\n";
  for (const TuningRecord& r : now.records) text += line_of(r) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create " + tmp.string() + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      std::filesystem::remove(tmp, ec);
      return "cannot write " + tmp.string() + ": " + why;
    }
    done += std::size_t(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::filesystem::remove(tmp, ec);
    return "cannot flush " + tmp.string() + ": " + std::strerror(errno);
  }
  if (std::rename(tmp.c_str(), file.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::filesystem::remove(tmp, ec);
    return "cannot replace " + file.string() + ": " + why;
  }
  return {};
}

std::optional<sm90::Sm90Choice> choice_from_record(const TuningRecord& r, int sms) {
  // (a row-major D's kernel runs the key's problem transposed: M and N swap, and each operand's
  // contiguous mode is the other mode of the transpose, so A' = B^T and B' = A^T keep TN)
  const auto flip = [](Major m) { return m == Major::Row ? Major::Col : Major::Row; };
  sm90::GemmShape shape = r.key.problem.shape;
  if (r.d == Major::Row) shape = {shape.n, shape.m, shape.k, shape.batch, shape.element, shape.output, flip(shape.b), flip(shape.a)};
  for (const sm90::Candidate& c : sm90::kSm90Candidates) {
    if (c.tile_m != r.tile_m || c.tile_n != r.tile_n || c.tile_k != r.tile_k || c.cluster.m != r.cluster.m ||
        c.cluster.n != r.cluster.n || !sm90::candidate_takes(c, shape) || persistent_clusters(sms, c.cluster) < 1)
      continue;
    const bool shared = r.scheduler != Decomposition::DataParallel;
    const StreamKScheduler sched = sm90::scheduler_for(c, shape, sms, shared);
    // The plan for these SMs must share k-iterations as the record's did (a Stream-K kernel's
    // plan may be its split-K special case: every tile split, which the record names stream-k).
    const bool same = r.scheduler == Decomposition::StreamK ? sched.plan.kind != Decomposition::DataParallel : sched.plan.kind == r.scheduler;
    if (!same) return std::nullopt;
    return sm90::predict(c, shape, sms, sched);
  }
  return std::nullopt;
}

}  // namespace tessera::kernels
