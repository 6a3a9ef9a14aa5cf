"""A match's continuity on the pipeline's verdicts (NOTATION.md §7, issue 27): a
hand that is rejected and whose tags do not follow from the previous round breaks the
match there, whatever made it rejected; a hand after the match's final hand breaks it
whatever its Round number, missing rounds before it included."""

from __future__ import annotations

from pathlib import Path

from replay.pipeline import check_text, matches_of

SHARED = Path(__file__).resolve().parents[3] / "shared"
MATCH = (SHARED / "examples" / "wild-escape-match.kgn").read_text(encoding="utf-8")


def _hands(text: str) -> list[str]:
    starts = [k for k in range(len(text)) if text.startswith('[Game "wild-escape"]', k)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def _verdict(text: str) -> dict[str, object]:
    (match,) = matches_of(check_text(text, canonical=False))
    return match.as_dict()


def test_the_example_match_is_complete() -> None:
    assert _verdict(MATCH)["status"] == "complete"


def test_a_hand_rejected_at_its_setup_whose_first_does_not_follow_breaks_there() -> None:
    hands = _hands(MATCH)
    # round 3: First should be A (the previous hand's first escaper); C disagrees with
    # the Tribute tag too, so the hand does not load, and its tags judge continuity
    hands[2] = hands[2].replace('[First "A"]', '[First "C"]')
    checked = list(check_text("".join(hands), canonical=False))
    assert str(checked[2].status) == "rejected"
    (match,) = matches_of(checked)
    assert match.as_dict()["status"] == "broken"
    assert match.round == 3
    assert "First should be" in str(match.message)


def test_a_rejected_hand_whose_levels_do_not_read_breaks_there() -> None:
    hands = _hands(MATCH)
    hands[3] = hands[3].replace('[Levels "ACE 4, BDF 2"]', '[Levels "ACE 5, BDF 2"]')
    hands[3] = hands[3].replace("\n\n", "\n\n} ", 1)
    verdict = _verdict("".join(hands))
    assert verdict["status"] == "broken" and verdict["round"] == 4
    assert "Levels should be" in str(verdict["message"])


def test_a_hand_after_the_final_hand_breaks_the_match_even_past_a_missing_round() -> None:
    hands = _hands(MATCH)
    extra = hands[-1].replace('[Round "6"]', '[Round "8"]')
    verdict = _verdict("".join(hands).rstrip("\n") + "\n\n" + extra)
    assert verdict["status"] == "broken" and verdict["round"] == 8
    assert "ended with round 6" in str(verdict["message"])


def test_a_hand_rejected_at_an_unreadable_action_whose_first_does_not_follow_breaks() -> None:
    hands = _hands(MATCH)
    # round 5 owes no tribute, so First D (of the offense BDF) loads; B should lead
    hands[4] = hands[4].replace('[First "B"]', '[First "D"]').replace("\n\n", "\n\n} ", 1)
    checked = list(check_text("".join(hands), canonical=False))
    error = checked[4].verdict.error
    assert error is not None and error.action == 1
    (match,) = matches_of(checked)
    assert (str(match.status), match.round) == ("broken", 5)
    assert "First should be B" in str(match.message)
