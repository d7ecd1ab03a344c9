// The tuning cache (kernels/device/tuning_cache.hpp) on the host: records round-trip and replace
// their key's; stale records (another device or version) are not found; corrupt files and lines
// are ignored with a message naming the line; concurrent writers (processes and threads) lose
// no record, and a reader running beside them never sees a partial one.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

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

// A key's problem of per-tensor scales (or none), B of A's element, no C, D stored by TMA.
TuningProblem problem(const sm90::GemmShape& shape, const std::string& epilogue = "identity") {
  TuningProblem p;
  p.shape = shape;
  p.element_b = shape.element;
  p.epilogue = epilogue;
  return p;
}

TuningRecord record(std::int64_t m, std::int64_t n, std::int64_t k, const std::string& device = "NVIDIA H200",
                    const std::string& version = tuning_cache_tessera_version()) {
  TuningRecord r;
  r.key = {version, device, problem({m, n, k, 1, Element::BF16, Element::BF16, Major::Row, Major::Col})};
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
  b.key.problem.epilogue = "relu+bias_row";
  b.key.problem.shape.output = Element::F32;
  b.key.problem.shape.a = Major::Col;
  b.scheduler = Decomposition::DataParallel;
  b.microseconds = 0.1;  // exact round trip of the time's decimal text
  REQUIRE(write_tuning_record(file, a) == "");
  REQUIRE(write_tuning_record(file, b) == "");
  const auto c = read_tuning_cache(file);
  REQUIRE(c.problems.empty());
  REQUIRE(c.records.size() == 2);
  const auto hit = find_tuning_record(c, b.key);
  REQUIRE(hit.hit);
  CHECK(hit.hit->key.problem == b.key.problem);
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
  CHECK(text.rfind("# tessera tuning cache, format 3\nversion=", 0) == 0);
  CHECK(text.find("\tdevice=NVIDIA H200\tm=512\tn=4096\tk=14336\tbatch=1\telement=bf16\telement_b=bf16\toutput=bf16\ta=row\tb=col\t"
                  "rows=sectors\tscales=per-tensor\tc=none\tstore=tma\tepilogue=identity\ttile=128x128x64\tcluster=2x1\tscheduler=stream-k\tus=39\tcrc=") !=
        std::string::npos);
  // No temporaries left beside it.
  int files = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path())) files += e.path().filename().string().find(".tmp.") == std::string::npos ? 1 : 100;
  CHECK(files == 2);  // tuning.txt and tuning.txt.lock
  // What cannot be written is refused with a reason, the file unchanged.
  TuningRecord bad = a;
  bad.key.device = "with\ttab";
  CHECK(write_tuning_record(file, bad).find("printable") != std::string::npos);
  bad = a;
  bad.key.problem.shape.k = 0;
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
  const std::string fields = "version=0.1.0\tdevice=D\tm=1\tn=2\tk=3\tbatch=1\telement=bf16\telement_b=bf16\toutput=bf16\ta=row\t"
                             "b=col\trows=off-sectors\tscales=per-tensor\tc=none\tstore=tma\tepilogue=identity\ttile=128x256x64\t"
                             "cluster=2x1\tscheduler=stream-k\tus=";
  write_text(file, "# tessera tuning cache, format 3\n" + with_crc(fields + "1.5") + with_crc(fields + "-1") +
                       with_crc(std::string(fields).replace(fields.find("m=1"), 3, "m=-4") + "1") +
                       with_crc(std::string(fields).replace(fields.find("bf16"), 4, "fp8") + "1") +
                       with_crc(std::string(fields).replace(fields.find("2x1"), 3, "2") + "1") +
                       with_crc(std::string(fields).replace(fields.find("stream-k"), 8, "magic") + "1") +
                       with_crc(std::string(fields).replace(fields.find("\tus="), 4, "\tms=") + "1") +
                       with_crc(std::string(fields).replace(fields.find("per-tensor"), 10, "tensorwise") + "1") +
                       with_crc(std::string(fields).replace(fields.find("c=none"), 6, "c=maybe") + "1") +
                       with_crc(std::string(fields).replace(fields.find("store=tma"), 9, "store=dma") + "1") +
                       with_crc(std::string(fields).replace(fields.find("element_b=bf16"), 14, "element_b=e3m4") + "1") +
                       with_crc(std::string(fields).replace(fields.find("\tscales=per-tensor"), 18, "") + "1") +
                       with_crc(std::string(fields).replace(fields.find("off-sectors"), 11, "aligned") + "1") +
                       with_crc(std::string(fields).replace(fields.find("\trows=off-sectors"), 17, "") + "1"));
  const auto f = read_tuning_cache(file);
  CHECK(f.records.size() == 1);
  CHECK(f.records[0].key.problem.shape.rows_off_sectors);
  CHECK(f.problems.size() == 13);
  CHECK(contains(f.problems, ":3: bad time '-1'"));
  CHECK(contains(f.problems, ":4: bad m '-4'"));
  CHECK(contains(f.problems, ":5: bad element type"));
  CHECK(contains(f.problems, ":6: bad cluster '2'"));
  CHECK(contains(f.problems, ":7: bad scheduler 'magic'"));
  CHECK(contains(f.problems, ":8: field 20 is not us="));
  CHECK(contains(f.problems, ":9: bad scales 'tensorwise'"));
  CHECK(contains(f.problems, ":10: bad c 'maybe'"));
  CHECK(contains(f.problems, ":11: bad store 'dma'"));
  CHECK(contains(f.problems, ":12: bad element type"));
  CHECK(contains(f.problems, ":13: field 13 is not scales="));
  CHECK(contains(f.problems, ":14: bad rows 'aligned'"));
  CHECK(contains(f.problems, ":15: field 12 is not rows="));
  // Another format, an empty file, a folder in the file's place: the whole file is ignored.
  write_text(file, "# tessera tuning cache, format 4\n" + with_crc(fields + "1.5"));
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
        const TuningKey key{tuning_cache_tessera_version(), "NVIDIA H200", problem(shape)};
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
  REQUIRE(write_tuning_record(file, record_of({"0.0.0-other", "NVIDIA H200", written[0].first.problem},
                                              {Schedule::Cooperative128x128, false}, 1.0))
              .empty());
  REQUIRE(write_tuning_record(file, record_of({tuning_cache_tessera_version(), "NVIDIA H100", written[1].first.problem},
                                              {Schedule::Cooperative128x128, false}, 1.0))
              .empty());
  const TuningCacheContents contents = read_tuning_cache(file);
  REQUIRE(contents.problems.empty());
  int skipped = -1;
  TunedTable table = TunedTable::from(contents, "NVIDIA H200", sms, &skipped);
  CHECK(skipped == 0);
  CHECK(table.size() == written.size());
  for (const auto& [key, c] : written) {
    CAPTURE(to_string(c), key.problem.shape.m, to_string(key.problem.shape.element));
    const auto found = table.find(key.problem);
    REQUIRE(found);
    CHECK(*found == c);
    TuningProblem relu = key.problem;
    relu.epilogue = "relu";
    CHECK_FALSE(table.find(relu));
  }
  // a record of a tile no kernel has is left out and counted
  TuningRecord odd = record_of(written[0].first, {Schedule::Cooperative128x256, false}, 5.0);
  odd.key.problem.shape.m = 999;
  odd.tile_n = 160;
  REQUIRE(write_tuning_record(file, odd).empty());
  table = TunedTable::from(read_tuning_cache(file), "NVIDIA H200", sms, &skipped);
  CHECK(skipped == 1);
  CHECK_FALSE(table.find(odd.key.problem));
  // set replaces
  table.set(written[0].first.problem, {Schedule::Pingpong64x128, false});
  CHECK(*table.find(written[0].first.problem) == Sm90Config{Schedule::Pingpong64x128, false});
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
  // (Stream-K kernels run clusters of 2 but the decode tiles': 128x64 without a cluster)
  CHECK_FALSE(sm90::config_of(128, 128, {1, 1}, Decomposition::StreamK));
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
      // (no FP8 ping-pong, 128x128-without-a-cluster or 256x128 candidate, no 16-bit 128x160
      // one; FP8 128x192: the block-scaled kernel's tile)
      if (((s == Schedule::Pingpong64x128 || s == Schedule::Cooperative128x128NoCluster || s == Schedule::Cooperative256x128) &&
           is_fp8(e)) ||
          (s == Schedule::Cooperative128x160 && !is_fp8(e)))
        continue;
      const sm90::Candidate c = sm90::candidate_of(s, e, sm90::Schedulers::Both);
      CHECK(sm90::config_of(c.tile_m, c.tile_n, c.cluster, Decomposition::DataParallel) == sm90::Sm90Config{s, false});
    }
}

TEST_CASE("tuning cache: a row-major D's configuration is recorded with d=row, a column-major D's without a d field", "[kernels]") {
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
  const auto key = [](const sm90::GemmShape& s) { return TuningKey{tuning_cache_tessera_version(), "NVIDIA H200", problem(s)}; };
  REQUIRE(write_tuning_record(file, record_of(key(whole_shape), whole_row, 30.0)).empty());
  REQUIRE(write_tuning_record(file, record_of(key(split_shape), split_row, 40.0)).empty());
  REQUIRE(write_tuning_record(file, record_of(key(col_shape), col, 50.0)).empty());
  const std::string text = read_text(file);
  // a column-major D's record has no d field
  CHECK(text.find("m=8192\tn=8192") != std::string::npos);
  std::size_t rows = 0;
  for (std::size_t at = text.find("\td=row\tus="); at != std::string::npos; at = text.find("\td=row\tus=", at + 1)) ++rows;
  CHECK(rows == 2);
  CHECK(text.find("\td=col") == std::string::npos);
  const TuningCacheContents contents = read_tuning_cache(file);
  REQUIRE(contents.problems.empty());
  REQUIRE(contents.records.size() == 3);
  for (const TuningRecord& r : contents.records) CHECK(r.d == (r.key.problem.shape.m == 8192 ? Major::Col : Major::Row));
  // the Stream-K record's plan is the transposed problem's (256 x 4096: one cluster row of 22
  // tiles of 128x192, every tile split: the Stream-K kernel's split-K special case)
  const auto split = std::find_if(contents.records.begin(), contents.records.end(), [](const TuningRecord& r) { return r.key.problem.shape.m == 4096; });
  REQUIRE(split != contents.records.end());
  const auto choice = choice_from_record(*split, sms);
  REQUIRE(choice);
  CHECK(choice->scheduler == Decomposition::SplitK);
  CHECK(choice->tile_n == 192);
  int skipped = -1;
  const TunedTable table = TunedTable::from(contents, "NVIDIA H200", sms, &skipped);
  CHECK(skipped == 0);
  CHECK(table.find(problem(whole_shape)) == whole_row);
  CHECK(table.find(problem(split_shape)) == split_row);
  CHECK(table.find(problem(col_shape)) == col);
  // a d field other than d=row is refused with a message naming the line
  write_text(file, read_text(file) + "version=x\tdevice=y\tm=1\tn=1\tk=1\tbatch=1\telement=bf16\telement_b=bf16\toutput=bf16\ta=row\t"
                                     "b=col\trows=sectors\tscales=per-tensor\tc=none\tstore=tma\tepilogue=identity\ttile=128x192x64\tcluster=2x1\tscheduler=data-parallel\td=col\tus=1\tcrc=00000000\n");
  const TuningCacheContents bad = read_tuning_cache(file);
  CHECK(bad.records.size() == 3);
  CHECK(contains(bad.problems, "bad d 'col'"));
}

namespace {

// An FP8 problem as a caller gives it (pointers never read: tuning_problem looks at alignment
// only): A m x k K-major, B k x n K-major, D m x n row-major bf16, per-tensor scales.
GemmArguments fp8_problem(std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmArguments g;
  g.m = m, g.n = n, g.k = k;
  g.element = Element::E4M3;
  g.a = {reinterpret_cast<const void*>(std::uintptr_t(1) << 20), Major::Row, k, 0};
  g.b = {reinterpret_cast<const void*>(std::uintptr_t(2) << 20), Major::Col, k, 0};
  g.c = {nullptr, Major::Row, n, 0};
  g.d = reinterpret_cast<void*>(std::uintptr_t(3) << 20);
  g.ldd = n;
  return g;
}

}  // namespace

// The key names what changes which kernels run: records of the same shape for per-tensor,
// rowwise and block scales, e4m3 x e5m2 beside e4m3 x e4m3, a C read or not, D stored by TMA or
// not are kept apart in the file, found apart, and read apart by the dispatch's table.
TEST_CASE("tuning cache: scale modes, B's element, C and D's store key records apart", "[kernels]") {
  using sm90::Schedule;
  using sm90::Sm90Config;
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  const GemmArguments base = fp8_problem(4096, 7168, 16384);
  GemmArguments rowwise = base, block = base, e5m2 = base, with_c = base, direct = base;
  rowwise.scale_mode = ScaleMode::Rowwise;
  block.scale_mode = ScaleMode::Block;
  e5m2.element_b = Element::E5M2;
  with_c.beta = 1.0f;
  with_c.c.ptr = reinterpret_cast<const void*>(std::uintptr_t(4) << 20);
  direct.ldd = base.n + 4;  // (4 bf16: 8 bytes, so D's rows are not 16 bytes apart)
  const std::vector<std::pair<GemmArguments, Sm90Config>> cases = {
      {base, {Schedule::Cooperative128x256, false}},    {rowwise, {Schedule::Cooperative128x128, false}},
      {block, {Schedule::Cooperative128x192, false}},   {e5m2, {Schedule::Cooperative128x128, false, Major::Row}},
      {with_c, {Schedule::Cooperative128x192, false, Major::Row}}, {direct, {Schedule::Cooperative128x128, false}}};
  std::vector<TuningProblem> problems;
  for (const auto& [g, c] : cases) problems.push_back(tuning_problem(g));
  for (std::size_t i = 0; i < problems.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      CAPTURE(i, j);
      CHECK_FALSE(problems[i] == problems[j]);
      CHECK((problems[i].shape.m == problems[j].shape.m && problems[i].shape.n == problems[j].shape.n &&
             problems[i].shape.k == problems[j].shape.k));  // (the same extents every time)
    }
  CHECK((problems[1].scales == ScaleMode::Rowwise && problems[2].scales == ScaleMode::Block));
  CHECK(problems[4].c == SourceC::Read);
  CHECK(problems[5].store == StoreD::Direct);
  // (the key is the column-major D's view: the caller's B, e5m2, is the kernels' A)
  CHECK((problems[3].shape.element == Element::E5M2 && problems[3].element_b == Element::E4M3));
  CHECK((problems[0].shape.element == Element::E4M3 && problems[0].element_b == Element::E4M3));
  for (std::size_t i = 0; i < cases.size(); ++i)
    REQUIRE(write_tuning_record(file, record_of({tuning_cache_tessera_version(), "NVIDIA H200", problems[i]}, cases[i].second,
                                                10.0 + double(i)))
                .empty());
  const TuningCacheContents contents = read_tuning_cache(file);
  REQUIRE(contents.problems.empty());
  REQUIRE(contents.records.size() == cases.size());  // none replaced another
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    const TuningLookup look = find_tuning_record(contents, {tuning_cache_tessera_version(), "NVIDIA H200", problems[i]});
    REQUIRE(look.hit);
    CHECK(look.hit->microseconds == 10.0 + double(i));
    CHECK(look.stale == 0);
    CHECK(find_tuning_record(contents, {"0.0.0-other", "NVIDIA H200", problems[i]}).stale == 1);
  }
  int skipped = -1;
  const TunedTable table = TunedTable::from(contents, "NVIDIA H200", 132, &skipped);
  CHECK(skipped == 0);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i, to_string(cases[i].second));
    CHECK(table.find(problems[i]) == cases[i].second);
  }
  // a problem no record names: nothing, whichever fields it shares with the recorded ones
  GemmArguments both = e5m2;
  both.beta = 1.0f;
  both.c.ptr = with_c.c.ptr;
  CHECK_FALSE(table.find(tuning_problem(both)));
}

// What tuning_problem reads of the arguments: each field the key names follows its argument, and
// the key is the same in either orientation of the problem (the kernels' view).
TEST_CASE("tuning cache: tuning_problem follows every argument that changes the kernels, and only those", "[kernels]") {
  rc::prop("changing one keyed argument changes the key; unkeyed ones and the orientation do not", [] {
    GemmArguments g = fp8_problem(*rc::gen::inRange<std::int64_t>(1, 9000), *rc::gen::inRange<std::int64_t>(1, 9000),
                                  *rc::gen::inRange<std::int64_t>(1, 9000));
    const bool fp8 = *rc::gen::arbitrary<bool>();
    if (!fp8) g.element = *rc::gen::element(Element::BF16, Element::F16);
    const bool row_d = *rc::gen::arbitrary<bool>();
    g.c.major = row_d ? Major::Row : Major::Col;
    // (D's contiguous extent and ld whole 16 bytes of its 2-byte elements: TMA stores it)
    if (row_d) g.n = (g.n + 7) / 8 * 8;
    else g.m = (g.m + 7) / 8 * 8;
    g.ldd = row_d ? g.n : g.m;
    g.c.ld = g.ldd;
    const TuningProblem p = tuning_problem(g);
    RC_ASSERT(p.store == StoreD::Tma);
    // orientation: the caller's problem transposed is the same problem to the kernels
    RC_ASSERT(tuning_problem(sm90::transposed(g)) == p);
    // unkeyed: alpha, the per-tensor scales' pointers, the workspace, ld_scale_a, C's pointer with beta == 0
    GemmArguments same = g;
    same.alpha = 2.5f;
    same.scale_a = reinterpret_cast<const float*>(std::uintptr_t(64));
    same.workspace = reinterpret_cast<void*>(std::uintptr_t(4096));
    same.workspace_bytes = 1 << 20;
    same.c.ptr = reinterpret_cast<const void*>(std::uintptr_t(5) << 20);
    RC_ASSERT(tuning_problem(same) == p);
    // keyed, one at a time
    GemmArguments other = g;
    const int which = *rc::gen::inRange(0, fp8 ? 8 : 6);
    switch (which) {
      case 0: other.beta = 1.0f, other.c.ptr = reinterpret_cast<const void*>(std::uintptr_t(5) << 20); break;
      case 1: other.ldd += 1; break;                                          // D's ld off 16 bytes: no TMA store
      case 2: other.d = static_cast<char*>(other.d) + 2; break;               // D off 16 bytes
      case 3: other.epilogue.bias = Bias::PerRow; break;
      case 4: other.k += 1; break;
      case 5:  // B's rows moved onto or off 32-byte sectors (16 bytes more per row; or A's and B's rounded up to 32)
        if (p.shape.rows_off_sectors) other.a.ld = (g.a.ld + 31) / 32 * 32, other.b.ld = (g.b.ld + 31) / 32 * 32;
        else other.b.ld += 16 / element_bytes(element_b(g));
        break;
      case 6: other.element_b = Element::E5M2; break;
      case 7: other.scale_mode = *rc::gen::element(ScaleMode::Rowwise, ScaleMode::Block); break;
    }
    RC_TAG(which);
    RC_ASSERT(!(tuning_problem(other) == p));
  });
}

// Every field of a record survives the file: generated keys and winners, written and read back.
TEST_CASE("tuning cache: generated records round-trip every field", "[kernels]") {
  TempDir dir;
  int n = 0;
  rc::prop("write then read gives the record back", [&] {
    const fs::path file = dir.path / ("tuning" + std::to_string(n++ % 4) + ".txt");
    const auto elements = rc::gen::element(Element::F32, Element::F16, Element::BF16, Element::E4M3, Element::E5M2);
    const auto majors = rc::gen::element(Major::Row, Major::Col);
    const auto positive = rc::gen::inRange<std::int64_t>(1, std::int64_t(1) << 40);
    TuningRecord r;
    r.key.version = *rc::gen::element(std::string(tuning_cache_tessera_version()), std::string("0.0.1"), std::string("9.9 rc=1"));
    r.key.device = *rc::gen::element(std::string("NVIDIA H200"), std::string("NVIDIA H100 80GB HBM3"), std::string("x=y"));
    TuningProblem& p = r.key.problem;
    p.shape = {*positive, *positive, *positive, *positive, *elements, *elements, *majors, *majors, *rc::gen::arbitrary<bool>()};
    p.element_b = *elements;
    p.scales = *rc::gen::element(ScaleMode::PerTensor, ScaleMode::Rowwise, ScaleMode::Block);
    p.c = *rc::gen::element(SourceC::None, SourceC::Read);
    p.store = *rc::gen::element(StoreD::Tma, StoreD::Direct);
    p.epilogue = *rc::gen::element(std::string("identity"), std::string("relu+bias_row"), std::string("gelu_tanh+bias_column"));
    r.tile_m = *rc::gen::inRange(1, 65536), r.tile_n = *rc::gen::inRange(1, 65536), r.tile_k = *rc::gen::inRange(1, 65536);
    r.cluster = {*rc::gen::inRange(1, 65536), *rc::gen::inRange(1, 65536)};
    r.scheduler = *rc::gen::element(Decomposition::DataParallel, Decomposition::SplitK, Decomposition::StreamK);
    r.d = *majors;
    r.microseconds = double(*rc::gen::inRange(1, 1 << 30)) / double(*rc::gen::inRange(1, 1 << 20));
    RC_ASSERT(write_tuning_record(file, r).empty());
    const TuningCacheContents c = read_tuning_cache(file);
    RC_ASSERT(c.problems.empty());
    const TuningLookup look = find_tuning_record(c, r.key);
    RC_ASSERT(look.hit.has_value());
    const TuningRecord& b = *look.hit;
    RC_ASSERT(b.key.version == r.key.version);
    RC_ASSERT(b.key.device == r.key.device);
    RC_ASSERT(b.key.problem == r.key.problem);
    RC_ASSERT((b.tile_m == r.tile_m && b.tile_n == r.tile_n && b.tile_k == r.tile_k));
    RC_ASSERT((b.cluster.m == r.cluster.m && b.cluster.n == r.cluster.n));
    RC_ASSERT(b.scheduler == r.scheduler);
    RC_ASSERT(b.d == r.d);
    RC_ASSERT(b.microseconds == r.microseconds);
  });
}

// Format 1's and format 2's records lack fields of the key: each is ignored with its reason, never
// read with a guessed meaning; a writer replaces the file with a format-3 one.
TEST_CASE("tuning cache: format-1 records are ignored with a reason, and a writer replaces them", "[kernels]") {
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  const std::string old_record =
      "version=" + std::string(tuning_cache_tessera_version()) +
      "\tdevice=NVIDIA H200\tm=512\tn=4096\tk=14336\tbatch=1\telement=bf16\toutput=bf16\ta=row\tb=col\tepilogue=identity"
      "\ttile=128x256x64\tcluster=2x1\tscheduler=data-parallel\tus=41.5\tcrc=00000000\n";
  write_text(file, "# tessera tuning cache, format 1\n" + old_record + "# a comment\n\n" + old_record);
  const TuningCacheContents c = read_tuning_cache(file);
  CHECK(c.exists);
  CHECK(c.records.empty());
  REQUIRE(c.problems.size() == 2);  // one per record line, none for the comment or the empty line
  CHECK(contains(c.problems, file.string() + ":2: a format-1 record"));
  CHECK(contains(c.problems, file.string() + ":5: a format-1 record"));
  for (const std::string& p : c.problems) {
    CHECK(p.find("scale mode") != std::string::npos);
    CHECK(p.find("; ignored") != std::string::npos);
  }
  const TuningRecord r = record(512, 4096, 14336);
  REQUIRE(write_tuning_record(file, r).empty());
  const std::string text = read_text(file);
  CHECK(text.rfind("# tessera tuning cache, format 3\n", 0) == 0);
  const TuningCacheContents after = read_tuning_cache(file);
  CHECK(after.problems.empty());
  REQUIRE(after.records.size() == 1);
  CHECK(after.records[0].key.problem == r.key.problem);
}

TEST_CASE("tuning cache: format-2 records (no rows field) are ignored with a reason, and a writer replaces them", "[kernels]") {
  TempDir dir;
  const fs::path file = dir.path / "tuning.txt";
  // (a well-formed format-2 line, its CRC right: what gemm_tune wrote before the key named rows)
  std::string body = "version=" + std::string(tuning_cache_tessera_version()) +
                     "\tdevice=NVIDIA H200\tm=1000\tn=1000\tk=16008\tbatch=1\telement=bf16\telement_b=bf16\toutput=bf16\ta=row"
                     "\tb=col\tscales=per-tensor\tc=none\tstore=tma\tepilogue=identity\ttile=64x128x64\tcluster=1x1"
                     "\tscheduler=data-parallel\tus=117.9";
  write_text(file, "# tessera tuning cache, format 2\n" + body + "\tcrc=00000000\n");
  const TuningCacheContents c = read_tuning_cache(file);
  CHECK(c.records.empty());
  REQUIRE(c.problems.size() == 1);
  CHECK(contains(c.problems, file.string() + ":2: a format-2 record"));
  CHECK(c.problems[0].find("32-byte sectors") != std::string::npos);
  const TuningRecord r = record(1000, 1000, 16008);
  REQUIRE(write_tuning_record(file, r).empty());
  CHECK(read_text(file).rfind("# tessera tuning cache, format 3\n", 0) == 0);
  const TuningCacheContents after = read_tuning_cache(file);
  CHECK(after.problems.empty());
  REQUIRE(after.records.size() == 1);
}
