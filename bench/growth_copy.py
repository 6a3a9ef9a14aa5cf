"""Bulk-loading the growth benchmark's archives (bench/growth_data.py): rows in COPY's
text format, one COPY per table."""

from __future__ import annotations

from typing import Any

import psycopg

from bench.growth_profiles import KIND_FIELDS, PAIR_FIELDS, PROFILE_GAME


def esc(value: Any) -> str:
    """A value in COPY's text format."""
    if value is None:
        return "\\N"
    if value is True or value is False:
        return "t" if value else "f"
    text = str(value)
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        text = (
            text.replace("\\", "\\\\")
            .replace("\t", "\\t")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
    return text


class Copier:
    """One COPY per table, each on its own connection (one transaction each; foreign keys
    not checked: session_replication_role = replica), fed rows in COPY's text format."""

    TABLES = {
        "records_event": (
            "id",
            "owner_id",
            "name",
            "created_at",
            "site",
            "description",
            "visibility",
        ),
        "records_player": ("id", "name", "key", "merged_into_id", "owner_id", "pid", "created_at"),
        "records_upload": [
            "id",
            "owner_id",
            "visibility",
            "file",
            "original_name",
            "size",
            "sha256",
            "status",
            "records_found",
            "records_verified",
            "records_rejected",
            "records_incomplete",
            "records_duplicate",
            "event_id",
            "error",
            "notes",
            "event_tag",
            "intake_error",
            "created_at",
            "started_at",
            "finished_at",
        ],
        # the columns a template fixes last (``bench.growth_data._tails``), as one pre-written text
        "records_game": [
            "id",
            "identity",
            "deal",
            "players_text",
            "public",
            "created_at",
            "listed_at",
            "verified_at",
            "game",
            "num_players",
            "first",
            "num_actions",
            "status",
            "result",
            "winners",
            "facts",
            "variant",
            "best_score",
            "engine",
            "hidden_at",
            "hidden_reason",
        ],
        "records_record": [
            "id",
            "upload_id",
            "game_id",
            "index",
            "part_index",
            "first_line",
            "last_line",
            "date",
            "site",
            "event_tag",
            "part_name",
            "tags",
            "comments",
            "created_at",
            "game_listed_at",
            "match",
            "round",
            "canonical",
            "source",
            "status",
            "error_line",
            "error_column",
            "error_action",
            "error_message",
            "duplicate",
            "engine",
        ],
        "records_seat": ("id", "game_id", "seat", "letter", "player_id", "score", "won"),
        "records_fact": ("id", "game_id", "name", "number", "text", "player_id"),
        # the profiles' aggregates (players/aggregates.py), as the ingest's hook keeps them
        "players_profilegame": ("id", *PROFILE_GAME),
        "players_profilekind": ("id", "player_id", "kind", *KIND_FIELDS),
        "players_profilepair": ("id", "key", "player_id", "other_id", *PAIR_FIELDS),
    }
    FLUSH = 1 << 20

    def __init__(self, url: str) -> None:
        self.conns: dict[str, psycopg.Connection[Any]] = {}
        self.copies: dict[str, Any] = {}
        self.lines: dict[str, list[str]] = {t: [] for t in self.TABLES}
        self.rows = dict.fromkeys(self.TABLES, 0)
        self._ctx: list[Any] = []
        for table, columns in self.TABLES.items():
            conn = psycopg.connect(url)
            conn.execute("SET session_replication_role = replica")
            conn.execute("SET synchronous_commit = off")
            cols = ", ".join(f'"{c}"' for c in columns)
            ctx = conn.cursor().copy(f"COPY {table} ({cols}) FROM STDIN")
            self.copies[table] = ctx.__enter__()
            self._ctx.append(ctx)
            self.conns[table] = conn

    def row(self, table: str, values: tuple[Any, ...]) -> None:
        """One row; its values: None, a bool or anything ``str`` writes."""
        self.line(table, "\t".join(map(esc, values)) + "\n")

    def line(self, table: str, line: str) -> None:
        """One row, written (COPY's text format, ending in a newline)."""
        lines = self.lines[table]
        lines.append(line)
        if len(lines) >= 4096:
            self._flush(table)

    def _flush(self, table: str) -> None:
        self.copies[table].write("".join(self.lines[table]))
        self.rows[table] += len(self.lines[table])
        self.lines[table] = []

    def __enter__(self) -> Copier:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        """Commit every COPY; on any error (in the rows or in a COPY), close every
        connection: their transactions roll back and hold no lock on the tables."""
        try:
            if kind is None:
                for table in self.TABLES:
                    self._flush(table)
                for ctx in self._ctx:
                    ctx.__exit__(None, None, None)
                for conn in self.conns.values():
                    conn.commit()
        finally:
            for conn in self.conns.values():
                conn.close()


NULL = "\\N"
