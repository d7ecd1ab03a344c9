// Builder: an MMA atom or tiled MMA as CuTe's print_latex draws it: A (M x K) left of C,
// B drawn K x N (transposed) above C, C (M x N); every cell labelled T<thread> V<value>
// and coloured by thread. The TV layouts map (thread, value) to the column-major index of
// (m,k), (n,k) and (m,n) in the tile. An operand wgmma reads from shared memory (SM90 SS:
// A and B; RS: B) is drawn instead as the shared-memory tile its descriptors describe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// An (MN, K) operand tile in shared memory: the GMMA layout atom repeated (MN first, as
// GMMA::make_smem_layout) over a buffer of (buffer_mn, buffer_k) elements, of which the
// operand is the first (mn, k): a K-major 128-byte-swizzled atom is 64 elements of K wide,
// so a (64,16) bf16 operand is k-block 0 of a (64,64) buffer, as a mainloop stages it.
struct SmemOperandTile {
  analysis::GmmaAtomSpec atom;
  std::string atom_name;           // gmma_k_sw128_b16
  std::int64_t mn = 0, k = 0;      // the operand tile
  std::int64_t block_mn = 0, block_k = 0;  // one instruction's operand
  std::int64_t buffer_mn = 0, buffer_k = 0;
  rt::SwizzledLayout buffer;       // (mn, k) -> element offset in the buffer
  // One descriptor per (atom_mn, atom_k) block of the tile (each instruction's operand), for
  // a buffer at shared-memory address 0 (aligned to the swizzle's repeat: base offset 0).
  struct Block {
    std::int64_t mn0 = 0, k0 = 0;
    GMMA::DescriptorFields fields;
    GMMA::GmmaDescriptor desc;
  };
  std::vector<Block> blocks;
  std::int64_t byte_offset(std::int64_t mn, std::int64_t k) const;  // of element (mn, k)
};
// The smem tile of an (mn, k) operand read by instructions of (atom_mn, atom_k) blocks.
// Throws viz::Error when the atom does not fit the operand (e.g. an MN-major 128-byte atom
// is 64 elements of MN: N = 8 is no multiple) or a block is not describable.
SmemOperandTile smem_operand_tile(const analysis::GmmaAtomSpec& atom, std::int64_t mn, std::int64_t k,
                                  std::int64_t atom_mn, std::int64_t atom_k);
// "start 0 B, LBO 16 B (unused), SBO 1024 B, 128B swizzle, base offset 0 (desc 0x...)".
std::string describe_descriptor(const SmemOperandTile& t, const SmemOperandTile::Block& b);

struct MmaTvLayouts {
  std::string name;                  // e.g. "SM80_16x8x16_F32F16F16F32_TN 2x2x1"
  rt::Layout a_tv, b_tv, c_tv;
  std::int64_t m = 0, n = 0, k = 0;  // the tile
  // When set, the layouts' thread mode is an atom-thread id and cells are labelled with
  // thread_id(id) (e.g. SM70's quad-pair: ids 0..7 are lanes 0-3, 16-19).
  std::function<std::int64_t(std::int64_t)> thread_id;
  // Threads per atom (0: unknown): cells of different atoms get a boundary.
  std::int64_t atom_threads = 0;
  // Lanes per warp of the atom's machine (AMD CDNA wavefront: 64; Intel subgroup: 16 or 8):
  // warp colours and boundaries group threads by it.
  std::int64_t warp_lanes = 32;
  // Operands read from shared memory (set: drawn as that smem tile, not as a TV map), and the
  // atom's own (M,N,K), whose (M,K) / (N,K) blocks are the instructions' operands.
  std::optional<analysis::GmmaAtomSpec> a_smem, b_smem;
  std::int64_t atom_m = 0, atom_n = 0, atom_k = 0;
  // Which panels to draw (--only): all three in CuTe's arrangement, a subset side by side.
  bool show_a = true, show_b = true, show_c = true;
};

// A and B are replicated over the atoms of the other mode (and an smem operand of wgmma
// over all threads): those cells show the first (thread,value) and list all in the tooltip,
// without the red "held twice" outline. C must be a bijection: repeats keep the outline.
// Throws viz::Error if a layout sends a pair outside its tile, or an smem operand's atom
// does not fit it.
Diagram mma_diagram(const MmaTvLayouts& mma);

}  // namespace tessera::viz
