// `tessera list atoms`: the MMA and copy atoms the CLI knows, one per line.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include "atom_support.hpp"
#include "commands.hpp"
#include "json.hpp"

namespace tessera::cli {

namespace {

struct ListOptions {
  std::string what, filter;
  bool mma = false, copy = false, json = false;
};

// One side of a copy atom, (thread, value) -> bit: "THREADSxBITS bits", where THREADS counts
// the threads holding distinct data (ldmatrix's source: the 8, 16 or 32 threads whose
// addresses name the 128-bit rows; the others repeat them with stride 0) and BITS is what
// each of them holds.
struct Side {
  std::int64_t threads = 0, bits = 0;
};
Side side_of(const rt::Layout& bits) {
  const rt::Layout thr = bits.mode(0);
  std::vector<std::int64_t> first;  // each thread's first bit
  rt::for_each_offset(thr, [&](std::int64_t o) { first.push_back(o); });
  std::sort(first.begin(), first.end());
  return {std::unique(first.begin(), first.end()) - first.begin(), bits.mode(1).size()};
}
std::string side(const rt::Layout& bits) {
  const Side s = side_of(bits);
  return std::to_string(s.threads) + "x" + std::to_string(s.bits) + " bits";
}
json::Value side_json(const rt::Layout& bits) {
  const Side s = side_of(bits);
  return json::Value::object({{"threads", s.threads}, {"bits", s.bits}});
}

bool matches(const std::string& name, const std::string& filter) {
  if (filter.empty()) return true;
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return lower(name).find(lower(filter)) != std::string::npos;
}

void run_list(const ListOptions& o) {
  if (o.what != "atoms") fail("tessera list knows one list: atoms (not '" + o.what + "')");
  const bool both = o.mma == o.copy;
  std::string out;
  std::size_t n = 0;
  json::Value atoms = json::Value::array();  // --json: the same entries
  if (both || o.mma)
    for (const auto& a : rt::mma_atoms()) {
      if (!matches(a.name, o.filter)) continue;
      atoms.push(json::Value::object({{"kind", "mma"},
                                      {"name", a.name},
                                      {"arch", a.arch},
                                      {"m", a.m},
                                      {"n", a.n},
                                      {"k", a.k},
                                      {"types", a.types},
                                      {"threads", a.thr_id.size()}}));
      out += "mma  " + a.name + "  " + a.arch + "  " + std::to_string(a.m) + "x" + std::to_string(a.n) + "x" +
             std::to_string(a.k) + "  " + a.types + "  threads " + std::to_string(a.thr_id.size()) + "\n";
      ++n;
    }
  if (both || o.copy)
    for (const auto& a : rt::copy_atoms()) {
      if (!matches(a.name, o.filter)) continue;
      atoms.push(json::Value::object({{"kind", "copy"},
                                      {"name", a.name},
                                      {"arch", a.arch},
                                      {"src", side_json(a.src_bits)},
                                      {"dst", side_json(a.dst_bits)},
                                      {"smem", a.smem_side},
                                      {"threads", a.thr_id.size()}}));
      out += "copy " + a.name + "  " + a.arch + "  src " + side(a.src_bits) + "  dst " + side(a.dst_bits) + "  smem " +
             a.smem_side + "  threads " + std::to_string(a.thr_id.size()) + "\n";
      ++n;
    }
  if (n == 0) fail("no atom matches '" + o.filter + "'");
  if (o.json) {
    json::Value d = json::document("list");
    d.set("what", o.what);
    d.set("filter", o.filter.empty() ? json::Value() : json::Value(o.filter));
    d.set("atoms", std::move(atoms));
    json::print(d);
  } else {
    std::cout << out;
  }
  check_standard_output();
}

}  // namespace

void register_list(CLI::App& app) {
  auto o = std::make_shared<ListOptions>();
  CLI::App* cmd = app.add_subcommand(
      "list",
      "List what tessera knows. `tessera list atoms` prints every MMA and copy atom, one per line:\n"
      "  mma  NAME  ARCH  MxNxK  D=.. A=.. B=.. C=..  threads N\n"
      "  copy NAME  ARCH  src TxB bits  dst TxB bits  smem src|dst|either  threads N\n"
      "(a copy atom's source and destination: T threads holding distinct data, B bits each; e.g.\n"
      "SM75_U32x1_LDSM_N: src 8x128 (8 threads give the addresses of 128-bit rows), dst 32x32\n"
      "(every thread receives one 32-bit register), as PTX's ldmatrix .x1)\n"
      "Names are CuTe's; use them with tessera mma, copy and banks.");
  cmd->add_option("WHAT", o->what, "atoms")->required();
  cmd->add_option("FILTER", o->filter, "only names containing this text (case-insensitive)");
  cmd->add_flag("--mma", o->mma, "only MMA atoms");
  cmd->add_flag("--copy", o->copy, "only copy atoms");
  cmd->add_flag("--json", o->json,
                "print one JSON object: {\"command\": \"list\", \"schema_version\": 1, \"what\", \"filter\",\n"
                "\"atoms\": [...]}, an entry per line above: {\"kind\": \"mma\", name, arch, m, n, k, types,\n"
                "threads} or {\"kind\": \"copy\", name, arch, src: {threads, bits}, dst: {threads, bits},\n"
                "smem, threads} (docs/json.md)");
  cmd->footer(
      "Examples:\n"
      "  tessera list atoms\n"
      "  tessera list atoms --mma SM80\n"
      "  tessera list atoms --copy LDSM\n"
      "  tessera list atoms --json\n"
      "Exit status: 0 on success, 1 on any error (e.g. nothing matches).");
  cmd->allow_extras();
  cmd->callback([o, cmd] {
    cli::reject_extras(cmd);
    const int rc = cli::guarded([&] { run_list(*o); });
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace tessera::cli
