"""Wild-escape match continuity (NOTATION.md §7): does a hand's setup follow from the
previous hand's outcome?  One check serves a hand that loaded (its Setup) and a hand
that did not (its tags as written: NOTATION.md judges continuity on a record's tags
whether or not the record itself is verified).

Cost: nothing beyond the previous hand's replay (:func:`next_hand`), which the caller
makes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence

from replay.errors import SetupError
from replay.games import _wild_notation as wn
from replay.games._wild_state import NextHand
from replay.record import seat_index, seat_letter


def continuity(
    nxt: NextHand,
    *,
    levels: tuple[str, str] | str,
    offense: int | str,
    first: int | str,
    tribute: Sequence[tuple[int, int]] | str,
) -> str | None:
    """Why a hand with this setup cannot follow the hand that gave ``nxt``, or None.

    Each value is the one read, or (a hand whose tags do not read) the tag's text,
    which follows from nothing."""
    after = f"after the previous hand ({nxt.result})"
    if levels != nxt.levels:
        shown = levels if isinstance(levels, str) else wn.write_levels(levels)
        return f"Levels should be {wn.write_levels(nxt.levels)} {after}, not {shown}"
    if offense != nxt.offense:
        return (
            f"Offense should be {wn.TEAMS[nxt.offense]}, the team of the previous hand's "
            f"first escaper ({seat_letter(nxt.first)})"
        )
    if first != nxt.first:
        return f"First should be {seat_letter(nxt.first)}, the previous hand's first escaper"
    givers = sorted(g for g, _ in tribute) if not isinstance(tribute, str) else None
    receivers = [r for _, r in tribute] if not isinstance(tribute, str) else None
    if givers != sorted(nxt.givers) or receivers != list(nxt.receivers):
        if not nxt.givers:
            return f"no tribute is owed {after}, but Tribute names some"
        return (
            f"Tribute should be owed by {', '.join(seat_letter(g) for g in sorted(nxt.givers))} "
            f"(trapped) to {', '.join(seat_letter(r) for r in nxt.receivers)} (in escape order)"
        )
    return None


def tags_continuity(nxt: NextHand, tags: Mapping[str, str], *, final: str) -> str | None:
    """:func:`continuity` judged on a hand's tags as written (a hand whose setup did not
    load: a bad Deal, or tags that disagree among themselves)."""
    levels: tuple[str, str] | str = tags.get("Levels", "")
    with contextlib.suppress(SetupError):
        levels = wn.parse_levels(str(levels), final=final)
    offense: int | str = tags.get("Offense", "").strip().upper()
    if offense in wn.TEAMS:
        offense = wn.TEAMS.index(str(offense))
    first: int | str = tags.get("First", "A").strip().upper()
    if len(str(first)) == 1 and "A" <= str(first) <= "F":
        first = seat_index(str(first))
    tribute: Sequence[tuple[int, int]] | str = tags.get("Tribute", "")
    with contextlib.suppress(SetupError):
        tribute = wn.tribute_pairs(str(tribute))
    return continuity(nxt, levels=levels, offense=offense, first=first, tribute=tribute)
