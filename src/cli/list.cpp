// `tessera list atoms`: the MMA and copy atoms the CLI knows, one per line.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>

#include "atom_support.hpp"
#include "commands.hpp"
#include "json.hpp"

namespace tessera::cli {

namespace {

struct ListOptions {
  std::string what, filter, vendor, arch;
  bool mma = false, copy = false, json = false;
};

inline constexpr const char* kVendors[] = {"nvidia", "amd", "intel", "any"};

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

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
bool matches(const std::string& name, const std::string& filter) {
  return filter.empty() || lower(name).find(lower(filter)) != std::string::npos;
}
// --arch: the arch string, case aside; SM90 also names SM90a (and SM100 SM100a, SM120 SM120a).
bool arch_matches(const std::string& arch, const std::string& wanted) {
  if (wanted.empty()) return true;
  const std::string a = lower(arch), w = lower(wanted);
  return a == w || a == w + "a";
}
bool vendor_matches(const std::string& vendor, const std::string& wanted) { return wanted.empty() || vendor == wanted; }

// The count line: how many atoms were listed, by kind and by vendor (only those with any).
struct Counts {
  std::size_t mma = 0, copy = 0;
  std::size_t by_vendor[std::size(kVendors)] = {};
  void add(const std::string& vendor) {
    for (std::size_t i = 0; i < std::size(kVendors); ++i)
      if (vendor == kVendors[i]) ++by_vendor[i];
  }
  std::string line() const {
    std::string vendors;
    for (std::size_t i = 0; i < std::size(kVendors); ++i)
      if (by_vendor[i]) vendors += std::string(vendors.empty() ? "" : ", ") + kVendors[i] + " " + std::to_string(by_vendor[i]);
    return std::to_string(mma + copy) + " atoms: " + std::to_string(mma) + " mma, " + std::to_string(copy) + " copy (" +
           vendors + ")";
  }
  json::Value json() const {
    json::Value v = json::Value::object({{"total", mma + copy}, {"mma", mma}, {"copy", copy}});
    for (std::size_t i = 0; i < std::size(kVendors); ++i) v.set(kVendors[i], by_vendor[i]);
    return v;
  }
};

void run_list(const ListOptions& o) {
  if (o.what != "atoms") fail("tessera list knows one list: atoms (not '" + o.what + "')");
  if (!o.vendor.empty() && o.vendor != "nvidia" && o.vendor != "amd" && o.vendor != "intel")
    fail_option("--vendor", "--vendor must be nvidia, amd or intel, not '" + o.vendor + "'");
  const bool both = o.mma == o.copy;
  std::string out;
  Counts n;
  json::Value atoms = json::Value::array();  // --json: the same entries
  if (both || o.mma)
    for (const auto& a : rt::mma_atoms()) {
      if (!matches(a.name, o.filter) || !vendor_matches(a.vendor, o.vendor) || !arch_matches(a.arch, o.arch)) continue;
      json::Value e = json::Value::object({{"kind", "mma"},
                                           {"name", a.name},
                                           {"arch", a.arch},
                                           {"vendor", a.vendor},
                                           {"m", a.m},
                                           {"n", a.n},
                                           {"k", a.k},
                                           {"types", a.types},
                                           {"threads", a.thr_id.size()},
                                           {"wave_size", a.wave_size}});
      if (!a.instruction.empty()) e.set("instruction", a.instruction);
      if (a.sf_vec) e.set("scale_factors", json::Value::object({{"type", a.sf_type}, {"vector", a.sf_vec}}));
      if (a.cta_group) {  // tcgen05.mma: CTAs, A in tensor memory, the instruction descriptor
        e.set("cta_group", a.cta_group);
        e.set("a_tmem", a.a_tmem);
        e.set("idesc", std::int64_t(a.idesc));
      }
      atoms.push(std::move(e));
      out += "mma  " + a.name + "  " + a.arch + "  " + std::to_string(a.m) + "x" + std::to_string(a.n) + "x" +
             std::to_string(a.k) + "  " + a.types + "  threads " + std::to_string(a.thr_id.size()) +
             (a.vendor == "nvidia" || a.vendor == "any" ? "" : "  wave " + std::to_string(a.wave_size)) + "\n";
      ++n.mma;
      n.add(a.vendor);
    }
  if (both || o.copy)
    for (const auto& a : rt::copy_atoms()) {
      if (!matches(a.name, o.filter) || !vendor_matches(a.vendor, o.vendor) || !arch_matches(a.arch, o.arch)) continue;
      atoms.push(json::Value::object({{"kind", "copy"},
                                      {"name", a.name},
                                      {"arch", a.arch},
                                      {"vendor", a.vendor},
                                      {"src", side_json(a.src_bits)},
                                      {"dst", side_json(a.dst_bits)},
                                      {"smem", a.smem_side},
                                      {"threads", a.thr_id.size()}}));
      out += "copy " + a.name + "  " + a.arch + "  src " + side(a.src_bits) + "  dst " + side(a.dst_bits) + "  smem " +
             a.smem_side + "  threads " + std::to_string(a.thr_id.size()) + "\n";
      ++n.copy;
      n.add(a.vendor);
    }
  if (n.mma + n.copy == 0) {
    std::string what = o.filter.empty() ? "" : " '" + o.filter + "'";
    if (!o.vendor.empty()) what += " of vendor " + o.vendor;
    if (!o.arch.empty()) what += " for arch " + o.arch;
    fail("no atom matches" + what);
  }
  if (o.json) {
    json::Value d = json::document("list");
    d.set("what", o.what);
    d.set("filter", o.filter.empty() ? json::Value() : json::Value(o.filter));
    d.set("vendor", o.vendor.empty() ? json::Value() : json::Value(o.vendor));
    d.set("arch", o.arch.empty() ? json::Value() : json::Value(o.arch));
    d.set("count", n.json());
    d.set("atoms", std::move(atoms));
    json::print(d);
  } else {
    std::cout << out;
    // On standard error: standard output stays one atom per line for scripts (wc -l, awk).
    std::cerr << n.line() << "\n";
  }
  check_standard_output();
}

}  // namespace

void register_list(CLI::App& app) {
  auto o = std::make_shared<ListOptions>();
  CLI::App* cmd = app.add_subcommand(
      "list",
      "List what tessera knows. `tessera list atoms` prints every MMA and copy atom, one per line:\n"
      "  mma  NAME  ARCH  MxNxK  D=.. A=.. B=.. C=..  threads N[  wave W]\n"
      "  copy NAME  ARCH  src TxB bits  dst TxB bits  smem src|dst|either  threads N\n"
      "and then, on standard error (standard output stays one atom per line), a count line:\n"
      "  N atoms: M mma, C copy (nvidia X, amd Y, intel Z, any U)\n"
      "Vendors: nvidia (SM70-SM120, names as CuTe's), amd (AMD_CDNA3_MFMA_..., AMD_RDNA3_WMMA_...,\n"
      "AMD_RDNA4_WMMA_...; arch gfx942, gfx1100, gfx1200), intel (INTEL_XE_HPC_DPAS_...,\n"
      "INTEL_XE_HPG_DPAS_...; arch xe-hpc, xe-hpg). `wave W`: the lanes of the atom's wavefront\n"
      "(AMD: 64 on CDNA, 32 on RDNA) or subgroup (Intel: 16 or 8), where it is not a 32-lane warp.\n"
      "(a copy atom's source and destination: T threads holding distinct data, B bits each; e.g.\n"
      "SM75_U32x1_LDSM_N: src 8x128 (8 threads give the addresses of 128-bit rows), dst 32x32\n"
      "(every thread receives one 32-bit register), as PTX's ldmatrix .x1)\n"
      "Names are CuTe's; use them with tessera mma, copy and banks.");
  cmd->add_option("WHAT", o->what, "atoms")->required();
  cmd->add_option("FILTER", o->filter, "only names containing this text (case-insensitive)");
  cmd->add_flag("--mma", o->mma, "only MMA atoms");
  cmd->add_flag("--copy", o->copy, "only copy atoms");
  cmd->add_option("--vendor", o->vendor, "only the atoms of one vendor: nvidia, amd or intel")->type_name("VENDOR");
  cmd->add_option("--arch", o->arch,
                  "only the atoms of one architecture, case aside: SM70, SM75, SM80, SM89, SM90 (= SM90a),\n"
                  "SM100, SM120, gfx942, gfx1100, gfx1200, xe-hpc, xe-hpg, any")
      ->type_name("ARCH");
  cmd->add_flag("--json", o->json,
                "print one JSON object: {\"command\": \"list\", \"schema_version\": 1, \"what\", \"filter\",\n"
                "\"vendor\", \"arch\", \"count\": {total, mma, copy, nvidia, amd, intel, any}, \"atoms\": [...]},\n"
                "an entry per line above: {\"kind\": \"mma\", name, arch, vendor, m, n, k, types, threads,\n"
                "wave_size[, instruction][, scale_factors: {type, vector}]} or {\"kind\": \"copy\", name, arch,\n"
                "vendor, src: {threads, bits}, dst: {threads, bits}, smem, threads} (docs/json.md)");
  cmd->footer(
      "Examples:\n"
      "  tessera list atoms\n"
      "  tessera list atoms --mma SM80\n"
      "  tessera list atoms --copy LDSM\n"
      "  tessera list atoms --vendor amd\n"
      "  tessera list atoms --arch gfx942 --json\n"
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
