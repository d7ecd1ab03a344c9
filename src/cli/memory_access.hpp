// What `tessera banks` and `tessera gmem` share: the memory tile (a layout, possibly swizzled)
// and a warp's access to it, given either as a raw TV layout (--tv, --vec) or as one side of a
// tiled copy (--access ATOM with --threads/--values or --for-mma): the same options, read,
// checked and printed the same way. Private to src/cli.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "atom_support.hpp"
#include "json.hpp"
#include "tessera/analysis/memory_tile.hpp"
#include "tessera/analysis/report.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::cli {

// Bounded work (tessera/analysis/report.hpp).
inline constexpr std::int64_t kMaxAnalysedCells = analysis::max_analysed_cells;

struct AccessOptions {
  std::string tv, access, side, threads, values, for_mma, atoms, permute, operand;
  int bits = 16, vec = 1;
  const CLI::Option* vec_option = nullptr;  // set by add_access_options: was --vec given?
};

// Registers --bits, --tv, --vec, --access, --side, --threads, --values, --for-mma, --atoms,
// --permute and --operand; `access_help` and `side_help` say what --access and --side mean for
// this command.
void add_access_options(CLI::App* cmd, AccessOptions& o, const std::string& access_help, const std::string& side_help);

struct MemoryArg {
  rt::Value value;
  analysis::MemoryTile tile;
  std::int64_t cells = 0;
};
// The positional argument `what` (SMEM, GMEM): a layout with one or two modes, possibly
// swizzled; `memory` names it in messages ("shared-memory"), `short_name` too ("smem").
MemoryArg memory_arg(const std::string& what, const std::string& input, const std::string& memory,
                     const std::string& short_name);

// Which side of a copy atom lies in this memory when --side is not given, and how a tiled
// copy's side becomes an access (it may refuse: rt::Error, shown under --access).
struct CopySideRule {
  bool (*default_source)(const rt::CopyAtomInfo& atom);
  analysis::TvAccess (*access_of)(const rt::TiledCopy& copy, bool source);
};
// The access given by the options over `tile` (checks --bits and --vec first), its work bounded
// by kMaxAnalysedCells.
analysis::TvAccess access_arg(const AccessOptions& o, const analysis::MemoryTile& tile, const CopySideRule& rule);

// The other options both commands take: --summary, and the tile drawn (-o FILE: by bank, by
// sector) with -f, --force, --color-by, --heatmap/--labels.
struct TileOutputOptions {
  std::string format, output, color_by;
  bool summary_only = false, force = false;
  DensityFlags density;
};
void add_tile_output_options(CLI::App* cmd, TileOutputOptions& o, const std::string& drawn_by);
// Where the drawing goes (none without -o), checked before the analysis runs.
std::optional<Target> tile_target(const TileOutputOptions& o, const MemoryArg& m, const std::string& short_name);
void draw_tile(viz::Diagram d, const TileOutputOptions& o, const Target& target);

}  // namespace tessera::cli
