"""Rating pages: the leaderboard of each game id (with a game picker) and the
partnerships of a team game.  What they read is in ratings/leaderboards.py; the
ratings hold only what public games give, so every viewer sees the same."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings.leaderboards import (
    PARTNER_ORDERS,
    Board,
    game_title,
    leaderboard,
    partnership_rows,
    partnership_sizes,
    partnerships,
    rated_games,
    team_game,
)
from replay import registry

ROWS_PER_PAGE = 50
#: the largest "at least N games" the filter takes
MAX_MIN_GAMES = 10_000


def _min_games(request: HttpRequest) -> int:
    """The ``min`` filter: a whole number of games, 1 when missing or unreadable."""
    try:
        value = int(request.GET.get("min", "1"))
    except ValueError:
        return 1
    return max(1, min(value, MAX_MIN_GAMES))


def _board(boards: list[Board], game: str | None) -> Board | None:
    """The board of ``game`` (the first when none is asked for; an empty one for a
    known game id without ratings yet); Http404 for a game id nobody plays."""
    if not game:
        return boards[0] if boards else None
    found = next((b for b in boards if b.game == game), None)
    if found is not None:
        return found
    if registry.get(game) is None:
        raise Http404("no such game")
    return Board(game, game_title(game), 0, 0, team_game(game), None, 0)


@require_GET
def ratings_view(request: HttpRequest) -> HttpResponse:
    boards = rated_games()
    board = _board(boards, request.GET.get("game"))
    min_games = _min_games(request)
    choices = boards if board is None or board in boards else [*boards, board]
    context: dict[str, object] = {"boards": choices, "board": board, "min_games": min_games}
    if board is not None:
        paginator = Paginator(leaderboard(game=board.game, min_games=min_games), ROWS_PER_PAGE)
        page = paginator.get_page(request.GET.get("page"))
        context["page"] = page
        context["page_range"] = paginator.get_elided_page_range(page.number, on_each_side=2)
    return render(request, "ratings/ratings.html", context)


@require_GET
def partners_view(request: HttpRequest, game: str) -> HttpResponse:
    if not team_game(game):
        raise Http404("that game has no teams")
    board = _board(rated_games(), game)
    sizes = partnership_sizes(game=game)
    try:
        size = int(request.GET.get("size", "2"))
    except ValueError:
        size = 2
    if size not in sizes:
        size = sizes[0] if sizes else 2
    order = request.GET.get("order", "games")
    order = order if order in PARTNER_ORDERS else "games"
    min_games = _min_games(request)
    found = partnerships(game=game, size=size, min_games=min_games, order=order)
    paginator = Paginator(found, ROWS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    context = {
        "board": board,
        "sizes": sizes,
        "size": size,
        "order": order,
        "min_games": min_games,
        "page": page,
        "page_range": paginator.get_elided_page_range(page.number, on_each_side=2),
        "rows": partnership_rows(list(page.object_list), game=game),
    }
    return render(request, "ratings/ratings_partners.html", context)
