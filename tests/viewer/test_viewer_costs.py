"""``/games/<id>/costs.json``: what each card played in an escalative-tricks game cost
against best play (viewer/costs.py), and the game page's address of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from records.models import Visibility
from records.selectors import stored_record
from replay.games._tricks_notation import Play
from replay.games._tricks_solver import solve
from replay.games._tricks_solver_costs import state_at
from replay.record import seat_letter
from viewer import costs

pytestmark = pytest.mark.django_db

GAME = "escalative-tricks"


@pytest.fixture(autouse=True)
def ample_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time enough for every card to be solved, however loaded the machine."""
    monkeypatch.setattr(costs, "BUDGET_S", 120.0)
    cache.clear()


def _tricks(kgn: Any, seed: int) -> str:
    text: str = kgn.write(kgn.records(1, seed=seed, game=GAME))
    return text


def test_every_card_played_has_its_cost_against_the_solver(
    client: Client, upload_factory: Any, kgn: Any
) -> None:
    row = upload_factory(text=_tricks(kgn, seed=41)).records.get()
    response = client.get(f"/games/{row.game_id}/costs.json")
    assert response.status_code == 200
    data = response.json()
    parsed = stored_record(row)
    assert parsed is not None
    plays = [k for k, a in enumerate(parsed.actions) if isinstance(a.move, Play)]
    assert [m["step"] for m in data["moves"]] == [k + 1 for k in plays]
    assert data["exact"] is True
    for m in data["moves"][-8:]:  # the solver itself on the cheap late positions
        k = m["step"] - 1
        solution = solve(state_at(parsed, k), budget_s=60.0)
        move = parsed.actions[k].move
        assert isinstance(move, Play)
        assert m["card"] == move.card.code
        assert m["seat"] == seat_letter(parsed.actions[k].seat)
        assert m["best"] == solution.best
        assert m["played"] == solution.value_of(move.card.code).value
        assert m["cost"] == m["best"] - m["played"] >= 0
    assert all(m["cost"] is not None and m["cost"] >= 0 for m in data["moves"])


def test_the_page_points_at_the_costs_of_a_tricks_game_only(
    client: Client, upload_factory: Any, kgn: Any
) -> None:
    tricks = upload_factory(text=_tricks(kgn, seed=44)).records.get()
    page = client.get(f"/games/{tricks.game_id}/").content.decode()
    assert f'data-costs="/games/{tricks.game_id}/costs.json"' in page
    assert "js/costs" in page
    pierce = upload_factory(text=kgn.valid(1, seed=43)).records.get()
    other = client.get(f"/games/{pierce.game_id}/").content.decode()
    assert "data-costs" not in other
    assert client.get(f"/games/{pierce.game_id}/costs.json").status_code == 404
    embed = client.get(f"/games/{tricks.game_id}/embed/").content.decode()
    assert "data-costs" not in embed


def test_a_private_game_is_a_404_to_others_and_solved_for_its_owner(
    client: Client, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    owner = user_factory("owner")
    row = upload_factory(
        owner=owner, text=_tricks(kgn, seed=42), visibility=Visibility.PRIVATE
    ).records.get()
    url = f"/games/{row.game_id}/costs.json"
    assert client.get(url).status_code == 404
    client.force_login(user_factory("other"))
    assert client.get(url).status_code == 404
    client.force_login(owner)
    assert client.get(url).status_code == 200
    assert client.get("/games/999999/costs.json").status_code == 404


def test_an_unfinished_solve_says_so_and_is_not_kept(
    client: Client, upload_factory: Any, kgn: Any
) -> None:
    row = upload_factory(text=_tricks(kgn, seed=45)).records.get()
    data = costs.costs_data(row, budget_s=0.0)
    assert data["exact"] is False
    assert all(m["cost"] is None and m["best"] is None for m in data["moves"])
