"""``/games/<id>/costs.json?record=``: what each card played in an escalative-tricks game
cost against best play, for the marks of the game page's move list (static/js/costs.js),
as BBO's double-dummy analysis marks a bridge hand's cards.

The solver (replay/games/_tricks_solver*.py) knows every hand, so the marks are drawn
only in the "everything" view (a seat's view must not learn the others' cards from
them); the data itself is the game's, read by whoever may see the game.  Solving a whole
game takes about a second on this project's machine, within ``BUDGET_S``: a card the
budget did not reach says so (``cost`` null) rather than guess.  An answer with every
card solved is kept in the cache under the record's replay key (viewer/cache.py), so a
game is solved once per engine and code version.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from records.models import Record
from records.selectors import stored_record
from replay.games._tricks_solver_costs import GAME, card_costs
from replay.record import seat_letter
from viewer.asked import asked
from viewer.cache import cache_key

#: seconds one game's costs may take to solve in all
BUDGET_S = 6.0


def costs_url(record: Record, *, game: str, keep_record: bool) -> str | None:
    """The costs' address for a game page, None for a game the solver does not play."""
    if game != GAME:
        return None
    url = reverse("viewer:game-costs", args=[record.game_id])
    return f"{url}?record={record.pk}" if keep_record else url


def costs_data(record: Record, *, budget_s: float | None = None) -> dict[str, Any]:
    """``{"exact": bool, "moves": [{"step", "seat", "card", "best", "played", "cost"}]}``:
    ``step`` is the move's step (after the card is played, as the move list numbers it),
    ``best`` the most raw points the seat could be sure of before it, ``played`` what
    this card is sure of, ``cost`` their difference (0: a best card).  ``budget_s``:
    seconds in all (``BUDGET_S`` unless given)."""
    parsed = stored_record(record)
    if parsed is None or parsed.game != GAME:
        return {"exact": True, "moves": []}
    found = card_costs(parsed, budget_s=BUDGET_S if budget_s is None else budget_s)
    return {
        "exact": all(c.solved for c in found),
        "moves": [
            {
                "step": c.step + 1,
                "seat": seat_letter(c.seat),
                "card": c.card,
                "best": c.best,
                "played": c.played,
                "cost": c.cost,
            }
            for c in found
        ],
    }


@require_GET
def game_costs(request: HttpRequest, pk: int) -> JsonResponse:
    a = asked(request, pk, user=request.user)  # Http404 for a game the user may not see
    if a.game.game != GAME:
        raise Http404("best play is solved for escalative-tricks games only")
    key = cache_key("costs", a.record)
    data = cache.get(key)
    if data is None:
        data = costs_data(a.record)
        if data["exact"]:
            cache.set(key, data, settings.KIBITZ_REPLAY_CACHE_SECONDS)
    response = JsonResponse(data)
    response["Cache-Control"] = "private, max-age=300"
    return response
