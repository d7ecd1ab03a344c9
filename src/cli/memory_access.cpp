#include "memory_access.hpp"



namespace tessera::cli {

void add_access_options(CLI::App* cmd, AccessOptions& o, const std::string& access_help, const std::string& side_help) {
  add_bits_option(cmd, o.bits, {8, 16, 32, 64, 128}, "element width in bits (8, 16, 32, 64, 128; default 16)");
  cmd->add_option("--tv", o.tv, "a raw TV layout (thread,value) -> tile index")->type_name("LAYOUT");
  o.vec_option = cmd->add_option("--vec", o.vec, "with --tv: consecutive values per access, 1 or more (default 1)")
                     ->type_name("N")
                     ->check(integer_option({"--vec"}, 1, 1 << 20, "a positive number of values per access (at most 1048576)"));
  cmd->add_option("--access", o.access, access_help)->type_name("ATOM");
  cmd->add_option("--side", o.side, side_help)->type_name("SIDE");
  cmd->add_option("--threads", o.threads, "with --access: thread layout (as tessera copy)")->type_name("LAYOUT");
  cmd->add_option("--values", o.values, "with --access: value layout (as tessera copy)")->type_name("LAYOUT");
  cmd->add_option("--for-mma", o.for_mma, "with --access: copy an operand of this MMA's tiled MMA")->type_name("MMA");
  cmd->add_option("--atoms", o.atoms, "with --for-mma: MxNxK atoms")->type_name("MxNxK");
  cmd->add_option("--permute", o.permute, "with --for-mma: permutation (see tessera mma)")->type_name("PERM");
  cmd->add_option("--operand", o.operand, "with --for-mma: A, B or C")->type_name("A|B|C");
}

MemoryArg memory_arg(const std::string& what, const std::string& input, const std::string& memory,
                     const std::string& short_name) {
  MemoryArg m{evaluate_arg(what, input), {}, 0};
  if (m.value.kind() == rt::Value::Kind::Layout)
    m.tile = located(what, input, [&] { return analysis::memory_tile(m.value.layout(), memory); });
  else if (m.value.kind() == rt::Value::Kind::Swizzled)
    m.tile = located(what, input, [&] { return analysis::memory_tile(m.value.swizzled(), memory); });
  else
    fail(what + " must be a layout (M,N):(s,t), possibly swizzled (Sw<B,M,S> o ...), not " + rt::describe(m.value),
         input, 0);
  if (__builtin_mul_overflow(m.tile.rows(), m.tile.cols(), &m.cells) || m.cells > kMaxAnalysedCells)
    fail("the " + short_name + " tile has " + std::to_string(m.tile.rows()) + "x" + std::to_string(m.tile.cols()) +
             " cells, more than tessera analyses (" + std::to_string(kMaxAnalysedCells) + ")",
         input, 0);
  return m;
}

analysis::TvAccess access_arg(const AccessOptions& o, const analysis::MemoryTile& tile, const CopySideRule& rule) {
  const bool raw = !o.tv.empty();
  if (raw == !o.access.empty())
    fail(raw ? "give either --tv or --access, not both"
             : "give the access: --tv LAYOUT (thread,value) -> tile index, or --access COPY_ATOM with\n"
               "--threads/--values or --for-mma");
  analysis::TvAccess access;
  if (raw) {
    if (!o.threads.empty() || !o.values.empty() || !o.for_mma.empty() || !o.side.empty())
      fail("--threads, --values, --for-mma and --side go with --access, not --tv");
    const rt::Layout tv = layout_arg("--tv", o.tv);
    if (tv.rank() != 2 || tv.shape.is_leaf()) fail("--tv must have two modes, (threads,values) -> tile index", o.tv, 0);
    access = analysis::access_of_tv(tv, tile.rows(), tile.cols(), o.vec);
  } else {
    if (o.vec_option && o.vec_option->count() > 0)
      fail("--vec goes with --tv; with --access the atom sets the access width");
    // "ldsm:SM75_U32x4_LDSM_N" is accepted: a kind prefix before the atom name.
    std::string name = o.access;
    if (!rt::find_copy(name) && name.find(':') != std::string::npos) name = name.substr(name.find(':') + 1);
    const rt::CopyAtomInfo& atom = copy_arg(name);
    bool source = rule.default_source(atom);
    if (!o.side.empty()) {
      if (o.side != "src" && o.side != "dst") fail("--side must be src or dst, not '" + o.side + "'", o.side, 0);
      source = o.side == "src";
    }
    const rt::TiledCopy c =
        tiled_copy_from(atom, o.bits, o.threads, o.values, o.for_mma, o.atoms, o.permute, o.operand);
    access = located("--access", o.access, [&] { return rule.access_of(c, source); });
  }
  // The walk visits every (thread,value) once per repeat of the copy tile.
  if (access.tile_m > 0 && access.tile_n > 0 && tile.rows() % access.tile_m == 0 && tile.cols() % access.tile_n == 0) {
    std::int64_t work = 0;
    const std::int64_t reps = (tile.rows() / access.tile_m) * (tile.cols() / access.tile_n);
    if (__builtin_mul_overflow(reps, access.tv.size(), &work) || work > kMaxAnalysedCells)
      fail("the access visits " + std::to_string(reps) + " copy tiles x " + std::to_string(access.tv.size()) +
           " (thread,value) pairs, more than tessera analyses (" + std::to_string(kMaxAnalysedCells) + ")");
  }
  return access;
}

void add_tile_output_options(CLI::App* cmd, TileOutputOptions& o, const std::string& drawn_by) {
  cmd->add_flag("--summary", o.summary_only, "print only the header and summary lines");
  cmd->add_option("-f,--format", o.format, "diagram format: txt, svg, tex, png, pdf or html (default from -o)")
      ->type_name("FORMAT");
  cmd->add_option("-o,--output", o.output, "draw the tile by " + drawn_by + " to FILE (atomically; - for stdout)")
      ->check(output_file_name())
      ->type_name("FILE");
  cmd->add_flag("--force", o.force, "draw tiles over " + std::to_string(cli::kCellLimit) + " cells");
  add_color_by(cmd, o.color_by);
  add_density(cmd, o.density);
}

std::optional<Target> tile_target(const TileOutputOptions& o, const MemoryArg& m, const std::string& short_name) {
  if (o.output.empty()) return std::nullopt;
  Target target = resolve_target(o.format, o.output);
  check_cells(m.cells, "the " + short_name + " tile " + m.tile.text, o.force);
  return target;
}

void draw_tile(viz::Diagram d, const TileOutputOptions& o, const Target& target) {
  recolor(d, o.color_by);
  set_density(d, o.density);
  emit(d, target);
}

}  // namespace tessera::cli
