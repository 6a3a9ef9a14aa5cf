"""Properties of the wild-escape play classifier over random plays from the pack
(Hypothesis): a play reads the same in any order or is refused, and ``beats`` is
irreflexive, antisymmetric and transitive.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay.games._wild_combos import (
    Combo,
    ComboError,
    FiveOrder,
    FlushCompare,
    check_declaration,
    classify,
)
from tests.engine._helpers_wild_combos import (
    COMPARES,
    JOKER_CODES,
    ORDERS,
    PACK,
    RANKS,
    STANDARD,
    SUITS,
    Played,
)


# --- properties ---------------------------------------------------------------------------
def _declare(code: str, candidate: str) -> str | None:
    """``candidate`` if the rules let ``code`` declare it, else None (undeclared)."""
    try:
        check_declaration(code, candidate)
    except ComboError:
        return None
    return candidate


@st.composite
def pack_plays(draw: st.DrawFn, size: int = 5) -> list[Played]:
    """``size`` distinct cards of the 162-card pack, drawn from a random sub-pack (some
    ranks, or five in a row, and some suits, plus all jokers, so that many draws make a
    combination); each joker
    may declare a random card, kept only when check_declaration allows it."""
    runs = [RANKS[i : i + 5] for i in range(len(RANKS) - 4)] + ["A2345"]
    ranks = draw(
        st.one_of(
            st.lists(st.sampled_from(RANKS), min_size=1, max_size=13, unique=True),
            st.sampled_from(runs),  # five ranks in a row: straights come up often
        )
    )
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
    pool = [c for c in PACK if c in JOKER_CODES or (c[0] in ranks and c[1] in suits)]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    out: list[Played] = []
    for i in picks:
        code = pool[i]
        declared = None
        if code in JOKER_CODES and draw(st.booleans()):
            declared = _declare(code, draw(st.sampled_from(STANDARD + JOKER_CODES)))
        out.append((code, declared))
    return out


def _try(cards: list[Played], trump: str, order: FiveOrder, compare: FlushCompare) -> Combo | None:
    """The reading, or None for a ComboError (any other exception fails the test)."""
    try:
        return classify(cards, trump=trump, order=order, compare=compare)
    except ComboError:
        return None


@settings(max_examples=400, deadline=None)
@given(
    cards=pack_plays(),
    trump=st.sampled_from(RANKS),
    order=st.sampled_from(ORDERS),
    compare=st.sampled_from(COMPARES),
    data=st.data(),
)
def test_random_five_card_play_reads_the_same_in_any_order_or_is_refused(
    cards: list[Played],
    trump: str,
    order: FiveOrder,
    compare: FlushCompare,
    data: st.DataObject,
) -> None:
    combo = _try(cards, trump, order, compare)
    shuffled = data.draw(st.permutations(cards), label="shuffled")
    again = _try(shuffled, trump, order, compare)
    if combo is None:
        assert again is None
        return
    assert again is not None
    assert combo.size == 5
    assert (again.kind, again.key) == (combo.kind, combo.key)
    assert not combo.beats(again) and not again.beats(combo)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    a=pack_plays(),
    b=pack_plays(),
    c=pack_plays(),
    trump=st.sampled_from(RANKS),
    order=st.sampled_from(ORDERS),
    compare=st.sampled_from(COMPARES),
)
def test_beats_is_irreflexive_antisymmetric_and_transitive_over_random_plays(
    a: list[Played],
    b: list[Played],
    c: list[Played],
    trump: str,
    order: FiveOrder,
    compare: FlushCompare,
) -> None:
    ca, cb, cc = (_try(x, trump, order, compare) for x in (a, b, c))
    assume(ca is not None and cb is not None)
    assert ca is not None and cb is not None
    assert not ca.beats(ca) and not cb.beats(cb)
    assert not (ca.beats(cb) and cb.beats(ca))
    if cc is not None and ca.beats(cb) and cb.beats(cc):
        assert ca.beats(cc)


@settings(max_examples=200, deadline=None)
@given(
    size=st.sampled_from([1, 2, 3]),
    trump=st.sampled_from(RANKS),
    data=st.data(),
)
def test_random_small_plays_are_irreflexive_antisymmetric_and_order_free(
    size: int, trump: str, data: st.DataObject
) -> None:
    a = data.draw(pack_plays(size), label="a")
    b = data.draw(pack_plays(size), label="b")
    ca, cb = _try(a, trump, "seed", "high"), _try(b, trump, "seed", "high")
    if ca is not None:
        assert not ca.beats(ca)
        again = _try(list(reversed(a)), trump, "seed", "high")
        assert again is not None and again.key == ca.key
    if ca is not None and cb is not None:
        assert not (ca.beats(cb) and cb.beats(ca))
