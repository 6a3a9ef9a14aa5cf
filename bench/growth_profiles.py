"""The growth archive's profile aggregates (players/models.py): what the ingest's
hook (``players.aggregates.profiles_touch``) would have written for the derived games,
computed as they are made (each derived game's rows are its pool game's, its players
replaced) and bulk-loaded with the rest.  tests/bench/test_growth.py checks them against
``players.aggregates.profiles_rebuild``."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

#: the columns of the three tables after their id (ProfileKind's: player, kind, then these);
#: written out, for this module is imported outside Django too (bench.growth reads the
#: data version); tests/bench/test_growth.py checks them against players.aggregates
PROFILE_GAME = (
    "player_id",
    "game_id",
    "kind",
    "created_at",
    "finished",
    "seat",
    "name",
    "seats",
    "place",
    "score",
    "won",
    "team",
    "team_game",
    "draw",
)
KIND_FIELDS = (
    "played",
    "games",
    "team_games",
    "wins",
    "draws",
    "place_sum",
    "score_sum",
    "scored",
    "places",
    "sizes",
)
PAIR_FIELDS = (
    "rival_games",
    "ahead",
    "behind",
    "level",
    "rival_name",
    "rival_at",
    "rival_game",
    "partner_games",
    "partner_wins",
    "partner_draws",
    "partner_name",
    "partner_at",
    "partner_game",
)
__all__ = ["KIND_FIELDS", "PAIR_FIELDS", "PROFILE_GAME", "Profiles"]


class Profiles:
    """The aggregates of the derived public games: their ProfileGame rows written as
    they come, the sums written at the end (:meth:`write`)."""

    def __init__(self, ids: dict[str, int], pool: dict[int, list[Any]]) -> None:
        self.ids = {t: ids[t] for t in ids if t.startswith("players_profile")}
        self.pool = pool
        self.kinds: dict[tuple[int, str], Any] = {}  # KindSums
        self.pairs: dict[tuple[int, int], Any] = {}  # PairSums

    def _id(self, table: str) -> int:
        self.ids[table] += 1
        return self.ids[table] - 1

    def game(
        self,
        copier: Any,
        template: dict[str, Any],
        game_id: int,
        created_at: datetime,
        who: list[int],
        players_text: str,
    ) -> None:
        """A derived public game: its rows (ProfileGame) and what they add to the sums."""
        from players.aggregates import Row, add_rows
        from records.models import seat_name

        rows = self.pool.get(template["id"], [])
        position = {s["seat"]: k for k, s in enumerate(template["seats"])}
        if len(rows) != len(position):
            raise ValueError(f"pool game {template['id']}: a player in two seats")
        derived = [
            Row(
                who[position[r.seat]],
                game_id,
                r.kind,
                created_at,
                r.finished,
                r.seat,
                seat_name(players_text, r.seat),
                r.seats,
                r.place,
                r.score,
                r.won,
                r.team,
                r.team_game,
                r.draw,
            )
            for r in rows
        ]
        for r in derived:
            copier.row(
                "players_profilegame",
                (self._id("players_profilegame"), *(getattr(r, f) for f in PROFILE_GAME)),
            )
        add_rows(derived, 1, self.kinds, self.pairs)

    def write(self, copier: Any) -> None:
        """The sums: one ProfileKind per player and game id, one ProfilePair per pair."""
        from players.models import pair_key

        for (player, kind), k in sorted(self.kinds.items()):
            values = [getattr(k, f) for f in KIND_FIELDS]
            values[-2:] = [json.dumps(k.places), json.dumps(k.sizes)]
            copier.row(
                "players_profilekind", (self._id("players_profilekind"), player, kind, *values)
            )
        for (player, other), s in sorted(self.pairs.items()):
            rival = s.rival_named or (None, None, "")
            partner = s.partner_named or (None, None, "")
            copier.row(
                "players_profilepair",
                (
                    self._id("players_profilepair"),
                    pair_key(player, other),
                    player,
                    other,
                    s.ahead + s.behind + s.level,
                    s.ahead,
                    s.behind,
                    s.level,
                    rival[2],
                    rival[0],
                    rival[1],
                    s.partner_games,
                    s.partner_wins,
                    s.partner_draws,
                    partner[2],
                    partner[0],
                    partner[1],
                ),
            )
