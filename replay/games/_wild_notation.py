"""Wild-escape notation: the setup tags and the actions (NOTATION.md §4 "wild-escape").

Setup tags: ``Levels`` (``"ACE 2, BDF 2"``), ``Offense`` (``"ACE"``), ``Tribute``
(``"C>A, E>B"``) and ``Deal`` (27 cards each from the 162-card pack).  Actions: a play
(``7S 7H``, ``SJ=9S 9H 9D``), ``pass``, ``tribute BJ``, ``return 4S`` / ``return 4S 5S``.

Each reader is paired with a writer of the canonical form (NOTATION.md §9).  What the
words alone decide is checked here; whether a move is legal now is the rules' business.
Cost: linear in the length of the tag or action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from replay.cards import spellings
from replay.errors import ActionSyntaxError, SetupError
from replay.games._deal import check_pack, parse_deal, require, write_deal
from replay.games._wild_combos import (
    BIG,
    JOKERS,
    NATURAL,
    RANKS,
    SMALL,
    SUITS,
    ComboError,
    Played,
    check_declaration,
    single_value,
    write_played,
)
from replay.record import seat_index, seat_letter
from replay.slots import slot_init

PLAYERS = 6
HAND_SIZE = 27
TEAMS = ("ACE", "BDF")
#: the pack: three 54-card packs, each standard card three times, 3 BJ and 3 SJ
PACK: tuple[str, ...] = tuple(
    code for code in [r + s for s in SUITS for r in RANKS] + list(JOKERS) for _ in range(3)
)


def team_of(seat: int) -> int:
    """0 for ACE (seats A, C, E), 1 for BDF."""
    return seat % 2


def team_seats(team: int) -> tuple[int, ...]:
    return tuple(range(team, PLAYERS, 2))


def seat_teams(players: int) -> dict[str, str]:
    """Seat letter -> team name (``{"A": "ACE", "B": "BDF", ...}``) at a table of
    ``players``: :func:`team_of` named; ``{}`` for any table but the game's six.  What
    :meth:`Rules.teams <replay.rules.Rules.teams>` and the table's ``team_of`` give."""
    if players != PLAYERS:
        return {}
    return {seat_letter(s): TEAMS[team_of(s)] for s in range(PLAYERS)}


def read_card(word: str) -> str:
    """``"10h"`` -> ``"TH"``, ``"sj"`` -> ``"SJ"``; ValueError with a user's message."""
    up = word.strip().upper()
    if up.startswith("10"):
        up = "T" + up[2:]
    if up in JOKERS or (len(up) == 2 and up[0] in NATURAL and up[1] in SUITS):
        return up
    raise ValueError(f"{word!r} is not a card (like 7H, TS, SJ or BJ)")


def read_rank(word: str) -> str:
    up = word.strip().upper()
    up = "T" if up == "10" else up
    if len(up) != 1 or up not in NATURAL:
        raise ValueError(f"{word!r} is not a rank (2 to 9, T, J, Q, K, A)")
    return up


def card_order(code: str) -> tuple[int, int]:
    """Canonical order (NOTATION.md §9): by rank, then suit C D H S; SJ, then BJ last."""
    if code == SMALL:
        return (15, 0)
    if code == BIG:
        return (16, 0)
    return (NATURAL[code[0]], SUITS.index(code[1]))


#: every card code: its usual spellings, and its place in the canonical order
_SPELLED = spellings(set(PACK))
_ORDER_KEY = {code: card_order(code) for code in set(PACK)}.__getitem__


def play_order(code: str, trump: str) -> tuple[int, int]:
    """Single order under a trump rank (for showing a hand low to high)."""
    return (single_value(code, trump), SUITS.index(code[1]) if code not in JOKERS else 0)


# --- setup --------------------------------------------------------------------------
@slot_init
@dataclass(frozen=True, slots=True)
class Setup:
    """One hand's setup: levels (rank letters, ACE's then BDF's), the offense team,
    the tribute owed (giver, receiver) in receivers' escape order, the 27-card hands."""

    levels: tuple[str, str]
    offense: int
    tribute: tuple[tuple[int, int], ...]
    hands: tuple[tuple[str, ...], ...]

    @property
    def trump(self) -> str:
        return self.levels[self.offense]


def parse_levels(value: str, *, final: str) -> tuple[str, str]:
    levels: dict[int, str] = {}
    for part in value.split(","):
        words = part.split()
        if len(words) != 2 or words[0].upper() not in TEAMS:
            raise SetupError(
                f'{part.strip()!r} in Levels is not a team and its level, like "ACE 2"',
                tag="Levels",
            )
        team = TEAMS.index(words[0].upper())
        if team in levels:
            raise SetupError(f"Levels gives {TEAMS[team]} twice", tag="Levels")
        try:
            rank = read_rank(words[1])
        except ValueError as exc:
            raise SetupError(f"the level of {TEAMS[team]} in Levels: {exc}", tag="Levels") from None
        if NATURAL[rank] > NATURAL[final]:
            raise SetupError(
                f"{TEAMS[team]} is at level {rank}, above the final level {final}", tag="Levels"
            )
        levels[team] = rank
    missing = [TEAMS[t] for t in (0, 1) if t not in levels]
    if missing:
        raise SetupError(f"Levels gives no level for {', '.join(missing)}", tag="Levels")
    return levels[0], levels[1]


def write_levels(levels: tuple[str, str]) -> str:
    return f"{TEAMS[0]} {levels[0]}, {TEAMS[1]} {levels[1]}"


def parse_offense(value: str, *, first: int) -> int:
    word = value.strip().upper()
    if word not in TEAMS:
        raise SetupError(f"Offense {value!r} must be ACE or BDF", tag="Offense")
    team = TEAMS.index(word)
    if team_of(first) != team:
        letter = seat_letter(first)
        where = "First" if first != 0 else "Offense"
        raise SetupError(
            f"First is {letter}, who is not in the offense {word}: the offense leader "
            f"leads first (First is one of {', '.join(seat_letter(s) for s in team_seats(team))})",
            tag=where,
        )
    return team


def tribute_pairs(value: str) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for part in value.split(","):
        if not part.strip():
            continue
        giver, sep, receiver = part.partition(">")
        g, r = giver.strip().upper(), receiver.strip().upper()
        ok = sep and len(g) == 1 and len(r) == 1 and "A" <= g <= "F" and "A" <= r <= "F"
        if not ok:
            raise SetupError(
                f'{part.strip()!r} in Tribute is not giver>receiver, like "C>A"', tag="Tribute"
            )
        pairs.append((seat_index(g), seat_index(r)))
    return pairs


def parse_tribute(
    value: str, *, offense: int, first: int, hands: Sequence[Sequence[str]], trump: str
) -> tuple[tuple[int, int], ...]:
    """The pairs, checked: givers in the defense, receivers in the offense, nobody
    twice, the first receiver is First (the last hand's first escaper), and the highest
    tribute goes to the first receiver (the givers' highest cards, from the Deal)."""
    pairs = tribute_pairs(value)
    seen: set[int] = set()
    for g, r in pairs:
        for s in (g, r):
            if s in seen:
                raise SetupError(f"{seat_letter(s)} appears twice in Tribute", tag="Tribute")
            seen.add(s)
        if team_of(r) != offense or team_of(g) == offense:
            raise SetupError(
                f"{seat_letter(g)}>{seat_letter(r)}: tribute goes from the defense "
                f"({TEAMS[1 - offense]}) to the offense ({TEAMS[offense]})",
                tag="Tribute",
            )
    if pairs and pairs[0][1] != first:
        raise SetupError(
            f"the first receiver, {seat_letter(pairs[0][1])}, must be First "
            f"({seat_letter(first)}): both are the last hand's first escaper",
            tag="Tribute",
        )
    tops = [max(single_value(c, trump) for c in hands[g]) for g, _ in pairs]
    for k in range(1, len(pairs)):
        if tops[k] > tops[k - 1]:
            hi, lo = pairs[k][0], pairs[k - 1][0]
            raise SetupError(
                f"{seat_letter(hi)}'s highest card beats {seat_letter(lo)}'s, so "
                f"{seat_letter(hi)}'s tribute goes to the earlier receiver "
                f"({seat_letter(pairs[k - 1][1])})",
                tag="Tribute",
            )
    return tuple(pairs)


def write_tribute(pairs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{seat_letter(g)}>{seat_letter(r)}" for g, r in pairs)


def parse_setup(tags: Mapping[str, str], *, first: int, final: str) -> Setup:
    levels = parse_levels(require(tags, "Levels"), final=final)
    offense = parse_offense(require(tags, "Offense"), first=first)
    hands = parse_deal(
        require(tags, "Deal"),
        players=PLAYERS,
        hand_size=HAND_SIZE,
        parse=read_card,
        key=_ORDER_KEY,
        spelled=_SPELLED,
    )
    check_pack(hands, (), PACK, pack_name="162-card pack", key=card_order)
    trump = levels[offense]
    tribute = parse_tribute(
        tags.get("Tribute", ""), offense=offense, first=first, hands=hands, trump=trump
    )
    return Setup(levels, offense, tribute, hands)


def write_setup(setup: Setup) -> dict[str, str]:
    out = {
        "Levels": write_levels(setup.levels),
        "Offense": TEAMS[setup.offense],
        "Deal": write_deal(setup.hands, key=_ORDER_KEY),
    }
    if setup.tribute:
        out["Tribute"] = write_tribute(setup.tribute)
    return out


# --- actions ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Play:
    """Cards played, in the order written; jokers may declare the card they stand for."""

    cards: tuple[Played, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Tribute:
    """``C: tribute BJ``: the giver's tribute card."""

    card: str


@dataclass(frozen=True, slots=True)
class Return:
    """``A: return 4S`` (one card; two after a joker tribute), or the giver's one card
    back after a joker tribute."""

    cards: tuple[str, ...]


Move = Play | Pass | Tribute | Return
PASS = Pass()


def _cards(words: Sequence[str], start: int) -> tuple[str, ...]:
    out = []
    for k, word in enumerate(words[start:], start=start):
        if "=" in word:
            raise ActionSyntaxError(f"{word}: tribute and returned cards declare nothing", word=k)
        try:
            out.append(read_card(word))
        except ValueError as exc:
            raise ActionSyntaxError(str(exc), word=k) from None
    return tuple(out)


def _played(word: str, k: int) -> Played:
    code, sep, declared = word.partition("=")
    try:
        card = read_card(code)
        stands = read_card(declared) if sep else None
    except ValueError as exc:
        raise ActionSyntaxError(str(exc), word=k) from None
    if stands is not None:
        try:
            check_declaration(card, stands)
        except ComboError as exc:
            raise ActionSyntaxError(str(exc), word=k) from None
    return card, stands


def parse_move(words: Sequence[str]) -> Move:
    if not words:
        raise ActionSyntaxError("an action is cards, pass, tribute or return", word=0)
    keyword = words[0].lower()
    if keyword == "pass":
        if len(words) > 1:
            raise ActionSyntaxError("pass takes no cards", word=1)
        return PASS
    if keyword == "tribute":
        if len(words) != 2:
            raise ActionSyntaxError("tribute gives one card: tribute BJ", word=min(len(words), 2))
        return Tribute(_cards(words, 1)[0])
    if keyword == "return":
        if len(words) not in (2, 3):
            raise ActionSyntaxError(
                "return gives back one card (two after a joker tribute)",
                word=min(len(words) - 1, 3),
            )
        return Return(_cards(words, 1))
    return Play(tuple(_played(w, k) for k, w in enumerate(words)))


def write_move(move: Move) -> str:
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Tribute):
        return f"tribute {move.card}"
    if isinstance(move, Return):
        return "return " + " ".join(move.cards)
    return write_played(move.cards)
