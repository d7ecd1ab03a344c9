"""Properties of the bindings with hypothesis (tessera.strategies): what the algebra promises
holds on the Python objects, text round-trips, every refusal is a tessera.Error (never a
crash, never another exception), and integers past 64 bits are never wrapped."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tessera as ts
from tessera.strategies import compact_layouts, dividing_tilers, layouts, swizzled_layouts

settings.register_profile("tessera", max_examples=150, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile("tessera")


def offsets(L):
    return [L(i) for i in range(ts.size(L))]


@given(layouts(negative=True))
def test_text_round_trip(L):
    assert ts.parse(str(L)) == L
    assert ts.Layout(str(L)) == L
    assert ts.eval(str(L)) == L
    assert eval(repr(L), {"Layout": ts.Layout}) == L
    assert ts.to_dict(L)["text"] == str(L)


@given(layouts(negative=True))
def test_call_is_crd2idx_of_idx2crd(L):
    for i in range(min(ts.size(L), 64)):
        c = ts.idx2crd(i, L.shape)
        assert L(i) == L(c) == ts.crd2idx(c, L)


@given(layouts())
def test_coalesce_and_filter_keep_the_function(L):
    C = ts.coalesce(L)
    assert ts.equal_as_functions(C, L) and ts.size(C) == ts.size(L)
    assert ts.depth(C) <= 1
    assert sorted(set(offsets(ts.filter(L)))) == sorted(set(offsets(L)))


@given(layouts(max_size=256), layouts(max_size=64))
def test_composition_is_function_composition_or_refused(A, B):
    try:
        R = ts.composition(A, B)
    except ts.InadmissibleError as e:
        assert e.message
        return
    for i in range(ts.size(R)):
        assert R(i) == A(B(i)) if B(i) < ts.size(A) else True


@given(compact_layouts(max_size=512))
def test_inverses_of_bijections(L):
    R, Li = ts.right_inverse(L), ts.left_inverse(L)
    for i in range(ts.size(L)):
        assert L(R(i)) == i
        assert Li(L(i)) == i


@given(compact_layouts(max_size=256), st.integers(1, 4))
def test_complement_fills_the_codomain(L, k):
    n = ts.cosize(L) * k
    C = ts.complement(L, n)
    both = ts.make_layout(L, C)
    assert sorted(offsets(both)) == list(range(ts.size(both)))


@given(compact_layouts(max_size=512).flatmap(lambda L: st.tuples(st.just(L), dividing_tilers(L))))
def test_logical_divide_is_a_regrouping(arg):
    L, tiler = arg
    D = ts.logical_divide(L, tiler)
    assert ts.size(D) == ts.size(L)
    assert sorted(offsets(D)) == sorted(offsets(L))
    Z = ts.zipped_divide(L, tiler)
    assert [ts.size(Z, [0, i]) for i in range(len(tiler))] == list(tiler)  # the tile, mode by mode


@given(swizzled_layouts(max_size=512))
def test_swizzled_layouts_apply_the_swizzle_last(S):
    sw, L = S.inner, S.outer
    for i in range(min(ts.size(S), 128)):
        assert S(i) == sw(S.offset + L(i))
    assert ts.parse(str(S)) == S


@given(st.lists(st.integers(), min_size=1, max_size=3), st.sampled_from(list(ts.functions())))
def test_any_integers_in_any_function_never_crash(ints, fn):
    try:
        ts._core.call(fn[0], *ints)
    except ts.Error:
        pass


@given(st.one_of(st.integers(min_value=2**63), st.integers(max_value=-2**63)),
       st.sampled_from(["shape", "stride", "index"]))
def test_integers_past_64_bits_are_refused(big, where):
    try:
        if where == "shape":
            ts.make_layout((2, big))
        elif where == "stride":
            ts.make_layout((2, 2), stride=(1, big))
        else:
            ts.make_layout(8)(big)
    except ts.IntegerOverflowError:
        return
    raise AssertionError(f"{big} was accepted")
