"""MMA and copy atoms by name (the CLI's registry: `tessera list atoms`), tiled MMAs and tiled
copies, as `tessera mma` and `tessera copy` build them."""
from . import _core
from ._core import CopyAtom, MmaAtom, TiledMma


def mma_atom(name):
    """The MMA atom `name` (CuTe's name, e.g. SM80_16x8x16_F32F16F16F32_TN, or AMD's and Intel's
    as `tessera list atoms --vendor amd|intel` names them, e.g. AMD_CDNA3_MFMA_32x32x8_F32F16F16F32):
    its shape_mnk, thr_id, tv_layout_A/B/C, arch, vendor ("nvidia", "amd", "intel", "any"),
    wave_size (lanes of its warp, wavefront or subgroup: 64 for CDNA3 MFMA) and instruction (the
    vendor's mnemonic, for AMD and Intel atoms). Blackwell tcgen05.mma atoms (SM100_MMA_...) add
    cta_group (1, or 2 for a CTA pair), a_tmem (A read from tensor memory), idesc (the instruction
    descriptor) and tmem_layout_C ((m, n) -> lane + 128 * column); block-scaled atoms (SM120 and
    SM100 mxf8f6f4 / mxf4 / mxf4nvf4; sf_vec_size 0 elsewhere) sf_vec_size, sf_type,
    sf_layout_A/B, and on SM100 sf_atom (CUTLASS's 128 x 4 scale-factor block) and
    tmem_layout_SFA/SFB (one MMA's scale factors in one CTA's tensor memory: lane + 128 * byte). Unknown names raise
    KeyError with the closest names."""
    return _core.mma_atom(name)


def copy_atom(name):
    """The copy atom `name` (e.g. SM75_U32x4_LDSM_N): thr_id and its (thread, value) -> bit layouts."""
    return _core.copy_atom(name)


def mma_atom_names():
    return list(_core.mma_atom_names())


def copy_atom_names():
    return list(_core.copy_atom_names())


def gmma_layout_atom(name):
    """A GMMA shared-memory layout atom by name, gmma_<k|mn>_<inter|sw32|sw64|sw128>_<type>
    (as `tessera render` names them), e.g. gmma_k_sw128_bf16 = Sw<3,3,3> o 0 o (8,64):(64,1)."""
    v = _core.gmma_layout_atom(name)
    if v is None:
        raise KeyError(f"'{name}' is not a GMMA layout atom name (gmma_<k|mn>_<inter|sw32|sw64|sw128>_<type>)")
    return v


def _atoms_text(a):
    if isinstance(a, str):
        return a
    if isinstance(a, tuple):
        return "x".join(str(x) for x in a)
    return str(a)


def make_tiled_mma(atom, atom_layout_mnk=None, permutation_mnk=None, *, atoms=None, permute=None):
    """The tiled MMA of `atom` (an MmaAtom or its name) repeated over `atom_layout_mnk` (a
    shape (M,N,K) or a Layout; the CLI's "2x2x1" as `atoms=`) with the permutation tiler
    `permutation_mnk` (one entry per mode: None, an extent, or a Layout; the CLI's
    "(32,32,16)" as `permute=`). CuTe's make_tiled_mma."""
    if atoms is not None:
        if atom_layout_mnk is not None:
            raise TypeError("give atom_layout_mnk or atoms=, not both")
        atom_layout_mnk = atoms
    if permute is not None:
        if permutation_mnk is not None:
            raise TypeError("give permutation_mnk or permute=, not both")
        permutation_mnk = permute
    a = atom if isinstance(atom, MmaAtom) else mma_atom(atom)
    t = _core.make_tiled_mma(a, atom_layout_mnk, permutation_mnk)
    name = a.name
    if atom_layout_mnk is not None:
        name += " atoms " + _atoms_text(atom_layout_mnk)
    if permutation_mnk is not None:
        name += " permute " + (permutation_mnk if isinstance(permutation_mnk, str)
                               else "(" + ",".join("_" if p is None else str(p) for p in permutation_mnk) + ")")
    t._name = name
    return t


def _copy_atom(atom):
    return atom if isinstance(atom, CopyAtom) else copy_atom(atom)


def make_tiled_copy(atom, thr_layout, val_layout, bits=None):
    """The tiled copy of `atom` with threads `thr_layout` ((m,n) -> thread) and values
    `val_layout` ((m,n) -> value) of `bits`-bit elements (default: the atom's); CuTe's
    make_tiled_copy (the CLI's --threads/--values)."""
    a = _copy_atom(atom)
    return _core.make_tiled_copy_tv(a, a.default_bits if bits is None else bits, thr_layout, val_layout)


def _for_mma(operand):
    def make(atom, tiled_mma, bits=None):
        a = _copy_atom(atom)
        if not isinstance(tiled_mma, TiledMma):
            raise TypeError("the second argument is a TiledMma (make_tiled_mma)")
        return _core.make_tiled_copy_for(a, a.default_bits if bits is None else bits, tiled_mma, operand)
    make.__name__ = f"make_tiled_copy_{operand}"
    make.__doc__ = (f"The tiled copy of `atom` that moves operand {operand} of `tiled_mma` (CuTe's "
                    f"make_tiled_copy_{operand}; the CLI's --for-mma MMA --operand {operand}).")
    return make


make_tiled_copy_A = _for_mma("A")
make_tiled_copy_B = _for_mma("B")
make_tiled_copy_C = _for_mma("C")


def _install():
    MmaAtom.__repr__ = lambda self: f"mma_atom('{self.name}')"
    CopyAtom.__repr__ = lambda self: f"copy_atom('{self.name}')"
    TiledMma.__repr__ = lambda self: f"<TiledMma {getattr(self, '_name', self.atom.name)}: tile {self.tile_shape_mnk}, " \
                                     f"{self.size} threads>"
    _core.TiledCopy.__repr__ = lambda self: f"<TiledCopy {self.atom.name} ({self.bits}-bit): tile {self.tiler_mn}, " \
                                            f"{self.size} threads>"
