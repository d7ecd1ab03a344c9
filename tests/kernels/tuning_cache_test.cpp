// The tuning cache (kernels/device/tuning_cache.hpp) on the host: records round-trip and replace
// their key's; stale records (another device or version) are not found; corrupt files and lines
// are ignored with a message naming the line; concurrent writers (processes and threads) lose
// no record, and a reader running beside them never sees a partial one.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "device/tuned_configs.hpp"
#include "device/tuning_cache.hpp"

using namespace tessera::kernels;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the system's temporary directory, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "tessera_tuning_XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TuningRecord record(std::int64_t m, std::int64_t n, std::int64_t k, const std::string& device = "NVIDIA H200",
                    const std::string& version = tuning_cache_tessera_version()) {
  TuningRecord r;
  r.key = {version, device, {m, n, k, 1, Element::BF16, Element::BF16, Major::Row, Major::Col}, "identity"};
  r.tile_m = 128, r.tile_n = 256, r.tile_k = 64;
  r.cluster = {2, 1};
  r.scheduler = Decomposition::StreamK;
  r.microseconds = 41.5 + double(m % 7);
  return r;
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream o(p, std::ios::binary | std::ios::trunc);
  o << text;
}
std::string read_text(const fs::path& p) {
  std::ifstream i(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(i), {});
}

bool contains(const std::vector<std::string>& problems, const std::string& what) {
  for (const auto& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("tuning cache: records round-trip, replace their key's, and are found by key", "[kernels]") {
  TempDir dir;
  const fs::path file = dir.path / "sub" / "tuning.txt";  // the folder is created
  CHECK(read_tuning_cache(file).exists == false);
  CHECK(read_tuning_cache(file).problems.empty());
  TuningRecord a = record(512, 4096, 14336), b = record(3072, 3072, 3072);
  b.key.epilogue = "relu+bias_row";
  b.key.shape.output = Element::F32;
  b.key.shape.a = Major::Col;
  b.scheduler = Decomposition::DataParallel;
  b.microseconds = 0.1;  // exact round trip of the time's decimal text
  REQUIRE(write_tuning_record(file, a) == "");
  REQUIRE(write_tuning_record(file, b) == "");
  const auto c = read_tuning_cache(file);
  REQUIRE(c.problems.empty());
  REQUIRE(c.records.size() == 2);
  const auto hit = find_tuning_record(c, b.key);
  REQUIRE(hit.hit);
  CHECK((hit.hit->key.shape.output == Element::F32 && hit.hit->key.shape.a == Major::Col && hit.hit->key.epilogue == "relu+bias_row"));
  CHECK((hit.hit->scheduler == Decomposition::DataParallel && hit.hit->microseconds == 0.1));
  CHECK(find_tuning_record(c, a.key).hit->scheduler == Decomposition::StreamK);
  // A new winner replaces its key's record.
  a.tile_n = 128;
  a.microseconds = 39;
  REQUIRE(write_tuning_record(file, a) == "");
  const auto d = read_tuning_cache(file);
  REQUIRE(d.records.size() == 2);
  CHECK((find_tuning_record(d, a.key).hit->tile_n == 128 && find_tuning_record(d, a.key).hit->microseconds == 39));
  // The documented format: the header, then tab-separated key=value fields ending in the CRC.
  const std::string text = read_text(file);
  CHECK(text.rfind("# tessera tuning cache, format 1\nversion=", 0) == 0);
  CHECK(text.find("\tdevice=NVIDIA H200\tm=512\tn=4096\tk=14336\tbatch=1\telement=bf16\toutput=bf16\ta=row\tb=col\t"
                  "epilogue=identity\ttile=128x128x64\tcluster=2x1\tscheduler=stream-k\tus=39\tcrc=") != std::string::npos);
  // No temporaries left beside it.
  int files = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path())) files += e.path().filename().string().find(".tmp.") == std::string::npos ? 1 : 100;
  CHECK(files == 2);  // tuning.txt and tuning.txt.lock
  // What cannot be written is refused with a reason, the file unchanged.
  TuningRecord bad = a;
  bad.key.device = "with\ttab";
  CHECK(write_tuning_record(file, bad).find("printable") != std::string::npos);
  bad = a;
  bad.key.shape.k = 0;
  CHECK(write_tuning_record(file, bad).find("positive") != std::string::npos);
  CHECK(read_text(file) == text);
}

TEST_CASE("tuning cache: stale records are not found", "[kernels]") {
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  REQUIRE(write_tuning_record(file, record(1000, 1000, 1000, "NVIDIA H100 80GB HBM3")) == "");
  REQUIRE(write_tuning_record(file, record(1000, 1000, 1000, "NVIDIA H200", "0.0.1")) == "");
  const auto c = read_tuning_cache(file);
  REQUIRE(c.records.size() == 2);  // kept: other devices share the file
  const auto look = find_tuning_record(c, record(1000, 1000, 1000).key);
  CHECK(!look.hit);
  CHECK(look.stale == 2);
  CHECK(find_tuning_record(c, record(1000, 1000, 999).key).stale == 0);
  // A record naming no candidate (or a plan these SMs would not make) gives no choice.
  TuningRecord r = record(3072, 3072, 3072);
  CHECK(choice_from_record(r, 132).has_value());
  CHECK(choice_from_record(r, 132)->scheduler == Decomposition::StreamK);
  r.tile_n = 192;
  CHECK(!choice_from_record(r, 132));
  r = record(4096, 4096, 4096);  // data-parallel on 132 SMs: "stream-k" is not what the plan makes
  CHECK(!choice_from_record(r, 132));
}

TEST_CASE("tuning cache: corrupt files and lines are ignored with a message", "[kernels]") {
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  REQUIRE(write_tuning_record(file, record(1, 2, 3)) == "");
  REQUIRE(write_tuning_record(file, record(4, 5, 6)) == "");
  const std::string good = read_text(file);
  const std::size_t first = good.find("\nversion=") + 1, second = good.find("\nversion=", first) + 1;
  const std::string line2 = good.substr(first, second - first - 1);  // the first record, without its end of line
  // A record cut short (no end of line), an edited one (CRC), junk, a long line, binary bytes.
  std::string edited = line2;
  edited.replace(edited.find("m=1\t"), 4, "m=7\t");
  std::string cut = good.substr(second, 40);
  write_text(file, good.substr(0, second) + edited + "\njunk without fields\n" + std::string(5000, 'x') + "\n" +
                       std::string("\x00\xff\x01", 3) + "\n# a comment\n\n" + cut);
  const auto c = read_tuning_cache(file);
  CHECK(c.records.size() == 1);  // the first record survives
  CHECK(c.problems.size() == 5);
  CHECK(contains(c.problems, file.string() + ":3: CRC mismatch"));
  CHECK(contains(c.problems, ":4: field 1 is not version="));
  CHECK(contains(c.problems, ":5: line longer than 4096"));
  CHECK(contains(c.problems, ":6: field 1"));
  CHECK(contains(c.problems, ":9: no end of line"));
  // A writer keeps the good records and drops the bad lines.
  REQUIRE(write_tuning_record(file, record(7, 8, 9)) == "");
  const auto healed = read_tuning_cache(file);
  CHECK((healed.records.size() == 2 && healed.problems.empty()));
  // Field checks past the CRC: a well-formed line with impossible values.
  auto with_crc = [](std::string body) {
    std::uint32_t c = 0xFFFFFFFFu;  // CRC-32 (IEEE), as documented
    for (unsigned char ch : body) {
      c ^= ch;
      for (int i = 0; i < 8; ++i) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08x", unsigned(~c));
    return body + "\tcrc=" + hex + "\n";
  };
  const std::string fields = "version=0.1.0\tdevice=D\tm=1\tn=2\tk=3\tbatch=1\telement=bf16\toutput=bf16\ta=row\tb=col\t"
                             "epilogue=identity\ttile=128x256x64\tcluster=2x1\tscheduler=stream-k\tus=";
  write_text(file, "# tessera tuning cache, format 1\n" + with_crc(fields + "1.5") + with_crc(fields + "-1") +
                       with_crc(std::string(fields).replace(fields.find("m=1"), 3, "m=-4") + "1") +
                       with_crc(std::string(fields).replace(fields.find("bf16"), 4, "fp8") + "1") +
                       with_crc(std::string(fields).replace(fields.find("2x1"), 3, "2") + "1") +
                       with_crc(std::string(fields).replace(fields.find("stream-k"), 8, "magic") + "1") +
                       with_crc(std::string(fields).replace(fields.find("\tus="), 4, "\tms=") + "1"));
  const auto f = read_tuning_cache(file);
  CHECK(f.records.size() == 1);
  CHECK(contains(f.problems, ":3: bad time '-1'"));
  CHECK(contains(f.problems, ":4: bad m '-4'"));
  CHECK(contains(f.problems, ":5: bad element type"));
  CHECK(contains(f.problems, ":6: bad cluster '2'"));
  CHECK(contains(f.problems, ":7: bad scheduler 'magic'"));
  CHECK(contains(f.problems, ":8: field 15 is not us="));
  // Another format, an empty file, a folder in the file's place: the whole file is ignored.
  write_text(file, "# tessera tuning cache, format 2\n" + with_crc(fields + "1.5"));
  CHECK((read_tuning_cache(file).records.empty() && contains(read_tuning_cache(file).problems, ":1: not a tessera tuning cache")));
  write_text(file, "");
  CHECK((read_tuning_cache(file).records.empty() && read_tuning_cache(file).problems.size() == 1));
  const fs::path folder = dir.path / "folder";
  fs::create_directory(folder);
  CHECK(contains(read_tuning_cache(folder).problems, "not a regular file"));
  CHECK(write_tuning_record(folder, record(1, 2, 3)) != "");  // refused, no crash
}

TEST_CASE("tuning cache: the file's place", "[kernels]") {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
  ::setenv("XDG_CACHE_HOME", "/x/cache", 1);
  ::setenv("HOME", "/home/u", 1);
  CHECK(default_tuning_cache_path() == fs::path("/x/cache/tessera/tuning.txt"));
  ::setenv("XDG_CACHE_HOME", "relative", 1);  // not absolute: ignored, as the XDG spec says
  CHECK(default_tuning_cache_path() == fs::path("/home/u/.cache/tessera/tuning.txt"));
  ::unsetenv("XDG_CACHE_HOME");
  ::unsetenv("HOME");
  CHECK(default_tuning_cache_path().empty());
  CHECK(write_tuning_record(default_tuning_cache_path(), record(1, 2, 3)).find("neither XDG_CACHE_HOME nor HOME") != std::string::npos);
  if (xdg) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  if (home) ::setenv("HOME", saved_home.c_str(), 1);
  EpilogueArguments e;
  CHECK(epilogue_key(e) == "identity");
  e.activation = Activation::ReLU;
  e.bias = Bias::PerColumn;
  CHECK(epilogue_key(e) == std::string(to_string(Activation::ReLU)) + "+bias_column");
}

TEST_CASE("tuning cache: concurrent writers lose nothing, readers never see a partial record", "[kernels]") {
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  constexpr int kProcesses = 4, kThreads = 4, kEach = 12;
  std::atomic<bool> done{false};
  std::atomic<int> reads{0}, bad_reads{0};
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int failures = 0;
      for (int i = 0; i < kEach; ++i) {
        failures += write_tuning_record(file, record(1 + p, 1000 + i, 7)) != "";
        failures += write_tuning_record(file, record(99, 99, 99 + i % 3)) != "";  // keys every writer shares
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  // (threads only after the forks: a child of a threaded process may inherit held locks)
  // A reader beside the writers: every read is a whole file of whole records.
  std::thread reader([&] {
    while (!done) {
      const auto c = read_tuning_cache(file);
      if (!c.problems.empty()) ++bad_reads;
      ++reads;
    }
  });
  std::vector<std::thread> writers;
  std::atomic<int> thread_failures{0};
  for (int t = 0; t < kThreads; ++t)
    writers.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        thread_failures += write_tuning_record(file, record(100 + t, 2000 + i, 9)) != "";
        thread_failures += write_tuning_record(file, record(99, 99, 99 + i % 3)) != "";
      }
    });
  for (auto& w : writers) w.join();
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  done = true;
  reader.join();
  CHECK(thread_failures == 0);
  CHECK(bad_reads == 0);
  CHECK(reads > 0);
  const auto c = read_tuning_cache(file);
  CHECK(c.problems.empty());
  CHECK(c.records.size() == std::size_t(kProcesses * kEach + kThreads * kEach + 3));  // every key once
  for (int p = 0; p < kProcesses; ++p)
    for (int i = 0; i < kEach; ++i) CHECK(find_tuning_record(c, record(1 + p, 1000 + i, 7).key).hit);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kEach; ++i) CHECK(find_tuning_record(c, record(100 + t, 2000 + i, 9).key).hit);
}

// The dispatch's view of the file (tuned_configs.hpp): what gemm_tune writes for a configuration
// is read back as that configuration, for every configuration and element type the kernel list
// has; only this device's and version's records count; a record naming no configuration is
// left out and counted; a later set replaces a key's configuration.
TEST_CASE("tuned configurations: records gemm_tune writes read back as their configuration", "[kernels]") {
  using sm90::Schedule;
  using sm90::Sm90Config;
  const int sms = 132;
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  std::vector<std::pair<TuningKey, Sm90Config>> written;
  std::int64_t m = 64;
  for (const Element e : {Element::BF16, Element::F16, Element::E4M3})
    for (const Schedule s : sm90::kSchedules)
      for (const bool stream_k : {false, true}) {
        // (no such kernels: the list builds the configuration for these types, TN, D column-major)
        GemmArguments g;
        g.m = 4096, g.n = 2304, g.k = 4096, g.element = e;
        g.a.major = Major::Row, g.b.major = Major::Col, g.c.major = Major::Col;
        if (!sm90::config_built({s, stream_k}, g)) continue;
        // a shape whose Stream-K plan on 132 SMs shares k-iterations: one wave and a bit of 128x256 tiles
        m += 64;
        const sm90::GemmShape shape{m * 8, 2304, 4096, 1, e, is_fp8(e) ? Element::BF16 : e, Major::Row, Major::Col};
        const TuningKey key{tuning_cache_tessera_version(), "NVIDIA H200", shape, "identity"};
        const Sm90Config c{s, stream_k};
        const TuningRecord r = record_of(key, c, 10.0 + double(m));
        CAPTURE(to_string(c), to_string(e), r.tile_m, r.tile_n, r.tile_k, r.cluster.m);
        const auto choice = choice_from_record(r, sms);
        if (stream_k && (!choice || choice->scheduler != Decomposition::StreamK)) continue;  // (the plan shares nothing here)
        REQUIRE(write_tuning_record(file, r).empty());
        written.push_back({key, c});
      }
  REQUIRE(written.size() >= 11);  // the 10 whole-tile configurations and Stream-K ones
  CHECK(std::count_if(written.begin(), written.end(), [](const auto& w) { return w.second.stream_k; }) >= 1);
  // another device's and another version's records for the same problems
  REQUIRE(write_tuning_record(file, record_of({"0.0.0-other", "NVIDIA H200", written[0].first.shape, "identity"},
                                              {Schedule::Cooperative128x128, false}, 1.0))
              .empty());
  REQUIRE(write_tuning_record(file, record_of({tuning_cache_tessera_version(), "NVIDIA H100", written[1].first.shape, "identity"},
                                              {Schedule::Cooperative128x128, false}, 1.0))
              .empty());
  const TuningCacheContents contents = read_tuning_cache(file);
  REQUIRE(contents.problems.empty());
  int skipped = -1;
  TunedTable table = TunedTable::from(contents, "NVIDIA H200", sms, &skipped);
  CHECK(skipped == 0);
  CHECK(table.size() == written.size());
  for (const auto& [key, c] : written) {
    CAPTURE(to_string(c), key.shape.m, to_string(key.shape.element));
    const auto found = table.find(key.shape, "identity");
    REQUIRE(found);
    CHECK(*found == c);
    CHECK_FALSE(table.find(key.shape, "relu"));
  }
  // a record of a tile no kernel has is left out and counted
  TuningRecord odd = record_of(written[0].first, {Schedule::Cooperative128x256, false}, 5.0);
  odd.key.shape.m = 999;
  odd.tile_n = 160;
  REQUIRE(write_tuning_record(file, odd).empty());
  table = TunedTable::from(read_tuning_cache(file), "NVIDIA H200", sms, &skipped);
  CHECK(skipped == 1);
  CHECK_FALSE(table.find(odd.key.shape, "identity"));
  // set replaces
  table.set(written[0].first.shape, "identity", {Schedule::Pingpong64x128, false});
  CHECK(*table.find(written[0].first.shape, "identity") == Sm90Config{Schedule::Pingpong64x128, false});
  CHECK(table.size() == written.size());
}

TEST_CASE("tuned configurations: config_of names each kernel's tile, cluster and scheduler", "[kernels]") {
  using sm90::Schedule;
  CHECK(sm90::config_of(128, 256, {2, 1}, Decomposition::DataParallel) == sm90::Sm90Config{Schedule::Cooperative128x256, false});
  CHECK(sm90::config_of(128, 128, {2, 1}, Decomposition::StreamK) == sm90::Sm90Config{Schedule::Cooperative128x128, true});
  CHECK(sm90::config_of(64, 128, {1, 1}, Decomposition::DataParallel) == sm90::Sm90Config{Schedule::Pingpong64x128, false});
  CHECK_FALSE(sm90::config_of(64, 128, {1, 1}, Decomposition::StreamK));   // no Stream-K ping-pong kernel
  CHECK(sm90::config_of(128, 128, {1, 1}, Decomposition::DataParallel) ==
        sm90::Sm90Config{Schedule::Cooperative128x128NoCluster, false});
  // (Stream-K kernels run clusters of 2 but the decode tiles': 128x64 without a cluster, and per-tensor
  // FP8's 128x128 without a cluster, Stream-K only)
  CHECK(sm90::config_of(128, 128, {1, 1}, Decomposition::StreamK) == sm90::Sm90Config{Schedule::Cooperative128x128NoCluster, true});
  CHECK(sm90::config_of(128, 160, {2, 1}, Decomposition::DataParallel) == sm90::Sm90Config{Schedule::Cooperative128x160, false});
  CHECK(sm90::config_of(128, 64, {1, 1}, Decomposition::StreamK) == sm90::Sm90Config{Schedule::Cooperative128x64NoCluster, true});
  CHECK_FALSE(sm90::config_of(128, 64, {2, 1}, Decomposition::StreamK));
  CHECK(to_string(sm90::Sm90Config{Schedule::Cooperative128x64NoCluster, true}) == "stream-k cooperative 128x64 no cluster");
  CHECK_FALSE(sm90::config_of(128, 128, {1, 2}, Decomposition::DataParallel));  // (clusters along M only)
  CHECK_FALSE(sm90::config_of(128, 256, {1, 1}, Decomposition::DataParallel));  // the dispatch runs clusters of 2
  CHECK_FALSE(sm90::config_of(128, 256, {2, 1}, Decomposition::SplitK));
  CHECK(to_string(sm90::Sm90Config{Schedule::Cooperative128x128, true}) == "stream-k cooperative 128x128");
  CHECK(to_string(sm90::Sm90Config{Schedule::Cooperative128x128NoCluster, false}) == "cooperative 128x128 no cluster");
  // each schedule's candidate names it back (the tuning cache's records: tile, cluster, scheduler)
  for (const Schedule s : sm90::kSchedules)
    for (const Element e : {Element::BF16, Element::E4M3}) {
      // (no FP8 ping-pong candidate, no 16-bit 128x160 one; FP8 128x192: the block-scaled kernel's tile)
      if ((s == Schedule::Pingpong64x128 && is_fp8(e)) || (s == Schedule::Cooperative128x160 && !is_fp8(e))) continue;
      const sm90::Candidate c = sm90::candidate_of(s, e, sm90::Schedulers::Both);
      CHECK(sm90::config_of(c.tile_m, c.tile_n, c.cluster, Decomposition::DataParallel) == sm90::Sm90Config{s, false});
    }
}

TEST_CASE("tuning cache: a row-major D's configuration is recorded with d=row, and records without it read as before", "[kernels]") {
  using sm90::Schedule;
  using sm90::Sm90Config;
  const int sms = 132;
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  // The key is the problem as a column-major D's kernels see it (D^T for a row-major D).
  const sm90::GemmShape whole_shape{6144, 512, 4096, 1, Element::BF16, Element::BF16, Major::Row, Major::Col};
  const sm90::GemmShape split_shape{4096, 256, 14336, 1, Element::BF16, Element::BF16, Major::Row, Major::Col};
  const Sm90Config whole_row{Schedule::Cooperative128x192, false, Major::Row};
  const Sm90Config split_row{Schedule::Cooperative128x192, true, Major::Row};
  const Sm90Config col{Schedule::Cooperative128x256, false, Major::Col};
  const sm90::GemmShape col_shape{8192, 8192, 1024, 1, Element::BF16, Element::BF16, Major::Row, Major::Col};
  const auto key = [](const sm90::GemmShape& s) { return TuningKey{tuning_cache_tessera_version(), "NVIDIA H200", s, "identity"}; };
  REQUIRE(write_tuning_record(file, record_of(key(whole_shape), whole_row, 30.0)).empty());
  REQUIRE(write_tuning_record(file, record_of(key(split_shape), split_row, 40.0)).empty());
  REQUIRE(write_tuning_record(file, record_of(key(col_shape), col, 50.0)).empty());
  const std::string text = read_text(file);
  // a column-major D's record is the format it always was: no d field
  CHECK(text.find("m=8192\tn=8192") != std::string::npos);
  std::size_t rows = 0;
  for (std::size_t at = text.find("\td=row\tus="); at != std::string::npos; at = text.find("\td=row\tus=", at + 1)) ++rows;
  CHECK(rows == 2);
  CHECK(text.find("\td=col") == std::string::npos);
  const TuningCacheContents contents = read_tuning_cache(file);
  REQUIRE(contents.problems.empty());
  REQUIRE(contents.records.size() == 3);
  for (const TuningRecord& r : contents.records) CHECK(r.d == (r.key.shape.m == 8192 ? Major::Col : Major::Row));
  // the Stream-K record's plan is the transposed problem's (256 x 4096: one cluster row of 22
  // tiles of 128x192, every tile split: the Stream-K kernel's split-K special case)
  const auto split = std::find_if(contents.records.begin(), contents.records.end(), [](const TuningRecord& r) { return r.key.shape.m == 4096; });
  REQUIRE(split != contents.records.end());
  const auto choice = choice_from_record(*split, sms);
  REQUIRE(choice);
  CHECK(choice->scheduler == Decomposition::SplitK);
  CHECK(choice->tile_n == 192);
  int skipped = -1;
  const TunedTable table = TunedTable::from(contents, "NVIDIA H200", sms, &skipped);
  CHECK(skipped == 0);
  CHECK(table.find(whole_shape, "identity") == whole_row);
  CHECK(table.find(split_shape, "identity") == split_row);
  CHECK(table.find(col_shape, "identity") == col);
  // a d field other than d=row is refused with a message naming the line
  write_text(file, read_text(file) + "version=x\tdevice=y\tm=1\tn=1\tk=1\tbatch=1\telement=bf16\toutput=bf16\ta=row\tb=col\tepilogue=identity"
                                     "\ttile=128x192x64\tcluster=2x1\tscheduler=data_parallel\td=col\tus=1\tcrc=00000000\n");
  const TuningCacheContents bad = read_tuning_cache(file);
  CHECK(bad.records.size() == 3);
  CHECK(contains(bad.problems, "bad d 'col'"));
}
