"""Interop: numpy grids, pycute-like objects, CuTe DSL text, GF(2) bases; and the version."""
import re

import pytest

import tessera as ts


def test_version_is_the_cmake_projects():
    here = __file__.rsplit("/", 3)[0]
    with open(f"{here}/CMakeLists.txt", encoding="utf-8") as f:
        version = re.search(r"project\(tessera VERSION ([0-9.]+)", f.read()).group(1)
    assert ts.__version__ == version


def test_version_is_the_clis(cli):
    assert cli("--version", check=True).stdout.strip() == f"tessera {ts.__version__}"


def test_to_numpy_is_the_coordinate_grid():
    np = pytest.importorskip("numpy")
    L = ts.Layout(((2, 2), 4), ((1, 8), 2))
    a = L.to_numpy()
    assert a.shape == (4, 4) and a.dtype == np.int64
    for i in range(4):
        for j in range(4):
            assert a[i, j] == L((ts.idx2crd(i, (2, 2)), j))
    assert list(ts.make_layout(8, stride=3).to_numpy()) == [0, 3, 6, 9, 12, 15, 18, 21]
    S = ts.eval("Sw<1,1,1> o 0 o (4,4):(4,1)")
    assert [[S((i, j)) for j in range(4)] for i in range(4)] == S.to_numpy().tolist()


class PycuteLike:
    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride


def test_from_pycute():
    assert ts.from_pycute(PycuteLike((4, (2, 2)), (2, (1, 8)))) == ts.Layout("(4,(2,2)):(2,(1,8))")
    with pytest.raises(TypeError):
        ts.from_pycute(object())


def test_to_pycute_when_present():
    pycute = pytest.importorskip("pycute")
    L = ts.Layout("(4,(2,2)):(2,(1,8))")
    P = ts.to_pycute(L)
    assert isinstance(P, pycute.Layout) and ts.from_pycute(P) == L


def test_cute_dsl_text():
    S = ts.from_cute_dsl("S<3,4,3> o 0 o (8,64):(64,1)")
    assert str(S) == "Sw<3,4,3> o 0 o (8,64):(64,1)" and ts.to_cute_dsl(S) == "S<3,4,3> o 0 o (8,64):(64,1)"
    assert ts.from_cute_dsl("(4,2):(1,4)") == ts.Layout((4, 2), (1, 4))
    with pytest.raises(ts.InadmissibleError, match="dynamic"):
        ts.from_cute_dsl("(?,2):(1,?)")


def test_f2_round_trip_and_refusals():
    L = ts.Layout("(4,(2,8)):(2,(1,8))")
    bases = L.to_f2()
    assert bases == [[2], [4], [1], [8], [16], [32]]
    assert ts.equal_as_functions(ts.from_f2(bases), L)
    S = ts.eval("Sw<3,4,3> o 0 o (8,64):(64,1)")  # a swizzle is linear over GF(2)
    sb = S.to_f2()
    for i in range(ts.size(S)):
        x = 0
        for k, (b,) in enumerate(sb):
            if i >> k & 1:
                x ^= b
        assert x == S(i)
    with pytest.raises(ts.InadmissibleError, match="not linear over GF\\(2\\)"):
        ts.Layout((2, 2), (1, 1)).to_f2()
    with pytest.raises(ts.InadmissibleError, match="power of two"):
        ts.make_layout(6).to_f2()
    with pytest.raises(ts.InadmissibleError, match="no layout has these bases"):
        ts.from_f2(sb)  # a swizzle: no layout is that map
    with pytest.raises(TypeError):
        ts.from_f2([[1.5]])


def test_f2_per_mode_in_dims():
    # The SM80 C fragment: in-dims lane (the thread mode) and register (the value mode); the
    # bases split the flat ones, thread bits first, and read back to the same function.
    tv = ts.Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))
    d = ts.to_f2(tv, in_dims=("lane", "register"))
    assert list(d) == ["lane", "register"]
    assert d["lane"] + d["register"] == tv.to_f2()
    assert [len(v) for v in d.values()] == [5, 2]
    back = ts.from_f2(d)
    assert ts.rank(back) == 2 and ts.size(back, [0]) == 32 and ts.equal_as_functions(back, tv)
    # Three modes, one of size 1 (no bits); a swizzled layout per mode.
    d3 = ts.to_f2(ts.Layout((4, 1, 2), (1, 0, 4)), in_dims=["register", "lane", "warp"])
    assert d3 == {"register": [[1], [2]], "lane": [], "warp": [[4]]}
    assert str(ts.from_f2(d3)) == "(4,1,2):(1,0,4)"
    S = ts.make_composed_layout(ts.Swizzle(1, 0, 1), 0, ts.Layout((2, 2), (1, 2)))
    ds = ts.to_f2(S, in_dims=("a", "b"))
    assert ds == {"a": [[1]], "b": [[3]]}
    with pytest.raises(ts.InadmissibleError, match="no layout has these bases"):
        ts.from_f2(ds)
    with pytest.raises(ValueError, match="names 1 dims, but .* has 2 modes"):
        ts.to_f2(tv, in_dims=("lane",))
    with pytest.raises(TypeError, match="sequence of names"):
        ts.to_f2(tv, in_dims="lr")
    with pytest.raises(ValueError, match="repeats a name"):
        ts.to_f2(tv, in_dims=("lane", "lane"))
    with pytest.raises(ts.InadmissibleError, match="not linear over GF"):
        ts.to_f2(ts.Layout((2, 2), (1, 1)), in_dims=("a", "b"))
