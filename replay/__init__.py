"""Kibitz's rules engine and KGN notation: pure Python, no Django.

Public entry points:

- :func:`replay.kgn.read_records` — split KGN text into syntax-level records;
- :func:`replay.load.load_record` — turn one into a typed :class:`~replay.record.GameRecord`;
- :func:`replay.verify.verify` / :func:`replay.verify.replay_steps` — replay it;
- :func:`replay.kgn.write_record` — the canonical writer;
- :mod:`replay.registry` — game id -> rules plug-in.
"""

__all__ = ["ENGINE_VERSION", "__version__", "version_key"]
__version__ = "0.6.0"
#: the version stored with every verdict (``manage.py reverify --since/--before`` compare
#: it); raise it whenever a change to the engine may change a verdict
ENGINE_VERSION = __version__


def version_key(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` -> ``(0, 10, 2)``: versions in numeric order (a part that is not a
    number counts as 0)."""
    return tuple(int(part) if part.isdigit() else 0 for part in version.strip().split("."))
