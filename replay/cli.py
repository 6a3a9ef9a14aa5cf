"""``python -m replay``: verify, generate and format KGN files without the archive.

Exit codes: 0 when nothing is rejected or broken, 1 otherwise, 2 for a usage error
(bad arguments, a file that cannot be read).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from replay import registry
from replay.generate import DateRange, generate_matches, generate_records
from replay.kgn import write_records
from replay.matches import MatchStatus
from replay.pipeline import Checked, check_bytes, matches_of
from replay.record import Variant
from replay.rules import AnyRules
from replay.verify import Status

EXIT_OK, EXIT_FAULT, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _record_json(file: str, c: Checked) -> dict[str, Any]:
    return {
        "file": file,
        "index": c.index,
        "game": c.game,
        "status": str(c.status),
        "result": c.verdict.result_json(),
        "error": c.error.as_dict() if c.error is not None else None,
    }


def _record_line(file: str, c: Checked) -> str:
    who = c.game or "?"
    if c.error is not None:
        return f"{file} #{c.index} {who}: {c.status} — {c.error.describe()}"
    if c.verdict.outcome is not None:
        return f"{file} #{c.index} {who}: {c.status} ({c.verdict.outcome.describe()})"
    return f"{file} #{c.index} {who}: {c.status} ({c.verdict.actions_verified} actions)"


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    return Path(path).read_bytes()


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    files: list[tuple[str, bytes]] = []
    for name in args.files:
        try:
            files.append((name, _read(name)))
        except OSError as exc:
            sys.stderr.write(f"replay verify: cannot read {name}: {exc.strerror or exc}\n")
            return EXIT_USAGE
    results: list[tuple[str, Checked]] = [
        (name, c) for name, data in files for c in check_bytes(data, canonical=False)
    ]
    # a match may span files (one file per round), so matches are judged across all
    matches = matches_of(c for _, c in results)
    bad = any(c.status is Status.REJECTED for _, c in results) or any(
        m.status is MatchStatus.BROKEN for m in matches
    )
    if args.json:
        doc = {
            "records": [_record_json(name, c) for name, c in results],
            "matches": [m.as_dict() for m in matches],
        }
        json.dump(doc, out, ensure_ascii=False, indent=2 if args.pretty else None)
        out.write("\n")
    else:
        for name, c in results:
            out.write(_record_line(name, c) + "\n")
        for m in matches:
            where = f" at round {m.round}" if m.round is not None else ""
            why = f": {m.message}" if m.message else ""
            out.write(f"match {m.event!r} / {m.match!r}: {m.status}{where}{why}\n")
        counts = {s: sum(1 for _, c in results if c.status is s) for s in Status}
        out.write(
            f"{len(results)} records: {counts[Status.VERIFIED]} verified, "
            f"{counts[Status.INCOMPLETE]} incomplete, {counts[Status.REJECTED]} rejected\n"
        )
    return EXIT_FAULT if bad else EXIT_OK


def cmd_generate(args: argparse.Namespace, out: TextIO) -> int:
    rules = registry.get(args.game)
    if rules is None:
        sys.stderr.write(
            f"replay generate: unknown game {args.game!r} "
            f"(available: {', '.join(registry.game_ids())})\n"
        )
        return EXIT_USAGE
    if args.players is not None and not rules.min_players <= args.players <= rules.max_players:
        sys.stderr.write(
            f"replay generate: {args.game} takes {rules.min_players}–{rules.max_players} "
            f"players, not {args.players}\n"
        )
        return EXIT_USAGE
    try:
        variant = _variant_arg(rules, args.variant, args.players)
        dates = DateRange.parse(args.dates) if args.dates is not None else None
    except ValueError as exc:
        sys.stderr.write(f"replay generate: {exc}\n")
        return EXIT_USAGE
    # a game whose records are hands of a match (wild-escape) writes whole matches
    matches = args.matches or (rules.match_has_end and not args.single)
    make = generate_matches if matches else generate_records
    records = make(
        args.game,
        count=args.count,
        seed=args.seed,
        players=args.players,
        event=args.event,
        variant=variant,
        dates=dates,
    )
    text = write_records(records)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return EXIT_OK


def _variant_arg(rules: AnyRules, text: str | None, players: int | None) -> Variant | None:
    """``--variant "a=b, c=d"`` as a full option map (None: drawn per game)."""
    if text is None:
        return None
    chosen: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = (s.strip() for s in part.partition("="))
        try:
            opt = rules.option(name)
        except KeyError:
            names = ", ".join(o.name for o in rules.options) or "none"
            raise ValueError(f"{rules.game} has no option {name!r} (options: {names})") from None
        if value not in opt.values:
            raise ValueError(f"{name} is one of {', '.join(opt.values)}, not {value!r}")
        chosen[name] = value
    variant = Variant(tuple((o.name, chosen.get(o.name, o.default)) for o in rules.options))
    if players is not None:
        problem = rules.check_variant(players=players, variant=variant)
        if problem:
            raise ValueError(problem)
    return variant


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m replay", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    v = sub.add_parser("verify", help="replay every record and print its verdict")
    v.add_argument("files", nargs="+", metavar="FILE", help="KGN files ('-' for stdin)")
    v.add_argument("--json", action="store_true", help="machine-readable output")
    v.add_argument("--pretty", action="store_true", help="indent the JSON")
    v.set_defaults(run=cmd_verify)
    g = sub.add_parser("generate", help="write random valid games as one KGN file")
    g.add_argument("--game", required=True, help="game id, e.g. escalation-pierce")
    g.add_argument("--count", type=int, default=1)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--players", type=int, default=None)
    g.add_argument("--event", default=None, help="an Event tag for every game")
    g.add_argument(
        "--variant",
        default=None,
        help='options, e.g. "special-lead=if-only-specials" '
        "(default: drawn at random for each game)",
    )
    g.add_argument(
        "--dates",
        default=None,
        metavar="FIRST-LAST",
        help="a Date tag for every game, spread over these days in order, e.g. "
        "2026.01.01-2026.03.31 (the same seed gives the same dates; a match's hands share "
        "its day); default: no Date tags",
    )
    g.add_argument(
        "--matches",
        action="store_true",
        help="write --count whole matches (Match and Round tags), not single games; "
        "the default for games whose records are hands of a match (wild-escape)",
    )
    g.add_argument(
        "--single",
        action="store_true",
        help="write single games even where whole matches are the default",
    )
    g.add_argument("-o", "--output", default=None, help="write to this file, not stdout")
    g.set_defaults(run=cmd_generate)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "count", 1) < 0:
        sys.stderr.write("replay generate: --count must be 0 or more\n")
        return EXIT_USAGE
    run = args.run
    return int(run(args, out if out is not None else sys.stdout))
