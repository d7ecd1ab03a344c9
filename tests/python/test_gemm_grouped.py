"""tessera.gemm_grouped on the host, no GPU: the mapping of torch._grouped_mm's 2D x 3D
arguments (fake CUDA Array Interface producers) onto the C++ contiguous form, and every
refusal: Python's own (dtypes, shapes, strides) and the C++ check_grouped_arguments' (raised
as GemmError with its reason), none of them launching. The launch is test_gemm_grouped_gpu.py's."""
import sys
import types

import numpy as np
import pytest

import tessera as ts
from tessera import _gemm, _gemm_grouped

BF16, F16, F32, I32, I64 = "<V2", "<f2", "<f4", "<i4", "<i8"
A, B, OFFS, C, D = 0x100000, 0x200000, 0x300000, 0x400000, 0x500000
SPEC = {name: i for i, name in enumerate(_gemm_grouped.SPEC_FIELDS)}


class Cai:
    """A GPU array as far as the CUDA Array Interface says (strides in elements here)."""

    def __init__(self, shape, typestr=BF16, ptr=A, strides=None, stream=None, readonly=False):
        size = 4 if typestr in (F32, I32) else 8 if typestr == I64 else 2
        self.__cuda_array_interface__ = dict(
            shape=tuple(shape), typestr=typestr, data=(ptr, readonly),
            strides=None if strides is None else tuple(s * size for s in strides), version=3, stream=stream)


G, T, K, N = 4, 96, 64, 48


def weight_gnk(g=G, k=K, n=N, typestr=BF16, ptr=B):
    """(G, K, N) viewed from a dense (G, N, K): a Linear weight's transpose(-2, -1)."""
    return Cai((g, k, n), typestr, ptr, strides=(n * k, 1, k))


def weight_gkn(g=G, k=K, n=N, typestr=BF16, ptr=B):
    return Cai((g, k, n), typestr, ptr)


def args(**changes):
    x = dict(a=Cai((T, K)), b=weight_gnk(), offs=Cai((G,), I32, OFFS), out=Cai((T, N), ptr=D))
    x.update(changes)
    return x


class Launches:
    """_gemm_cuda as far as gemm_grouped() sees it: records each run_grouped()."""

    def __init__(self):
        self.calls = []

    def run_grouped(self, spec, stream, waits):
        self.calls.append((spec, stream, waits))
        return "", ""


@pytest.fixture
def launches(monkeypatch):
    fake = Launches()
    monkeypatch.setattr(_gemm, "_cuda_module", fake)
    return fake


@pytest.fixture
def unloaded(monkeypatch):
    """The launch not loaded yet (a build without CUDA, or before the first call): the C++
    checks run in _core first, then _cuda() hands over the fake."""
    fake = Launches()
    monkeypatch.setattr(_gemm, "_cuda_module", None)
    monkeypatch.setattr(_gemm, "_cuda", lambda *a: fake)
    return fake


# ---- the mapping -------------------------------------------------------------------------------

@pytest.mark.parametrize("weight, major", [(weight_gnk, "col"), (weight_gkn, "row")])
def test_the_weights_layout_is_read_off_its_strides(launches, weight, major):
    ts.gemm_grouped(**args(b=weight()))
    (spec, stream, waits), = launches.calls
    s = _gemm_grouped.spec_dict(spec)
    assert (s["groups"], s["tokens"], s["n"], s["k"], s["b_major"], s["element"]) == (G, T, N, K, major, "bf16")
    assert (s["a_ptr"], s["b_ptr"], s["offs_ptr"], s["d_ptr"], s["c_ptr"]) == (A, B, OFFS, D, 0)
    assert (s["lda"], s["ldd"], s["alpha"], s["beta"]) == (K, N, 1.0, 0.0)
    assert type(spec) is tuple and len(spec) == len(ts._core.GROUPED_SPEC_FIELDS)
    assert ts._core.check_grouped_arguments(spec) == ("", "")


def test_padded_rows_alpha_beta_c_and_streams(launches):
    a = Cai((T, K), strides=(K + 16, 1), stream=5)
    out = Cai((T, N), ptr=D, strides=(N + 8, 1), stream=7)
    c = Cai((T, N), ptr=C, strides=(N + 24, 1))
    ts.gemm_grouped(a, weight_gkn(), Cai((G,), I32, OFFS), out, alpha=0.5, beta=2, c=c)
    (spec, stream, waits), = launches.calls
    s = _gemm_grouped.spec_dict(spec)
    assert (s["lda"], s["ldd"], s["ldc"], s["c_ptr"], s["alpha"], s["beta"]) == (K + 16, N + 8, N + 24, C, 0.5, 2.0)
    assert (stream, list(waits)) == (5, [7]), "the first producer's stream, waiting for the other"
    ts.gemm_grouped(**args(), stream=0x40)
    assert launches.calls[-1][1] == 0x40


def test_c_may_be_out_itself(launches):
    out = Cai((T, N), ptr=D)
    ts.gemm_grouped(**args(out=out), beta=1.0, c=out)
    assert _gemm_grouped.spec_dict(launches.calls[-1][0])["c_ptr"] == D


def test_k_or_n_of_one_takes_the_kernel_every_type_has(launches):
    # (G, 1, N) and (G, K, 1) fit both layouts: column-major B_g, the f16 kernel's too.
    ts.gemm_grouped(Cai((T, 8), F16), Cai((G, 8, 1), F16, B), Cai((G,), I32, OFFS), Cai((T, 1), F16, D))
    assert _gemm_grouped.spec_dict(launches.calls[-1][0])["b_major"] == "col"


def test_a_single_group_needs_no_batch_stride(launches):
    ts.gemm_grouped(**args(b=Cai((1, K, N), strides=(7, 1, K)), offs=Cai((1,), I32, OFFS)))
    assert _gemm_grouped.spec_dict(launches.calls[-1][0])["b_major"] == "col"


@pytest.mark.parametrize("shapes", [dict(a=Cai((0, K), ptr=0), out=Cai((0, N), ptr=0)),
                                    dict(b=weight_gnk(n=0, ptr=0), out=Cai((T, 0), ptr=0))])
def test_an_empty_product_launches_nothing(launches, shapes):
    x = args(**shapes)
    assert ts.gemm_grouped(**x) is x["out"]
    assert launches.calls == []


def test_k_zero_reads_no_row_stride_of_a(launches):
    # (torch gives a (T, 0) tensor strides (1, 1): A is not read, the stride means nothing)
    ts.gemm_grouped(**args(a=Cai((T, 0), ptr=0, strides=(1, 1)), b=Cai((G, 0, N), ptr=0)), beta=1.0,
                    c=Cai((T, N), ptr=C))
    s = _gemm_grouped.spec_dict(launches.calls[-1][0])
    assert (s["k"], s["lda"], s["a_ptr"], s["b_ptr"]) == (0, 0, 0, 0)
    assert ts._core.check_grouped_arguments(launches.calls[-1][0]) == ("", "")


def test_the_offsets_are_never_read_on_the_host(launches):
    # A pointer nothing lies behind: reading it would crash; the description carries it.
    ts.gemm_grouped(**args(offs=Cai((G,), I32, 0xdead0000)))
    assert _gemm_grouped.spec_dict(launches.calls[-1][0])["offs_ptr"] == 0xdead0000


class TorchLike(Cai):
    """Enough of a torch.Tensor for out=None: the allocation and its address."""
    allocated = []

    def new_empty_strided(self, shape, strides, dtype):
        t = TorchLike(shape, BF16, 0x900000, strides=strides)
        t.asked = (shape, strides, dtype)
        TorchLike.allocated.append(t)
        return t

    def data_ptr(self):
        return self.__cuda_array_interface__["data"][0]


TorchLike.__module__ = "torch"


def test_out_none_allocates_row_major_with_as_library(unloaded, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(bfloat16="torch.bfloat16"))
    d = ts.gemm_grouped(TorchLike((T, K)), weight_gnk(), Cai((G,), I32, OFFS))
    assert d is TorchLike.allocated[-1] and d.asked == ((T, N), (N, 1), "torch.bfloat16")
    assert _gemm_grouped.spec_dict(unloaded.calls[-1][0])["d_ptr"] == 0x900000


# ---- refusals: Python's own, nothing launched ----------------------------------------------------

@pytest.mark.parametrize("changes, error, text", [
    (dict(a=Cai((T, K), F32), b=weight_gnk(typestr=F32)), ValueError, "a is float32; .* float16 or bfloat16"),
    (dict(b=weight_gnk(typestr=F16)), ValueError, "a is bfloat16 and b is float16"),
    (dict(b=weight_gnk(k=K + 8)), ValueError, r"their K differ \(64 != 72\)"),
    (dict(a=Cai((2, T, K))), ValueError, "a has 3 modes"),
    (dict(b=Cai((K, N), ptr=B)), ValueError, "b has 2 modes"),
    (dict(b=weight_gnk(g=0), offs=Cai((0,), I32, OFFS)), ValueError, r"no group \(G = 0\)"),
    (dict(offs=Cai((G,), I64, OFFS)), ValueError, "offs is int64; the offsets are int32"),
    (dict(offs=Cai((G,), F32, OFFS)), ValueError, "offs is float32"),
    (dict(offs=Cai((G + 1,), I32, OFFS)), ValueError, r"offs has shape \(5,\); it is \(G,\) = \(4,\)"),
    (dict(offs=Cai((G, 1), I32, OFFS)), ValueError, r"offs has shape \(4, 1\)"),
    (dict(offs=Cai((G,), I32, OFFS, strides=(2,))), ValueError, "offs has stride 2"),
    (dict(offs=None), ValueError, "offs is None"),
    (dict(offs=np.zeros(G, np.int32)), ValueError, "offs is in CPU memory"),
    (dict(b=Cai((G, K, N), ptr=B, strides=(N * K + 8, 1, K))), ValueError, "dense weight per group"),
    (dict(b=Cai((G, K, N), ptr=B, strides=(N * K, N + 8, 1))), ValueError, "dense weight per group"),
    (dict(a=Cai((T, K), strides=(1, T))), ValueError, "a .* is not row-major"),
    (dict(a=Cai((T, K), strides=(-K, 1))), ValueError, "a has a negative stride"),
    (dict(out=Cai((T, N + 1), ptr=D)), ValueError, r"out has shape \(96, 49\); it is \(tokens, N\) = \(96, 48\)"),
    (dict(out=Cai((T - 1, N), ptr=D)), ValueError, r"out has shape \(95, 48\)"),
    (dict(out=Cai((T, N), F16, D)), ValueError, "out is float16; D is written in the inputs' type"),
    (dict(out=Cai((T, N), ptr=D, strides=(1, T))), ValueError, "out .* is not row-major"),
    (dict(out=Cai((T, N), ptr=D, readonly=True)), ValueError, "out is read-only"),
    (dict(out=Cai((T, N), ptr=A + 64)), ValueError, "out overlaps a"),
    (dict(out=Cai((T, N), ptr=OFFS - 64)), ValueError, "out overlaps offs"),
    (dict(beta=1.0), ValueError, "beta = 1.0 reads c, but c is None"),
    (dict(beta=1.0, c=Cai((T, N), F16, C)), ValueError, "c is float16 and D bfloat16"),
    (dict(beta=1.0, c=Cai((T, 2 * N), ptr=C)), ValueError, r"c has shape \(96, 96\)"),
    (dict(beta=1.0, c=Cai((T, N), ptr=D + 2 * N)), ValueError, "c overlaps out without being out"),
    (dict(alpha="2"), TypeError, "alpha is str"),
    (dict(alpha=True), TypeError, "alpha is bool"),
    (dict(beta=1e39, c=Cai((T, N), ptr=C)), ValueError, "does not fit in f32"),
    (dict(a=object()), TypeError, "a"),
    (dict(a=[Cai((T, K))], b=[Cai((K, N), ptr=B)]), ValueError,
     "offs is the contiguous form's, pass None"),
])
def test_python_refusals(launches, changes, error, text):
    with pytest.raises(error, match=text) as e:
        ts.gemm_grouped(**args(**changes))
    assert "tessera.gemm_grouped" in str(e.value)
    assert launches.calls == [], "refused before any launch"


# ---- refusals: the C++ API's check_grouped_arguments ----------------------------------------------

CXX_REFUSALS = [
    (dict(a=Cai((T, K), strides=(K + 4, 1))), "misaligned operand", "lda = 68 elements is not a multiple of 16 bytes"),
    (dict(out=Cai((T, N), ptr=D, strides=(N + 1, 1))), "misaligned operand", "ldd = 49 elements"),
    (dict(beta=1.0, c=Cai((T, N), ptr=C, strides=(N + 3, 1))), "misaligned operand", "ldc = 51 elements"),
    # (rows of A and D padded to 16 bytes: the weight's own rows are what is refused)
    (dict(a=Cai((T, 12), strides=(16, 1)), b=weight_gnk(k=12)), "misaligned operand", "the weights' K = 12 elements"),
    # (D's rows of 40 bytes, padded to 48: a TMA store of a row would write past it)
    (dict(b=weight_gkn(n=20), out=Cai((T, 20), ptr=D, strides=(24, 1))), "misaligned operand",
     "n = 20 is not a multiple of 16 bytes"),
    (dict(a=Cai((T, K), ptr=A + 2)), "misaligned operand", "must be 16-byte aligned"),
    (dict(b=weight_gnk(ptr=B + 8)), "misaligned operand", "must be 16-byte aligned"),
    (dict(b=weight_gnk(g=65537, n=8, k=8, ptr=2**40), a=Cai((T, 8)), out=Cai((T, 8), ptr=D),
          offs=Cai((65537,), I32, OFFS)),
     "invalid size", r"groups = 65537, expected 1 \.\. 65536"),
    (dict(a=Cai((2**31, 8), ptr=A), b=weight_gnk(n=8, k=8, ptr=2**40), out=Cai((2**31, 8), ptr=2**41)),
     "invalid size", "tokens = 2147483648"),
    # (no f16 kernel reads (G, K, N) weights: refused on the host, not by the device's dispatch)
    (dict(a=Cai((T, K), F16), b=weight_gkn(typestr=F16), out=Cai((T, N), F16, D)), "unsupported",
     r"no kernel for f16 with weights \(G, K, N\)"),
]


@pytest.mark.parametrize("changes, status, text", CXX_REFUSALS)
def test_cxx_refusals_are_gemm_errors_with_the_reason(unloaded, changes, status, text):
    with pytest.raises(ts.GemmError, match=text) as e:
        ts.gemm_grouped(**args(**changes))
    assert e.value.status == status and isinstance(e.value, ValueError)
    assert str(e.value) == f"{status}: {e.value.message}" and "gemm_grouped" in e.value.message
    assert unloaded.calls == [], "refused before any launch"


def test_the_cxx_check_passes_what_python_passes(unloaded):
    ts.gemm_grouped(**args())
    assert len(unloaded.calls) == 1


@pytest.mark.skipif(not ts.has_cuda, reason="the launch (tessera._gemm_cuda) is not built")
@pytest.mark.parametrize("changes, status, text", CXX_REFUSALS[:4])
def test_the_launch_checks_before_anything_else(changes, status, text):
    # run_grouped() itself: the C++ refusal comes first, before the devices are asked about the
    # (fake) pointers, so it is the same on any machine.
    from tessera import _gemm_cuda
    p = _gemm_grouped.plan(**args(**changes))
    got = _gemm_cuda.run_grouped(p.spec, 0, ())
    assert got[0] == status and text.split(" = ")[0] in got[1]


@pytest.mark.skipif(not ts.has_cuda, reason="the launch (tessera._gemm_cuda) is not built")
def test_the_launch_refuses_a_description_of_the_wrong_length():
    from tessera import _gemm_cuda
    with pytest.raises(TypeError, match="GROUPED_SPEC_FIELDS"):
        _gemm_cuda.run_grouped(_gemm_grouped.plan(**args()).spec[:-1], 0, ())


def no_gpu():
    if not ts.has_cuda:
        return True
    from tessera import _gemm_cuda
    return _gemm_cuda.device_count() == 0


@pytest.mark.skipif(not no_gpu(), reason="a GPU is present: fake pointers would reach it")
def test_valid_arguments_without_cuda_or_gpu_raise_runtime_error(monkeypatch):
    with pytest.raises(RuntimeError, match="built without CUDA" if not ts.has_cuda else "no CUDA device"):
        ts.gemm_grouped(**args())


# ---- the ptr-array form: lists of per-group arrays ----------------------------------------------

class ListLaunches:
    """_gemm_cuda as far as the list form sees it: records each run_grouped_list()."""

    def __init__(self):
        self.calls = []

    def run_grouped_list(self, header, records, stream, waits):
        self.calls.append((header, records, stream, waits))
        return "", ""


@pytest.fixture
def list_launches(monkeypatch):
    fake = ListLaunches()
    monkeypatch.setattr(_gemm, "_cuda_module", fake)
    return fake


def unpack(header, records):
    """(shapes, pointers a/b/c/d, leading dimensions a/b/c/d) of a list launch's records (the
    bias pointers that follow: unpack_bias)."""
    import array
    g = header[0]
    shapes = array.array("i")
    shapes.frombytes(records[:12 * g])
    ptrs = array.array("Q")
    ptrs.frombytes(records[12 * g:12 * g + 32 * g])
    lds = array.array("q")
    lds.frombytes(records[44 * g:76 * g])
    assert len(records) == 84 * g
    return ([tuple(shapes[3 * i:3 * i + 3]) for i in range(g)], [list(ptrs[i * g:(i + 1) * g]) for i in range(4)],
            [list(lds[i * g:(i + 1) * g]) for i in range(4)])


def unpack_bias(header, records):
    """The G bias pointers of a list launch's records (0: no bias for that group)."""
    import array
    g = header[0]
    ptrs = array.array("Q")
    ptrs.frombytes(records[76 * g:])
    return list(ptrs)


# Three groups of their own sizes (one empty), A padded, B column-major (a weight (N, K) seen transposed).
LIST = dict(
    a=[Cai((100, 64), ptr=0x100000, strides=(72, 1)), Cai((0, 32), ptr=0), Cai((7, 16), ptr=0x110000)],
    b=[Cai((64, 48), ptr=0x200000, strides=(1, 64)), Cai((32, 24), ptr=0x210000, strides=(1, 32)),
       Cai((16, 8), ptr=0x220000, strides=(1, 16))],
    out=[Cai((100, 48), ptr=0x400000), Cai((0, 24), ptr=0), Cai((7, 8), ptr=0x410000)])


def list_args(**changes):
    x = {k: list(v) for k, v in LIST.items()}
    for key, value in changes.items():
        if isinstance(key, str) and "_" in key and key.split("_")[0] in x:
            name, g = key.split("_")
            x[name][int(g)] = value
        else:
            x[key] = value
    return x


def test_lists_are_the_ptr_array_form(list_launches):
    ts.gemm_grouped(**list_args(), alpha=2.0)
    (header, records, stream, waits), = list_launches.calls
    assert header == (3, "bf16", "col", 2.0, 0.0, "identity", "none") and tuple(ts._core.GROUPED_LIST_FIELDS) == (
        "groups", "element", "b_major", "alpha", "beta", "activation", "bias")
    assert unpack_bias(header, records) == [0, 0, 0]
    shapes, ptrs, lds = unpack(header, records)
    assert shapes == [(100, 48, 64), (0, 24, 32), (7, 8, 16)]
    assert ptrs == [[0x100000, 0, 0x110000], [0x200000, 0x210000, 0x220000], [0, 0, 0], [0x400000, 0, 0x410000]]
    assert lds[0] == [72, 32, 16] and lds[1] == [64, 32, 16] and lds[3] == [48, 24, 8]
    assert ts._core.check_grouped_list_arguments(header) == ("", "")


def test_lists_take_row_major_weights_and_c(list_launches):
    b = [Cai((64, 48), ptr=0x200000), Cai((32, 24), ptr=0x210000), Cai((16, 8), ptr=0x220000)]
    c = [Cai((100, 48), ptr=0x500000), Cai((0, 24), ptr=0), Cai((7, 8), ptr=0x510000)]
    ts.gemm_grouped(**list_args(b=b), beta=1.0, c=c)
    header, records, _, _ = list_launches.calls[-1]
    _, ptrs, lds = unpack(header, records)
    assert header[2] == "row" and lds[1] == [48, 24, 8] and ptrs[2] == [0x500000, 0, 0x510000]


def test_lists_out_none_allocates_each_groups_d(list_launches, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(bfloat16="torch.bfloat16"))
    a = [TorchLike((5, 16)), TorchLike((9, 16))]
    b = [Cai((16, 24), ptr=0x200000, strides=(1, 16)), Cai((16, 8), ptr=0x210000, strides=(1, 16))]
    monkeypatch.setattr(_gemm, "_cuda_module", None)
    monkeypatch.setattr(_gemm, "_cuda", lambda *x: list_launches)
    d = ts.gemm_grouped(a, b)
    assert [x.asked for x in d] == [((5, 24), (24, 1), "torch.bfloat16"), ((9, 8), (8, 1), "torch.bfloat16")]
    header, records, _, _ = list_launches.calls[-1]
    assert header[2] == "col" and unpack(header, records)[2][3] == [24, 8]


@pytest.mark.parametrize("changes, error, text", [
    (dict(b=LIST["b"][:2]), ValueError, "a holds 3 groups and b 2"),
    (dict(out=LIST["out"][0]), TypeError, "so out is one too"),
    (dict(a=[], b=[], out=[]), ValueError, "no group"),
    (dict(b_1=Cai((31, 24), ptr=0x210000, strides=(1, 31))), ValueError, r"a\[1\] is 0x32 and b\[1\] 31x24"),
    (dict(a_2=Cai((7, 16), F16, 0x110000)), ValueError, r"a\[2\] is float16 and a\[0\] bfloat16"),
    (dict(b_2=Cai((16, 8), ptr=0x220000)), ValueError, "one major"),
    (dict(b_0=Cai((64, 48), ptr=0x200000, strides=(2, 128))), ValueError, "neither mode contiguous"),
    (dict(out_2=Cai((8, 8), ptr=0x410000)), ValueError, r"out\[2\] has shape \(8, 8\); group 2's product is 7x8"),
    (dict(out_0=Cai((100, 48), ptr=0x100000 + 64)), ValueError, r"out\[0\] overlaps a\[0\]"),
    (dict(a_0=Cai((100, 64), strides=(1, 100))), ValueError, r"a\[0\] .* is not row-major"),
    (dict(beta=1.0), ValueError, "c is None"),
])
def test_list_python_refusals(list_launches, changes, error, text):
    kw = {k: v for k, v in changes.items() if k == "beta"}
    with pytest.raises(error, match=text):
        ts.gemm_grouped(**list_args(**{k: v for k, v in changes.items() if k != "beta"}), **kw)
    assert list_launches.calls == []


@pytest.mark.parametrize("changes, status, text", [
    (dict(a_0=Cai((100, 64), ptr=0x100000, strides=(68, 1))), "misaligned operand",
     r"a\[0\]'s leading dimension 68 elements is not a multiple of 16 bytes"),
    (dict(b_2=Cai((16, 8), ptr=0x220002, strides=(1, 16))), "misaligned operand", r"b\[2\] = 0x220002 is not 16-byte"),
    (dict(out_0=Cai((100, 48), ptr=0x400000, strides=(52, 1))), "misaligned operand", r"out\[0\]'s leading dimension 52"),
    (dict(a_2=Cai((7, 12), ptr=0x110000, strides=(12, 1)), b_2=Cai((12, 8), ptr=0x220000, strides=(1, 12))),
     "misaligned operand", r"a\[2\]'s leading dimension 12"),
    # (an N of 24 bytes in rows padded to 32: D's TMA stores would write the padding)
    (dict(b_2=Cai((16, 12), ptr=0x220000, strides=(1, 16)), out_2=Cai((7, 12), ptr=0x410000, strides=(16, 1))),
     "misaligned operand", r"group 2's N = 12 is not a multiple of 16 bytes"),
])
def test_list_alignment_is_refused_before_the_device_would_skip_the_group(list_launches, changes, status, text):
    with pytest.raises(ts.GemmError, match=text) as e:
        ts.gemm_grouped(**list_args(**changes))
    assert e.value.status == status and list_launches.calls == []


def test_an_empty_groups_pointers_are_not_checked(list_launches):
    # group 1 is empty: its (null, unaligned) operands are never read
    ts.gemm_grouped(**list_args(b_1=Cai((32, 24), ptr=0x210002, strides=(1, 32))))
    assert len(list_launches.calls) == 1


def test_list_groups_past_the_cxx_limit_are_refused_by_the_cxx_check(monkeypatch):
    fake = ListLaunches()
    monkeypatch.setattr(_gemm, "_cuda_module", None)
    monkeypatch.setattr(_gemm, "_cuda", lambda *x: fake)
    n = 65537
    with pytest.raises(ts.GemmError, match="groups = 65537") as e:
        ts.gemm_grouped([Cai((0, 8), ptr=0)] * n, [Cai((8, 8), ptr=0x200000)] * n, out=[Cai((0, 8), ptr=0)] * n)
    assert e.value.status == "invalid size" and fake.calls == []


@pytest.mark.skipif(not ts.has_cuda, reason="the launch (tessera._gemm_cuda) is not built")
def test_the_list_launch_checks_its_records():
    from tessera import _gemm_cuda
    assert _gemm_cuda.run_grouped_list((0, "bf16", "col", 1.0, 0.0, "identity", "none"), b"", 0, ())[0] == "invalid size"
    with pytest.raises(TypeError, match="84 per group"):
        _gemm_cuda.run_grouped_list((2, "bf16", "col", 1.0, 0.0, "identity", "none"), b"\0" * 83, 0, ())


# ---- the fused epilogue: activation and bias ------------------------------------------------------

BIAS = 0x600000


def test_the_fused_epilogue_in_the_contiguous_description(launches):
    ts.gemm_grouped(**args(), bias=Cai((G, N), ptr=BIAS), activation="gelu")
    s = _gemm_grouped.spec_dict(launches.calls[-1][0])
    assert (s["activation"], s["bias"], s["bias_ptr"], s["bias_stride"]) == ("gelu", "per-column", BIAS, N)
    assert ts._core.check_grouped_arguments(launches.calls[-1][0]) == ("", "")
    # rows of the bias further apart (a slice of a wider tensor), and no bias at all
    ts.gemm_grouped(**args(), bias=Cai((G, N), ptr=BIAS, strides=(N + 16, 1)), activation="silu")
    s = _gemm_grouped.spec_dict(launches.calls[-1][0])
    assert (s["activation"], s["bias_stride"]) == ("silu", N + 16)
    ts.gemm_grouped(**args(), activation="relu")
    s = _gemm_grouped.spec_dict(launches.calls[-1][0])
    assert (s["activation"], s["bias"], s["bias_ptr"]) == ("relu", "none", 0)
    ts.gemm_grouped(**args())
    s = _gemm_grouped.spec_dict(launches.calls[-1][0])
    assert (s["activation"], s["bias"]) == ("identity", "none")


@pytest.mark.parametrize("activation", [None, "relu", "gelu", "gelu_tanh", "silu"])
def test_every_activation_passes_the_cxx_check(unloaded, activation):
    ts.gemm_grouped(**args(), bias=Cai((G, N), ptr=BIAS), activation=activation)
    assert _gemm_grouped.spec_dict(unloaded.calls[-1][0])["activation"] == (activation or "identity")


@pytest.mark.parametrize("changes, error, text", [
    (dict(activation="tanh"), ValueError, "activation 'tanh' is none of None, 'relu'"),
    (dict(activation=1), ValueError, "activation 1 is none of"),
    (dict(bias=Cai((G, N + 1), ptr=BIAS)), ValueError, r"bias has shape \(4, 49\); it is \(G, N\) = \(4, 48\)"),
    (dict(bias=Cai((N,), ptr=BIAS)), ValueError, r"bias has shape \(48,\)"),
    (dict(bias=Cai((G, N), F16, BIAS)), ValueError, "bias is float16 and D bfloat16"),
    (dict(bias=Cai((G, N), ptr=BIAS, strides=(1, G))), ValueError, "bias .* is not row-major"),
    (dict(bias=Cai((G, N), ptr=BIAS, strides=(0, 1))), ValueError, "its rows overlap"),
    (dict(bias=Cai((G, N), ptr=D + 2 * N)), ValueError, "out overlaps bias"),
])
def test_fused_python_refusals(launches, changes, error, text):
    with pytest.raises(error, match=text):
        ts.gemm_grouped(**args(), **changes)
    assert launches.calls == []


@pytest.mark.parametrize("changes, kw, status, text", [
    # f16 and (G, K, N) weights take the plain epilogue only; beta needs the plain epilogue
    (dict(a=Cai((T, K), F16), b=weight_gnk(typestr=F16), out=Cai((T, N), F16, D)),
     dict(activation="gelu"), "unsupported", "runs bf16 only, not f16"),
    (dict(b=weight_gkn()), dict(activation="relu"), "unsupported", r"needs weights \(G, N, K\)"),
    (dict(b=weight_gkn()), dict(bias=Cai((G, N), ptr=BIAS)), "unsupported", r"needs weights \(G, N, K\)"),
    (dict(), dict(activation="silu", beta=1.0, c=Cai((T, N), ptr=C)), "unsupported", "takes beta = 0"),
    (dict(), dict(bias=Cai((G, N), ptr=BIAS + 1)), "misaligned operand", "bias is not aligned to its element"),
])
def test_fused_cxx_refusals_are_gemm_errors_with_the_reason(unloaded, changes, kw, status, text):
    with pytest.raises(ts.GemmError, match=text) as e:
        ts.gemm_grouped(**args(**changes), **kw)
    assert e.value.status == status and unloaded.calls == []


def test_the_list_form_takes_a_bias_per_group_with_none_entries(list_launches):
    bias = [Cai((48,), ptr=0x600000), None, Cai((8,), ptr=0x610000)]
    ts.gemm_grouped(**list_args(), bias=bias, activation="gelu_tanh")
    header, records, _, _ = list_launches.calls[-1]
    assert header[5:] == ("gelu_tanh", "per-column")
    assert unpack_bias(header, records) == [0x600000, 0, 0x610000]
    assert ts._core.check_grouped_list_arguments(header) == ("", "")
    ts.gemm_grouped(**list_args(), activation="silu")
    header, records, _, _ = list_launches.calls[-1]
    assert header[5:] == ("silu", "none") and unpack_bias(header, records) == [0, 0, 0]


@pytest.mark.parametrize("bias, error, text", [
    ([Cai((48,), ptr=0x600000), None], ValueError, "a holds 3 groups and bias 2"),
    ([Cai((47,), ptr=0x600000), None, None], ValueError, r"bias\[0\] has shape \(47,\); it is \(N,\) = \(48,\)"),
    ([None, None, Cai((8,), F16, 0x610000)], ValueError, r"bias\[2\] is float16 and D bfloat16"),
    ([Cai((48,), ptr=0x600000, strides=(2,)), None, None], ValueError, r"bias\[0\] has stride 2"),
    ([Cai((48,), ptr=0x400000 + 16), None, None], ValueError, r"out\[0\] overlaps bias\[0\]"),
    (Cai((3, 48), ptr=0x600000), TypeError, "so bias is one too"),
])
def test_list_bias_refusals(list_launches, bias, error, text):
    with pytest.raises(error, match=text):
        ts.gemm_grouped(**list_args(), bias=bias)
    assert list_launches.calls == []


def test_the_list_forms_fused_refusals_are_the_cxx_checks(monkeypatch):
    fake = ListLaunches()
    monkeypatch.setattr(_gemm, "_cuda_module", None)
    monkeypatch.setattr(_gemm, "_cuda", lambda *x: fake)
    b = [Cai((64, 48), ptr=0x200000), Cai((32, 24), ptr=0x210000), Cai((16, 8), ptr=0x220000)]  # row-major B_g
    with pytest.raises(ts.GemmError, match=r"needs weights \(G, N, K\)") as e:
        ts.gemm_grouped(**list_args(b=b), activation="relu")
    assert e.value.status == "unsupported" and fake.calls == []
    ts.gemm_grouped(**list_args(), activation="relu")
    assert len(fake.calls) == 1
