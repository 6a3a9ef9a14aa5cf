"""``kibitz push`` and ``kibitz pull`` (docs/client.md).

Exit codes: 0 when every record pushed is verified (push) or the games were written
(pull); 1 when a record pushed was rejected or is incomplete, or an upload failed;
2 for a usage error (bad arguments, no such file, a sync file of another query), a
server that cannot be reached or answers otherwise than the API, a refused token, a
refused upload or request, or verdicts not in within ``--wait`` seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn

from kibitz_client import __version__, pull, push
from kibitz_client.http import Refused, Server, TransportError

EXIT_OK, EXIT_FAULT, EXIT_USAGE = 0, 1, 2

#: pull's filter options and the query parameters they set (docs/api.md, GET /api/games/)
FILTERS = {
    "game": "game id, e.g. escalation-pierce",
    "player": "a player name or PlayerIds id (several: comma-separated)",
    "event": "an event id, or owner/name",
    "match": "a Match tag",
    "winner": "a player name: games that player won",
    "status": "verified, rejected or incomplete",
    "date_from": "the Date tag at least: YYYY, YYYY.MM or YYYY.MM.DD",
    "date_to": "the Date tag at most",
    "since": "stored at or after this time (ISO 8601)",
    "until": "stored before this time (ISO 8601)",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kibitz", description="Push KGN files to a Kibitz server, pull games.")
    parser.add_argument("--version", action="version", version=f"kibitz {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    env_server = os.environ.get("KIBITZ_SERVER") or None
    env_token = os.environ.get("KIBITZ_TOKEN") or None

    def common(p: argparse.ArgumentParser, *, token_required: bool) -> None:
        p.add_argument(
            "--server",
            default=env_server,
            required=env_server is None,
            help="the server's address, e.g. https://kibitz.example (default: $KIBITZ_SERVER)",
        )
        p.add_argument(
            "--token",
            default=env_token,
            required=token_required and env_token is None,
            help="a personal API token, kbz_… (default: $KIBITZ_TOKEN)",
        )
        p.add_argument(
            "-q", "--quiet", action="store_true", help="no progress display (the report stays)"
        )

    up = sub.add_parser("push", help="upload KGN files and folders, wait for the verdicts")
    up.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER")
    common(up, token_required=True)
    up.add_argument("--visibility", choices=("public", "private"), default=None)
    event = up.add_mutually_exclusive_group()
    event.add_argument("--event", help="your event of this name (made if you have none)")
    event.add_argument("--event-id", type=int, help="the id of one of your events")
    up.add_argument(
        "--wait",
        type=float,
        default=1800.0,
        help="seconds to wait for the verdicts (default 1800)",
    )
    up.add_argument("--json", action="store_true", help="print the report as JSON")
    up.set_defaults(run=cmd_push)

    down = sub.add_parser("pull", help="download games matching the filters as KGN or NDJSON")
    common(down, token_required=False)
    down.add_argument("--format", choices=tuple(pull.FORMATS), default="kgn")
    down.add_argument("-o", "--out", type=Path, default=None, help="file (default: stdout)")
    for name, what in FILTERS.items():
        down.add_argument(f"--{name.replace('_', '-')}", dest=name, help=what)
    down.add_argument("--sort", help="the list's order (not with --sync-file: store order)")
    down.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any other search parameter, e.g. opt.special-lead=always (repeatable)",
    )
    down.add_argument(
        "--sync-file",
        type=Path,
        default=None,
        help="resume from the cursor saved here, and save the new one (only games stored "
        "since the last pull)",
    )
    down.set_defaults(run=cmd_pull)
    return parser


def cmd_push(args: argparse.Namespace, out: TextIO, console: Console) -> int:
    try:
        files = push.find_files(args.paths)
    except push.UsageError as exc:
        return _fail(f"kibitz push: {exc}")
    server = Server(args.server, args.token)
    report = push.push(
        server,
        files,
        visibility=args.visibility,
        event_name=args.event,
        event_id=args.event_id,
        console=console,
        wait=args.wait,
        show=not args.quiet,
    )
    if args.json:
        doc = {
            "files": [item.as_dict() for item in report.pushed],
            "counts": report.counts(),
            "timed_out": report.timed_out,
        }
        out.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    else:
        out.write("\n".join(push.report_lines(report)) + "\n")
    if report.timed_out or any(item.refused is not None for item in report.pushed):
        return EXIT_USAGE
    return EXIT_OK if report.all_verified else EXIT_FAULT


def cmd_pull(args: argparse.Namespace, out: TextIO, console: Console) -> int:
    filters = {name: getattr(args, name) for name in FILTERS if getattr(args, name)}
    for item in args.filter:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            return _fail(f"kibitz pull: --filter {item!r} is not NAME=VALUE")
        filters[name.strip()] = value
    if args.sort:
        if args.sync_file is not None:
            return _fail("kibitz pull: --sort and --sync-file: a sync pull is in store order")
        filters["sort"] = args.sort
    server = Server(args.server, args.token)
    with Progress(
        SpinnerColumn(), TextColumn("pulling games… {task.completed}"), console=console
    ) as progress:
        task = progress.add_task("pull", total=None, visible=not args.quiet)
        found = pull.pull(
            server,
            filters=filters,
            fmt=args.format,
            out=args.out,
            sync_file=args.sync_file,
            seen=lambda n: progress.update(task, completed=n),
        )
    where = str(args.out) if args.out is not None else "stdout"
    since = " (stored since the last pull)" if found.resumed else ""
    console.print(f"{found.games} games{since} written to {where} as {args.format}")
    if found.repeated:
        console.print(f"{found.repeated} games of the last pull sent again, not written twice")
    if found.sync is not None:
        console.print(f"sync cursor saved to {args.sync_file}")
    if found.warning:
        console.print(f"warning: {found.warning}")
    return EXIT_OK


def _fail(message: str) -> int:
    sys.stderr.write(message + "\n")
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    # plain lines (no wrapping, markup or colouring of the server's words) under the bars
    console = Console(stderr=True, soft_wrap=True, markup=False, highlight=False)
    what = f"kibitz {args.command}"
    try:
        return int(args.run(args, out if out is not None else sys.stdout, console))
    except Refused as exc:
        return _fail(f"{what}: the server refused: {_refusal(exc, args)}")
    except TransportError as exc:
        return _fail(f"{what}: {exc}")
    except pull.UsageError as exc:
        return _fail(f"{what}: {exc}")
    except KeyboardInterrupt:
        return _fail(f"{what}: interrupted")


def _refusal(exc: Refused, args: Any) -> str:
    if exc.status == 401:
        hint = "check --token / $KIBITZ_TOKEN" if args.token else "this needs --token"
        return f"{exc} ({hint})"
    if exc.status == 403:
        return f"{exc} (the token may lack the scope this needs: read, upload or manage)"
    return str(exc)
