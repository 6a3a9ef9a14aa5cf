"""ratings.plackett_luce gives exactly OpenSkill's Plackett–Luce doubles (the ratings
store the floats a run computes: a difference in the last bit would make an update on
top differ from a rebuild done with OpenSkill)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ratings import plackett_luce
from ratings.plackett_luce import Skill

MODEL = PlackettLuce()

skill = st.tuples(
    st.floats(min_value=-20, max_value=70, allow_nan=False),
    st.floats(min_value=0.01, max_value=12, allow_nan=False),
)
table = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(skill, min_size=1, max_size=3), min_size=n, max_size=n),
        st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n),
    )
)


def openskill(teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    objects = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in t] for t in teams]
    return [[(r.mu, r.sigma) for r in t] for t in MODEL.rate(objects, ranks=list(ranks))]


@settings(max_examples=500, deadline=None)
@given(table=table)
def test_the_same_doubles_as_openskill(table: tuple[list[list[Skill]], list[int]]) -> None:
    teams, ranks = table
    assert plackett_luce.rate(MODEL, teams, ranks) == openskill(teams, ranks)


def test_ties_teams_and_newcomers_as_openskill() -> None:
    fresh = (MODEL.mu, MODEL.sigma)
    for teams, ranks in [
        ([[fresh], [fresh]], [1, 1]),
        ([[fresh], [(30.0, 4.0)], [fresh]], [2, 1, 2]),
        ([[fresh, (27.5, 6.0)], [(20.0, 3.0), fresh, (25.0, 1.0)]], [1, 2]),
        ([[(25.0, 8.0)]] * 5, [3, 1, 2, 1, 5]),
    ]:
        assert plackett_luce.rate(MODEL, teams, ranks) == openskill(teams, ranks)


def test_only_the_default_model_is_computed_here() -> None:
    assert plackett_luce.supports(MODEL)
    assert not plackett_luce.supports(PlackettLuce(limit_sigma=True))
    assert not plackett_luce.supports(PlackettLuce(balance=True))
    assert not plackett_luce.supports(PlackettLuce(gamma=lambda *a: 1.0))
