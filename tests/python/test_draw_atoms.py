"""Pictures and atoms: the same drawings as the CLI's, byte for byte, in every text format
(and PNG/PDF documents when Cairo is in the build); notebook reprs; atoms, tiled MMAs and
tiled copies whose to_dict() equals the CLI's --json."""
import json
import os

import pytest

import tessera as ts

LAYOUTS = ["(8,(2,4)):(2,(1,16))", "16:3", "Sw<3,3,3> o 0 o (8,64):(64,1)", "(4,8):(8,1)"]
TV = ("((4,8),(2,2)):((32,1),(16,8))", "(16,8)")
MMA = [("SM80_16x8x16_F32F16F16F32_TN", None, None), ("SM80_16x8x16_F32F16F16F32_TN", "2x2x1", None),
       ("SM80_16x8x8_F16F16F16F16_TN", "2x2", "32,32,8"), ("SM70_8x8x4_F32F16F16F32_TN", None, None),
       ("SM90_64x64x16_F32BF16BF16_SS", None, None)]


def mma_args(name, atoms, permute):
    return [name] + (["--atoms", atoms] if atoms else []) + (["--permute", permute] if permute else [])


@pytest.mark.parametrize("expr", LAYOUTS)
@pytest.mark.parametrize("fmt", ["txt", "svg", "tex", "html"])
def test_layout_drawings_equal_the_cli(cli, expr, fmt):
    out = cli("render", expr, "-f", fmt, check=True).stdout
    assert ts.parse(expr).draw(fmt) == out


@pytest.mark.parametrize("fmt", ["txt", "svg"])
@pytest.mark.parametrize("color_by", ["offset", "bank", "chunk"])
def test_options_equal_the_cli(cli, fmt, color_by):
    expr = LAYOUTS[2]
    out = cli("render", expr, "-f", fmt, "--color-by", color_by, "--title", "T", "--heatmap", check=True).stdout
    assert ts.parse(expr).draw(fmt, color_by=color_by, title="T", density="heatmap") == out


def test_tv_map_equals_the_cli(cli):
    out = cli("render", "--tv", TV[1], TV[0], "-f", "svg", check=True).stdout
    assert ts.TvMap(*TV).draw("svg") == out
    assert ts.TvMap(ts.parse(TV[0]), (16, 8)).draw("svg") == out


@pytest.mark.parametrize("name, atoms, permute", MMA)
def test_mma_drawings_and_json_equal_the_cli(cli, name, atoms, permute):
    t = ts.make_tiled_mma(name, atoms=atoms, permute=permute)
    assert t.draw("svg") == cli("mma", *mma_args(name, atoms, permute), "-f", "svg", check=True).stdout
    assert t.draw("txt") == cli("mma", *mma_args(name, atoms, permute), check=True).stdout
    assert t.to_dict() == json.loads(cli("mma", *mma_args(name, atoms, permute), "--json", check=True).stdout)


def test_mma_atom_traits():
    a = ts.mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    assert a.shape_mnk == (16, 8, 16) and str(a.shape_mnk) == "(16,8,16)"
    assert a.num_threads == 32 and a.arch == "SM80"
    assert ts.size(a.tv_layout_C) == 16 * 8 and ts.size(a.tv_layout_A) == 16 * 16
    assert a.draw("svg") == ts.make_tiled_mma(a).draw("svg")
    t = ts.make_tiled_mma(a, (2, 2, 1))
    assert t.tile_shape_mnk == (32, 16, 16) and t.size == 128
    assert t.to_dict() == ts.make_tiled_mma(a, atoms="2x2x1").to_dict()
    p = ts.make_tiled_mma(a, (2, 2, 1), (None, ts.Layout((8, 2, 2), (1, 16, 8)), None))
    assert str(p.permutation_mnk[1]) == "(8,2,2):(1,16,8)"
    assert repr(a) == "mma_atom('SM80_16x8x16_F32F16F16F32_TN')"
    assert repr(t) == "<TiledMma SM80_16x8x16_F32F16F16F32_TN atoms 2x2x1: tile (32,16,16), 128 threads>"
    assert "SM80_16x8x16_F32F16F16F32_TN" in ts.mma_atom_names()
    assert "SM75_U32x4_LDSM_N" in ts.copy_atom_names()


def test_vendor_atoms(cli):
    a = ts.mma_atom("AMD_CDNA3_MFMA_32x32x8_F32F16F16F32")
    assert (a.vendor, a.arch, a.wave_size, a.num_threads) == ("amd", "gfx942", 64, 64)
    assert a.instruction == "v_mfma_f32_32x32x8_f16"
    assert a.draw("svg") == cli("mma", "AMD_CDNA3_MFMA_32x32x8_F32F16F16F32", "-f", "svg", check=True).stdout
    d = ts.mma_atom("INTEL_XE_HPC_DPAS_8x16x16_F32BF16BF16F32")
    assert (d.vendor, d.wave_size, d.num_threads) == ("intel", 16, 16)
    assert ts.mma_atom("SM80_16x8x16_F32F16F16F32_TN").vendor == "nvidia"


def test_blackwell_block_scaled_atom(cli):
    # mxf4nvf4 (e2m1, ue4m3 scale factors per 16 elements): the registry the CLI lists.
    a = ts.mma_atom("SM100_MMA_MXF4_SS_128x64x64_F32E2M1E2M1_UE4M3x16")
    assert a.shape_mnk == (128, 64, 64) and (a.cta_group, a.a_tmem, a.num_threads) == (1, False, 1)
    assert (a.sf_vec_size, a.sf_type) == (16, "ue4m3")
    layouts = cli("mma", a.name, "--print-layouts", check=True).stdout.splitlines()
    assert "TmemLayoutSFA " + str(a.tmem_layout_SFA) in layouts
    assert "SfAtom " + str(a.sf_atom) in layouts
    listed = json.loads(cli("list", "atoms", a.name, "--json", check=True).stdout)["atoms"][0]
    assert listed["idesc"] == a.idesc
    assert ts.mma_atom("SM100_MMA_F8F6F4_TS_128x16x32_F16E5M2E2M3").sf_vec_size == 0


def test_tiled_copies_equal_the_cli(cli):
    mma = ts.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN")
    for operand, make in (("A", ts.make_tiled_copy_A),):
        c = make("SM75_U32x4_LDSM_N", mma)
        args = ["SM75_U32x4_LDSM_N", "--for-mma", "SM80_16x8x16_F32F16F16F32_TN", "--operand", operand]
        assert c.to_dict() == json.loads(cli("copy", *args, "--json", check=True).stdout)
        assert c.draw("svg") == cli("copy", *args, "-f", "svg", check=True).stdout
    with pytest.raises(ts.InadmissibleError, match="not a multiple"):  # as the CLI refuses it
        ts.make_tiled_copy_B("SM75_U32x4_LDSM_N", mma)
    c = ts.make_tiled_copy("SM80_CP_ASYNC_CACHEALWAYS<16>", "(32,8):(8,1)", "(1,8)")
    args = ["SM80_CP_ASYNC_CACHEALWAYS<16>", "--threads", "(32,8):(8,1)", "--values", "(1,8)"]
    assert c.to_dict() == json.loads(cli("copy", *args, "--json", check=True).stdout)


def test_gmma_layout_atom():
    assert str(ts.gmma_layout_atom("gmma_k_sw128_bf16")) == str(ts.eval("Sw<3,3,3> o 0 o (8,64):(64,1)"))


def test_notebook_reprs():
    L = ts.parse(LAYOUTS[0])
    assert L._repr_svg_() == L.draw("svg")
    h1, h2 = L._repr_html_(), ts.TvMap(*TV)._repr_html_()
    # Each page in its own iframe: ids and scripts of two diagrams cannot clash.
    assert h1.startswith("<iframe srcdoc=") and h2.startswith("<iframe srcdoc=")
    assert "<script" not in h1 and "&lt;script" in h1
    assert "http://" not in h1.replace("http://www.w3.org", "")  # nothing fetched


def test_draw_to_files(tmp_path):
    L = ts.parse(LAYOUTS[0])
    p = tmp_path / "l.svg"
    assert L.draw(p) == str(p) and p.read_text() == L.draw("svg")
    q = tmp_path / "l.out"
    L.draw(q, format="txt")
    assert q.read_text() == L.draw("txt")
    if ts.has_cairo:
        png = L.draw("png")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert L.draw("pdf")[:5] == b"%PDF-"
        L.draw(tmp_path / "l.png")
        assert (tmp_path / "l.png").read_bytes()[:4] == b"\x89PNG"
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".")]  # no temporary left behind


def test_128x128_tv_map_draws_as_the_cli(cli):
    tv, tile = "(128,128):(1,128)", "(128,128)"  # 128 threads x 128 values over a 128x128 tile
    svg = ts.TvMap(tv, tile).draw("svg")
    assert svg == cli("render", "--tv", tile, tv, "-f", "svg", check=True).stdout
