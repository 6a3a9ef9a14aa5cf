"""Wild-escape's table: the plain data a replay page draws at each step.

:func:`table_json` turns a :class:`~replay.games._wild_state.State` into JSON-able
data (docs/games/wild-escape.md lists the keys); at the end of a hand it includes the
result that :func:`~replay.games._wild_state.next_hand` derives.  Nothing here changes
the state.

Cost: linear in the hand sizes and the current trick, per call.
"""

from __future__ import annotations

from typing import Any

from replay.games._wild_combos import NATURAL
from replay.games._wild_notation import (
    PLAYERS,
    TEAMS,
    play_order,
    seat_teams,
    team_of,
    team_seats,
    write_levels,
)
from replay.games._wild_state import NextHand, State, next_hand
from replay.record import seat_letter


def _plays_json(plays: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    return [
        {"seat": seat_letter(s), "text": text, "label": label, "pass": text == "pass"}
        for s, text, label in plays
    ]


def _result_json(state: State, nxt: NextHand) -> dict[str, Any]:
    before = state.levels[state.offense]
    after = nxt.levels[state.offense]
    return {
        "outcome": nxt.result,
        "first_escaper": seat_letter(nxt.first),
        "winning_team": TEAMS[team_of(nxt.winners[0])] if nxt.winners else None,
        "trapped": [seat_letter(s) for s in nxt.trapped],
        "levels_before": write_levels(state.levels),
        "levels_after": write_levels(nxt.levels),
        "level_change": NATURAL[after] - NATURAL[before],
        "next_offense": TEAMS[nxt.offense],
        "next_first": seat_letter(nxt.first),
        "tribute_next": {
            "givers": [seat_letter(s) for s in nxt.givers],
            "receivers": [seat_letter(s) for s in nxt.receivers],
        },
        "match_over": nxt.match_over,
    }


def last_trick_json(state: State) -> dict[str, Any] | None:
    """The last finished trick as the table shows it (None before the first)."""
    if state.finished is None:
        return None
    number, leader, plays, winner, label = state.finished
    return {
        "number": number,
        "leader": seat_letter(leader),
        "plays": _plays_json(plays),
        "winner": seat_letter(winner),
        "label": label,
    }


def table_json(state: State) -> dict[str, Any]:
    """Plain data to draw the table (docs/games/wild-escape.md lists the keys)."""
    seats = [seat_letter(s) for s in range(PLAYERS)]
    trump = state.trump
    hands = {
        seats[s]: sorted(h.elements(), key=lambda c: play_order(c, trump))
        for s, h in enumerate(state.hands)
    }
    top = state.top
    nxt = next_hand(state) if state.phase == "over" else None
    return {
        "seats": seats,
        "teams": {TEAMS[t]: [seats[s] for s in team_seats(t)] for t in (0, 1)},
        "team_of": seat_teams(PLAYERS),
        "levels": {TEAMS[0]: state.levels[0], TEAMS[1]: state.levels[1]},
        "offense": TEAMS[state.offense],
        "first": seats[state.first],
        "trump": trump,
        "final_level": state.final,
        "phase": state.phase,
        "turn": seats[state.actor] if state.actor is not None else None,
        "tribute": [
            {
                "giver": seats[e.giver],
                "receiver": seats[e.receiver],
                "card": e.card,
                "returned": list(e.returned),
                "back": e.back,
                "joker": e.joker,
                "done": e.step == 3,
            }
            for e in state.exchanges
        ],
        "hands": hands,
        "counts": {seats[s]: sum(h.values()) for s, h in enumerate(state.hands)},
        "trick": {
            "number": state.trick,
            "leader": seats[state.leader],
            "plays": _plays_json(state.plays),
            "top": (
                {"seat": seats[top.seat], "text": top.text, "label": top.combo.label}
                if top is not None
                else None
            ),
            "passed": [seats[s] for s in sorted(state.passed)],
        }
        if state.phase == "play"
        else None,
        "last_trick": last_trick_json(state),
        "escaped": [seats[s] for s in state.escaped],
        "last": ({"seat": seats[state.last[0]], "text": state.last[1]} if state.last else None),
        "over": nxt is not None,
        "result": _result_json(state, nxt) if nxt is not None else None,
        "scores": nxt.result if nxt is not None else None,
    }
