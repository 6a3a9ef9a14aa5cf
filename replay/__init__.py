"""Kibitz's rules engine and KGN notation: pure Python, no Django.

Public entry points:

- :func:`replay.kgn.read_records` — split KGN text into syntax-level records;
- :func:`replay.load.load_record` — turn one into a typed :class:`~replay.record.GameRecord`;
- :func:`replay.verify.verify` / :func:`replay.verify.replay_steps` — replay it;
- :func:`replay.kgn.write_record` — the canonical writer;
- :mod:`replay.registry` — game id -> rules plug-in.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
